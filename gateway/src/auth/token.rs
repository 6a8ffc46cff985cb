//! Access tokens: JWTs signed with HMAC-SHA-256 (HS256), valid for one hour.
//!
//! Claims: `sub` (account id), `sid` (session id), `iat` and `exp` (seconds since the epoch).
//!
//! Why `hmac` + `sha2` rather than a JWT crate: Balcão issues and checks its own tokens with one
//! fixed algorithm, so the whole format is a header we write ourselves, two base64url segments and
//! one MAC. Checking compares the header byte for byte with the one we issue, so there is no
//! algorithm negotiation to get wrong (`alg: none`, RS/HS confusion), and the MAC is compared in
//! constant time by `Mac::verify_slice`. That is fewer lines than configuring a JWT crate's
//! validation, and it keeps one crypto stack (RustCrypto, already used for SHA-256) instead of
//! adding `ring` or `aws-lc-rs` for this alone.

use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::Sha256;
use uuid::Uuid;

/// How long an access token is valid.
pub const ACCESS_TOKEN_TTL: Duration = Duration::from_secs(3600);
/// Shortest accepted signing key, in bytes.
pub const MIN_KEY_BYTES: usize = 32;
/// `{"alg":"HS256","typ":"JWT"}`, the only header issued or accepted.
const HEADER: &str = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9";

type HmacSha256 = Hmac<Sha256>;

/// What an access token says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claims {
    /// The account id.
    pub sub: String,
    /// The session id.
    pub sid: Uuid,
    /// Issued at (seconds since the epoch).
    pub iat: i64,
    /// Expires at (seconds since the epoch).
    pub exp: i64,
}

/// Why a token was refused (the answer is the same 401 for all; the reason is for logs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    /// Not three base64url segments, or not our header, or bad claims.
    #[error("malformed token")]
    Malformed,
    /// The signature does not match.
    #[error("bad signature")]
    BadSignature,
    /// Past its `exp`.
    #[error("expired token")]
    Expired,
}

/// Signs and checks access tokens with one secret key.
#[derive(Clone)]
pub struct TokenKeys {
    key: Vec<u8>,
}

impl std::fmt::Debug for TokenKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TokenKeys(***)")
    }
}

impl TokenKeys {
    /// Keys from a secret of at least [`MIN_KEY_BYTES`] bytes.
    ///
    /// # Errors
    ///
    /// When the secret is shorter.
    pub fn new(secret: &[u8]) -> anyhow::Result<Self> {
        anyhow::ensure!(
            secret.len() >= MIN_KEY_BYTES,
            "the access-token secret must have at least {MIN_KEY_BYTES} bytes"
        );
        Ok(TokenKeys {
            key: secret.to_vec(),
        })
    }

    fn mac(&self) -> HmacSha256 {
        HmacSha256::new_from_slice(&self.key).expect("HMAC accepts keys of any length")
    }

    /// A key for another purpose (e.g. the payment links' signatures), derived from the secret so that every gateway of a cluster
    /// derives the same one, and so that nothing signed for one purpose is valid for another.
    pub fn derive(&self, purpose: &str) -> Vec<u8> {
        let mut mac = self.mac();
        mac.update(b"balcao derived key\n");
        mac.update(purpose.as_bytes());
        mac.finalize().into_bytes().to_vec()
    }

