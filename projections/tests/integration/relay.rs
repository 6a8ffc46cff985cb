//! The relay against a real PostgreSQL and a real NATS JetStream.

use crate::support;

use std::time::Duration;

use commands::feed::{FeedPosition, StoredEvent};
use metrics::{SharedString, Unit};
use metrics_util::CompositeKey;
use metrics_util::debugging::{DebugValue, DebuggingRecorder};
use projections::relay::{Fault, RelayConfig};
use projections::{CancellationToken, Error, checkpoint};
use support::{NewEvent, PATIENCE, TestEnv, eventually, read_feed, read_stream};
use uuid::Uuid;

/// The metrics a test's local recorder took.
struct Counters(Vec<(CompositeKey, Option<Unit>, Option<SharedString>, DebugValue)>);

impl Counters {
    /// The counter called `name`, if it was ever incremented.
    fn get(&self, name: &str) -> Option<u64> {
        self.0
            .iter()
            .find(|(key, ..)| key.key().name() == name)
            .map(|(.., value)| match value {
                DebugValue::Counter(n) => *n,
                other => panic!("{name} is not a counter: {other:?}"),
            })
    }
}

fn mixed_events(n: usize) -> Vec<NewEvent> {
    (0..n)
        .map(|i| {
            if i % 3 == 0 {
                NewEvent::other("nota", "NotaEmitida")
            } else {
                NewEvent::qrcode_created(Uuid::now_v7(), Some(1250))
            }
        })
        .collect()
}

#[tokio::test]
async fn publishes_committed_events_in_feed_order_with_the_event_id_as_msg_id() {
    let env = TestEnv::start().await;
    // Three transactions, so the feed order spans transaction ids.
    for _ in 0..3 {
        env.insert(&mixed_events(5)).await;
    }
    let shutdown = CancellationToken::new();
    let relay = env.spawn_relay(env.relay_config("a"), &shutdown);

    eventually("15 messages in the stream", || async {
        env.stream_messages().await == 15
    })
    .await;
    let messages = read_stream(&env).await;
    let feed = read_feed(&env.pool, 15).await;
    assert_eq!(messages.len(), feed.len());
    for (message, event) in messages.iter().zip(&feed) {
        let msg_id = message
            .headers
            .as_ref()
            .and_then(|h| h.get("Nats-Msg-Id"))
            .map(|v| v.as_str().to_owned());
        assert_eq!(msg_id, Some(event.event_id.to_string()));
        assert_eq!(
            message.subject.as_str(),
            format!("{}.{}", env.stream.subject_prefix, event.stream_type)
        );
        let published: StoredEvent =
            serde_json::from_slice(&message.payload).expect("the body is a StoredEvent");
        assert_eq!(&published, event);
    }
    let last = feed.last().expect("events").position;
    eventually("the relay checkpoint at the last event", || async {
        checkpoint::relay_position(&env.pool, &env.stream.name)
            .await
            .ok()
            == Some(last)
    })
    .await;

    shutdown.cancel();
    relay
        .await
        .expect("relay task")
        .expect("relay stops cleanly");
}

#[tokio::test(flavor = "current_thread")]
async fn a_batch_published_again_after_a_crash_is_deduplicated_by_jetstream() {
    let recorder = DebuggingRecorder::new();
    let snapshotter = recorder.snapshotter();
    let _local = metrics::set_default_local_recorder(&recorder);
    let env = TestEnv::start().await;
    env.insert(&mixed_events(12)).await;
    let shutdown = CancellationToken::new();

    let mut crashing = env.relay_config("crashing");
    crashing.fault = Some(Fault::CrashAfterPublish);
    let outcome = tokio::time::timeout(PATIENCE, env.spawn_relay(crashing, &shutdown))
        .await
        .expect("the relay stops at the fault")
        .expect("relay task");
    assert!(
        matches!(outcome, Err(Error::InjectedFault(_))),
        "{outcome:?}"
    );
    assert_eq!(env.stream_messages().await, 12);
    assert_eq!(
        checkpoint::relay_position(&env.pool, &env.stream.name)
            .await
            .unwrap(),
        FeedPosition::default(),
        "the crash came before the checkpoint"
    );

    let relay = env.spawn_relay(env.relay_config("restarted"), &shutdown);
    let last = env.last_position().await;
    eventually("the restarted relay checkpoints the batch", || async {
        checkpoint::relay_position(&env.pool, &env.stream.name)
            .await
            .ok()
            == Some(last)
    })
    .await;
    assert_eq!(
        env.stream_messages().await,
        12,
        "the republished batch was dropped"
    );
    shutdown.cancel();
    relay
        .await
        .expect("relay task")
        .expect("relay stops cleanly");

    let counters = Counters(snapshotter.snapshot().into_vec());
    let counter = |name: &str| counters.get(name);
    assert_eq!(
        counter("balcao_relay_published_total"),
        Some(24),
        "published twice"
    );
    assert_eq!(
        counter("balcao_relay_duplicates_total"),
        Some(12),
        "the second time as duplicates"
    );
}

