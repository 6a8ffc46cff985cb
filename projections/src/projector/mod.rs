//! The projector runtime: each projection is a durable pull consumer on the events stream.
//!
//! Guarantees, per projection:
//! - the read-model change and the checkpoint commit in one transaction, and acks go out after
//!   the commit, so a crash anywhere leads to redelivery, which the checkpoint turns into a no-op;
//! - events apply in feed order, each once: anything at or before the checkpoint is skipped,
//!   and a batch that is not exactly the feed's next events (a gap or reordering in the
//!   stream) is taken from PostgreSQL instead;
//! - a poison event is parked (row in `parked_events`, error log, metric) and passed, never
//!   retried forever, and never blocks another projection;
//! - one active instance per projection (session advisory lock; standbys take over), and
//!   every apply transaction holds the projection's write lock, which replay takes to switch
//!   tables.

mod batch;
mod config;
mod progress;
mod wait;

use std::sync::Arc;
use std::time::Duration;

use async_nats::jetstream::consumer::{AckPolicy, DeliverPolicy, pull};
use async_nats::jetstream::{self, Message};
use futures::StreamExt;
use sqlx::PgPool;
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

pub use config::ProjectorConfig;
pub use progress::{Follower, ProgressWatch};
pub use wait::{Waited, wait_until};

use crate::error::Error;
use crate::locks::{LockRole, SessionLock};
use crate::projection::Projection;
use crate::status::{Phase, Status};

/// Runs `projections` until `shutdown` is cancelled, each in its own task.
///
/// Failures (database or NATS unavailable, stream not created yet) are logged and retried with
/// backoff; only invalid input ends it with an error. The stream must be created by the relay
/// (`relay::run`); projectors wait for it.
pub async fn run(
    pool: PgPool,
    client: async_nats::Client,
    projections: Vec<Arc<dyn Projection>>,
    config: ProjectorConfig,
    shutdown: CancellationToken,
) -> Result<(), Error> {
    run_observed(
        pool,
        client,
        projections,
        config,
        Status::default(),
        shutdown,
    )
    .await
}

/// [`run`], reporting each projection's [`Phase`] in `status` under the projection's name:
/// starting, standby (another instance holds its lock), active, or retrying after a failure.
pub async fn run_observed(
    pool: PgPool,
    client: async_nats::Client,
    projections: Vec<Arc<dyn Projection>>,
    config: ProjectorConfig,
    status: Status,
    shutdown: CancellationToken,
) -> Result<(), Error> {
    validate(&projections)?;
    let context = jetstream::new(client);
    let mut tasks = JoinSet::new();
    for projection in projections {
        status.set(projection.name(), Phase::Starting);
        tasks.spawn(run_one(
            pool.clone(),
            context.clone(),
            projection,
            config.clone(),
            status.clone(),
            shutdown.clone(),
        ));
    }
    while let Some(joined) = tasks.join_next().await {
        if let Err(error) = joined {
            tracing::error!(%error, "projector task failed");
        }
    }
    Ok(())
}

fn validate(projections: &[Arc<dyn Projection>]) -> Result<(), Error> {
    let mut seen = std::collections::HashSet::new();
    for projection in projections {
        let name = projection.name();
        let well_formed = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
        if !well_formed {
            return Err(Error::Config(format!(
                "projection name {name:?} must be lower-case letters, digits or '_'"
            )));
        }
        if !seen.insert(name) {
            return Err(Error::Config(format!("projection {name:?} listed twice")));
        }
    }
    Ok(())
}

/// One projection: wait for its lock, consume, and start over after any failure.
async fn run_one(
    pool: PgPool,
    context: jetstream::Context,
    projection: Arc<dyn Projection>,
    config: ProjectorConfig,
    status: Status,
    shutdown: CancellationToken,
) {
    let name = projection.name();
    let application_name = format!("balcao-projector {name} {}", config.instance);
    let mut backoff = Duration::from_millis(100);
    loop {
        status.set(name, Phase::Standby);
        let lock = SessionLock::acquire(
            &pool,
            LockRole::Projector,
            name,
            &application_name,
            config.lock_retry_interval,
            &shutdown,
        )
        .await;
        let mut lock = match lock {
            Ok(Some(lock)) => lock,
            Ok(None) => return,
            Err(error) => {
                status.set(name, Phase::Retrying);
                tracing::warn!(projection = name, %error, "cannot take the projector lock");
                if pause(&shutdown, backoff).await {
                    return;
                }
                continue;
            }
        };
        tracing::info!(projection = name, "projector active");
        let outcome = consume(
            &pool,
            &context,
            &*projection,
            &config,
            &mut lock,
            &status,
            &shutdown,
        )
        .await;
        lock.release().await;
        match outcome {
            Ok(()) => return,
            Err(error) => {
                status.set(name, Phase::Retrying);
                tracing::warn!(projection = name, %error, retry_in = ?backoff, "projector stopped; restarting");
                if pause(&shutdown, backoff).await {
                    return;
                }
                backoff = (backoff * 2).min(config.max_backoff);
            }
        }
    }
}

/// Sleeps unless shutdown comes first; true if it did.
async fn pause(shutdown: &CancellationToken, duration: Duration) -> bool {
    tokio::select! {
        () = shutdown.cancelled() => true,
        () = tokio::time::sleep(duration) => false,
    }
}

