//! Live updates over server-sent events (`gateway::live`): one notification per payment however
//! often the bank repeats itself, heartbeats, resuming with `Last-Event-ID`, who sees what, and
//! a payer stream that says only "paid".

use std::time::Duration;

use futures::future::join_all;
use reqwest::StatusCode;
use serde_json::{Value, json};
use tests::TestApp;

use super::support::{
    code_with_txid, delivery, post_delivery, register_key, spec_example, turn_on, wait_for_payments,
};
use crate::workspace::support::{Person, sign_up, team};

/// Longest a test waits for one event.
pub(crate) const PATIENCE: Duration = Duration::from_secs(15);

/// One block of a stream: an event, or a comment line (a heartbeat).
#[derive(Debug, Default, Clone)]
pub(crate) struct Block {
    pub(crate) event: Option<String>,
    pub(crate) id: Option<String>,
    pub(crate) data: String,
    pub(crate) comment: Option<String>,
}

impl Block {
    pub(crate) fn json(&self) -> Value {
        serde_json::from_str(&self.data).unwrap_or(Value::Null)
    }
}

/// A server-sent-events reader over a plain HTTP response.
pub(crate) struct Stream {
    response: reqwest::Response,
    buffer: String,
    /// Everything read, as sent (to look for what must never be there).
    pub(crate) raw: String,
}

impl Stream {
    /// Opens `path`; `token` as a bearer token, `last_id` as `Last-Event-ID`.
    pub(crate) async fn open(
        app: &TestApp,
        path: &str,
        token: Option<&str>,
        last_id: Option<&str>,
    ) -> Self {
        let response = Self::request(app, path, token, last_id).await;
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        assert_eq!(
            response.headers()["content-type"],
            "text/event-stream",
            "{path}"
        );
        Stream {
            response,
            buffer: String::new(),
            raw: String::new(),
        }
    }

    pub(crate) async fn request(
        app: &TestApp,
        path: &str,
        token: Option<&str>,
        last_id: Option<&str>,
    ) -> reqwest::Response {
        let mut request = app.client().get(app.url(path));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(id) = last_id {
            request = request.header("last-event-id", id);
        }
        request.send().await.expect("the gateway answers")
    }

    /// The next block (event or comment), or `None` if nothing came within `within`.
    pub(crate) async fn next_block(&mut self, within: Duration) -> Option<Block> {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let text: String = self.buffer.drain(..end + 2).collect();
                let mut block = Block::default();
                let mut data = Vec::new();
                for line in text.lines() {
                    if let Some(comment) = line.strip_prefix(':') {
                        block.comment = Some(comment.trim().to_owned());
                    } else if let Some((field, value)) = line.split_once(':') {
                        let value = value.strip_prefix(' ').unwrap_or(value).to_owned();
                        match field {
                            "event" => block.event = Some(value),
                            "id" => block.id = Some(value),
                            "data" => data.push(value),
                            _ => {}
                        }
                    }
                }
                block.data = data.join("\n");
                return Some(block);
            }
            let chunk = tokio::time::timeout_at(deadline, self.response.chunk())
                .await
                .ok()?
                .expect("the stream reads")?;
            let text = String::from_utf8_lossy(&chunk).into_owned();
            self.raw.push_str(&text);
            self.buffer.push_str(&text);
        }
    }

    /// The next event named `name` (skipping comments and the opening block).
    pub(crate) async fn next_event(&mut self, name: &str) -> Option<Block> {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            let block = self.next_block(left).await?;
            if block.event.as_deref() == Some(name) {
                return Some(block);
            }
        }
    }
}

fn token(person: &Person) -> String {
    person.browser.access_token.clone().expect("signed in")
}

fn events_path(account: &str) -> String {
    Person::in_account(account, "/events")
}

/// `pixWebhook2` paying `txid` under end-to-end id number `n`, with a payer's name and document.
fn paying(txid: &str, n: usize) -> Value {
    let mut entry = spec_example("pixWebhook2");
    entry["endToEndId"] = json!(format!("E87654321202009091221{n:011}"));
    entry["txid"] = json!(txid);
    entry["pagador"] = json!({"nome": "Fulano Pagador", "cpf": "12345678909"});
    entry
}