#[tokio::test]
async fn a_second_relay_waits_while_the_first_holds_the_lock_and_takes_over_when_it_dies() {
    let env = TestEnv::start().await;
    let shutdown = CancellationToken::new();
    let first = env.spawn_relay(env.relay_config("a"), &shutdown);
    eventually("relay a holds the lock", || async {
        env.relay_lock_holder().await.as_deref() == Some("balcao-relay a")
    })
    .await;
    let second = env.spawn_relay(env.relay_config("b"), &shutdown);
    // Several of b's lock attempts (every 50 ms) go by.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        env.relay_lock_holder().await.as_deref(),
        Some("balcao-relay a")
    );
    assert!(!second.is_finished(), "b keeps waiting");

    env.insert(&mixed_events(5)).await;
    eventually("a publishes", || async { env.stream_messages().await == 5 }).await;

    // The process dies: its connection closes and PostgreSQL frees the lock.
    first.abort();
    eventually("relay b takes the lock", || async {
        env.relay_lock_holder().await.as_deref() == Some("balcao-relay b")
    })
    .await;
    env.insert(&mixed_events(7)).await;
    let last = env.last_position().await;
    eventually("b publishes the new events", || async {
        checkpoint::relay_position(&env.pool, &env.stream.name)
            .await
            .ok()
            == Some(last)
    })
    .await;
    let messages = read_stream(&env).await;
    let feed = read_feed(&env.pool, 12).await;
    let published: Vec<Uuid> = messages
        .iter()
        .map(|m| {
            serde_json::from_slice::<StoredEvent>(&m.payload)
                .unwrap()
                .event_id
        })
        .collect();
    let expected: Vec<Uuid> = feed.iter().map(|e| e.event_id).collect();
    assert_eq!(published, expected, "every event once, in feed order");

    shutdown.cancel();
    second
        .await
        .expect("relay task")
        .expect("relay b stops cleanly");
}

#[tokio::test]
async fn refuses_to_start_when_the_duplicate_window_is_not_longer_than_the_retry_window() {
    let env = TestEnv::start().await;
    let mut config = env.relay_config("a");
    config.retry_window = config.stream.duplicate_window;
    let outcome = env
        .spawn_relay(config, &CancellationToken::new())
        .await
        .unwrap();
    assert!(matches!(outcome, Err(Error::Config(_))), "{outcome:?}");
}

#[tokio::test(flavor = "current_thread")]
async fn under_steady_writes_the_relay_stores_its_checkpoint_a_few_times_a_second_and_at_once_when_idle()
 {
    let recorder = DebuggingRecorder::new();
    let snapshotter = recorder.snapshotter();
    let _local = metrics::set_default_local_recorder(&recorder);
    let env = TestEnv::start().await;
    let shutdown = CancellationToken::new();
    let relay = env.spawn_relay(env.relay_config("steady"), &shutdown);

    // A hundred creations, each its own transaction, 10 ms apart: about a second of steady
    // writes, so most batches hold one event.
    let mut published = Vec::new();
    for _ in 0..100 {
        published.extend(
            env.insert(&[NewEvent::qrcode_created(Uuid::now_v7(), Some(990))])
                .await,
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let last = *published.last().expect("events");
    // Idle again: the stored checkpoint catches up without another event.
    eventually("the relay checkpoint at the last event", || async {
        checkpoint::relay_position(&env.pool, &env.stream.name)
            .await
            .ok()
            == Some(last)
    })
    .await;
    assert_eq!(env.stream_messages().await, 100);
    shutdown.cancel();
    relay
        .await
        .expect("relay task")
        .expect("relay stops cleanly");

    let counters = Counters(snapshotter.snapshot().into_vec());
    let counter = |name: &str| counters.get(name).unwrap_or_default();
    assert_eq!(counter("balcao_relay_published_total"), 100);
    // Storing after every batch wrote it dozens of times here (once per batch).
    let stored = counter("balcao_relay_checkpoints_stored_total");
    assert!(
        (1..=12).contains(&stored),
        "{stored} checkpoint writes for about a second of steady writes"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn under_steady_writes_the_relay_publishes_what_gathered_in_one_batch_instead_of_one_per_event()
 {
    let recorder = DebuggingRecorder::new();
    let snapshotter = recorder.snapshotter();
    let _local = metrics::set_default_local_recorder(&recorder);
    let env = TestEnv::start().await;
    let shutdown = CancellationToken::new();
    // Events gather for 200 ms here (10 ms by default): on a loaded machine each write below
    // took 25 ms and more, so with 10 ms (and with 50: 99 batches) the count measured the
    // machine rather than the gathering; without gathering it is one batch per write.
    let relay = env.spawn_relay(
        RelayConfig {
            gather: Duration::from_millis(200),
            ..env.relay_config("gathering")
        },
        &shutdown,
    );

    // Two hundred creations, each its own transaction and its own notification, 2 ms apart:
    // several commit within each window the relay lets them gather.
    let mut published = Vec::new();
    for _ in 0..200 {
        published.extend(
            env.insert(&[NewEvent::qrcode_created(Uuid::now_v7(), Some(990))])
                .await,
        );
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    let last = *published.last().expect("events");
    eventually("the relay checkpoint at the last event", || async {
        checkpoint::relay_position(&env.pool, &env.stream.name)
            .await
            .ok()
            == Some(last)
    })
    .await;
    assert_eq!(env.stream_messages().await, 200);
    shutdown.cancel();
    relay
        .await
        .expect("relay task")
        .expect("relay stops cleanly");

    let counters = Counters(snapshotter.snapshot().into_vec());
    let counter = |name: &str| counters.get(name).unwrap_or_default();
    assert_eq!(counter("balcao_relay_published_total"), 200);
    // Looking at each notification published most of these one or two at a time.
    let batches = counter("balcao_relay_batches_total");
    assert!(
        (1..=80).contains(&batches),
        "{batches} batches for 200 events written 2 ms apart"
    );
}
