//! API Pix receivers: for a registered Pix key, the secret address its bank posts payments to
//! (`api_pix_receivers`, from `migrations/0010_payments.sql`: side state beside the log).
//!
//! Turning one on, making a new address and turning it off are decided here, each in one
//! transaction; the gateway only parses the request, checks the person's rights and answers.
//! The plan's number of receivers is counted in the transaction that adds one, under the
//! account's plan-usage lock (the same advisory lock the gateway's usage hold takes), so two
//! requests racing for the plan's last receiver are ordered and the second counts the first.
//! Only the SHA-256 of the address's token is stored: the address can be shown once.

use domain::refusal::{Refusal, RefusalKind};
use domain::subscription::limits::{self, LimitedAction, PlanLimitReached, Usage};
use domain::subscription::plans::PlanId;
use sqlx::PgPool;
use uuid::Uuid;

use crate::error::CommandError;

/// Why a receiver command is refused. Messages are pt-BR, for the keys screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ReceiverError {
    /// The key already has a live receiver (409): a new address is a rotation.
    #[error(
        "As confirmações do banco já estão ligadas para esta chave. Para ver um novo endereço, gere outro."
    )]
    AlreadyOn,
    /// The key has no live receiver (404).
    #[error("As confirmações do banco não estão ligadas para esta chave.")]
    NotOn,
    /// The plan allows no more receivers (402).
    #[error("{0}")]
    PlanLimit(PlanLimitReached),
}

impl Refusal for ReceiverError {
    fn code(&self) -> &'static str {
        match self {
            ReceiverError::AlreadyOn => "api-pix-receiver-on",
            ReceiverError::NotOn => "not-found",
            ReceiverError::PlanLimit(refused) => refused.code(),
        }
    }

    fn kind(&self) -> RefusalKind {
        match self {
            ReceiverError::AlreadyOn => RefusalKind::Conflict,
            ReceiverError::NotOn => RefusalKind::NotFound,
            ReceiverError::PlanLimit(_) => RefusalKind::PlanLimit,
        }
    }
}

/// A live receiver, as the keys screen shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::FromRow)]
pub struct LiveReceiver {
    /// When it was turned on.
    pub created_at: chrono::DateTime<chrono::Utc>,
    /// When its address was last replaced, if ever.
    pub rotated_at: Option<chrono::DateTime<chrono::Utc>>,
}

/// What turning a receiver on needs.
#[derive(Debug, Clone)]
pub struct TurnOn<'a> {
    /// The account.
    pub account_id: Uuid,
    /// The account's live key it receives for (checked by the caller).
    pub key_id: Uuid,
    /// SHA-256 of the new address's token.
    pub token_digest: &'a [u8],
    /// Who turns it on (an account id).
    pub by: &'a str,
    /// The account's plan in force.
    pub plan: PlanId,
}

/// The key's live receiver, if it has one.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn live(
    pool: &PgPool,
    account_id: Uuid,
    key_id: Uuid,
) -> Result<Option<LiveReceiver>, sqlx::Error> {
    sqlx::query_as(
        "select created_at, rotated_at from api_pix_receivers
          where key_id = $1 and account_id = $2 and revoked_at is null",
    )
    .bind(key_id)
    .bind(account_id)
    .fetch_optional(pool)
    .await
}

/// Where a bank's notification to a receiver's address goes: the receiver, its account and the
/// Pix key it receives for.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ReceiverTarget {
    /// The receiver.
    pub receiver_id: Uuid,
    /// Its account.
    pub account_id: Uuid,
    /// The key's value.
    pub pix_key: String,
}

/// The live receiver whose address token hashes to `token_digest` (SHA-256), while its key is
/// still registered (the `pix_keys` read model: a key removed a moment ago may still receive,
/// and its payments are recorded, which loses nothing).
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn by_token(
    pool: &PgPool,
    token_digest: &[u8],
) -> Result<Option<ReceiverTarget>, sqlx::Error> {
    sqlx::query_as(
        "select r.receiver_id, r.account_id, k.pix_key
           from api_pix_receivers r
           join pix_keys k on k.key_id = r.key_id and k.account_id = r.account_id
          where (r.token_digest = $1
                 or (r.previous_token_digest = $1 and r.previous_valid_until > now()))
            and r.revoked_at is null and k.removed_at is null",
    )
    .bind(token_digest)
    .fetch_optional(pool)
    .await
}

/// How many receivers the account has on (the plan page's usage).
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn live_count(pool: &PgPool, account_id: Uuid) -> Result<u32, sqlx::Error> {
    let n: i64 = sqlx::query_scalar(
        "select count(*) from api_pix_receivers where account_id = $1 and revoked_at is null",
    )
    .bind(account_id)
    .fetch_one(pool)
    .await?;
    Ok(u32::try_from(n).unwrap_or(u32::MAX))
}

