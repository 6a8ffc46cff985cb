//! A lagging read model never fails a request: waiting for one holds no database connection,
//! a made-up position makes nobody wait, a code or an account the projector has not written yet
//! is drawn from the event log, and a committed write is answered from the command's own result
//! when the read model is late.
//!
//! The gateway's pool has 20 connections; every test here puts more requests than that in
//! flight at once. Failures are counted, never timed (speed figures are in `BENCHMARKS.md`).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::time::{Duration, Instant};

use crate::workspace::support::{Person, qrcode_body, register_key_as, sign_up};
use reqwest::StatusCode;
use serde_json::{Value, json};
use tests::{TestApp, eventually_within, project, serve_and_relay};
use uuid::Uuid;

/// More than the gateway's pool (20 connections).
const PARALLEL: usize = 40;

/// The sign form's confirmation step for a code named `name`.
fn sign_form(name: &str) -> Vec<(&'static str, String)> {
    vec![
        ("tipo", String::new()),
        ("chave", "loja@padaria.test".to_owned()),
        ("nome", name.to_owned()),
        ("cidade", "Recife".to_owned()),
        ("valor", "7,00".to_owned()),
        ("descricao", String::new()),
        ("confirmar", "1".to_owned()),
        ("pedido", Uuid::new_v4().to_string()),
    ]
}

/// Watches the app's database connections while a test runs: the most gateway-pool
/// connections seen sitting in `LISTEN` at once (a request waiting for a read model on a pooled
/// connection), and the most read-your-writes listener connections (the one per gateway).
struct ListenerSampler {
    stop: Arc<AtomicBool>,
    pooled: Arc<AtomicI64>,
    dedicated: Arc<AtomicI64>,
    task: tokio::task::JoinHandle<()>,
}

