//! Append throughput: commands through `CommandService` (one event per command, each on a new
//! stream; as creates with `ExpectedVersion::NoStream` and as plain `execute`, each with and
//! without an idempotency key) next to raw single-row `INSERT`s into a table of the same shape, in
//! the same run, the same harness and the same PostgreSQL.
//!
//! `cargo bench -p commands --bench append`
//!
//! Environment: `DATABASE_URL` (server to create the scratch database on; default the local one),
//! `BENCH_SECONDS` (measured seconds per cell, default 6, split into 3 alternating slices),
//! `BENCH_CLIENTS` (default `1,8,32`). Prints a markdown table.

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use commands::{
    CommandMetadata, CommandService, ExpectedVersion, IdempotencyKey, PgEventStore, PoolSettings,
};
use cqrs_es::event_sink::EventSink;
use cqrs_es::{Aggregate, DomainEvent};
use serde::{Deserialize, Serialize};
use sqlx::postgres::PgConnectOptions;
use sqlx::{AssertSqlSafe, Connection, PgConnection, PgPool};
use uuid::Uuid;

/// An account that is opened with a note: the smallest aggregate that writes one event.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Account {
    opened: bool,
}

#[derive(Debug, Clone)]
struct Open {
    amount_centavos: i64,
    note: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum AccountEvent {
    Opened { amount_centavos: i64, note: String },
}

impl DomainEvent for AccountEvent {
    fn event_type(&self) -> String {
        "AccountOpened".to_owned()
    }
    fn event_version(&self) -> String {
        "1".to_owned()
    }
}

#[derive(Debug, thiserror::Error)]
#[error("conta já aberta")]
struct AlreadyOpen;

impl Aggregate for Account {
    const TYPE: &'static str = "account";
    type Command = Open;
    type Event = AccountEvent;
    type Error = AlreadyOpen;
    type Services = ();

    async fn handle(
        &mut self,
        command: Open,
        _services: &(),
        sink: &EventSink<Self>,
    ) -> Result<(), AlreadyOpen> {
        if self.opened {
            return Err(AlreadyOpen);
        }
        let event = AccountEvent::Opened {
            amount_centavos: command.amount_centavos,
            note: command.note,
        };
        sink.write(event, self).await;
        Ok(())
    }

    fn apply(&mut self, _event: AccountEvent) {
        self.opened = true;
    }
}

/// A note that makes the serialised event about 300 bytes.
fn note() -> String {
    let event = AccountEvent::Opened {
        amount_centavos: 12_345,
        note: String::new(),
    };
    let overhead = serde_json::to_string(&event).map(|s| s.len()).unwrap_or(0);
    "Pagamento de teste via Pix ".repeat(20)[..300 - overhead].to_owned()
}

/// What one cell of the table measures.
#[derive(Clone, Copy)]
enum Workload {
    /// `insert into raw_events … values (…)`: no trigger, autocommit.
    RawInsert,
    /// The same insert into `events` itself, which has the relay-notifying trigger.
    RawInsertIntoEvents,
    /// `CommandService::execute_expecting(…, ExpectedVersion::NoStream, …)` on a new stream: how the
    /// gateway creates (no load; one round trip).
    Create,
    /// The same with an idempotency key (still one round trip: the append checks the key).
    CreateWithKey,
    /// `CommandService::execute` on a new stream (expected version `Any`): load, then append.
    Command,
    /// The same with an idempotency key (the key lookup rides with the load).
    CommandWithKey,
}

const RAW_INSERT: &str = "insert into raw_events (event_id, stream_type, stream_id, stream_version,
                                                 event_type, schema_version, payload, metadata)
                          values ($1, 'account', $2, 1, 'AccountOpened', 1, $3, $4)";
const RAW_INSERT_INTO_EVENTS: &str = "insert into events (event_id, stream_type, stream_id, stream_version,
                                                          event_type, schema_version, payload, metadata)
                                      values ($1, 'account', $2, 1, 'AccountOpened', 1, $3, $4)";

