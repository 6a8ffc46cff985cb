//! What the payment tests share: the spec's own webhook examples, a registered Pix key, codes
//! with a txid, a receiver turned on, deliveries, and reading the read models.

use reqwest::StatusCode;
use serde_json::{Value, json};
use sqlx::PgPool;
use tests::{TestApp, eventually};
use uuid::Uuid;

use crate::workspace::support::{Person, qrcode_body, register_key_as};

/// The txid of the code the tests' `pixWebhook1` pays: the spec's own
/// (`c3e0e7a4e7f1469a9f782d3d4999343c`, 32 characters) is longer than a static code's txid may be
/// (25), so no code could be made with it.
pub const CODE_TXID: &str = "PEDIDO0001";

/// The spec's examples `pixWebhook1` (with a refund, sent as an object as the spec does; its
/// `txid` replaced by [`CODE_TXID`]) and `pixWebhook2`, copied from the BCB API Pix OpenAPI 2.9.0,
/// and moved from 2020-09-09 to 2026-09-09: the spec predates Pix, and no bank reports a Pix made
/// before 2020-11-03 (`domain::payment::bounds`).
pub fn spec_example(name: &str) -> Value {
    let text = include_str!("api_pix_examples.json").replace("\"2020-09-09T", "\"2026-09-09T");
    let all: Value = serde_json::from_str(&text).expect("the examples are JSON");
    let mut example = all[name].clone();
    if name == "pixWebhook1" {
        example["txid"] = json!(CODE_TXID);
    }
    example
}

/// `{"pix": entries}`.
pub fn delivery(entries: Vec<Value>) -> Vec<u8> {
    json!({ "pix": entries }).to_string().into_bytes()
}

/// `pixWebhook2` under another end-to-end id (32 characters).
pub fn entry(e2e_suffix: usize) -> Value {
    let mut entry = spec_example("pixWebhook2");
    entry["endToEndId"] = json!(format!("E87654321202009091221{e2e_suffix:011}"));
    entry
}

/// The key every test registers.
pub const PIX_KEY: &str = "loja@padaria.test";

/// `owner` registers [`PIX_KEY`] in their own account through the API; answers its id.
pub async fn register_key(owner: &mut Person) -> Uuid {
    let id = register_key_as(owner, PIX_KEY, "Padaria").await;
    Uuid::parse_str(&id).expect("the key's id is a UUID")
}

/// `person` makes a code in `account_id` with `txid` typed, through the API (the txid is claimed
/// in the account with the code, as for any code); answers its id.
pub async fn code_with_txid(person: &mut Person, account_id: &str, txid: &str) -> String {
    let mut body = qrcode_body("Padaria");
    body["txid"] = json!(txid);
    let made = person
        .post(&Person::in_account(account_id, "/qrcodes"), &body)
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    assert_eq!(made.json["txid"], txid);
    made.json["id"].as_str().expect("id").to_owned()
}

/// `owner` turns the receiver of `key_id` on; answers its URL.
pub async fn turn_on(owner: &mut Person, key_id: Uuid) -> String {
    let path = Person::in_account(&owner.account_id, &format!("/api-pix-receivers/{key_id}"));
    let on = owner.post(&path, &json!({})).await;
    assert_eq!(on.status, StatusCode::CREATED, "{}", on.text);
    on.json["url"].as_str().expect("url").to_owned()
}

/// The site-relative path of a receiver URL (`http://balcao.test/webhooks/…` → `/webhooks/…`).
pub fn path_of(url: &str) -> String {
    url.trim_start_matches("http://balcao.test").to_owned()
}

/// POSTs `body` to `{url}/pix` as a bank would; answers status and body.
pub async fn post_delivery(
    app: &TestApp,
    url: &str,
    body: Vec<u8>,
    signature: Option<&str>,
) -> (StatusCode, Value) {
    let mut request = app
        .client()
        .post(app.url(&format!("{}/pix", path_of(url))))
        .header("content-type", "application/json")
        .body(body);
    if let Some(signature) = signature {
        request = request.header("x-balcao-signature", signature);
    }
    let response = request.send().await.expect("the gateway answers");
    let status = response.status();
    let text = response.text().await.unwrap_or_default();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// Payment events in the log.
pub async fn payment_events(db: &PgPool) -> i64 {
    sqlx::query_scalar("select count(*) from events where stream_type = 'payment'")
        .fetch_one(db)
        .await
        .expect("count")
}

/// Waits until the `payments` read model has `n` rows.
pub async fn wait_for_payments(db: &PgPool, n: i64) {
    eventually(&format!("{n} payments in the read model"), async || {
        let count: i64 = sqlx::query_scalar("select count(*) from payments")
            .fetch_one(db)
            .await
            .ok()?;
        (count == n).then_some(())
    })
    .await;
}

/// Replays `payments` from the log and checks it rebuilds exactly what the projector built live.
pub async fn assert_replay_equals_live(app: &TestApp, db: &PgPool) {
    let live = read_models(db).await;
    gateway::roles::replay(&app.settings, &["payments".to_owned()], false)
        .await
        .expect("the replay runs");
    assert!(
        read_models(db).await == live,
        "the replay differs from live"
    );
}

/// The projection's three tables (`payments`, `daily_totals`, `payment_day_totals`), in a
/// stable order, as text (to compare live with a replay).
pub async fn read_models(db: &PgPool) -> (Vec<String>, Vec<String>, Vec<String>) {
    let payments: Vec<String> = sqlx::query_scalar(
        "select row_to_json(p)::text from (select account_id, reference, end_to_end_id,
                amount_centavos, refunded_centavos, paid_at, paid_on, txid, qrcode_id, pix_key,
                source, confirmed_by, status, payer_name, payer_document, payer_info, note,
                recorded_by, void_reason, recorded_at, refunds, version
           from payments order by account_id, reference) p",
    )
    .fetch_all(db)
    .await
    .expect("payments");
    let totals: Vec<String> = sqlx::query_scalar(
        "select row_to_json(t)::text from (select * from daily_totals
           order by account_id, day, qrcode_id nulls first) t",
    )
    .fetch_all(db)
    .await
    .expect("totals");
    let day_totals: Vec<String> = sqlx::query_scalar(
        "select row_to_json(t)::text from (select * from payment_day_totals
           order by account_id, day, qrcode_id nulls first, via_link, pix_key nulls first,
                    source, status, refund_reported) t",
    )
    .fetch_all(db)
    .await
    .expect("totals by day and filter");
    (payments, totals, day_totals)
}
