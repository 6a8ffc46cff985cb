//! The vault: one AES-256-GCM key per account, to seal the personal fields events carry.
//!
//! Events never hold a plain e-mail, name or phone: the command side seals them with the account's
//! own [`AccountKey`] into a [`Sealed`] text, and read models open them with the same key. The key
//! lives in `account_keys`, outside the append-only log; deleting its row (the
//! [`Effects::shred_key`](crate::effects::Effects::shred_key) effect) makes every sealed value of the
//! account unreadable for good (LGPD crypto-shredding).
//!
//! Text form: `v1.` followed by base64url (no padding) of the 96-bit nonce and the ciphertext
//! (which ends with the 128-bit tag). The account id is the associated data, so a value sealed
//! for one account does not open as another's even if its row were copied over.

use std::fmt;

use aes_gcm::aead::{Aead, AeadCore, KeyInit, OsRng, Payload, rand_core::RngCore};
use aes_gcm::{Aes256Gcm, Nonce};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use domain::sealed::Sealed;
use sqlx::PgExecutor;
use zeroize::Zeroizing;

/// Length of an account key in bytes (AES-256).
pub const KEY_LEN: usize = 32;

/// Prefix of the current sealed text format; a new format gets a new prefix so old values still
/// open.
const PREFIX: &str = "v1.";

/// Length of the AES-GCM nonce in bytes (96 bits).
const NONCE_LEN: usize = 12;

/// Length of the AES-GCM authentication tag in bytes.
const TAG_LEN: usize = 16;

/// Why a sealed value could not be opened or a key could not be loaded.
///
/// Internal: log it, never show it to a user (its messages are in English on purpose).
#[derive(Debug, thiserror::Error)]
pub enum VaultError {
    /// The text is not a sealed value in a known format (wrong prefix, bad base64, too short).
    #[error("sealed value is malformed")]
    Malformed,
    /// Authentication failed: sealed with another key, for another account, or altered.
    #[error("sealed value does not open with this account's key")]
    Undecryptable,
    /// The stored key of an account is not [`KEY_LEN`] bytes long.
    #[error("stored key of account {account_id} is {len} bytes long, not {KEY_LEN}")]
    InvalidKey {
        /// The account whose key is damaged.
        account_id: String,
        /// The length found.
        len: usize,
    },
    /// PostgreSQL failed.
    #[error("vault storage failed: {0}")]
    Storage(#[from] sqlx::Error),
}

/// The AES-256-GCM key of one account, bound to its account id.
///
/// The key bytes are wiped from memory when the value is dropped, and `Debug` shows only the
/// account id.
///
/// ```
/// use commands::vault::AccountKey;
///
/// let key = AccountKey::generate("0196a1b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b");
/// let sealed = key.seal("maria@exemplo.com.br");
/// assert!(sealed.as_str().starts_with("v1."));
/// assert_eq!(key.open(&sealed).unwrap(), "maria@exemplo.com.br");
///
/// let other = AccountKey::generate("0196a1b2-0000-7000-8000-000000000000");
/// assert!(other.open(&sealed).is_err());
/// ```
#[derive(Clone)]
pub struct AccountKey {
    account_id: String,
    bytes: Zeroizing<[u8; KEY_LEN]>,
}

impl fmt::Debug for AccountKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AccountKey")
            .field("account_id", &self.account_id)
            .field("key", &"<redacted>")
            .finish()
    }
}

impl AccountKey {
    /// A new random key (from the operating system's random source) for `account_id`.
    ///
    /// Store it with the command that opens the account
    /// ([`Effects::store_key`](crate::effects::Effects::store_key)).
    ///
    /// # Panics
    ///
    /// If the operating system's random source fails.
    pub fn generate(account_id: impl Into<String>) -> Self {
        AccountKey {
            account_id: account_id.into(),
            bytes: Zeroizing::new(random_bytes()),
        }
    }

    /// A key from its stored bytes.
    ///
    /// # Errors
    ///
    /// [`VaultError::InvalidKey`] when `bytes` is not [`KEY_LEN`] long.
    pub fn from_bytes(account_id: impl Into<String>, bytes: &[u8]) -> Result<Self, VaultError> {
        let account_id = account_id.into();
        let Ok(array) = <[u8; KEY_LEN]>::try_from(bytes) else {
            return Err(VaultError::InvalidKey {
                account_id,
                len: bytes.len(),
            });
        };
        Ok(AccountKey {
            account_id,
            bytes: Zeroizing::new(array),
        })
    }

    /// The account this key belongs to.
    pub fn account_id(&self) -> &str {
        &self.account_id
    }

    /// The raw key, for storing it.
    pub(crate) fn bytes(&self) -> &[u8] {
        self.bytes.as_slice()
    }

    fn cipher(&self) -> Aes256Gcm {
        Aes256Gcm::new(self.bytes.as_slice().into())
    }