/// Pulls and applies until shutdown (`Ok`) or a failure that needs a fresh start (`Err`).
async fn consume(
    pool: &PgPool,
    context: &jetstream::Context,
    projection: &dyn Projection,
    config: &ProjectorConfig,
    lock: &mut SessionLock,
    status: &Status,
    shutdown: &CancellationToken,
) -> Result<(), Error> {
    let name = projection.name();
    let stream = context
        .get_stream(&config.stream.name)
        .await
        .map_err(|e| Error::nats("looking up the events stream", e))?;
    let consumer = stream
        .get_or_create_consumer(
            name,
            pull::Config {
                durable_name: Some(name.to_owned()),
                description: Some(format!("Balcão projection {name}")),
                filter_subject: config.stream.all_subjects(),
                deliver_policy: DeliverPolicy::All,
                ack_policy: AckPolicy::Explicit,
                ack_wait: config.ack_wait,
                // Never give up on redelivery: poison events are parked by us, not dropped by
                // the server.
                max_deliver: -1,
                max_ack_pending: config.max_ack_pending,
                ..Default::default()
            },
        )
        .await
        .map_err(|e| Error::nats("creating the durable consumer", e))?;
    let messages = consumer
        .stream()
        .max_messages_per_batch(config.max_batch)
        .heartbeat(Duration::from_secs(5))
        .expires(Duration::from_secs(30))
        .messages()
        .await
        .map_err(|e| Error::nats("starting to pull", e))?;
    // Lock held and consumer pulling: this is the running projector.
    status.set(name, Phase::Active);
    // Take whatever has arrived, up to max_batch, without waiting for more: large batches under
    // load, one-message batches (low latency) when idle.
    let mut chunks = messages.ready_chunks(config.max_batch);
    let mut lock_check = tokio::time::interval(config.lock_retry_interval);
    // The subjects of the streams the projection reads (`None`: all of them). Messages of other
    // streams are held, unacknowledged, until a batch that matters or `hold_other_streams`:
    // their round only moves the checkpoint, and one round for many is enough. A crash while
    // they are held loses nothing: JetStream delivers them again.
    let subjects: Option<Vec<String>> = projection.streams().map(|streams| {
        streams
            .iter()
            .map(|stream| config.stream.subject_for(stream))
            .collect()
    });
    let mut held: Vec<Message> = Vec::new();
    let mut flush_at: Option<tokio::time::Instant> = None;
    loop {
        let chunk = tokio::select! {
            () = shutdown.cancelled() => return Ok(()),
            _ = lock_check.tick() => {
                if !lock.still_held().await {
                    return Err(Error::Interrupted("lost the projector lock's connection"));
                }
                continue;
            }
            () = tokio::time::sleep_until(flush_at.unwrap_or_else(tokio::time::Instant::now)),
                if flush_at.is_some() => {
                flush_at = None;
                let batch = std::mem::take(&mut held);
                if !apply_until_done(pool, projection, config, &batch, shutdown).await {
                    return Ok(());
                }
                continue;
            }
            chunk = chunks.next() => chunk,
        };
        let Some(chunk) = chunk else {
            return Err(Error::Interrupted("the consumer's message stream ended"));
        };
        let mut batch: Vec<Message> = Vec::with_capacity(chunk.len());
        for item in chunk {
            match item {
                Ok(message) => batch.push(message),
                Err(error) => {
                    use async_nats::jetstream::consumer::pull::MessagesErrorKind;
                    match error.kind() {
                        MessagesErrorKind::MissingHeartbeat | MessagesErrorKind::Pull => {
                            tracing::warn!(projection = name, %error, "pull hiccup");
                        }
                        _ => return Err(Error::nats("pulling messages", error)),
                    }
                }
            }
        }
        if batch.is_empty() {
            continue;
        }
        let matters = subjects.as_ref().is_none_or(|subjects| {
            batch
                .iter()
                .any(|message| subjects.iter().any(|s| *s == message.subject.as_str()))
        });
        held.extend(batch);
        if !matters && held.len() < config.max_batch {
            flush_at.get_or_insert_with(|| tokio::time::Instant::now() + config.hold_other_streams);
            continue;
        }
        flush_at = None;
        let batch = std::mem::take(&mut held);
        if !apply_until_done(pool, projection, config, &batch, shutdown).await {
            return Ok(());
        }
    }
}

/// Applies one batch, retrying database failures with backoff until it commits. The batch
/// stays in hand meanwhile: moving on would let later events pass a checkpoint before these.
/// Returns false if shutdown came first (nothing acked; JetStream redelivers).
async fn apply_until_done(
    pool: &PgPool,
    projection: &dyn Projection,
    config: &ProjectorConfig,
    batch: &[Message],
    shutdown: &CancellationToken,
) -> bool {
    let mut backoff = Duration::from_millis(50);
    loop {
        match batch::apply_messages(pool, projection, config, batch).await {
            Ok(round) => {
                tracing::debug!(
                    projection = projection.name(),
                    applied = round.applied,
                    skipped = round.skipped,
                    parked = round.parked.len(),
                    repaired = round.repaired_from_feed,
                    "batch committed"
                );
                return true;
            }
            Err(error) => {
                tracing::warn!(projection = projection.name(), %error, retry_in = ?backoff, "applying a batch failed; retrying");
                if pause(shutdown, backoff).await {
                    return false;
                }
                backoff = (backoff * 2).min(config.max_backoff);
            }
        }
    }
}
