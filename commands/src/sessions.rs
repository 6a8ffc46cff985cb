//! Sign-in sessions and their refresh tokens (`auth_sessions`, `refresh_tokens`, migration 0004).
//!
//! Side state beside the log, like [`claims`](crate::claims), [`vault`](crate::vault) and
//! [`action_codes`](crate::action_codes): a session that must exist exactly when a command's
//! events do (the one a sign-up answers with) is drawn with [`NewSession::generate`] and stored
//! by the [`start_session`](crate::effects::Effects::start_session) effect in the command's transaction;
//! a sign-in, which appends nothing, uses [`start`].
//!
//! A session is one sign-in on one device; its refresh tokens form a family. Each refresh marks the
//! presented token rotated and issues its successor. Presenting a rotated token again means two
//! parties hold the same token (one of them stole it), so the whole session ends: the thief's
//! successor stops working too, and the person signs in again. Tokens are random 32-byte strings
//! (base64url); only their SHA-256 is stored.
//!
//! Except within a short reuse interval (`BALCAO_REFRESH_REUSE_INTERVAL_SECS`, 10 s by default,
//! as Auth0's and Okta's rotation allow): a token rotated that recently answers with the *same*
//! successor again. That is a client retrying after its answer was lost, or several tabs
//! refreshing at once with one cookie; ending the session for it would sign an honest person
//! out. The successor is not stored (only hashes are): it is derived from the presented token and
//! a random salt kept on the rotated row (`successor_of`), so only a holder of the presented
//! token can get it. Presented after the interval, a rotated token still ends the family.

use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};
use sqlx::{PgConnection, PgExecutor, PgPool};
use uuid::Uuid;

use crate::vault::random_bytes;

/// How long a refresh token (and the cookie carrying it) lasts; each refresh starts it again.
pub const REFRESH_TOKEN_TTL: Duration = Duration::from_secs(30 * 24 * 3600);
/// How much of a user agent is kept (for the session list).
const USER_AGENT_CHARS: usize = 200;

/// Why a session ended (`auth_sessions.revoked_reason`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndReason {
    /// "Sair" on this device.
    SignOut,
    /// "Sair de todos os dispositivos".
    SignOutAll,
    /// A rotated refresh token was presented again.
    TokenReuse,
    /// Ended from the session list.
    Ended,
    /// The account was disabled.
    Disabled,
    /// The password was reset by e-mail.
    PasswordReset,
    /// The account was deleted.
    Deleted,
}

impl EndReason {
    /// The stored text.
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::SignOut => "sign_out",
            EndReason::SignOutAll => "sign_out_all",
            EndReason::TokenReuse => "token_reuse",
            EndReason::Ended => "ended",
            EndReason::Disabled => "disabled",
            EndReason::PasswordReset => "password_reset",
            EndReason::Deleted => "deleted",
        }
    }
}

/// A session, with its first refresh token (for the cookie): drawn by [`NewSession::generate`],
/// stored by [`start`] or by the [`start_session`](crate::effects::Effects::start_session) effect.
///
/// `Debug` leaves the refresh token out (it would let anyone who reads the log sign in).
#[derive(Clone)]
pub struct NewSession {
    /// The session id (the access token's `sid`).
    pub session_id: Uuid,
    /// The refresh token, in the clear: goes into the cookie, never stored.
    pub refresh_token: String,
    account_id: String,
    user_agent: Option<String>,
}

impl NewSession {
    /// A new session of `account_id`, from the browser `user_agent` (cut short), with a fresh
    /// id and refresh token. Nothing is stored yet.
    ///
    /// # Panics
    ///
    /// If the operating system's random source fails.
    pub fn generate(account_id: &str, user_agent: Option<&str>) -> Self {
        NewSession {
            session_id: Uuid::now_v7(),
            refresh_token: new_token(),
            account_id: account_id.to_owned(),
            user_agent: user_agent.map(|ua| ua.chars().take(USER_AGENT_CHARS).collect()),
        }
    }

    /// The account the session signs in.
    pub fn account_id(&self) -> &str {
        &self.account_id
    }
}

