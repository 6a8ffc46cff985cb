//! Single-use QR codes (issue 32, item 1): a code made for one sale (an amount, its own txid,
//! `singleUse`) says "Este QR code já foi pago" to every payer once a payment of it arrives, with
//! neither the code nor its copy text; a reusable code keeps offering the code to the next payer.

use reqwest::StatusCode;
use serde_json::{Value, json};
use tests::{TestApp, eventually};

use super::support::{delivery, post_delivery, register_key, turn_on};
use crate::workspace::support::{Person, qrcode_body, sign_up};

/// How the gateway says it served a payer page (`gateway::pages::payment::SERVED_HEADER`).
const SERVED: &str = "x-balcao-pagina";

/// `person` makes a code for one sale in their account: R$ 45,90, txid `txid`.
async fn single_use_code(person: &mut Person, txid: &str) -> Value {
    let mut body = qrcode_body("Padaria");
    body["amount"] = json!("45,90");
    body["txid"] = json!(txid);
    body["singleUse"] = json!(true);
    let made = person
        .post(&Person::in_account(&person.account_id, "/qrcodes"), &body)
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    made.json
}

/// The payer page of `code` as a fresh visitor gets it: status, how it was served, HTML.
async fn payer_page(app: &TestApp, code: &str) -> (StatusCode, String, String) {
    let response = app.get(&format!("/pagamento/{code}")).await;
    let status = response.status();
    let how = response
        .headers()
        .get(SERVED)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    (status, how, response.text().await.expect("a page"))
}

#[tokio::test]
async fn a_paid_single_use_code_says_so_to_every_payer_without_the_code_and_a_reusable_one_stays_ready()
 {
    let app = TestApp::spawn().await;
    let db = app.db().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let key_id = register_key(&mut owner).await;
    let receiver = turn_on(&mut owner, key_id).await;
    let made = single_use_code(&mut owner, "PEDIDO42").await;
    assert_eq!(made["singleUse"], true, "{made}");
    assert_eq!(made["paidAt"], Value::Null);
    let code = made["id"].as_str().expect("id").to_owned();
    let payload = made["payload"].as_str().expect("payload");
    assert!(
        domain::brcode::validate_strict(payload)
            .expect("a BR Code")
            .code
            .is_single_use(),
        "the BR Code says so too (01 = 12): {payload}"
    );
    let mut sign_body = qrcode_body("Padaria");
    sign_body["txid"] = json!("PLACA01");
    let sign = owner
        .post(
            &Person::in_account(&owner.account_id, "/qrcodes"),
            &sign_body,
        )
        .await;
    assert_eq!(sign.status, StatusCode::CREATED, "{}", sign.text);
    assert_eq!(sign.json["singleUse"], false);
    let sign = sign.json["id"].as_str().expect("id").to_owned();

    let (status, _, html) = payer_page(&app, &code).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("Copiar código"), "ready to pay: {html}");
    assert!(
        html.contains("data-recarregar-ao-pagar"),
        "a page left open turns into the paid page: {html}"
    );
    let (_, _, html) = payer_page(&app, &sign).await;
    assert!(!html.contains("data-recarregar-ao-pagar"), "{html}");

    let (status, answer) = post_delivery(
        &app,
        &receiver,
        delivery(vec![
            json!({
                "endToEndId": "E87654321202611271221000000000S1",
                "txid": "PEDIDO42",
                "valor": "45.90",
                "horario": "2026-11-27T12:21:00Z",
            }),
            json!({
                "endToEndId": "E87654321202611271222000000000S2",
                "txid": "PLACA01",
                "valor": "12.50",
                "horario": "2026-11-27T12:22:00Z",
            }),
        ]),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");

    let html = eventually("a fresh visitor sees the code paid", async || {
        let (status, _, html) = payer_page(&app, &code).await;
        (status == StatusCode::OK && html.contains("Este QR code já foi pago")).then_some(html)
    })
    .await;
    assert!(!html.contains("<textarea"), "no Copia e Cola: {html}");
    assert!(!html.contains("<svg"), "no code to pay again: {html}");
    assert!(!html.contains("Copiar código"), "{html}");
    assert!(html.contains("não pague de novo"), "{html}");
    assert!(
        html.contains("R$ 45,90") && html.contains("27/11/2026 às 09:21"),
        "how much and when, in Brasília: {html}"
    );
    assert!(
        !html.contains("data-live"),
        "nothing left to wait for: {html}"
    );

    // The sign, paid the same moment, is ready for its next customer.
    let (status, _, html) = payer_page(&app, &sign).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        html.contains("Copiar código") && html.contains("<textarea"),
        "{html}"
    );
    assert!(!html.contains("já foi pago"), "{html}");

    let shown = owner
        .get(&Person::in_account(
            &owner.account_id,
            &format!("/qrcodes/{code}"),
        ))
        .await;
    assert_eq!(shown.json["singleUse"], true, "{}", shown.text);
    assert_eq!(shown.json["paidAt"], "2026-11-27T12:21:00.000Z");
    let listed = owner
        .get(&Person::in_account(&owner.account_id, "/qrcodes"))
        .await;
    let mut paid_at: Vec<(String, Value)> = listed.json["qrcodes"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|c| (c["singleUse"].to_string(), c["paidAt"].clone()))
        .collect();
    paid_at.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        paid_at,
        vec![
            ("false".to_owned(), Value::Null),
            ("true".to_owned(), json!("2026-11-27T12:21:00.000Z"))
        ],
        "the sign, reusable, is never 'paid'"
    );

    // Replay writes the flag as live did (the fill's COPY and the live insert alike).
    let rows = || async {
        sqlx::query_scalar::<_, String>(
            "select (qrcode_id, single_use)::text from qrcodes order by qrcode_id",
        )
        .fetch_all(&db)
        .await
        .expect("qrcodes")
    };
    let live = rows().await;
    assert!(
        live.iter().any(|r| r.contains(&code) && r.ends_with(",t)")),
        "{live:?}"
    );
    gateway::roles::replay(&app.settings, &["qrcodes".to_owned()], false)
        .await
        .expect("replay");
    assert_eq!(rows().await, live, "replay equals live");
    app.stop().await;
}

