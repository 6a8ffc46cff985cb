//! The feed: every committed event, in one order all readers agree on.
//!
//! Positions are drawn at insert time but become visible at commit, so a reader that only
//! remembers "the last global position I saw" would skip a transaction that commits late.
//! The feed therefore reads only below the transaction-id horizon: rows whose writing
//! transaction is older than the oldest transaction still running
//! (`pg_snapshot_xmin(pg_current_snapshot())`). Anything that could still commit is waited for,
//! never skipped, and rolled-back rows never appear. See `docs/ARCHITECTURE.md`.

use chrono::{DateTime, Utc};
use sqlx::PgExecutor;
use uuid::Uuid;

use crate::json_text::JsonText;
use crate::upcast::Upcasters;

pub use crate::stored_event::{FeedPosition, StoredEvent};

/// One `events` row, with `tx_id` selected as `tx_id::text::bigint as tx_id` (sqlx has no binary
/// mapping for `xid8`).
#[derive(sqlx::FromRow)]
pub(crate) struct EventRow {
    event_id: Uuid,
    tx_id: i64,
    global_position: i64,
    stream_type: String,
    stream_id: String,
    stream_version: i64,
    event_type: String,
    schema_version: i32,
    payload: Option<JsonText>,
    metadata: Option<JsonText>,
    recorded_at: DateTime<Utc>,
}

impl From<EventRow> for StoredEvent {
    fn from(row: EventRow) -> Self {
        StoredEvent {
            event_id: row.event_id,
            position: FeedPosition {
                // xid8 values are 64-bit epoch-qualified ids that start far below i64::MAX.
                tx_id: u64::try_from(row.tx_id).unwrap_or_default(),
                global_position: row.global_position,
            },
            stream_type: row.stream_type,
            stream_id: row.stream_id,
            stream_version: row.stream_version,
            event_type: row.event_type,
            schema_version: row.schema_version,
            payload: row.payload.unwrap_or_default(),
            metadata: row.metadata.unwrap_or_default(),
            recorded_at: row.recorded_at,
        }
    }
}

/// Which parts of each event a reader needs beyond its envelope (id, position, stream, type,
/// schema version, time). A reader of a large log asks only for those, and PostgreSQL neither
/// turns the rest into text nor sends it.
///
/// An event whose payload is left out comes with `payload: null`, at its stored schema version
/// (there is nothing to upcast); left-out metadata is `null` too.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeedFields {
    /// The stream types whose payloads are read; `None` for every payload.
    pub payloads_of: Option<Vec<&'static str>>,
    /// Whether metadata is read.
    pub metadata: bool,
}

impl FeedFields {
    /// Every payload and all metadata: what the relay publishes.
    pub fn everything() -> FeedFields {
        FeedFields {
            payloads_of: None,
            metadata: true,
        }
    }

    /// The payloads of these stream types, and no metadata.
    pub fn payloads_of(stream_types: &[&'static str]) -> FeedFields {
        FeedFields {
            payloads_of: Some(stream_types.to_vec()),
            metadata: false,
        }
    }

    /// What a reader serving both `self`'s and `other`'s readers needs.
    #[must_use]
    pub fn union(&self, other: &FeedFields) -> FeedFields {
        let payloads_of = match (&self.payloads_of, &other.payloads_of) {
            (Some(mine), Some(theirs)) => {
                let mut both = mine.clone();
                both.extend(theirs.iter().filter(|t| !mine.contains(t)));
                Some(both)
            }
            _ => None,
        };
        FeedFields {
            payloads_of,
            metadata: self.metadata || other.metadata,
        }
    }

    /// Whether the payload of an event of `stream_type` is read.
    pub fn reads_payload_of(&self, stream_type: &str) -> bool {
        self.payloads_of
            .as_ref()
            .is_none_or(|types| types.contains(&stream_type))
    }

    /// A whole event as [`read_after_with`] reads it with these fields: upcast by `upcasters`
    /// when its payload is read, and with what is left out set to `null` (the payload at its
    /// stored schema version). A live reader given whole events narrows them with this, so it
    /// sees exactly what a replay of the same events reads.
    ///
    /// The readers that left a field out in SQL hand it in as `null` already: it is kept as it
    /// is, not replaced by another `null` (a replay narrows every event of the log).
    pub fn narrow(&self, upcasters: &Upcasters, mut event: StoredEvent) -> StoredEvent {
        if !self.metadata && !event.metadata.is_null() {
            event.metadata = JsonText::null();
        }
        if self.reads_payload_of(&event.stream_type) {
            upcasters.upcast_event(event)
        } else {
            if !event.payload.is_null() {
                event.payload = JsonText::null();
            }
            event
        }
    }
}

/// Reads up to `limit` committed events strictly after `after`, below the transaction-id horizon,
/// in feed order, each upcast by `upcasters` to its current shape (pass
/// [`Upcasters::application`]; a test passes its own).
///
/// Call it again with the last returned position to continue. An empty answer means "nothing
/// safe to read yet", not "the log ends here": a transaction still running may commit events that
/// sort before later ones.
pub async fn read_after<'e>(
    executor: impl PgExecutor<'e>,
    upcasters: &Upcasters,
    after: FeedPosition,
    limit: i64,
) -> Result<Vec<StoredEvent>, sqlx::Error> {
    read_after_with(executor, upcasters, after, limit, &FeedFields::everything()).await
}

/// [`read_after`] reading only `fields` of each event (see [`FeedFields`]).
pub async fn read_after_with<'e>(
    executor: impl PgExecutor<'e>,
    upcasters: &Upcasters,
    after: FeedPosition,
    limit: i64,
    fields: &FeedFields,
) -> Result<Vec<StoredEvent>, sqlx::Error> {
    let after_tx = i64::try_from(after.tx_id).unwrap_or(i64::MAX);
    let every_payload = fields.payloads_of.is_none();
    let payload_types: &[&str] = fields.payloads_of.as_deref().unwrap_or_default();
    let rows: Vec<EventRow> = sqlx::query_as(
        "select event_id, tx_id::text::bigint as tx_id, global_position, stream_type, stream_id,
                stream_version, event_type, schema_version,
                case when $4 or stream_type = any($5) then payload end as payload,
                case when $6 then metadata end as metadata, recorded_at
           from events
          where tx_id < pg_snapshot_xmin(pg_current_snapshot())
            and (tx_id, global_position) > ($1::text::xid8, $2)
          order by events.tx_id, events.global_position
          limit $3",
    )
    .bind(after_tx.to_string())
    .bind(after.global_position)
    .bind(limit)
    .bind(every_payload)
    .bind(payload_types)
    .bind(fields.metadata)
    .fetch_all(executor)
    .await?;
    Ok(rows
        .into_iter()
        .map(|row| fields.narrow(upcasters, StoredEvent::from(row)))
        .collect())
}
