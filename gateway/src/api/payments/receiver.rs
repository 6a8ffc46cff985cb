//! The API Pix receiver's pipeline, shared by the bank's webhook and the sandbox.

use commands::CommandMetadata;
use commands::payments::intake::{Accepted, Delivery, IntakeError, intake};
use domain::payment::PaymentSource;
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::state::AppState;

/// Where a delivery goes: the account, and the key its receiver was turned on for.
#[derive(Debug, Clone)]
pub struct Target {
    /// The receiving account.
    pub account_id: Uuid,
    /// The key, in DICT form; every entry's `chave` must be it.
    pub pix_key: String,
    /// Who reports, for the events' metadata (`api-pix:{receiverId}`, `sandbox`).
    pub actor: String,
}

/// The SHA-256 of a receiver's token: all the database keeps.
pub fn token_digest(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

/// Whether `header` (`sha256=<hex>`) is the HMAC-SHA256 of `body` under `secret`, compared in
/// constant time.
pub fn signature_matches(secret: &[u8], body: &[u8], header: Option<&str>) -> bool {
    let Some(hex) = header.and_then(|h| h.trim().strip_prefix("sha256=")) else {
        return false;
    };
    let Some(expected) = decode_hex(hex) else {
        return false;
    };
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(secret) else {
        return false;
    };
    mac.update(body);
    mac.verify_slice(&expected).is_ok()
}

/// `sha256=<hex>` for `body` under `secret` (what a sender puts in `X-Balcao-Signature`).
pub fn sign(secret: &[u8], body: &[u8]) -> String {
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(secret) else {
        return String::new();
    };
    mac.update(body);
    let bytes = mac.finalize().into_bytes();
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256={hex}")
}

fn decode_hex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

/// Hands `body` to the intake workflow ([`commands::payments::intake`]): parsed, bounded,
/// checked against the receiver's key, sealed, matched to the account's codes from the write
/// side and appended in one transaction.
///
/// # Errors
///
/// As [`IntakeError`]; in every case nothing was written.
pub async fn receive(
    state: &AppState,
    target: &Target,
    body: &[u8],
    source: PaymentSource,
) -> Result<Accepted, IntakeError> {
    let delivery = Delivery {
        account_id: target.account_id.hyphenated().to_string(),
        pix_key: target.pix_key.clone(),
        source,
        received_at: crate::auth::accounts::now(),
    };
    let metadata = CommandMetadata::start().by(target.actor.clone());
    intake(state.payments.commands.store(), &delivery, body, &metadata).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signature_made_with_the_secret_matches_and_any_other_does_not() {
        let body = br#"{"pix":[]}"#;
        let header = sign(b"segredo", body);
        assert!(signature_matches(b"segredo", body, Some(&header)));
        assert!(!signature_matches(b"outro", body, Some(&header)));
        assert!(!signature_matches(b"segredo", b"{}", Some(&header)));
        assert!(!signature_matches(b"segredo", body, None));
        assert!(!signature_matches(b"segredo", body, Some("sha256=zz")));
    }
}
