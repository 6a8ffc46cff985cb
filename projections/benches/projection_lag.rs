//! Projection lag at a steady 1,000 events/s: time from an event's commit to the `qrcodes` read
//! model having applied it, next to two limits measured the same way in the same run:
//! the bare JetStream publish → consume latency, and the relay's own lag (commit → message
//! delivered to a plain consumer of the events stream).
//!
//! `cargo bench -p projections --bench projection_lag` (needs PostgreSQL and NATS; see
//! `DATABASE_URL`, `NATS_URL`). Target: p99 < 100 ms. `BALCAO_BENCH_SECONDS` (default 15) sets
//! the length of each phase.

mod common;

use std::collections::HashMap;
use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

use async_nats::jetstream::{self, consumer::pull};
use commands::feed::{FeedPosition, StoredEvent};
use common::{BenchDb, ms, nats_url, per_second, percentile};
use futures::StreamExt;
use projections::projector::{ProjectorConfig, wait_until};
use projections::relay::RelayConfig;
use projections::{CancellationToken, StreamSettings, checkpoint, qrcodes};
use sqlx::PgPool;
use sqlx::postgres::PgListener;
use tokio::sync::Mutex;
use tokio::time::Instant;
use uuid::Uuid;

const RATE: u64 = 1_000;
const WRITERS: u64 = 4;
const WARM_UP: Duration = Duration::from_secs(1);

struct Summary {
    samples: usize,
    p50: Duration,
    p99: Duration,
    max: Duration,
}

fn summarise(mut samples: Vec<Duration>) -> Summary {
    let p50 = percentile(&mut samples, 50);
    let p99 = percentile(&mut samples, 99);
    Summary {
        samples: samples.len(),
        p50,
        p99,
        max: samples.last().copied().unwrap_or_default(),
    }
}

/// Bare JetStream: publish at RATE with the send time in the body, consume with a durable pull
/// consumer, ack; latency = receive − send.
async fn raw_nats(client: &async_nats::Client, id: &str, seconds: u64) -> anyhow::Result<Summary> {
    let context = jetstream::new(client.clone());
    let name = format!("BALCAO_BENCH_RAW_{}", id.to_uppercase());
    let subject = format!("bench.{id}.raw");
    let stream = context
        .create_stream(jetstream::stream::Config {
            name: name.clone(),
            subjects: vec![subject.clone()],
            ..Default::default()
        })
        .await?;
    let consumer = stream
        .create_consumer(pull::Config {
            durable_name: Some("raw".to_owned()),
            ..Default::default()
        })
        .await?;
    let base = Instant::now();
    let total = RATE * seconds;
    let receiver = tokio::spawn(async move {
        let mut messages = consumer.messages().await?;
        let mut samples = Vec::with_capacity(usize::try_from(total).unwrap_or_default());
        while (samples.len() as u64) < total {
            let Some(message) = messages.next().await else {
                break;
            };
            let message = message?;
            let sent_nanos = u64::from_be_bytes(message.payload[..8].try_into()?);
            let sent = base + Duration::from_nanos(sent_nanos);
            samples.push((sent, Instant::now() - sent));
            message.ack().await.map_err(|e| anyhow::anyhow!(e))?;
        }
        anyhow::Ok(samples)
    });
    let interval = Duration::from_micros(1_000_000 / RATE);
    for k in 0..total {
        let due = base + WARM_UP / 10 + interval * u32::try_from(k)?;
        tokio::time::sleep_until(due).await;
        let sent = u64::try_from((Instant::now() - base).as_nanos())?;
        let ack = context
            .publish(subject.clone(), sent.to_be_bytes().to_vec().into())
            .await?;
        tokio::spawn(ack.into_future());
    }
    let samples = tokio::time::timeout(Duration::from_secs(30), receiver).await???;
    context.delete_stream(&name).await?;
    let warm = base + WARM_UP;
    Ok(summarise(
        samples
            .into_iter()
            .filter(|(sent, _)| *sent >= warm)
            .map(|(_, lag)| lag)
            .collect(),
    ))
}