    /// A token for `account_id`'s session `session_id`, issued at `now` (seconds since the
    /// epoch), expiring [`ACCESS_TOKEN_TTL`] later.
    pub fn issue(&self, account_id: &str, session_id: Uuid, now: i64) -> String {
        let claims = Claims {
            sub: account_id.to_owned(),
            sid: session_id,
            iat: now,
            exp: now + i64::try_from(ACCESS_TOKEN_TTL.as_secs()).unwrap_or(i64::MAX),
        };
        let payload = URL_SAFE_NO_PAD
            .encode(serde_json::to_vec(&claims).expect("claims are plain strings and numbers"));
        let signing_input = format!("{HEADER}.{payload}");
        let mut mac = self.mac();
        mac.update(signing_input.as_bytes());
        let signature = URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes());
        format!("{signing_input}.{signature}")
    }

    /// The claims of `token` if it is ours, intact and unexpired at `now`.
    ///
    /// # Errors
    ///
    /// [`TokenError`] saying why not.
    pub fn verify(&self, token: &str, now: i64) -> Result<Claims, TokenError> {
        let mut parts = token.split('.');
        let (Some(header), Some(payload), Some(signature), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(TokenError::Malformed);
        };
        if header != HEADER {
            return Err(TokenError::Malformed);
        }
        let signature = URL_SAFE_NO_PAD
            .decode(signature)
            .map_err(|_| TokenError::Malformed)?;
        let mut mac = self.mac();
        mac.update(header.as_bytes());
        mac.update(b".");
        mac.update(payload.as_bytes());
        mac.verify_slice(&signature)
            .map_err(|_| TokenError::BadSignature)?;
        let payload = URL_SAFE_NO_PAD
            .decode(payload)
            .map_err(|_| TokenError::Malformed)?;
        let claims: Claims = serde_json::from_slice(&payload).map_err(|_| TokenError::Malformed)?;
        if now >= claims.exp {
            return Err(TokenError::Expired);
        }
        Ok(claims)
    }
}

/// Random bytes from the operating system.
///
/// # Panics
///
/// When the operating system has no randomness to give (nothing secure can be done then).
pub fn random_bytes<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).expect("the operating system provides random bytes");
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys() -> TokenKeys {
        TokenKeys::new(&[7u8; 32]).expect("long enough")
    }

    #[test]
    fn the_header_constant_is_the_hs256_jwt_header() {
        let decoded = URL_SAFE_NO_PAD.decode(HEADER).expect("base64url");
        assert_eq!(decoded, br#"{"alg":"HS256","typ":"JWT"}"#);
    }

    #[test]
    fn a_token_carries_its_claims_for_one_hour() {
        let session = Uuid::new_v4();
        let token = keys().issue("conta-1", session, 1_000);
        let claims = keys().verify(&token, 1_001).expect("valid");
        assert_eq!(claims.sub, "conta-1");
        assert_eq!(claims.sid, session);
        assert_eq!(claims.exp - claims.iat, 3600);
        assert_eq!(keys().verify(&token, 4_599).map(|c| c.iat), Ok(1_000));
        assert_eq!(keys().verify(&token, 4_600), Err(TokenError::Expired));
    }

    #[test]
    fn another_key_a_changed_payload_or_another_algorithm_is_refused() {
        let token = keys().issue("conta-1", Uuid::new_v4(), 1_000);
        let other = TokenKeys::new(&[8u8; 32]).unwrap();
        assert_eq!(other.verify(&token, 1_001), Err(TokenError::BadSignature));

        let parts: Vec<&str> = token.split('.').collect();
        let forged_claims = URL_SAFE_NO_PAD.encode(
            serde_json::to_vec(&serde_json::json!({
                "sub": "conta-2", "sid": Uuid::nil(), "iat": 1000, "exp": 99_999
            }))
            .unwrap(),
        );
        let forged = format!("{}.{}.{}", parts[0], forged_claims, parts[2]);
        assert_eq!(keys().verify(&forged, 1_001), Err(TokenError::BadSignature));

        let none_header = URL_SAFE_NO_PAD.encode(br#"{"alg":"none","typ":"JWT"}"#);
        let unsigned = format!("{none_header}.{}.", parts[1]);
        assert_eq!(keys().verify(&unsigned, 1_001), Err(TokenError::Malformed));
        assert_eq!(keys().verify("abc", 1_001), Err(TokenError::Malformed));
        assert_eq!(keys().verify("", 1_001), Err(TokenError::Malformed));
    }

    #[test]
    fn a_short_secret_is_refused() {
        assert!(TokenKeys::new(b"curta").is_err());
    }
}