impl std::fmt::Debug for NewSession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NewSession")
            .field("session_id", &self.session_id)
            .field("refresh_token", &"<redacted>")
            .field("account_id", &self.account_id)
            .field("user_agent", &self.user_agent)
            .finish()
    }
}

/// The answer to a refresh.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refresh {
    /// The token was good: here is its successor.
    Rotated {
        /// The account.
        account_id: String,
        /// The session.
        session_id: Uuid,
        /// The successor, in the clear.
        refresh_token: String,
    },
    /// The token is refused.
    Refused(Refused),
}

/// Why a refresh token was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    /// No such token.
    Unknown,
    /// Past its expiry.
    Expired,
    /// Its session had ended.
    Ended {
        /// The session's account.
        account_id: String,
        /// The stored reason, e.g. `disabled`.
        reason: Option<String>,
    },
    /// It had been rotated already: its session is now ended.
    Reused,
}

/// Whether a session may still be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionState {
    /// Not ended.
    Active,
    /// Ended, with the stored reason.
    Ended(Option<String>),
    /// No such session for that account.
    Missing,
}

/// One row of the session list.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct SessionInfo {
    /// The session id.
    pub id: Uuid,
    /// When it started (the sign-in).
    pub created_at: DateTime<Utc>,
    /// When it was last used.
    pub last_used_at: DateTime<Utc>,
    /// The browser that started it, cut short.
    pub user_agent: Option<String>,
}

