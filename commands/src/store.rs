//! `PgEventStore`: appends and loads events in PostgreSQL.
//!
//! A command's events go in with **one statement** (a multi-row `insert … select from unnest(…)`),
//! so they share one transaction and one `tx_id`, and cost one round trip. The statement reads the
//! stream's head version, inserts nothing unless it is the version the caller expects, and numbers
//! the new rows head + 1, head + 2, …; the primary key `(stream_type, stream_id, stream_version)`
//! then refuses a second writer that read the same head while the first was still in flight. When
//! the command carries an idempotency key, the same statement also inserts the
//! `command_idempotency` row (a data-modifying CTE), so the events exist if and only if the key is
//! recorded.

use std::sync::Arc;

use cqrs_es::Aggregate;
use cqrs_es::DomainEvent;
use sqlx::{PgExecutor, PgPool};
use uuid::Uuid;

use crate::error::CommandError;
use crate::expected_version::ExpectedVersion;
use crate::feed::{EventRow, FeedPosition, StoredEvent};
use crate::idempotency;
use crate::json_text::JsonText;
use crate::metadata::CommandMetadata;
use crate::metadata::{IdempotencyKey, RequestDigest};
use crate::outcome::CommandOutcome;
use crate::upcast::{Upcasters, parse_schema_version};

/// How many times a command is decided again after losing the race for its stream's next version,
/// unless [`CommandService::with_max_retries`](crate::service::CommandService::with_max_retries) says otherwise.
pub const DEFAULT_MAX_RETRIES: u32 = 3;

/// Name of the primary key that enforces expected-version concurrency.
const STREAM_VERSION_KEY: &str = "events_pkey";

/// Balcão's event store on PostgreSQL. Cheap to clone (a pool handle and a shared registry).
///
/// One store serves every aggregate type: the methods are generic over the aggregate, and the
/// cqrs-es [`EventStore`](cqrs_es::EventStore) trait is implemented for every `A: Aggregate`.
#[derive(Clone, Debug)]
pub struct PgEventStore {
    pool: PgPool,
    upcasters: Arc<Upcasters>,
}

/// An aggregate rebuilt from its stream.
#[derive(Debug, Clone)]
pub struct LoadedAggregate<A> {
    /// The stream it was loaded from.
    pub stream_id: String,
    /// The state after folding every event.
    pub aggregate: A,
    /// The stream's version: how many events were folded (0 for a stream that does not exist).
    pub version: i64,
}

/// A keyed command's first read: the outcome already recorded under its key, or its aggregate.
pub(crate) enum LoadedOrRecorded<A> {
    /// The key is known: answer this.
    Recorded(idempotency::Recorded),
    /// The key is new: decide on this.
    Loaded(LoadedAggregate<A>),
}

/// Why an append did not happen, before the caller decides what it means.
pub(crate) enum AppendFailure<E: std::error::Error> {
    /// Another writer already wrote the version this append would have written.
    VersionTaken,
    /// The idempotency key is already recorded (by an earlier or a concurrent command).
    KeyTaken,
    /// Anything else.
    Failed(CommandError<E>),
}

impl<E: std::error::Error> From<sqlx::Error> for AppendFailure<E> {
    fn from(error: sqlx::Error) -> Self {
        match unique_violation(&error) {
            Some(STREAM_VERSION_KEY) => AppendFailure::VersionTaken,
            Some(idempotency::KEY_CONSTRAINT) => AppendFailure::KeyTaken,
            _ => AppendFailure::Failed(CommandError::Storage(error)),
        }
    }
}

impl<E: std::error::Error> From<CommandError<E>> for AppendFailure<E> {
    fn from(error: CommandError<E>) -> Self {
        AppendFailure::Failed(error)
    }
}

/// The constraint a unique violation (SQLSTATE 23505) hit, if `error` is one.
fn unique_violation(error: &sqlx::Error) -> Option<&str> {
    match error {
        sqlx::Error::Database(db) if db.code().as_deref() == Some("23505") => db.constraint(),
        _ => None,
    }
}

/// Events of one command, ready to bind as the arrays of the append statement.
pub(crate) struct EncodedEvents {
    pub(crate) event_ids: Vec<Uuid>,
    pub(crate) event_types: Vec<String>,
    pub(crate) schema_versions: Vec<i32>,
    pub(crate) payloads: Vec<serde_json::Value>,
}

