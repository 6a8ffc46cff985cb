//! `CommandService`: load, decide, append, with retries and idempotency.

use std::time::Instant;

use cqrs_es::Aggregate;
use cqrs_es::event_sink::EventSink;

use crate::effects::EffectFailure;
use crate::effects::Effects;
use crate::error::CommandError;
use crate::expected_version::ExpectedVersion;
use crate::idempotency;
use crate::instruments;
use crate::metadata::{CommandMetadata, IdempotencyKey, RequestDigest};
use crate::outcome::CommandOutcome;
use crate::store::{AppendFailure, LoadedOrRecorded, head_version};
use crate::store::{DEFAULT_MAX_RETRIES, LoadedAggregate, PgEventStore};

/// What [`CommandService::load_unless_recorded`] found.
#[derive(Debug)]
pub enum LoadedOrReplayed<A> {
    /// The key is new (or there is none): the aggregate as it stands.
    Loaded(LoadedAggregate<A>),
    /// A request with this key ran already: its outcome, marked replayed.
    Replayed(CommandOutcome),
}

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

    /// What a keyed request must know before it does anything outside this service (call a
    /// payment provider, say): the outcome already recorded under the idempotency key of
    /// `metadata` (marked replayed; refused with [`CommandError::IdempotencyKeyReused`] or
    /// [`CommandError::IdempotencyKeyConflict`] when the key answered another stream or another
    /// request), or else the aggregate to look at. Without a key it is [`load`](Self::load).
    ///
    /// One round trip either way. The later [`execute`](Self::execute) still checks the key
    /// itself: a concurrent duplicate may record it in between.
    ///
    /// # Errors
    ///
    /// As [`load`](Self::load), and the two key refusals above.
    pub async fn load_unless_recorded(
        &self,
        stream_id: &str,
        metadata: &CommandMetadata,
    ) -> Result<LoadedOrReplayed<A>, CommandError<A::Error>> {
        let Some(key) = metadata.idempotency_key.as_ref() else {
            return self.load(stream_id).await.map(LoadedOrReplayed::Loaded);
        };
        match self.store.load_unless_recorded::<A>(stream_id, key).await? {
            LoadedOrRecorded::Loaded(loaded) => Ok(LoadedOrReplayed::Loaded(loaded)),
            LoadedOrRecorded::Recorded(recorded) => recorded
                .replay(key, metadata.request_digest.as_ref(), A::TYPE, stream_id)
                .map(LoadedOrReplayed::Replayed),
        }
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
        self.instrumented(stream_id, command, expected, &metadata, None)
            .await
    }

    /// Executes `command` on stream `stream_id` like
    /// [`execute_expecting`](Self::execute_expecting), and applies `effects` in the same
    /// PostgreSQL transaction as the append: `begin; effects; append; commit`.
    ///
    /// The effects apply whenever the aggregate accepts the command, also when it decides no
    /// event. They apply exactly once: a rejected command, a refused effect, or an attempt that
    /// lost the race for the stream's next version (decided again from scratch, effects
    /// included) leaves nothing; a command repeated with a recorded idempotency key answers the
    /// recorded outcome and applies nothing. When the command decides no event, the stream's
    /// version is checked inside the transaction instead, so the effects never rest on a stale
    /// decision.
    ///
    /// With no effects this is exactly [`execute_expecting`](Self::execute_expecting) (no
    /// transaction of its own).
    ///
    /// ```no_run
    /// # use commands::{CommandError, CommandMetadata, CommandService, Effects, ExpectedVersion};
    /// # use commands::claims::{EMAIL_SCOPE, digest, normalise_email};
    /// # use commands::vault::AccountKey;
    /// # async fn open<A>(service: &CommandService<A>, account_id: &str, email: &str, command: A::Command)
    /// # -> Result<(), CommandError<A::Error>>
    /// # where A: cqrs_es::Aggregate, A::Command: Clone {
    /// let key = AccountKey::generate(account_id);
    /// let effects = Effects::new()
    ///     .claim(EMAIL_SCOPE, digest(&normalise_email(email)), account_id)
    ///     .store_key(&key);
    /// let outcome = service
    ///     .execute_with(account_id, command, ExpectedVersion::NoStream, CommandMetadata::start(), &effects)
    ///     .await?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// As [`execute_expecting`](Self::execute_expecting), and:
    /// - [`CommandError::ClaimTaken`]: a claimed value is already held.
    /// - [`CommandError::ActionCodeExpired`]: the action code to spend is not valid.
    /// - [`CommandError::LimitReached`]: a count of QR codes would pass its limit.
    pub async fn execute_with(
        &self,
        stream_id: &str,
        command: A::Command,
        expected: ExpectedVersion,
        metadata: CommandMetadata,
        effects: &Effects,
    ) -> Result<CommandOutcome, CommandError<A::Error>>
    where
        A::Command: Clone,
    {
        let effects = (!effects.is_empty()).then_some(effects);
        self.instrumented(stream_id, command, expected, &metadata, effects)
            .await
    }

    /// [`run`](Self::run), recording `balcao_command_duration_seconds` and
    /// `balcao_commands_total`.
    async fn instrumented(
        &self,
        stream_id: &str,
        command: A::Command,
        expected: ExpectedVersion,
        metadata: &CommandMetadata,
        effects: Option<&Effects>,
    ) -> Result<CommandOutcome, CommandError<A::Error>>
    where
        A::Command: Clone,
    {
        let started = Instant::now();
        let result = self
            .run(stream_id, command, expected, metadata, effects)
            .await;
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
        effects: Option<&Effects>,
    ) -> Result<CommandOutcome, CommandError<A::Error>>
    where
        A::Command: Clone,
    {
        let pool = self.store.pool();
        let key = metadata.idempotency_key.as_ref();
        let digest = metadata.request_digest.as_ref();
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
                            return recorded.replay(key, digest, A::TYPE, stream_id);
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

            let appended = match effects {
                None => {
                    self.store
                        .try_append::<A>(
                            pool,
                            stream_id,
                            ExpectedVersion::Exact(loaded.version),
                            &events,
                            &stored_metadata,
                            key,
                            digest,
                        )
                        .await
                }
                Some(effects) => {
                    self.append_with_effects(
                        stream_id,
                        loaded.version,
                        &events,
                        &stored_metadata,
                        key,
                        digest,
                        effects,
                    )
                    .await
                }
            };
            match appended {
                Ok(outcome) => return Ok(outcome),
                Err(AppendFailure::Failed(error)) => {
                    // A refused effect may be this very command's duplicate having got there
                    // first (it holds the claim, it spent the code): its outcome is the answer.
                    if matches!(
                        error,
                        CommandError::ClaimTaken { .. }
                            | CommandError::ActionCodeExpired
                            | CommandError::LimitReached { .. }
                    ) && let Some(key) = key
                        && let Some(recorded) = idempotency::find(pool, key).await?
                    {
                        return recorded.replay(key, digest, A::TYPE, stream_id);
                    }
                    return Err(error);
                }
                Err(AppendFailure::KeyTaken | AppendFailure::VersionTaken) => {}
            }

            // The writer that got there first may be a duplicate of this very command (same key):
            // its outcome is the answer. Either way it has committed by now (PostgreSQL reports a
            // unique violation only once the other transaction is over).
            if let Some(key) = key
                && let Some(recorded) = idempotency::find(pool, key).await?
            {
                return recorded.replay(key, digest, A::TYPE, stream_id);
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

    /// One attempt of a command with effects: `begin; effects; append; commit`, rolled back
    /// (explicitly, so claims and row locks others wait on go at once) when any step fails.
    #[allow(
        clippy::too_many_arguments,
        reason = "one attempt's inputs, passed on to the append as they are"
    )]
    async fn append_with_effects(
        &self,
        stream_id: &str,
        version: i64,
        events: &[A::Event],
        metadata: &serde_json::Value,
        key: Option<&IdempotencyKey>,
        digest: Option<&RequestDigest>,
        effects: &Effects,
    ) -> Result<CommandOutcome, AppendFailure<A::Error>> {
        let mut tx = self.store.pool().begin().await?;
        let attempt = async {
            effects
                .apply(&mut tx, stream_id)
                .await
                .map_err(effect_failure)?;
            if events.is_empty() {
                // No row for the primary key to check: read the head instead. Another writer
                // committing after this read is ordered after this command, which decided
                // nothing it could contradict.
                let head = head_version(&mut *tx, A::TYPE, stream_id).await?;
                if head != version {
                    return Err(AppendFailure::VersionTaken);
                }
            }
            self.store
                .try_append::<A>(
                    &mut *tx,
                    stream_id,
                    ExpectedVersion::Exact(version),
                    events,
                    metadata,
                    key,
                    digest,
                )
                .await
        }
        .await;
        match attempt {
            Ok(outcome) => {
                tx.commit().await?;
                Ok(outcome)
            }
            Err(failure) => {
                // Nothing of this attempt may stay. A failed rollback means the connection is
                // gone, which ends the transaction just the same.
                if let Err(error) = tx.rollback().await {
                    tracing::debug!(%error, "rollback after a failed command attempt");
                }
                Err(failure)
            }
        }
    }
}

/// What a refused or failed effect means for the attempt.
pub(crate) fn effect_failure<E: std::error::Error>(failure: EffectFailure) -> AppendFailure<E> {
    match failure {
        EffectFailure::ClaimTaken { scope } => {
            AppendFailure::Failed(CommandError::ClaimTaken { scope })
        }
        EffectFailure::ActionCodeExpired => AppendFailure::Failed(CommandError::ActionCodeExpired),
        EffectFailure::LimitReached { had } => {
            AppendFailure::Failed(CommandError::LimitReached { had })
        }
        EffectFailure::PlanChanged => AppendFailure::Failed(CommandError::PlanChanged),
        // The account's key exists: a concurrent command set the stream up first. Deciding again
        // on the stream as it is now gives the right answer (typically "already open").
        EffectFailure::KeyExists => AppendFailure::VersionTaken,
        EffectFailure::Storage(error) => AppendFailure::from(error),
    }
}
