//! The API Pix receiver, fed the spec's own examples: a valid delivery is recorded whole and
//! once; anything wrong writes nothing and gets its status.

use futures::future::join_all;
use reqwest::StatusCode;
use serde_json::json;
use tests::TestApp;

use super::support::{
    CODE_TXID, code_with_txid, delivery, entry, payment_events, post_delivery, register_key,
    spec_example, turn_on, wait_for_payments,
};
use crate::billing::support::{go_premium, sandbox_app};
use crate::workspace::support::{Person, sign_up};

/// An owner with a key, a code whose txid is `pixWebhook1`'s, and the receiver turned on.
async fn owner_with_receiver(app: &TestApp) -> (Person, String, String) {
    let mut owner = sign_up(app, "dona@padaria.test", "Dona da Padaria").await;
    let account = owner.account_id.clone();
    let key_id = register_key(&mut owner).await;
    let code = code_with_txid(&mut owner, &account, CODE_TXID).await;
    let url = turn_on(&mut owner, key_id).await;
    (owner, code, url)
}

#[tokio::test]
async fn the_specs_two_examples_are_recorded_matched_by_txid_with_the_refund_and_the_sealed_payer()
{
    let app = sandbox_app().await;
    let db = app.db().await;
    let (mut owner, code, url) = owner_with_receiver(&app).await;
    // The spec's examples are dated 2026-09-09: Grátis lists only the last 90 days, Premium all.
    go_premium(&mut owner).await;
    let body = delivery(vec![
        spec_example("pixWebhook1"),
        spec_example("pixWebhook2"),
    ]);
    let (status, answer) = post_delivery(&app, &url, body, None).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["recebidos"], 2);
    wait_for_payments(&db, 2).await;

    let list = owner
        .get(&Person::in_account(&owner.account_id, "/payments"))
        .await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.text);
    let payments = list.json["payments"].as_array().expect("a list");
    let first = payments
        .iter()
        .find(|p| p["endToEndId"] == "E12345678202009091221kkkkkkkkkkk")
        .expect("pixWebhook1");
    assert_eq!(first["amountCentavos"], 11_000);
    assert_eq!(first["qrcodeId"], code.as_str());
    assert_eq!(first["source"], "api-pix");
    assert_eq!(
        first["day"], "2026-09-09",
        "20:15 UTC is 17:15 in São Paulo"
    );
    assert_eq!(first["refunds"][0]["status"], "EM_PROCESSAMENTO");
    assert_eq!(first["refunds"][0]["amountCentavos"], 1_000);
    assert_eq!(first["payer"]["info"], "0123456789", "opened for the owner");
    let second = payments
        .iter()
        .find(|p| p["endToEndId"] == "E87654321202009091221dfghi123456")
        .expect("pixWebhook2");
    assert_eq!(second["qrcodeId"], serde_json::Value::Null);
    assert_eq!(second["code"], "sem QR code");
    // The payer's text is sealed in the log: not readable there.
    let stored: String = sqlx::query_scalar(
        "select payload->>'payer_info' from events where event_type = 'PaymentRecorded' limit 1",
    )
    .fetch_one(&db)
    .await
    .expect("an event");
    assert!(stored.starts_with("v1."), "{stored}");
    assert!(!stored.contains("0123456789"));
    app.stop().await;
}

#[tokio::test]
async fn a_hundred_simultaneous_deliveries_of_one_entry_record_exactly_one_payment() {
    let app = TestApp::spawn().await;
    let db = app.db().await;
    let (_owner, _, url) = owner_with_receiver(&app).await;
    let answers = join_all((0..100).map(|_| {
        let body = delivery(vec![spec_example("pixWebhook1")]);
        post_delivery(&app, &url, body, None)
    }))
    .await;
    for (status, answer) in &answers {
        assert_eq!(*status, StatusCode::OK, "{answer}");
    }
    let new: i64 = answers
        .iter()
        .map(|(_, a)| a["novos"].as_i64().unwrap_or_default())
        .sum();
    assert_eq!(new, 2, "one PaymentRecorded and one PaymentRefunded in all");
    assert_eq!(payment_events(&db).await, 2);
    wait_for_payments(&db, 1).await;
    let totals: (i64, i64) = sqlx::query_as(
        "select sum(payments)::bigint, sum(received_centavos)::bigint from daily_totals",
    )
    .fetch_one(&db)
    .await
    .expect("totals");
    assert_eq!(totals, (1, 11_000));
    app.stop().await;
}

