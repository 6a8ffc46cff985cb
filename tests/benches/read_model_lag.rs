//! Creations and payer pages while the read models lag: p50/p99 of `POST
//! /api/accounts/{id}/qrcodes` and `GET /pagamento/{id}` at a steady rate, in one run, in three
//! phases: healthy, projector stopped, NATS down (a private `nats-server` this bench starts and
//! stops on its own port; the shared one is never touched).
//!
//! `cargo bench -p tests --bench read_model_lag` (needs PostgreSQL and `nats-server` on the
//! PATH). Target: creations' p99 with the projector stopped within 2× of healthy.
//! `BALCAO_BENCH_SECONDS` (default 20) is the length of each phase, `BALCAO_BENCH_RATE`
//! (default 20) the creations and the payer pages per second, each.
//!
//! Afterwards it checks that nothing was lost or duplicated: the read model holds exactly the
//! codes that were answered 201.

use std::collections::BTreeSet;
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use gateway::roles::{Roles, Running};
use serde_json::{Value, json};
use tests::TestApp;
use tests::browser::Browser;
use tokio::sync::Mutex;

/// A private JetStream server: its own port and folder, stopped and started by this bench.
struct PrivateNats {
    port: u16,
    dir: PathBuf,
    child: Option<Child>,
}

impl PrivateNats {
    fn start() -> anyhow::Result<PrivateNats> {
        let port = TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        let dir = std::env::temp_dir().join(format!("balcao-bench-nats-{port}"));
        std::fs::create_dir_all(&dir)?;
        let mut nats = PrivateNats {
            port,
            dir,
            child: None,
        };
        nats.resume()?;
        Ok(nats)
    }

    fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }

    fn resume(&mut self) -> anyhow::Result<()> {
        let child = Command::new("nats-server")
            .args([
                "-js",
                "-a",
                "127.0.0.1",
                "-p",
                &self.port.to_string(),
                "-sd",
            ])
            .arg(&self.dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()?;
        self.child = Some(child);
        // Wait until it accepts connections.
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            anyhow::ensure!(Instant::now() < deadline, "nats-server did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        Ok(())
    }

    fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for PrivateNats {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[derive(Default)]
struct Samples {
    creations: Vec<Duration>,
    pages: Vec<Duration>,
    failed_creations: usize,
    failed_pages: usize,
}

fn percentile(samples: &mut [Duration], p: usize) -> Duration {
    if samples.is_empty() {
        return Duration::ZERO;
    }
    samples.sort_unstable();
    let index = (samples.len() * p).div_ceil(100).saturating_sub(1);
    samples[index.min(samples.len() - 1)]
}

fn ms(duration: Duration) -> String {
    let micros = duration.as_micros();
    format!("{}.{} ms", micros / 1000, (micros % 1000) / 100)
}

/// `part / whole` as "1.23×", in integers.
fn ratio(part: Duration, whole: Duration) -> String {
    let hundredths = part.as_micros() * 100 / whole.as_micros().max(1);
    format!("{}.{:02}×", hundredths / 100, hundredths % 100)
}

/// One line of the report.
fn say(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stdout().lock(), "{line}");
}

struct Load {
    client: reqwest::Client,
    codes_url: String,
    token: String,
    page_urls: Vec<String>,
    made: Arc<Mutex<Vec<String>>>,
}

impl Load {
    /// `rate` creations and `rate` payer pages per second for `seconds`, each request in its
    /// own task at its scheduled time (open loop: a slow answer does not slow the load).
    async fn run(&self, rate: u64, seconds: u64) -> Samples {
        let samples = Arc::new(Mutex::new(Samples::default()));
        let interval = Duration::from_secs(1) / u32::try_from(rate).unwrap_or(1);
        let start = tokio::time::Instant::now();
        let mut tasks = Vec::new();
        for i in 0..rate * seconds {
            tokio::time::sleep_until(start + interval * u32::try_from(i).unwrap_or(0)).await;
            let client = self.client.clone();
            let url = self.codes_url.clone();
            let token = self.token.clone();
            let made = Arc::clone(&self.made);
            let into = Arc::clone(&samples);
            tasks.push(tokio::spawn(async move {
                let sent = Instant::now();
                let answer = client
                    .post(&url)
                    .bearer_auth(&token)
                    .json(&json!({
                        "pixKey": "loja@padaria.test",
                        "merchantName": format!("Loja {i}"),
                        "merchantCity": "Recife",
                        "amount": "7,00"
                    }))
                    .send()
                    .await;
                let took = sent.elapsed();
                let mut into = into.lock().await;
                into.creations.push(took);
                match answer {
                    Ok(response) if response.status().as_u16() == 201 => {
                        let body: Value = response.json().await.unwrap_or_default();
                        if let Some(id) = body["id"].as_str() {
                            made.lock().await.push(id.to_owned());
                        }
                    }
                    _ => into.failed_creations += 1,
                }
            }));
            let client = self.client.clone();
            let page =
                self.page_urls[usize::try_from(i).unwrap_or(0) % self.page_urls.len()].clone();
            let into = Arc::clone(&samples);
            tasks.push(tokio::spawn(async move {
                let sent = Instant::now();
                let answer = client.get(&page).send().await;
                let took = sent.elapsed();
                let ok = answer.is_ok_and(|r| r.status().as_u16() == 200);
                let mut into = into.lock().await;
                into.pages.push(took);
                if !ok {
                    into.failed_pages += 1;
                }
            }));
        }
        for task in tasks {
            let _ = task.await;
        }
        Arc::try_unwrap(samples)
            .ok()
            .expect("every task ended")
            .into_inner()
    }
}

fn report(phase: &str, mut samples: Samples) -> Duration {
    let c50 = percentile(&mut samples.creations, 50);
    let c99 = percentile(&mut samples.creations, 99);
    let p50 = percentile(&mut samples.pages, 50);
    let p99 = percentile(&mut samples.pages, 99);
    say(&format!(
        "| {phase} | {} | {} | {} | {} | {} | {} | {} |",
        samples.creations.len(),
        ms(c50),
        ms(c99),
        samples.failed_creations,
        ms(p50),
        ms(p99),
        samples.failed_pages,
    ));
    c99
}

fn project() -> Roles {
    Roles {
        project: true,
        ..Roles::default()
    }
}

/// Every code of the account in the `qrcodes` read model.
async fn projected(db: &sqlx::PgPool, account_id: &str) -> anyhow::Result<BTreeSet<String>> {
    let ids: Vec<String> =
        sqlx::query_scalar("select qrcode_id::text from qrcodes where owner_id = $1::uuid")
            .bind(account_id)
            .fetch_all(db)
            .await?;
    Ok(ids.into_iter().collect())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let seconds: u64 = std::env::var("BALCAO_BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let rate: u64 = std::env::var("BALCAO_BENCH_RATE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let mut nats = PrivateNats::start()?;
    let nats_url = nats.url();
    let app = TestApp::spawn_roles(
        Roles {
            serve: true,
            relay: true,
            project: false,
            projections: Vec::new(),
        },
        |settings| {
            settings.nats_url = nats_url;
            // The production defaults, not the tests' patient ones.
            settings.read_your_writes_ms = 3_000;
            settings.read_your_writes_waiters = 1_000;
            settings.read_your_writes_stall_ms = 250;
            // The shop goes Premium (below): the run makes more codes than Grátis allows a month.
            settings.payments.sandbox_payments = true;
        },
    )
    .await;
    let mut projector: Option<Running> = Some(app.start_roles(project()).await);

    let mut browser = Browser::new(&app);
    let signed_up = browser
        .sign_up("bench@padaria.test", "senha-boa-1", "Bench")
        .await;
    anyhow::ensure!(signed_up.status.as_u16() == 200, "{}", signed_up.text);
    let account_id = signed_up.json["user"]["uid"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    browser.go_premium(&account_id).await;
    let token = browser.access_token.clone().unwrap_or_default();
    let codes_url = app.url(&format!("/api/accounts/{account_id}/qrcodes"));
    let mut page_urls = Vec::new();
    let pages = 20;
    for i in 0..pages {
        let made = browser
            .post_json(
                &format!("/api/accounts/{account_id}/qrcodes"),
                &json!({"pixKey": "loja@padaria.test", "merchantName": format!("Pagina {i}"), "merchantCity": "Recife"}),
            )
            .await;
        anyhow::ensure!(made.status.as_u16() == 201, "{}", made.text);
        page_urls.push(app.url(&format!(
            "/pagamento/{}",
            made.json["id"].as_str().unwrap_or_default()
        )));
    }
    let load = Load {
        client: reqwest::Client::new(),
        codes_url,
        token,
        page_urls,
        made: Arc::new(Mutex::new(Vec::new())),
    };
    // Warm up (connections, caches), not counted.
    load.run(rate, 2).await;

    say(&format!(
        "read model lag: {rate} creations/s + {rate} payer pages/s, {seconds} s per phase\n"
    ));
    say(
        "| phase | creations | creation p50 | creation p99 | failed | payer page p50 | payer page p99 | failed |",
    );
    say("|---|---|---|---|---|---|---|---|");
    let healthy = report("healthy", load.run(rate, seconds).await);

    if let Some(running) = projector.take() {
        running.stop().await?;
    }
    let paused = report("projector stopped", load.run(rate, seconds).await);
    projector = Some(app.start_roles(project()).await);
    tokio::time::sleep(Duration::from_secs(5)).await;

    nats.stop();
    let nats_down = report("NATS down", load.run(rate, seconds).await);
    nats.resume()?;

    // Nothing lost, nothing duplicated: once caught up, the read model holds exactly the codes
    // answered 201 (and the payer pages' codes).
    let made: BTreeSet<String> = load.made.lock().await.iter().cloned().collect();
    let db = app.db().await;
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut seen = projected(&db, &account_id).await?;
    while seen.len() < made.len() + pages && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(500)).await;
        seen = projected(&db, &account_id).await?;
    }
    let extra = seen.len() - made.iter().filter(|id| seen.contains(*id)).count();
    say(&format!(
        "\ncreations answered 201: {}; in the read model afterwards: {} of them; codes there that no 201 announced: {} ({} expected: the payer pages' own)",
        made.len(),
        made.iter().filter(|id| seen.contains(*id)).count(),
        extra,
        pages
    ));
    say(&format!(
        "creation p99, projector stopped / healthy: {} (target ≤ 2×); NATS down / healthy: {}",
        ratio(paused, healthy),
        ratio(nats_down, healthy)
    ));
    if let Some(running) = projector.take() {
        running.stop().await?;
    }
    app.stop().await;
    Ok(())
}
