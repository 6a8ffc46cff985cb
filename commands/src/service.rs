//! `CommandService`: load, decide, append, with retries and idempotency.

use std::time::Instant;

use cqrs_es::Aggregate;
use cqrs_es::event_sink::EventSink;

use crate::idempotency;
use crate::instruments;
use crate::store::{AppendFailure, LoadedOrRecorded};
use crate::{
    CommandError, CommandMetadata, CommandOutcome, ExpectedVersion, LoadedAggregate, PgEventStore,
};

/// How many times a command is decided again after losing the race for its stream's next version,
/// unless [`CommandService::with_max_retries`] says otherwise.
pub const DEFAULT_MAX_RETRIES: u32 = 3;

/// Executes the commands of one aggregate type `A` against a [`PgEventStore`].
///
/// For each command: if its idempotency key is already recorded, answer the recorded outcome;
/// otherwise load the stream, check the caller's expected version, run `A::handle` (which only
/// decides), and append the decided events after exactly the loaded version. If another writer
/// appended first, reload and decide again, up to `max_retries` times, then answer
/// [`CommandError::Conflict`].
///
/// Creating commands should pass [`ExpectedVersion::NoStream`]: the service then skips the load
/// and the key lookup (the append checks both), so a create costs one round trip.
///
/// Share one per aggregate type (put it in an `Arc`); it holds only a store handle and the
/// aggregate's services.
pub struct CommandService<A: Aggregate> {
    store: PgEventStore,
    services: A::Services,
    max_retries: u32,
}

impl<A: Aggregate> CommandService<A> {
    /// A service over `store` handing `services` to `A::handle`, with [`DEFAULT_MAX_RETRIES`].
    pub fn new(store: PgEventStore, services: A::Services) -> Self {
        CommandService {
            store,
            services,
            max_retries: DEFAULT_MAX_RETRIES,
        }
    }

    /// Sets how many times a command is decided again after a version conflict (0: never).
    #[must_use]
    pub fn with_max_retries(mut self, max_retries: u32) -> Self {
        self.max_retries = max_retries;
        self
    }

    /// The store this service appends to.
    pub fn store(&self) -> &PgEventStore {
        &self.store
    }

    /// The services handed to `A::handle`.
    pub fn services(&self) -> &A::Services {
        &self.services
    }

    /// Rebuilds the aggregate in stream `stream_id` (for answering with its version, an ETag).
    ///
    /// # Errors
    ///
    /// As [`PgEventStore::load`].
    pub async fn load(
        &self,
        stream_id: &str,
    ) -> Result<LoadedAggregate<A>, CommandError<A::Error>> {
        self.store.load::<A>(stream_id).await
    }

    /// Executes `command` on stream `stream_id`, whatever its version.
    ///
    /// # Errors
    ///
    /// As [`execute_expecting`](Self::execute_expecting) (never `WrongExpectedVersion`).
    pub async fn execute(
        &self,
        stream_id: &str,
        command: A::Command,
        metadata: CommandMetadata,
    ) -> Result<CommandOutcome, CommandError<A::Error>>
    where
        A::Command: Clone,
    {
        self.execute_expecting(stream_id, command, ExpectedVersion::Any, metadata)
            .await
    }

    /// Executes `command` on stream `stream_id` if the stream is at `expected` (HTTP `If-Match`).
    ///
    /// Records `balcao_command_duration_seconds` and `balcao_commands_total`.
    ///
    /// # Errors
    ///
    /// - [`CommandError::Rejected`]: the aggregate refused the command.
    /// - [`CommandError::WrongExpectedVersion`]: the stream is not at `expected` (checked on every
    ///   attempt, so a concurrent writer makes an `Exact` expectation fail rather than retry).
    /// - [`CommandError::Conflict`]: other writers won every attempt.
    /// - [`CommandError::IdempotencyKeyReused`]: the key was first used on another stream.
    /// - [`CommandError::CorruptEvent`], [`CommandError::InvalidEventVersion`],
    ///   [`CommandError::Serialization`], [`CommandError::Storage`]: see [`CommandError`].
    pub async fn execute_expecting(
        &self,
        stream_id: &str,
        command: A::Command,
        expected: ExpectedVersion,
        metadata: CommandMetadata,
    ) -> Result<CommandOutcome, CommandError<A::Error>>
    where
        A::Command: Clone,
    {
        let started = Instant::now();
        let result = self.run(stream_id, command, expected, &metadata).await;
        let outcome = match &result {
            Ok(outcome) if outcome.replayed => "replayed",
            Ok(_) => "ok",
            Err(error) => error.kind(),
        };
        instruments::record_command(A::TYPE, outcome, started.elapsed());
        result
    }

