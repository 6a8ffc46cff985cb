//! `qrcodes.single_use` (migration 0026): written alike by the live insert, by `COPY` (a replay's
//! pages of 256 codes or more) and by the fold of a code's own stream; a code stored before the
//! flag existed reads as reusable.

use crate::support;

use std::sync::Arc;

use projections::replay::{self, ReplayOptions};
use projections::{CancellationToken, qrcodes};
use serde_json::json;
use support::{NewEvent, TestEnv, qrcode_rows};
use uuid::Uuid;

/// How many codes: more than `COPY_FROM_ROWS` (256), so a replay page of them goes in by `COPY`.
const CODES: usize = 300;

#[tokio::test]
async fn single_use_is_written_alike_live_by_copy_in_a_replay_and_by_the_fold_of_its_stream() {
    let env = TestEnv::start().await;
    let shutdown = CancellationToken::new();
    let relay = env.spawn_relay(env.relay_config("a"), &shutdown);
    let projector = env.spawn_projector(vec![Arc::new(qrcodes::QrCodes)], &shutdown);

    let owner = Uuid::now_v7();
    let events: Vec<NewEvent> = (0..CODES)
        .map(|i| {
            let mut event = NewEvent::qrcode_created(Uuid::now_v7(), Some(4_990));
            event.payload["owner_id"] = json!(owner);
            event.payload["txid"] = json!(format!("PEDIDO{i:04}"));
            // Every third one for one sale; the others as every code before the flag: no field.
            if i % 3 == 0 {
                event.payload["single_use"] = json!(true);
            }
            event
        })
        .collect();
    let positions = env.insert(&events).await;
    env.wait_for_projection(qrcodes::NAME, *positions.last().expect("positions"))
        .await;

    let count = || async {
        sqlx::query_scalar::<_, i64>("select count(*) from qrcodes where single_use")
            .fetch_one(&env.pool)
            .await
            .expect("count")
    };
    assert_eq!(count().await, 100);
    let store = commands::PgEventStore::new(env.pool.clone());
    for event in [&events[0], &events[1]] {
        let id = Uuid::parse_str(&event.stream_id).expect("uuid");
        let row = qrcodes::find(&env.pool, id)
            .await
            .expect("read")
            .expect("row");
        assert_eq!(row.single_use, event.payload.get("single_use").is_some());
        assert_eq!(row.paid_at, None, "no payment yet");
        let stream = store
            .read_stream("qrcode", &event.stream_id)
            .await
            .expect("stream");
        let drawn = qrcodes::view_from_stream(store.upcasters(), &stream);
        assert_eq!(drawn.as_ref(), Some(&row), "the fold draws the very row");
    }

    let live = qrcode_rows(&env.pool, "qrcodes").await;
    let reports = replay::replay(
        &env.pool,
        &[Arc::new(qrcodes::QrCodes) as Arc<dyn projections::Projection>],
        &ReplayOptions {
            page_size: 1_000,
            ..ReplayOptions::default()
        },
    )
    .await
    .expect("replay succeeds");
    assert_eq!(reports[0].parked, 0);
    assert_eq!(
        qrcode_rows(&env.pool, "qrcodes").await,
        live,
        "replay equals live"
    );
    assert_eq!(count().await, 100);

    shutdown.cancel();
    relay.await.unwrap().unwrap();
    projector.await.unwrap().unwrap();
}
