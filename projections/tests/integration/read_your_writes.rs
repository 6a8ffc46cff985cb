//! Read-your-writes: `wait_until` (one wait, one pooled connection: tools and tests) and
//! `ProgressWatch` (the gateway's: one listener per process, no pooled connection per wait).

use crate::support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use commands::feed::FeedPosition;
use projections::CancellationToken;
use projections::event_counts;
use projections::projector::{ProgressWatch, Waited, wait_until};
use projections::qrcodes::{self, KeyKind};
use support::{NewEvent, TestEnv, qrcode_payload};
use uuid::Uuid;

#[tokio::test]
async fn returns_once_the_projection_passed_the_position_and_the_read_model_shows_it() {
    let env = TestEnv::start().await;
    let shutdown = CancellationToken::new();
    let relay = env.spawn_relay(env.relay_config("a"), &shutdown);
    let projector = env.spawn_projector(vec![Arc::new(qrcodes::QrCodes)], &shutdown);

    let qrcode_id = Uuid::now_v7();
    let owner = Uuid::now_v7();
    let mut created = NewEvent::qrcode_created(qrcode_id, Some(1250));
    created.payload["owner_id"] = serde_json::json!(owner);
    let position = env.insert(std::slice::from_ref(&created)).await[0];

    let waited = wait_until(&env.pool, qrcodes::NAME, position, Duration::from_secs(20))
        .await
        .unwrap();
    let Waited::Reached(at) = waited else {
        panic!("timed out: {waited:?}")
    };
    assert!(at >= position);

    let view = qrcodes::find(&env.pool, qrcode_id)
        .await
        .unwrap()
        .expect("visible right away");
    assert_eq!(view.qrcode_id, qrcode_id);
    assert_eq!(view.owner_id, Some(owner));
    assert_eq!(view.key_kind, KeyKind::Email);
    assert_eq!(view.pix_key, "fulano@example.com");
    assert_eq!(view.merchant_name, "FULANO DE TAL");
    assert_eq!(view.merchant_city, "SAO PAULO");
    assert_eq!(view.amount_centavos, Some(1250));
    assert_eq!(view.description.as_deref(), Some("Café"));
    assert_eq!(view.txid, "***");
    assert_eq!(view.payload, qrcode_payload(qrcode_id, None)["payload"]);
    assert_eq!(view.created_at.to_rfc3339(), "2026-11-20T12:00:00+00:00");
    assert_eq!(view.event_id, created.event_id);
    assert_eq!(view.position, position);
    let listed = qrcodes::list_by_owner(&env.pool, owner, None, 10)
        .await
        .unwrap();
    assert_eq!(listed, vec![view]);

    shutdown.cancel();
    relay.await.unwrap().unwrap();
    projector.await.unwrap().unwrap();
}

#[tokio::test]
async fn times_out_when_the_projection_does_not_get_there() {
    let env = TestEnv::start().await;
    let position = env
        .insert(&[NewEvent::qrcode_created(Uuid::now_v7(), None)])
        .await[0];

    let started = Instant::now();
    let waited = wait_until(
        &env.pool,
        qrcodes::NAME,
        position,
        Duration::from_millis(300),
    )
    .await
    .unwrap();
    assert_eq!(waited, Waited::TimedOut(FeedPosition::default()));
    assert!(started.elapsed() >= Duration::from_millis(300));
    assert!(started.elapsed() < Duration::from_secs(3));
}

