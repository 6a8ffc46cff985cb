//! Outgoing webhooks (issue 36): an account's address hears of its payments from the log, each
//! delivery signed, tried again until the address takes it, once per event, in order per
//! payment; addresses inside this machine are refused without the sandbox setting.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use serde_json::{Value, json};
use tests::process::RoleProcess;
use tests::{TestApp, eventually_within};
use tokio::net::TcpListener;

use crate::payments::support::{delivery, entry, post_delivery, register_key, turn_on};
use crate::workspace::support::{Person, sign_up};

/// What the test's receiver got: each request's headers and body, in arrival order.
#[derive(Default)]
struct Received {
    requests: Mutex<Vec<(HeaderMap, Bytes)>>,
    /// Requests still to refuse with 503 before taking any.
    refuse_first: AtomicUsize,
    /// How long each answer takes, in milliseconds (a slow receiver keeps deliveries in flight).
    answer_after_ms: u64,
}

async fn receive(
    State(received): State<Arc<Received>>,
    headers: HeaderMap,
    body: Bytes,
) -> StatusCode {
    tokio::time::sleep(Duration::from_millis(received.answer_after_ms)).await;
    let refused = received
        .refuse_first
        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
        .is_ok();
    received
        .requests
        .lock()
        .expect("not poisoned")
        .push((headers, body));
    if refused {
        StatusCode::SERVICE_UNAVAILABLE
    } else {
        StatusCode::NO_CONTENT
    }
}

/// A receiver on a free port; answers its URL and what it gets.
async fn receiver(refuse_first: usize) -> (String, Arc<Received>) {
    receiver_answering_after(refuse_first, 0).await
}

/// [`receiver`], each answer taking `answer_after_ms`.
async fn receiver_answering_after(
    refuse_first: usize,
    answer_after_ms: u64,
) -> (String, Arc<Received>) {
    let received = Arc::new(Received {
        refuse_first: AtomicUsize::new(refuse_first),
        answer_after_ms,
        ..Received::default()
    });
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    let url = format!(
        "http://{}/avisos-pix",
        listener.local_addr().expect("address")
    );
    let router = Router::new()
        .route("/avisos-pix", post(receive))
        .with_state(Arc::clone(&received));
    tokio::spawn(async move { axum::serve(listener, router).await });
    (url, received)
}

/// Whether `header` (`t=…,v1=…`) signs `body` with `secret`, as a receiver checks it.
fn signed_with(secret: &str, header: &str, body: &[u8]) -> bool {
    let mut t = None;
    let mut signatures = Vec::new();
    for part in header.split(',') {
        match part.split_once('=') {
            Some(("t", value)) => t = value.parse::<i64>().ok(),
            Some(("v1", value)) => signatures.push(value.to_owned()),
            _ => {}
        }
    }
    let Some(t) = t else { return false };
    let fresh = (chrono::Utc::now().timestamp() - t).abs() < 300;
    fresh
        && signatures
            .iter()
            .any(|s| *s == domain::webhook::signature(secret.as_bytes(), t, body))
}

/// The bodies the receiver took (answered 2xx), as JSON, in arrival order.
fn taken(received: &Received, refused: usize) -> Vec<(HeaderMap, Value)> {
    received
        .requests
        .lock()
        .expect("not poisoned")
        .iter()
        .skip(refused)
        .map(|(h, b)| (h.clone(), serde_json::from_slice(b).expect("JSON")))
        .collect()
}

async fn register(owner: &mut Person, url: &str, events: &[&str]) -> (String, String) {
    let made = owner
        .post(
            &Person::in_account(&owner.account_id.clone(), "/webhooks"),
            &json!({"url": url, "events": events}),
        )
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    (
        made.json["id"].as_str().expect("id").to_owned(),
        made.json["secret"].as_str().expect("secret").to_owned(),
    )
}

/// A payment with a refund the bank reports settled, in one delivery: two events of one stream.
fn refunded(n: usize) -> Value {
    let mut paid = entry(n);
    paid["devolucoes"] = json!([{
        "id": format!("DEV{n}"),
        "rtrId": format!("D12345678202609091221{n:011}"),
        "valor": "10.00",
        "horario": {"solicitacao": "2026-09-09T21:00:00.000Z", "liquidacao": "2026-09-09T21:00:05.000Z"},
        "status": "DEVOLVIDO"
    }]);
    paid
}

