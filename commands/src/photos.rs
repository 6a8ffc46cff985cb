//! Profile photos' bytes (`account_photos`, migration 0004): side state beside the log, like
//! [`sessions`](crate::sessions) and [`vault`](crate::vault).
//!
//! A photo is personal data, so its bytes live outside the append-only log (which records only
//! `PhotoChanged` with the photo's URL) and go with the account: the
//! [`delete_photo`](crate::effects::Effects::delete_photo) effect removes them in `DeleteAccount`'s
//! transaction. The etag is the hex SHA-256 of the bytes, so a new photo gets a new URL.

use sha2::{Digest, Sha256};
use sqlx::PgPool;

/// One stored photo.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Photo {
    /// The MIME type it was checked as (`image/jpeg`, `image/png` or `image/webp`).
    pub content_type: String,
    /// The image.
    pub bytes: Vec<u8>,
    /// The hex SHA-256 of `bytes`.
    pub etag: String,
}

/// The hex SHA-256 of `bytes`: a photo's etag and its URL's version.
///
/// ```
/// assert_eq!(
///     commands::photos::etag_of(b"abc"),
///     "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
/// );
/// ```
#[must_use]
pub fn etag_of(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Stores (or replaces) `account_id`'s photo and answers its etag. Done before the event that
/// names it, so the URL in the log never points at nothing.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn store(
    pool: &PgPool,
    account_id: &str,
    content_type: &str,
    bytes: &[u8],
) -> Result<String, sqlx::Error> {
    let etag = etag_of(bytes);
    sqlx::query(
        "insert into account_photos (account_id, content_type, bytes, etag)
         values ($1, $2, $3, $4)
         on conflict (account_id) do update
            set content_type = excluded.content_type, bytes = excluded.bytes,
                etag = excluded.etag, updated_at = now()",
    )
    .bind(account_id)
    .bind(content_type)
    .bind(bytes)
    .bind(&etag)
    .execute(pool)
    .await?;
    Ok(etag)
}

/// Removes `account_id`'s photo if it is still the one with `etag` (a refused `ChangePhoto`
/// must not leave its bytes behind, nor remove a newer photo).
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn discard(pool: &PgPool, account_id: &str, etag: &str) -> Result<(), sqlx::Error> {
    sqlx::query("delete from account_photos where account_id = $1 and etag = $2")
        .bind(account_id)
        .bind(etag)
        .execute(pool)
        .await?;
    Ok(())
}

/// `account_id`'s photo, when it has one.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn find(pool: &PgPool, account_id: &str) -> Result<Option<Photo>, sqlx::Error> {
    let row: Option<(String, Vec<u8>, String)> = sqlx::query_as(
        "select content_type, bytes, etag from account_photos where account_id = $1",
    )
    .bind(account_id)
    .fetch_optional(pool)
    .await?;
    Ok(row.map(|(content_type, bytes, etag)| Photo {
        content_type,
        bytes,
        etag,
    }))
}