impl ListenerSampler {
    async fn start(app: &TestApp) -> ListenerSampler {
        let db = app.db().await;
        let stop = Arc::new(AtomicBool::new(false));
        let pooled = Arc::new(AtomicI64::new(0));
        let dedicated = Arc::new(AtomicI64::new(0));
        let task = {
            let (stop, pooled, dedicated) = (
                Arc::clone(&stop),
                Arc::clone(&pooled),
                Arc::clone(&dedicated),
            );
            tokio::spawn(async move {
                while !stop.load(Ordering::SeqCst) {
                    let (in_pool, own): (i64, i64) = sqlx::query_as(
                        "select count(*) filter (where application_name = 'balcao-gateway'),
                                count(*) filter (where application_name = 'balcao-read-your-writes')
                           from pg_stat_activity
                          where datname = current_database() and query ilike 'listen%'",
                    )
                    .fetch_one(&db)
                    .await
                    .expect("pg_stat_activity reads");
                    pooled.fetch_max(in_pool, Ordering::SeqCst);
                    dedicated.fetch_max(own, Ordering::SeqCst);
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            })
        };
        ListenerSampler {
            stop,
            pooled,
            dedicated,
            task,
        }
    }

    /// (most pooled connections in `LISTEN`, most dedicated listener connections).
    async fn finish(self) -> (i64, i64) {
        self.stop.store(true, Ordering::SeqCst);
        self.task.await.expect("sampler");
        (
            self.pooled.load(Ordering::SeqCst),
            self.dedicated.load(Ordering::SeqCst),
        )
    }
}

/// `POST /api/accounts/{account}/qrcodes` with `token`, as its status and JSON body.
async fn create(
    client: &reqwest::Client,
    url: &str,
    token: &str,
    name: &str,
) -> (StatusCode, Value) {
    let response = client
        .post(url)
        .bearer_auth(token)
        .json(&qrcode_body(name))
        .send()
        .await
        .expect("the server answers");
    let status = response.status();
    let body = response.json().await.unwrap_or(Value::Null);
    (status, body)
}

#[tokio::test]
async fn forty_payer_pages_with_made_up_positions_wait_for_nothing_and_starve_nobody() {
    let app = crate::billing::support::sandbox_app().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    // A quiet machine makes hundreds of codes in the attack's four seconds: more than Grátis
    // allows in a month (issue 12), so the shop is on Premium, as a busy shop would be.
    crate::billing::support::go_premium(&mut owner).await;
    let token = owner.browser.access_token.clone().expect("signed in");
    let codes_url = app.url(&Person::in_account(&owner.account_id, "/qrcodes"));
    let client = app.client();

    // Forty attackers, no account, each asking for a code that does not exist "at" a feed
    // position far beyond the head, over and over for a few seconds.
    let sampler = ListenerSampler::start(&app).await;
    let attack_for = Duration::from_secs(4);
    let started = Instant::now();
    let attackers: Vec<_> = (0..PARALLEL)
        .map(|_| {
            let client = client.clone();
            let url = app.url(&format!(
                "/pagamento/{}?posicao=999999999999.1",
                Uuid::new_v4()
            ));
            tokio::spawn(async move {
                let mut statuses = Vec::new();
                while started.elapsed() < attack_for && statuses.len() < 500 {
                    let response = client.get(&url).send().await.expect("answered");
                    statuses.push(response.status());
                }
                statuses
            })
        })
        .collect();

    // Meanwhile a real user makes codes, one after the other.
    let mut made = Vec::new();
    while started.elapsed() < attack_for {
        made.push(create(&client, &codes_url, &token, "Padaria Sao Joao").await);
    }

    let mut answers = BTreeMap::<u16, usize>::new();
    for attacker in attackers {
        for status in attacker.await.expect("attacker task") {
            *answers.entry(status.as_u16()).or_default() += 1;
        }
    }
    let (pooled_listeners, _) = sampler.finish().await;
    assert_eq!(
        pooled_listeners, 0,
        "a made-up position made requests wait on pooled connections"
    );
    assert_eq!(
        answers.keys().copied().collect::<Vec<_>>(),
        vec![404],
        "every made-up position is the plain 404 page, never a 5xx: {answers:?}"
    );
    let failed: Vec<_> = made
        .iter()
        .filter(|(status, _)| *status != StatusCode::CREATED)
        .collect();
    assert!(!made.is_empty());
    assert!(
        failed.is_empty(),
        "{} of {} creations failed during the attack: {failed:?}",
        failed.len(),
        made.len()
    );
    // The user's codes are all there, each once (read from the read model itself: the list
    // answers at most 200, and a quiet machine makes more than that in four seconds).
    let made_ids: BTreeSet<String> = made
        .iter()
        .map(|(_, body)| body["id"].as_str().expect("a created code's id").to_owned())
        .collect();
    assert_eq!(
        made_ids.len(),
        made.len(),
        "every creation made its own code"
    );
    let db = app.db().await;
    eventually_within(
        Duration::from_secs(20),
        "exactly the codes made, projected",
        async || {
            let projected: BTreeSet<String> = sqlx::query_scalar::<_, String>(
                "select qrcode_id::text from qrcodes where owner_id = $1::uuid",
            )
            .bind(&owner.account_id)
            .fetch_all(&db)
            .await
            .expect("the read model reads")
            .into_iter()
            .collect();
            (projected == made_ids).then_some(())
        },
    )
    .await;
    let listed = owner
        .get(&Person::in_account(&owner.account_id, "/qrcodes"))
        .await;
    assert_eq!(
        listed.json["qrcodes"].as_array().map(Vec::len),
        Some(made.len().min(200))
    );
    app.stop().await;
}

#[tokio::test]
async fn with_the_projector_stopped_new_signs_and_their_pages_are_drawn_from_the_log() {
    let app = TestApp::spawn_roles(serve_and_relay(), |settings| {
        settings.read_your_writes_ms = 3_000;
    })
    .await;
    let client = app.client();

    // With no projector, the sign form sends the visitor straight to the sign's page.
    let first = client
        .post(app.url("/criar-placa-pix"))
        .form(&sign_form("Banca da Ana"))
        .send()
        .await
        .expect("answered");
    assert_eq!(first.status(), StatusCode::SEE_OTHER);
    let target = first.headers()["location"]
        .to_str()
        .expect("ASCII")
        .to_owned();
    assert!(!target.contains("posicao"), "{target}");
    let qrcode_id = target
        .trim_start_matches("/placa-pix-criada/")
        .split('?')
        .next()
        .expect("the code's id")
        .to_owned();
    // The sign's page is for the holder of its management token, which the form hands over in
    // a cookie, as a browser would send it back.
    let cookie = first.headers()["set-cookie"]
        .to_str()
        .expect("ASCII")
        .split(';')
        .next()
        .expect("name=value")
        .to_owned();

    // Forty payers open its payer page at once, while twenty visitors make signs of their own
    // and open theirs: nobody waits for the stopped projector, nobody gets a 404.
    let sampler = ListenerSampler::start(&app).await;
    let payers: Vec<_> = (0..PARALLEL)
        .map(|_| {
            let client = client.clone();
            let url = app.url(&format!("/pagamento/{qrcode_id}"));
            tokio::spawn(async move {
                let response = client.get(&url).send().await.expect("answered");
                (response.status(), response.text().await.unwrap_or_default())
            })
        })
        .collect();
    let makers: Vec<_> = (0..PARALLEL / 2)
        .map(|i| {
            let client = client.clone();
            let url = app.url("/criar-placa-pix");
            let base = app.url("");
            tokio::spawn(async move {
                let response = client
                    .post(&url)
                    .form(&sign_form(&format!("Banca {i}")))
                    .send()
                    .await
                    .expect("answered");
                let location = response.headers()["location"]
                    .to_str()
                    .expect("ASCII")
                    .to_owned();
                let cookie = response.headers()["set-cookie"]
                    .to_str()
                    .expect("ASCII")
                    .split(';')
                    .next()
                    .expect("name=value")
                    .to_owned();
                let page = client
                    .get(format!("{}{location}", base.trim_end_matches('/')))
                    .header("cookie", &cookie)
                    .send()
                    .await
                    .expect("answered");
                (response.status(), page.status(), (location, cookie))
            })
        })
        .collect();
    for payer in payers {
        let (status, html) = payer.await.expect("payer");
        assert_eq!(status, StatusCode::OK, "a payer page drawn from the log");
        assert!(html.contains("BANCA DA ANA"), "the code's own name");
    }
    let mut made = Vec::new();
    for maker in makers {
        let (status, page, location) = maker.await.expect("maker");
        assert_eq!(
            status,
            StatusCode::SEE_OTHER,
            "a committed sign is never a failure"
        );
        assert_eq!(page, StatusCode::OK, "its page, with no projector");
        made.push(location);
    }
    let (pooled_listeners, _) = sampler.finish().await;
    assert_eq!(
        pooled_listeners, 0,
        "no request waited on a pooled connection"
    );

    // Once a projector runs, every page shows its code from the read model, as before.
    let projector = app.start_roles(project()).await;
    for (location, cookie) in std::iter::once(&(target.clone(), cookie)).chain(&made) {
        let status = client
            .get(app.url(location))
            .header("cookie", cookie)
            .send()
            .await
            .expect("answered")
            .status();
        assert_eq!(status, StatusCode::OK, "{location}");
    }
    projector.stop().await.expect("the projector stops cleanly");
    app.stop().await;
}

#[tokio::test]
async fn with_no_projector_ever_a_new_account_works_and_its_first_code_is_shown_from_the_log() {
    let app = TestApp::spawn_roles(serve_and_relay(), |settings| {
        settings.read_your_writes_ms = 1_000;
        settings.read_your_writes_stall_ms = 250;
    })
    .await;
    // No projector has run: the `accounts` read model has never heard of this account.
    let mut owner = sign_up(&app, "dona@quitanda.test", "Dona").await;
    let path = Person::in_account(&owner.account_id, "/qrcodes");
    let listed = owner.get(&path).await;
    assert_eq!(listed.status, StatusCode::OK, "first call: {}", listed.text);

    let made = owner.post(&path, &qrcode_body("Quitanda")).await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    let id = made.json["id"].as_str().expect("id").to_owned();

    let one = owner
        .get(&Person::in_account(
            &owner.account_id,
            &format!("/qrcodes/{id}"),
        ))
        .await;
    assert_eq!(one.status, StatusCode::OK, "{}", one.text);
    assert_eq!(one.json["merchantName"], "QUITANDA");
    let payer = app
        .client()
        .get(app.url(&format!("/pagamento/{id}")))
        .send()
        .await
        .expect("answered");
    assert_eq!(payer.status(), StatusCode::OK);
    assert!(payer.text().await.expect("html").contains("QUITANDA"));

    // A stranger still gets the 404 an unknown account gets, from the log too.
    let mut stranger = sign_up(&app, "outra@pessoa.test", "Outra").await;
    let foreign = stranger.get(&path).await;
    assert_eq!(foreign.status, StatusCode::NOT_FOUND, "{}", foreign.text);
    app.stop().await;
}

/// A gateway with the production read-your-writes defaults (a stall noticed after 250 ms) whose
/// owner's account reached its read model (every API call checks it), then the projector
/// stopped: what the owner does next, no projector writes.
/// The gateway and the relay, with a projector of their own the test can stop; waits of 3 s,
/// a projection silent for 250 ms not waited for.
async fn an_app_whose_projector_can_stop() -> (TestApp, gateway::roles::Running) {
    let app = TestApp::spawn_roles(serve_and_relay(), |settings| {
        settings.read_your_writes_ms = 3_000;
        settings.read_your_writes_stall_ms = 250;
    })
    .await;
    let projector = app.start_roles(project()).await;
    (app, projector)
}

async fn an_owner_whose_projector_then_stops() -> (TestApp, Person) {
    let (app, projector) = an_app_whose_projector_can_stop().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let path = Person::in_account(&owner.account_id, "/qrcodes");
    // (A projector just started may take longer than the stall time to apply its first event,
    // so the sign-up may have answered before the read model had the account.)
    let listed = eventually_within(
        Duration::from_secs(30),
        "the account's read model",
        async || {
            let listed = owner.get(&path).await;
            (listed.status != StatusCode::NOT_FOUND).then_some(listed)
        },
    )
    .await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.text);
    projector.stop().await.expect("the projector stops cleanly");
    (app, owner)
}