/// `person` records a payment by hand (to `code`, if any); answers its reference.
async fn record(person: &mut Person, account: &str, code: Option<&str>, amount: &str) -> String {
    let made = person
        .post(
            &Person::in_account(account, "/payments"),
            &json!({"qrcodeId": code, "amount": amount}),
        )
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    made.json["reference"]
        .as_str()
        .expect("reference")
        .to_owned()
}

#[tokio::test]
async fn a_hundred_simultaneous_deliveries_of_one_entry_make_exactly_one_live_notification() {
    let app = TestApp::spawn().await;
    let db = app.db().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona da Padaria").await;
    let account = owner.account_id.clone();
    let key = register_key(&mut owner).await;
    let code = code_with_txid(&mut owner, &account, "placa0001").await;
    let url = turn_on(&mut owner, key).await;
    let mut dashboard =
        Stream::open(&app, &events_path(&account), Some(&token(&owner)), None).await;
    let mut payer = Stream::open(&app, &format!("/pagamento/{code}/eventos"), None, None).await;
    let opening = payer
        .next_event("pagamento")
        .await
        .expect("the payer's first answer");
    assert_eq!(opening.json(), json!({"pago": false}));

    let answers = join_all(
        (0..100).map(|_| post_delivery(&app, &url, delivery(vec![paying("placa0001", 1)]), None)),
    )
    .await;
    assert!(answers.iter().all(|(status, _)| *status == StatusCode::OK));
    wait_for_payments(&db, 1).await;
    // A second payment afterwards: events come in feed order, so anything the first one caused
    // arrives before the second's.
    post_delivery(&app, &url, delivery(vec![paying("outra", 2)]), None).await;

    let first = dashboard
        .next_event("pagamento")
        .await
        .expect("the payment");
    assert_eq!(first.json()["qrcodeId"], code.as_str());
    assert_eq!(first.json()["amountCentavos"], 11_000);
    assert_eq!(first.json()["status"], "received");
    let second = dashboard
        .next_event("pagamento")
        .await
        .expect("the next payment");
    assert_eq!(
        second.json()["reference"],
        "E8765432120200909122100000000002",
        "the hundred deliveries made one notification, then came the other payment"
    );
    let paid = payer.next_event("pagamento").await.expect("paid");
    assert_eq!(paid.json(), json!({"pago": true}));
    assert!(
        payer.next_block(Duration::from_millis(800)).await.is_none(),
        "one notification for the code, and nothing for the other payment"
    );
    app.stop().await;
}

#[tokio::test]
async fn a_quiet_stream_gets_heartbeats() {
    let app = TestApp::spawn_with(|s| s.server.live_heartbeat_ms = 200).await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona da Padaria").await;
    let account = owner.account_id.clone();
    let code = code_with_txid(&mut owner, &account, "placa0001").await;
    for path in [format!("/pagamento/{code}/eventos"), events_path(&account)] {
        let mut stream = Stream::open(&app, &path, Some(&token(&owner)), None).await;
        let mut heartbeats = 0;
        while heartbeats < 2 {
            let block = stream
                .next_block(Duration::from_secs(5))
                .await
                .unwrap_or_else(|| panic!("{path}: no heartbeat within 5 s"));
            if block.comment.as_deref() == Some("♥") {
                heartbeats += 1;
            }
        }
    }
    app.stop().await;
}