    async fn run(
        &self,
        stream_id: &str,
        command: A::Command,
        expected: ExpectedVersion,
        metadata: &CommandMetadata,
    ) -> Result<CommandOutcome, CommandError<A::Error>>
    where
        A::Command: Clone,
    {
        let pool = self.store.pool();
        let key = metadata.idempotency_key.as_ref();
        let stored_metadata = metadata.to_json();
        let attempts = self.max_retries.saturating_add(1);
        for attempt in 1..=attempts {
            // A stream expected not to exist needs no load: decide on the empty aggregate and let
            // the append's version check (and the idempotency key's uniqueness) catch the case
            // where it does exist, resolved below. Otherwise, the first attempt of a keyed
            // command checks the key and loads in one round trip; later attempts have just
            // checked it (below).
            let loaded = match key {
                _ if attempt == 1 && expected == ExpectedVersion::NoStream => LoadedAggregate {
                    stream_id: stream_id.to_owned(),
                    aggregate: A::default(),
                    version: 0,
                },
                Some(key) if attempt == 1 => {
                    match self.store.load_unless_recorded::<A>(stream_id, key).await? {
                        LoadedOrRecorded::Recorded(recorded) => {
                            return recorded.replay(key, A::TYPE, stream_id);
                        }
                        LoadedOrRecorded::Loaded(loaded) => loaded,
                    }
                }
                _ => self.store.load::<A>(stream_id).await?,
            };
            if !expected.admits(loaded.version) {
                return Err(CommandError::WrongExpectedVersion {
                    stream_type: A::TYPE.to_owned(),
                    stream_id: stream_id.to_owned(),
                    expected,
                    actual: loaded.version,
                });
            }

            let mut aggregate = loaded.aggregate;
            let sink = EventSink::<A>::default();
            aggregate
                .handle(command.clone(), &self.services, &sink)
                .await
                .map_err(CommandError::Rejected)?;
            let events = sink.collect().await;

            let appended = self
                .store
                .try_append::<A>(
                    stream_id,
                    ExpectedVersion::Exact(loaded.version),
                    &events,
                    &stored_metadata,
                    key,
                )
                .await;
            match appended {
                Ok(outcome) => return Ok(outcome),
                Err(AppendFailure::Failed(error)) => return Err(error),
                Err(AppendFailure::KeyTaken | AppendFailure::VersionTaken) => {}
            }

            // The writer that got there first may be a duplicate of this very command (same key):
            // its outcome is the answer. Either way it has committed by now (PostgreSQL reports a
            // unique violation only once the other transaction is over).
            if let Some(key) = key
                && let Some(recorded) = idempotency::find(pool, key).await?
            {
                return recorded.replay(key, A::TYPE, stream_id);
            }
            if attempt < attempts {
                instruments::record_retry(A::TYPE);
                tracing::debug!(
                    aggregate = A::TYPE,
                    stream_id,
                    attempt,
                    "another writer extended the stream first; deciding again"
                );
            }
        }
        tracing::warn!(
            aggregate = A::TYPE,
            stream_id,
            attempts,
            "command gave up after losing every version race"
        );
        Err(CommandError::Conflict {
            stream_type: A::TYPE.to_owned(),
            stream_id: stream_id.to_owned(),
            attempts,
        })
    }
}
