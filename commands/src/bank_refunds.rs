//! `bank_refunds` (migration 0036): the refunds Balcão asked a connected key's bank for whose
//! outcome is not known yet. A row is written by the refund command in the same transaction as
//! its `PaymentRefundRequested` ([`crate::Effects::follow_refund`]), so a request that committed
//! is always followed; the follow-up (`gateway::bank_refunds`) deletes it once the payment's
//! stream shows the refund final or refused. Replay neither reads nor writes it.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

/// One refund to follow.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct FollowedRefund {
    /// The payment's account.
    pub account_id: Uuid,
    /// The payment's reference (its end-to-end id).
    pub reference: String,
    /// The refund's id at the bank.
    pub refund_id: String,
    /// The connected key whose bank holds the payment.
    pub key_id: Uuid,
    /// The amount asked for, in centavos.
    pub amount_centavos: i64,
    /// The description sent to the payer.
    pub description: Option<String>,
    /// How many attempts in a row failed.
    pub failures: i32,
    /// The last failure's code (`bank-timeout`…), `None` while the bank answers.
    pub last_problem: Option<String>,
}

/// Writes the row, first due at `first_attempt_at` (the handler's own attempt runs before it).
/// Asking again with the same id keeps the row as it is.
pub(crate) async fn insert(
    conn: &mut PgConnection,
    refund: &FollowedRefund,
    first_attempt_at: DateTime<Utc>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "insert into bank_refunds
                (account_id, reference, refund_id, key_id, amount_centavos, description,
                 next_attempt_at)
         values ($1, $2, $3, $4, $5, $6, $7)
         on conflict (account_id, reference, refund_id) do nothing",
    )
    .bind(refund.account_id)
    .bind(&refund.reference)
    .bind(&refund.refund_id)
    .bind(refund.key_id)
    .bind(refund.amount_centavos)
    .bind(&refund.description)
    .bind(first_attempt_at)
    .execute(conn)
    .await?;
    Ok(())
}

/// The refund `refund_id` of the payment, if it is still followed.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn find(
    pool: &PgPool,
    account_id: Uuid,
    reference: &str,
    refund_id: &str,
) -> Result<Option<FollowedRefund>, sqlx::Error> {
    sqlx::query_as(
        "select account_id, reference, refund_id, key_id, amount_centavos, description,
                failures, last_problem
           from bank_refunds
          where account_id = $1 and reference = $2 and refund_id = $3",
    )
    .bind(account_id)
    .bind(reference)
    .bind(refund_id)
    .fetch_optional(pool)
    .await
}

/// Up to `limit` refunds whose next attempt is due, the longest waiting first.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn due(pool: &PgPool, limit: i64) -> Result<Vec<FollowedRefund>, sqlx::Error> {
    sqlx::query_as(
        "select account_id, reference, refund_id, key_id, amount_centavos, description,
                failures, last_problem
           from bank_refunds
          where next_attempt_at <= now()
          order by next_attempt_at
          limit $1",
    )
    .bind(limit)
    .fetch_all(pool)
    .await
}

/// Sets the refund's next attempt, its failures in a row and the last problem.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn reschedule(
    pool: &PgPool,
    refund: &FollowedRefund,
    next_attempt_at: DateTime<Utc>,
    failures: i32,
    problem: Option<&str>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "update bank_refunds
            set next_attempt_at = $4, failures = $5, last_problem = $6
          where account_id = $1 and reference = $2 and refund_id = $3",
    )
    .bind(refund.account_id)
    .bind(&refund.reference)
    .bind(&refund.refund_id)
    .bind(next_attempt_at)
    .bind(failures)
    .bind(problem)
    .execute(pool)
    .await?;
    Ok(())
}

/// Stops following the refund (its stream shows it final or refused).
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn done(pool: &PgPool, refund: &FollowedRefund) -> Result<(), sqlx::Error> {
    sqlx::query(
        "delete from bank_refunds
          where account_id = $1 and reference = $2 and refund_id = $3",
    )
    .bind(refund.account_id)
    .bind(&refund.reference)
    .bind(&refund.refund_id)
    .execute(pool)
    .await?;
    Ok(())
}

/// Deletes every followed refund of an account (its deletion).
pub(crate) async fn delete_account(
    conn: &mut PgConnection,
    account_id: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("delete from bank_refunds where account_id::text = $1")
        .bind(account_id)
        .execute(conn)
        .await?;
    Ok(())
}
