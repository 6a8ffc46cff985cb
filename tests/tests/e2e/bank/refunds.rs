//! Refunds from a payment's detail (issue 33, "devolução"): asked of the bank that holds the key
//! through `PUT /pix/{e2eid}/devolucao/{id}`, decided from the payment's own stream, followed
//! until the bank settles them, sent once however the bank fails.

use reqwest::StatusCode;
use serde_json::{Value, json};
use tests::api_pix_bank::{BankSimulator, Failure, RefundOutcome, SimulatorConfig};
use tests::{TestApp, eventually, eventually_within};

use super::support::{app_beside_with, connect_sicredi, owner_with_the_banks_key, sicredi};
use crate::workspace::support::Person;

/// A bank shaped like Sicredi whose refunds end as `outcome` says, an app beside it with a fast
/// follow-up, and an owner whose key is connected to it.
async fn connected(outcome: RefundOutcome, timeout_ms: u64) -> (BankSimulator, TestApp, Person) {
    let bank = BankSimulator::start(SimulatorConfig {
        refunds: outcome,
        ..sicredi()
    })
    .await;
    let app = app_beside_with(&bank, move |settings| {
        settings.payments.bank_catch_up_secs = 1;
        settings.payments.bank_timeout_ms = timeout_ms;
    })
    .await;
    let (mut owner, key_id) = owner_with_the_banks_key(&app).await;
    connect_sicredi(&mut owner, &bank, &key_id).await;
    (bank, app, owner)
}

/// A Pix of `centavos` the bank delivers by webhook; answers its end-to-end id once the
/// transactions list has it.
async fn paid(bank: &BankSimulator, owner: &mut Person, centavos: i64) -> String {
    let e2e = bank.receive_pix(SimulatorConfig::KEY, centavos, Some("PEDIDO42"), None);
    eventually("the Pix in the transactions", async || {
        let shown = owner.get(&payment_path(owner, &e2e)).await;
        (shown.status == StatusCode::OK).then_some(())
    })
    .await;
    e2e
}

fn payment_path(owner: &Person, e2e: &str) -> String {
    Person::in_account(&owner.account_id, &format!("/payments/{e2e}"))
}

fn refunds_path(owner: &Person, e2e: &str) -> String {
    format!("{}/refunds", payment_path(owner, e2e))
}

/// The refunds the bank holds for `e2e`.
fn at_the_bank(bank: &BankSimulator, e2e: &str) -> Vec<Value> {
    bank.pix(e2e)
        .and_then(|pix| pix["devolucoes"].as_array().cloned())
        .unwrap_or_default()
}

