//! Many new streams in one command: `CommandService::create_streams`.
//!
//! A batch of QR codes ("MESA01 … MESA20") is N codes that must exist all together or not at
//! all. Two shapes were possible:
//!
//! - **one batch aggregate** whose single event lists the N codes, with the read model fanning it
//!   out into N rows. But each code then has no stream of its own: archiving one, duplicating
//!   one, matching a payment to one, or a later `ClaimQrCode` would all have to know that some
//!   codes live inside another aggregate's event;
//! - **N code streams appended in one transaction** (chosen). Every code is an ordinary
//!   `QrCode` aggregate whose first event is an ordinary `QrCodeCreated` (carrying the shared
//!   `batch_id`), so everything that works on one code works on a batch's codes, and read models
//!   need nothing new. The guarantee "all or nothing" is PostgreSQL's: one transaction holds the
//!   effects (e.g. the N txid claims) and one multi-row `insert … select from unnest(…)` holding
//!   every event of every stream, so they also share one `tx_id` and reach the feed together.
//!
//! Every stream must be new: each command is decided on the empty aggregate, and the primary key
//! `(stream_type, stream_id, stream_version)` refuses the whole batch if any stream exists.
//!
//! A batch is one idempotent unit: with an idempotency key in its metadata, the key and the
//! whole [`BatchOutcome`] are recorded in `command_idempotency` by the batch's own transaction,
//! so the key is recorded if and only if every stream was made. A repeat (a retry after a lost
//! answer or a crash, or a duplicate racing the first) answers the recorded outcome and makes
//! nothing, whatever stream ids it brought; the same key with another request digest is refused.

use cqrs_es::Aggregate;
use cqrs_es::event_sink::EventSink;
use uuid::Uuid;

use crate::effects::Effects;
use crate::error::CommandError;
use crate::feed::FeedPosition;
use crate::idempotency;
use crate::instruments;
use crate::metadata::CommandMetadata;
use crate::outcome::{BatchOutcome, CommandOutcome};
use crate::service::CommandService;
use crate::service::effect_failure;
use crate::store::{AppendFailure, encode};

/// Appends events of many streams in one statement, each at the version given (a stream's next
/// versions after the ones loaded, or 1… for new ones): the primary key refuses the whole
/// statement if any version is taken. Shared with `payments::record_reports`.
pub(crate) const APPEND_STREAMS: &str = "
insert into events (event_id, stream_type, stream_id, stream_version, event_type, schema_version,
                    payload, metadata)
select e.event_id, $1::text, e.stream_id, e.stream_version, e.event_type, e.schema_version,
       e.payload, $8::jsonb
  from unnest($2::text[], $3::bigint[], $4::uuid[], $5::text[], $6::integer[], $7::jsonb[])
         with ordinality as e(stream_id, stream_version, event_id, event_type, schema_version,
                              payload, ordinal)
 order by e.ordinal
returning tx_id::text::bigint, global_position";

impl<A: Aggregate> CommandService<A> {
    /// Decides each `(stream_id, command)` on a new, empty `A` and appends every decided event,
    /// with `effects`, in **one** PostgreSQL transaction: `begin; effects; one insert; commit`.
    ///
    /// Either every stream is created and every effect applied, or nothing is: one command
    /// refused, one effect refused (a claim already held), one stream that already exists, or a
    /// failing database leaves no event and no effect. The metadata (correlation, actor) is the
    /// same for every event. With an idempotency key in `metadata`, the batch's outcome is
    /// recorded under it in the same transaction: a repeated key answers that outcome
    /// ([`BatchOutcome::replayed`]) and makes nothing, even when the repeat names other streams
    /// (fresh ids drawn by a retried request).
    ///
    /// Records `balcao_command_duration_seconds` and `balcao_commands_total` once for the batch.
    ///
    /// # Errors
    ///
    /// - [`CommandError::Rejected`]: the first command the aggregate refused (by position).
    /// - [`CommandError::ClaimTaken`]: a claimed value is already held.
    /// - [`CommandError::LimitReached`]: a count of QR codes would pass its limit.
    /// - [`CommandError::Conflict`]: one of the streams already exists.
    /// - [`CommandError::IdempotencyKeyConflict`]: the key was recorded with another request
    ///   digest; [`CommandError::IdempotencyKeyReused`]: it was recorded by another kind of
    ///   command (another aggregate, or a single-stream command).
    /// - [`CommandError::Serialization`], [`CommandError::InvalidEventVersion`],
    ///   [`CommandError::Storage`]: see [`CommandError`].
    pub async fn create_streams(
        &self,
        commands: Vec<(String, A::Command)>,
        metadata: CommandMetadata,
        effects: &Effects,
    ) -> Result<BatchOutcome, CommandError<A::Error>> {
        let started = std::time::Instant::now();
        let result = self.create_streams_once(commands, &metadata, effects).await;
        let outcome = match &result {
            Ok(_) => "ok",
            Err(error) => error.kind(),
        };
        instruments::record_command(A::TYPE, outcome, started.elapsed());
        result
    }