pub(crate) fn encode<A: Aggregate>(
    events: &[A::Event],
) -> Result<EncodedEvents, CommandError<A::Error>> {
    let mut encoded = EncodedEvents {
        event_ids: Vec::with_capacity(events.len()),
        event_types: Vec::with_capacity(events.len()),
        schema_versions: Vec::with_capacity(events.len()),
        payloads: Vec::with_capacity(events.len()),
    };
    for event in events {
        let event_type = event.event_type();
        let version = event.event_version();
        let Some(schema_version) = parse_schema_version(&version) else {
            return Err(CommandError::InvalidEventVersion {
                event_type,
                version,
            });
        };
        let payload = serde_json::to_value(event).map_err(CommandError::Serialization)?;
        // v7: ids of new events sort roughly by time, which keeps the unique index compact.
        encoded.event_ids.push(Uuid::now_v7());
        encoded.event_types.push(event_type);
        encoded.schema_versions.push(schema_version);
        encoded.payloads.push(payload);
    }
    Ok(encoded)
}

fn wrong_version<E: std::error::Error>(
    stream_type: &str,
    stream_id: &str,
    expected: ExpectedVersion,
    actual: i64,
) -> CommandError<E> {
    CommandError::WrongExpectedVersion {
        stream_type: stream_type.to_owned(),
        stream_id: stream_id.to_owned(),
        expected,
        actual,
    }
}

/// The stream's version as `executor` sees it (0 when it does not exist).
pub(crate) async fn head_version<'e>(
    executor: impl PgExecutor<'e>,
    stream_type: &str,
    stream_id: &str,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "select coalesce(max(stream_version), 0)::bigint from events
          where stream_type = $1 and stream_id = $2",
    )
    .bind(stream_type)
    .bind(stream_id)
    .fetch_one(executor)
    .await
}

/// The version the stream must be at for the append to go in (`None`: whatever it is when the
/// statement runs).
fn base_version(expected: ExpectedVersion) -> Option<i64> {
    match expected {
        ExpectedVersion::Any => None,
        ExpectedVersion::NoStream => Some(0),
        ExpectedVersion::Exact(version) => Some(version),
    }
}

const APPEND: &str = "
insert into events (event_id, stream_type, stream_id, stream_version, event_type, schema_version,
                    payload, metadata)
select e.event_id, $1::text, $2::text, head.version + e.ordinal, e.event_type, e.schema_version,
       e.payload, $8::jsonb
  from (select coalesce(max(stream_version), 0) as version from events
         where stream_type = $1::text and stream_id = $2::text) as head,
       unnest($4::uuid[], $5::text[], $6::integer[], $7::jsonb[])
         with ordinality as e(event_id, event_type, schema_version, payload, ordinal)
 where $3::bigint is null or head.version = $3::bigint
 order by e.ordinal
returning tx_id::text::bigint, global_position, stream_version";

/// [`APPEND`] plus the idempotency record, in the same statement. The stored result has the shape
/// of [`CommandOutcome`] (field names must match its serde names). `having` keeps an append that
/// inserted nothing (wrong version) from recording anything.
const APPEND_WITH_KEY: &str = "
with appended as (
    insert into events (event_id, stream_type, stream_id, stream_version, event_type, schema_version,
                        payload, metadata)
    select e.event_id, $1::text, $2::text, head.version + e.ordinal, e.event_type, e.schema_version,
           e.payload, $8::jsonb
      from (select coalesce(max(stream_version), 0) as version from events
             where stream_type = $1::text and stream_id = $2::text) as head,
           unnest($4::uuid[], $5::text[], $6::integer[], $7::jsonb[])
             with ordinality as e(event_id, event_type, schema_version, payload, ordinal)
     where $3::bigint is null or head.version = $3::bigint
     order by e.ordinal
    returning tx_id, global_position, stream_version
), remembered as (
    insert into command_idempotency (idempotency_key, stream_type, stream_id, result, request_digest)
    select $9::text, $1::text, $2::text,
           jsonb_build_object(
               'stream_type', $1::text,
               'stream_id', $2::text,
               'version', max(stream_version),
               'event_ids', to_jsonb($4::uuid[]),
               'position', jsonb_build_object(
                   'tx_id', pg_current_xact_id()::text::bigint,
                   'global_position', max(global_position))),
           $10::bytea
      from appended
    having count(*) > 0
)
select tx_id::text::bigint, global_position, stream_version from appended";

