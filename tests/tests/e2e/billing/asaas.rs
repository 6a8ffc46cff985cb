//! The Asaas adapter and webhook against the local fake Asaas: the headers and money it sends,
//! the documented payloads it reads, retries on 5xx/429 and timeouts, refusals, a bad Pix code
//! never shown; the webhook's token, duplicate events, confirmations twice, out-of-order and
//! unknown payments.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{Value, json};
use tests::{TestApp, eventually};

use super::fake_asaas::{FakeAsaas, Fault, documented_payload};
use super::support::{CPF, subscription, upgrade};
use crate::workspace::support::sign_up;

pub(super) const KEY: &str = "$aact_YTU5YTE0M2M2N2I4MTliNzk0YTI5N2U5MzdjNWZmNDQ6OjAwMDAwMDAwMDAwMDAwNzE2NTk6OiRhYWNoXzEyMzQ=";
pub(super) const TOKEN: &str = "webhook-token-de-teste-com-mais-de-32-caracteres";
pub(super) const AGENT: &str = "Balcao-Testes/1.0";

pub(super) async fn asaas_app(fake: &FakeAsaas) -> TestApp {
    asaas_app_trying(fake, 3).await
}

async fn asaas_app_trying(fake: &FakeAsaas, attempts: u32) -> TestApp {
    let base = fake.base_url.clone();
    TestApp::spawn_with(move |s| {
        s.billing.asaas_api_key = Some(KEY.to_owned());
        s.billing.asaas_base_url = base;
        s.billing.asaas_webhook_token = Some(TOKEN.to_owned());
        s.billing.asaas_user_agent = AGENT.to_owned();
        s.billing.asaas_timeout_ms = 500;
        s.billing.asaas_attempts = attempts;
    })
    .await
}

async fn subscription_events(app: &TestApp) -> i64 {
    sqlx::query_scalar("select count(*) from events where stream_type = 'subscription'")
        .fetch_one(&app.db().await)
        .await
        .expect("count")
}

/// An Asaas webhook envelope as documented (`id`, `event`, `dateCreated` in São Paulo time,
/// the payment object).
pub(super) fn envelope(event_id: &str, event: &str, reference: &str, payment_id: &str) -> Value {
    json!({
        "id": event_id,
        "event": event,
        "dateCreated": "2026-11-26 09:15:03",
        "account": {"id": "0f1e2d3c", "ownerId": null},
        "payment": {
            "object": "payment", "id": payment_id, "dateCreated": "2026-11-26",
            "customer": "cus_000005219613", "value": 19.9, "netValue": 18.91,
            "billingType": "PIX", "status": "RECEIVED", "dueDate": "2026-11-26",
            "externalReference": reference, "paymentDate": "2026-11-26",
            "clientPaymentDate": "2026-11-26", "confirmedDate": "2026-11-26",
            "deleted": false, "anticipated": false, "somethingNew": {"asaas": "adds fields"}
        }
    })
}

