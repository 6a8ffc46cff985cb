//! The relay: committed events from PostgreSQL to JetStream, in feed order, at least once.
//!
//! One instance is active per stream (a PostgreSQL session advisory lock; standbys retry and
//! take over when the holder's connection closes). The active one reads the feed after its
//! checkpoint, publishes the batch pipelined with `Nats-Msg-Id` = event id, awaits every ack in
//! order, and only then moves the checkpoint: in memory at once, in `relay_checkpoints` at most
//! every `CHECKPOINT_EVERY` (250 ms) while it keeps publishing, and before it waits idle or stops. A
//! crash before the stored checkpoint caught up means those events are published again:
//! JetStream drops the repeats inside its duplicate window, and the projectors skip anything at
//! or before their own checkpoints in any case.
//!
//! It wakes on `NOTIFY balcao_events` (sent when events are inserted; debounced, so it keeps
//! looking every 10 ms for 60 ms after each one) and polls every `poll_interval` as a fallback.
//! After a batch that was not full it lets events gather for `RelayConfig::gather` (10 ms)
//! before it looks again, so that under steady writes one read and one publish round serve
//! several events.

mod config;

use std::time::{Duration, Instant};

use async_nats::jetstream::{self, message::PublishMessage};
use commands::EVENTS_CHANNEL;
use commands::feed::{self, FeedPosition, StoredEvent};
use sqlx::{PgConnection, PgPool};
use tokio_util::sync::CancellationToken;

pub use config::{Fault, RelayConfig};

use crate::checkpoint;
use crate::error::Error;
use crate::jetstream::ensure_stream;
use crate::locks::{LockRole, SessionLock};
use crate::metric_names::{
    RELAY_BATCHES, RELAY_CHECKPOINTS_STORED, RELAY_DUPLICATES, RELAY_PUBLISHED,
};
use crate::sql::{pending_after, tx_text};
use crate::status::{Phase, Status};
use crate::wakeup::Wakeup;

/// First wait when events exist past the checkpoint but are not below the horizon yet (a
/// transaction still running); doubles up to `HORIZON_RETRY_MAX`.
const HORIZON_RETRY: Duration = Duration::from_millis(1);

/// Longest wait while events wait above the horizon. Usually the blocking transaction is
/// another writer a millisecond from its commit, which may send no notification (gated),
/// so keep looking often; the reads are cheap index probes.
const HORIZON_RETRY_MAX: Duration = Duration::from_millis(10);

/// For this long after a notification, keep looking every `HOT_POLL` even if no other comes:
/// the insert trigger lets only one inserting transaction at a time carry a notification
/// (migrations/0002), so events committed alongside it send none of their own.
const FOLLOW_UP: Duration = Duration::from_millis(60);

/// Interval of those follow-up looks (a cheap indexed read).
const HOT_POLL: Duration = Duration::from_millis(10);

/// How stale the stored checkpoint may be while the relay keeps publishing. Storing it after
/// every batch cost a committed write per creation at a few hundred a second (most batches
/// then hold one or two events); a checkpoint at most this old only means that a relay taking
/// over publishes up to this much again, which JetStream drops as duplicates (`Nats-Msg-Id`)
/// and the projectors skip. An idle relay stores it before it waits, and a stopping one before
/// it stops.
const CHECKPOINT_EVERY: Duration = Duration::from_millis(250);

/// Runs the relay until `shutdown` is cancelled.
///
/// Creates or updates the stream first, then waits for the relay lock and publishes. Loss of
/// the database connection sends it back to waiting for the lock; a batch JetStream will not
/// acknowledge within `retry_window` ends it with an error (let the supervisor restart it).
/// `pool` needs at least two connections: one for the `LISTEN`, one spare; the lock, the reads
/// and the checkpoint use a dedicated connection of their own.
pub async fn run(
    pool: PgPool,
    client: async_nats::Client,
    config: RelayConfig,
    shutdown: CancellationToken,
) -> Result<(), Error> {
    run_observed(pool, client, config, Status::default(), shutdown).await
}

/// [`run`], reporting its [`Phase`] in `status` under the stream's name: starting, standby
/// (another instance holds the lock), active, or retrying after a failure.
pub async fn run_observed(
    pool: PgPool,
    client: async_nats::Client,
    config: RelayConfig,
    status: Status,
    shutdown: CancellationToken,
) -> Result<(), Error> {
    let name = config.stream.name.clone();
    status.set(&name, Phase::Starting);
    let outcome = relay(pool, client, config, &status, shutdown).await;
    if outcome.is_err() {
        status.set(&name, Phase::Retrying);
    }
    outcome
}

