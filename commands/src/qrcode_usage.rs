//! `qrcode_usage`: each account's QR codes per São Paulo calendar month, counted by the commands
//! that make (or claim) them, in their own transaction (`migrations/0023_qrcode_usage.sql`).
//!
//! The plan's monthly limit is checked by the count itself ([`Effects::count_qrcodes`]): the
//! upsert adds the new codes and answers the month's total, which is exact whatever the
//! projector has applied (it is written with the events), costs one statement, and locks the
//! account's row of the month until the command commits, so two creations racing for the last
//! code of the plan are ordered and the second sees the first's count.
//!
//! [`Effects::count_qrcodes`]: crate::Effects::count_qrcodes

use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

/// Adds `codes` to `account_id`'s count of the month of `made_at` (RFC 3339) and answers the
/// month's total with them. Holds the row's lock until the caller's transaction ends.
///
/// The month is the first day of `made_at`'s São Paulo month, as `qrcode_month_counts` and the
/// migration's fill count it.
///
/// # Errors
///
/// When PostgreSQL fails, or `account_id` is not a UUID or `made_at` not a time.
pub(crate) async fn add(
    conn: &mut PgConnection,
    account_id: &str,
    made_at: &str,
    codes: u32,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "insert into qrcode_usage (account_id, month, codes)
         values ($1::uuid,
                 (date_trunc('month', $2::timestamptz at time zone 'America/Sao_Paulo'))::date,
                 $3)
         on conflict (account_id, month) do update set codes = qrcode_usage.codes + excluded.codes
         returning codes",
    )
    .bind(account_id)
    .bind(made_at)
    .bind(i64::from(codes))
    .fetch_one(conn)
    .await
}

/// The codes `account` has made this calendar month (São Paulo time), claimed ones included.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn this_month(pool: &PgPool, account: Uuid) -> Result<u32, sqlx::Error> {
    let codes: Option<i64> = sqlx::query_scalar(
        "select codes from qrcode_usage
          where account_id = $1
            and month = (date_trunc('month', now() at time zone 'America/Sao_Paulo'))::date",
    )
    .bind(account)
    .fetch_optional(pool)
    .await?;
    Ok(codes.map_or(0, |n| u32::try_from(n).unwrap_or(u32::MAX)))
}