/// The stored form of a refresh token.
fn hash(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

fn new_token() -> String {
    URL_SAFE_NO_PAD.encode(random_bytes::<32>())
}

/// The refresh-token lifetime in whole days, for `make_interval(days => …)`.
fn ttl_days() -> i32 {
    i32::try_from(REFRESH_TOKEN_TTL.as_secs() / 86_400).unwrap_or(i32::MAX)
}

/// Starts a session for `account_id` and issues its first refresh token, in a transaction of
/// its own (a sign-in). A session that must commit with a command's events goes through the
/// [`start_session`](crate::effects::Effects::start_session) effect instead.
///
/// # Errors
///
/// When PostgreSQL fails.
///
/// # Panics
///
/// If the operating system's random source fails.
pub async fn start(
    pool: &PgPool,
    account_id: &str,
    user_agent: Option<&str>,
) -> Result<NewSession, sqlx::Error> {
    let session = NewSession::generate(account_id, user_agent);
    let mut tx = pool.begin().await?;
    insert(&mut tx, &session).await?;
    tx.commit().await?;
    Ok(session)
}

/// Stores `session` and its first refresh token on `conn`, inside the caller's transaction.
pub(crate) async fn insert(
    conn: &mut PgConnection,
    session: &NewSession,
) -> Result<(), sqlx::Error> {
    sqlx::query("insert into auth_sessions (id, account_id, user_agent) values ($1, $2, $3)")
        .bind(session.session_id)
        .bind(&session.account_id)
        .bind(&session.user_agent)
        .execute(&mut *conn)
        .await?;
    sqlx::query(
        "insert into refresh_tokens (token_hash, session_id, expires_at)
         values ($1, $2, now() + make_interval(days => $3))",
    )
    .bind(hash(&session.refresh_token))
    .bind(session.session_id)
    .bind(ttl_days())
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Deletes every session of `account_id`, ended or not, with their refresh tokens (`on delete
/// cascade`), e.g. when the account is deleted; returns how many sessions.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn forget_account<'e>(
    executor: impl PgExecutor<'e>,
    account_id: &str,
) -> Result<u64, sqlx::Error> {
    let done = sqlx::query("delete from auth_sessions where account_id = $1")
        .bind(account_id)
        .execute(executor)
        .await?;
    Ok(done.rows_affected())
}

/// The successor of `presented` given the rotation's `salt`: the same for every retry of that
/// rotation, and unknowable without the presented token (which is stored only hashed).
fn successor_of(presented: &str, salt: &[u8]) -> String {
    let mut hasher = Sha256::new();
    hasher.update(b"balcao refresh successor\0");
    hasher.update(salt);
    hasher.update(presented.as_bytes());
    URL_SAFE_NO_PAD.encode(hasher.finalize())
}

/// One refresh token's row with its session, as [`rotate`] reads it.
#[derive(sqlx::FromRow)]
struct Presented {
    session_id: Uuid,
    expired: bool,
    rotated: bool,
    /// Rotated less than the reuse interval ago.
    recently_rotated: bool,
    successor_salt: Option<Vec<u8>>,
    account_id: String,
    ended: bool,
    reason: Option<String>,
}

/// Exchanges `presented` for its successor, or refuses it (ending the session on reuse).
///
/// Concurrent refreshes with the same token are serialised on the token's row: the first one
/// rotates it; the others, within `reuse_interval` of that, get the same successor; a rotated
/// token presented later ends the session.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn rotate(
    pool: &PgPool,
    presented: &str,
    reuse_interval: Duration,
) -> Result<Refresh, sqlx::Error> {
    let presented_hash = hash(presented);
    let mut tx = pool.begin().await?;
    let row: Option<Presented> = sqlx::query_as(
        "select t.session_id, t.expires_at <= now() as expired,
                t.rotated_at is not null as rotated,
                coalesce(t.rotated_at > now() - make_interval(secs => $2), false)
                    as recently_rotated,
                t.successor_salt,
                s.account_id, s.revoked_at is not null as ended, s.revoked_reason as reason
         from refresh_tokens t join auth_sessions s on s.id = t.session_id
         where t.token_hash = $1
         for update of t, s",
    )
    .bind(&presented_hash)
    .bind(reuse_interval.as_secs_f64())
    .fetch_optional(&mut *tx)
    .await?;
    let Some(Presented {
        session_id,
        expired,
        rotated,
        recently_rotated,
        successor_salt,
        account_id,
        ended,
        reason,
    }) = row
    else {
        return Ok(Refresh::Refused(Refused::Unknown));
    };
    if ended {
        return Ok(Refresh::Refused(Refused::Ended { account_id, reason }));
    }
    if rotated
        && recently_rotated
        && let Some(salt) = successor_salt
    {
        // A retry, or a parallel refresh, of the rotation that just happened: the same answer.
        tracing::debug!(%session_id, "a just-rotated refresh token was presented again within the reuse interval");
        return Ok(Refresh::Rotated {
            account_id,
            session_id,
            refresh_token: successor_of(presented, &salt),
        });
    }
    if rotated {
        end_in(&mut tx, session_id, EndReason::TokenReuse).await?;
        tx.commit().await?;
        tracing::warn!(%session_id, "a rotated refresh token was presented again; the session is ended");
        return Ok(Refresh::Refused(Refused::Reused));
    }
    if expired {
        return Ok(Refresh::Refused(Refused::Expired));
    }
    let salt = random_bytes::<16>();
    let successor = successor_of(presented, &salt);
    sqlx::query(
        "update refresh_tokens set rotated_at = now(), successor_salt = $2 where token_hash = $1",
    )
    .bind(&presented_hash)
    .bind(salt.as_slice())
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "insert into refresh_tokens (token_hash, session_id, expires_at)
         values ($1, $2, now() + make_interval(days => $3))",
    )
    .bind(hash(&successor))
    .bind(session_id)
    .bind(ttl_days())
    .execute(&mut *tx)
    .await?;
    sqlx::query("update auth_sessions set last_used_at = now() where id = $1")
        .bind(session_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(Refresh::Rotated {
        account_id,
        session_id,
        refresh_token: successor,
    })
}

/// The live session (and account) a refresh token belongs to, whether or not the token was
/// rotated or expired: enough to sign that session out.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn owner_of_token(
    pool: &PgPool,
    presented: &str,
) -> Result<Option<(Uuid, String)>, sqlx::Error> {
    sqlx::query_as(
        "select s.id, s.account_id from refresh_tokens t join auth_sessions s on s.id = t.session_id
         where t.token_hash = $1 and s.revoked_at is null",
    )
    .bind(hash(presented))
    .fetch_optional(pool)
    .await
}

