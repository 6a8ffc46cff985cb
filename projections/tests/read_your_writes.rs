//! `wait_until`: the gateway's read-your-writes wait.

mod support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use commands::feed::FeedPosition;
use projections::CancellationToken;
use projections::projector::{Waited, wait_until};
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
