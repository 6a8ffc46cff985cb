//! `qrcodes.created_by`: who made each code in a workspace, and listing one person's codes.

use crate::support;

use std::sync::Arc;

use projections::{CancellationToken, qrcodes};
use serde_json::json;
use support::{NewEvent, TestEnv};
use uuid::Uuid;

/// A `QrCodeCreated` owned by `owner`, made by `creator` at `minute` past noon; `None` leaves the
/// field out entirely, as events stored before teams existed do.
fn created(owner: Uuid, creator: Option<&str>, minute: u32) -> NewEvent {
    let mut event = NewEvent::qrcode_created(Uuid::now_v7(), Some(1000));
    event.payload["owner_id"] = json!(owner);
    event.payload["created_at"] = json!(format!("2026-11-20T12:{minute:02}:00Z"));
    if let Some(creator) = creator {
        event.payload["created_by"] = json!(creator);
    }
    event
}

#[tokio::test]
async fn codes_record_their_creator_and_list_by_owner_can_keep_only_one_persons_codes() {
    let env = TestEnv::start().await;
    let shutdown = CancellationToken::new();
    let relay = env.spawn_relay(env.relay_config("a"), &shutdown);
    let projector = env.spawn_projector(vec![Arc::new(qrcodes::QrCodes)], &shutdown);

    let workspace = Uuid::now_v7();
    let owner = workspace.to_string();
    let operator = Uuid::now_v7().to_string();
    let old = created(workspace, None, 0);
    let by_owner = created(workspace, Some(&owner), 1);
    let by_operator = created(workspace, Some(&operator), 2);
    let by_operator_again = created(workspace, Some(&operator), 3);
    let elsewhere = created(Uuid::now_v7(), Some(&operator), 4);
    let mut explicit_null = created(workspace, None, 5);
    explicit_null.payload["created_by"] = json!(null);
    let positions = env
        .insert(&[
            old.clone(),
            by_owner.clone(),
            by_operator.clone(),
            by_operator_again.clone(),
            elsewhere,
            explicit_null.clone(),
        ])
        .await;
    env.wait_for_projection(qrcodes::NAME, positions[positions.len() - 1])
        .await;

    let id = |event: &NewEvent| Uuid::parse_str(&event.stream_id).unwrap();
    let ids =
        |views: Vec<qrcodes::QrCodeView>| views.iter().map(|v| v.qrcode_id).collect::<Vec<_>>();

    let old_view = qrcodes::find(&env.pool, id(&old)).await.unwrap().unwrap();
    assert_eq!(
        old_view.created_by, None,
        "events without the field read as no creator"
    );
    let mine = qrcodes::find(&env.pool, id(&by_operator))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(mine.created_by.as_deref(), Some(operator.as_str()));

    assert_eq!(
        ids(qrcodes::list_by_owner(&env.pool, workspace, None, 10)
            .await
            .unwrap()),
        vec![
            id(&explicit_null),
            id(&by_operator_again),
            id(&by_operator),
            id(&by_owner),
            id(&old)
        ],
        "no filter: every code of the workspace, newest first"
    );
    assert_eq!(
        ids(
            qrcodes::list_by_owner(&env.pool, workspace, Some(&operator), 10)
                .await
                .unwrap()
        ),
        vec![id(&by_operator_again), id(&by_operator)],
        "only the operator's codes, and only in this workspace"
    );
    assert_eq!(
        ids(
            qrcodes::list_by_owner(&env.pool, workspace, Some(&owner), 10)
                .await
                .unwrap()
        ),
        vec![id(&by_owner)]
    );
    assert!(
        qrcodes::list_by_owner(&env.pool, workspace, Some("ninguem"), 10)
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        ids(
            qrcodes::list_by_owner(&env.pool, workspace, Some(&operator), 1)
                .await
                .unwrap()
        ),
        vec![id(&by_operator_again)],
        "the limit still applies"
    );

    shutdown.cancel();
    relay.await.unwrap().unwrap();
    projector.await.unwrap().unwrap();
}
