//! API Pix ingestion beside the raw append rate, in one run: entries per second recorded through
//! the whole receiver (`POST {url}/pix` over HTTP: token lookup, whole-body validation, txid
//! matching from the txid claims, sealing, one transaction per delivery holding at most 2 × 16 advisory
//! locks per account and appending every stream in one statement) next to single-row
//! `INSERT`s into `events` (the same table, trigger and all) from the same number of clients.
//!
//! Then, in the same run (issue 35), a bank statement of `BALCAO_BENCH_STATEMENT_LINES` (default
//! 100,000) Pix received, as a Nubank CSV, previewed and imported through the API as the owner's
//! screen does it (`POST …/extratos/previa`, `POST …/extratos`: parse, reconcile against the
//! account's codes and payments, record in batches of 1,000, each line claimed and, with no
//! end-to-end id in it, left for the bank's report to confirm); and the ingestion once more, with
//! those lines waiting in the account (the report's look-up of a statement twin).
//!
//! `cargo bench -p tests --bench api_pix_ingest` (needs PostgreSQL and NATS, as the e2e tests).
//! `BALCAO_BENCH_SECONDS` (default 10) per phase, `BALCAO_BENCH_CLIENTS` (default 8),
//! `BALCAO_BENCH_BATCH` (entries per delivery, default 10). Target: ingestion ≥ 50 % of raw.

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::json;
use tests::TestApp;
use tests::browser::Browser;
use uuid::Uuid;

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// One `pixWebhook2`-shaped entry (the spec's example) with a fresh end-to-end id.
fn entry(n: u64) -> serde_json::Value {
    json!({
        "endToEndId": format!("E87654321{:023}", n),
        "txid": "971122d8f37211eaadc10242ac120002",
        "valor": "110.00",
        "horario": "2026-09-09T20:15:00.358Z",
        "infoPagador": "0123456789",
    })
}

async fn ingestion(app: &TestApp, url: &str, clients: u64, batch: u64, seconds: u64) -> u64 {
    let done = Arc::new(AtomicU64::new(0));
    let next = Arc::new(AtomicU64::new(0));
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let started = Instant::now();
    let tasks: Vec<_> = (0..clients)
        .map(|_| {
            let client = app.client();
            let url = format!("{url}/pix");
            let (done, next) = (done.clone(), next.clone());
            tokio::spawn(async move {
                while Instant::now() < deadline {
                    let first = next.fetch_add(batch, Ordering::Relaxed);
                    let body =
                        json!({"pix": (first..first + batch).map(entry).collect::<Vec<_>>()});
                    let response = client.post(&url).json(&body).send().await;
                    match response {
                        Ok(r) if r.status().is_success() => {
                            done.fetch_add(batch, Ordering::Relaxed);
                        }
                        Ok(r) => panic!("delivery refused: {}", r.status()),
                        Err(error) => panic!("delivery failed: {error}"),
                    }
                }
            })
        })
        .collect();
    for task in tasks {
        task.await.expect("a client");
    }
    per_second(done.load(Ordering::Relaxed), started.elapsed())
}

async fn raw_appends(app: &TestApp, clients: u64, seconds: u64) -> u64 {
    let pool = sqlx::postgres::PgPoolOptions::new()
        .max_connections(u32::try_from(clients).unwrap_or(8))
        .connect(&app.settings.database_url)
        .await
        .expect("a pool");
    let done = Arc::new(AtomicU64::new(0));
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let started = Instant::now();
    let tasks: Vec<_> = (0..clients)
        .map(|_| {
            let (pool, done) = (pool.clone(), done.clone());
            tokio::spawn(async move {
                while Instant::now() < deadline {
                    let payload = entry(0);
                    sqlx::query(
                        "insert into events (event_id, stream_type, stream_id, stream_version,
                                             event_type, schema_version, payload, metadata)
                         values ($1, 'bench', $2, 1, 'BenchAppended', 1, $3, '{}')",
                    )
                    .bind(Uuid::now_v7())
                    .bind(Uuid::now_v7().to_string())
                    .bind(payload)
                    .execute(&pool)
                    .await
                    .expect("a raw insert");
                    done.fetch_add(1, Ordering::Relaxed);
                }
            })
        })
        .collect();
    for task in tasks {
        task.await.expect("a client");
    }
    per_second(done.load(Ordering::Relaxed), started.elapsed())
}

/// A Nubank CSV of `lines` Pix received over October 2026 (the deliveries pay on a September
/// day: no line is any report's twin), amounts from R$ 1,00 to R$ 500,00.
fn statement(lines: u64) -> Vec<u8> {
    let mut csv = String::from("Data,Valor,Identificador,Descrição\n");
    for n in 0..lines {
        let day = n % 31 + 1;
        let centavos = n * 7_919 % 49_900 + 100;
        csv.push_str(&format!(
            "{day:02}/10/2026,{}.{:02},n{n},Pix recebido\n",
            centavos / 100,
            centavos % 100
        ));
    }
    csv.into_bytes()
}

