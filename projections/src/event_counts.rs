//! Read model `event_counts`: how many events of each type the log holds, per stream type.
//!
//! Useful on an operations dashboard, and as a second, independent projection to compare replay
//! against live (it sees every event, where `qrcodes` sees one type).

use std::collections::BTreeMap;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use commands::Upcasters;
use commands::feed::{FeedFields, StoredEvent};
use sqlx::{PgConnection, PgExecutor};

use crate::projection::{ApplyError, Projection, TableSet};

/// The projection's name (durable consumer, checkpoint key).
pub const NAME: &str = "event_counts";
/// The live table.
pub const TABLE: &str = "event_counts";

/// Events of one type in one stream type.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct EventCount {
    /// Aggregate type, e.g. `qrcode`.
    pub stream_type: String,
    /// Event type, e.g. `QrCodeCreated`.
    pub event_type: String,
    /// How many the log holds (as far as the projection got).
    pub events: i64,
    /// `recorded_at` of the newest one.
    pub last_recorded_at: DateTime<Utc>,
}

/// All counts, ordered by stream type then event type.
pub async fn list<'e>(executor: impl PgExecutor<'e>) -> Result<Vec<EventCount>, sqlx::Error> {
    sqlx::query_as(
        "select stream_type, event_type, events, last_recorded_at
           from event_counts order by stream_type, event_type",
    )
    .fetch_all(executor)
    .await
}

/// The `event_counts` projection.
#[derive(Debug, Clone, Copy, Default)]
pub struct EventCounts;

#[async_trait]
impl Projection for EventCounts {
    fn name(&self) -> &'static str {
        NAME
    }

    fn reads(&self) -> FeedFields {
        // Counts by stream and event type: no payload at all.
        FeedFields::payloads_of(&[])
    }

    fn tables(&self) -> &'static [&'static str] {
        &[TABLE]
    }

    async fn apply_batch(
        &self,
        conn: &mut PgConnection,
        target: &TableSet,
        _upcasters: &Upcasters,
        events: &[StoredEvent],
    ) -> Result<(), ApplyError> {
        // Fold the batch first: one upserted row per type instead of one per event.
        let mut folded: BTreeMap<(&str, &str), (i64, DateTime<Utc>)> = BTreeMap::new();
        for event in events {
            let entry = folded
                .entry((event.stream_type.as_str(), event.event_type.as_str()))
                .or_insert((0, event.recorded_at));
            entry.0 += 1;
            entry.1 = entry.1.max(event.recorded_at);
        }
        if folded.is_empty() {
            return Ok(());
        }
        let mut stream_types = Vec::with_capacity(folded.len());
        let mut event_types = Vec::with_capacity(folded.len());
        let mut counts = Vec::with_capacity(folded.len());
        let mut last = Vec::with_capacity(folded.len());
        for ((stream_type, event_type), (count, recorded_at)) in folded {
            stream_types.push(stream_type);
            event_types.push(event_type);
            counts.push(count);
            last.push(recorded_at);
        }
        let t = target.table(TABLE);
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "insert into {t} (stream_type, event_type, events, last_recorded_at)
             select * from unnest($1::text[], $2::text[], $3::bigint[], $4::timestamptz[])
             on conflict (stream_type, event_type) do update
                set events = {t}.events + excluded.events,
                    last_recorded_at = greatest({t}.last_recorded_at, excluded.last_recorded_at)"
        )))
        .bind(&stream_types)
        .bind(&event_types)
        .bind(&counts)
        .bind(&last)
        .execute(&mut *conn)
        .await?;
        Ok(())
    }
}
