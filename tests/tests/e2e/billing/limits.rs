//! Each limited action at the API: a free account is refused with 402 `plan-limit-reached` one
//! past its plan's number, nothing is made, and after paying Premium the same request passes.

use futures::future::join_all;
use reqwest::StatusCode;
use serde_json::json;
use tests::TestApp;

use super::support::{assert_plan_limit, go_premium, sandbox_app};
use crate::workspace::support::{Person, invite, qrcode_body, sign_up};

async fn count(app: &TestApp, sql: &'static str) -> i64 {
    sqlx::query_scalar(sql)
        .fetch_one(&app.db().await)
        .await
        .expect("count")
}

fn key(n: usize) -> serde_json::Value {
    json!({"pixKey": format!("loja{n}@padaria.test"), "holderName": "Padaria Sao Joao", "label": format!("Caixa {n}")})
}

#[tokio::test]
async fn a_free_account_registers_ten_keys_the_eleventh_answers_402_and_premium_lifts_the_limit() {
    let app = sandbox_app().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let keys = Person::in_account(&owner.account_id, "/keys");
    for n in 1..=10 {
        let made = owner.post(&keys, &key(n)).await;
        assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    }
    let refused = owner.post(&keys, &key(11)).await;
    assert_plan_limit(&refused, "até 10 chaves Pix");
    assert_eq!(
        count(
            &app,
            "select count(*) from events where event_type = 'PixKeyRegistered'"
        )
        .await,
        10,
        "nothing made"
    );
    go_premium(&mut owner).await;
    let made = owner.post(&keys, &key(11)).await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    app.stop().await;
}

#[tokio::test]
async fn a_free_account_makes_a_hundred_qr_codes_a_month_and_a_batch_past_that_is_refused_whole() {
    let app = sandbox_app().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let codes = Person::in_account(&owner.account_id, "/qrcodes");
    let batch = json!({"pixKey": "loja@padaria.test", "merchantName": "Padaria", "merchantCity": "Recife", "prefix": "MESA", "count": 98});
    let made = owner.post(&format!("{codes}/lote"), &batch).await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    // Two more fit; a batch of three would pass 100 and makes nothing.
    let mut three = batch.clone();
    three["count"] = json!(3);
    let refused = owner.post(&format!("{codes}/lote"), &three).await;
    assert_plan_limit(&refused, "100 QR codes por mês");
    for _ in 0..2 {
        let one = owner.post(&codes, &qrcode_body("Padaria")).await;
        assert_eq!(one.status, StatusCode::CREATED, "{}", one.text);
    }
    let refused = owner.post(&codes, &qrcode_body("Padaria")).await;
    assert_plan_limit(&refused, "100 QR codes por mês");
    let streams = "select count(distinct stream_id) from events where stream_type = 'qrcode'";
    assert_eq!(count(&app, streams).await, 100);
    go_premium(&mut owner).await;
    let one = owner.post(&codes, &qrcode_body("Padaria")).await;
    assert_eq!(one.status, StatusCode::CREATED, "{}", one.text);
    app.stop().await;
}

#[tokio::test]
async fn a_free_account_invites_five_people_and_the_sixth_invitation_answers_402() {
    let app = sandbox_app().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    for n in 1..=5 {
        let invited = invite(&mut owner, &format!("caixa{n}@padaria.test"), "operator").await;
        assert_eq!(invited.status, StatusCode::CREATED, "{}", invited.text);
    }
    let refused = invite(&mut owner, "caixa6@padaria.test", "operator").await;
    assert_plan_limit(&refused, "até 5 pessoas na equipe");
    assert_eq!(
        count(
            &app,
            "select count(*) from events where event_type = 'MemberInvited'"
        )
        .await,
        5
    );
    go_premium(&mut owner).await;
    let invited = invite(&mut owner, "caixa6@padaria.test", "operator").await;
    assert_eq!(invited.status, StatusCode::CREATED, "{}", invited.text);
    app.stop().await;
}