    /// Seals `plain` for this account, with a fresh random nonce (sealing the same text twice
    /// gives two different values). The empty string seals too.
    ///
    /// # Panics
    ///
    /// If the operating system's random source fails.
    pub fn seal(&self, plain: &str) -> Sealed {
        let nonce = Aes256Gcm::generate_nonce(&mut OsRng);
        let payload = Payload {
            msg: plain.as_bytes(),
            aad: self.account_id.as_bytes(),
        };
        // AES-GCM refuses only messages of 64 GiB and more; personal fields are tiny.
        let ciphertext = self
            .cipher()
            .encrypt(&nonce, payload)
            .expect("AES-GCM seals any message shorter than 64 GiB");
        let mut sealed = Vec::with_capacity(NONCE_LEN + ciphertext.len());
        sealed.extend_from_slice(&nonce);
        sealed.extend_from_slice(&ciphertext);
        Sealed::from_text(format!("{PREFIX}{}", URL_SAFE_NO_PAD.encode(sealed)))
    }

    /// A keyed fingerprint of `value` for `purpose`: 64 lower-case hex digits, equal for equal
    /// values of this account, and neither readable nor comparable across accounts without the
    /// key. Lets an aggregate tell two sealed values apart (one Pix key registered twice)
    /// without holding them in the clear; once the key is shredded the fingerprints in the log
    /// can no longer be linked to any value.
    ///
    /// HMAC-SHA-256 under a sub-key derived from the account key (so the AES key itself is
    /// never used as a MAC key), over `purpose`, a zero byte and `value`.
    ///
    /// ```
    /// use commands::vault::AccountKey;
    /// let key = AccountKey::generate("0196a1b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b");
    /// let one = key.fingerprint("pix-key", "52998224725");
    /// assert_eq!(one, key.fingerprint("pix-key", "52998224725"));
    /// assert_ne!(one, key.fingerprint("pix-key", "52998224726"));
    /// assert_eq!(one.len(), 64);
    /// let other = AccountKey::generate("0196a1b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b");
    /// assert_ne!(one, other.fingerprint("pix-key", "52998224725"));
    /// ```
    pub fn fingerprint(&self, purpose: &str, value: &str) -> String {
        use hmac::{Hmac, Mac};
        type HmacSha256 = Hmac<sha2::Sha256>;
        let mut derive = <HmacSha256 as Mac>::new_from_slice(self.bytes.as_slice())
            .expect("HMAC takes a key of any length");
        derive.update(b"balcao/fingerprint/v1");
        let sub_key: Zeroizing<[u8; 32]> = Zeroizing::new(derive.finalize().into_bytes().into());
        let mut mac = <HmacSha256 as Mac>::new_from_slice(sub_key.as_slice())
            .expect("HMAC takes a key of any length");
        mac.update(purpose.as_bytes());
        mac.update(&[0]);
        mac.update(value.as_bytes());
        mac.finalize()
            .into_bytes()
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect()
    }

    /// Opens a value sealed with this key for this account.
    ///
    /// # Errors
    ///
    /// [`VaultError::Malformed`] when `sealed` is not in a known format;
    /// [`VaultError::Undecryptable`] when it was sealed with another key or for another account,
    /// or was altered.
    pub fn open(&self, sealed: &Sealed) -> Result<String, VaultError> {
        let encoded = sealed
            .as_str()
            .strip_prefix(PREFIX)
            .ok_or(VaultError::Malformed)?;
        let raw = URL_SAFE_NO_PAD
            .decode(encoded)
            .map_err(|_| VaultError::Malformed)?;
        if raw.len() < NONCE_LEN + TAG_LEN {
            return Err(VaultError::Malformed);
        }
        let (nonce, ciphertext) = raw.split_at(NONCE_LEN);
        let payload = Payload {
            msg: ciphertext,
            aad: self.account_id.as_bytes(),
        };
        let plain = self
            .cipher()
            .decrypt(Nonce::from_slice(nonce), payload)
            .map_err(|_| VaultError::Undecryptable)?;
        // Only `seal` makes values that authenticate, and it seals UTF-8 text.
        String::from_utf8(plain).map_err(|_| VaultError::Undecryptable)
    }
}

/// The key id under which an invitation's own key is kept in `account_keys`.
///
/// An invitee's address belongs to the invitee, not to the team's owner, so it is sealed with a
/// key of its own: removing the member, the member deleting their account, or the owner deleting
/// theirs shreds it, and the address becomes unreadable in the owner's log too.
///
/// ```
/// assert_eq!(commands::vault::invitation_key_id("0190"), "invitation:0190");
/// ```
pub fn invitation_key_id(invitation_id: &str) -> String {
    format!("invitation:{invitation_id}")
}

