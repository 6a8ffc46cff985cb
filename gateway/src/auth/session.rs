//! Sign-in sessions and their refresh tokens: the SQL lives in [`commands::sessions`], beside
//! the other state kept outside the log, so a session can be started by a command's
//! [`Effects`](commands::Effects) in the command's own transaction (sign-up). Re-exported here
//! for the identity code that uses it, with the one query that reads a session and the caller's
//! access to an account together ([`session_and_access`]).

pub use commands::sessions::*;

use domain::team::Role;
use projections::accounts::Access;
use uuid::Uuid;

/// A row of [`session_and_access`]: the session's state, then the access columns (null when
/// the session is not active or the caller holds no role in the account).
#[derive(sqlx::FromRow)]
struct SessionAndAccessRow {
    active: bool,
    reason: Option<String>,
    role: Option<String>,
    disabled: Option<bool>,
}

/// The session of `session_id` (read and touched by [`commands::live_session_sql`], as
/// [`commands::sessions::state`] does) and `caller`'s access to `account` (as
/// [`projections::accounts::access_to`] answers it, with [`projections::account_access_sql`]),
/// in one statement: every workspace request asks both (`crate::api::access::Workspace`). The e2e tests `auth::tokens` and
/// `workspace::authorization_matrix` check every answer through the extractor.
pub async fn session_and_access(
    pool: &sqlx::PgPool,
    session_id: Uuid,
    caller: &str,
    account: Uuid,
) -> anyhow::Result<(SessionState, Option<Access>)> {
    // The sessions table keys the caller by the token's text, the read model by UUID; a caller
    // that is not a UUID has a session nowhere (tokens name accounts by their UUID).
    let Ok(caller_uuid) = Uuid::parse_str(caller) else {
        return Ok((SessionState::Missing, None));
    };
    let row: Option<SessionAndAccessRow> = sqlx::query_as(concat!(
        "with ",
        commands::live_session_sql!(),
        " select live.active, live.revoked_reason as reason, x.role, x.disabled
            from live left join lateral (",
        projections::account_access_sql!("$3", "$4"),
        ") x on live.active"
    ))
    .bind(session_id)
    .bind(caller)
    .bind(account)
    .bind(caller_uuid)
    .fetch_optional(pool)
    .await?;
    let Some(SessionAndAccessRow {
        active,
        reason,
        role,
        disabled,
    }) = row
    else {
        return Ok((SessionState::Missing, None));
    };
    if !active {
        return Ok((SessionState::Ended(reason), None));
    }
    let access = match (role, disabled) {
        (Some(role), Some(disabled)) => Some(Access {
            role: Role::from_stored(&role).ok_or_else(|| {
                anyhow::anyhow!("unknown role {role:?} in the accounts read model")
            })?,
            disabled,
        }),
        _ => None,
    };
    Ok((SessionState::Active, access))
}