#[tokio::test]
async fn every_payment_reaches_the_address_signed_once_in_order_even_when_it_fails_at_first() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona da Padaria").await;
    let key_id = register_key(&mut owner).await;
    let bank = turn_on(&mut owner, key_id).await;
    let refused = 3;
    let (url, received) = receiver(refused).await;
    let (endpoint_id, secret) = register(
        &mut owner,
        &url,
        &["pagamento.recebido", "pagamento.devolvido"],
    )
    .await;
    assert!(secret.starts_with("whsec_"), "{secret}");

    let (status, answer) = post_delivery(
        &app,
        &bank,
        delivery(vec![refunded(1), entry(2), entry(3)]),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    // Three payments and one refund; the first three attempts are refused, then all arrive.
    let got = eventually_within(
        Duration::from_secs(30),
        "every delivery taken",
        async || {
            let got = taken(&received, refused);
            (got.len() >= 4).then_some(got)
        },
    )
    .await;
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let got_then = taken(&received, refused);
    assert_eq!(got_then.len(), 4, "nothing is sent twice once taken");
    let mut ids: Vec<&str> = got.iter().filter_map(|(_, b)| b["id"].as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 4, "one delivery per event");
    for (headers, body) in &got {
        assert_eq!(
            headers.get("balcao-evento").and_then(|v| v.to_str().ok()),
            body["type"].as_str()
        );
        assert_eq!(body["accountId"], owner.account_id.as_str());
    }
    // Every request, refused ones included, is signed over the bytes it carried.
    for (headers, raw) in received.requests.lock().expect("not poisoned").iter() {
        let header = headers
            .get("balcao-assinatura")
            .and_then(|v| v.to_str().ok())
            .expect("signed");
        assert!(signed_with(&secret, header, raw), "the signature checks");
        assert!(!signed_with("whsec_outro", header, raw));
    }
    // The refunded payment: received before paid back, whatever the retries did.
    let first = "E87654321202009091221".to_owned() + &format!("{:011}", 1);
    let of_first: Vec<&str> = got
        .iter()
        .filter(|(_, b)| b["data"]["reference"] == first.as_str())
        .filter_map(|(_, b)| b["type"].as_str())
        .collect();
    assert_eq!(of_first, ["pagamento.recebido", "pagamento.devolvido"]);
    let paid = got
        .iter()
        .find(|(_, b)| b["type"] == "pagamento.recebido")
        .expect("a payment");
    assert_eq!(paid.1["data"]["amountCentavos"], 11_000);
    assert!(
        paid.1["data"].get("payerName").is_none(),
        "no personal data"
    );

    // The address's log says each was delivered, after how many attempts.
    let log = owner
        .get(&Person::in_account(
            &owner.account_id.clone(),
            &format!("/webhooks/{endpoint_id}/entregas"),
        ))
        .await;
    assert_eq!(log.status, StatusCode::OK, "{}", log.text);
    let deliveries = log.json["deliveries"].as_array().expect("deliveries");
    assert_eq!(deliveries.len(), 4);
    assert!(
        deliveries.iter().all(|d| d["status"] == "entregue"),
        "{}",
        log.text
    );
    let attempts: i64 = deliveries
        .iter()
        .filter_map(|d| d["attempts"].as_i64())
        .sum();
    assert_eq!(attempts, 4 + i64::try_from(refused).expect("small"));
    // Sending a delivered one again is refused.
    let id = deliveries[0]["id"].as_str().expect("id");
    let again = owner
        .post(
            &Person::in_account(
                &owner.account_id.clone(),
                &format!("/webhooks/entregas/{id}/reenviar"),
            ),
            &json!({}),
        )
        .await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.text);
    assert_eq!(again.code(), "webhook-already-delivered");
    app.stop().await;
}