/// The key of `account_id`, or `None` when it has none (never opened, or shredded).
///
/// `executor` may be the pool or a transaction (a projector opens sealed fields inside its own).
///
/// # Errors
///
/// [`VaultError::Storage`] when PostgreSQL fails; [`VaultError::InvalidKey`] when the stored key
/// has the wrong length.
pub async fn load_key<'e>(
    executor: impl PgExecutor<'e>,
    account_id: &str,
) -> Result<Option<AccountKey>, VaultError> {
    let bytes: Option<Vec<u8>> =
        sqlx::query_scalar("select key from account_keys where account_id = $1")
            .bind(account_id)
            .fetch_optional(executor)
            .await?;
    // Wipe the fetched copy too once the key is built.
    bytes
        .map(Zeroizing::new)
        .map(|bytes| AccountKey::from_bytes(account_id, &bytes))
        .transpose()
}

/// `N` bytes from the operating system's random source.
///
/// # Panics
///
/// If the source fails (a broken system: nothing secret can be made safely then).
pub(crate) fn random_bytes<const N: usize>() -> [u8; N] {
    let mut bytes = [0_u8; N];
    OsRng.fill_bytes(&mut bytes);
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    const ACCOUNT: &str = "0196a1b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b";

    #[test]
    fn a_sealed_value_opens_to_the_same_text() {
        let key = AccountKey::generate(ACCOUNT);
        for plain in ["maria@exemplo.com.br", "José da Silva", "+5511987654321"] {
            assert_eq!(key.open(&key.seal(plain)).unwrap(), plain);
        }
    }

    #[test]
    fn the_empty_string_seals_and_opens() {
        let key = AccountKey::generate(ACCOUNT);
        let sealed = key.seal("");
        assert_eq!(key.open(&sealed).unwrap(), "");
    }

    #[test]
    fn sealing_the_same_text_twice_gives_different_values() {
        let key = AccountKey::generate(ACCOUNT);
        assert_ne!(key.seal("maria"), key.seal("maria"));
    }

    #[test]
    fn the_text_form_is_v1_then_base64url_of_nonce_ciphertext_and_tag() {
        let key = AccountKey::generate(ACCOUNT);
        let sealed = key.seal("abc");
        let encoded = sealed.as_str().strip_prefix("v1.").unwrap();
        assert!(
            encoded
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        );
        let raw = URL_SAFE_NO_PAD.decode(encoded).unwrap();
        assert_eq!(raw.len(), NONCE_LEN + 3 + TAG_LEN);
    }

    #[test]
    fn a_value_sealed_for_another_account_does_not_open_even_with_the_same_key_bytes() {
        let key = AccountKey::generate(ACCOUNT);
        let twin = AccountKey::from_bytes("outra-conta", key.bytes()).unwrap();
        let sealed = key.seal("maria");
        assert!(matches!(twin.open(&sealed), Err(VaultError::Undecryptable)));
    }

    #[test]
    fn a_value_sealed_with_another_key_does_not_open() {
        let sealed = AccountKey::generate(ACCOUNT).seal("maria");
        let other = AccountKey::generate(ACCOUNT);
        assert!(matches!(
            other.open(&sealed),
            Err(VaultError::Undecryptable)
        ));
    }

    #[test]
    fn a_tampered_value_does_not_open() {
        let key = AccountKey::generate(ACCOUNT);
        let sealed = key.seal("maria@exemplo.com.br");
        let mut raw = URL_SAFE_NO_PAD
            .decode(sealed.as_str().strip_prefix("v1.").unwrap())
            .unwrap();
        for index in [0, NONCE_LEN, raw.len() - 1] {
            raw[index] ^= 0x01;
            let tampered = Sealed::from_text(format!("v1.{}", URL_SAFE_NO_PAD.encode(&raw)));
            assert!(matches!(
                key.open(&tampered),
                Err(VaultError::Undecryptable)
            ));
            raw[index] ^= 0x01;
        }
    }

    #[test]
    fn text_that_is_not_a_sealed_value_is_malformed() {
        let key = AccountKey::generate(ACCOUNT);
        for text in ["", "maria", "v2.AAAA", "v1.não-base64!", "v1.AAAA"] {
            assert!(
                matches!(
                    key.open(&Sealed::from_text(text)),
                    Err(VaultError::Malformed)
                ),
                "{text:?}"
            );
        }
    }

    #[test]
    fn debug_shows_the_account_but_never_the_key() {
        let key = AccountKey::from_bytes(ACCOUNT, &[0xab; KEY_LEN]).unwrap();
        let shown = format!("{key:?}");
        assert!(shown.contains(ACCOUNT));
        // The bytes would print as 171 in a derived Debug.
        assert!(!shown.contains("171"), "{shown}");
        assert!(shown.contains("redacted"));
    }

    #[test]
    fn a_stored_key_of_the_wrong_length_is_refused() {
        assert!(matches!(
            AccountKey::from_bytes(ACCOUNT, &[0; 16]),
            Err(VaultError::InvalidKey { len: 16, .. })
        ));
    }
}
