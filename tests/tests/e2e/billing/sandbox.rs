//! The built-in sandbox provider, end to end through the API: upgrade, the Pix shown, "Simular
//! pagamento", Premium on at once, cancel at the end of the period; who may do it.

use reqwest::StatusCode;
use serde_json::json;
use tests::TestApp;

use super::support::{CPF, go_premium, sandbox_app, subscription, upgrade};
use crate::workspace::support::{join, sign_up};

#[tokio::test]
async fn the_plans_are_public_with_their_prices_in_centavos_and_their_limits() {
    let app = sandbox_app().await;
    let mut someone = tests::browser::Browser::new(&app);
    let plans = someone.get("/api/plans").await;
    assert_eq!(plans.status, StatusCode::OK, "{}", plans.text);
    let list = plans.json["plans"].as_array().expect("plans");
    let summary: Vec<(&str, i64, i64)> = list
        .iter()
        .map(|p| {
            (
                p["id"].as_str().unwrap_or_default(),
                p["priceCentavos"].as_i64().unwrap_or(-1),
                p["limits"]["pixKeys"].as_i64().unwrap_or(-1),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("gratis", 0, 10),
            ("premium-mensal", 1_990, 50),
            ("premium-anual", 19_900, 50)
        ]
    );
    app.stop().await;
}

#[tokio::test]
async fn a_free_account_upgrades_pays_with_simular_pagamento_and_is_premium_at_once() {
    let app = sandbox_app().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let before = owner.get(&subscription(&owner, "")).await;
    assert_eq!(before.status, StatusCode::OK, "{}", before.text);
    assert_eq!(before.json["plan"]["id"], "gratis");
    assert_eq!(before.json["status"], "gratis");
    assert_eq!(before.json["sandbox"], true);

    // Bad input: pt-BR messages under their fields, nothing written.
    let path = subscription(&owner, "/upgrade");
    for (body, field) in [
        (
            json!({"plan": "gratis", "payerName": "Dona", "document": CPF}),
            "plan",
        ),
        (
            json!({"plan": "premium-mensal", "payerName": "Dona", "document": "111.111.111-12"}),
            "document",
        ),
        (
            json!({"plan": "premium-mensal", "payerName": "", "document": CPF}),
            "payerName",
        ),
    ] {
        let refused = owner.post(&path, &body).await;
        assert_eq!(
            refused.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            refused.text
        );
        assert_eq!(refused.field(), Some(field), "{}", refused.text);
    }
    let events = "select count(*) from events where stream_type = 'subscription'";
    let db = app.db().await;
    let count = async || -> i64 {
        sqlx::query_scalar(events)
            .fetch_one(&db)
            .await
            .expect("count")
    };
    assert_eq!(count().await, 0);

    let charge = upgrade(&mut owner, "premium-mensal").await;
    // A second click while that Pix is payable gets the same charge.
    let again = owner
        .post(
            &path,
            &json!({"plan": "premium-mensal", "payerName": "Dona da Padaria", "document": CPF}),
        )
        .await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text);
    assert_eq!(again.json["chargeId"], charge.as_str());
    let shown = owner
        .get(&subscription(&owner, &format!("/charges/{charge}")))
        .await;
    assert_eq!(shown.status, StatusCode::OK, "{}", shown.text);
    assert_eq!(shown.json["charge"]["status"], "open");
    assert_eq!(shown.json["charge"]["amountCentavos"], 1_990);
    let payload = shown.json["charge"]["pixPayload"]
        .as_str()
        .expect("payload");
    assert!(
        domain::brcode::validate_strict(payload).is_ok(),
        "{payload}"
    );
    assert!(
        shown.json["charge"]["qrSvg"]
            .as_str()
            .unwrap_or_default()
            .starts_with("<svg")
    );
    assert_eq!(
        shown.json["plan"]["id"], "gratis",
        "nothing unlocked before the payment"
    );

    let now = go_premium_after(&mut owner, &charge).await;
    assert_eq!(now["status"], "active");
    assert!(now["activeUntil"].as_str().is_some(), "{now}");
    assert_eq!(now["charges"][0]["status"], "paid");
    let twice = owner
        .post(
            &subscription(&owner, &format!("/charges/{charge}/simulate")),
            &json!({}),
        )
        .await;
    assert_eq!(
        twice.status,
        StatusCode::OK,
        "a payment confirmed twice: {}",
        twice.text
    );
    assert_eq!(
        count().await,
        3,
        "CheckoutStarted, ChargePaid, PremiumActivated; the repeat adds nothing"
    );

    let already = owner
        .post(
            &path,
            &json!({"plan": "premium-anual", "payerName": "Dona da Padaria", "document": CPF}),
        )
        .await;
    assert_eq!(already.status, StatusCode::CONFLICT, "{}", already.text);
    assert_eq!(already.code(), "already-premium");

    let cancelled = owner
        .post(&subscription(&owner, "/cancel"), &json!({}))
        .await;
    assert_eq!(cancelled.status, StatusCode::OK, "{}", cancelled.text);
    assert_eq!(cancelled.json["status"], "cancelling");
    assert_eq!(
        cancelled.json["plan"]["id"], "premium-mensal",
        "Premium stays to the end of the period"
    );
    let twice = owner
        .post(&subscription(&owner, "/cancel"), &json!({}))
        .await;
    assert_eq!(twice.status, StatusCode::CONFLICT, "{}", twice.text);
    assert_eq!(twice.code(), "subscription-already-cancelled");
    app.stop().await;
}

async fn go_premium_after(
    owner: &mut crate::workspace::support::Person,
    charge: &str,
) -> serde_json::Value {
    let paid = owner
        .post(
            &subscription(owner, &format!("/charges/{charge}/simulate")),
            &json!({}),
        )
        .await;
    assert_eq!(paid.status, StatusCode::OK, "{}", paid.text);
    assert_eq!(paid.json["charge"]["status"], "paid");
    assert_eq!(paid.json["plan"]["id"], "premium-mensal");
    owner.get(&subscription(owner, "")).await.json
}

#[tokio::test]
async fn only_the_owner_sees_and_changes_the_subscription() {
    let app = sandbox_app().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let (mut manager, _) = join(
        &app,
        &mut owner,
        "gerente@padaria.test",
        "Gerente",
        "manager",
    )
    .await;
    let mut stranger = sign_up(&app, "outra@loja.test", "Outra").await;
    let path = subscription(&owner, "");
    assert_eq!(manager.get(&path).await.status, StatusCode::FORBIDDEN);
    assert_eq!(stranger.get(&path).await.status, StatusCode::NOT_FOUND);
    let upgrade_path = subscription(&owner, "/upgrade");
    let body = json!({"plan": "premium-mensal", "payerName": "Gerente", "document": CPF});
    assert_eq!(
        manager.post(&upgrade_path, &body).await.status,
        StatusCode::FORBIDDEN
    );
    go_premium(&mut owner).await;
    app.stop().await;
}

#[tokio::test]
async fn without_an_asaas_key_or_the_sandbox_an_upgrade_answers_503_and_makes_nothing() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let refused = owner
        .post(
            &subscription(&owner, "/upgrade"),
            &json!({"plan": "premium-mensal", "payerName": "Dona", "document": CPF}),
        )
        .await;
    assert_eq!(
        refused.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{}",
        refused.text
    );
    let simulate = owner
        .post(
            &subscription(
                &owner,
                &format!("/charges/{}/simulate", uuid::Uuid::now_v7()),
            ),
            &json!({}),
        )
        .await;
    assert_eq!(simulate.status, StatusCode::NOT_FOUND);
    app.stop().await;
}
