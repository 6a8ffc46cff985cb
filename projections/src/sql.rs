//! Small SQL helpers shared by the relay, the projector and replay.

use commands::feed::FeedPosition;
use sqlx::{AssertSqlSafe, PgExecutor};

/// `xid8` has no binary mapping in sqlx, so transaction ids cross the wire as text
/// (`$n::text::xid8` in SQL, `tx_id::text::bigint` on the way back).
pub(crate) fn tx_text(position: FeedPosition) -> String {
    position.tx_id.to_string()
}

/// Turns a `(tx_id, global_position)` pair read as `bigint`s back into a position.
pub(crate) fn position_from(tx_id: i64, global_position: i64) -> FeedPosition {
    FeedPosition {
        // xid8 values are epoch-qualified 64-bit ids, far below i64::MAX in practice.
        tx_id: u64::try_from(tx_id).unwrap_or_default(),
        global_position,
    }
}

/// Runs one statement whose text is assembled from identifiers this crate controls (table names
/// derived from a projection's fixed table list), never from input.
pub(crate) async fn execute_trusted<'e>(
    executor: impl PgExecutor<'e>,
    sql: String,
) -> Result<u64, sqlx::Error> {
    Ok(sqlx::query(AssertSqlSafe(sql))
        .execute(executor)
        .await?
        .rows_affected())
}

/// Number of committed events after `after`, whether or not they are below the horizon yet,
/// counting at most `cap` (so a huge backlog does not make the count itself slow).
pub(crate) async fn count_after<'e>(
    executor: impl PgExecutor<'e>,
    after: FeedPosition,
    cap: i64,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "select count(*) from (
            select 1 from events
             where (tx_id, global_position) > ($1::text::xid8, $2)
             limit $3) as pending",
    )
    .bind(tx_text(after))
    .bind(after.global_position)
    .bind(cap)
    .fetch_one(executor)
    .await
}
