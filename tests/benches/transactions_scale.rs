//! The transactions screen and its API at a busy shop's scale (issue 37): one account with
//! `BALCAO_BENCH_PAYMENTS` payments (default 1,000,000) over three years of São Paulo days ending
//! today, beside three smaller accounts (a tenth each), read through the gateway's real HTTP API
//! as the dashboard calls it.
//!
//! 1. The account signs up, goes Premium (Grátis shows 90 days only), registers a key and makes
//!    three codes from it through the API, with the relay and the projectors running;
//! 2. they stop, and `tests::payment_fill` writes every account's payments into the log; then
//!    `balcao replay --all` builds the read models from it (the operators' way at this size: the
//!    live projector would take minutes) and analyses them;
//! 3. each request of the table runs `BALCAO_BENCH_REQUESTS` times (default 30) after one
//!    warm-up, and its p50 / p99 (the slowest for fewer than 100) are printed with the rows or
//!    days it answered;
//! 4. the CSV of the whole account is downloaded once, with the gateway's peak resident memory
//!    during it (the bench's own process: the gateway runs in it; `VmHWM` reset before), beside
//!    a raw `COPY (select …) TO STDOUT (FORMAT csv)` of the same rows in the same order;
//! 5. `balcao replay --all` runs again while [`CLIENTS`] clients ask for the list's first page,
//!    a 30-day `summary` and a code's payer page in turn, beside the same clients for
//!    `BALCAO_BENCH_QUIET_SECS` (default 10) without the replay: each request's p50 / p99 and
//!    every answer that is not a 200.
//!
//! `BALCAO_BENCH_ACCOUNTS` (default 0) adds the rest of the service to the log before the replay:
//! that many accounts opened through the sign-up workflow, with about
//! `BALCAO_BENCH_ACCOUNT_PAYMENTS` (default 900) payments each (`payment_fill::fill_service`);
//! 10,000 of them make the 10M payments in all.
//!
//! `BALCAO_BENCH_KEEP_DB=1` leaves the database behind (its URL printed) for `EXPLAIN` by hand.
//!
//! `CARGO_PROFILE_BENCH_DEBUG=0 cargo bench -p tests --bench transactions_scale` (needs
//! PostgreSQL and NATS, as the e2e tests). Targets (issue 37): list pages and single filters
//! p99 < 50 ms; pairs and text p99 < 100 ms; `summary` and `daily-totals` up to 365 days
//! p99 < 100 ms, "all" < 250 ms; the CSV at ≥ 50 % of the raw `COPY`'s rate, memory flat.

use std::io::Write;
use std::time::{Duration, Instant};

use chrono::{Days, Utc};
use futures::StreamExt;
use gateway::roles::{Roles, Running};
use serde_json::{Value, json};
use tests::TestApp;
use tests::browser::Browser;
use tests::payment_fill::{self, Fill, ServiceFill};
use uuid::Uuid;

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// `elapsed` as milliseconds with one decimal, in integers (the workspace allows no float
/// arithmetic).
fn ms(elapsed: Duration) -> String {
    let micros = elapsed.as_micros();
    format!("{}.{}", micros / 1000, micros % 1000 / 100)
}

/// p50 and p99 of `times` (for fewer than 100 samples the p99 is the slowest).
fn percentiles(mut times: Vec<Duration>) -> (Duration, Duration) {
    times.sort();
    let p50 = times[times.len() / 2];
    let p99 = times[(times.len() * 99 / 100).min(times.len() - 1)];
    (p50, p99)
}

/// The relay and every projector, for the setup's requests that wait on read models.
async fn relay_and_projectors(app: &TestApp) -> Running {
    app.start_roles(Roles {
        serve: false,
        relay: true,
        project: true,
        projections: Vec::new(),
    })
    .await
}

/// A signed-up account and its vault key, ready for the fill.
struct Shop {
    browser: Browser,
    account: String,
    key: commands::vault::AccountKey,
}

async fn shop(app: &TestApp, db: &sqlx::PgPool, email: &str) -> Shop {
    let mut browser = Browser::new(app);
    let signed = browser.sign_up(email, "senha-boa-1", "Bancada").await;
    assert_eq!(signed.status.as_u16(), 200, "{}", signed.text);
    let account = signed.json["user"]["uid"]
        .as_str()
        .expect("an account")
        .to_owned();
    let key = commands::vault::load_key(db, &account)
        .await
        .expect("the vault")
        .expect("a key");
    Shop {
        browser,
        account,
        key,
    }
}

