//! Housekeeping: deletes rows whose job is over, once an hour, in every process that serves.
//!
//! | what | kept for | why that long |
//! |---|---|---|
//! | idempotency keys | 7 days | a client may retry a command for a while (a phone that was offline); after that a repeat runs again |
//! | e-mailed links (`action_codes`) | 1 day after they expired or were used | a used or expired link answers `expired-action-code` either way; a day keeps them for looking into a complaint |
//! | refresh tokens | 1 day after they expired | an expired token is refused whether or not its row exists; rotated but unexpired tokens stay, because presenting one again must still end its session |
//! | statement import runs (`statement_import_runs`) | 1 day after their last change | they only feed a progress bar; the file name in them is the owner's |
//!
//! Several gateways may run this at once: each statement is a plain `delete … where`, so running
//! it twice deletes nothing more.

use std::time::Duration;

use projections::CancellationToken;
use sqlx::PgPool;

/// How often [`run`] prunes.
pub const EVERY: Duration = Duration::from_secs(60 * 60);
/// How long an idempotency key is kept.
pub const IDEMPOTENCY_KEYS_FOR: Duration = Duration::from_secs(7 * 24 * 60 * 60);
/// How long a used or expired e-mailed link, and an expired refresh token, are kept.
pub const SPENT_SECRETS_FOR: Duration = Duration::from_secs(24 * 60 * 60);

/// How many rows one pass deleted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Pruned {
    /// Idempotency keys.
    pub idempotency_keys: u64,
    /// E-mailed links.
    pub action_codes: u64,
    /// Refresh tokens.
    pub refresh_tokens: u64,
    /// Statement import runs.
    pub statement_import_runs: u64,
}

/// One pass: deletes what the module table says.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn prune_once(pool: &PgPool) -> Result<Pruned, sqlx::Error> {
    let idempotency_keys = commands::prune_idempotency_keys(pool, IDEMPOTENCY_KEYS_FOR).await?;
    let action_codes = commands::action_codes::prune_expired(pool, SPENT_SECRETS_FOR).await?;
    let seconds = i64::try_from(SPENT_SECRETS_FOR.as_secs()).unwrap_or(i64::MAX);
    let refresh_tokens = sqlx::query(
        "delete from refresh_tokens where expires_at < now() - $1::bigint * interval '1 second'",
    )
    .bind(seconds)
    .execute(pool)
    .await?
    .rows_affected();
    let statement_import_runs = sqlx::query(
        "delete from statement_import_runs
          where updated_at < now() - $1::bigint * interval '1 second'",
    )
    .bind(seconds)
    .execute(pool)
    .await?
    .rows_affected();
    Ok(Pruned {
        idempotency_keys,
        action_codes,
        refresh_tokens,
        statement_import_runs,
    })
}

/// Prunes every [`EVERY`] until `token` is cancelled. A failed pass is logged and tried again at
/// the next tick: nothing depends on it finishing.
pub async fn run(pool: PgPool, token: CancellationToken) {
    let mut ticks = tokio::time::interval(EVERY);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            () = token.cancelled() => return,
            _ = ticks.tick() => {}
        }
        match prune_once(&pool).await {
            Ok(pruned) => tracing::info!(
                idempotency_keys = pruned.idempotency_keys,
                action_codes = pruned.action_codes,
                refresh_tokens = pruned.refresh_tokens,
                "housekeeping pass done"
            ),
            Err(error) => {
                tracing::warn!(%error, "housekeeping pass failed; trying again in an hour")
            }
        }
    }
}