#[tokio::test]
async fn a_wait_that_started_before_the_projector_ran_wakes_when_it_catches_up() {
    let env = TestEnv::start().await;
    let position = env
        .insert(&[NewEvent::qrcode_created(Uuid::now_v7(), None)])
        .await[0];
    let pool = env.pool.clone();
    let waiting = tokio::spawn(async move {
        wait_until(&pool, qrcodes::NAME, position, Duration::from_secs(20)).await
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(!waiting.is_finished());

    let shutdown = CancellationToken::new();
    let relay = env.spawn_relay(env.relay_config("a"), &shutdown);
    let projector = env.spawn_projector(vec![Arc::new(qrcodes::QrCodes)], &shutdown);
    let waited = waiting.await.unwrap().unwrap();
    assert!(waited.reached(), "{waited:?}");

    shutdown.cancel();
    relay.await.unwrap().unwrap();
    projector.await.unwrap().unwrap();
}

// The server's wait: `ProgressWatch`, one listener per process and no pooled connection per
// waiter. The same three cases as `wait_until`, then what only it promises.

/// A watch on this test's database that takes a minute without progress for a stall (so only
/// the stall test sees one).
fn watch(env: &TestEnv, max_waiters: usize) -> ProgressWatch {
    ProgressWatch::start(
        &env.pool,
        &[qrcodes::NAME, event_counts::NAME],
        max_waiters,
        Duration::from_secs(60),
    )
}

#[tokio::test]
async fn a_watch_returns_once_the_projection_passed_the_position_and_the_read_model_shows_it() {
    let env = TestEnv::start().await;
    let progress = watch(&env, 100);
    let shutdown = CancellationToken::new();
    let relay = env.spawn_relay(env.relay_config("a"), &shutdown);
    let projector = env.spawn_projector(vec![Arc::new(qrcodes::QrCodes)], &shutdown);

    let qrcode_id = Uuid::now_v7();
    let created = NewEvent::qrcode_created(qrcode_id, Some(1250));
    let position = env.insert(std::slice::from_ref(&created)).await[0];

    let waited = progress
        .wait(qrcodes::NAME, position, Duration::from_secs(20))
        .await;
    let Waited::Reached(at) = waited else {
        panic!("not reached: {waited:?}")
    };
    assert!(at >= position);
    assert!(progress.position(qrcodes::NAME) >= position);
    let view = qrcodes::find(&env.pool, qrcode_id)
        .await
        .unwrap()
        .expect("visible right away");
    assert_eq!(view.event_id, created.event_id);
    assert_eq!(view.position, position);
    // Already there: answered from memory.
    assert!(
        progress
            .wait(qrcodes::NAME, position, Duration::ZERO)
            .await
            .reached()
    );

    shutdown.cancel();
    relay.await.unwrap().unwrap();
    projector.await.unwrap().unwrap();
}

#[tokio::test]
async fn a_watch_times_out_when_the_projection_does_not_get_there() {
    let env = TestEnv::start().await;
    let progress = watch(&env, 100);
    let position = env
        .insert(&[NewEvent::qrcode_created(Uuid::now_v7(), None)])
        .await[0];

    let waited = progress
        .wait(qrcodes::NAME, position, Duration::from_millis(300))
        .await;
    assert_eq!(waited, Waited::TimedOut(FeedPosition::default()));
}

#[tokio::test]
async fn a_watch_wait_that_started_before_the_projector_ran_wakes_when_it_catches_up() {
    let env = TestEnv::start().await;
    let progress = watch(&env, 100);
    let position = env
        .insert(&[NewEvent::qrcode_created(Uuid::now_v7(), None)])
        .await[0];
    let waiting = {
        let progress = progress.clone();
        tokio::spawn(async move {
            progress
                .wait(qrcodes::NAME, position, Duration::from_secs(20))
                .await
        })
    };
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(!waiting.is_finished());

    let shutdown = CancellationToken::new();
    let relay = env.spawn_relay(env.relay_config("a"), &shutdown);
    let projector = env.spawn_projector(vec![Arc::new(qrcodes::QrCodes)], &shutdown);
    let waited = waiting.await.unwrap();
    assert!(waited.reached(), "{waited:?}");

    shutdown.cancel();
    relay.await.unwrap().unwrap();
    projector.await.unwrap().unwrap();
}

#[tokio::test]
async fn a_hundred_waits_hold_no_pooled_connection_and_all_wake_when_the_projector_catches_up() {
    let env = TestEnv::start().await;
    let progress = watch(&env, 1_000);
    let position = env
        .insert(&[NewEvent::qrcode_created(Uuid::now_v7(), None)])
        .await[0];
    let waits: Vec<_> = (0..100)
        .map(|_| {
            let progress = progress.clone();
            tokio::spawn(async move {
                progress
                    .wait(qrcodes::NAME, position, Duration::from_secs(30))
                    .await
            })
        })
        .collect();
    // Everyone is waiting now...
    let deadline = Instant::now() + Duration::from_secs(10);
    while progress.waiting() < 100 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(progress.waiting(), 100);
    // ...and the pool (8 connections) is entirely free: as many queries as it has
    // connections run at once, each on a connection of its own, none of them held by a wait.
    assert_eq!(
        env.pool.size() - u32::try_from(env.pool.num_idle()).unwrap(),
        0,
        "no pooled connection is in use while a hundred requests wait"
    );
    let held: Vec<_> = futures::future::join_all((0..8).map(|_| env.pool.acquire()))
        .await
        .into_iter()
        .collect::<Result<_, _>>()
        .expect("every pooled connection is free for other work");
    drop(held);

    let shutdown = CancellationToken::new();
    let relay = env.spawn_relay(env.relay_config("a"), &shutdown);
    let projector = env.spawn_projector(vec![Arc::new(qrcodes::QrCodes)], &shutdown);
    for wait in waits {
        let waited = wait.await.unwrap();
        assert!(waited.reached(), "{waited:?}");
    }
    assert_eq!(progress.waiting(), 0);

    shutdown.cancel();
    relay.await.unwrap().unwrap();
    projector.await.unwrap().unwrap();
}

#[tokio::test]
async fn beyond_the_bound_a_wait_is_skipped_at_once() {
    let env = TestEnv::start().await;
    let progress = watch(&env, 2);
    let position = env
        .insert(&[NewEvent::qrcode_created(Uuid::now_v7(), None)])
        .await[0];
    let waits: Vec<_> = (0..2)
        .map(|_| {
            let progress = progress.clone();
            tokio::spawn(async move {
                progress
                    .wait(qrcodes::NAME, position, Duration::from_secs(5))
                    .await
            })
        })
        .collect();
    let deadline = Instant::now() + Duration::from_secs(10);
    while progress.waiting() < 2 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(progress.waiting(), 2);

    let third = progress
        .wait(qrcodes::NAME, position, Duration::from_secs(5))
        .await;
    assert_eq!(third, Waited::Skipped(FeedPosition::default()));
    assert!(
        waits.iter().all(|w| !w.is_finished()),
        "the two within the bound still wait"
    );
    // A name the watch does not follow is not waited for either.
    assert!(matches!(
        progress
            .wait("no_such_projection", position, Duration::from_secs(5))
            .await,
        Waited::Skipped(_)
    ));
    for wait in waits {
        wait.abort();
    }
}

#[tokio::test]
async fn a_checkpoint_moved_without_a_notification_is_still_seen() {
    let env = TestEnv::start().await;
    let progress = watch(&env, 100);
    let position = env
        .insert(&[NewEvent::qrcode_created(Uuid::now_v7(), None)])
        .await[0];
    let waiting = {
        let progress = progress.clone();
        tokio::spawn(async move {
            progress
                .wait(qrcodes::NAME, position, Duration::from_secs(20))
                .await
        })
    };
    // Moved behind the listener's back (as if its notification were lost in a reconnect): the
    // periodic re-read finds it.
    sqlx::query(
        "insert into projection_checkpoints (projection, tx_id, global_position, updated_at)
         values ($1, $2::text::xid8, $3, now())",
    )
    .bind(qrcodes::NAME)
    .bind(position.tx_id.to_string())
    .bind(position.global_position)
    .execute(&env.pool)
    .await
    .unwrap();
    assert_eq!(waiting.await.unwrap(), Waited::Reached(position));
}

#[tokio::test]
async fn a_projection_that_makes_no_progress_is_waited_for_once_then_not_until_it_moves() {
    let env = TestEnv::start().await;
    let progress =
        ProgressWatch::start(&env.pool, &[qrcodes::NAME], 100, Duration::from_millis(200));
    // A projector runs a while, so the watch has seen the projection move...
    let relay_shutdown = CancellationToken::new();
    let relay = env.spawn_relay(env.relay_config("a"), &relay_shutdown);
    let shutdown = CancellationToken::new();
    let projector = env.spawn_projector(vec![Arc::new(qrcodes::QrCodes)], &shutdown);
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut first = FeedPosition::default();
    while progress.position(qrcodes::NAME) == FeedPosition::default() && Instant::now() < deadline {
        first = env
            .insert(&[NewEvent::qrcode_created(Uuid::now_v7(), None)])
            .await[0];
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let moved = progress
        .wait(qrcodes::NAME, first, Duration::from_secs(20))
        .await;
    assert!(moved.reached(), "{moved:?}");
    // ...then it stops.
    shutdown.cancel();
    projector.await.unwrap().unwrap();
    let at = progress.position(qrcodes::NAME);
    let position = env
        .insert(&[NewEvent::qrcode_created(Uuid::now_v7(), None)])
        .await[0];

    // Ten requests wait, with a timeout of a minute. They give up together, as soon as the
    // projection has shown no progress for the stall time: skipped, not timed out.
    let waits: Vec<_> = (0..10)
        .map(|_| {
            let progress = progress.clone();
            tokio::spawn(async move {
                progress
                    .wait(qrcodes::NAME, position, Duration::from_secs(60))
                    .await
            })
        })
        .collect();
    for wait in waits {
        assert_eq!(wait.await.unwrap(), Waited::Skipped(at));
    }
    assert!(progress.stalled(qrcodes::NAME));
    assert_eq!(progress.waiting(), 0);
    // While it is stalled, nobody waits for it.
    assert_eq!(
        progress
            .wait(qrcodes::NAME, position, Duration::from_secs(60))
            .await,
        Waited::Skipped(at)
    );

    // A projector runs again: its first checkpoint ends the stall, and a wait is answered again.
    let shutdown = CancellationToken::new();
    let projector = env.spawn_projector(vec![Arc::new(qrcodes::QrCodes)], &shutdown);
    let deadline = Instant::now() + Duration::from_secs(20);
    while progress.stalled(qrcodes::NAME) && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(!progress.stalled(qrcodes::NAME));
    let deadline = Instant::now() + Duration::from_secs(20);
    while progress.position(qrcodes::NAME) < position && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(
        progress
            .wait(qrcodes::NAME, position, Duration::from_secs(20))
            .await
            .reached()
    );

    shutdown.cancel();
    relay_shutdown.cancel();
    relay.await.unwrap().unwrap();
    projector.await.unwrap().unwrap();
}

#[tokio::test]
async fn a_projection_never_seen_moving_is_waited_for_the_whole_timeout() {
    let env = TestEnv::start().await;
    let progress =
        ProgressWatch::start(&env.pool, &[qrcodes::NAME], 100, Duration::from_millis(50));
    let position = env
        .insert(&[NewEvent::qrcode_created(Uuid::now_v7(), None)])
        .await[0];
    // A projector that is just starting may be slower than the stall time over its first
    // event: not a stall.
    assert_eq!(
        progress
            .wait(qrcodes::NAME, position, Duration::from_millis(500))
            .await,
        Waited::TimedOut(FeedPosition::default())
    );
    assert!(!progress.stalled(qrcodes::NAME));
}