/// One row of the table: a name and the path asked.
struct Probe {
    name: String,
    path: String,
}

/// How much an answer holds: the list's rows, the summary's days, the home's recent payments.
fn size(answer: &Value) -> String {
    if let Some(rows) = answer["payments"].as_array() {
        return format!("{} rows", rows.len());
    }
    if let Some(days) = answer["days"].as_array() {
        let payments = answer["total"]["payments"].as_i64().unwrap_or_default();
        return format!("{} days, {payments} payments", days.len());
    }
    if let Some(recent) = answer["recent"].as_array() {
        return format!("{} recent", recent.len());
    }
    String::new()
}

/// The process's peak resident memory in kB since the last reset.
fn peak_rss_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or_default()
}

/// Resets the peak resident memory to the current (Linux: `clear_refs` 5).
fn reset_peak_rss() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// Clients asking at once while the replay runs.
const CLIENTS: usize = 4;

/// What the clients of step 5 saw: per request, the times of its 200s and its other answers.
#[derive(Default)]
struct Served {
    times: Vec<Vec<Duration>>,
    failures: Vec<Vec<String>>,
}

/// `CLIENTS` clients asking for `paths` in turn until `done` says stop.
async fn serve_while(
    app: &TestApp,
    token: &str,
    paths: &[String],
    done: tokio::sync::watch::Receiver<bool>,
) -> Served {
    let mut clients = Vec::new();
    for n in 0..CLIENTS {
        let (client, token, paths, done) = (
            app.client(),
            token.to_owned(),
            paths.iter().map(|p| app.url(p)).collect::<Vec<_>>(),
            done.clone(),
        );
        clients.push(tokio::spawn(async move {
            let mut served = Served {
                times: vec![Vec::new(); paths.len()],
                failures: vec![Vec::new(); paths.len()],
            };
            let mut turn = n;
            while !*done.borrow() {
                let which = turn % paths.len();
                turn += 1;
                let started = Instant::now();
                let answer = client.get(&paths[which]).bearer_auth(&token).send().await;
                match answer {
                    Ok(answer) if answer.status().as_u16() == 200 => {
                        // The whole body, as a browser reads it.
                        let read = answer.bytes().await;
                        let elapsed = started.elapsed();
                        match read {
                            Ok(_) => served.times[which].push(elapsed),
                            Err(error) => served.failures[which].push(error.to_string()),
                        }
                    }
                    Ok(answer) => {
                        let status = answer.status().as_u16();
                        let text = answer.text().await.unwrap_or_default();
                        served.failures[which].push(format!("{status} {text}"));
                    }
                    Err(error) => served.failures[which].push(error.to_string()),
                }
            }
            served
        }));
    }
    let mut all = Served {
        times: vec![Vec::new(); paths.len()],
        failures: vec![Vec::new(); paths.len()],
    };
    for client in clients {
        let served = client.await.expect("a client");
        for (n, (times, failures)) in served.times.into_iter().zip(served.failures).enumerate() {
            all.times[n].extend(times);
            all.failures[n].extend(failures);
        }
    }
    all
}

