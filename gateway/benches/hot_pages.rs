//! The hot pages beside the cheapest answers of the same gateway, at 64 keep-alive connections.
//!
//! `cargo bench -p gateway --bench hot_pages` (needs PostgreSQL and `nats-server`, as the e2e
//! tests). The `balcao all` binary cargo built for this bench runs as its own process over a
//! fresh database and a private `nats-server` (see `common`); this process is only the load
//! generator (hyper's
//! HTTP/1 client, one connection per task, each sending its next request when the last answer
//! has been read whole — a closed loop, as wrk runs).
//!
//! Targets (issues 15 and 16): `GET /pagamento/{id}` answers p99 < 10 ms and at least half the
//! requests per second of the embedded stylesheet, with and without `Accept-Encoding: br`.
//!
//! Every target runs `BALCAO_BENCH_ROUNDS` times (default 3), interleaved, for
//! `BALCAO_BENCH_SECONDS` each (default 5), so a drift of the machine hits every target alike;
//! requests per second are the median of the rounds, percentiles come from every answer. The
//! server's CPU per request is read from `/proc/{pid}/stat` around each run.

#![allow(
    clippy::float_arithmetic,
    clippy::print_stdout,
    reason = "a benchmark computes its figures and prints them"
)]

mod common;

use std::time::{Duration, Instant};

use common::{Stack, cpu_seconds, env_u64};
use http_body_util::{BodyExt, Empty};
use hyper::Request;
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use tokio::net::TcpStream;

const CONNECTIONS: usize = 64;

/// One thing to measure: a path and whether the client offers brotli.
struct Target {
    name: &'static str,
    path: String,
    brotli: bool,
    /// Requests per second of each round.
    rates: Vec<f64>,
    /// Every answer's latency, in microseconds.
    latencies: Vec<u32>,
    /// Server CPU per request, in microseconds, of each round.
    cpu: Vec<f64>,
    failures: usize,
}

/// One connection's closed loop until `until`: its answers' latencies and the failures.
async fn connection(
    address: String,
    path: String,
    brotli: bool,
    until: Instant,
) -> (Vec<u32>, usize) {
    let stream = TcpStream::connect(&address).await.expect("connect");
    stream.set_nodelay(true).expect("nodelay");
    let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .expect("handshake");
    tokio::spawn(conn);
    let mut latencies = Vec::with_capacity(8192);
    let mut failures = 0;
    while Instant::now() < until {
        let mut request = Request::get(path.as_str()).header("host", address.as_str());
        if brotli {
            request = request.header("accept-encoding", "br, gzip");
        }
        let request = request.body(Empty::<Bytes>::new()).expect("request");
        let started = Instant::now();
        let answer = match sender.send_request(request).await {
            Ok(answer) => answer,
            Err(_) => return (latencies, failures + 1),
        };
        let ok = answer.status().is_success();
        let read = answer.into_body().collect().await.is_ok();
        latencies.push(u32::try_from(started.elapsed().as_micros()).unwrap_or(u32::MAX));
        if !(ok && read) {
            failures += 1;
        }
    }
    (latencies, failures)
}

async fn run(server: u32, address: &str, target: &mut Target, seconds: u64) {
    let cpu_before = cpu_seconds(server);
    let started = Instant::now();
    let until = started + Duration::from_secs(seconds);
    let tasks: Vec<_> = (0..CONNECTIONS)
        .map(|_| {
            tokio::spawn(connection(
                address.to_owned(),
                target.path.clone(),
                target.brotli,
                until,
            ))
        })
        .collect();
    let mut answered = 0_usize;
    for task in tasks {
        let (latencies, failures) = task.await.expect("a connection task");
        answered += latencies.len();
        target.latencies.extend(latencies);
        target.failures += failures;
    }
    let elapsed = started.elapsed().as_secs_f64();
    let cpu = cpu_seconds(server) - cpu_before;
    target.rates.push(answered as f64 / elapsed);
    target.cpu.push(cpu * 1e6 / answered.max(1) as f64);
}

fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted[sorted.len() / 2]
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    f64::from(sorted[index]) / 1000.0
}

fn main() {
    common::block_on(bench());
}

async fn bench() {
    let seconds = env_u64("BALCAO_BENCH_SECONDS", 5);
    let rounds = env_u64("BALCAO_BENCH_ROUNDS", 3);
    let stack = Stack::start(&["all"]).await;
    let server = stack.process("all").pid();
    let address = stack.address.clone();
    let base = stack.base.clone();
    let client = reqwest::Client::new();
    let (account_id, token) = stack.sign_up(&client).await;
    let made = client
        .post(format!("{base}/api/accounts/{account_id}/qrcodes"))
        .bearer_auth(&token)
        .json(&json!({"pixKey": "loja@padaria.test", "merchantName": "Padaria da Dona", "merchantCity": "Recife", "amount": "12,50"}))
        .send()
        .await
        .expect("creation answered");
    assert_eq!(made.status().as_u16(), 201, "the code was not made");
    let code: Value = made.json().await.expect("JSON");
    let payer_page = format!("/pagamento/{}", code["id"].as_str().expect("id"));
    // The page is read from the read model: wait until the projector has it.
    let deadline = Instant::now() + Duration::from_secs(30);
    while !client
        .get(format!("{base}{payer_page}"))
        .send()
        .await
        .is_ok_and(|r| r.status().is_success())
    {
        assert!(Instant::now() < deadline, "the payer page never appeared");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    let stylesheet = gateway::assets::stylesheet_path().to_owned();
    let mut targets: Vec<Target> = [
        ("GET /healthz", "/healthz".to_owned(), false),
        ("stylesheet", stylesheet.clone(), false),
        ("stylesheet, br", stylesheet, true),
        ("payer page", payer_page.clone(), false),
        ("payer page, br", payer_page, true),
    ]
    .into_iter()
    .map(|(name, path, brotli)| Target {
        name,
        path,
        brotli,
        rates: Vec::new(),
        latencies: Vec::new(),
        cpu: Vec::new(),
        failures: 0,
    })
    .collect();

    // A short warm-up of every target, not counted.
    for target in &targets {
        let mut scratch_target = Target {
            name: target.name,
            path: target.path.clone(),
            brotli: target.brotli,
            rates: Vec::new(),
            latencies: Vec::new(),
            cpu: Vec::new(),
            failures: 0,
        };
        run(server, &address, &mut scratch_target, 1).await;
    }
    for round in 1..=rounds {
        for target in &mut targets {
            run(server, &address, target, seconds).await;
            eprintln!(
                "round {round} {:<16} {:>9.0} req/s",
                target.name,
                target.rates.last().copied().unwrap_or(0.0)
            );
        }
    }

    println!(
        "\n{CONNECTIONS} connections, {rounds} rounds × {seconds} s per target, interleaved\n"
    );
    println!(
        "| target | requests/s (median) | p50 ms | p99 ms | server CPU µs/request | failures |"
    );
    println!("|---|---|---|---|---|---|");
    for target in &mut targets {
        target.latencies.sort_unstable();
        println!(
            "| {} | {:.0} | {:.2} | {:.2} | {:.0} | {} |",
            target.name,
            median(&target.rates),
            percentile(&target.latencies, 0.50),
            percentile(&target.latencies, 0.99),
            median(&target.cpu),
            target.failures
        );
    }
    let rate = |name: &str| {
        targets
            .iter()
            .find(|t| t.name == name)
            .map_or(0.0, |t| median(&t.rates))
    };
    println!(
        "\npayer page ÷ stylesheet: {:.2} (identity), {:.2} (br); target ≥ 0.50 and payer p99 < 10 ms",
        rate("payer page") / rate("stylesheet"),
        rate("payer page, br") / rate("stylesheet, br"),
    );

    stack.stop().await;
}