#[tokio::test]
async fn an_address_hears_only_what_it_chose_and_only_what_happened_after_it_was_registered() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona da Padaria").await;
    let key_id = register_key(&mut owner).await;
    let bank = turn_on(&mut owner, key_id).await;
    let (status, _) = post_delivery(&app, &bank, delivery(vec![entry(1)]), None).await;
    assert_eq!(status, StatusCode::OK);
    // Give the outbox time to read past the first payment before anyone listens.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (url, received) = receiver(0).await;
    register(&mut owner, &url, &["pagamento.devolvido"]).await;
    let (url_all, received_all) = receiver(0).await;
    register(&mut owner, &url_all, &["pagamento.recebido"]).await;
    let (status, _) = post_delivery(&app, &bank, delivery(vec![entry(2)]), None).await;
    assert_eq!(status, StatusCode::OK);
    let got = eventually_within(Duration::from_secs(20), "the new payment", async || {
        let got = taken(&received_all, 0);
        (!got.is_empty()).then_some(got)
    })
    .await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let got_then = taken(&received_all, 0);
    assert_eq!(
        got_then.len(),
        1,
        "only the payment after registering: {got:?}"
    );
    assert_eq!(
        got[0].1["data"]["reference"],
        format!("E87654321202009091221{:011}", 2)
    );
    assert!(
        taken(&received, 0).is_empty(),
        "an address for refunds hears of no payment"
    );
    app.stop().await;
}

#[tokio::test]
async fn an_address_inside_the_network_or_an_unknown_event_is_refused_by_field_without_the_sandbox_setting()
 {
    let app = TestApp::spawn_with(|settings| settings.webhooks_allow_private = false).await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona da Padaria").await;
    let path = Person::in_account(&owner.account_id.clone(), "/webhooks");
    for url in [
        "http://127.0.0.1:9/avisos",
        "https://127.0.0.1/avisos",
        "https://169.254.169.254/latest/meta-data",
        "https://localhost/avisos",
        "loja.com.br",
    ] {
        let refused = owner
            .post(
                &path,
                &json!({"url": url, "events": ["pagamento.recebido"]}),
            )
            .await;
        assert_eq!(
            refused.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{url}: {}",
            refused.text
        );
        assert_eq!(refused.field(), Some("url"), "{url}");
    }
    let refused = owner
        .post(
            &path,
            &json!({"url": "https://loja.com.br/avisos", "events": ["tudo"]}),
        )
        .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(refused.field(), Some("events"));
    let made = owner
        .post(
            &path,
            &json!({"url": "https://loja.com.br/avisos", "events": ["pagamento.recebido"]}),
        )
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    let listed = owner.get(&path).await;
    assert_eq!(
        listed.json["webhooks"][0]["url"],
        "https://loja.com.br/avisos"
    );
    assert!(!listed.text.contains("whsec_"), "the secret is shown once");
    app.stop().await;
}

/// The distinct event ids a receiver got, and how many requests repeated one.
fn ids_and_repeats(received: &Received) -> (std::collections::BTreeSet<String>, usize) {
    let requests = received.requests.lock().expect("not poisoned");
    let ids: Vec<String> = requests
        .iter()
        .filter_map(|(_, body)| serde_json::from_slice::<Value>(body).ok())
        .filter_map(|body| body["id"].as_str().map(str::to_owned))
        .collect();
    let distinct: std::collections::BTreeSet<String> = ids.iter().cloned().collect();
    let repeats = ids.len() - distinct.len();
    (distinct, repeats)
}

/// Payments the kill -9 test's bank reports in one delivery.
const KILLED_MID_WAY: usize = 300;

