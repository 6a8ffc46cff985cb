//! QR codes made through HTTP at rising steady rates, beside PostgreSQL's raw single-row INSERT
//! rate of the same run, with the CPU each creation costs in every process (issue 16).
//!
//! `cargo bench -p gateway --bench creations` (needs PostgreSQL and `nats-server`, as the e2e
//! tests). `balcao serve`, `balcao relay` and `balcao project` run as three processes (the binary
//! cargo built for this bench) over a fresh database and a private `nats-server` (`common`), so
//! each one's CPU can be read from `/proc`; PostgreSQL's backends are grouped by the
//! `application_name` each role sets.
//!
//! The generator is open-loop: request *n* of a step is due at `n / rate` seconds whatever the
//! answers before it, and its latency counts from when it was due (a slow server cannot slow
//! the arrivals down and hide its queue). Each step lasts `BALCAO_BENCH_SECONDS` (default 5);
//! the rates are `BALCAO_BENCH_RATES` (default `100,200,300,400,600,800,1000`); the run stops
//! after the first step that fails (an error, or p99 ≥ 1 s). Between steps it waits until the
//! projector has every code, so no step inherits the last one's backlog.
//!
//! Memory (issue 16, item 5): each `balcao` process's resident memory is read when the stack is
//! idle before the first step, at the end of every step, and again `BALCAO_BENCH_SETTLE`
//! seconds (default 30) after the last one, with no load. Target: settled within 2× idle.
//!
//! Targets: a step sustained (every answer 201, p99 < 100 ms, ≥ 95 % of the offered rate) at
//! ≥ 1,000 creations/s and ≥ 25 % of the raw INSERT rate; ≤ 2 ms of CPU per creation in all
//! processes together.

#![allow(
    clippy::float_arithmetic,
    clippy::print_stdout,
    reason = "a benchmark computes its figures and prints them"
)]

mod common;

use std::time::{Duration, Instant};

use common::load::{cpu_by_process, creations_at, premium_shops, wait_until_projected};
use common::{Stack, env_u64, rss_kib};
use serde_json::json;
use sqlx::postgres::PgPoolOptions;

/// Single-row INSERTs, each its own transaction, from 16 connections for `seconds`: rows/s.
async fn raw_insert_rate(url: &str, seconds: u64) -> f64 {
    let pool = PgPoolOptions::new()
        .max_connections(16)
        .connect(url)
        .await
        .expect("a pool");
    sqlx::query(
        "create table bench_raw (id uuid primary key, payload jsonb not null,
                                 created_at timestamptz not null default now())",
    )
    .execute(&pool)
    .await
    .expect("bench_raw");
    let until = Instant::now() + Duration::from_secs(seconds);
    let started = Instant::now();
    let workers: Vec<_> = (0..16)
        .map(|_| {
            let pool = pool.clone();
            tokio::spawn(async move {
                let mut rows = 0_u64;
                while Instant::now() < until {
                    sqlx::query("insert into bench_raw (id, payload) values ($1, $2)")
                        .bind(uuid::Uuid::new_v4())
                        .bind(json!({"merchantName": "Padaria da Dona", "merchantCity": "Recife", "pixKey": "loja@padaria.test"}))
                        .execute(&pool)
                        .await
                        .expect("insert");
                    rows += 1;
                }
                rows
            })
        })
        .collect();
    let mut rows = 0;
    for worker in workers {
        rows += worker.await.expect("a worker");
    }
    let rate = rows as f64 / started.elapsed().as_secs_f64();
    sqlx::query("drop table bench_raw")
        .execute(&pool)
        .await
        .expect("drop bench_raw");
    pool.close().await;
    rate
}

fn main() {
    common::block_on(bench());
}