    async fn create_streams_once(
        &self,
        commands: Vec<(String, A::Command)>,
        metadata: &CommandMetadata,
        effects: &Effects,
    ) -> Result<BatchOutcome, CommandError<A::Error>> {
        let pool = self.store().pool();
        let key = metadata.idempotency_key.as_ref();
        let digest = metadata.request_digest.as_ref();
        if let Some(key) = key
            && let Some(recorded) = idempotency::find(pool, key).await?
        {
            return recorded.replay_batch(key, digest, A::TYPE);
        }
        // Decide everything first: a refusal leaves the database untouched.
        let mut decided: Vec<(String, Vec<A::Event>)> = Vec::with_capacity(commands.len());
        for (stream_id, command) in commands {
            let mut aggregate = A::default();
            let sink = EventSink::<A>::default();
            aggregate
                .handle(command, self.services(), &sink)
                .await
                .map_err(CommandError::Rejected)?;
            decided.push((stream_id, sink.collect().await));
        }

        let mut stream_ids = Vec::new();
        let mut versions = Vec::new();
        let mut all_events = Vec::new();
        let mut per_stream = Vec::with_capacity(decided.len());
        for (stream_id, events) in decided {
            let count = events.len();
            for (i, event) in events.into_iter().enumerate() {
                stream_ids.push(stream_id.clone());
                versions.push(i64::try_from(i + 1).unwrap_or(i64::MAX));
                all_events.push(event);
            }
            per_stream.push((stream_id, count));
        }
        let encoded = encode::<A>(&all_events)?;

        let first = per_stream
            .first()
            .map(|(id, _)| id.clone())
            .unwrap_or_default();
        let mut tx = pool.begin().await?;
        let attempt: Result<BatchOutcome, AppendFailure<A::Error>> = async {
            // The stream id handed to the effects is the first stream's (claims name their
            // owners themselves).
            effects
                .apply(&mut tx, &first)
                .await
                .map_err(effect_failure)?;
            let rows = if encoded.event_ids.is_empty() {
                Vec::new()
            } else {
                sqlx::query_as::<_, (i64, i64)>(APPEND_STREAMS)
                    .bind(A::TYPE)
                    .bind(&stream_ids)
                    .bind(&versions)
                    .bind(&encoded.event_ids)
                    .bind(&encoded.event_types)
                    .bind(&encoded.schema_versions)
                    .bind(&encoded.payloads)
                    .bind(metadata.to_json())
                    .fetch_all(&mut *tx)
                    .await?
            };
            let outcome = outcome_of::<A>(&rows, &per_stream, &encoded.event_ids);
            if let Some(key) = key {
                // In the batch's own transaction: the key is recorded if and only if the batch
                // is made (a concurrent duplicate's insert waits here and then fails on the key).
                let result = serde_json::to_value(&outcome).map_err(CommandError::Serialization)?;
                idempotency::record(&mut *tx, key, digest, A::TYPE, &first, &result).await?;
            }
            Ok(outcome)
        }
        .await;
        let failure = match attempt {
            Ok(outcome) => {
                tx.commit().await?;
                return Ok(outcome);
            }
            Err(failure) => {
                if let Err(error) = tx.rollback().await {
                    tracing::debug!(%error, "rollback after a failed batch");
                }
                failure
            }
        };
        // The writer that got there first may be this very batch's duplicate (same key): a claim
        // or a count it took, or the key itself, refused this one. It has committed by now
        // (PostgreSQL reports a unique violation only once the other transaction is over), so its
        // outcome is the answer.
        let maybe_duplicate = match &failure {
            AppendFailure::Failed(error) => matches!(
                error,
                CommandError::ClaimTaken { .. } | CommandError::LimitReached { .. }
            ),
            AppendFailure::VersionTaken | AppendFailure::KeyTaken => true,
        };
        if maybe_duplicate
            && let Some(key) = key
            && let Some(recorded) = idempotency::find(pool, key).await?
        {
            return recorded.replay_batch(key, digest, A::TYPE);
        }
        Err(match failure {
            AppendFailure::Failed(error) => error,
            AppendFailure::VersionTaken | AppendFailure::KeyTaken => CommandError::Conflict {
                stream_type: A::TYPE.to_owned(),
                stream_id: first,
                attempts: 1,
            },
        })
    }
}

/// The batch's outcome from the rows the append returned (in insert order, which is the order of
/// the arrays) and each stream's count of events.
fn outcome_of<A: Aggregate>(
    rows: &[(i64, i64)],
    per_stream: &[(String, usize)],
    event_ids: &[Uuid],
) -> BatchOutcome {
    let positions: Vec<FeedPosition> = rows
        .iter()
        .map(|&(tx_id, global_position)| FeedPosition {
            tx_id: u64::try_from(tx_id).unwrap_or_default(),
            global_position,
        })
        .collect();
    let mut outcomes = Vec::with_capacity(per_stream.len());
    let mut next = 0;
    for (stream_id, count) in per_stream {
        let count = *count;
        let ids: Vec<Uuid> = event_ids[next..next + count].to_vec();
        let position = positions
            .get(next..next + count)
            .and_then(|p| p.iter().copied().max());
        next += count;
        outcomes.push(CommandOutcome {
            stream_type: A::TYPE.to_owned(),
            stream_id: stream_id.clone(),
            version: i64::try_from(count).unwrap_or(i64::MAX),
            event_ids: ids,
            position,
            replayed: false,
        });
    }
    BatchOutcome {
        position: positions.iter().copied().max(),
        outcomes,
        replayed: false,
    }
}