#[tokio::test]
async fn an_owner_whose_team_is_full_inviting_herself_hears_she_cannot_invite_herself_not_the_plan()
{
    let app = sandbox_app().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    for n in 1..=5 {
        let invited = invite(&mut owner, &format!("caixa{n}@padaria.test"), "operator").await;
        assert_eq!(invited.status, StatusCode::CREATED, "{}", invited.text);
    }
    let herself = invite(&mut owner, "Dona@Padaria.test", "manager").await;
    assert_eq!(
        herself.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        herself.text
    );
    assert_eq!(herself.code(), "cannot-invite-self", "{}", herself.text);
    // Anyone else is still told about the plan.
    let other = invite(&mut owner, "caixa6@padaria.test", "operator").await;
    assert_plan_limit(&other, "até 5 pessoas na equipe");
    app.stop().await;
}

#[tokio::test]
async fn a_free_account_turns_on_one_api_pix_webhook_and_a_second_answers_402() {
    let app = sandbox_app().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let keys = Person::in_account(&owner.account_id, "/keys");
    let mut ids = Vec::new();
    for n in 1..=2 {
        let made = owner.post(&keys, &key(n)).await;
        assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
        ids.push(made.json["id"].as_str().expect("id").to_owned());
    }
    let receiver =
        |id: &str| Person::in_account(&owner.account_id, &format!("/api-pix-receivers/{id}"));
    let (first, second) = (receiver(&ids[0]), receiver(&ids[1]));
    let on = owner.post(&first, &json!({})).await;
    assert_eq!(on.status, StatusCode::CREATED, "{}", on.text);
    let refused = owner.post(&second, &json!({})).await;
    assert_plan_limit(&refused, "webhook API Pix");
    assert_eq!(
        count(&app, "select count(*) from api_pix_receivers").await,
        1
    );
    go_premium(&mut owner).await;
    let on = owner.post(&second, &json!({})).await;
    assert_eq!(on.status, StatusCode::CREATED, "{}", on.text);
    app.stop().await;
}

/// `count` requests `POST path` with `bodies` sent at the same instant, with `owner`'s token;
/// answers their statuses.
async fn at_once(
    app: &TestApp,
    owner: &Person,
    path: &str,
    bodies: Vec<serde_json::Value>,
) -> Vec<StatusCode> {
    let token = owner.browser.access_token.clone().expect("signed in");
    let start = std::sync::Arc::new(tokio::sync::Barrier::new(bodies.len()));
    let requests = bodies.into_iter().map(|body| {
        let request = app
            .client()
            .post(app.url(path))
            .bearer_auth(&token)
            .json(&body);
        let start = start.clone();
        async move {
            start.wait().await;
            request.send().await.expect("the gateway answers").status()
        }
    });
    join_all(requests).await
}

fn passed_and_refused(statuses: &[StatusCode]) -> (usize, usize) {
    (
        statuses
            .iter()
            .filter(|s| **s == StatusCode::CREATED)
            .count(),
        statuses
            .iter()
            .filter(|s| **s == StatusCode::PAYMENT_REQUIRED)
            .count(),
    )
}

#[tokio::test]
async fn requests_racing_for_the_hundredth_qr_code_of_the_month_let_exactly_one_through() {
    let app = sandbox_app().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let codes = Person::in_account(&owner.account_id, "/qrcodes");
    let batch = json!({"pixKey": "loja@padaria.test", "merchantName": "Padaria", "merchantCity": "Recife", "prefix": "MESA", "count": 99});
    let made = owner.post(&format!("{codes}/lote"), &batch).await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);

    let statuses = at_once(&app, &owner, &codes, vec![qrcode_body("Padaria"); 4]).await;
    assert_eq!(passed_and_refused(&statuses), (1, 3), "{statuses:?}");
    let streams = "select count(distinct stream_id) from events where stream_type = 'qrcode'";
    assert_eq!(count(&app, streams).await, 100);
    app.stop().await;
}

#[tokio::test]
async fn registrations_racing_for_the_last_key_of_the_plan_let_exactly_one_through() {
    let app = sandbox_app().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let keys = Person::in_account(&owner.account_id, "/keys");
    for n in 1..=9 {
        let made = owner.post(&keys, &key(n)).await;
        assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    }
    let statuses = at_once(&app, &owner, &keys, (10..=13).map(key).collect()).await;
    assert_eq!(passed_and_refused(&statuses), (1, 3), "{statuses:?}");
    let registered = "select count(*) from events where stream_type = 'pix_keys' and event_type = 'PixKeyRegistered'";
    assert_eq!(count(&app, registered).await, 10);
    app.stop().await;
}