fn qrcode_event(qrcode_id: Uuid) -> serde_json::Value {
    serde_json::json!({
        "qrcode_id": qrcode_id,
        "owner_id": null,
        "key_kind": "email",
        "pix_key": "fulano@example.com",
        "merchant_name": "FULANO DE TAL",
        "merchant_city": "SAO PAULO",
        "amount_centavos": 1250,
        "description": "Café",
        "txid": "***",
        "payload": "00020126580014br.gov.bcb.pix0136fulano@example.com5204000053039865802BR6304ABCD",
        "created_at": "2026-11-20T12:00:00Z"
    })
}

/// One writer: its share of RATE, one event per transaction, on schedule.
async fn writer(
    pool: PgPool,
    index: u64,
    start: Instant,
    seconds: u64,
) -> anyhow::Result<Vec<(FeedPosition, Instant)>> {
    let per_writer = RATE / WRITERS;
    let interval = Duration::from_micros(1_000_000 / per_writer);
    let offset = Duration::from_micros(1_000_000 / RATE) * u32::try_from(index)?;
    let mut commits = Vec::new();
    for k in 0..per_writer * seconds {
        tokio::time::sleep_until(start + offset + interval * u32::try_from(k)?).await;
        let qrcode_id = Uuid::now_v7();
        let (tx, gp): (i64, i64) = sqlx::query_as(
            "insert into events (event_id, stream_type, stream_id, stream_version, event_type,
                                 schema_version, payload)
             values ($1, 'qrcode', $2, 1, 'QrCodeCreated', 1, $3)
             returning tx_id::text::bigint, global_position",
        )
        .bind(Uuid::now_v7())
        .bind(qrcode_id.to_string())
        .bind(qrcode_event(qrcode_id))
        .fetch_one(&pool)
        .await?;
        let committed = Instant::now();
        commits.push((
            FeedPosition {
                tx_id: u64::try_from(tx)?,
                global_position: gp,
            },
            committed,
        ));
    }
    Ok(commits)
}

struct Pipeline {
    relay: Summary,
    projection: Summary,
    events: usize,
    achieved_rate: u64,
}

