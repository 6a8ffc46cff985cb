//! Checkpoints: how far the relay and each projection have got in the feed.
//!
//! Positions are feed positions `(tx_id, global_position)`. Because one relay publishes in feed
//! order, the order of a JetStream stream equals feed order, and a projection can skip anything
//! at or before its checkpoint.

use chrono::{DateTime, Utc};
use commands::feed::FeedPosition;
use sqlx::{PgConnection, PgExecutor};

use crate::sql::{position_from, tx_text};

/// The feed position a projection's read model includes, or the start of the feed if it has
/// never applied anything.
pub async fn projection_position<'e>(
    executor: impl PgExecutor<'e>,
    projection: &str,
) -> Result<FeedPosition, sqlx::Error> {
    let row: Option<(i64, i64)> = sqlx::query_as(
        "select tx_id::text::bigint, global_position
           from projection_checkpoints where projection = $1",
    )
    .bind(projection)
    .fetch_optional(executor)
    .await?;
    Ok(row.map_or_else(FeedPosition::default, |(tx, gp)| position_from(tx, gp)))
}

/// The feed position up to which the relay has published to `stream_name`.
pub async fn relay_position<'e>(
    executor: impl PgExecutor<'e>,
    stream_name: &str,
) -> Result<FeedPosition, sqlx::Error> {
    let row: Option<(i64, i64)> = sqlx::query_as(
        "select tx_id::text::bigint, global_position
           from relay_checkpoints where stream_name = $1",
    )
    .bind(stream_name)
    .fetch_optional(executor)
    .await?;
    Ok(row.map_or_else(FeedPosition::default, |(tx, gp)| position_from(tx, gp)))
}

/// Reads a projection's checkpoint inside the caller's transaction; call it after taking the
/// projection's write lock, so that nobody moves it before the transaction ends.
pub(crate) async fn read_locked(
    conn: &mut PgConnection,
    projection: &str,
) -> Result<FeedPosition, sqlx::Error> {
    projection_position(&mut *conn, projection).await
}

/// Moves a projection's checkpoint and wakes whoever waits on it (`projector::wait_until`),
/// inside the caller's transaction: the notification goes out only if the change commits.
pub(crate) async fn store(
    conn: &mut PgConnection,
    projection: &str,
    position: FeedPosition,
    last_recorded_at: Option<DateTime<Utc>>,
) -> Result<(), sqlx::Error> {
    // One statement (one round trip) for both.
    sqlx::query(
        "with stored as (
            insert into projection_checkpoints
                 (projection, tx_id, global_position, last_recorded_at, updated_at)
            values ($1, $2::text::xid8, $3, $4, now())
            on conflict (projection) do update
               set tx_id = excluded.tx_id,
                   global_position = excluded.global_position,
                   last_recorded_at = coalesce(excluded.last_recorded_at,
                                               projection_checkpoints.last_recorded_at),
                   updated_at = now()
            returning 1)
         select pg_notify($5, $6) from stored",
    )
    .bind(projection)
    .bind(tx_text(position))
    .bind(position.global_position)
    .bind(last_recorded_at)
    .bind(notify_channel(projection))
    .bind(format!("{}:{}", position.tx_id, position.global_position))
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// The NOTIFY channel a projection announces its new checkpoints on.
pub fn notify_channel(projection: &str) -> String {
    format!("balcao_projection_{projection}")
}

/// Parses the payload of a checkpoint notification (`"<tx_id>:<global_position>"`).
pub(crate) fn parse_notification(payload: &str) -> Option<FeedPosition> {
    let (tx, gp) = payload.split_once(':')?;
    Some(FeedPosition {
        tx_id: tx.parse().ok()?,
        global_position: gp.parse().ok()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_checkpoint_notification_round_trips() {
        let position = FeedPosition {
            tx_id: 912_345,
            global_position: 77,
        };
        let payload = format!("{}:{}", position.tx_id, position.global_position);
        assert_eq!(parse_notification(&payload), Some(position));
        assert_eq!(parse_notification("garbage"), None);
    }
}