async fn end_in(
    tx: &mut sqlx::PgConnection,
    session_id: Uuid,
    reason: EndReason,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "update auth_sessions set revoked_at = now(), revoked_reason = $2
         where id = $1 and revoked_at is null",
    )
    .bind(session_id)
    .bind(reason.as_str())
    .execute(tx)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Ends one session of `account_id`. `false` when there is no such live session.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn end(
    pool: &PgPool,
    account_id: &str,
    session_id: Uuid,
    reason: EndReason,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "update auth_sessions set revoked_at = now(), revoked_reason = $3
         where id = $1 and account_id = $2 and revoked_at is null",
    )
    .bind(session_id)
    .bind(account_id)
    .bind(reason.as_str())
    .execute(pool)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Ends every live session of `account_id` but `keep` (the caller's own, when it should stay
/// signed in); answers how many.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn end_all(
    pool: &PgPool,
    account_id: &str,
    keep: Option<Uuid>,
    reason: EndReason,
) -> Result<u64, sqlx::Error> {
    let done = sqlx::query(
        "update auth_sessions set revoked_at = now(), revoked_reason = $2
         where account_id = $1 and revoked_at is null and id is distinct from $3",
    )
    .bind(account_id)
    .bind(reason.as_str())
    .bind(keep)
    .execute(pool)
    .await?;
    Ok(done.rows_affected())
}

/// The common table expressions that read a session and note its use: `live` (one row,
/// `active` and `revoked_reason`, when session `$1` of account `$2` (text) exists) and
/// `touched` (sets `last_used_at` at most every five minutes). [`state`] selects from them; the
/// gateway's workspace check adds the caller's access to them, so both read sessions the same
/// way. Expands to a string literal, for `concat!`.
#[macro_export]
macro_rules! live_session_sql {
    () => {
        "live as (
             select revoked_at is null as active, revoked_reason
             from auth_sessions where id = $1 and account_id = $2
         ), touched as (
             update auth_sessions set last_used_at = now()
             where id = $1 and account_id = $2 and revoked_at is null
               and last_used_at < now() - interval '5 minutes'
             returning id
         )"
    };
}

/// Whether `session_id` of `account_id` is live, in one round trip. It also records the use,
/// at most every five minutes, so the session list shows recent activity without a write per
/// request.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn state(
    pool: &PgPool,
    account_id: &str,
    session_id: Uuid,
) -> Result<SessionState, sqlx::Error> {
    let row: Option<(bool, Option<String>)> = sqlx::query_as(concat!(
        "with ",
        live_session_sql!(),
        " select active, revoked_reason from live"
    ))
    .bind(session_id)
    .bind(account_id)
    .fetch_optional(pool)
    .await?;
    Ok(match row {
        None => SessionState::Missing,
        Some((true, _)) => SessionState::Active,
        Some((false, reason)) => SessionState::Ended(reason),
    })
}

/// The live sessions of `account_id`, newest first.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn list(pool: &PgPool, account_id: &str) -> Result<Vec<SessionInfo>, sqlx::Error> {
    sqlx::query_as(
        "select id, created_at, last_used_at, user_agent from auth_sessions
         where account_id = $1 and revoked_at is null
         order by created_at desc, id desc",
    )
    .bind(account_id)
    .fetch_all(pool)
    .await
}

/// When `account_id` last signed in: the newest session's start.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn last_sign_in(
    pool: &PgPool,
    account_id: &str,
) -> Result<Option<DateTime<Utc>>, sqlx::Error> {
    sqlx::query_scalar("select max(created_at) from auth_sessions where account_id = $1")
        .bind(account_id)
        .fetch_one(pool)
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_of_a_new_session_leaves_the_refresh_token_out() {
        let session = NewSession::generate("conta-1", Some("Firefox"));
        let shown = format!("{session:?}");
        assert!(!shown.contains(&session.refresh_token), "{shown}");
        assert!(shown.contains("conta-1"), "{shown}");
    }

    #[test]
    fn a_new_session_keeps_only_the_first_200_characters_of_the_user_agent() {
        let long = "x".repeat(500);
        let session = NewSession::generate("conta-1", Some(&long));
        assert_eq!(
            session.user_agent.map(|ua| ua.len()),
            Some(USER_AGENT_CHARS)
        );
        assert_ne!(
            NewSession::generate("conta-1", None).refresh_token,
            session.refresh_token
        );
    }
}
