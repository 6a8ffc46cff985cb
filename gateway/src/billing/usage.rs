//! What an account has, counted for the plan's limits, and the hold that makes "count, then
//! write" atomic per account.
//!
//! Only the count the action needs is read. Pix keys and the team are counted by their aggregates
//! (the key ring checks the plan against its own active keys, the account against its members
//! and open invitations; [`of`] counts them here only for the plan page).
//! QR codes are counted by the commands that make them
//! ([`commands::qrcode_usage`], in their own transaction): the month's row is exact as soon as a
//! creation commits, and a creation checks the limit with the count's own upsert, which also
//! orders racing creations of the account (its row lock), so codes take no [`UsageHold`]; they
//! only queue in memory per account ([`turn`]). Every other count is the read model **plus the
//! tail of the log the read model has not applied yet** (events after the projection's
//! checkpoint), read in one statement, so one snapshot: exact however far the projector trails.
//! Two requests racing at those limits are kept apart by [`UsageHold`]: a per-account advisory
//! lock taken before the count and held until the limited command is written, so the second
//! counts the first's write (in the read model, or else in the tail). Within one gateway process
//! the requests of an account queue for that lock in memory first (a striped `tokio` mutex,
//! [`turn`]), so waiters neither poll PostgreSQL nor hold a connection; the advisory lock keeps
//! separate processes apart.

use std::sync::{Arc, LazyLock};
use std::time::Duration;

use domain::subscription::limits::{LimitedAction, Usage};
use sqlx::{PgPool, Postgres, Transaction};
use uuid::Uuid;

use crate::api::error::ApiError;

/// Longest a limited request waits for another of the same account to finish.
pub const HOLD_PATIENCE: Duration = Duration::from_secs(10);
/// Every projection's checkpoint, with "nothing applied yet" for one that has none: what the
/// counts below add the log's tail after.
const CHECKPOINTS: &str = "(select projection, tx_id, global_position from projection_checkpoints
                            union all
                            select p, '0'::xid8, 0
                              from unnest(array['pix_keys', 'accounts']) p
                             where not exists (select 1 from projection_checkpoints
                                                where projection = p))";

/// Pause between tries of a lock another process holds (no connection is kept while waiting).
const HOLD_RETRY: Duration = Duration::from_millis(15);

/// How many in-process queues the accounts are spread over.
const STRIPES: usize = 256;

/// The in-process queue of `account`'s limited requests. Two accounts may share one (a
/// collision only orders them one after the other in this process); none is ever removed.
fn stripe(account: Uuid) -> Arc<tokio::sync::Mutex<()>> {
    static QUEUES: LazyLock<Vec<Arc<tokio::sync::Mutex<()>>>> = LazyLock::new(|| {
        (0..STRIPES)
            .map(|_| Arc::new(tokio::sync::Mutex::new(())))
            .collect()
    });
    // The low bits of a v4 or v7 id are random.
    let index = usize::try_from(account.as_u128() % STRIPES as u128).unwrap_or(0);
    QUEUES[index].clone()
}

/// `account`'s turn among this process's limited requests of the account (keep it until the
/// command is written): the others wait in memory, holding no database connection, at most
/// [`HOLD_PATIENCE`].
///
/// # Errors
///
/// 503 when the turn does not come that soon.
pub async fn turn(account: Uuid) -> Result<tokio::sync::OwnedMutexGuard<()>, ApiError> {
    turn_by(account, tokio::time::Instant::now() + HOLD_PATIENCE).await
}

async fn turn_by(
    account: Uuid,
    deadline: tokio::time::Instant,
) -> Result<tokio::sync::OwnedMutexGuard<()>, ApiError> {
    tokio::time::timeout_at(deadline, stripe(account).lock_owned())
        .await
        .map_err(|_| {
            ApiError::unavailable(anyhow::anyhow!(
                "the account's plan usage stayed locked for {HOLD_PATIENCE:?}"
            ))
        })
}

/// One account's limited actions, one at a time: held from the count until the command is
/// written (drop it after). Holds one database connection, in a transaction that writes
/// nothing; the lock goes with the transaction.
#[derive(Default)]
pub struct UsageHold {
    transaction: Option<Transaction<'static, Postgres>>,
    /// This process's queue for the account, released only after the transaction ended, so
    /// the next in line finds PostgreSQL's lock free.
    queue: Option<tokio::sync::OwnedMutexGuard<()>>,
}

impl UsageHold {
    /// No hold: for actions that count nothing (a feature such as the logo).
    pub fn none() -> Self {
        UsageHold::default()
    }

    /// Takes the account's lock, waiting (without holding a connection) while another limited
    /// request of the account has it, at most [`HOLD_PATIENCE`].
    ///
    /// # Errors
    ///
    /// 503 when PostgreSQL fails or the lock stays taken that long.
    pub async fn take(pool: &PgPool, account: Uuid) -> Result<Self, ApiError> {
        let failed = |e: sqlx::Error| ApiError::unavailable(anyhow::anyhow!(e));
        let deadline = tokio::time::Instant::now() + HOLD_PATIENCE;
        let queue = turn_by(account, deadline).await?;
        loop {
            let mut transaction = pool.begin().await.map_err(failed)?;
            let taken: bool = sqlx::query_scalar(
                "select pg_try_advisory_xact_lock(hashtextextended('balcao.plan-usage.' || $1::text, 0))",
            )
            .bind(account)
            .fetch_one(&mut *transaction)
            .await
            .map_err(failed)?;
            if taken {
                return Ok(UsageHold {
                    transaction: Some(transaction),
                    queue: Some(queue),
                });
            }
            // Give the connection back while waiting, so waiters never starve the holder.
            transaction.rollback().await.map_err(failed)?;
            if tokio::time::Instant::now() >= deadline {
                return Err(ApiError::unavailable(anyhow::anyhow!(
                    "the account's plan usage stayed locked for {HOLD_PATIENCE:?}"
                )));
            }
            tokio::time::sleep(HOLD_RETRY).await;
        }
    }
}