async fn one_operation(
    workload: Workload,
    pool: &PgPool,
    service: &CommandService<Account>,
    note: &str,
) -> Result<(), String> {
    let stream_id = Uuid::now_v7().to_string();
    let command = Open {
        amount_centavos: 12_345,
        note: note.to_owned(),
    };
    let metadata = CommandMetadata::start().by("bench");
    match workload {
        Workload::RawInsert | Workload::RawInsertIntoEvents => {
            let sql = match workload {
                Workload::RawInsert => RAW_INSERT,
                _ => RAW_INSERT_INTO_EVENTS,
            };
            let payload = serde_json::to_value(AccountEvent::Opened {
                amount_centavos: command.amount_centavos,
                note: command.note,
            })
            .map_err(|e| e.to_string())?;
            sqlx::query(sql)
                .bind(Uuid::now_v7())
                .bind(stream_id)
                .bind(payload)
                .bind(metadata.to_json())
                .execute(pool)
                .await
                .map_err(|e| e.to_string())?;
        }
        Workload::Create
        | Workload::CreateWithKey
        | Workload::Command
        | Workload::CommandWithKey => {
            let expected = match workload {
                Workload::Create | Workload::CreateWithKey => ExpectedVersion::NoStream,
                _ => ExpectedVersion::Any,
            };
            let metadata = match workload {
                Workload::CreateWithKey | Workload::CommandWithKey => {
                    let key = IdempotencyKey::parse(&Uuid::now_v7().to_string())
                        .map_err(|e| e.to_string())?;
                    metadata.with_idempotency_key(key)
                }
                _ => metadata,
            };
            service
                .execute_expecting(&stream_id, command, expected, metadata)
                .await
                .map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

/// Operations per second of `workload` with `clients` concurrent clients, each with a connection
/// of its own, over `measured` after a short warm-up, on emptied tables.
async fn measure(
    options: &PgConnectOptions,
    workload: Workload,
    clients: u32,
    measured: Duration,
) -> Result<u64, String> {
    let settings = PoolSettings {
        max_connections: clients,
        min_connections: clients,
        ..PoolSettings::default()
    };
    let pool = commands::connect_with(options.clone(), &settings)
        .await
        .map_err(|e| e.to_string())?;
    sqlx::query("truncate events, raw_events, command_idempotency")
        .execute(&pool)
        .await
        .map_err(|e| e.to_string())?;
    sqlx::query("checkpoint")
        .execute(&pool)
        .await
        .map_err(|e| e.to_string())?;
    let service = Arc::new(CommandService::<Account>::new(
        PgEventStore::new(pool.clone()),
        (),
    ));
    let done = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let note: Arc<str> = note().into();

    let mut tasks = Vec::new();
    for _ in 0..clients {
        let (pool, service, done, stop, note) = (
            pool.clone(),
            Arc::clone(&service),
            Arc::clone(&done),
            Arc::clone(&stop),
            Arc::clone(&note),
        );
        tasks.push(tokio::spawn(async move {
            while !stop.load(Ordering::Relaxed) {
                one_operation(workload, &pool, &service, &note).await?;
                done.fetch_add(1, Ordering::Relaxed);
            }
            Ok::<(), String>(())
        }));
    }

    tokio::time::sleep(Duration::from_millis(500)).await;
    let before = done.load(Ordering::Relaxed);
    let started = Instant::now();
    tokio::time::sleep(measured).await;
    let after = done.load(Ordering::Relaxed);
    let elapsed = started.elapsed();
    stop.store(true, Ordering::Relaxed);
    for task in tasks {
        task.await.map_err(|e| e.to_string())??;
    }
    pool.close().await;

    let micros = u64::try_from(elapsed.as_micros())
        .unwrap_or(u64::MAX)
        .max(1);
    Ok((after - before).saturating_mul(1_000_000) / micros)
}

/// Creates the scratch database, returning connect options for it.
async fn scratch_database(
    admin: &PgConnectOptions,
    name: &str,
) -> Result<PgConnectOptions, String> {
    let mut conn = PgConnection::connect_with(admin)
        .await
        .map_err(|e| e.to_string())?;
    sqlx::query(AssertSqlSafe(format!("create database {name}")))
        .execute(&mut conn)
        .await
        .map_err(|e| e.to_string())?;
    conn.close().await.map_err(|e| e.to_string())?;
    let options = admin.clone().database(name);
    let pool = commands::connect_with(options.clone(), &PoolSettings::default())
        .await
        .map_err(|e| e.to_string())?;
    commands::migrate(&pool).await.map_err(|e| e.to_string())?;
    // Same shape as `events` (columns, defaults, identity, keys, indexes), without its trigger.
    sqlx::query("create table raw_events (like events including all)")
        .execute(&pool)
        .await
        .map_err(|e| e.to_string())?;
    pool.close().await;
    Ok(options)
}

async fn drop_database(admin: &PgConnectOptions, name: &str) -> Result<(), String> {
    let mut conn = PgConnection::connect_with(admin)
        .await
        .map_err(|e| e.to_string())?;
    sqlx::query(AssertSqlSafe(format!(
        "drop database if exists {name} with (force)"
    )))
    .execute(&mut conn)
    .await
    .map_err(|e| e.to_string())?;
    conn.close().await.map_err(|e| e.to_string())
}

struct Row {
    clients: u32,
    raw: u64,
    raw_into_events: u64,
    create: u64,
    create_with_key: u64,
    command: u64,
    command_with_key: u64,
}

fn percent(part: u64, whole: u64) -> u64 {
    part.saturating_mul(100) / whole.max(1)
}

/// The median of a few measurements (the middle one; they are few and odd in number).
fn median(mut values: Vec<u64>) -> u64 {
    values.sort_unstable();
    values.get(values.len() / 2).copied().unwrap_or_default()
}

async fn run() -> Result<Vec<Row>, String> {
    let seconds: u64 = std::env::var("BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(6);
    let clients: Vec<u32> = std::env::var("BENCH_CLIENTS")
        .unwrap_or_else(|_| "1,8,32".to_owned())
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    let url = std::env::var("DATABASE_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_owned());
    // Only the server matters; the scratch database is created from the maintenance one.
    let admin: PgConnectOptions = url
        .parse::<PgConnectOptions>()
        .map_err(|e: sqlx::Error| e.to_string())?
        .database("postgres");
    let name = format!("balcao_bench_{}", Uuid::new_v4().simple());
    let options = scratch_database(&admin, &name).await?;
    let result = measure_all(&options, &clients, Duration::from_secs(seconds)).await;
    drop_database(&admin, &name).await?;
    result
}

/// Each cell is measured in [`ROUNDS`] slices, the workloads taking turns, and reported as the
/// median slice: on a shared machine the load changes over a minute, and taking turns exposes
/// every workload to the same changes.
const ROUNDS: u32 = 3;

async fn measure_all(
    options: &PgConnectOptions,
    clients: &[u32],
    seconds: Duration,
) -> Result<Vec<Row>, String> {
    let workloads = [
        Workload::RawInsert,
        Workload::RawInsertIntoEvents,
        Workload::Create,
        Workload::CreateWithKey,
        Workload::Command,
        Workload::CommandWithKey,
    ];
    let slice = seconds / ROUNDS;
    let mut rows = Vec::new();
    for &c in clients {
        let mut samples: [Vec<u64>; 6] = Default::default();
        for _ in 0..ROUNDS {
            for (i, &workload) in workloads.iter().enumerate() {
                samples[i].push(measure(options, workload, c, slice).await?);
            }
        }
        let [
            raw,
            raw_into_events,
            create,
            create_with_key,
            command,
            command_with_key,
        ] = samples.map(median);
        let row = Row {
            clients: c,
            raw,
            raw_into_events,
            create,
            create_with_key,
            command,
            command_with_key,
        };
        eprintln!(
            "{} clients: raw {}/s, raw into events {}/s, creates {}/s ({} with key), \
             commands {}/s ({} with key)",
            row.clients,
            row.raw,
            row.raw_into_events,
            row.create,
            row.create_with_key,
            row.command,
            row.command_with_key
        );
        rows.push(row);
    }
    Ok(rows)
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let rows = match runtime.block_on(run()) {
        Ok(rows) => rows,
        Err(error) => {
            eprintln!("benchmark failed: {error}");
            std::process::exit(1);
        }
    };
    let mut out = std::io::stdout().lock();
    let table = [
        "| clients | raw INSERT/s (no trigger) | raw INSERT/s into `events` (trigger) | creates/s (`NoStream`) | creates/s with key | commands/s (`Any`: load + append) | commands/s with key | creates ÷ raw | creates with key ÷ raw | commands ÷ raw | commands with key ÷ raw |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ];
    for line in table {
        let _ = writeln!(out, "{line}");
    }
    for row in rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {}% | {}% | {}% | {}% |",
            row.clients,
            row.raw,
            row.raw_into_events,
            row.create,
            row.create_with_key,
            row.command,
            row.command_with_key,
            percent(row.create, row.raw),
            percent(row.create_with_key, row.raw),
            percent(row.command, row.raw),
            percent(row.command_with_key, row.raw),
        );
    }
}
