//! `qrcode_month_counts`: each account's codes per calendar month of São Paulo, which the plan
//! check reads as one row (counting the month's rows of `qrcodes` cost every creation more as a
//! shop sold more).
//!
//! Live adds each batch's new codes in one upsert and moves a claimed code's count to its new
//! account; replay leaves the table alone while it fills and computes it in one pass from the
//! rebuilt `qrcodes` when the fill ends ([`rebuild`]), so replay equals live.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

/// The live name.
pub const TABLE: &str = "qrcode_month_counts";

/// The month a code counts in, as SQL over its `created_at`: the first day of its São Paulo
/// month. Every statement here and the gateway's plan check use this one expression.
const MONTH_OF_CREATED_AT: &str =
    "(date_trunc('month', created_at at time zone 'America/Sao_Paulo'))::date";

/// Adds codes made by `owners` at `created_at` (pairwise; codes without an owner are skipped).
pub(super) async fn add(
    conn: &mut PgConnection,
    counts: &str,
    owners: &[Option<Uuid>],
    created_at: &[DateTime<Utc>],
) -> Result<(), sqlx::Error> {
    if owners.iter().all(Option::is_none) {
        return Ok(());
    }
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "insert into {counts} as c (owner_id, month, codes)
         select owner_id, {MONTH_OF_CREATED_AT}, count(*)
           from unnest($1::uuid[], $2::timestamptz[]) as n(owner_id, created_at)
          where owner_id is not null
          group by 1, 2
         on conflict (owner_id, month) do update set codes = c.codes + excluded.codes"
    )))
    .bind(owners)
    .bind(created_at)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Each of codes `ids` found in table `codes`, with its owner and creation time: read before a
/// claim moves them.
pub(super) async fn owners_of(
    conn: &mut PgConnection,
    codes: &str,
    ids: &[Uuid],
) -> Result<Vec<(Uuid, Option<Uuid>, DateTime<Utc>)>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select qrcode_id, owner_id, created_at from {codes} where qrcode_id = any($1)"
    )))
    .bind(ids)
    .fetch_all(&mut *conn)
    .await
}

/// Takes codes made by `owners` at `created_at` off their counts (a claim moved them).
pub(super) async fn remove(
    conn: &mut PgConnection,
    counts: &str,
    owners: &[Option<Uuid>],
    created_at: &[DateTime<Utc>],
) -> Result<(), sqlx::Error> {
    if owners.iter().all(Option::is_none) {
        return Ok(());
    }
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "update {counts} c set codes = c.codes - r.codes
           from (select owner_id, {MONTH_OF_CREATED_AT} as month, count(*) as codes
                   from unnest($1::uuid[], $2::timestamptz[]) as r(owner_id, created_at)
                  where owner_id is not null
                  group by 1, 2) r
          where c.owner_id = r.owner_id and c.month = r.month"
    )))
    .bind(owners)
    .bind(created_at)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Replay, once the fill and its noted claims are done: the counts of every row of rebuilt table
/// `codes`. A repeated code id that the key then refuses is taken off again by
/// `remove_refused_by_keys` ([`remove`]), as live never counted it. (Keeping only the first row
/// of each id here took a sort of the whole table: 0.3 s of a 1,000,000-event replay.)
pub(super) async fn rebuild(
    conn: &mut PgConnection,
    counts: &str,
    codes: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "insert into {counts} (owner_id, month, codes)
         select owner_id, {MONTH_OF_CREATED_AT}, count(*)
           from {codes}
          where owner_id is not null
          group by 1, 2"
    )))
    .execute(&mut *conn)
    .await?;
    Ok(())
}