impl std::fmt::Debug for UsageHold {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UsageHold")
            .field("held", &self.transaction.is_some())
            .finish()
    }
}

impl Drop for UsageHold {
    fn drop(&mut self) {
        let queue = self.queue.take();
        if let Some(transaction) = self.transaction.take() {
            // Ending the transaction releases the lock; it wrote nothing. The queue's turn
            // passes on only then.
            tokio::spawn(async move {
                if let Err(error) = transaction.rollback().await {
                    tracing::warn!(%error, "the plan usage lock's transaction did not end cleanly");
                }
                drop(queue);
            });
        }
    }
}

fn count(value: i64) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

/// The usage `action` is checked against.
///
/// # Errors
///
/// 503/500 when PostgreSQL fails.
pub async fn of(pool: &PgPool, account: Uuid, action: LimitedAction) -> Result<Usage, ApiError> {
    let mut usage = Usage::default();
    let failed = |e: sqlx::Error| ApiError::unavailable(anyhow::anyhow!(e));
    match action {
        LimitedAction::RegisterPixKey => {
            let n: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
                "select (select count(*) from pix_keys where account_id = $1 and removed_at is null)
                      + (select coalesce(sum(case e.event_type when 'PixKeyRegistered' then 1
                                                              else -1 end), 0)
                           from events e, {CHECKPOINTS} c
                          where c.projection = 'pix_keys'
                            and (e.tx_id, e.global_position) > (c.tx_id, c.global_position)
                            and e.stream_type = 'pix_keys' and e.stream_id = $1::text
                            and e.event_type in ('PixKeyRegistered', 'PixKeyRemoved'))"
            )))
            .bind(account)
            .fetch_one(pool)
            .await
            .map_err(failed)?;
            usage.pix_keys = count(n);
        }
        LimitedAction::CreateQrCodes(_) => {
            usage.qrcodes_this_month = commands::qrcode_usage::this_month(pool, account)
                .await
                .map_err(failed)?;
        }
        LimitedAction::InviteMember => {
            let n: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
                "select (select count(*) from account_members
                          where account_id = $1 and status in ('invited', 'active'))
                      + (select coalesce(sum(case e.event_type when 'MemberInvited' then 1
                                                              else -1 end), 0)
                           from events e, {CHECKPOINTS} c
                          where c.projection = 'accounts'
                            and (e.tx_id, e.global_position) > (c.tx_id, c.global_position)
                            and e.stream_type = 'account' and e.stream_id = $1::text
                            and e.event_type in ('MemberInvited', 'MemberRemoved'))"
            )))
            .bind(account)
            .fetch_one(pool)
            .await
            .map_err(failed)?;
            usage.extra_accounts = count(n);
        }
        // Side state written by the request itself (not a read model): exact as it is.
        LimitedAction::TurnOnApiPixEndpoint => {
            let n: i64 = sqlx::query_scalar(
                "select count(*) from api_pix_receivers
                  where account_id = $1 and revoked_at is null",
            )
            .bind(account)
            .fetch_one(pool)
            .await
            .map_err(failed)?;
            usage.api_pix_endpoints = count(n);
        }
        LimitedAction::LogoOnSign => {}
    }
    Ok(usage)
}

/// Whether the key `key_id` already has a live API Pix receiver (turning it on again is a
/// conflict, not a new endpoint).
///
/// # Errors
///
/// 503/500 when PostgreSQL fails.
pub async fn receiver_on(pool: &PgPool, key_id: Uuid) -> Result<bool, ApiError> {
    sqlx::query_scalar(
        "select exists (select 1 from api_pix_receivers where key_id = $1 and revoked_at is null)",
    )
    .bind(key_id)
    .fetch_one(pool)
    .await
    .map_err(|e| ApiError::unavailable(anyhow::anyhow!(e)))
}

/// Everything at once, for the subscription page's "usage against each limit".
///
/// # Errors
///
/// 503/500 when PostgreSQL fails.
pub async fn all(pool: &PgPool, account: Uuid) -> Result<Usage, ApiError> {
    let keys = of(pool, account, LimitedAction::RegisterPixKey).await?;
    let codes = of(pool, account, LimitedAction::CreateQrCodes(0)).await?;
    let team = of(pool, account, LimitedAction::InviteMember).await?;
    let endpoints = of(pool, account, LimitedAction::TurnOnApiPixEndpoint).await?;
    Ok(Usage {
        pix_keys: keys.pix_keys,
        qrcodes_this_month: codes.qrcodes_this_month,
        extra_accounts: team.extra_accounts,
        api_pix_endpoints: endpoints.api_pix_endpoints,
    })
}