#[tokio::test]
async fn a_refund_asked_from_the_payment_reaches_the_bank_and_is_followed_until_paid_back() {
    let (bank, _app, mut owner) = connected(RefundOutcome::Manual, 15_000).await;
    let e2e = paid(&bank, &mut owner, 11_000).await;
    let detail = owner.get(&payment_path(&owner, &e2e)).await;
    assert_eq!(detail.json["refundViaBank"], true, "{}", detail.text);

    let asked = owner
        .post(
            &refunds_path(&owner, &e2e),
            &json!({"amount": "40,00", "description": "Produto trocado"}),
        )
        .await;
    assert_eq!(asked.status, StatusCode::CREATED, "{}", asked.text);
    assert_eq!(
        asked.json["refund"]["status"], "EM_PROCESSAMENTO",
        "{}",
        asked.text
    );
    let refund_id = asked.json["refund"]["id"].as_str().expect("id").to_owned();
    let sent = at_the_bank(&bank, &e2e);
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(sent[0]["id"], refund_id.as_str());
    assert_eq!(sent[0]["valor"], "40.00");
    assert_eq!(sent[0]["natureza"], "ORIGINAL");
    assert_eq!(sent[0]["descricao"], "Produto trocado");

    // The bank settles it and says so by webhook.
    bank.settle_refund(&e2e, &refund_id);
    let settled = eventually("the refund paid back", async || {
        let shown = owner.get(&payment_path(&owner, &e2e)).await;
        (shown.json["refundedCentavos"] == 4_000).then_some(shown.json)
    })
    .await;
    assert_eq!(settled["refunds"][0]["status"], "DEVOLVIDO", "{settled}");
    assert_eq!(settled["refunds"][0]["description"], "Produto trocado");

    let history = owner
        .get(&format!("{}/history", payment_path(&owner, &e2e)))
        .await;
    let types: Vec<&str> = history.json["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter_map(|e| e["type"].as_str())
        .collect();
    assert_eq!(
        types,
        [
            "PaymentRecorded",
            "PaymentRefundRequested",
            "PaymentRefunded",
            "PaymentRefunded"
        ],
        "{}",
        history.text
    );
    assert_eq!(history.json["events"][1]["by"]["kind"], "person");
    bank.assert_every_request_was_valid();
}

#[tokio::test]
async fn what_is_left_to_refund_is_decided_from_the_payments_own_stream_and_a_retry_is_the_same_refund()
 {
    let (bank, _app, mut owner) = connected(RefundOutcome::Manual, 15_000).await;
    let e2e = paid(&bank, &mut owner, 5_000).await;
    let path = refunds_path(&owner, &e2e);
    owner.browser.set_header("idempotency-key", "devolucao-1");
    let first = owner.post(&path, &json!({"amount": "30,00"})).await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text);

    // The same request again (a double tap, a retried network call): the same refund.
    let again = owner.post(&path, &json!({"amount": "30,00"})).await;
    assert_eq!(
        again.json["refund"]["id"], first.json["refund"]["id"],
        "{}",
        again.text
    );
    assert_eq!(at_the_bank(&bank, &e2e).len(), 1, "sent once");
    let other_body = owner.post(&path, &json!({"amount": "10,00"})).await;
    assert_eq!(
        other_body.status,
        StatusCode::CONFLICT,
        "{}",
        other_body.text
    );
    assert_eq!(other_body.code(), "idempotency-key-reused");
    owner.browser.remove_header("idempotency-key");

    // 30 of 50 are held by the refund in processing: 20,01 is over what is left, whatever the
    // read model shows.
    let over = owner.post(&path, &json!({"amount": "20,01"})).await;
    assert_eq!(
        over.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        over.text
    );
    assert_eq!(over.code(), "payment-refund-over-left", "{}", over.text);
    assert_eq!(over.field(), Some("amount"));
    assert!(over.message().contains("R$ 20,00"), "{}", over.text);
    let long = owner
        .post(
            &path,
            &json!({"amount": "1,00", "description": "x".repeat(141)}),
        )
        .await;
    assert_eq!(
        long.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        long.text
    );
    assert_eq!(long.field(), Some("description"));
    let bad_amount = owner.post(&path, &json!({"amount": "dez"})).await;
    assert_eq!(
        bad_amount.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        bad_amount.text
    );
    assert_eq!(bad_amount.field(), Some("amount"));
    assert_eq!(
        at_the_bank(&bank, &e2e).len(),
        1,
        "no refused request reached the bank"
    );

    let rest = owner.post(&path, &json!({"amount": "20,00"})).await;
    assert_eq!(rest.status, StatusCode::CREATED, "{}", rest.text);
    let done = owner.post(&path, &json!({"amount": "0,01"})).await;
    assert_eq!(done.status, StatusCode::CONFLICT, "{}", done.text);
    assert_eq!(done.code(), "payment-fully-refunded");
    bank.assert_every_request_was_valid();
}

#[tokio::test]
async fn a_bank_that_is_down_or_slow_gets_the_refund_later_exactly_once() {
    let (bank, _app, mut owner) = connected(RefundOutcome::SettleAtOnce, 700).await;
    let down = paid(&bank, &mut owner, 2_000).await;
    let slow = paid(&bank, &mut owner, 3_000).await;

    // Down: nothing reaches the bank; the request is kept and answered as such.
    bank.fail_next(3, Failure::ServerError { status: 503 });
    let asked = owner
        .post(&refunds_path(&owner, &down), &json!({"amount": "20,00"}))
        .await;
    assert_eq!(asked.status, StatusCode::ACCEPTED, "{}", asked.text);
    assert_eq!(
        asked.json["refund"]["status"], "SOLICITADA",
        "{}",
        asked.text
    );

    // Slow: the bank takes the request but its answer comes after the client gave up.
    bank.fail_next(1, Failure::AnswerLate(std::time::Duration::from_secs(2)));
    let asked = owner
        .post(&refunds_path(&owner, &slow), &json!({"amount": "30,00"}))
        .await;
    assert_eq!(asked.status, StatusCode::ACCEPTED, "{}", asked.text);

    for e2e in [&down, &slow] {
        let shown = eventually_within(
            std::time::Duration::from_secs(30),
            "the refund paid back",
            async || {
                let shown = owner.get(&payment_path(&owner, e2e)).await;
                (shown.json["refunds"][0]["status"] == "DEVOLVIDO").then_some(shown.json)
            },
        )
        .await;
        assert_eq!(
            shown["refunds"].as_array().map(Vec::len),
            Some(1),
            "{shown}"
        );
        assert_eq!(at_the_bank(&bank, e2e).len(), 1, "sent exactly once: {e2e}");
    }
}

