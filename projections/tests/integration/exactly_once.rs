//! Each event lands in the read model exactly once, whatever the relay or JetStream repeat or
//! lose.

use crate::support;

use std::time::Duration;

use async_nats::jetstream::message::PublishMessage;
use commands::feed::StoredEvent;
use projections::relay::Fault;
use projections::{CancellationToken, Error, event_counts, qrcodes};
use support::{
    NewEvent, PATIENCE, TestEnv, consumer_settled, event_count_rows, eventually, qrcode_rows,
    read_feed, read_stream,
};
use uuid::Uuid;

fn events(qrcodes: usize, others: usize) -> Vec<NewEvent> {
    let mut events: Vec<NewEvent> = (0..qrcodes)
        .map(|i| NewEvent::qrcode_created(Uuid::now_v7(), (i % 2 == 0).then_some(990)))
        .collect();
    events.extend((0..others).map(|_| NewEvent::other("nota", "NotaEmitida")));
    events
}

async fn qrcode_count(env: &TestEnv) -> i64 {
    sqlx::query_scalar("select count(*) from qrcodes")
        .fetch_one(&env.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_relay_killed_between_publish_and_checkpoint_leaves_each_event_once_in_the_read_model() {
    let env = TestEnv::start().await;
    let shutdown = CancellationToken::new();
    let projector = env.spawn_projector(projections::all(), &shutdown);
    env.insert(&events(20, 10)).await;

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

    let relay = env.spawn_relay(env.relay_config("restarted"), &shutdown);
    let last = env.last_position().await;
    env.wait_for_projection(qrcodes::NAME, last).await;
    env.wait_for_projection(event_counts::NAME, last).await;

    assert_eq!(qrcode_count(&env).await, 20);
    let distinct: i64 = sqlx::query_scalar("select count(distinct event_id) from qrcodes")
        .fetch_one(&env.pool)
        .await
        .unwrap();
    assert_eq!(distinct, 20);
    let counts = event_counts::list(&env.pool).await.unwrap();
    let per_type: Vec<(&str, &str, i64)> = counts
        .iter()
        .map(|c| (c.stream_type.as_str(), c.event_type.as_str(), c.events))
        .collect();
    assert_eq!(
        per_type,
        vec![("nota", "NotaEmitida", 10), ("qrcode", "QrCodeCreated", 20)]
    );
    assert_eq!(env.stream_messages().await, 30);

    shutdown.cancel();
    relay.await.unwrap().unwrap();
    projector.await.unwrap().unwrap();
}

#[tokio::test]
async fn a_redelivered_message_changes_nothing_in_the_read_model() {
    let env = TestEnv::start().await;
    let shutdown = CancellationToken::new();
    let relay = env.spawn_relay(env.relay_config("a"), &shutdown);
    let projector = env.spawn_projector(projections::all(), &shutdown);
    env.insert(&events(5, 3)).await;
    let last = env.last_position().await;
    env.wait_for_projection(qrcodes::NAME, last).await;
    env.wait_for_projection(event_counts::NAME, last).await;
    let qrcodes_before = qrcode_rows(&env.pool, "qrcodes").await;
    let counts_before = event_count_rows(&env.pool, "event_counts").await;

    // The same events again under new message ids, so JetStream's dedup lets them through,
    // as after a relay restart outside the duplicate window.
    let context = env.jetstream();
    for message in read_stream(&env).await {
        context
            .send_publish(
                message.subject.clone(),
                PublishMessage::build()
                    .payload(message.payload.clone())
                    .message_id(Uuid::new_v4().to_string()),
            )
            .await
            .unwrap()
            .await
            .unwrap();
    }
    assert_eq!(env.stream_messages().await, 16);
    for projection in [qrcodes::NAME, event_counts::NAME] {
        eventually("the copies are delivered and acked", || async {
            consumer_settled(&env, projection).await
        })
        .await;
    }

    assert_eq!(qrcode_rows(&env.pool, "qrcodes").await, qrcodes_before);
    assert_eq!(
        event_count_rows(&env.pool, "event_counts").await,
        counts_before
    );

    shutdown.cancel();
    relay.await.unwrap().unwrap();
    projector.await.unwrap().unwrap();
}

#[tokio::test]
async fn events_missing_from_the_stream_are_taken_from_postgresql() {
    let env = TestEnv::start().await;
    // A stream with only some of the events, out of order: as after retention dropped some, or
    // a relay retry reordered them. No relay runs.
    let context = env.jetstream();
    context
        .create_stream(async_nats::jetstream::stream::Config {
            name: env.stream.name.clone(),
            subjects: vec![env.stream.all_subjects()],
            ..Default::default()
        })
        .await
        .unwrap();
    env.insert(&events(4, 0)).await;
    env.insert(&events(2, 0)).await;
    let feed: Vec<StoredEvent> = read_feed(&env.pool, 6).await;
    assert_eq!(feed.len(), 6);
    for index in [4, 1] {
        let event = &feed[index];
        context
            .send_publish(
                env.stream.subject_for(&event.stream_type),
                PublishMessage::build()
                    .payload(serde_json::to_vec(event).unwrap().into())
                    .message_id(event.event_id.to_string()),
            )
            .await
            .unwrap()
            .await
            .unwrap();
    }

    let shutdown = CancellationToken::new();
    let projector = env.spawn_projector(vec![std::sync::Arc::new(qrcodes::QrCodes)], &shutdown);
    env.wait_for_projection(qrcodes::NAME, feed[4].position)
        .await;
    // Everything up to the newest message, once; nothing after it yet.
    assert_eq!(qrcode_count(&env).await, 5);
    for event in &feed[..5] {
        let id: Uuid = event.payload.to_value()["qrcode_id"]
            .as_str()
            .unwrap()
            .parse()
            .unwrap();
        let view = qrcodes::find(&env.pool, id)
            .await
            .unwrap()
            .expect("in the read model");
        assert_eq!(view.event_id, event.event_id);
        assert_eq!(view.position, event.position);
    }
    eventually("both messages acked", || async {
        consumer_settled(&env, qrcodes::NAME).await
    })
    .await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(qrcode_count(&env).await, 5);

    shutdown.cancel();
    projector.await.unwrap().unwrap();
}