impl PgEventStore {
    /// A store over `pool` reading with the application's registry ([`Upcasters::application`]).
    pub fn new(pool: PgPool) -> Self {
        PgEventStore {
            pool,
            upcasters: Upcasters::application(),
        }
    }

    /// Uses `upcasters` on every read of this store instead of the application's registry.
    #[must_use]
    pub fn with_upcasters(self, upcasters: Upcasters) -> Self {
        self.with_shared_upcasters(Arc::new(upcasters))
    }

    /// [`with_upcasters`](Self::with_upcasters) with a registry the caller also hands to the feed
    /// readers (relay, projectors, replay), so all of them read the same shapes.
    #[must_use]
    pub fn with_shared_upcasters(mut self, upcasters: Arc<Upcasters>) -> Self {
        self.upcasters = upcasters;
        self
    }

    /// The pool the store reads and writes with.
    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    /// The upcasters applied on read (also for projections reading the feed).
    pub fn upcasters(&self) -> &Upcasters {
        &self.upcasters
    }

    /// Every event of one stream in stream order, upcast to the newest schema versions.
    ///
    /// # Errors
    ///
    /// When PostgreSQL fails.
    pub async fn read_stream(
        &self,
        stream_type: &str,
        stream_id: &str,
    ) -> Result<Vec<StoredEvent>, sqlx::Error> {
        let rows: Vec<EventRow> = sqlx::query_as(
            "select event_id, tx_id::text::bigint as tx_id, global_position, stream_type, stream_id,
                    stream_version, event_type, schema_version, payload, metadata, recorded_at
               from events
              where stream_type = $1 and stream_id = $2
              order by stream_version",
        )
        .bind(stream_type)
        .bind(stream_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|row| self.upcasters.upcast_event(StoredEvent::from(row)))
            .collect())
    }

    /// The stream's version: its number of events, 0 when it does not exist.
    ///
    /// # Errors
    ///
    /// When PostgreSQL fails.
    pub async fn current_version(
        &self,
        stream_type: &str,
        stream_id: &str,
    ) -> Result<i64, sqlx::Error> {
        head_version(&self.pool, stream_type, stream_id).await
    }

    /// Upcasts one stored payload and deserialises it into `A::Event`.
    pub(crate) fn decode<A: Aggregate>(
        &self,
        stream_id: &str,
        stream_version: i64,
        event_type: &str,
        schema_version: i32,
        payload: JsonText,
    ) -> Result<A::Event, CommandError<A::Error>> {
        let (schema_version, payload) =
            self.upcasters
                .upcast_payload(event_type, schema_version, payload);
        payload
            .deserialize()
            .map_err(|source| CommandError::CorruptEvent {
                stream_id: stream_id.to_owned(),
                stream_version,
                event_type: event_type.to_owned(),
                schema_version,
                source,
            })
    }

    /// Rebuilds aggregate `A` from its stream `stream_id` (stream type `A::TYPE`).
    ///
    /// # Errors
    ///
    /// [`CommandError::CorruptEvent`] when a stored event does not deserialise after upcasting;
    /// [`CommandError::Storage`] when PostgreSQL fails.
    pub async fn load<A: Aggregate>(
        &self,
        stream_id: &str,
    ) -> Result<LoadedAggregate<A>, CommandError<A::Error>> {
        let rows: Vec<(i64, String, i32, JsonText)> = sqlx::query_as(
            "select stream_version, event_type, schema_version, payload
               from events
              where stream_type = $1 and stream_id = $2
              order by stream_version",
        )
        .bind(A::TYPE)
        .bind(stream_id)
        .fetch_all(&self.pool)
        .await?;
        let mut aggregate = A::default();
        let mut version = 0;
        for (stream_version, event_type, schema_version, payload) in rows {
            let event = self.decode::<A>(
                stream_id,
                stream_version,
                &event_type,
                schema_version,
                payload,
            )?;
            aggregate.apply(event);
            version = stream_version;
        }
        Ok(LoadedAggregate {
            stream_id: stream_id.to_owned(),
            aggregate,
            version,
        })
    }

    /// The outcome recorded under `key` if there is one, else the aggregate loaded from
    /// `stream_id`: the command service's first step for a keyed command, in one round trip.
    pub(crate) async fn load_unless_recorded<A: Aggregate>(
        &self,
        stream_id: &str,
        key: &IdempotencyKey,
    ) -> Result<LoadedOrRecorded<A>, CommandError<A::Error>> {
        type Row = (
            Option<String>,
            Option<String>,
            Option<serde_json::Value>,
            Option<Vec<u8>>,
            Option<i64>,
            Option<String>,
            Option<i32>,
            Option<JsonText>,
        );
        // One row with the record when the key is known; otherwise one row per event (or a single
        // row of nulls for a stream that does not exist yet).
        let rows: Vec<Row> = sqlx::query_as(
            "select r.stream_type, r.stream_id, r.result, r.request_digest,
                    e.stream_version, e.event_type, e.schema_version, e.payload
               from (select $3::text as idempotency_key) as wanted
               left join command_idempotency r on r.idempotency_key = wanted.idempotency_key
               left join lateral (
                     select stream_version, event_type, schema_version, payload
                       from events
                      where stream_type = $1 and stream_id = $2 and r.idempotency_key is null
                    ) as e on true
              order by e.stream_version",
        )
        .bind(A::TYPE)
        .bind(stream_id)
        .bind(key.as_str())
        .fetch_all(&self.pool)
        .await?;

        let mut aggregate = A::default();
        let mut version = 0;
        for row in rows {
            if let (Some(stream_type), Some(recorded_stream), Some(result), request_digest, ..) =
                row
            {
                return Ok(LoadedOrRecorded::Recorded(idempotency::Recorded {
                    stream_type,
                    stream_id: recorded_stream,
                    result,
                    request_digest,
                }));
            }
            if let (
                ..,
                Some(stream_version),
                Some(event_type),
                Some(schema_version),
                Some(payload),
            ) = row
            {
                let event = self.decode::<A>(
                    stream_id,
                    stream_version,
                    &event_type,
                    schema_version,
                    payload,
                )?;
                aggregate.apply(event);
                version = stream_version;
            }
        }
        Ok(LoadedOrRecorded::Loaded(LoadedAggregate {
            stream_id: stream_id.to_owned(),
            aggregate,
            version,
        }))
    }

    /// Appends `events` to stream `stream_id` of aggregate type `A::TYPE`, in one transaction,
    /// if the stream is at `expected`.
    ///
    /// The metadata is stored with every event. When it carries an idempotency key, the outcome is
    /// recorded with the events, and an append repeating a recorded key appends nothing and returns
    /// the recorded outcome (with `replayed` set). This does not run any aggregate logic: use
    /// [`CommandService`](crate::service::CommandService) to execute commands.
    ///
    /// # Errors
    ///
    /// [`CommandError::WrongExpectedVersion`] when the stream is not at `expected` (including when a
    /// concurrent writer got there first); [`CommandError::Conflict`] when, with
    /// [`ExpectedVersion::Any`], concurrent writers took the next version
    /// [`DEFAULT_MAX_RETRIES`]` + 1` times in a row; [`CommandError::IdempotencyKeyReused`] when the key was
    /// recorded for another stream; [`CommandError::InvalidEventVersion`] /
    /// [`CommandError::Serialization`] for events that cannot be stored;
    /// [`CommandError::Storage`] when PostgreSQL fails.
    pub async fn append<A: Aggregate>(
        &self,
        stream_id: &str,
        expected: ExpectedVersion,
        events: &[A::Event],
        metadata: &CommandMetadata,
    ) -> Result<CommandOutcome, CommandError<A::Error>> {
        let key = metadata.idempotency_key.as_ref();
        let digest = metadata.request_digest.as_ref();
        if let Some(key) = key
            && let Some(stored) = idempotency::find(&self.pool, key).await?
        {
            return stored.replay(key, digest, A::TYPE, stream_id);
        }
        let mut expected = expected;
        if events.is_empty() {
            // Nothing to append, so nothing for the primary key to check: check by reading.
            let actual = self.current_version(A::TYPE, stream_id).await?;
            if !expected.admits(actual) {
                return Err(wrong_version(A::TYPE, stream_id, expected, actual));
            }
            expected = ExpectedVersion::Exact(actual);
        }
        let metadata = metadata.to_json();
        let attempts = DEFAULT_MAX_RETRIES.saturating_add(1);
        for _ in 0..attempts {
            let failure = match self
                .try_append::<A>(
                    &self.pool, stream_id, expected, events, &metadata, key, digest,
                )
                .await
            {
                Ok(outcome) => return Ok(outcome),
                Err(failure) => failure,
            };
            match failure {
                AppendFailure::Failed(error) => return Err(error),
                AppendFailure::KeyTaken | AppendFailure::VersionTaken => {}
            }
            // A racing duplicate of this very append may be the writer that got there first.
            if let Some(key) = key
                && let Some(stored) = idempotency::find(&self.pool, key).await?
            {
                return stored.replay(key, digest, A::TYPE, stream_id);
            }
            if expected != ExpectedVersion::Any {
                let actual = self.current_version(A::TYPE, stream_id).await?;
                return Err(wrong_version(A::TYPE, stream_id, expected, actual));
            }
            // `Any` computed the same next version as a concurrent writer: simply go again.
        }
        Err(CommandError::Conflict {
            stream_type: A::TYPE.to_owned(),
            stream_id: stream_id.to_owned(),
            attempts,
        })
    }

    /// One append attempt, reporting conflicts as such so the caller can decide (retry, replay or
    /// refuse). `expected` for an empty `events` must be `Exact` (the version is not checked).
    ///
    /// `executor` is the pool, or the transaction of a command with effects. `digest` is recorded
    /// with `key`.
    #[allow(
        clippy::too_many_arguments,
        reason = "one append's inputs; a struct would only rename them"
    )]
    pub(crate) async fn try_append<'e, A: Aggregate>(
        &self,
        executor: impl PgExecutor<'e>,
        stream_id: &str,
        expected: ExpectedVersion,
        events: &[A::Event],
        metadata: &serde_json::Value,
        key: Option<&IdempotencyKey>,
        digest: Option<&RequestDigest>,
    ) -> Result<CommandOutcome, AppendFailure<A::Error>> {
        if events.is_empty() {
            let version = base_version(expected).unwrap_or_default();
            let outcome = CommandOutcome {
                stream_type: A::TYPE.to_owned(),
                stream_id: stream_id.to_owned(),
                version,
                event_ids: Vec::new(),
                position: None,
                replayed: false,
            };
            if let Some(key) = key {
                let result = serde_json::to_value(&outcome).map_err(CommandError::Serialization)?;
                idempotency::record(executor, key, digest, A::TYPE, stream_id, &result).await?;
            }
            return Ok(outcome);
        }

        let encoded = encode::<A>(events)?;
        let sql = if key.is_some() {
            APPEND_WITH_KEY
        } else {
            APPEND
        };
        let mut query = sqlx::query_as::<_, (i64, i64, i64)>(sql)
            .bind(A::TYPE)
            .bind(stream_id)
            .bind(base_version(expected))
            .bind(&encoded.event_ids)
            .bind(&encoded.event_types)
            .bind(&encoded.schema_versions)
            .bind(&encoded.payloads)
            .bind(metadata);
        if let Some(key) = key {
            query = query
                .bind(key.as_str())
                .bind(digest.map(RequestDigest::as_bytes));
        }
        let rows = query.fetch_all(executor).await?;
        if rows.is_empty() {
            // The stream was not at the expected version when the statement looked (a writer that
            // is still in flight is caught by the primary key instead).
            return Err(AppendFailure::VersionTaken);
        }

        // Every row shares the transaction id; the last event has the highest position.
        let position = rows
            .iter()
            .map(|&(tx_id, global_position, _)| FeedPosition {
                tx_id: u64::try_from(tx_id).unwrap_or_default(),
                global_position,
            })
            .max();
        let version = rows.iter().map(|&(_, _, version)| version).max();
        Ok(CommandOutcome {
            stream_type: A::TYPE.to_owned(),
            stream_id: stream_id.to_owned(),
            version: version.unwrap_or_default(),
            event_ids: encoded.event_ids,
            position,
            replayed: false,
        })
    }
}
