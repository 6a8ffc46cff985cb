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
/// month. Every statement here uses it; the gateway's plan check reads the row of the same
/// day for `now()`.
const MONTH_OF_CREATED_AT: &str =
    "(date_trunc('month', created_at at time zone 'America/Sao_Paulo'))::date";

/// How many codes per `(owner_id, month)` the pairs `$1` (owners) and `$2` (creation times)
/// make, codes without an owner left out: the one shape both [`add`] and [`remove`] apply.
fn per_month() -> String {
    format!(
        "(select owner_id, {MONTH_OF_CREATED_AT} as month, count(*) as codes
            from unnest($1::uuid[], $2::timestamptz[]) as n(owner_id, created_at)
           where owner_id is not null
           group by 1, 2)"
    )
}

/// Runs `statement` over [`per_month`] of `owners` and `created_at` (pairwise), unless no code
/// has an owner.
async fn apply_per_month(
    conn: &mut PgConnection,
    statement: String,
    owners: &[Option<Uuid>],
    created_at: &[DateTime<Utc>],
) -> Result<(), sqlx::Error> {
    if owners.iter().all(Option::is_none) {
        return Ok(());
    }
    sqlx::query(sqlx::AssertSqlSafe(statement))
        .bind(owners)
        .bind(created_at)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Adds codes made by `owners` at `created_at` (pairwise; codes without an owner are skipped).
pub(super) async fn add(
    conn: &mut PgConnection,
    counts: &str,
    owners: &[Option<Uuid>],
    created_at: &[DateTime<Utc>],
) -> Result<(), sqlx::Error> {
    let statement = format!(
        "insert into {counts} as c (owner_id, month, codes)
         select owner_id, month, codes from {} d
         on conflict (owner_id, month) do update set codes = c.codes + excluded.codes",
        per_month()
    );
    apply_per_month(conn, statement, owners, created_at).await
}

/// Takes codes made by `owners` at `created_at` off their counts (a claim moved them, or
/// replay's key refused them). An update rather than an upsert: replay's table has no key yet
/// when its refused rows go.
pub(super) async fn remove(
    conn: &mut PgConnection,
    counts: &str,
    owners: &[Option<Uuid>],
    created_at: &[DateTime<Utc>],
) -> Result<(), sqlx::Error> {
    let statement = format!(
        "update {counts} c set codes = c.codes - r.codes
           from {} r
          where c.owner_id = r.owner_id and c.month = r.month",
        per_month()
    );
    apply_per_month(conn, statement, owners, created_at).await
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