/// The sandbox waits until the payment is in the read model, then sends the payer back: the page
/// the payer (or anyone) gets next is the paid one, never the unpaid page kept in memory.
#[tokio::test]
async fn the_sandbox_pays_a_single_use_code_and_no_stored_page_offers_it_again() {
    let app = TestApp::spawn_with(|s| s.payments.sandbox_payments = true).await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    register_key(&mut owner).await;
    let code = single_use_code(&mut owner, "PEDIDO43").await["id"]
        .as_str()
        .expect("id")
        .to_owned();
    let (_, how, html) = payer_page(&app, &code).await;
    assert_eq!(how, "nova");
    assert!(html.contains("Simular pagamento"), "{html}");
    // The unpaid page is stored: what must not be served once the code is paid (`conferida` when
    // a projection moved meanwhile, for another stream: the rows were read, the page kept).
    let (_, how, _) = payer_page(&app, &code).await;
    assert!(["memoria", "conferida"].contains(&how.as_str()), "{how}");

    let simulated = app
        .client()
        .post(app.url(&format!("/pagamento/{code}/simular-pagamento")))
        .send()
        .await
        .expect("answer");
    assert_eq!(simulated.status(), StatusCode::SEE_OTHER);
    let (status, how, html) = payer_page(&app, &code).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("Este QR code já foi pago"), "{html}");
    assert!(!html.contains("<textarea"), "{html}");
    assert_eq!(how, "nova", "rendered again from the paid rows");
    // And stored afterwards, still paid.
    let (_, how, again) = payer_page(&app, &code).await;
    assert!(["memoria", "conferida"].contains(&how.as_str()), "{how}");
    assert_eq!(again, html);
    app.stop().await;
}

#[tokio::test]
async fn a_single_use_code_without_an_amount_is_refused_in_portuguese_and_nothing_is_made() {
    let app = TestApp::spawn().await;
    let db = app.db().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let mut body = qrcode_body("Padaria");
    body["amount"] = Value::Null;
    body["singleUse"] = json!(true);
    let refused = owner
        .post(&Person::in_account(&owner.account_id, "/qrcodes"), &body)
        .await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.text
    );
    assert_eq!(refused.json["error"]["code"], "invalid-argument");
    assert_eq!(refused.json["error"]["field"], "amount");
    assert_eq!(
        refused.json["error"]["message"],
        "Um QR code de uso único precisa de um valor: informe o valor da venda ou deixe o QR code reutilizável."
    );

    // A batch of codes for one sale each: every line without a price is named at once.
    let mut batch = qrcode_body("Padaria");
    batch["amount"] = Value::Null;
    batch["singleUse"] = json!(true);
    batch["lines"] = json!("Pedido 1;10,00\nPedido 2\nPedido 3");
    let refused = owner
        .post(
            &Person::in_account(&owner.account_id, "/qrcodes/lote"),
            &batch,
        )
        .await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.text
    );
    let lines: Vec<Value> = refused.json["error"]["problems"]
        .as_array()
        .expect("problems")
        .iter()
        .map(|p| p["line"].clone())
        .collect();
    assert_eq!(lines, vec![json!(2), json!(3)], "{}", refused.text);

    let made: i64 = sqlx::query_scalar("select count(*) from events where stream_type = 'qrcode'")
        .fetch_one(&db)
        .await
        .expect("count");
    assert_eq!(made, 0);
    app.stop().await;
}

/// "Uso único" is part of what a creation asks for: the same `Idempotency-Key` sent again with it
/// changed is another request (409), not the first code answered again.
#[tokio::test]
async fn an_idempotency_key_sent_again_with_single_use_changed_is_refused() {
    let app = TestApp::spawn().await;
    let owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let path = Person::in_account(&owner.account_id, "/qrcodes");
    let token = owner.browser.access_token.clone().expect("signed in");
    let send = |single_use: bool| {
        let mut body = qrcode_body("Padaria");
        body["singleUse"] = json!(single_use);
        app.client()
            .post(app.url(&path))
            .bearer_auth(&token)
            .header("idempotency-key", "venda-1")
            .json(&body)
            .send()
    };
    let first = send(true).await.expect("answer");
    assert_eq!(first.status(), StatusCode::CREATED);
    let again = send(true).await.expect("answer");
    assert_eq!(again.status(), StatusCode::CREATED);
    assert_eq!(again.headers()["idempotent-replayed"], "true");
    let again: Value = again.json().await.expect("json");
    assert_eq!(again["singleUse"], true, "{again}");
    let changed = send(false).await.expect("answer");
    assert_eq!(changed.status(), StatusCode::CONFLICT);
    let changed: Value = changed.json().await.expect("json");
    assert_eq!(changed["error"]["code"], "idempotency-key-reused");
    app.stop().await;
}
