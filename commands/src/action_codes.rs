//! Action codes: the single-use secrets in the links Balcão sends by e-mail (verify an address,
//! reset a password, confirm a new address, accept an invitation).
//!
//! A code is 32 random bytes in base64url without padding (43 characters). Only its SHA-256 is
//! stored (`action_codes.code_hash`), so the table alone cannot be used to act on an account. A
//! code is valid while it is unused and unexpired, and only for the [`Purpose`] it was issued for.
//!
//! Use a code either with [`consume`] or, when it authorises a command, with the
//! [`consume_action_code`](crate::effects::Effects::consume_action_code) effect, so the code is spent if
//! and only if the command's events are appended. Likewise a code that belongs to what a command
//! makes (an invitation's link) is drawn with [`ActionCode::generate`] and stored by the
//! [`issue_action_code`](crate::effects::Effects::issue_action_code) effect, so it exists if and only if
//! the command's events do; [`issue`] stores one on its own.

use std::fmt;
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::{DateTime, Utc};
use sha2::{Digest as _, Sha256};
use sqlx::PgExecutor;

use crate::vault::random_bytes;

/// Random bytes in a code (256 bits).
const CODE_BYTES: usize = 32;

/// What an action code allows. Stored as text (see [`Purpose::as_str`]); a code of one purpose is
/// never accepted for another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Purpose {
    /// Confirms the account's e-mail address (`verify_email`).
    VerifyEmail,
    /// Sets a new password without the old one (`reset_password`).
    ResetPassword,
    /// Confirms a new e-mail address for the account (`change_email`).
    ChangeEmail,
    /// Joins a team (`invitation`).
    Invitation,
}

impl Purpose {
    /// The text stored in `action_codes.purpose`.
    ///
    /// ```
    /// use commands::action_codes::Purpose;
    /// assert_eq!(Purpose::ResetPassword.as_str(), "reset_password");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Purpose::VerifyEmail => "verify_email",
            Purpose::ResetPassword => "reset_password",
            Purpose::ChangeEmail => "change_email",
            Purpose::Invitation => "invitation",
        }
    }
}

impl fmt::Display for Purpose {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A freshly issued code: put `code` in the link, it is never stored or shown again.
///
/// `Debug` leaves the code out (it would let anyone who reads the log use the link).
#[derive(Clone, PartialEq, Eq)]
pub struct IssuedCode {
    /// The secret, base64url without padding (43 characters).
    pub code: String,
    /// When it stops being accepted.
    pub expires_at: DateTime<Utc>,
}

impl fmt::Debug for IssuedCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IssuedCode")
            .field("code", &"<redacted>")
            .field("expires_at", &self.expires_at)
            .finish()
    }
}

/// A code drawn but not stored yet: the [`issue_action_code`](crate::effects::Effects::issue_action_code)
/// effect stores its SHA-256 with a command; put [`as_str`](Self::as_str) in the link once the
/// command has succeeded.
///
/// `Debug` leaves the code out.
#[derive(Clone, PartialEq, Eq)]
pub struct ActionCode(String);

impl ActionCode {
    /// A fresh random code (256 bits, base64url without padding: 43 characters).
    ///
    /// # Panics
    ///
    /// If the operating system's random source fails.
    pub fn generate() -> Self {
        ActionCode(URL_SAFE_NO_PAD.encode(random_bytes::<CODE_BYTES>()))
    }

    /// The secret, for the link.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The SHA-256 stored for it.
    pub(crate) fn hash(&self) -> Vec<u8> {
        code_hash(&self.0)
    }
}

impl fmt::Debug for ActionCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ActionCode(<redacted>)")
    }
}

/// What a valid code says.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct PendingCode {
    /// The account the code acts on.
    pub account_id: String,
    /// The purpose-specific data given when it was issued.
    pub payload: serde_json::Value,
    /// When it stops being accepted.
    pub expires_at: DateTime<Utc>,
}

/// The SHA-256 of a code, as stored in `action_codes.code_hash`.
pub(crate) fn code_hash(code: &str) -> Vec<u8> {
    Sha256::digest(code.as_bytes()).to_vec()
}

/// Microseconds for an SQL interval (saturating: a century-long duration is "forever" anyway).
fn micros(duration: Duration) -> i64 {
    i64::try_from(duration.as_micros()).unwrap_or(i64::MAX)
}

/// Issues a code for `account_id` and `purpose`, valid for `ttl` from now (the database's
/// clock), carrying `payload` (seal personal values in it with the account's key).
///
/// # Errors
///
/// When PostgreSQL fails.
///
/// # Panics
///
/// If the operating system's random source fails.
pub async fn issue<'e>(
    executor: impl PgExecutor<'e>,
    account_id: &str,
    purpose: Purpose,
    payload: serde_json::Value,
    ttl: Duration,
) -> Result<IssuedCode, sqlx::Error> {
    let code = ActionCode::generate();
    let expires_at = insert(executor, &code.hash(), account_id, purpose, &payload, ttl).await?;
    Ok(IssuedCode {
        code: code.0,
        expires_at,
    })
}

