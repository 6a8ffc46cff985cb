//! Sealed personal data: the encrypted form of a personal field (e-mail, name, phone…) as events
//! carry it.
//!
//! The domain never sees the plain value of a sealed field and never encrypts: the command layer
//! seals with the account's own key before building a command, and read models open with it. When
//! an account is deleted its key is destroyed, so every sealed field in the log becomes unreadable
//! (LGPD crypto-shredding) while the log itself stays append-only.

use serde::{Deserialize, Serialize};

/// An encrypted personal value, as text (`v1.` followed by base64url of nonce and ciphertext).
///
/// Opaque here: compare, store and copy it, but only the key holder can read it.
///
/// ```
/// use domain::sealed::Sealed;
/// let sealed = Sealed::from_text("v1.AAAA");
/// assert_eq!(sealed.as_str(), "v1.AAAA");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Sealed(String);

impl Sealed {
    /// Wraps text produced by the sealing side (`commands::vault`).
    pub fn from_text(text: impl Into<String>) -> Self {
        Sealed(text.into())
    }

    /// The stored text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}
