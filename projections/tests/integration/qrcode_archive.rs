//! `qrcodes.archived_at`, `version`, `key_id` and `batch_id`: built live from `QrCodeArchived`
//! and `QrCodeUnarchived`, and a replay gives exactly the same rows.

use crate::support;

use std::sync::Arc;

use projections::replay::{self, ReplayOptions};
use projections::{CancellationToken, qrcodes};
use serde_json::json;
use support::{NewEvent, TestEnv, qrcode_rows};
use uuid::Uuid;

fn created(owner: Uuid, batch: Option<Uuid>, key: Option<Uuid>) -> NewEvent {
    let mut event = NewEvent::qrcode_created(Uuid::now_v7(), Some(650));
    event.payload["owner_id"] = json!(owner);
    event.payload["txid"] = json!(format!("T{}", &event.stream_id[..8]));
    if let Some(batch) = batch {
        event.payload["batch_id"] = json!(batch);
    }
    if let Some(key) = key {
        event.payload["key_id"] = json!(key);
    }
    event
}

fn archive_event(of: &NewEvent, version: i64, archived: bool, minute: u32) -> NewEvent {
    let at = format!("2026-11-21T10:{minute:02}:00Z");
    let (event_type, payload) = if archived {
        (
            "QrCodeArchived",
            json!({"type": "QrCodeArchived", "qrcode_id": of.stream_id, "archived_by": "x", "archived_at": at}),
        )
    } else {
        (
            "QrCodeUnarchived",
            json!({"type": "QrCodeUnarchived", "qrcode_id": of.stream_id, "unarchived_by": "x", "unarchived_at": at}),
        )
    };
    NewEvent {
        event_id: Uuid::now_v7(),
        stream_type: "qrcode".to_owned(),
        stream_id: of.stream_id.clone(),
        stream_version: version,
        event_type: event_type.to_owned(),
        schema_version: 1,
        payload,
    }
}

#[tokio::test]
async fn archives_fold_into_the_row_live_the_log_draws_the_same_row_and_a_replay_gives_the_very_same_rows()
 {
    let env = TestEnv::start().await;
    let shutdown = CancellationToken::new();
    let relay = env.spawn_relay(env.relay_config("a"), &shutdown);
    let projector = env.spawn_projector(vec![Arc::new(qrcodes::QrCodes)], &shutdown);

    let owner = Uuid::now_v7();
    let batch = Uuid::now_v7();
    let key = Uuid::now_v7();
    let a = created(owner, Some(batch), Some(key));
    let b = created(owner, Some(batch), None);
    let c = created(owner, None, None);
    // One transaction: c is created, archived, brought back and archived again.
    env.insert(&[
        a.clone(),
        b.clone(),
        c.clone(),
        archive_event(&c, 2, true, 1),
        archive_event(&c, 3, false, 2),
        archive_event(&c, 4, true, 3),
    ])
    .await;
    // Later ones: a archived then brought back; b archived; an archive of a code never made.
    env.insert(&[archive_event(&a, 2, true, 4)]).await;
    env.insert(&[
        archive_event(&a, 3, false, 5),
        archive_event(&b, 2, true, 6),
    ])
    .await;
    let ghost = NewEvent::qrcode_created(Uuid::now_v7(), None);
    let positions = env.insert(&[archive_event(&ghost, 2, true, 7)]).await;
    env.wait_for_projection(qrcodes::NAME, positions[0]).await;

    let row = |event: &NewEvent| {
        let id = Uuid::parse_str(&event.stream_id).unwrap();
        let pool = env.pool.clone();
        async move { qrcodes::find(&pool, id).await.unwrap().unwrap() }
    };
    let (ra, rb, rc) = (row(&a).await, row(&b).await, row(&c).await);
    assert_eq!((ra.archived_at, ra.version), (None, 3));
    assert_eq!(ra.key_id, Some(key));
    assert_eq!(ra.batch_id, Some(batch));
    assert!(rb.archived_at.is_some());
    assert_eq!(rb.version, 2);
    assert_eq!(
        rc.archived_at.map(|at| at.to_rfc3339()),
        Some("2026-11-21T10:03:00+00:00".to_owned()),
        "the last of one batch's events wins"
    );
    assert_eq!(rc.version, 4);
    let archived_only = qrcodes::search(
        &env.pool,
        owner,
        &qrcodes::Search {
            archived: Some(true),
            limit: 10,
            ..qrcodes::Search::default()
        },
    )
    .await
    .unwrap();
    assert_eq!(archived_only.len(), 2);
    let in_batch = qrcodes::search(
        &env.pool,
        owner,
        &qrcodes::Search {
            batch_id: Some(batch),
            limit: 10,
            ..qrcodes::Search::default()
        },
    )
    .await
    .unwrap();
    assert_eq!(in_batch.len(), 2);

    // What a page draws from a code's own stream while the projector lags is the very row.
    let store = commands::PgEventStore::new(env.pool.clone());
    for (event, projected) in [(&a, &ra), (&b, &rb), (&c, &rc)] {
        let stream = store.read_stream("qrcode", &event.stream_id).await.unwrap();
        let drawn = qrcodes::view_from_stream(store.upcasters(), &stream);
        assert_eq!(drawn.as_ref(), Some(projected), "{}", event.stream_id);
    }
    let ghost_stream = store.read_stream("qrcode", &ghost.stream_id).await.unwrap();
    assert_eq!(
        qrcodes::view_from_stream(store.upcasters(), &ghost_stream),
        None,
        "an archive of a code never made draws nothing, as it makes no row"
    );

    let live = qrcode_rows(&env.pool, "qrcodes").await;
    assert_eq!(live.len(), 3, "the ghost's archive made no row");
    let reports = replay::replay(
        &env.pool,
        &[Arc::new(qrcodes::QrCodes) as Arc<dyn projections::Projection>],
        &ReplayOptions {
            page_size: 2,
            ..ReplayOptions::default()
        },
    )
    .await
    .expect("replay succeeds");
    assert_eq!(reports[0].parked, 0);
    assert_eq!(qrcode_rows(&env.pool, "qrcodes").await, live);
    // The fill noted the archives (pages of 2: most land pages after their code's creation)
    // and made them after it; the notes went live empty.
    let notes: i64 = sqlx::query_scalar("select count(*) from qrcode_replay_changes")
        .fetch_one(&env.pool)
        .await
        .unwrap();
    assert_eq!(notes, 0);

    shutdown.cancel();
    relay.await.unwrap().unwrap();
    projector.await.unwrap().unwrap();
}