pub(super) async fn deliver(
    app: &TestApp,
    token: Option<&str>,
    body: &Value,
) -> (StatusCode, Value) {
    let mut request = app.client().post(app.url("/webhooks/asaas")).json(body);
    if let Some(token) = token {
        request = request.header("asaas-access-token", token);
    }
    let response = request.send().await.expect("the gateway answers");
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn an_upgrade_opens_a_pix_charge_at_asaas_with_its_key_user_agent_and_exact_reais() {
    let fake = FakeAsaas::start().await;
    let app = asaas_app(&fake).await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let charge = upgrade(&mut owner, "premium-mensal").await;

    let seen = fake.seen();
    let calls: Vec<String> = seen
        .iter()
        .map(|s| format!("{} {}", s.method, s.uri))
        .collect();
    assert_eq!(
        calls,
        [
            "GET /v3/customers?cpfCnpj=52998224725".to_owned(),
            "POST /v3/customers".to_owned(),
            "POST /v3/payments".to_owned(),
            "GET /v3/payments/pay_080225913252/pixQrCode".to_owned(),
        ]
    );
    for call in &seen {
        assert_eq!(call.access_token.as_deref(), Some(KEY), "{call:?}");
        assert_eq!(call.user_agent.as_deref(), Some(AGENT), "{call:?}");
    }
    let payment = &seen[2].body;
    assert!(
        payment.contains(r#""value":19.90"#),
        "two decimals from centavos: {payment}"
    );
    let sent: Value = serde_json::from_str(payment).expect("JSON");
    assert_eq!(sent["billingType"], "PIX");
    assert_eq!(sent["customer"], "cus_000005219613");
    assert_eq!(
        sent["externalReference"],
        format!("{}:{charge}", owner.account_id)
    );

    let shown = owner
        .get(&subscription(&owner, &format!("/charges/{charge}")))
        .await;
    assert_eq!(shown.status, StatusCode::OK, "{}", shown.text);
    assert_eq!(shown.json["charge"]["provider"], "asaas");
    assert_eq!(shown.json["charge"]["pixPayload"], documented_payload());
    assert_eq!(shown.json["charge"]["amountCentavos"], 1_990);
    // "2027-06-12 23:59:59" is São Paulo time.
    assert_eq!(
        shown.json["charge"]["expiresAt"],
        "2027-06-13T02:59:59.000Z"
    );
    assert_eq!(shown.json["sandbox"], false);
    let no_simulation = owner
        .post(
            &subscription(&owner, &format!("/charges/{charge}/simulate")),
            &json!({}),
        )
        .await;
    assert_eq!(
        no_simulation.status,
        StatusCode::NOT_FOUND,
        "no Simular pagamento with Asaas"
    );
    app.stop().await;
}

#[tokio::test]
async fn the_webhook_activates_on_payment_received_once_and_ignores_repeats_late_news_and_strangers()
 {
    let fake = FakeAsaas::start().await;
    let app = asaas_app(&fake).await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let charge = upgrade(&mut owner, "premium-mensal").await;
    let reference = format!("{}:{charge}", owner.account_id);
    let received = envelope(
        "evt_05b708f961d739ea7eba7e4db318f621&368604920",
        "PAYMENT_RECEIVED",
        &reference,
        "pay_080225913252",
    );

    // A wrong or missing token: 401, nothing written.
    assert_eq!(
        deliver(&app, Some("outro-token"), &received).await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        deliver(&app, None, &received).await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        deliver(&app, Some(TOKEN), &json!({"not": "asaas"})).await.0,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(subscription_events(&app).await, 1, "only CheckoutStarted");
    assert_eq!(
        owner.get(&subscription(&owner, "")).await.json["plan"]["id"],
        "gratis"
    );

    let (status, answer) = deliver(&app, Some(TOKEN), &received).await;
    assert_eq!(
        (status, answer["result"].as_str()),
        (StatusCode::OK, Some("recorded")),
        "{answer}"
    );
    let now = owner.get(&subscription(&owner, "")).await;
    assert_eq!(now.json["plan"]["id"], "premium-mensal", "{}", now.text);
    let after_payment = subscription_events(&app).await;
    assert_eq!(after_payment, 3);

    // The same event again (at-least-once delivery): recognised by its id.
    let (status, answer) = deliver(&app, Some(TOKEN), &received).await;
    assert_eq!(
        (status, answer["result"].as_str()),
        (StatusCode::OK, Some("duplicate"))
    );
    // The same payment confirmed under another event, and an overdue arriving after the payment.
    for (id, event) in [("evt_2", "PAYMENT_CONFIRMED"), ("evt_3", "PAYMENT_OVERDUE")] {
        let (status, _) = deliver(
            &app,
            Some(TOKEN),
            &envelope(id, event, &reference, "pay_080225913252"),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
    }
    assert_eq!(
        subscription_events(&app).await,
        after_payment,
        "nothing new"
    );
    // A payment that is not one of our charges: 200 (Asaas would pause the queue otherwise), ignored.
    for (id, reference, payment) in [
        ("evt_4", reference.as_str(), "pay_999"),
        (
            "evt_5",
            "0190f1a2-0000-7000-8000-00000000000a:x",
            "pay_080225913252",
        ),
        ("evt_6", "de outro sistema", "pay_1"),
    ] {
        let (status, answer) = deliver(
            &app,
            Some(TOKEN),
            &envelope(id, "PAYMENT_RECEIVED", reference, payment),
        )
        .await;
        assert_eq!(
            (status, answer["result"].as_str()),
            (StatusCode::OK, Some("ignored")),
            "{answer}"
        );
    }
    assert_eq!(subscription_events(&app).await, after_payment);
    let still = owner.get(&subscription(&owner, "")).await;
    assert_eq!(still.json["plan"]["id"], "premium-mensal");
    // The charges list is a read model: the projector may still be applying the payment.
    let charges = eventually("the charge read as paid", async || {
        let now = owner.get(&subscription(&owner, "")).await;
        (now.json["charges"][0]["status"] == "paid").then_some(now)
    })
    .await;
    assert_eq!(charges.json["charges"][0]["status"], "paid");
    app.stop().await;
}

#[tokio::test]
async fn a_refund_reported_by_asaas_ends_premium_and_a_deleted_open_charge_closes() {
    let fake = FakeAsaas::start().await;
    let app = asaas_app(&fake).await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let charge = upgrade(&mut owner, "premium-mensal").await;
    let reference = format!("{}:{charge}", owner.account_id);
    for (id, event) in [("evt_a", "PAYMENT_RECEIVED"), ("evt_b", "PAYMENT_REFUNDED")] {
        let (status, _) = deliver(
            &app,
            Some(TOKEN),
            &envelope(id, event, &reference, "pay_080225913252"),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
    }
    let now = owner.get(&subscription(&owner, "")).await;
    assert_eq!(now.json["plan"]["id"], "gratis", "{}", now.text);
    // The charges come from the read model, a moment behind the log.
    tests::eventually("the charge refunded in the read model", async || {
        let now = owner.get(&subscription(&owner, "")).await;
        (now.json["charges"][0]["status"] == "refunded").then_some(())
    })
    .await;
    app.stop().await;
}

#[tokio::test]
async fn asaas_answering_503_429_or_too_slowly_is_tried_again_and_the_upgrade_goes_through() {
    let fake = FakeAsaas::start().await;
    let app = asaas_app_trying(&fake, 4).await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    // The customer search gets 503, then 429, then no answer within the timeout, then its answer.
    fake.fail_next(&[
        Fault::Status(503),
        Fault::Status(429),
        Fault::Slow(Duration::from_millis(1_500)),
    ]);
    upgrade(&mut owner, "premium-anual").await;
    let searches = fake
        .seen()
        .iter()
        .filter(|s| s.uri.starts_with("/v3/customers?"))
        .count();
    assert_eq!(searches, 4, "503, 429 and a timeout, then the answer");
    app.stop().await;
}

#[tokio::test]
async fn asaas_failing_every_try_answers_503_and_records_nothing() {
    let fake = FakeAsaas::start().await;
    let app = asaas_app(&fake).await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    fake.fail_next(&[Fault::Status(500), Fault::Status(502), Fault::Status(503)]);
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
    assert_eq!(fake.seen().len(), 3, "three tries, then it gives up");
    assert_eq!(subscription_events(&app).await, 0);
    app.stop().await;
}

#[tokio::test]
async fn asaas_refusing_the_charge_answers_422_in_portuguese_and_nothing_is_recorded() {
    let fake = FakeAsaas::start().await;
    let app = asaas_app(&fake).await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    fake.refuse_payments();
    let refused = owner
        .post(
            &subscription(&owner, "/upgrade"),
            &json!({"plan": "premium-mensal", "payerName": "Dona", "document": CPF}),
        )
        .await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.text
    );
    assert!(
        refused.message().contains("Cliente inválido"),
        "{}",
        refused.text
    );
    assert_eq!(
        fake.seen()
            .iter()
            .filter(|s| s.uri == "/v3/payments")
            .count(),
        1,
        "a 400 is final"
    );
    assert_eq!(subscription_events(&app).await, 0);
    app.stop().await;
}

#[tokio::test]
async fn a_pix_code_from_asaas_that_the_engine_refuses_is_never_shown() {
    let fake = FakeAsaas::start().await;
    let app = asaas_app(&fake).await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let mut broken = documented_payload();
    broken.truncate(broken.len() - 4);
    broken.push_str("0000");
    fake.set_payload(&broken);
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
    assert_eq!(subscription_events(&app).await, 0);
    app.stop().await;
}

#[tokio::test]
async fn without_a_webhook_token_configured_the_asaas_webhook_is_not_there() {
    let app = TestApp::spawn().await;
    let (status, _) = deliver(&app, Some(TOKEN), &json!({})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    app.stop().await;
}