#[tokio::test]
async fn a_batch_of_fifty_with_one_malformed_entry_is_refused_whole_and_writes_nothing() {
    let app = TestApp::spawn().await;
    let db = app.db().await;
    let (_owner, _, url) = owner_with_receiver(&app).await;
    let mut entries: Vec<_> = (0..50).map(entry).collect();
    entries[37]["valor"] = json!("110.5");
    let (status, answer) = post_delivery(&app, &url, delivery(entries.clone()), None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    assert_eq!(answer["violacoes"][0]["propriedade"], "pix[37].valor");
    assert_eq!(answer["status"], 400);
    assert_eq!(payment_events(&db).await, 0);
    // The same fifty, all valid, go in together.
    entries[37]["valor"] = json!("110.50");
    let (status, answer) = post_delivery(&app, &url, delivery(entries), None).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(payment_events(&db).await, 50);
    wait_for_payments(&db, 50).await;
    app.stop().await;
}

#[tokio::test]
async fn a_delivery_for_another_key_is_refused_whole() {
    let app = TestApp::spawn().await;
    let db = app.db().await;
    let (_owner, _, url) = owner_with_receiver(&app).await;
    let mut other = entry(1);
    other["chave"] = json!("outra@loja.test");
    let mut ours = entry(2);
    ours["chave"] = json!("Loja@Padaria.test");
    let (status, answer) = post_delivery(&app, &url, delivery(vec![ours, other]), None).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{answer}");
    assert_eq!(answer["violacoes"][0]["propriedade"], "pix[1].chave");
    assert_eq!(payment_events(&db).await, 0);
    app.stop().await;
}

#[tokio::test]
async fn unknown_rotated_and_revoked_tokens_answer_404_and_write_nothing() {
    let app = TestApp::spawn().await;
    let db = app.db().await;
    let (mut owner, _, url) = owner_with_receiver(&app).await;
    let body = || delivery(vec![spec_example("pixWebhook2")]);
    let unknown = format!("{}x", url.trim_end_matches('/'));
    let (status, _) = post_delivery(&app, &unknown, body(), None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    let key_id: uuid::Uuid = sqlx::query_scalar("select key_id from pix_keys limit 1")
        .fetch_one(&db)
        .await
        .expect("the key");
    let path = Person::in_account(&owner.account_id, &format!("/api-pix-receivers/{key_id}"));
    let rotated = owner.post(&format!("{path}/rotate"), &json!({})).await;
    assert_eq!(rotated.status, StatusCode::OK, "{}", rotated.text);
    let new_url = rotated.json["url"].as_str().expect("url").to_owned();
    assert_ne!(new_url, url);
    let (status, _) = post_delivery(&app, &url, body(), None).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "the old URL stops at once");

    let off = owner.delete(&path).await;
    assert_eq!(off.status, StatusCode::NO_CONTENT, "{}", off.text);
    let (status, answer) = post_delivery(&app, &new_url, body(), None).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{answer}");
    assert_eq!(answer["status"], 404);
    assert_eq!(payment_events(&db).await, 0);
    // Only the digest of a token is stored.
    let digests: Vec<Vec<u8>> = sqlx::query_scalar("select token_digest from api_pix_receivers")
        .fetch_all(&db)
        .await
        .expect("rows");
    let token = new_url.rsplit('/').next().expect("token");
    assert!(
        digests
            .iter()
            .all(|d| d.len() == 32 && d.as_slice() != token.as_bytes())
    );
    app.stop().await;
}

#[tokio::test]
async fn a_body_over_the_limit_answers_413_and_writes_nothing() {
    let app = TestApp::spawn_with(|s| s.payments.api_pix_max_body_bytes = 4_096).await;
    let db = app.db().await;
    let (_owner, _, url) = owner_with_receiver(&app).await;
    let big = delivery((0..40).map(entry).collect());
    assert!(big.len() > 4_096);
    let (status, answer) = post_delivery(&app, &url, big, None).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{answer}");
    assert_eq!(payment_events(&db).await, 0);
    let (status, _) = post_delivery(&app, &url, delivery(vec![entry(1)]), None).await;
    assert_eq!(status, StatusCode::OK, "a small one still goes in");
    app.stop().await;
}

#[tokio::test]
async fn with_an_hmac_secret_only_a_delivery_signed_with_it_is_recorded() {
    let app =
        TestApp::spawn_with(|s| s.payments.api_pix_hmac_secret = Some("segredo-do-banco".into()))
            .await;
    let db = app.db().await;
    let (_owner, _, url) = owner_with_receiver(&app).await;
    let body = delivery(vec![spec_example("pixWebhook2")]);
    let (status, answer) = post_delivery(&app, &url, body.clone(), None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "unsigned: {answer}");
    let wrong = gateway::api::payments::receiver::sign(b"outro-segredo", &body);
    let (status, _) = post_delivery(&app, &url, body.clone(), Some(&wrong)).await;
    assert_eq!(
        status,
        StatusCode::UNAUTHORIZED,
        "signed with another secret"
    );
    assert_eq!(payment_events(&db).await, 0);
    let right = gateway::api::payments::receiver::sign(b"segredo-do-banco", &body);
    let (status, answer) = post_delivery(&app, &url, body, Some(&right)).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(payment_events(&db).await, 1);
    app.stop().await;
}