/// Step 5's rows for one phase.
fn served_rows(phase: &str, names: &[&str], served: Served) -> String {
    let mut rows = String::new();
    for ((name, times), failures) in names.iter().zip(served.times).zip(served.failures) {
        let count = times.len();
        let (p50, p99) = if times.is_empty() {
            ("-".to_owned(), "-".to_owned())
        } else {
            let (p50, p99) = percentiles(times);
            (ms(p50), ms(p99))
        };
        let first = failures.first().map_or_else(String::new, |f| {
            format!(" (first: {})", f.chars().take(120).collect::<String>())
        });
        rows += &format!(
            "| {phase} | {name} | {count} | {p50} | {p99} | {}{first} |\n",
            failures.len()
        );
    }
    rows
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let total = env("BALCAO_BENCH_PAYMENTS", 1_000_000).max(1_000);
        let requests = usize::try_from(env("BALCAO_BENCH_REQUESTS", 30).max(1)).unwrap_or(30);
        let app = TestApp::spawn_roles(
            Roles {
                serve: true,
                relay: false,
                project: false,
                projections: Vec::new(),
            },
            |s| s.payments.sandbox_payments = true,
        )
        .await;
        let db = app.db().await;

        // 1. The account, Premium, its key and codes, through the API.
        let setup = relay_and_projectors(&app).await;
        let Shop {
            mut browser,
            account,
            key: account_key,
        } = shop(&app, &db, "bancada@mercado.test").await;
        browser.go_premium(&account).await;
        let pix_key = "caixa@mercado.test";
        let made = browser
            .post_json(
                &format!("/api/accounts/{account}/keys"),
                &json!({"pixKey": pix_key, "holderName": "Mercado da Bancada"}),
            )
            .await;
        assert_eq!(made.status.as_u16(), 201, "{}", made.text);
        let key_id = made.json["id"].as_str().expect("a key").to_owned();
        let mut codes = Vec::new();
        for name in ["Caixa 1", "Caixa 2", "Balcão de frios"] {
            let made = browser
                .post_json(
                    &format!("/api/accounts/{account}/qrcodes"),
                    &json!({"keyId": key_id, "merchantCity": "São Paulo", "description": name}),
                )
                .await;
            assert_eq!(made.status.as_u16(), 201, "{}", made.text);
            codes.push(Uuid::parse_str(made.json["id"].as_str().expect("id")).expect("a uuid"));
        }
        let mut others = Vec::new();
        for n in 1..=3 {
            others.push(shop(&app, &db, &format!("vizinha{n}@mercado.test")).await);
        }
        setup.stop().await.expect("the setup's roles stop");

        // 2. The log, then the read models by replay.
        let today = Utc::now().date_naive();
        let fill = |account: &str,
                    key: &commands::vault::AccountKey,
                    payments: u64,
                    codes: Vec<Uuid>,
                    seed: u64| Fill {
            account_id: Uuid::parse_str(account).expect("a uuid"),
            key: key.clone(),
            codes,
            pix_keys: vec![
                pix_key.to_owned(),
                "12345678000190".to_owned(),
                "+5511987654321".to_owned(),
            ],
            payments,
            days: 3 * 365,
            last_day: today,
            seed,
        };
        let started = Instant::now();
        let mut filled =
            payment_fill::fill(&db, &fill(&account, &account_key, total, codes.clone(), 37))
                .await
                .expect("fill");
        for (n, other) in (1..).zip(&others) {
            let more = payment_fill::fill(
                &db,
                &fill(
                    &other.account,
                    &other.key,
                    total / 10,
                    vec![Uuid::from_u64_pair(37, n)],
                    n,
                ),
            )
            .await
            .expect("fill");
            filled.payments += more.payments;
            filled.events += more.events;
        }
        let service = payment_fill::fill_service(
            &db,
            &ServiceFill {
                accounts: env("BALCAO_BENCH_ACCOUNTS", 0),
                payments_each: env("BALCAO_BENCH_ACCOUNT_PAYMENTS", 900),
                days: 3 * 365,
                last_day: today,
                password_hash: gateway::auth::password::Passwords::new()
                    .hash("senha-boa-1".to_owned())
                    .await
                    .expect("a hash"),
                seed: 1_000,
            },
        )
        .await
        .expect("fill");
        filled.payments += service.payments;
        filled.events += service.events;
        let filled_in = started.elapsed();
        let started = Instant::now();
        gateway::roles::replay(&app.settings, &["all".to_owned()], false)
            .await
            .expect("replay --all");
        let replayed_in = started.elapsed();

        // 3. The screen's requests.
        let base = format!("/api/accounts/{account}");
        let day = |back: u64| {
            today
                .checked_sub_days(Days::new(back))
                .expect("a day")
                .to_string()
        };
        let period = |days: u64| format!("de={}&ate={}", day(days - 1), day(0));
        let code = codes[0];
        let list = |query: &str| format!("{base}/payments?{query}");
        let summary = |query: &str| format!("{base}/payments/summary?{query}");
        let first = browser.get(&list("")).await;
        let next = first.json["next"].as_str().expect("a next page").to_owned();
        let mut probes: Vec<Probe> = Vec::new();
        let mut probe = |name: &str, path: String| {
            probes.push(Probe {
                name: name.to_owned(),
                path,
            });
        };
        probe("list: first page", list(""));
        probe("list: next page", list(&format!("depois={next}")));
        for days in [7, 30, 365] {
            probe(&format!("list: {days} days"), list(&period(days)));
        }
        probe("list: code", list(&format!("qrcode={code}")));
        probe("list: sem QR code", list("qrcode=sem"));
        probe("list: links", list("qrcode=links"));
        probe("list: key", list(&format!("chave={key_id}")));
        probe("list: source manual", list("origem=manual"));
        for status in ["received", "voided", "refunded"] {
            probe(
                &format!("list: status {status}"),
                list(&format!("situacao={status}")),
            );
        }
        probe("list: minimo 250,00", list("minimo=250,00"));
        probe("list: maximo 5,00", list("maximo=5,00"));
        probe("list: busca (payer)", list("busca=Raimundo"));
        probe("list: busca (no match)", list("busca=inexistente"));
        probe(
            "list: 30 days + code",
            list(&format!("{}&qrcode={code}", period(30))),
        );
        probe(
            "list: code + refunded",
            list(&format!("qrcode={code}&situacao=refunded")),
        );
        probe(
            "list: key + manual",
            list(&format!("chave={key_id}&origem=manual")),
        );
        probe(
            "list: 365 days + busca",
            list(&format!("{}&busca=Raimundo", period(365))),
        );
        probe("list: minimo + maximo", list("minimo=100,00&maximo=101,00"));
        for days in [7, 30, 365] {
            probe(&format!("summary: {days} days"), summary(&period(days)));
        }
        probe("summary: all", summary(""));
        probe(
            "summary: 365 days + code",
            summary(&format!("{}&qrcode={code}", period(365))),
        );
        probe(
            "summary: 365 days + key",
            summary(&format!("{}&chave={key_id}", period(365))),
        );
        probe("summary: all + refunded", summary("situacao=refunded"));
        probe("summary: all + sem", summary("qrcode=sem"));
        probe(
            "summary: 365 days + minimo",
            summary(&format!("{}&minimo=250,00", period(365))),
        );
        probe(
            "summary: 365 days + busca",
            summary(&format!("{}&busca=Raimundo", period(365))),
        );
        probe(
            "daily-totals: 30 days",
            format!("{base}/daily-totals?{}", period(30)),
        );
        probe(
            "daily-totals: 365 days",
            format!("{base}/daily-totals?{}", period(365)),
        );
        probe("daily-totals: all", format!("{base}/daily-totals"));
        probe("dashboard home", format!("{base}/summary"));

        let mut table = String::from("| request | p50 ms | p99 ms | answer |\n|---|---|---|---|\n");
        for Probe { name, path } in &probes {
            let mut answer = browser.get(path).await;
            if answer.status.as_u16() == 401 {
                browser.refresh().await;
                answer = browser.get(path).await;
            }
            assert_eq!(answer.status.as_u16(), 200, "{path}: {}", answer.text);
            let mut times = Vec::with_capacity(requests);
            for _ in 0..requests {
                let started = Instant::now();
                let answer = browser.get(path).await;
                times.push(started.elapsed());
                assert_eq!(answer.status.as_u16(), 200, "{path}: {}", answer.text);
            }
            let (p50, p99) = percentiles(times);
            let line = format!(
                "| {name} | {} | {} | {} |\n",
                ms(p50),
                ms(p99),
                size(&answer.json)
            );
            // Progress, for a run that takes minutes.
            eprint!("{line}");
            table += &line;
        }

        // 4. The CSV of every row, beside a raw COPY of the same rows.
        browser.refresh().await;
        reset_peak_rss();
        let rss_before = peak_rss_kb();
        let started = Instant::now();
        // Streamed and counted, not kept: the peak is the gateway's, not this client's.
        let mut response = app
            .client()
            .get(app.url(&format!("{base}/payments/csv")))
            .bearer_auth(browser.access_token.clone().expect("signed in"))
            .send()
            .await
            .expect("the CSV starts");
        assert_eq!(response.status().as_u16(), 200, "csv");
        let (mut csv_bytes, mut csv_lines) = (0_usize, 0_usize);
        while let Some(chunk) = response.chunk().await.expect("a chunk") {
            csv_bytes += chunk.len();
            csv_lines += chunk.iter().filter(|b| **b == b'\n').count();
        }
        let csv_time = started.elapsed();
        let rss_peak = peak_rss_kb();
        // The same rows and order as the export's pages, formatted by PostgreSQL.
        let raw = format!(
            "copy (select p.paid_at, p.amount_centavos, p.refunded_centavos, p.status, p.source,
                          q.description, p.txid, p.pix_key, p.end_to_end_id, p.payer_name,
                          p.payer_document, p.payer_info, p.note
                     from payments p
                     left join qrcodes q on q.qrcode_id = p.qrcode_id and q.owner_id = p.account_id
                    where p.account_id = '{account}'
                    order by p.paid_at desc, p.reference desc)
             to stdout (format csv)"
        );
        let mut conn = db.acquire().await.expect("a connection");
        let started = Instant::now();
        let mut copy = conn.copy_out_raw(&raw).await.expect("copy");
        let mut raw_bytes = 0;
        while let Some(chunk) = copy.next().await {
            raw_bytes += chunk.expect("a chunk").len();
        }
        drop(copy);
        let raw_time = started.elapsed();
        drop(conn);

        let head = format!(
            "{total} payments in the account ({} in all, {} events), filled in {} s; \
             replay --all {} s; {requests} requests each after one warm-up\n\n",
            filled.payments,
            filled.events,
            filled_in.as_secs(),
            replayed_in.as_secs(),
        );
        let csv = format!(
            "\n| CSV of the account | time | size | rows/s | peak RSS |\n|---|---|---|---|---|\n\
             | API `payments/csv` | {} ms | {} MB | {} | {} MB (from {} MB) |\n\
             | raw `COPY … (FORMAT csv)` | {} ms | {} MB | {} | |\n\
             \nAPI ÷ raw (rate): {} %\n",
            csv_time.as_millis(),
            csv_bytes / 1_000_000,
            u128::try_from(csv_lines).unwrap_or_default() * 1000 / csv_time.as_millis().max(1),
            rss_peak / 1024,
            rss_before / 1024,
            raw_time.as_millis(),
            raw_bytes / 1_000_000,
            u128::from(total) * 1000 / raw_time.as_millis().max(1),
            raw_time.as_millis() * 100 / csv_time.as_millis().max(1),
        );
        // Progress, for a run whose last step could still fail.
        eprint!("{head}{csv}");

        // 5. Requests while `replay --all` runs, beside the same requests without it.
        browser.refresh().await;
        let token = browser.access_token.clone().expect("signed in");
        let served_paths = [list(""), summary(&period(30)), format!("/pagamento/{code}")];
        let served_names = ["list: first page", "summary: 30 days", "payer page"];
        let quiet = Duration::from_secs(env("BALCAO_BENCH_QUIET_SECS", 10));
        let (stop, done) = tokio::sync::watch::channel(false);
        let stopper = tokio::spawn(async move {
            tokio::time::sleep(quiet).await;
            let _ = stop.send(true);
        });
        let quiet_served = serve_while(&app, &token, &served_paths, done).await;
        stopper.await.expect("the quiet phase ends");
        let (stop, done) = tokio::sync::watch::channel(false);
        let settings = app.settings.clone();
        let started = Instant::now();
        let replaying = tokio::spawn(async move {
            let replayed = gateway::roles::replay(&settings, &["all".to_owned()], false).await;
            let _ = stop.send(true);
            replayed
        });
        let replay_served = serve_while(&app, &token, &served_paths, done).await;
        replaying
            .await
            .expect("the replay's task")
            .expect("replay --all while serving");
        let replayed_again_in = started.elapsed();
        let served = format!(
            "\n`replay --all` again while {CLIENTS} clients ask: {} s\n\n\
             | phase | request | answered 200 | p50 ms | p99 ms | other answers |\n\
             |---|---|---|---|---|---|\n{}{}",
            replayed_again_in.as_secs(),
            served_rows("quiet", &served_names, quiet_served),
            served_rows("during replay", &served_names, replay_served),
        );

        std::io::stdout()
            .lock()
            .write_all((head + &table + &csv + &served).as_bytes())
            .expect("stdout");
        app.stop_or_keep().await;
    });
}
