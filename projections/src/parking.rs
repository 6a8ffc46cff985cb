//! Applying a batch to a projection, parking the events that can never be applied.
//!
//! A poison event must neither block its projection forever nor be silently lost: it gets a row
//! in `parked_events` (for an operator to inspect and, once the code is fixed, replay), an error
//! log line and a metric, and the checkpoint moves past it. The same routine serves the live
//! projector and replay, so both skip exactly the same events and their tables agree.

use std::collections::VecDeque;
use std::ops::Range;

use commands::Upcasters;
use commands::feed::{FeedPosition, StoredEvent};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::metric_names::PARKED_EVENTS_TOTAL;
use crate::projection::{ApplyError, Projection, TableSet};
use crate::sql::tx_text;

/// An event set aside because it could not be applied.
#[derive(Debug, Clone)]
pub(crate) struct Parked {
    pub(crate) event_id: Uuid,
    pub(crate) position: FeedPosition,
    pub(crate) error: String,
}

impl Parked {
    /// Logs and counts a parked event; call after the transaction that parked it committed.
    pub(crate) fn report(&self, projection: &str) {
        tracing::error!(
            projection,
            event_id = %self.event_id,
            tx_id = self.position.tx_id,
            global_position = self.position.global_position,
            error = %self.error,
            "poison event parked"
        );
        metrics::counter!(PARKED_EVENTS_TOTAL, "projection" => projection.to_owned()).increment(1);
    }
}

/// Applies `events` to `target`, parking each event the projection rejects, inside the caller's
/// transaction. Returns the parked events; an `Err` means the database itself failed (the
/// caller rolls back and retries the whole batch later).
pub(crate) async fn apply_with_parking(
    conn: &mut PgConnection,
    projection: &dyn Projection,
    target: &TableSet,
    upcasters: &Upcasters,
    events: &[StoredEvent],
) -> Result<Vec<Parked>, sqlx::Error> {
    let mut parked = Vec::new();
    // Ranges still to apply, in feed order. A failing range is split so that the good events
    // around a poison one still apply in order.
    let mut pending: VecDeque<Range<usize>> = VecDeque::new();
    pending.push_back(0..events.len());
    while let Some(range) = pending.pop_front() {
        if range.is_empty() {
            continue;
        }
        sqlx::query("savepoint apply_range")
            .execute(&mut *conn)
            .await?;
        let outcome = projection
            .apply_batch(&mut *conn, target, upcasters, &events[range.clone()])
            .await;
        let error = match outcome {
            Ok(()) => {
                sqlx::query("release savepoint apply_range")
                    .execute(&mut *conn)
                    .await?;
                continue;
            }
            Err(error) => error,
        };
        // If this fails the connection or transaction is gone: a real outage, not poison.
        sqlx::query("rollback to savepoint apply_range")
            .execute(&mut *conn)
            .await?;
        match error {
            ApplyError::Rejected { event_id, reason } => {
                let found = events[range.clone()]
                    .iter()
                    .position(|e| e.event_id == event_id)
                    .map(|offset| range.start + offset);
                match found {
                    Some(bad) => {
                        parked.push(park(conn, projection.name(), &events[bad], &reason).await?);
                        pending.push_front(bad + 1..range.end);
                        pending.push_front(range.start..bad);
                    }
                    // The projection named an event outside the batch: find the culprit the
                    // slow way.
                    None => {
                        split(
                            &mut pending,
                            range,
                            &mut parked,
                            conn,
                            projection,
                            events,
                            &reason,
                        )
                        .await?
                    }
                }
            }
            ApplyError::Database(error) if is_event_specific(&error) => {
                split(
                    &mut pending,
                    range,
                    &mut parked,
                    conn,
                    projection,
                    events,
                    &error.to_string(),
                )
                .await?;
            }
            ApplyError::Database(error) => return Err(error),
        }
    }
    Ok(parked)
}

/// Halves a failing range (bisection finds one poison event in log2(n) steps); a single event
/// that still fails is parked.
async fn split(
    pending: &mut VecDeque<Range<usize>>,
    range: Range<usize>,
    parked: &mut Vec<Parked>,
    conn: &mut PgConnection,
    projection: &dyn Projection,
    events: &[StoredEvent],
    reason: &str,
) -> Result<(), sqlx::Error> {
    if range.len() == 1 {
        parked.push(park(conn, projection.name(), &events[range.start], reason).await?);
    } else {
        let middle = range.start + range.len() / 2;
        pending.push_front(middle..range.end);
        pending.push_front(range.start..middle);
    }
    Ok(())
}

/// Errors caused by the event's data rather than by the database being unavailable:
/// SQLSTATE class 22 (data exception) and 23 (integrity constraint violation), and values the
/// driver could not encode.
fn is_event_specific(error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::Database(db) => db
            .code()
            .is_some_and(|code| code.starts_with("22") || code.starts_with("23")),
        sqlx::Error::Encode(_) => true,
        _ => false,
    }
}

async fn park(
    conn: &mut PgConnection,
    projection: &str,
    event: &StoredEvent,
    error: &str,
) -> Result<Parked, sqlx::Error> {
    // A replay meets the same poison events again; the first parking row stays.
    sqlx::query(
        "insert into parked_events
             (projection, event_id, tx_id, global_position, stream_type, stream_id, event_type, error)
         values ($1, $2, $3::text::xid8, $4, $5, $6, $7, $8)
         on conflict (projection, event_id) do nothing",
    )
    .bind(projection)
    .bind(event.event_id)
    .bind(tx_text(event.position))
    .bind(event.position.global_position)
    .bind(&event.stream_type)
    .bind(&event.stream_id)
    .bind(&event.event_type)
    .bind(error)
    .execute(&mut *conn)
    .await?;
    Ok(Parked {
        event_id: event.event_id,
        position: event.position,
        error: error.to_owned(),
    })
}

/// Parks the events `event_ids` (read from the log) for `projection` with `error`, inside the
/// caller's transaction; returns them in feed order. Replay uses it for the rows a key built
/// after the fill refuses.
pub(crate) async fn park_by_id(
    conn: &mut PgConnection,
    projection: &str,
    event_ids: &[Uuid],
    error: &str,
) -> Result<Vec<Parked>, sqlx::Error> {
    if event_ids.is_empty() {
        return Ok(Vec::new());
    }
    let events: Vec<(Uuid, i64, i64)> = sqlx::query_as(
        "select event_id, tx_id::text::bigint, global_position
           from events where event_id = any($1)
          order by tx_id, global_position",
    )
    .bind(event_ids)
    .fetch_all(&mut *conn)
    .await?;
    // A replay meets the same poison events again; the first parking row stays.
    sqlx::query(
        "insert into parked_events
             (projection, event_id, tx_id, global_position, stream_type, stream_id, event_type, error)
         select $1, event_id, tx_id, global_position, stream_type, stream_id, event_type, $3
           from events where event_id = any($2)
          order by tx_id, global_position
         on conflict (projection, event_id) do nothing",
    )
    .bind(projection)
    .bind(event_ids)
    .bind(error)
    .execute(&mut *conn)
    .await?;
    Ok(events
        .into_iter()
        .map(|(event_id, tx_id, global_position)| Parked {
            event_id,
            position: crate::sql::position_from(tx_id, global_position),
            error: error.to_owned(),
        })
        .collect())
}