async fn relay(
    pool: PgPool,
    client: async_nats::Client,
    config: RelayConfig,
    status: &Status,
    shutdown: CancellationToken,
) -> Result<(), Error> {
    config.validate()?;
    let context = jetstream::ContextBuilder::new()
        .timeout(config.nats_timeout)
        .build(client);
    ensure_stream(&context, &config.stream).await?;
    let application_name = format!("balcao-relay {}", config.instance);
    loop {
        status.set(&config.stream.name, Phase::Standby);
        let Some(lock) = SessionLock::acquire(
            &pool,
            LockRole::Relay,
            &config.stream.name,
            &application_name,
            config.lock_retry_interval,
            &shutdown,
        )
        .await?
        else {
            return Ok(());
        };
        status.set(&config.stream.name, Phase::Active);
        tracing::info!(stream = %config.stream.name, instance = %config.instance, "relay active");
        match lead(&pool, &context, &config, lock, &shutdown).await {
            Ok(()) => return Ok(()),
            Err(Error::Database(error)) => {
                status.set(&config.stream.name, Phase::Retrying);
                tracing::warn!(%error, "relay lost its database connection; waiting for the lock again");
                tokio::select! {
                    () = shutdown.cancelled() => return Ok(()),
                    () = tokio::time::sleep(config.lock_retry_interval) => {}
                }
            }
            Err(error) => return Err(error),
        }
    }
}

/// Publishes while holding the lock. Returns `Ok` on shutdown.
async fn lead(
    pool: &PgPool,
    context: &jetstream::Context,
    config: &RelayConfig,
    mut lock: SessionLock,
    shutdown: &CancellationToken,
) -> Result<(), Error> {
    let wakeup = Wakeup::listen(pool.clone(), EVENTS_CHANNEL.to_owned());
    let mut position = checkpoint::relay_position(lock.conn(), &config.stream.name).await?;
    let mut horizon_retry = HORIZON_RETRY;
    let mut last_notified: Option<Instant> = None;
    // What is in `relay_checkpoints`, and when it was written.
    let mut stored = position;
    let mut stored_at = Instant::now();
    loop {
        if shutdown.is_cancelled() {
            if stored < position {
                store_checkpoint(lock.conn(), &config.stream.name, position).await?;
            }
            lock.release().await;
            return Ok(());
        }
        // Between events (most looks while following the feed every `HOT_POLL`) nothing is
        // after the position: one index probe says so, without a read of the feed.
        let pending = pending_after(lock.conn(), position).await?;
        let batch = if pending == 0 {
            Vec::new()
        } else {
            feed::read_after(lock.conn(), &config.upcasters, position, config.batch_size).await?
        };
        if batch.is_empty() {
            // Events committed past the checkpoint but not readable yet wait for an older
            // transaction to end; that end sends no NOTIFY, so look again soon. (The lag gauges
            // are read from the stored checkpoint when scraped, `crate::lag`, so that the count
            // and the age always describe the same position.)
            let hot = last_notified.is_some_and(|at| at.elapsed() < FOLLOW_UP);
            let wait = if pending > 0 {
                let wait = horizon_retry;
                horizon_retry = (horizon_retry * 2)
                    .min(HORIZON_RETRY_MAX)
                    .min(config.poll_interval);
                wait
            } else if hot {
                HOT_POLL.min(config.poll_interval)
            } else {
                config.poll_interval
            };
            // Caught up: store the checkpoint before a long wait, or when it is due.
            if stored < position && (!hot || stored_at.elapsed() >= CHECKPOINT_EVERY) {
                store_checkpoint(lock.conn(), &config.stream.name, position).await?;
                (stored, stored_at) = (position, Instant::now());
            }
            let notified = tokio::select! {
                () = shutdown.cancelled() => false,
                notified = wakeup.wait(wait) => notified,
            };
            if notified {
                last_notified = Some(Instant::now());
            }
            continue;
        }
        horizon_retry = HORIZON_RETRY;
        let Some(duplicates) = publish_with_retries(context, config, &batch, shutdown).await?
        else {
            if stored < position {
                store_checkpoint(lock.conn(), &config.stream.name, position).await?;
            }
            lock.release().await;
            return Ok(());
        };
        metrics::counter!(RELAY_PUBLISHED).increment(batch.len() as u64);
        metrics::counter!(RELAY_DUPLICATES).increment(duplicates);
        if config.fault == Some(Fault::CrashAfterPublish) {
            return Err(Error::InjectedFault(
                "relay stopped after publishing, before its checkpoint",
            ));
        }
        metrics::counter!(RELAY_BATCHES).increment(1);
        position = batch.last().map_or(position, |e| e.position);
        if stored_at.elapsed() >= CHECKPOINT_EVERY {
            store_checkpoint(lock.conn(), &config.stream.name, position).await?;
            (stored, stored_at) = (position, Instant::now());
        }
        // A full batch means more is waiting: read on. Otherwise the feed is being written as
        // we follow it; let its next events gather instead of looking at each notification.
        // Notifications that arrive meanwhile stay pending in `wakeup`; the next look takes
        // them all in.
        if (batch.len() as i64) < config.batch_size && !config.gather.is_zero() {
            last_notified = Some(Instant::now());
            tokio::select! {
                () = shutdown.cancelled() => {}
                () = tokio::time::sleep(config.gather) => {}
            }
        }
    }
}