async fn bench() {
    let seconds = env_u64("BALCAO_BENCH_SECONDS", 5);
    let rates: Vec<u64> = std::env::var("BALCAO_BENCH_RATES")
        .unwrap_or_else(|_| "100,200,300,400,600,800,1000".to_owned())
        .split(',')
        .filter_map(|r| r.trim().parse().ok())
        .collect();
    let mut stack = Stack::start(&["serve", "relay", "project"]).await;
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(1024)
        .build()
        .expect("a client");

    let codes: u64 = rates.iter().map(|r| r * seconds).sum();
    let shops = premium_shops(&stack, &client, codes).await;

    let database_url = std::env::var("DATABASE_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_owned());
    let bench_url = {
        let mut url = database_url.clone();
        if let Some(slash) = url.rfind('/') {
            url.truncate(slash + 1);
        }
        url + &stack.database
    };
    let raw = raw_insert_rate(&bench_url, seconds).await;
    eprintln!("raw single-row INSERT: {raw:.0} rows/s");
    let idle_rss = rss_by_process(&stack);

    let mut made_so_far = 0_u64;
    let mut peak_rss = 0_u64;
    let mut counter = 0_u64;
    let mut rows = Vec::new();
    for rate in rates {
        let cpu_before = cpu_by_process(&mut stack).await;
        let step = creations_at(&client, &shops, rate, seconds, &mut counter).await;
        let cpu_after = cpu_by_process(&mut stack).await;
        peak_rss = peak_rss.max(rss_by_process(&stack).iter().map(|(_, kib)| kib).sum());
        made_so_far += step.made;
        let mut cpu: Vec<(String, f64)> = cpu_after
            .iter()
            .map(|(name, after)| {
                let before = cpu_before.get(name).copied().unwrap_or(0.0);
                (
                    name.clone(),
                    (after - before) * 1000.0 / step.made.max(1) as f64,
                )
            })
            .collect();
        cpu.sort_by(|a, b| b.1.total_cmp(&a.1));
        let cpu_total: f64 = cpu.iter().map(|(_, ms)| ms).sum();
        eprintln!(
            "{rate}/s: {:.0}/s made, p50 {:.1} ms, p99 {:.1} ms, failures {:?}, \
             CPU {cpu_total:.2} ms per creation",
            step.achieved, step.p50, step.p99, step.failures
        );
        let sustained = step.sustained(rate);
        let failed = !step.failures.is_empty() || step.p99 >= 1000.0;
        rows.push((
            rate,
            step.achieved,
            step.p50,
            step.p99,
            step.failures,
            cpu,
            cpu_total,
            sustained,
        ));
        wait_until_projected(&mut stack, made_so_far).await;
        if failed {
            break;
        }
    }

    println!("\nraw single-row INSERT (16 connections, same database): {raw:.0} rows/s\n");
    println!(
        "| offered/s | made/s | p50 ms | p99 ms | failures | CPU ms per creation (all) | sustained |"
    );
    println!("|---|---|---|---|---|---|---|");
    for (rate, achieved, p50, p99, failures, _, cpu_total, sustained) in &rows {
        println!(
            "| {rate} | {achieved:.0} | {p50:.1} | {p99:.1} | {failures:?} | {cpu_total:.2} | {} |",
            if *sustained { "yes" } else { "no" }
        );
    }
    println!("\nCPU ms per creation, by process, at each step:\n");
    for (rate, _, _, _, _, cpu, _, _) in &rows {
        let parts: Vec<String> = cpu
            .iter()
            .filter(|(_, ms)| *ms >= 0.005)
            .map(|(name, ms)| format!("{name} {ms:.2}"))
            .collect();
        println!("- {rate}/s: {}", parts.join(", "));
    }
    let best = rows
        .iter()
        .filter(|row| row.7)
        .map(|row| row.1)
        .fold(0.0_f64, f64::max);
    println!(
        "\nhighest sustained: {best:.0} creations/s = {:.0} % of raw (targets ≥ 1,000/s and ≥ 25 %)",
        best * 100.0 / raw
    );

    let settle = env_u64("BALCAO_BENCH_SETTLE", 30);
    tokio::time::sleep(Duration::from_secs(settle)).await;
    let settled_rss = rss_by_process(&stack);
    let idle_total: u64 = idle_rss.iter().map(|(_, kib)| kib).sum();
    let settled_total: u64 = settled_rss.iter().map(|(_, kib)| kib).sum();
    println!(
        "\nresident memory of the balcao processes (MiB): idle, end of the busiest step, {settle} s after\n"
    );
    for ((name, idle), (_, settled)) in idle_rss.iter().zip(&settled_rss) {
        println!(
            "- {name}: {:.1} idle, {:.1} settled ({:.2}× idle)",
            *idle as f64 / 1024.0,
            *settled as f64 / 1024.0,
            *settled as f64 / (*idle).max(1) as f64
        );
    }
    println!(
        "- all: {:.1} idle, {:.1} at the peak step's end, {:.1} settled = {:.2}× idle (target ≤ 2×)",
        idle_total as f64 / 1024.0,
        peak_rss as f64 / 1024.0,
        settled_total as f64 / 1024.0,
        settled_total as f64 / idle_total.max(1) as f64
    );
    stack.stop().await;
}

/// Resident memory of each `balcao` process (not the private NATS), in KiB.
fn rss_by_process(stack: &Stack) -> Vec<(String, u64)> {
    stack
        .processes
        .iter()
        .filter(|process| process.name != "nats-server")
        .map(|process| (process.name.to_string(), rss_kib(process.pid())))
        .collect()
}
