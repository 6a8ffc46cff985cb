//! The workspace a creation is aimed at (issue 10, item 3): an operator who works in the owner's
//! account creates there, never in their own by accident; a creation aimed at an account the
//! caller is not in is refused, not redirected; and the account's own defaults are what a
//! member who switches to it gets.

use reqwest::StatusCode;
use serde_json::json;
use tests::TestApp;

use crate::workspace::support::{Person, join, qrcode_body, sign_up};

#[tokio::test]
async fn an_operator_creates_in_the_account_the_request_names_and_is_refused_elsewhere() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let (mut operator, _) = join(&app, &mut owner, "caixa@padaria.test", "Caixa", "operator").await;
    let mut stranger = sign_up(&app, "vizinho@outra.test", "Vizinho").await;
    let in_owner = Person::in_account(&owner.account_id, "/qrcodes");
    let in_own = Person::in_account(&operator.account_id, "/qrcodes");
    let in_stranger = Person::in_account(&stranger.account_id, "/qrcodes");

    // The operator's session after a reload is a new token from the refresh cookie: still the
    // operator, still creating where the request says.
    let refreshed = operator.browser.refresh().await;
    assert_eq!(refreshed.status, StatusCode::OK, "{}", refreshed.text);
    let made = operator.post(&in_owner, &qrcode_body("Padaria")).await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    let id = made.json["id"].as_str().expect("id").to_owned();
    assert_eq!(made.json["createdBy"], operator.account_id.as_str());

    let owners = owner.get(&in_owner).await;
    assert_eq!(
        owners.json["qrcodes"][0]["id"],
        id.as_str(),
        "in the owner's account"
    );
    let own = operator.get(&in_own).await;
    assert_eq!(
        own.json,
        json!({"qrcodes": []}),
        "nothing in the operator's own account"
    );

    // Aimed at an account the operator is not in: refused, and nothing is made anywhere.
    let refused = operator.post(&in_stranger, &qrcode_body("Padaria")).await;
    assert_eq!(refused.status, StatusCode::NOT_FOUND, "{}", refused.text);
    assert_eq!(refused.code(), "not-found");
    assert_eq!(
        stranger.get(&in_stranger).await.json,
        json!({"qrcodes": []})
    );
    assert_eq!(operator.get(&in_own).await.json, json!({"qrcodes": []}));
    assert_eq!(
        owner.get(&in_owner).await.json["qrcodes"]
            .as_array()
            .map(Vec::len),
        Some(1)
    );
    // The same for keys.
    let key = operator
        .post(
            &Person::in_account(&stranger.account_id, "/keys"),
            &json!({"pixKey": "loja@padaria.test", "holderName": "Padaria"}),
        )
        .await;
    assert_eq!(key.status, StatusCode::NOT_FOUND, "{}", key.text);
    app.stop().await;
}

#[tokio::test]
async fn a_member_gets_the_defaults_of_each_account_they_work_in() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let settings = owner
        .patch(
            "/api/account/settings",
            &json!({"defaultMerchantName": "Padaria Sol", "defaultMerchantCity": "Natal"}),
        )
        .await;
    assert_eq!(settings.status, StatusCode::OK, "{}", settings.text);
    let (mut operator, _) = join(&app, &mut owner, "caixa@padaria.test", "Caixa", "operator").await;
    let workspaces = operator.get("/api/workspaces").await;
    assert_eq!(workspaces.status, StatusCode::OK, "{}", workspaces.text);
    let list = workspaces.json["workspaces"].as_array().expect("list");
    assert_eq!(list.len(), 2);
    assert_eq!(list[0]["role"], "owner");
    assert_eq!(list[0]["defaultMerchantName"], serde_json::Value::Null);
    assert_eq!(list[1]["accountId"], owner.account_id.as_str());
    assert_eq!(list[1]["defaultMerchantName"], "PADARIA SOL");
    assert_eq!(list[1]["defaultMerchantCity"], "NATAL");
    app.stop().await;
}
