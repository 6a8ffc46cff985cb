//! What both benchmarks need: a database of their own on the local server, dropped at the end,
//! and percentiles.

#![allow(dead_code, reason = "each benchmark uses a different part")]

use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{AssertSqlSafe, Connection, PgConnection, PgPool};
use uuid::Uuid;

/// Any database on the server (to create and drop the benchmark's own).
pub fn admin_url() -> String {
    std::env::var("DATABASE_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_owned())
}

/// The NATS server with JetStream.
pub fn nats_url() -> String {
    std::env::var("NATS_URL").unwrap_or_else(|_| "nats://127.0.0.1:4222".to_owned())
}

/// A fresh, migrated database; call [`BenchDb::drop_now`] at the end.
pub struct BenchDb {
    pub pool: PgPool,
    pub id: String,
    name: String,
    admin: PgConnectOptions,
}

impl BenchDb {
    pub async fn create() -> anyhow::Result<BenchDb> {
        let admin = admin_url()
            .parse::<PgConnectOptions>()?
            .database("postgres");
        let id = Uuid::new_v4().simple().to_string();
        let name = format!("balcao_bench_projections_{id}");
        let mut conn = PgConnection::connect_with(&admin).await?;
        sqlx::query(AssertSqlSafe(format!("create database {name}")))
            .execute(&mut conn)
            .await?;
        conn.close().await?;
        let pool = PgPoolOptions::new()
            .max_connections(12)
            .connect_with(admin.clone().database(&name))
            .await?;
        commands::MIGRATOR.run(&pool).await?;
        Ok(BenchDb {
            pool,
            id,
            name,
            admin,
        })
    }

    pub async fn drop_now(self) -> anyhow::Result<()> {
        self.pool.close().await;
        let mut conn = PgConnection::connect_with(&self.admin).await?;
        sqlx::query(AssertSqlSafe(format!(
            "drop database if exists {} with (force)",
            self.name
        )))
        .execute(&mut conn)
        .await?;
        conn.close().await?;
        Ok(())
    }
}

/// The `p`-th percentile (0–100) of `samples`, nearest rank.
pub fn percentile(samples: &mut [Duration], p: usize) -> Duration {
    if samples.is_empty() {
        return Duration::ZERO;
    }
    samples.sort_unstable();
    let rank = (samples.len() * p).div_ceil(100).max(1);
    samples[rank - 1]
}

/// Milliseconds with two decimals, without float arithmetic.
pub fn ms(d: Duration) -> String {
    let micros = d.as_micros();
    format!("{}.{:02}", micros / 1000, (micros % 1000) / 10)
}

/// Events per second from a count and a duration.
pub fn per_second(events: u64, elapsed: Duration) -> u64 {
    let micros = u64::try_from(elapsed.as_micros())
        .unwrap_or(u64::MAX)
        .max(1);
    events.saturating_mul(1_000_000) / micros
}
