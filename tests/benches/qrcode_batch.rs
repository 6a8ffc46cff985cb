//! A batch of codes beside single creations, in one run, end to end through the API: `POST
//! …/qrcodes/lote` with a prefix and a count (one command: every txid claimed and every code
//! appended in one transaction, answered once the read model has them) next to the same number
//! of `POST …/qrcodes`, one after the other, from the same registered key.
//!
//! `cargo bench -p tests --bench qrcode_batch` (needs PostgreSQL and NATS, as the e2e tests).
//! `BALCAO_BENCH_CODES` (default 100, at most the batch limit) codes per batch and per series,
//! `BALCAO_BENCH_ROUNDS` (default 5) batches and series, alternated. Target: a batch of 100 in
//! less than 1 s.

use std::io::Write;
use std::time::{Duration, Instant};

use serde_json::json;
use tests::TestApp;
use tests::browser::Browser;

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn millis(elapsed: Duration) -> u128 {
    elapsed.as_millis()
}

/// The median and the slowest of `times`, in milliseconds.
fn summary(mut times: Vec<Duration>) -> (u128, u128) {
    times.sort();
    let median = times[times.len() / 2];
    (millis(median), millis(*times.last().expect("a round")))
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let codes = env("BALCAO_BENCH_CODES", 100);
        let rounds = env("BALCAO_BENCH_ROUNDS", 5).max(1);
        let app = TestApp::spawn_with(|s| s.payments.sandbox_payments = true).await;
        let mut browser = Browser::new(&app);
        let signed = browser
            .sign_up("bancada@bar.test", "senha-boa-1", "Bancada")
            .await;
        let account = signed.json["user"]["uid"]
            .as_str()
            .expect("an account")
            .to_owned();
        // Over a thousand codes a run: more than Grátis allows in a month.
        browser.go_premium(&account).await;
        let key = browser
            .post_json(
                &format!("/api/accounts/{account}/keys"),
                &json!({"pixKey": "caixa@bar.test", "holderName": "Bar da Rita"}),
            )
            .await;
        assert_eq!(key.status.as_u16(), 201, "{}", key.text);
        let key_id = key.json["id"].as_str().expect("a key").to_owned();
        let one = format!("/api/accounts/{account}/qrcodes");
        let batch = format!("/api/accounts/{account}/qrcodes/lote");

        // Warm-up: a small batch and a few singles (connections, prepared statements).
        let warm = browser
            .post_json(
                &batch,
                &json!({"keyId": key_id, "merchantCity": "Olinda", "prefix": "AQUECE", "count": 5}),
            )
            .await;
        assert_eq!(warm.status.as_u16(), 201, "{}", warm.text);
        for n in 0..5 {
            let made = browser
                .post_json(
                    &one,
                    &json!({"keyId": key_id, "merchantCity": "Olinda", "description": format!("aquece {n}")}),
                )
                .await;
            assert_eq!(made.status.as_u16(), 201, "{}", made.text);
        }

        let mut batches = Vec::new();
        let mut singles = Vec::new();
        for round in 0..rounds {
            let started = Instant::now();
            let made = browser
                .post_json(
                    &batch,
                    &json!({"keyId": key_id, "merchantCity": "Olinda",
                            "prefix": format!("R{round}MESA"), "count": codes}),
                )
                .await;
            batches.push(started.elapsed());
            assert_eq!(made.status.as_u16(), 201, "{}", made.text);
            let listed = made.json["qrcodes"].as_array().map_or(0, Vec::len);
            assert_eq!(u64::try_from(listed).unwrap_or(0), codes);

            let started = Instant::now();
            for n in 0..codes {
                let made = browser
                    .post_json(
                        &one,
                        &json!({"keyId": key_id, "merchantCity": "Olinda",
                                "description": format!("R{round} avulso {n}")}),
                    )
                    .await;
                assert_eq!(made.status.as_u16(), 201, "{}", made.text);
            }
            singles.push(started.elapsed());
        }
        let (batch_median, batch_max) = summary(batches);
        let (single_median, single_max) = summary(singles);
        let mut out = std::io::stdout().lock();
        let table = format!(
            "| codes | rounds | batch (1 request): median / slowest | {codes} single requests: median / slowest | singles ÷ batch |\n\
             |---|---|---|---|---|\n\
             | {codes} | {rounds} | {batch_median} ms / {batch_max} ms | {single_median} ms / {single_max} ms | {}× |\n",
            single_median / batch_median.max(1)
        );
        out.write_all(table.as_bytes()).expect("stdout");
        app.stop().await;
    });
}