#[tokio::test]
async fn a_dashboard_that_reconnects_with_last_event_id_gets_the_payment_it_missed() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona da Padaria").await;
    let account = owner.account_id.clone();
    let mut stream = Stream::open(&app, &events_path(&account), Some(&token(&owner)), None).await;
    let seen = record(&mut owner, &account, None, "1,00").await;
    let event = stream
        .next_event("pagamento")
        .await
        .expect("the first payment");
    assert_eq!(event.json()["reference"], seen.as_str());
    let last_id = event.id.expect("every event has an id");
    drop(stream);

    let missed = record(&mut owner, &account, None, "2,00").await;
    let mut resumed = Stream::open(
        &app,
        &events_path(&account),
        Some(&token(&owner)),
        Some(&last_id),
    )
    .await;
    let replayed = resumed
        .next_event("pagamento")
        .await
        .expect("the missed payment");
    assert_eq!(
        replayed.json()["reference"],
        missed.as_str(),
        "not the one already seen"
    );
    assert_eq!(replayed.json()["amountCentavos"], 200);
    // And it goes on live from there.
    let after = record(&mut owner, &account, None, "3,00").await;
    let live = resumed.next_event("pagamento").await.expect("the next one");
    assert_eq!(live.json()["reference"], after.as_str());

    // `?desde=` does the same where a header cannot be set.
    let mut by_query = Stream::open(
        &app,
        &format!("{}?desde={last_id}", events_path(&account)),
        Some(&token(&owner)),
        None,
    )
    .await;
    let replayed = by_query.next_event("pagamento").await.expect("replayed");
    assert_eq!(replayed.json()["reference"], missed.as_str());
    app.stop().await;
}

#[tokio::test]
async fn an_operator_hears_only_of_payments_to_their_own_codes_and_others_get_nothing() {
    let app = TestApp::spawn().await;
    let mut people = team(&app).await;
    let account = people.owner.account_id.clone();
    let owners_code = code_with_txid(&mut people.owner, &account, "dona1").await;
    let operators_code = code_with_txid(&mut people.operator, &account, "caixa1").await;
    let mut operator = Stream::open(
        &app,
        &events_path(&account),
        Some(&token(&people.operator)),
        None,
    )
    .await;
    let mut owner = Stream::open(
        &app,
        &events_path(&account),
        Some(&token(&people.owner)),
        None,
    )
    .await;
    record(&mut people.owner, &account, Some(&owners_code), "5,00").await;
    record(&mut people.owner, &account, None, "6,00").await;
    let theirs = record(
        &mut people.operator,
        &account,
        Some(&operators_code),
        "7,00",
    )
    .await;
    let first = operator
        .next_event("pagamento")
        .await
        .expect("their payment");
    assert_eq!(
        first.json()["reference"],
        theirs.as_str(),
        "the owner's code and the payment without a code are not the operator's"
    );
    for _ in 0..3 {
        let event = owner.next_event("pagamento").await.expect("every payment");
        assert!(
            event.json().get("payer").is_none(),
            "no payer data on a stream"
        );
    }

    for (who, token) in [
        ("stranger", Some(token(&people.stranger))),
        ("removed member", Some(token(&people.removed))),
    ] {
        let refused = Stream::request(&app, &events_path(&account), token.as_deref(), None).await;
        assert_eq!(refused.status(), StatusCode::NOT_FOUND, "{who}");
        let body: Value = refused.json().await.expect("JSON");
        assert_eq!(body["error"]["code"], "not-found", "{who}");
    }
    let anonymous = Stream::request(&app, &events_path(&account), None, None).await;
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
    let unknown = Stream::request(
        &app,
        &format!("/pagamento/{}/eventos", uuid::Uuid::now_v7()),
        None,
        None,
    )
    .await;
    assert_eq!(unknown.status(), StatusCode::NOT_FOUND);
    app.stop().await;
}