#[tokio::test]
async fn a_sender_killed_with_sigkill_mid_way_loses_no_delivery_and_repeats_only_what_was_in_flight()
 {
    // The test's own gateway sends nothing: the `balcao serve` processes below do.
    let app = TestApp::spawn_with(|settings| settings.webhooks_send = false).await;
    let db = app.db().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona da Padaria").await;
    let key_id = register_key(&mut owner).await;
    let bank = turn_on(&mut owner, key_id).await;
    let (url, received) = receiver_answering_after(0, 100).await;
    register(&mut owner, &url, &["pagamento.recebido"]).await;
    let entries: Vec<Value> = (1..=KILLED_MID_WAY).map(entry).collect();
    let (status, answer) = post_delivery(&app, &bank, delivery(entries), None).await;
    assert_eq!(status, StatusCode::OK, "{answer}");

    let env = [
        ("BALCAO_WEBHOOKS_ALLOW_PRIVATE", "true".to_owned()),
        ("BALCAO_WEBHOOK_FIRST_RETRY_MS", "200".to_owned()),
    ];
    let first = RoleProcess::start(&app, "serve", &env);
    let at_kill = eventually_within(
        Duration::from_secs(600),
        "the first sender at work",
        async || {
            let got = received.requests.lock().expect("not poisoned").len();
            (got >= 30).then_some(got)
        },
    )
    .await;
    let log = first.output();
    first.kill_9().await;
    assert!(
        at_kill < KILLED_MID_WAY,
        "the kill came after every delivery: {log}"
    );

    // A new process sends the rest, and what the dead one held once its leases end.
    let second = RoleProcess::start(&app, "serve", &env);
    let (ids, repeats) =
        eventually_within(Duration::from_secs(600), "every delivery", async || {
            let (ids, repeats) = ids_and_repeats(&received);
            (ids.len() == KILLED_MID_WAY).then_some((ids, repeats))
        })
        .await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (_, repeats_then) = ids_and_repeats(&received);
    assert_eq!(
        repeats, repeats_then,
        "nothing more is sent once all are taken"
    );
    // At most the deliveries the dead sender had in flight (it posts eight at a time).
    assert!(
        repeats <= 8,
        "{repeats} repeats; second process: {}",
        second.output()
    );
    let events: Vec<String> = sqlx::query_scalar(
        "select event_id::text from events where event_type = 'PaymentRecorded' order by 1",
    )
    .fetch_all(&db)
    .await
    .expect("the log reads");
    assert_eq!(
        ids.into_iter().collect::<Vec<_>>(),
        events,
        "one delivery per payment"
    );
    let undelivered: i64 =
        sqlx::query_scalar("select count(*) from webhook_deliveries where delivered_at is null")
            .fetch_one(&db)
            .await
            .expect("the deliveries read");
    assert_eq!(undelivered, 0);
    second.kill_9().await;
    app.stop().await;
}

#[tokio::test]
async fn a_replaced_secret_signs_beside_the_new_one_so_the_receiver_can_switch_without_refusing() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona da Padaria").await;
    let key_id = register_key(&mut owner).await;
    let bank = turn_on(&mut owner, key_id).await;
    let (url, received) = receiver(0).await;
    let (endpoint_id, old) = register(&mut owner, &url, &["pagamento.recebido"]).await;
    let account = owner.account_id.clone();
    let replaced = owner
        .post(
            &Person::in_account(&account, &format!("/webhooks/{endpoint_id}/segredo")),
            &json!({}),
        )
        .await;
    assert_eq!(replaced.status, StatusCode::OK, "{}", replaced.text);
    let new = replaced.json["secret"].as_str().expect("secret").to_owned();
    assert!(new.starts_with("whsec_") && new != old);
    assert!(replaced.json["previousValidUntil"].is_string());
    let (status, _) = post_delivery(&app, &bank, delivery(vec![entry(1)]), None).await;
    assert_eq!(status, StatusCode::OK);
    eventually_within(Duration::from_secs(20), "the delivery", async || {
        (!taken(&received, 0).is_empty()).then_some(())
    })
    .await;
    let (headers, raw) = received
        .requests
        .lock()
        .expect("not poisoned")
        .first()
        .cloned()
        .expect("a request");
    let header = headers
        .get("balcao-assinatura")
        .and_then(|v| v.to_str().ok())
        .expect("signed");
    assert_eq!(header.matches("v1=").count(), 2, "{header}");
    assert!(signed_with(&new, header, &raw), "the new secret checks");
    assert!(signed_with(&old, header, &raw), "the old one still checks");
    // Another account cannot replace it.
    let mut stranger = sign_up(&app, "vizinho@outra.test", "Vizinho").await;
    let refused = stranger
        .post(
            &Person::in_account(&account, &format!("/webhooks/{endpoint_id}/segredo")),
            &json!({}),
        )
        .await;
    assert_eq!(refused.status, StatusCode::NOT_FOUND);
    app.stop().await;
}