/// Stores a code's hash for `account_id` and `purpose`, valid for `ttl` from now (the database's
/// clock); answers when it expires.
pub(crate) async fn insert<'e>(
    executor: impl PgExecutor<'e>,
    code_hash: &[u8],
    account_id: &str,
    purpose: Purpose,
    payload: &serde_json::Value,
    ttl: Duration,
) -> Result<DateTime<Utc>, sqlx::Error> {
    sqlx::query_scalar(
        "insert into action_codes (code_hash, account_id, purpose, payload, expires_at)
         values ($1, $2, $3, $4, now() + $5::bigint * interval '1 microsecond')
         returning expires_at",
    )
    .bind(code_hash)
    .bind(account_id)
    .bind(purpose.as_str())
    .bind(payload)
    .bind(micros(ttl))
    .fetch_one(executor)
    .await
}

/// What `code` says if it is valid for `purpose` (unused, unexpired), without using it: to show
/// a confirmation page, or to learn the account before executing the command that consumes it.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn peek<'e>(
    executor: impl PgExecutor<'e>,
    code: &str,
    purpose: Purpose,
) -> Result<Option<PendingCode>, sqlx::Error> {
    sqlx::query_as(
        "select account_id, payload, expires_at from action_codes
          where code_hash = $1 and purpose = $2 and used_at is null and expires_at > now()",
    )
    .bind(code_hash(code))
    .bind(purpose.as_str())
    .fetch_optional(executor)
    .await
}

/// Uses `code` for `purpose`: marks it used and answers what it says, or `None` when it is not
/// valid (unknown, used, expired, or issued for another purpose).
///
/// Atomic: of concurrent calls with the same code, exactly one gets `Some`.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn consume<'e>(
    executor: impl PgExecutor<'e>,
    code: &str,
    purpose: Purpose,
) -> Result<Option<PendingCode>, sqlx::Error> {
    // A concurrent consumer blocks on the row lock and then re-checks `used_at is null` on the
    // committed row (read committed), so it finds nothing to update.
    sqlx::query_as(
        "update action_codes set used_at = now()
          where code_hash = $1 and purpose = $2 and used_at is null and expires_at > now()
          returning account_id, payload, expires_at",
    )
    .bind(code_hash(code))
    .bind(purpose.as_str())
    .fetch_optional(executor)
    .await
}

/// Deletes every code of `account_id` (used or not), e.g. when the account is deleted; returns
/// how many.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn forget_account<'e>(
    executor: impl PgExecutor<'e>,
    account_id: &str,
) -> Result<u64, sqlx::Error> {
    let done = sqlx::query("delete from action_codes where account_id = $1")
        .bind(account_id)
        .execute(executor)
        .await?;
    Ok(done.rows_affected())
}

/// Housekeeping: deletes the codes that expired, or were used, more than `older_than` ago;
/// returns how many.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn prune_expired<'e>(
    executor: impl PgExecutor<'e>,
    older_than: Duration,
) -> Result<u64, sqlx::Error> {
    let done = sqlx::query(
        "delete from action_codes
          where expires_at < now() - $1::bigint * interval '1 microsecond'
             or used_at < now() - $1::bigint * interval '1 microsecond'",
    )
    .bind(micros(older_than))
    .execute(executor)
    .await?;
    Ok(done.rows_affected())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn purposes_are_stored_as_the_names_the_migration_lists() {
        let stored: Vec<_> = [
            Purpose::VerifyEmail,
            Purpose::ResetPassword,
            Purpose::ChangeEmail,
            Purpose::Invitation,
        ]
        .into_iter()
        .map(Purpose::as_str)
        .collect();
        assert_eq!(
            stored,
            [
                "verify_email",
                "reset_password",
                "change_email",
                "invitation"
            ]
        );
    }

    #[test]
    fn debug_of_an_issued_code_leaves_the_code_out() {
        let issued = IssuedCode {
            code: "segredo-do-link".to_owned(),
            expires_at: DateTime::<Utc>::UNIX_EPOCH,
        };
        assert!(!format!("{issued:?}").contains("segredo"));
    }

    #[test]
    fn a_generated_code_is_43_characters_fresh_each_time_and_hidden_from_debug() {
        let code = ActionCode::generate();
        assert_eq!(code.as_str().len(), 43);
        assert_ne!(code, ActionCode::generate());
        assert_eq!(code.hash(), code_hash(code.as_str()));
        assert!(!format!("{code:?}").contains(code.as_str()));
    }

    #[test]
    fn a_code_hash_is_the_32_byte_sha256_of_the_code_text() {
        assert_eq!(code_hash("abc").len(), 32);
        assert_ne!(code_hash("abc"), code_hash("abd"));
    }
}