/// Publishes `batch` until JetStream acknowledges all of it, for at most the retry window.
/// Returns the number of duplicates, or `None` if `shutdown` fired while retrying.
async fn publish_with_retries(
    context: &jetstream::Context,
    config: &RelayConfig,
    batch: &[StoredEvent],
    shutdown: &CancellationToken,
) -> Result<Option<u64>, Error> {
    let started = Instant::now();
    let mut backoff = Duration::from_millis(100);
    loop {
        let error = match publish_batch(context, config, batch).await {
            Ok(duplicates) => return Ok(Some(duplicates)),
            Err(error @ (Error::Encode { .. } | Error::Config(_))) => return Err(error),
            Err(error) => error,
        };
        if started.elapsed() + backoff > config.retry_window {
            return Err(Error::PublishRetriesExhausted {
                window: config.retry_window,
                last_error: error.to_string(),
            });
        }
        tracing::warn!(%error, retry_in = ?backoff, "publishing a batch failed; retrying it whole");
        tokio::select! {
            () = shutdown.cancelled() => return Ok(None),
            () = tokio::time::sleep(backoff) => {}
        }
        backoff = (backoff * 2).min(Duration::from_secs(5));
    }
}

/// Sends every event of the batch without waiting, then awaits the acks in order.
async fn publish_batch(
    context: &jetstream::Context,
    config: &RelayConfig,
    batch: &[StoredEvent],
) -> Result<u64, Error> {
    let mut acks = Vec::with_capacity(batch.len());
    for event in batch {
        let body = serde_json::to_vec(event).map_err(|source| Error::Encode {
            event_id: event.event_id,
            source,
        })?;
        let ack = context
            .send_publish(
                config.stream.subject_for(&event.stream_type),
                PublishMessage::build()
                    .payload(body.into())
                    .message_id(event.event_id.to_string()),
            )
            .await
            .map_err(|e| Error::nats("publishing an event", e))?;
        acks.push(ack);
    }
    let mut duplicates = 0;
    for ack in acks {
        let ack = ack
            .await
            .map_err(|e| Error::nats("awaiting a publish acknowledgement", e))?;
        if ack.stream != config.stream.name {
            return Err(Error::Config(format!(
                "subject of stream {} is captured by stream {}",
                config.stream.name, ack.stream
            )));
        }
        if ack.duplicate {
            duplicates += 1;
        }
    }
    Ok(duplicates)
}

/// Stores the relay checkpoint on the lock's own connection: if that connection died (and the
/// lock with it), the write fails instead of racing the relay that took over. The checkpoint
/// only moves forward.
async fn store_checkpoint(
    conn: &mut PgConnection,
    stream_name: &str,
    position: FeedPosition,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "insert into relay_checkpoints (stream_name, tx_id, global_position, updated_at)
         values ($1, $2::text::xid8, $3, now())
         on conflict (stream_name) do update
            set tx_id = excluded.tx_id,
                global_position = excluded.global_position,
                updated_at = now()
          where (relay_checkpoints.tx_id, relay_checkpoints.global_position)
              < (excluded.tx_id, excluded.global_position)",
    )
    .bind(stream_name)
    .bind(tx_text(position))
    .bind(position.global_position)
    .execute(conn)
    .await?;
    metrics::counter!(RELAY_CHECKPOINTS_STORED).increment(1);
    Ok(())
}