/// Turns a receiver on for the key: refused when it is already on ([`ReceiverError::AlreadyOn`],
/// whatever the plan) or when the plan's receivers are all in use.
///
/// # Errors
///
/// The refusals above, or a storage failure (nothing written).
pub async fn turn_on(
    pool: &PgPool,
    turn_on: TurnOn<'_>,
) -> Result<(), CommandError<ReceiverError>> {
    let mut tx = pool.begin().await?;
    sqlx::query(
        "select pg_advisory_xact_lock(hashtextextended('balcao.plan-usage.' || $1::text, 0))",
    )
    .bind(turn_on.account_id)
    .execute(&mut *tx)
    .await?;
    let (on, count): (bool, i64) = sqlx::query_as(
        "select bool_or(key_id = $2), count(*) from api_pix_receivers
          where account_id = $1 and revoked_at is null",
    )
    .bind(turn_on.account_id)
    .bind(turn_on.key_id)
    .fetch_one(&mut *tx)
    .await
    .map(|(on, count): (Option<bool>, i64)| (on.unwrap_or(false), count))?;
    if on {
        return Err(CommandError::Rejected(ReceiverError::AlreadyOn));
    }
    let usage = Usage {
        api_pix_endpoints: u32::try_from(count).unwrap_or(u32::MAX),
        ..Usage::default()
    };
    limits::check(turn_on.plan, LimitedAction::TurnOnApiPixEndpoint, usage)
        .map_err(|refused| CommandError::Rejected(ReceiverError::PlanLimit(refused)))?;
    // The partial unique index on live receivers per key stays the last word (a receiver
    // turned on for this key by a process that skipped the lock).
    let inserted = sqlx::query(
        "insert into api_pix_receivers (receiver_id, account_id, key_id, token_digest, created_by)
         values ($1, $2, $3, $4, $5)
         on conflict (key_id) where revoked_at is null do nothing",
    )
    .bind(Uuid::now_v7())
    .bind(turn_on.account_id)
    .bind(turn_on.key_id)
    .bind(turn_on.token_digest)
    .bind(turn_on.by)
    .execute(&mut *tx)
    .await?;
    if inserted.rows_affected() == 0 {
        return Err(CommandError::Rejected(ReceiverError::AlreadyOn));
    }
    tx.commit().await?;
    Ok(())
}

/// Gives the key's live receiver a new token: the old address stops at once (and so does any
/// previous one still in its grace).
///
/// # Errors
///
/// [`ReceiverError::NotOn`], or a storage failure.
pub async fn rotate(
    pool: &PgPool,
    account_id: Uuid,
    key_id: Uuid,
    token_digest: &[u8],
) -> Result<(), CommandError<ReceiverError>> {
    rotate_with_grace(pool, account_id, key_id, token_digest, None).await
}

/// Gives the key's live receiver a new token; with `grace`, the current token keeps answering
/// for that long (Balcão moved the bank to the new address itself, and a bank may deliver to the
/// old one for a while); without, it stops at once.
///
/// # Errors
///
/// [`ReceiverError::NotOn`], or a storage failure.
pub async fn rotate_with_grace(
    pool: &PgPool,
    account_id: Uuid,
    key_id: Uuid,
    token_digest: &[u8],
    grace: Option<std::time::Duration>,
) -> Result<(), CommandError<ReceiverError>> {
    let grace_ms = grace.map(|g| i64::try_from(g.as_millis()).unwrap_or(i64::MAX));
    let updated = sqlx::query(
        "update api_pix_receivers
            set previous_token_digest = case when $4::bigint is null then null else token_digest end,
                previous_valid_until = case when $4::bigint is null then null
                                            else now() + $4 * interval '1 millisecond' end,
                token_digest = $3, rotated_at = now()
          where key_id = $1 and account_id = $2 and revoked_at is null",
    )
    .bind(key_id)
    .bind(account_id)
    .bind(token_digest)
    .bind(grace_ms)
    .execute(pool)
    .await?;
    if updated.rows_affected() == 0 {
        return Err(CommandError::Rejected(ReceiverError::NotOn));
    }
    Ok(())
}

/// Turns the key's live receiver off: its address stops at once.
///
/// # Errors
///
/// [`ReceiverError::NotOn`], or a storage failure.
pub async fn turn_off(
    pool: &PgPool,
    account_id: Uuid,
    key_id: Uuid,
) -> Result<(), CommandError<ReceiverError>> {
    let updated = sqlx::query(
        "update api_pix_receivers set revoked_at = now()
          where key_id = $1 and account_id = $2 and revoked_at is null",
    )
    .bind(key_id)
    .bind(account_id)
    .execute(pool)
    .await?;
    if updated.rows_affected() == 0 {
        return Err(CommandError::Rejected(ReceiverError::NotOn));
    }
    Ok(())
}