#[tokio::test]
async fn a_refund_the_bank_refuses_is_shown_with_its_words_and_frees_the_amount() {
    let (bank, app, mut owner) = connected(RefundOutcome::Manual, 15_000).await;
    // A Pix the bank does not know (delivered to the receiver by something else than the bank):
    // the bank refuses to refund it.
    let webhook = bank
        .registered_webhook(SimulatorConfig::KEY)
        .expect("the receiver is registered");
    let e2e = "E99999999202611281200unknownpix1";
    let delivery = json!({"pix": [{
        "endToEndId": e2e,
        "txid": "PEDIDO77",
        "valor": "15.00",
        "chave": SimulatorConfig::KEY,
        "horario": chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
    }]});
    let delivered = app
        .client()
        .post(format!("{webhook}/pix"))
        .json(&delivery)
        .send()
        .await
        .expect("delivered");
    assert!(delivered.status().is_success(), "{}", delivered.status());
    eventually("the payment shown", async || {
        let shown = owner.get(&payment_path(&owner, e2e)).await;
        (shown.status == StatusCode::OK).then_some(())
    })
    .await;

    let asked = owner
        .post(&refunds_path(&owner, e2e), &json!({"amount": "15,00"}))
        .await;
    assert_eq!(asked.status, StatusCode::CREATED, "{}", asked.text);
    assert_eq!(asked.json["refund"]["status"], "RECUSADA", "{}", asked.text);
    assert!(
        asked.json["refund"]["reason"]
            .as_str()
            .is_some_and(|r| r.starts_with("O banco recusou o pedido")),
        "{}",
        asked.text
    );
    let shown = owner.get(&payment_path(&owner, e2e)).await;
    assert_eq!(
        shown.json["refunds"][0]["status"], "RECUSADA",
        "{}",
        shown.text
    );
    assert_eq!(shown.json["refundedCentavos"], 0);

    // Nothing was held by the refused refund: the whole amount can be asked for again.
    let again = owner
        .post(&refunds_path(&owner, e2e), &json!({"amount": "15,00"}))
        .await;
    assert_eq!(again.status, StatusCode::CREATED, "{}", again.text);
}

#[tokio::test]
async fn a_payment_whose_key_has_no_connected_bank_is_not_refunded_and_the_owner_is_told_how() {
    let bank = BankSimulator::start(sicredi()).await;
    let app = app_beside_with(&bank, |_| {}).await;
    let (mut owner, _key_id) = owner_with_the_banks_key(&app).await;
    let recorded = owner
        .post(
            &Person::in_account(&owner.account_id, "/payments"),
            &json!({"amount": "12,50"}),
        )
        .await;
    assert_eq!(recorded.status, StatusCode::CREATED, "{}", recorded.text);
    let reference = recorded.json["reference"].as_str().expect("reference");
    let detail = owner.get(&payment_path(&owner, reference)).await;
    assert_eq!(detail.json["refundViaBank"], false, "{}", detail.text);
    let asked = owner
        .post(&refunds_path(&owner, reference), &json!({"amount": "1,00"}))
        .await;
    assert_eq!(asked.status, StatusCode::CONFLICT, "{}", asked.text);
    assert_eq!(asked.code(), "bank-not-connected", "{}", asked.text);
    assert!(asked.message().contains("Conectar banco"), "{}", asked.text);
}
