//! One upcaster registry for every read path: an event stored in an old shape reads in the current
//! one in the live projection, in a replay and in an aggregate load.

use crate::support;

use std::sync::Arc;

use commands::{PgEventStore, Upcasters};
use domain::qrcode::QrCode;
use projections::projector::ProjectorConfig;
use projections::replay::{self, ReplayOptions};
use projections::{CancellationToken, qrcodes};
use serde_json::{Value, json};
use support::{NewEvent, TestEnv, qrcode_rows};
use uuid::Uuid;

/// `QrCodeCreated` as this test pretends version 1 was: the BR Code under `brcode` and the amount
/// as reais in pt-BR text (`"12,34"`). Version 2 is the shape the code reads today.
fn created_v1(qrcode_id: Uuid) -> Value {
    json!({
        "type": "QrCodeCreated",
        "qrcode_id": qrcode_id,
        "owner_id": null,
        "key_kind": "email",
        "pix_key": "fulano@example.com",
        "merchant_name": "FULANO DE TAL",
        "merchant_city": "SAO PAULO",
        "valor": "12,34",
        "description": "Café",
        "txid": "***",
        "brcode": "00020126...6304V1V1",
        "created_at": "2026-11-20T12:00:00Z"
    })
}

/// The registered step from version 1 to version 2 (integer arithmetic only: reais × 100 +
/// centavos).
fn created_v1_to_v2(mut payload: Value) -> Value {
    if let Some(fields) = payload.as_object_mut() {
        if let Some(brcode) = fields.remove("brcode") {
            fields.insert("payload".to_owned(), brcode);
        }
        let valor = fields.remove("valor");
        let centavos = valor.as_ref().and_then(Value::as_str).and_then(|text| {
            let (reais, cents) = text.split_once(',')?;
            Some(reais.parse::<i64>().ok()? * 100 + cents.parse::<i64>().ok()?)
        });
        fields.insert("amount_centavos".to_owned(), json!(centavos));
    }
    payload
}

fn created(qrcode_id: Uuid, schema_version: i32, payload: Value) -> NewEvent {
    NewEvent {
        schema_version,
        payload,
        ..NewEvent::qrcode_created(qrcode_id, None)
    }
}

#[tokio::test]
async fn an_event_stored_at_version_1_reads_as_version_2_live_in_replay_and_in_an_aggregate() {
    let env = TestEnv::start().await;
    let registry = Arc::new(Upcasters::new().with("QrCodeCreated", 1, created_v1_to_v2));
    let old = Uuid::now_v7();
    let new = Uuid::now_v7();
    let mut current_shape = created_v1_to_v2(created_v1(new));
    current_shape["payload"] = json!("00020126...6304V2V2");
    env.insert(&[
        created(old, 1, created_v1(old)),
        created(new, 2, current_shape),
    ])
    .await;

    // The live projection: the relay and the projector read through the registry.
    let shutdown = CancellationToken::new();
    let relay = env.spawn_relay(
        projections::relay::RelayConfig {
            upcasters: Arc::clone(&registry),
            ..env.relay_config("a")
        },
        &shutdown,
    );
    let projector = tokio::spawn(projections::projector::run(
        env.pool.clone(),
        env.nats.clone(),
        vec![Arc::new(qrcodes::QrCodes)],
        ProjectorConfig {
            upcasters: Arc::clone(&registry),
            ..env.projector_config()
        },
        shutdown.clone(),
    ));
    let last = env.last_position().await;
    env.wait_for_projection(qrcodes::NAME, last).await;

    let parked: i64 = sqlx::query_scalar("select count(*) from parked_events")
        .fetch_one(&env.pool)
        .await
        .unwrap();
    assert_eq!(parked, 0, "neither version was parked");
    let live_old = qrcodes::find(&env.pool, old)
        .await
        .unwrap()
        .expect("live row");
    assert_eq!(
        (live_old.payload.as_str(), live_old.amount_centavos),
        ("00020126...6304V1V1", Some(1_234))
    );
    let live_new = qrcodes::find(&env.pool, new)
        .await
        .unwrap()
        .expect("live row");
    assert_eq!(live_new.payload, "00020126...6304V2V2");
    let live_rows = qrcode_rows(&env.pool, "qrcodes").await;

    // A replay through the same registry builds the same rows.
    let reports = replay::replay(
        &env.pool,
        &[Arc::new(qrcodes::QrCodes)],
        &ReplayOptions {
            upcasters: Arc::clone(&registry),
            ..ReplayOptions::default()
        },
    )
    .await
    .expect("replay succeeds");
    assert_eq!(reports[0].parked, 0);
    assert_eq!(qrcode_rows(&env.pool, "qrcodes").await, live_rows);

    // The aggregate loads from the same rows through the same registry.
    let store = PgEventStore::new(env.pool.clone()).with_shared_upcasters(Arc::clone(&registry));
    let loaded = store.load::<QrCode>(&old.to_string()).await.unwrap();
    assert_eq!(
        (loaded.version, loaded.aggregate.payload.as_deref()),
        (1, Some("00020126...6304V1V1"))
    );
    let stored = store.read_stream("qrcode", &old.to_string()).await.unwrap();
    assert_eq!(stored[0].schema_version, 2);

    shutdown.cancel();
    relay.await.unwrap().unwrap();
    projector.await.unwrap().unwrap();
}

#[tokio::test]
async fn without_its_upcaster_an_old_shape_is_parked_and_an_unknown_version_too() {
    let env = TestEnv::start().await;
    let old = Uuid::now_v7();
    let newer = Uuid::now_v7();
    env.insert(&[
        created(old, 1, created_v1(old)),
        // Written by code newer than this build: version 2 is not known without the step.
        created(newer, 2, created_v1_to_v2(created_v1(newer))),
    ])
    .await;

    let reports = replay::replay(
        &env.pool,
        &[Arc::new(qrcodes::QrCodes)],
        &ReplayOptions::default(),
    )
    .await
    .expect("replay succeeds");

    assert_eq!(reports[0].parked, 2, "neither is guessed at");
    let errors: Vec<String> = sqlx::query_scalar(
        "select error from parked_events where projection = 'qrcodes' order by global_position",
    )
    .fetch_all(&env.pool)
    .await
    .unwrap();
    assert!(errors[0].contains("does not deserialise"), "{errors:?}");
    assert!(errors[1].contains("unknown schema version 2"), "{errors:?}");
    let store = PgEventStore::new(env.pool.clone());
    assert!(store.load::<QrCode>(&old.to_string()).await.is_err());
}