#[tokio::test]
async fn with_the_projector_stopped_every_creation_is_answered_from_the_command_and_projected_once()
{
    let (app, mut owner) = an_owner_whose_projector_then_stops().await;
    let token = owner.browser.access_token.clone().expect("signed in");
    let path = Person::in_account(&owner.account_id, "/qrcodes");

    let creations = 60;
    let sampler = ListenerSampler::start(&app).await;
    let client = app.client();
    let url = app.url(&path);
    let tasks: Vec<_> = (0..creations)
        .map(|i| {
            let client = client.clone();
            let url = url.clone();
            let token = token.clone();
            tokio::spawn(async move { create(&client, &url, &token, &format!("Loja {i}")).await })
        })
        .collect();
    let mut made = BTreeMap::new();
    for (i, task) in tasks.into_iter().enumerate() {
        let (status, body) = task.await.expect("creation task");
        assert_eq!(status, StatusCode::CREATED, "creation {i}: {body}");
        assert_eq!(body["merchantName"], format!("LOJA {i}").as_str());
        let payload = body["payload"].as_str().expect("the BR Code");
        assert!(payload.contains(&format!("LOJA {i}")), "{payload}");
        made.insert(body["id"].as_str().expect("id").to_owned(), body);
    }
    assert_eq!(made.len(), creations, "sixty different codes");
    let (pooled_listeners, _) = sampler.finish().await;
    assert_eq!(
        pooled_listeners, 0,
        "no creation waited on a pooled connection"
    );
    let late = owner.get(&path).await;
    assert_eq!(late.status, StatusCode::OK, "{}", late.text);
    assert_eq!(late.json["qrcodes"].as_array().map(Vec::len), Some(0));

    // A projector comes back: the read model gets exactly those codes, each as it was answered.
    let projector = app.start_roles(project()).await;
    let listed = eventually_within(
        Duration::from_secs(60),
        "every code projected",
        async || {
            let listed = owner.get(&path).await;
            assert_eq!(listed.status, StatusCode::OK, "{}", listed.text);
            let codes = listed.json["qrcodes"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            (codes.len() >= creations).then_some(codes)
        },
    )
    .await;
    let projected: BTreeMap<String, Value> = listed
        .into_iter()
        .map(|code| (code["id"].as_str().expect("id").to_owned(), code))
        .collect();
    assert_eq!(
        projected.keys().collect::<BTreeSet<_>>(),
        made.keys().collect::<BTreeSet<_>>()
    );
    assert_eq!(
        projected, made,
        "the answers were exactly what the read model shows"
    );
    projector.stop().await.expect("the projector stops cleanly");
    app.stop().await;
}

#[tokio::test]
async fn a_read_cancelled_by_the_statement_timeout_is_a_503_with_retry_after_not_a_500() {
    // What a starved database answers under load, made on purpose: an operator's lock holds
    // the read model, so the payer page's read waits until `statement_timeout` cancels it.
    let app = TestApp::spawn_with(|settings| settings.statement_timeout_ms = 300).await;
    let client = app.client();
    let page = app.url(&format!("/pagamento/{}", Uuid::new_v4()));
    assert_eq!(
        client.get(&page).send().await.expect("answered").status(),
        StatusCode::NOT_FOUND
    );

    let pool = sqlx::PgPool::connect(&app.settings.database_url)
        .await
        .expect("database");
    let mut holder = pool.begin().await.expect("transaction");
    sqlx::query("lock table qrcodes in access exclusive mode")
        .execute(&mut *holder)
        .await
        .expect("lock");
    let starved = client.get(&page).send().await.expect("answered");
    assert_eq!(starved.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(starved.headers()["retry-after"], "2");
    let body = starved.text().await.expect("body");
    assert!(
        body.contains("Serviço temporariamente indisponível"),
        "{body}"
    );

    holder.rollback().await.expect("unlock");
    assert_eq!(
        client.get(&page).send().await.expect("answered").status(),
        StatusCode::NOT_FOUND,
        "the same request succeeds once the database is free again"
    );
    pool.close().await;
    app.stop().await;
}

/// The guide's rule for the money path: decide on the write side. A key registered while the
/// projector is stopped is the account's at once: a QR code, a payment link and the bank's
/// receiver are made with it (before, each read the `pix_keys` read model and answered 422 or
/// 404 until the projector caught up); the new link opens for its payer, and a payment typed in
/// a moment ago can be voided.
#[tokio::test]
async fn with_the_projector_stopped_a_key_just_registered_makes_a_code_a_link_and_a_receiver_and_a_new_payment_can_be_voided()
 {
    let (app, mut owner) = an_owner_whose_projector_then_stops().await;
    let codes = Person::in_account(&owner.account_id, "/qrcodes");

    let key_id = register_key_as(&mut owner, "caixa@padaria.test", "Padaria São João").await;
    let keys = owner
        .get(&Person::in_account(&owner.account_id, "/keys"))
        .await;
    assert!(
        !keys.text.contains(&key_id),
        "the read model has not seen the key: {}",
        keys.text
    );

    let code = owner
        .post(
            &codes,
            &json!({"keyId": key_id, "merchantCity": "Natal", "amount": "12,50"}),
        )
        .await;
    assert_eq!(code.status, StatusCode::CREATED, "{}", code.text);
    assert_eq!(code.json["pixKey"], "caixa@padaria.test");
    assert_eq!(code.json["merchantName"], "PADARIA SAO JOAO");

    let link = owner
        .post(
            &Person::in_account(&owner.account_id, "/payment-links"),
            &json!({"keyId": key_id, "merchantName": "Padaria São João",
                    "merchantCity": "Natal", "amount": "45,90"}),
        )
        .await;
    assert_eq!(link.status, StatusCode::CREATED, "{}", link.text);
    assert_eq!(link.json["pixKey"], "caixa@padaria.test", "answered whole");
    let url = link.json["url"].as_str().expect("the link's address");
    let page = app
        .get(&url[url.find("/pagar?").expect("a /pagar address")..])
        .await;
    assert_eq!(
        page.status(),
        StatusCode::OK,
        "the payer opens the new link"
    );

    let receiver = owner
        .post(
            &Person::in_account(&owner.account_id, &format!("/api-pix-receivers/{key_id}")),
            &json!({}),
        )
        .await;
    assert_eq!(receiver.status, StatusCode::CREATED, "{}", receiver.text);

    let payments = Person::in_account(&owner.account_id, "/payments");
    let typed = owner.post(&payments, &json!({"amount": "3,00"})).await;
    assert_eq!(typed.status, StatusCode::CREATED, "{}", typed.text);
    let reference = typed.json["reference"]
        .as_str()
        .expect("reference")
        .to_owned();
    let void = owner
        .post(
            &Person::in_account(&owner.account_id, &format!("/payments/{reference}/void")),
            &json!({"reason": "digitado errado"}),
        )
        .await;
    assert_eq!(void.status, StatusCode::OK, "{}", void.text);
    app.stop().await;
}

#[tokio::test]
async fn a_link_revoked_while_the_projector_is_stopped_is_answered_revoked_not_as_it_was() {
    let (app, projector) = an_app_whose_projector_can_stop().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let key_id = register_key_as(&mut owner, "caixa@padaria.test", "Padaria São João").await;
    let links = Person::in_account(&owner.account_id, "/payment-links");
    let link = owner
        .post(
            &links,
            &json!({"keyId": key_id, "merchantName": "Padaria São João",
                    "merchantCity": "Natal", "amount": "45,90"}),
        )
        .await;
    assert_eq!(link.status, StatusCode::CREATED, "{}", link.text);
    let id = link.json["id"].as_str().expect("an id").to_owned();
    // The read model holds the link, active; then its projector stops.
    eventually_within(
        Duration::from_secs(30),
        "the link in the list",
        async || {
            let listed = owner.get(&links).await;
            listed.text.contains(&id).then_some(())
        },
    )
    .await;
    projector.stop().await.expect("the projector stops cleanly");
    let revoked = owner
        .post(
            &Person::in_account(&owner.account_id, &format!("/payment-links/{id}/revoke")),
            &json!({}),
        )
        .await;
    assert_eq!(revoked.status, StatusCode::OK, "{}", revoked.text);
    assert_eq!(revoked.json["status"], "revoked", "{}", revoked.text);
    app.stop().await;
}