/// Waits until the `payments` read model holds a row per recorded payment, and no new events
/// arrive for a second.
async fn settle(app: &TestApp) {
    let db = app.db().await;
    loop {
        let (recorded, projected): (i64, i64) = sqlx::query_as(
            "select (select count(*) from events where event_type = 'PaymentRecorded'),
                    (select count(*) from payments)",
        )
        .fetch_one(&db)
        .await
        .expect("counts");
        if recorded == projected {
            break;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    db.close().await;
}

/// `count` per second over `elapsed`, in integers (the workspace allows no float arithmetic).
fn per_second(count: u64, elapsed: Duration) -> u64 {
    let millis = elapsed.as_millis().max(1);
    u64::try_from(u128::from(count) * 1000 / millis).unwrap_or(u64::MAX)
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let seconds = env("BALCAO_BENCH_SECONDS", 10);
        let clients = env("BALCAO_BENCH_CLIENTS", 8);
        let batch = env("BALCAO_BENCH_BATCH", 10);
        let app = TestApp::spawn().await;
        let mut browser = Browser::new(&app);
        let signed = browser
            .sign_up("bench@padaria.test", "senha-boa-1", "Bancada")
            .await;
        let account = signed.json["user"]["uid"]
            .as_str()
            .expect("an account")
            .to_owned();
        // The key is registered as the keys screen does it, through the API.
        let key = browser
            .post_json(
                &format!("/api/accounts/{account}/keys"),
                &json!({"pixKey": "loja@padaria.test", "holderName": "Bancada"}),
            )
            .await;
        let key_id = key.json["id"].as_str().expect("a key id").to_owned();
        let on = browser
            .post_json(
                &format!("/api/accounts/{account}/api-pix-receivers/{key_id}"),
                &json!({}),
            )
            .await;
        let url = on.json["url"]
            .as_str()
            .expect("a receiver URL")
            .replace("http://balcao.test", &app.url(""));
        // A short warm-up, then the two phases back to back.
        ingestion(&app, &url, clients, batch, 1).await;
        let ingested = ingestion(&app, &url, clients, batch, seconds).await;
        let raw = raw_appends(&app, clients, seconds).await;
        let lines = env("BALCAO_BENCH_STATEMENT_LINES", 100_000);
        let file = statement(lines);
        let upload = json!({
            "arquivo": "extrato-outubro.csv",
            "conteudo": base64::engine::general_purpose::STANDARD.encode(&file),
            "escolhas": [],
        });
        let started = Instant::now();
        let previewed = browser
            .post_json(&format!("/api/accounts/{account}/extratos/previa"), &upload)
            .await;
        let preview_time = started.elapsed();
        assert_eq!(previewed.status.as_u16(), 200, "{}", previewed.text);
        let started = Instant::now();
        let imported = browser
            .post_json(&format!("/api/accounts/{account}/extratos"), &upload)
            .await;
        // A big file is answered 202 and written in the background: followed to its last line.
        assert_eq!(imported.status.as_u16(), 202, "{}", imported.text);
        let import = imported.json["importacao"].as_str().expect("an import").to_owned();
        let answered = started.elapsed();
        // The webhook goes on while the statement is written.
        let ingested_during = ingestion(&app, &url, clients, batch, seconds).await;
        let written = loop {
            let now = browser
                .get(&format!("/api/accounts/{account}/extratos/{import}/andamento"))
                .await;
            if now.json["concluida"] == json!(true) {
                break now;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        let import_time = started.elapsed();
        assert_eq!(written.json["registrados"], json!(lines), "{}", written.text);
        // Until the read models hold every payment, so the next phase measures the webhook
        // beside the statement's claims, not beside the projector catching up.
        settle(&app).await;
        let settled = started.elapsed();
        let ingested_after = ingestion(&app, &url, clients, batch, seconds).await;
        let mut out = std::io::stdout().lock();
        let table = format!(
            "| clients | entries per delivery | API Pix entries/s | raw single-row appends/s | ingestion ÷ raw |\n\
             |---|---|---|---|---|\n\
             | {clients} | {batch} | {ingested} | {raw} | {} % |\n",
            ingested * 100 / raw.max(1)
        );
        out.write_all(table.as_bytes()).expect("stdout");
        let table = format!(
            "\n| statement lines | file | preview | import answered (202) | all lines written | projected | import lines/s | API Pix entries/s while it is written | … after it (settled) | during ÷ before | after ÷ before |\n\
             |---|---|---|---|---|---|---|---|---|---|---|\n\
             | {lines} | {} KB | {} ms | {} ms | {} ms | {} ms | {} | {ingested_during} | {ingested_after} | {} % | {} % |\n",
            file.len() / 1024,
            preview_time.as_millis(),
            answered.as_millis(),
            import_time.as_millis(),
            settled.as_millis(),
            per_second(lines, import_time),
            ingested_during * 100 / ingested.max(1),
            ingested_after * 100 / ingested.max(1)
        );
        out.write_all(table.as_bytes()).expect("stdout");
        app.stop().await;
    });
}
