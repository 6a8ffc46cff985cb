//! The shops' logos in the object store: `logos/{accountId}/{sha256}.{ext}`, the newest object
//! of the account's folder being the logo and its name its checksum, checked on every read. The
//! upload API (`crate::api::sign_logo`) writes them; the signs (`crate::signs`) draw them.

use domain::sign::logo::Logo;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use super::{Storage, StorageError};

/// A logo as read from the store.
#[derive(Debug, Clone)]
pub struct StoredLogo {
    /// The checked logo.
    pub logo: Logo,
    /// Its hex SHA-256 (its name in the store).
    pub checksum: String,
}

/// The account's folder in the store: `logos/{accountId}`.
pub fn folder(account: Uuid) -> String {
    format!("logos/{}", account.hyphenated())
}

/// The hex SHA-256 of `bytes`: a logo's name in the store.
pub fn hex_sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The account's logo, if it has one: the newest object of its folder, whose bytes must hash
/// to its name.
///
/// # Errors
///
/// The storage catalogue; [`StorageError::InvalidChecksum`] when the bytes do not match.
pub async fn current(storage: &Storage, account: Uuid) -> Result<Option<StoredLogo>, StorageError> {
    let Some(path) = storage.list(&folder(account)).await?.into_iter().next() else {
        return Ok(None);
    };
    let object = match storage.get(&path).await {
        Ok(object) => object,
        // Replaced or deleted between the list and the read.
        Err(StorageError::NotFound) => return Ok(None),
        Err(error) => return Err(error),
    };
    let checksum = hex_sha256(&object.bytes);
    let named = path
        .rsplit('/')
        .next()
        .and_then(|file| file.split('.').next())
        .unwrap_or_default();
    if named != checksum {
        tracing::warn!(%path, %checksum, "a stored logo does not match its checksum");
        return Err(StorageError::InvalidChecksum);
    }
    let logo = Logo::check(&object.bytes).map_err(|error| {
        tracing::warn!(%path, %error, "a stored logo no longer passes the checks");
        StorageError::InvalidChecksum
    })?;
    Ok(Some(StoredLogo { logo, checksum }))
}
