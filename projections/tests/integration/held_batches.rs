//! A projection's batches of events it does not read (another stream's) wait for the next batch
//! that matters, or for `hold_other_streams`, and go in with it: one checkpoint round for many
//! instead of one each, and the checkpoint still gets past them.

use crate::support;

use std::sync::Arc;
use std::time::Duration;

use metrics::{SharedString, Unit};
use metrics_util::CompositeKey;
use metrics_util::debugging::{DebugValue, DebuggingRecorder, Snapshotter};
use projections::projector::ProjectorConfig;
use projections::{CancellationToken, qrcodes};
use support::{NewEvent, TestEnv};
use uuid::Uuid;

/// Events of a stream `qrcodes` does not read, each in its own transaction.
const OTHERS: usize = 40;

fn rounds(snapshotter: &Snapshotter) -> u64 {
    let snapshot: Vec<(CompositeKey, Option<Unit>, Option<SharedString>, DebugValue)> =
        snapshotter.snapshot().into_vec();
    snapshot
        .iter()
        .filter(|(key, ..)| key.key().name() == "balcao_projection_rounds_total")
        .map(|(.., value)| match value {
            DebugValue::Counter(n) => *n,
            other => panic!("not a counter: {other:?}"),
        })
        .sum()
}

async fn others_one_by_one(env: &TestEnv) {
    for _ in 0..OTHERS {
        env.insert(&[NewEvent::other("nota", "NotaEmitida")]).await;
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

#[tokio::test(flavor = "current_thread")]
async fn other_streams_events_wait_for_the_next_creation_and_go_in_with_it_in_one_round() {
    let recorder = DebuggingRecorder::new();
    let snapshotter = recorder.snapshotter();
    let _local = metrics::set_default_local_recorder(&recorder);
    let env = TestEnv::start().await;
    let shutdown = CancellationToken::new();
    let relay = env.spawn_relay(env.relay_config("a"), &shutdown);
    // Held far longer than the test waits: only the creation can let them through.
    let projector = tokio::spawn(projections::projector::run(
        env.pool.clone(),
        env.nats.clone(),
        vec![Arc::new(qrcodes::QrCodes)],
        ProjectorConfig {
            hold_other_streams: Duration::from_secs(600),
            ..env.projector_config()
        },
        shutdown.clone(),
    ));

    others_one_by_one(&env).await;
    let code = Uuid::now_v7();
    let created = env
        .insert(&[NewEvent::qrcode_created(code, Some(1_250))])
        .await[0];
    env.wait_for_projection(qrcodes::NAME, created).await;

    assert!(qrcodes::find(&env.pool, code).await.unwrap().is_some());
    // Stopped first: a waiter hears of a round at its commit, maybe before the projector counts it.
    shutdown.cancel();
    relay.await.unwrap().unwrap();
    projector.await.unwrap().unwrap();
    let rounds = rounds(&snapshotter);
    // One round per batch, a round per event here, was 41.
    assert!(
        (1..=3).contains(&rounds),
        "{rounds} rounds for {OTHERS} other events and one creation"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn with_nothing_after_them_other_streams_events_still_move_the_checkpoint_soon() {
    let recorder = DebuggingRecorder::new();
    let snapshotter = recorder.snapshotter();
    let _local = metrics::set_default_local_recorder(&recorder);
    let env = TestEnv::start().await;
    let shutdown = CancellationToken::new();
    let relay = env.spawn_relay(env.relay_config("a"), &shutdown);
    let projector = env.spawn_projector(vec![Arc::new(qrcodes::QrCodes)], &shutdown);

    others_one_by_one(&env).await;
    // The default hold is a quarter of a second: the checkpoint gets there unprompted, in a
    // round or a few (one per event, 15 to 21 here, without the hold).
    env.wait_for_projection(qrcodes::NAME, env.last_position().await)
        .await;

    // Stopped first: a waiter hears of a round at its commit, maybe before the projector counts it.
    shutdown.cancel();
    relay.await.unwrap().unwrap();
    projector.await.unwrap().unwrap();
    let rounds = rounds(&snapshotter);
    assert!(
        (1..=6).contains(&rounds),
        "{rounds} rounds for {OTHERS} events it does not read"
    );
}
