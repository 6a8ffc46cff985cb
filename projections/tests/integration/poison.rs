//! Poison events are parked, not retried forever, and do not block what comes after them.

use crate::support;

use metrics_util::debugging::{DebugValue, DebuggingRecorder};
use projections::{CancellationToken, event_counts, qrcodes};
use serde_json::json;
use support::{NewEvent, TestEnv, consumer_settled, eventually};
use uuid::Uuid;

#[tokio::test(flavor = "current_thread")]
async fn a_poison_event_is_parked_and_acked_and_the_next_events_still_apply() {
    let recorder = DebuggingRecorder::new();
    let snapshotter = recorder.snapshotter();
    let _local = metrics::set_default_local_recorder(&recorder);
    let env = TestEnv::start().await;

    let good = NewEvent::qrcode_created(Uuid::now_v7(), Some(500));
    // Three kinds of poison: a payload that does not deserialise, a schema version this code
    // does not know, and a row the table refuses (the same QR code id created twice).
    let mut bad_payload = NewEvent::qrcode_created(Uuid::now_v7(), None);
    bad_payload.payload["key_kind"] = json!("fax");
    let mut unknown_version = NewEvent::qrcode_created(Uuid::now_v7(), None);
    unknown_version.schema_version = 2;
    let duplicated = Uuid::now_v7();
    let first_of_pair = NewEvent::qrcode_created(duplicated, Some(100));
    let mut second_of_pair = NewEvent::qrcode_created(duplicated, Some(200));
    second_of_pair.stream_version = 2;
    let after = NewEvent::qrcode_created(Uuid::now_v7(), None);
    let batch = vec![
        good.clone(),
        bad_payload.clone(),
        unknown_version.clone(),
        first_of_pair.clone(),
        second_of_pair.clone(),
        after.clone(),
    ];
    env.insert(&batch).await;

    let shutdown = CancellationToken::new();
    let relay = env.spawn_relay(env.relay_config("a"), &shutdown);
    let projector = env.spawn_projector(projections::all(), &shutdown);
    let last = env.last_position().await;
    env.wait_for_projection(qrcodes::NAME, last).await;
    env.wait_for_projection(event_counts::NAME, last).await;

    let mut ids: Vec<Uuid> = sqlx::query_scalar("select event_id from qrcodes")
        .fetch_all(&env.pool)
        .await
        .unwrap();
    ids.sort();
    let mut expected = vec![good.event_id, first_of_pair.event_id, after.event_id];
    expected.sort();
    assert_eq!(ids, expected);

    let parked: Vec<(Uuid, String, String)> = sqlx::query_as(
        "select event_id, projection, error from parked_events order by global_position",
    )
    .fetch_all(&env.pool)
    .await
    .unwrap();
    let parked_ids: Vec<Uuid> = parked.iter().map(|(id, ..)| *id).collect();
    assert_eq!(
        parked_ids,
        vec![
            bad_payload.event_id,
            unknown_version.event_id,
            second_of_pair.event_id
        ]
    );
    assert!(
        parked
            .iter()
            .all(|(_, projection, error)| projection == "qrcodes" && !error.is_empty())
    );
    assert!(parked[0].2.contains("fax"), "{}", parked[0].2);
    assert!(parked[1].2.contains("schema version 2"), "{}", parked[1].2);

    // The other projection is not affected: it counted all six.
    let counts = event_counts::list(&env.pool).await.unwrap();
    assert_eq!(counts.len(), 1);
    assert_eq!(counts[0].events, 6);

    // Parked messages were terminated, the rest acked: nothing waits for redelivery.
    eventually("every message acknowledged", || async {
        consumer_settled(&env, qrcodes::NAME).await
    })
    .await;

    // And the projection keeps going.
    let later = NewEvent::qrcode_created(Uuid::now_v7(), Some(42));
    let positions = env.insert(std::slice::from_ref(&later)).await;
    env.wait_for_projection(qrcodes::NAME, positions[0]).await;
    let later_id: Uuid = later.payload["qrcode_id"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(qrcodes::find(&env.pool, later_id).await.unwrap().is_some());

    shutdown.cancel();
    relay.await.unwrap().unwrap();
    projector.await.unwrap().unwrap();

    let parked_metric: u64 = snapshotter
        .snapshot()
        .into_vec()
        .into_iter()
        .filter(|(key, ..)| {
            key.key().name() == "balcao_parked_events_total"
                && key
                    .key()
                    .labels()
                    .any(|l| l.key() == "projection" && l.value() == "qrcodes")
        })
        .map(|(.., value)| match value {
            DebugValue::Counter(n) => n,
            other => panic!("not a counter: {other:?}"),
        })
        .sum();
    assert_eq!(parked_metric, 3);
}
