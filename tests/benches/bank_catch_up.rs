//! The catch-up's ingestion beside the webhook's, in one run (issue 33): a key connected to the
//! API Pix bank simulator (real mutual TLS), then
//!
//! 1. **webhook**: `BALCAO_BENCH_CATCH_UP_PIX` (default 100,000) entries POSTed to the key's
//!    receiver by one client in deliveries of 1,000 (the catch-up's page size), one after the
//!    other, as a bank replaying a backlog would;
//! 2. **catch-up**: as many Pix again at the bank whose webhooks were all lost
//!    (`receive_many_pix`, no callback), read back by the catch-up (`GET /pix` paged by 1,000,
//!    every page through the webhook's own intake) until every one is recorded.
//!
//! Both rates are payments recorded per second (the log's `PaymentRecorded` count), from the first
//! request to the last payment. Target: catch-up ≥ 50 % of the webhook.
//!
//! `cargo bench -p tests --bench bank_catch_up` (needs PostgreSQL and NATS, as the e2e tests).

use std::io::Write;
use std::time::{Duration, Instant};

use chrono::Utc;
use serde_json::json;
use tests::TestApp;
use tests::api_pix_bank::{BankSimulator, Quirks, SimulatorConfig};
use tests::browser::Browser;

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// `count` per second over `elapsed`, in integers (the workspace allows no float arithmetic).
fn per_second(count: u64, elapsed: Duration) -> u64 {
    let millis = elapsed.as_millis().max(1);
    u64::try_from(u128::from(count) * 1000 / millis).unwrap_or(u64::MAX)
}

async fn recorded(db: &sqlx::PgPool) -> u64 {
    let count: i64 =
        sqlx::query_scalar("select count(*) from events where event_type = 'PaymentRecorded'")
            .fetch_one(db)
            .await
            .expect("a count");
    u64::try_from(count).unwrap_or(0)
}

async fn until_recorded(db: &sqlx::PgPool, total: u64) {
    while recorded(db).await < total {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// One entry of the key, with an end-to-end id of its own (not one the simulator hands out).
fn entry(n: u64, horario: &str) -> serde_json::Value {
    json!({
        "endToEndId": format!("E99999999{:023}", n),
        "valor": "10.00",
        "chave": SimulatorConfig::KEY,
        "horario": horario,
    })
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let total = env("BALCAO_BENCH_CATCH_UP_PIX", 100_000);
        let per_delivery = 1_000;
        let bank = BankSimulator::start(SimulatorConfig::with_quirks(Quirks {
            base_path: "/api/v2".to_owned(),
            ..Quirks::default()
        }))
        .await;
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let (origin, ca) = (bank.origin(), bank.server_ca_pem());
        let app = TestApp::spawn_with(move |settings| {
            settings.listen = std::net::SocketAddr::from(([127, 0, 0, 1], port));
            settings.site_url = format!("http://127.0.0.1:{port}");
            settings.payments.bank_api_origin = Some(origin);
            settings.payments.bank_extra_root_pem = Some(ca);
            settings.payments.bank_catch_up_secs = 1;
        })
        .await;
        let db = app.db().await;
        let mut browser = Browser::new(&app);
        let signed = browser
            .sign_up("bench@padaria.test", "senha-boa-1", "Bancada")
            .await;
        let account = signed.json["user"]["uid"]
            .as_str()
            .expect("an account")
            .to_owned();
        let key = browser
            .post_json(
                &format!("/api/accounts/{account}/keys"),
                &json!({"pixKey": SimulatorConfig::KEY, "holderName": "Bancada"}),
            )
            .await;
        let key_id = key.json["id"].as_str().expect("a key id").to_owned();
        let p12 = bank.pki().client("balcao-bancada").pkcs12(None);
        let form = json!({
            "bank": "sicredi",
            "environment": "homologacao",
            "clientId": SimulatorConfig::CLIENT_ID,
            "clientSecret": SimulatorConfig::CLIENT_SECRET,
            "certificate": {
                "name": "bancada.p12",
                "base64": base64::Engine::encode(&base64::engine::general_purpose::STANDARD, &p12),
            },
        });
        let connected = browser
            .request(
                reqwest::Method::PUT,
                &format!("/api/accounts/{account}/bank-connections/{key_id}"),
                Some("application/json"),
                Some(form.to_string().into_bytes()),
            )
            .await;
        assert_eq!(connected.status.as_u16(), 200, "{}", connected.text);
        let webhook = bank
            .registered_webhook(SimulatorConfig::KEY)
            .expect("the receiver is registered");

        // 1. The webhook: deliveries of 1,000, one after the other.
        let horario = (Utc::now() - chrono::Duration::hours(2))
            .to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
        let client = app.client();
        let started = Instant::now();
        for first in (0..total).step_by(usize::try_from(per_delivery).unwrap_or(1000)) {
            let last = (first + per_delivery).min(total);
            let body = json!({"pix": (first..last).map(|n| entry(n, &horario)).collect::<Vec<_>>()});
            let answer = client
                .post(format!("{webhook}/pix"))
                .json(&body)
                .send()
                .await
                .expect("delivered");
            assert!(answer.status().is_success(), "{}", answer.status());
        }
        until_recorded(&db, total).await;
        let webhook_time = started.elapsed();

        // 2. The catch-up: as many Pix whose webhooks never came, read back from `GET /pix`.
        let started = Instant::now();
        bank.receive_many_pix(
            Utc::now() - chrono::Duration::minutes(3),
            usize::try_from(total).unwrap_or(0),
            SimulatorConfig::KEY,
            1_000,
        );
        until_recorded(&db, 2 * total).await;
        let catch_up_time = started.elapsed();

        let webhook_rate = per_second(total, webhook_time);
        let catch_up_rate = per_second(total, catch_up_time);
        let table = format!(
            "| Pix | webhook (1 client, 1,000 per delivery) | catch-up (`GET /pix`, 1,000 per page) | catch-up ÷ webhook |\n\
             |---|---|---|---|\n\
             | {total} | {} ms, {webhook_rate}/s | {} ms, {catch_up_rate}/s | {} % |\n",
            webhook_time.as_millis(),
            catch_up_time.as_millis(),
            catch_up_rate * 100 / webhook_rate.max(1)
        );
        std::io::stdout()
            .lock()
            .write_all(table.as_bytes())
            .expect("stdout");
        db.close().await;
        app.stop().await;
    });
}