async fn pipeline(
    db: &BenchDb,
    client: &async_nats::Client,
    seconds: u64,
) -> anyhow::Result<Pipeline> {
    let stream = StreamSettings {
        name: format!("BALCAO_BENCH_{}", db.id.to_uppercase()),
        subject_prefix: format!("bench.{}.events", db.id),
        ..StreamSettings::default()
    };
    let shutdown = CancellationToken::new();
    let relay = tokio::spawn(projections::relay::run(
        db.pool.clone(),
        client.clone(),
        RelayConfig {
            stream: stream.clone(),
            ..RelayConfig::default()
        },
        shutdown.clone(),
    ));
    let projector = tokio::spawn(projections::projector::run(
        db.pool.clone(),
        client.clone(),
        vec![Arc::new(qrcodes::QrCodes)],
        ProjectorConfig {
            stream: stream.clone(),
            ..ProjectorConfig::default()
        },
        shutdown.clone(),
    ));

    // Wait for the relay to create the stream, then watch it like a plain consumer would.
    let context = jetstream::new(client.clone());
    let events_stream = loop {
        if let Ok(s) = context.get_stream(&stream.name).await {
            break s;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let observer = events_stream
        .create_consumer(pull::OrderedConfig {
            filter_subject: stream.all_subjects(),
            ..Default::default()
        })
        .await?;
    let delivered: Arc<Mutex<Vec<(FeedPosition, Instant)>>> = Arc::default();
    let observing = {
        let delivered = Arc::clone(&delivered);
        let shutdown = shutdown.clone();
        tokio::spawn(async move {
            let mut messages = observer.messages().await?;
            loop {
                let next = tokio::select! {
                    () = shutdown.cancelled() => return anyhow::Ok(()),
                    next = messages.next() => next,
                };
                let Some(message) = next else { return Ok(()) };
                let arrived = Instant::now();
                let event: StoredEvent = serde_json::from_slice(&message?.payload)?;
                delivered.lock().await.push((event.position, arrived));
            }
        })
    };
    let applied: Arc<Mutex<Vec<(FeedPosition, Instant)>>> = Arc::default();
    let mut listener = PgListener::connect_with(&db.pool).await?;
    listener
        .listen(&checkpoint::notify_channel(qrcodes::NAME))
        .await?;
    let listening = {
        let applied = Arc::clone(&applied);
        let shutdown = shutdown.clone();
        tokio::spawn(async move {
            loop {
                let next = tokio::select! {
                    () = shutdown.cancelled() => return anyhow::Ok(()),
                    next = listener.recv() => next?,
                };
                let arrived = Instant::now();
                if let Some((tx, gp)) = next.payload().split_once(':') {
                    let position = FeedPosition {
                        tx_id: tx.parse()?,
                        global_position: gp.parse()?,
                    };
                    applied.lock().await.push((position, arrived));
                }
            }
        })
    };

    let start = Instant::now() + Duration::from_millis(200);
    let writers: Vec<_> = (0..WRITERS)
        .map(|w| tokio::spawn(writer(db.pool.clone(), w, start, seconds)))
        .collect();
    let mut commits = Vec::new();
    for w in writers {
        commits.extend(w.await??);
    }
    let writing = Instant::now() - start;
    commits.sort();
    let last = commits.last().map(|(p, _)| *p).unwrap_or_default();
    let waited = wait_until(&db.pool, qrcodes::NAME, last, Duration::from_secs(60)).await?;
    anyhow::ensure!(
        waited.reached(),
        "the projection did not catch up: {waited:?}"
    );
    tokio::time::sleep(Duration::from_millis(200)).await;
    shutdown.cancel();
    relay.await??;
    projector.await??;
    observing.await??;
    listening.await??;
    context.delete_stream(&stream.name).await?;

    let warm = start + WARM_UP;
    let committed_at: HashMap<FeedPosition, Instant> = commits.iter().copied().collect();
    let relay_lags: Vec<Duration> = delivered
        .lock()
        .await
        .iter()
        .filter_map(|(p, at)| committed_at.get(p).map(|c| (*c, *at)))
        .filter(|(c, _)| *c >= warm)
        .map(|(c, at)| at.saturating_duration_since(c))
        .collect();
    let notifications = applied.lock().await.clone();
    let mut projection_lags = Vec::with_capacity(commits.len());
    let mut n = 0;
    for (position, committed) in &commits {
        while n < notifications.len() && notifications[n].0 < *position {
            n += 1;
        }
        let Some((_, at)) = notifications.get(n) else {
            break;
        };
        if *committed >= warm {
            projection_lags.push(at.saturating_duration_since(*committed));
        }
    }
    anyhow::ensure!(
        projection_lags.len() + 2 * usize::try_from(RATE)? >= commits.len(),
        "lost track of events"
    );
    Ok(Pipeline {
        relay: summarise(relay_lags),
        projection: summarise(projection_lags),
        events: commits.len(),
        achieved_rate: per_second(commits.len() as u64, writing),
    })
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let seconds: u64 = std::env::var("BALCAO_BENCH_SECONDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(15);
    let db = BenchDb::create().await?;
    let client = async_nats::connect(nats_url()).await?;
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "projection_lag: {RATE} events/s for {seconds} s per phase ({WRITERS} writers, first {WARM_UP:?} not counted)"
    )?;
    drop(out);

    let raw = raw_nats(&client, &db.id, seconds).await?;
    let run = pipeline(&db, &client, seconds).await?;

    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "  {:<52} {:>7} {:>9} {:>9} {:>9}",
        "", "samples", "p50 ms", "p99 ms", "max ms"
    )?;
    for (label, s) in [
        ("JetStream publish → consume (limit)", &raw),
        ("relay: commit → delivered to a consumer", &run.relay),
        (
            "qrcodes: commit → read model applied (target p99<100)",
            &run.projection,
        ),
    ] {
        writeln!(
            out,
            "  {label:<52} {:>7} {:>9} {:>9} {:>9}",
            s.samples,
            ms(s.p50),
            ms(s.p99),
            ms(s.max)
        )?;
    }
    writeln!(
        out,
        "  events appended: {} at {} events/s",
        run.events, run.achieved_rate
    )?;
    drop(out);
    db.drop_now().await
}
