//! `qrcode_month_counts`: each account's codes per São Paulo calendar month, kept live batch by
//! batch and by claims, and the same after a replay.

mod support;

use std::sync::Arc;

use projections::replay::{self, ReplayOptions};
use projections::{CancellationToken, qrcodes};
use serde_json::json;
use support::{NewEvent, TestEnv};
use uuid::Uuid;

/// A code of `owner` (none: a visitor's) made at `created_at`.
fn created(owner: Option<Uuid>, created_at: &str) -> NewEvent {
    let mut event = NewEvent::qrcode_created(Uuid::now_v7(), Some(500));
    event.payload["owner_id"] = json!(owner);
    event.payload["created_at"] = json!(created_at);
    event
}

/// `QrCodeClaimed` of the visitor's code `code` by `account` (version 2 of its stream).
fn claimed(code: &NewEvent, account: Uuid) -> NewEvent {
    NewEvent {
        event_id: Uuid::now_v7(),
        stream_version: 2,
        event_type: "QrCodeClaimed".to_owned(),
        payload: json!({
            "qrcode_id": code.stream_id,
            "owner_id": account,
            "claimed_by": account.to_string(),
        }),
        ..code.clone()
    }
}

async fn counts(env: &TestEnv) -> Vec<(Uuid, String, i64)> {
    sqlx::query_as(
        "select owner_id, month::text, codes from qrcode_month_counts
          where codes > 0 order by owner_id, month",
    )
    .fetch_all(&env.pool)
    .await
    .unwrap()
}

#[tokio::test]
async fn each_accounts_codes_are_counted_by_sao_paulo_month_live_after_claims_and_in_a_replay() {
    let env = TestEnv::start().await;
    let shutdown = CancellationToken::new();
    let relay = env.spawn_relay(env.relay_config("a"), &shutdown);
    let projector = env.spawn_projector(vec![Arc::new(qrcodes::QrCodes)], &shutdown);

    let shop = Uuid::now_v7();
    let other = Uuid::now_v7();
    let visitors = created(None, "2026-11-20T12:00:00Z");
    // 02:30 UTC on 1 December is still 30 November in São Paulo (UTC−3).
    let first = created(Some(shop), "2026-11-01T03:00:00Z");
    // Another code's event repeating the first's id, in December: live's key refuses it (and
    // parks it), so it counts nowhere.
    let mut repeat = created(Some(shop), "2026-12-15T12:00:00Z");
    repeat.payload["qrcode_id"] = first.payload["qrcode_id"].clone();
    env.insert(&[
        first.clone(),
        created(Some(shop), "2026-12-01T02:30:00Z"),
        created(Some(shop), "2026-12-01T03:00:00Z"),
        created(Some(other), "2026-11-15T12:00:00Z"),
        visitors.clone(),
    ])
    .await;
    // Later batches add to the same rows; the visitor's code moves to the shop's November.
    env.insert(&[created(Some(shop), "2026-11-30T12:00:00Z")])
        .await;
    env.insert(&[repeat]).await;
    let last = env.insert(&[claimed(&visitors, shop)]).await[0];
    env.wait_for_projection(qrcodes::NAME, last).await;

    let live = counts(&env).await;
    let mut expected = vec![
        (shop, "2026-11-01".to_owned(), 4),
        (shop, "2026-12-01".to_owned(), 1),
        (other, "2026-11-01".to_owned(), 1),
    ];
    expected.sort();
    assert_eq!(live, expected);
    shutdown.cancel();
    relay.await.unwrap().unwrap();
    projector.await.unwrap().unwrap();

    let reports = replay::replay(
        &env.pool,
        &[Arc::new(qrcodes::QrCodes)],
        &ReplayOptions {
            // Pages of two: the claim lands pages after its code.
            page_size: 2,
            ..ReplayOptions::default()
        },
    )
    .await
    .unwrap();
    assert_eq!(reports[0].parked, 1, "the repeated id, as live");
    assert_eq!(counts(&env).await, live, "replay counts the same");
}
