//! The API Pix intake decides on the write side: a payment finds its code by the code's committed
//! txid claim whatever the read models (projector stopped, NATS unreachable), and one delivery's
//! locks stay few whatever its size.
//!
//! Keys, codes and txids are made through the API, as a person makes them.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::time::Duration;

use futures::future::join_all;
use gateway::roles::{self, Roles};
use reqwest::StatusCode;
use serde_json::{Value, json};
use sqlx::PgPool;
use tests::{TestApp, dead_nats_url, project, serve_and_relay};
use uuid::Uuid;

use super::support::{delivery, path_of, payment_events, read_models, register_key, turn_on};
use crate::workspace::support::{Person, qrcode_body, sign_up};

/// `owner` makes a code through the API (with `txid` typed, or a generated one); answers its id
/// and txid.
async fn make_code(owner: &mut Person, txid: Option<&str>) -> (String, String) {
    let mut body = qrcode_body("Padaria");
    if let Some(txid) = txid {
        body["txid"] = json!(txid);
    }
    let made = owner
        .post(&Person::in_account(&owner.account_id, "/qrcodes"), &body)
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    (
        made.json["id"].as_str().expect("id").to_owned(),
        made.json["txid"].as_str().expect("txid").to_owned(),
    )
}

/// One entry paying `txid`, under end-to-end id number `n`.
fn paying(txid: &str, n: usize) -> Value {
    json!({
        "endToEndId": format!("E87654321202611271221{n:011}"),
        "txid": txid,
        "valor": "12.50",
        "horario": "2026-11-27T12:21:00Z",
    })
}