#[tokio::test]
async fn the_payer_stream_says_paid_and_nothing_about_the_payer_or_the_payment() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona da Padaria").await;
    let account = owner.account_id.clone();
    let key = register_key(&mut owner).await;
    let code = code_with_txid(&mut owner, &account, "placa0001").await;
    let url = turn_on(&mut owner, key).await;
    let mut payer = Stream::open(&app, &format!("/pagamento/{code}/eventos"), None, None).await;
    payer
        .next_event("pagamento")
        .await
        .expect("the first answer");
    let (status, answer) =
        post_delivery(&app, &url, delivery(vec![paying("placa0001", 7)]), None).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let paid = payer.next_event("pagamento").await.expect("paid");
    assert_eq!(paid.data, r#"{"pago":true}"#);
    for secret in [
        "Fulano",
        "12345678909",
        "0123456789",
        "E876543",
        "110",
        "placa0001",
    ] {
        // Event ids (`id:` lines) are feed positions: digits that may hold "110" by chance.
        let sent: String = payer
            .raw
            .lines()
            .filter(|line| !line.starts_with("id:"))
            .collect::<Vec<_>>()
            .join("\n");
        assert!(!sent.contains(secret), "{secret} in {}", payer.raw);
    }
    // A page opened afterwards starts ready to pay: that payment was someone else's.
    let mut later = Stream::open(&app, &format!("/pagamento/{code}/eventos"), None, None).await;
    let first = later
        .next_event("pagamento")
        .await
        .expect("the first answer");
    assert_eq!(first.json(), json!({"pago": false}));
    app.stop().await;
}

/// Signs the shop up with a code; answers the owner, the account and the code's payer stream.
async fn owner_with_a_code(app: &TestApp) -> (Person, String, String) {
    let mut owner = sign_up(app, "dona@padaria.test", "Dona da Padaria").await;
    let account = owner.account_id.clone();
    let code = code_with_txid(&mut owner, &account, "placa0001").await;
    (owner, account, format!("/pagamento/{code}/eventos"))
}

/// Opens two streams (the payer's and the dashboard's) from the test's own address, 127.0.0.1,
/// and checks that a third of each kind is then refused: 503, `Retry-After`, and the connection
/// closed, so a client retrying in a loop holds no idle connection between its tries. Answers
/// the two open streams.
async fn two_streams_then_refusals(
    app: &TestApp,
    owner: &Person,
    account: &str,
    path: &str,
) -> (Stream, Stream) {
    let one = Stream::open(app, path, None, None).await;
    let two = Stream::open(app, &events_path(account), Some(&token(owner)), None).await;
    let third = Stream::request(app, path, None, None).await;
    assert_eq!(third.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(third.headers().contains_key("retry-after"));
    assert_eq!(third.headers()["connection"], "close");
    let fourth = Stream::request(app, &events_path(account), Some(&token(owner)), None).await;
    assert_eq!(fourth.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(fourth.headers()["connection"], "close");
    let body: Value = fourth.json().await.expect("JSON");
    assert_eq!(body["error"]["code"], "live-updates-full");
    (one, two)
}

#[tokio::test]
async fn streams_beyond_the_bound_are_refused_with_retry_after_and_shutdown_ends_the_others() {
    let app = TestApp::spawn_with(|s| s.server.live_max_clients = 2).await;
    let (owner, account, path) = owner_with_a_code(&app).await;
    let (one, _two) = two_streams_then_refusals(&app, &owner, &account, &path).await;
    drop(one);
    // The place is given back when a client goes.
    tests::eventually("a place freed", async || {
        let again = Stream::request(&app, &path, None, None).await;
        (again.status() == StatusCode::OK).then_some(())
    })
    .await;
    // Stopping does not wait for the open streams.
    tokio::time::timeout(Duration::from_secs(20), app.stop())
        .await
        .expect("the server stops with streams open");
}

#[tokio::test]
async fn one_address_cannot_hold_every_live_stream_and_another_address_still_gets_one() {
    let app = TestApp::spawn_with(|s| {
        s.server.live_max_clients = 4;
        s.server.live_max_clients_per_address = 2;
    })
    .await;
    let (owner, account, path) = owner_with_a_code(&app).await;
    // Two of the four places, all that 127.0.0.1 may hold.
    let _open = two_streams_then_refusals(&app, &owner, &account, &path).await;

    // Another address (all of 127.0.0.0/8 is loopback on Linux) still gets a place.
    let elsewhere = reqwest::Client::builder()
        .local_address(std::net::IpAddr::from([127, 0, 0, 2]))
        .build()
        .expect("client builds");
    let other = elsewhere
        .get(app.url(&path))
        .send()
        .await
        .expect("the gateway answers");
    assert_eq!(other.status(), StatusCode::OK);
    app.stop().await;
}
