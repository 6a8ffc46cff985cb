//! `qrcode_usage`: each account's QR codes per São Paulo calendar month, counted by the commands
//! that make (or claim) them, in their own transaction (`migrations/0023_qrcode_usage.sql`).
//!
//! The plan's monthly limit is checked by the count itself ([`Effects::count_qrcodes`]): the
//! upsert adds the new codes and answers the month's total, which is exact whatever the
//! projector has applied (it is written with the events), costs one statement, and locks the
//! account's row of the month until the command commits, so two creations racing for the last
//! code of the plan are ordered and the second sees the first's count.
//!
//! [`Effects::count_qrcodes`]: crate::effects::Effects::count_qrcodes

use domain::subscription::plans::PlanId;
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

/// An account's plan as a request read it: the plan in force, whose monthly limit of QR codes
/// a creation checks, and the version of the subscription stream it was read at. The count
/// refuses with [`CommandError::PlanChanged`](crate::error::CommandError::PlanChanged) when the stream
/// has moved since (an upgrade, a renewal, an expiry recorded), so a plan kept in memory between
/// requests is never applied once it is stale.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlanAsRead {
    /// The plan in force when read.
    pub plan: PlanId,
    /// The subscription stream's version then (0: no subscription yet).
    pub version: i64,
}

impl PlanAsRead {
    /// The most codes the plan allows in a month.
    pub fn qrcodes_per_month(&self) -> u32 {
        self.plan.plan().limits.qrcodes_per_month
    }
}

/// A claim made by the count's own statement ([`add`]).
pub(crate) struct ClaimRow<'a> {
    pub scope: &'a str,
    pub value: &'a str,
    pub owner: &'a str,
}

/// What [`add`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Counted {
    /// Added: the month's total with the new codes, and whether the claim (if one was given)
    /// was made (`false`: the value is already held).
    Added { total: i64, claimed: bool },
    /// Nothing added: the subscription is no longer at the version given.
    PlanChanged,
}

/// Adds `codes` to `account_id`'s count of the month of `made_at` (RFC 3339) and answers the
/// month's total with them; with `claim`, also claims its value (`unique_claims`, as
/// [`Effects::claim`](crate::effects::Effects::claim) does) in the same statement, one round trip for
/// both. With `plan_version`, adds nothing (and claims nothing) unless the account's
/// subscription stream is still at that version. Holds the count row's lock until the caller's
/// transaction ends; the claim is made after the count (it reads the count's row), so every
/// creation takes its locks in the same order.
///
/// The month is the first day of `made_at`'s São Paulo month, as the migration's fill counts it.
///
/// # Errors
///
/// When PostgreSQL fails, or `account_id` is not a UUID or `made_at` not a time.
pub(crate) async fn add(
    conn: &mut PgConnection,
    account_id: &str,
    made_at: &str,
    codes: u32,
    plan_version: Option<i64>,
    claim: Option<ClaimRow<'_>>,
) -> Result<Counted, sqlx::Error> {
    // `$1` is the account id as text: cast for the count, as it is for the stream id. A macro,
    // so both statements below are literals built at compile time.
    macro_rules! count {
        () => {
            "insert into qrcode_usage (account_id, month, codes)
         select $1::uuid,
                (date_trunc('month', $2::timestamptz at time zone 'America/Sao_Paulo'))::date,
                $3
          where $4::bigint is null
             or $4 = coalesce((select max(stream_version) from events
                                where stream_type = $5 and stream_id = $1), 0)
         on conflict (account_id, month) do update set codes = qrcode_usage.codes + excluded.codes
         returning codes"
        };
    }
    let row: (Option<i64>, bool) = match claim {
        None => {
            sqlx::query_as(concat!(
                "with counted as (",
                count!(),
                ") select (select codes from counted), true"
            ))
            .bind(account_id)
            .bind(made_at)
            .bind(i64::from(codes))
            .bind(plan_version)
            .bind(domain::subscription::STREAM_TYPE)
            .fetch_one(conn)
            .await?
        }
        Some(claim) => {
            sqlx::query_as(concat!(
                "with counted as (",
                count!(),
                "), claimed as (
                     insert into unique_claims (scope, value, owner)
                     select $6, $7, $8 from counted
                     on conflict (scope, value) do nothing
                     returning 1
                 )
                 select (select codes from counted), exists (select 1 from claimed)"
            ))
            .bind(account_id)
            .bind(made_at)
            .bind(i64::from(codes))
            .bind(plan_version)
            .bind(domain::subscription::STREAM_TYPE)
            .bind(claim.scope)
            .bind(claim.value)
            .bind(claim.owner)
            .fetch_one(conn)
            .await?
        }
    };
    Ok(match row {
        (Some(total), claimed) => Counted::Added { total, claimed },
        (None, _) => Counted::PlanChanged,
    })
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