/// POSTs `body` to the receiver at `url` on the gateway at `base` (`http://host:port`).
async fn post_to(base: &str, url: &str, body: Vec<u8>) -> (StatusCode, Value) {
    let response = reqwest::Client::new()
        .post(format!("{base}{}/pix", path_of(url)))
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .expect("the gateway answers");
    let status = response.status();
    let text = response.text().await.unwrap_or_default();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// [`post_to`] as a bank's webhook sender does it: a 503 is tried again after the 5 s its
/// `Retry-After` asks (the API Pix's senders retry), a few times at most; answers the last try.
///
/// Deliveries to one account take their turns on its lock buckets, and the turn of the last of
/// three waits for the other two: on a loaded machine (the whole suite beside it) that wait
/// outlasts the statement timeout, and the receiver answers 503 having written nothing.
async fn deliver_as_a_bank(base: &str, url: &str, body: Vec<u8>) -> (StatusCode, Value) {
    let mut tries = 1;
    loop {
        let (status, answer) = post_to(base, url, body.clone()).await;
        if status != StatusCode::SERVICE_UNAVAILABLE || tries == 5 {
            return (status, answer);
        }
        tries += 1;
        tokio::time::sleep(Duration::from_secs(5)).await;
    }
}

/// The code each `PaymentRecorded` in the log names, by end-to-end id.
async fn codes_in_the_log(db: &PgPool) -> Vec<(String, Option<String>)> {
    sqlx::query_as(
        "select payload->>'end_to_end_id', payload->>'qrcode_id' from events
          where event_type = 'PaymentRecorded' order by payload->>'end_to_end_id'",
    )
    .fetch_all(db)
    .await
    .expect("the log reads")
}

#[tokio::test]
async fn payments_reported_before_their_codes_are_projected_are_matched_with_the_projector_or_nats_stopped()
 {
    let app = TestApp::spawn_roles(serve_and_relay(), |_| {}).await;
    let db = app.db().await;
    // Signing up, the key and the receiver are projected as usual...
    let projector = app.start_roles(project()).await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona da Padaria").await;
    let key_id = register_key(&mut owner).await;
    let url = turn_on(&mut owner, key_id).await;
    // ...then the projector stops, and two codes are made that no read model shows yet.
    projector.stop().await.expect("the projector stops");
    let (typed, typed_txid) = make_code(&mut owner, Some("MESA07")).await;
    let (generated, generated_txid) = make_code(&mut owner, None).await;
    let listed: i64 = sqlx::query_scalar("select count(*) from qrcodes")
        .fetch_one(&db)
        .await
        .expect("qrcodes");
    assert_eq!(listed, 0, "the codes are not projected");

    // The bank pays the first to this gateway, whose projector is stopped.
    let (status, answer) =
        post_to(&app.url(""), &url, delivery(vec![paying(&typed_txid, 1)])).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    // And the second to another gateway, which cannot reach NATS at all.
    let mut without_nats = app.settings.clone();
    without_nats.nats_url = dead_nats_url();
    let other = roles::start(
        &without_nats,
        Roles {
            serve: true,
            ..Roles::default()
        },
    )
    .await
    .expect("a gateway starts without NATS");
    let other_base = format!("http://{}", other.local_addr.expect("it listens"));
    let (status, answer) = post_to(
        &other_base,
        &url,
        delivery(vec![paying(&generated_txid, 2), paying("NINGUEM", 3)]),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    other.stop().await.expect("the other gateway stops");

    let expected = vec![
        (
            format!("E87654321202611271221{:011}", 1),
            Some(typed.clone()),
        ),
        (format!("E87654321202611271221{:011}", 2), Some(generated)),
        (format!("E87654321202611271221{:011}", 3), None),
    ];
    assert_eq!(codes_in_the_log(&db).await, expected);

    // Once the projector runs again, the transactions show the codes; a replay shows the same.
    let projector = app.start_roles(project()).await;
    let live = tests::eventually("three payments projected", async || {
        let models = read_models(&db).await;
        (models.0.len() == 3).then_some(models)
    })
    .await;
    let rows: Vec<(String, Option<Uuid>)> =
        sqlx::query_as("select end_to_end_id, qrcode_id from payments order by end_to_end_id")
            .fetch_all(&db)
            .await
            .expect("payments");
    let matched: Vec<(String, Option<String>)> = rows
        .into_iter()
        .map(|(e2e, code)| (e2e, code.map(|c| c.hyphenated().to_string())))
        .collect();
    assert_eq!(matched, expected);
    let list = owner
        .get(&Person::in_account(&owner.account_id, "/payments"))
        .await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.text);
    let first = list.json["payments"]
        .as_array()
        .and_then(|p| p.iter().find(|p| p["qrcodeId"] == typed.as_str()))
        .expect("the typed code's payment is listed with its code");
    assert_eq!(first["amountCentavos"], 1_250);
    projector.stop().await.expect("the projector stops");
    roles::replay(&app.settings, &["payments".to_owned()], false)
        .await
        .expect("the replay runs");
    assert_eq!(read_models(&db).await, live);
    app.stop().await;
}

/// The smallest entry the spec allows (98 bytes with its comma), under end-to-end id `n`.
fn smallest(n: usize) -> String {
    format!(r#"{{"endToEndId":"E{n:031}","valor":"0.01","horario":"2026-11-27T12:00:00Z"}}"#)
}

/// A delivery of the smallest entries numbered `from..from + count`.
fn smallest_delivery(from: usize, count: usize) -> Vec<u8> {
    let entries: Vec<String> = (from..from + count).map(smallest).collect();
    format!(r#"{{"pix":[{}]}}"#, entries.join(",")).into_bytes()
}

/// The most advisory locks held at once in the app's database while a test runs.
struct LockSampler {
    stop: Arc<AtomicBool>,
    most: Arc<AtomicI64>,
    task: tokio::task::JoinHandle<()>,
}

impl LockSampler {
    async fn start(app: &TestApp) -> LockSampler {
        let db = app.db().await;
        let stop = Arc::new(AtomicBool::new(false));
        let most = Arc::new(AtomicI64::new(0));
        let task = {
            let (stop, most) = (Arc::clone(&stop), Arc::clone(&most));
            tokio::spawn(async move {
                while !stop.load(Ordering::SeqCst) {
                    let held: i64 = sqlx::query_scalar(
                        "select count(*) from pg_locks
                          where locktype = 'advisory'
                            and database = (select oid from pg_database
                                             where datname = current_database())",
                    )
                    .fetch_one(&db)
                    .await
                    .expect("pg_locks reads");
                    most.fetch_max(held, Ordering::SeqCst);
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            })
        };
        LockSampler { stop, most, task }
    }

    async fn finish(self) -> i64 {
        self.stop.store(true, Ordering::SeqCst);
        self.task.await.expect("sampler");
        self.most.load(Ordering::SeqCst)
    }
}

#[tokio::test]
async fn three_simultaneous_deliveries_of_a_mebibyte_each_are_all_recorded_holding_few_locks() {
    let app = TestApp::spawn().await;
    let db = app.db().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona da Padaria").await;
    let key_id = register_key(&mut owner).await;
    let url = turn_on(&mut owner, key_id).await;
    let per_delivery = 10_699;
    let bodies: Vec<Vec<u8>> = (0..3)
        .map(|i| smallest_delivery(i * per_delivery, per_delivery))
        .collect();
    assert!(
        bodies
            .iter()
            .all(|b| b.len() <= gateway::config::DEFAULT_API_PIX_MAX_BODY_BYTES),
        "each is within the default limit"
    );
    let sampler = LockSampler::start(&app).await;
    let base = app.url("");
    let answers = join_all(
        bodies
            .into_iter()
            .map(|body| deliver_as_a_bank(&base, &url, body)),
    )
    .await;
    let most_locks = sampler.finish().await;
    for (status, answer) in &answers {
        assert_eq!(*status, StatusCode::OK, "{answer}");
        assert_eq!(answer["recebidos"], per_delivery);
        // A try answered 503 wrote nothing: the one that went in found every entry new.
        assert_eq!(answer["novos"], per_delivery);
    }
    assert_eq!(
        payment_events(&db).await,
        i64::try_from(3 * per_delivery).expect("small")
    );
    // Each delivery: its streams' buckets and its amounts' buckets.
    let bound = 3 * 2 * commands::payments::LOCK_BUCKETS;
    assert!(
        most_locks <= bound,
        "at most {bound} advisory locks at once, saw {most_locks}"
    );
    app.stop().await;
}

#[tokio::test]
async fn a_delivery_of_more_entries_than_the_bound_answers_413_and_writes_nothing() {
    let app =
        TestApp::spawn_with(|settings| settings.payments.api_pix_max_body_bytes = 2 * 1024 * 1024)
            .await;
    let db = app.db().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona da Padaria").await;
    let key_id = register_key(&mut owner).await;
    let url = turn_on(&mut owner, key_id).await;
    let bound = commands::payments::intake::MAX_ENTRIES;
    let (status, answer) = post_to(&app.url(""), &url, smallest_delivery(0, bound + 1)).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{answer}");
    assert_eq!(answer["type"], "https://balcao.app/erros/pix-demais");
    assert!(
        answer["detail"]
            .as_str()
            .is_some_and(|d| d.contains("traz 11.001 Pix") && d.contains("limite é de 11.000")),
        "{answer}"
    );
    assert_eq!(payment_events(&db).await, 0);
    let (status, answer) = post_to(&app.url(""), &url, smallest_delivery(0, bound)).await;
    assert_eq!(
        status,
        StatusCode::OK,
        "exactly the bound goes in: {answer}"
    );
    assert_eq!(
        payment_events(&db).await,
        i64::try_from(bound).expect("small")
    );
    app.stop().await;
}
