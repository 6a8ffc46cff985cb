//! The open-loop creation load the write-path benches share (`creations`, `relay_cpu`), and the
//! CPU they read per process.
//!
//! Request *n* of a step is due at `n / rate` seconds whatever the answers before it, and its
//! latency counts from when it was due: a slow server cannot slow the arrivals down and hide
//! its queue.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use tokio::sync::Mutex;

use super::{Stack, cpu_seconds};

/// A Premium shop makes 2,000 codes a month: a run spreads its codes over enough shops, in turn.
pub const CODES_PER_SHOP: u64 = 1_900;

/// Each shop's creation URL and access token.
pub type Shops = Arc<Vec<(String, String)>>;

/// Signs up and makes Premium enough shops for `codes` creations.
pub async fn premium_shops(stack: &Stack, client: &reqwest::Client, codes: u64) -> Shops {
    let mut shops = Vec::new();
    for n in 0..codes.div_ceil(CODES_PER_SHOP) {
        let (account, token) = stack
            .sign_up_as(client, &format!("loja{n}@padaria.test"))
            .await;
        stack.go_premium(client, &account, &token).await;
        shops.push((
            format!("{}/api/accounts/{account}/qrcodes", stack.base),
            token,
        ));
    }
    Arc::new(shops)
}

/// What one step at a steady rate got back.
#[derive(Debug, Clone)]
pub struct Step {
    /// Codes made per second of the step's wall time.
    pub achieved: f64,
    /// Answers 201.
    pub made: u64,
    /// Median latency from the due time, ms.
    pub p50: f64,
    /// 99th percentile, ms.
    pub p99: f64,
    /// Status (0 for no answer) → count, for everything but 201.
    pub failures: BTreeMap<u16, usize>,
}

impl Step {
    /// Every answer 201, p99 < 100 ms and ≥ 95 % of the offered rate.
    pub fn sustained(&self, rate: u64) -> bool {
        self.failures.is_empty() && self.p99 < 100.0 && self.achieved >= 0.95 * rate as f64
    }
}

#[derive(Default)]
struct Answers {
    latencies: Vec<u32>,
    failures: BTreeMap<u16, usize>,
}

/// Creates codes at `rate` per second for `seconds`, round-robin over `shops` (`counter` carries
/// the turn from one step to the next), and waits for every answer.
pub async fn creations_at(
    client: &reqwest::Client,
    shops: &Shops,
    rate: u64,
    seconds: u64,
    counter: &mut u64,
) -> Step {
    let answers = Arc::new(Mutex::new(Answers::default()));
    let started = Instant::now();
    let total = rate * seconds;
    let mut tasks = Vec::with_capacity(usize::try_from(total).unwrap_or(0));
    for n in 0..total {
        let due = started + Duration::from_secs_f64(n as f64 / rate as f64);
        tokio::time::sleep_until(due.into()).await;
        let shop = usize::try_from(*counter % shops.len() as u64).expect("an index");
        *counter += 1;
        let (url, token) = shops[shop].clone();
        let client = client.clone();
        let answers = answers.clone();
        tasks.push(tokio::spawn(async move {
            let status = client
                .post(&url)
                .bearer_auth(&token)
                .json(&json!({"pixKey": "loja@padaria.test", "merchantName": format!("Caixa {n}"), "merchantCity": "Recife"}))
                .timeout(Duration::from_secs(30))
                .send()
                .await
                .map_or(0, |r| r.status().as_u16());
            let latency = u32::try_from(due.elapsed().as_micros()).unwrap_or(u32::MAX);
            let mut answers = answers.lock().await;
            if status == 201 {
                answers.latencies.push(latency);
            } else {
                *answers.failures.entry(status).or_insert(0) += 1;
            }
        }));
    }
    for task in tasks {
        task.await.expect("a request task");
    }
    let elapsed = started.elapsed().as_secs_f64();
    let mut answers = answers.lock().await;
    answers.latencies.sort_unstable();
    let made = answers.latencies.len() as u64;
    Step {
        achieved: made as f64 / elapsed,
        made,
        p50: percentile_ms(&answers.latencies, 0.50),
        p99: percentile_ms(&answers.latencies, 0.99),
        failures: answers.failures.clone(),
    }
}

fn percentile_ms(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    f64::from(sorted[index]) / 1000.0
}

/// CPU seconds used so far by each process and by PostgreSQL's backends per application name
/// (`process relay`, `PostgreSQL balcao-relay`, …).
pub async fn cpu_by_process(stack: &mut Stack) -> BTreeMap<String, f64> {
    let mut cpu = BTreeMap::new();
    for process in &stack.processes {
        cpu.insert(
            format!("process {}", process.name),
            cpu_seconds(process.pid()),
        );
    }
    let backends: Vec<(i32, String)> = sqlx::query_as(
        "select pid, application_name from pg_stat_activity
          where datname = current_database() and application_name like 'balcao%'",
    )
    .fetch_all(&mut stack.db)
    .await
    .expect("pg_stat_activity reads");
    for (pid, name) in backends {
        let pid = u32::try_from(pid).expect("a pid");
        // Named by role only: the instance part differs per run.
        let role = name.split_whitespace().next().unwrap_or(&name).to_owned();
        *cpu.entry(format!("PostgreSQL {role}")).or_insert(0.0) += cpu_seconds(pid);
    }
    cpu
}

/// Waits (at most 60 s) until the projector holds `made` codes, so a step does not inherit the
/// last one's backlog.
pub async fn wait_until_projected(stack: &mut Stack, made: u64) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let projected: i64 = sqlx::query_scalar("select count(*) from qrcodes")
            .fetch_one(&mut stack.db)
            .await
            .expect("qrcodes counts");
        if u64::try_from(projected).unwrap_or(0) >= made || Instant::now() > deadline {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}
