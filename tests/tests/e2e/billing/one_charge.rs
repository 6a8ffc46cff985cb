//! One purchase, one charge at the provider (issue 31, `Idempotency-Key` on every creating
//! POST): an upgrade retried with its key is answered its first charge without calling Asaas
//! again, and upgrades raced from several tabs open one payable charge, the others deleted at
//! Asaas before anyone saw their code.

use reqwest::StatusCode;
use serde_json::json;
use tests::browser::Browser;

use super::asaas::asaas_app;
use super::fake_asaas::FakeAsaas;
use super::support::{CPF, subscription};
use crate::workspace::support::sign_up;

fn opened_at_asaas(fake: &FakeAsaas) -> usize {
    fake.seen()
        .iter()
        .filter(|s| s.method == "POST" && s.uri == "/v3/payments")
        .count()
}

#[tokio::test]
async fn an_upgrade_retried_with_its_idempotency_key_opens_one_charge_and_refuses_other_values() {
    let fake = FakeAsaas::start().await;
    let app = asaas_app(&fake).await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let path = subscription(&owner, "/upgrade");
    let body = json!({"plan": "premium-mensal", "payerName": "Dona da Padaria", "document": CPF});
    owner
        .browser
        .set_header("idempotency-key", "assinar-premium-1");

    let first = owner.post(&path, &body).await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text);
    assert_eq!(first.header("idempotent-replayed"), None);
    let again = owner.post(&path, &body).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text);
    assert_eq!(again.header("idempotent-replayed"), Some("true"));
    assert_eq!(again.json["chargeId"], first.json["chargeId"]);
    assert_eq!(opened_at_asaas(&fake), 1, "a retry never reaches Asaas");

    let yearly = json!({"plan": "premium-anual", "payerName": "Dona da Padaria", "document": CPF});
    let other = owner.post(&path, &yearly).await;
    assert_eq!(other.status, StatusCode::CONFLICT, "{}", other.text);
    assert_eq!(other.code(), "idempotency-key-reused", "{}", other.text);
    assert_eq!(opened_at_asaas(&fake), 1, "nothing opened for a reused key");

    let shown = owner.get(&subscription(&owner, "")).await;
    assert_eq!(
        shown.json["charges"].as_array().map(Vec::len),
        Some(1),
        "{}",
        shown.text
    );
    app.stop().await;
}

#[tokio::test]
async fn upgrades_raced_from_four_tabs_leave_one_payable_charge_and_delete_the_others_at_asaas() {
    let fake = FakeAsaas::start().await;
    let app = asaas_app(&fake).await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let path = subscription(&owner, "/upgrade");
    let body = json!({"plan": "premium-mensal", "payerName": "Dona da Padaria", "document": CPF});
    let tabs = (0..4).map(|_| {
        let mut tab = Browser::new(&app);
        tab.access_token.clone_from(&owner.browser.access_token);
        let (path, body) = (path.clone(), body.clone());
        async move { tab.post_json(&path, &body).await }
    });
    let answers = futures::future::join_all(tabs).await;

    let mut charges: Vec<String> = Vec::new();
    for answer in &answers {
        assert!(
            matches!(answer.status, StatusCode::CREATED | StatusCode::OK),
            "{}",
            answer.text
        );
        charges.push(
            answer.json["chargeId"]
                .as_str()
                .expect("chargeId")
                .to_owned(),
        );
    }
    charges.sort();
    charges.dedup();
    assert_eq!(charges.len(), 1, "every tab is sent to the same charge");
    let created = answers
        .iter()
        .filter(|a| a.status == StatusCode::CREATED)
        .count();
    assert_eq!(created, 1, "one tab opened it, the others were handed it");

    let shown = owner.get(&subscription(&owner, "")).await;
    let listed = shown.json["charges"].as_array().expect("charges");
    assert_eq!(listed.len(), 1, "{}", shown.text);
    assert_eq!(listed[0]["id"], charges[0].as_str());
    assert_eq!(listed[0]["status"], "open");
    // Each tab that lost the race after opening its own charge deleted it at Asaas.
    let deleted = fake.seen().iter().filter(|s| s.method == "DELETE").count();
    assert_eq!(deleted, opened_at_asaas(&fake) - 1);
    app.stop().await;
}