#[tokio::test]
async fn invitations_racing_for_the_last_place_in_the_team_let_exactly_one_through() {
    let app = sandbox_app().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    for n in 1..=4 {
        let invited = invite(&mut owner, &format!("caixa{n}@padaria.test"), "operator").await;
        assert_eq!(invited.status, StatusCode::CREATED, "{}", invited.text);
    }
    let members = Person::in_account(&owner.account_id, "/members");
    let bodies = (5..=8)
        .map(|n| json!({"email": format!("caixa{n}@padaria.test"), "role": "operator"}))
        .collect();
    let statuses = at_once(&app, &owner, &members, bodies).await;
    assert_eq!(passed_and_refused(&statuses), (1, 3), "{statuses:?}");
    let invited = "select count(*) from events where event_type = 'MemberInvited'";
    assert_eq!(count(&app, invited).await, 5);
    app.stop().await;
}

#[tokio::test]
async fn receivers_racing_for_the_plans_one_api_pix_webhook_let_exactly_one_through() {
    let app = sandbox_app().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let keys = Person::in_account(&owner.account_id, "/keys");
    let mut paths = Vec::new();
    for n in 1..=4 {
        let made = owner.post(&keys, &key(n)).await;
        assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
        let id = made.json["id"].as_str().expect("id");
        paths.push(Person::in_account(
            &owner.account_id,
            &format!("/api-pix-receivers/{id}"),
        ));
    }
    let token = owner.browser.access_token.clone().expect("signed in");
    let start = std::sync::Arc::new(tokio::sync::Barrier::new(paths.len()));
    let statuses = join_all(paths.iter().map(|path| {
        let request = app
            .client()
            .post(app.url(path))
            .bearer_auth(&token)
            .json(&json!({}));
        let start = start.clone();
        async move {
            start.wait().await;
            request.send().await.expect("the gateway answers").status()
        }
    }))
    .await;
    assert_eq!(passed_and_refused(&statuses), (1, 3), "{statuses:?}");
    let live = "select count(*) from api_pix_receivers where revoked_at is null";
    assert_eq!(count(&app, live).await, 1);
    app.stop().await;
}

#[tokio::test]
async fn with_the_projector_stopped_the_hundredth_code_of_the_month_is_still_the_last() {
    use gateway::roles::Roles;
    use std::time::Duration;

    let app = TestApp::spawn_roles(
        Roles {
            serve: true,
            relay: true,
            ..Roles::default()
        },
        |_| {},
    )
    .await;
    // The account needs its read model once (every API call checks it), then the projector
    // goes away: nothing the shop makes from here on reaches the read models.
    let projector = app
        .start_roles(Roles {
            project: true,
            ..Roles::default()
        })
        .await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let codes = Person::in_account(&owner.account_id, "/qrcodes");
    tests::eventually_within(
        Duration::from_secs(30),
        "the account's read model",
        async || (owner.get(&codes).await.status == StatusCode::OK).then_some(()),
    )
    .await;
    projector.stop().await.expect("the projector stops cleanly");

    let batch = json!({"pixKey": "loja@padaria.test", "merchantName": "Padaria", "merchantCity": "Recife", "prefix": "MESA", "count": 99});
    let made = owner.post(&format!("{codes}/lote"), &batch).await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    let one = owner.post(&codes, &qrcode_body("Padaria")).await;
    assert_eq!(one.status, StatusCode::CREATED, "{}", one.text);
    let refused = owner.post(&codes, &qrcode_body("Padaria")).await;
    assert_plan_limit(&refused, "100 QR codes por mês");
    let subscription = owner
        .get(&Person::in_account(&owner.account_id, "/subscription"))
        .await;
    assert_eq!(
        subscription.json["usage"]["qrcodesThisMonth"], 100,
        "{}",
        subscription.text
    );
    let listed = owner.get(&codes).await;
    assert_eq!(
        listed.json["qrcodes"].as_array().map(Vec::len),
        Some(0),
        "the read model has none of them"
    );
    app.stop().await;
}
