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

/// About how many committed events lie after `after` in feed order, whether or not they are below
/// the horizon yet — without counting the log, so its cost does not grow with `events` or depend
/// on the plan PostgreSQL caches for the prepared statement:
///
/// - whether any event is after `after`: the first row after it, `order by tx_id,
///   global_position limit 1` on the feed index's own columns, one index probe in any plan, custom
///   or generic (an `exists (…)` would not do: PostgreSQL drops the `order by` inside it, and a
///   generic plan then scans the table from the start);
/// - how many: the highest global position committed (one probe of its unique index) minus the
///   checkpoint's, at least 1 when the probe found one.
///
/// Exact when transactions commit in the order they drew their positions; otherwise an estimate
/// (positions are drawn at insert and may commit out of order, and rolled-back ones leave holes),
/// which is all a lag gauge and the relay's "look again soon" need. 0 means nothing is after.
pub(crate) async fn pending_after<'e>(
    executor: impl PgExecutor<'e>,
    after: FeedPosition,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(PENDING_AFTER)
        .bind(tx_text(after))
        .bind(after.global_position)
        .fetch_one(executor)
        .await
}

/// The statement of `pending_after` (`$1` the checkpoint's `tx_id` as text, `$2` its global
/// position), public for the test that checks its plan.
pub const PENDING_AFTER: &str = "select coalesce(
            (select greatest(1, (select max(global_position) from events) - $2)
               from events
              where (tx_id, global_position) > ($1::text::xid8, $2)
              order by tx_id, global_position
              limit 1),
            0)::bigint";
