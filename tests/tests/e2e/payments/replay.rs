//! A replay of `payments` and `daily_totals` equals the live read models.

use reqwest::StatusCode;
use serde_json::json;
use tests::TestApp;

use super::support::{
    code_with_txid, delivery, entry, post_delivery, read_models, register_key, spec_example,
    turn_on, wait_for_payments,
};
use crate::workspace::support::{Person, sign_up};

#[tokio::test]
async fn a_replay_of_payments_and_daily_totals_equals_the_live_ones() {
    let app = TestApp::spawn().await;
    let db = app.db().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona da Padaria").await;
    let account = owner.account_id.clone();
    let key_id = register_key(&db, &account).await;
    code_with_txid(
        &db,
        &mut owner,
        &account,
        "c3e0e7a4e7f1469a9f782d3d4999343c",
    )
    .await;
    let url = turn_on(&mut owner, key_id).await;
    // Bank deliveries (one carrying a refund, then the refund settled), a typed-in payment that
    // the bank later confirms, and one that is voided.
    let typed = owner
        .post(
            &Person::in_account(&account, "/payments"),
            &json!({"amount": "100,00", "endToEndId": "E87654321202009091221dfghi123456"}),
        )
        .await;
    assert_eq!(typed.status, StatusCode::CREATED, "{}", typed.text);
    let voided = owner
        .post(
            &Person::in_account(&account, "/payments"),
            &json!({"amount": "3,00"}),
        )
        .await;
    let reference = voided.json["reference"]
        .as_str()
        .expect("reference")
        .to_owned();
    let void = owner
        .post(
            &Person::in_account(&account, &format!("/payments/{reference}/void")),
            &json!({"reason": "teste"}),
        )
        .await;
    assert_eq!(void.status, StatusCode::OK, "{}", void.text);
    let mut entries: Vec<_> = (0..20).map(entry).collect();
    entries.push(spec_example("pixWebhook1"));
    entries.push(spec_example("pixWebhook2"));
    let (status, answer) = post_delivery(&app, &url, delivery(entries), None).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let mut settled = spec_example("pixWebhook1");
    settled["devolucoes"]["status"] = json!("DEVOLVIDO");
    settled["devolucoes"]["horario"]["liquidacao"] = json!("2026-09-09T21:00:00Z");
    let (status, _) = post_delivery(&app, &url, delivery(vec![settled]), None).await;
    assert_eq!(status, StatusCode::OK);
    // 20 entries, pixWebhook1, and pixWebhook2 confirming the typed one; the voided one: 23.
    wait_for_payments(&db, 23).await;
    let live = tests::eventually("the settled refund in the read model", async || {
        let models = read_models(&db).await;
        models
            .0
            .iter()
            .any(|row| row.contains("\"refunded_centavos\":1000"))
            .then_some(models)
    })
    .await;
    assert!(live.1.len() >= 2, "per code and sem QR code: {:?}", live.1);

    gateway::roles::replay(&app.settings, &["payments".to_owned()], false)
        .await
        .expect("the replay runs");
    let replayed = read_models(&db).await;
    assert_eq!(replayed, live);
    app.stop().await;
}
