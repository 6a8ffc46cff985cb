//! The relay's CPU at a steady creation rate over logs of rising size (issue 16): its cost must
//! not grow with the log (target: flat, < 0.1 core at 200 creations/s).
//!
//! `cargo bench -p gateway --bench relay_cpu` (needs PostgreSQL and `nats-server`). For each
//! log size of `BALCAO_BENCH_LOG_SIZES` (default `10000,100000,1000000`) a fresh stack starts
//! (`serve`, `relay`, `project` apart, `common`) over a log already holding that many events,
//! all published and applied (checkpoints at the end, as after months of sales); then codes
//! are made at `BALCAO_BENCH_RATE` per second (default 200) for `BALCAO_BENCH_SECONDS`
//! (default 10), and the relay's CPU over that time is read from `/proc`: its own process and
//! its PostgreSQL backend (`application_name` `balcao-relay`).

#![allow(
    clippy::float_arithmetic,
    clippy::print_stdout,
    reason = "a benchmark computes its figures and prints them"
)]

mod common;

use std::time::Instant;

use common::load::{cpu_by_process, creations_at, premium_shops, wait_until_projected};
use common::{Stack, env_u64};

fn main() {
    common::block_on(bench());
}

async fn bench() {
    let seconds = env_u64("BALCAO_BENCH_SECONDS", 10);
    let rate = env_u64("BALCAO_BENCH_RATE", 200);
    let sizes: Vec<i64> = std::env::var("BALCAO_BENCH_LOG_SIZES")
        .unwrap_or_else(|_| "10000,100000,1000000".to_owned())
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(1024)
        .build()
        .expect("a client");
    let mut rows = Vec::new();
    for size in sizes {
        let filled = Instant::now();
        let mut stack = Stack::start_after_log(&["serve", "relay", "project"], size).await;
        eprintln!(
            "log of {size} events ready in {:.1} s",
            filled.elapsed().as_secs_f64()
        );
        let shops = premium_shops(&stack, &client, rate * seconds).await;
        let mut counter = 0;
        let before = cpu_by_process(&mut stack).await;
        let started = Instant::now();
        let step = creations_at(&client, &shops, rate, seconds, &mut counter).await;
        let after = cpu_by_process(&mut stack).await;
        let wall = started.elapsed().as_secs_f64();
        wait_until_projected(&mut stack, step.made).await;
        let cores = |name: &str| {
            (after.get(name).copied().unwrap_or(0.0) - before.get(name).copied().unwrap_or(0.0))
                / wall
        };
        let process = cores("process relay");
        let backend = after
            .keys()
            .filter(|name| name.starts_with("PostgreSQL") && name.contains("relay"))
            .map(|name| cores(name))
            .sum::<f64>();
        eprintln!(
            "{size} events: {:.0} codes/s made, relay {process:.3} + its PostgreSQL {backend:.3} cores",
            step.achieved
        );
        rows.push((size, step, process, backend));
        stack.stop().await;
    }
    println!(
        "\nrelay CPU while making {rate} codes/s for {seconds} s, by events already in the log\n"
    );
    println!(
        "| events in the log | made/s | p99 ms | relay process (cores) | relay's PostgreSQL backend (cores) | relay total (cores) |"
    );
    println!("|---|---|---|---|---|---|");
    for (size, step, process, backend) in &rows {
        println!(
            "| {size} | {:.0} | {:.1} | {process:.3} | {backend:.3} | {:.3} |",
            step.achieved,
            step.p99,
            process + backend
        );
    }
    let totals: Vec<f64> = rows.iter().map(|(_, _, p, b)| p + b).collect();
    let most = totals.iter().copied().fold(0.0_f64, f64::max);
    println!(
        "\nhighest {most:.3} cores (target < 0.1); largest log ÷ smallest: {:.2}× (flat ≈ 1)",
        totals.last().copied().unwrap_or(0.0) / totals.first().copied().unwrap_or(1.0).max(1e-9)
    );
}
