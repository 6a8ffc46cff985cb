//! `balcao replay --all` and the payments projector at the scale of a busy shop (issue 37), side
//! by side with a raw read of the same events, in one run:
//!
//! 1. one account's payments (`tests::payment_fill`: three years of São Paulo days, refunds,
//!    voids, confirmations, codes and keys) are written into a private database's log
//!    ([`TestApp`]: dropped at the end) with the projector stopped: first
//!    [`SAMPLE`] payments, and the projector catches up on an empty table (its rate at 0 rows);
//! 2. the rest, up to `BALCAO_BENCH_PAYMENTS` (default 100,000), which the projector catches up
//!    on too; then [`SAMPLE`] more with the projector stopped, and its rate on a table of that
//!    size. Nothing runs `ANALYZE` (autovacuum is off on this server: the bench prints it), so
//!    the table the live projector grew has no statistics;
//! 3. the raw read: the `COPY` replay runs (the same statement, fields and snapshot horizon),
//!    its bytes counted and thrown away;
//! 4. `replay --all` under the default statement timeout (`BALCAO_STATEMENT_TIMEOUT_MS`,
//!    10 s), then the raw read again; `BALCAO_BENCH_ROUNDS` (default 1) replays, each set
//!    beside the faster of the raw reads just before and just after it.
//!
//! `BALCAO_BENCH_ACCOUNTS` (default 0) adds the rest of the service before the busy shop's bulk:
//! that many accounts opened through the sign-up workflow, with about
//! `BALCAO_BENCH_ACCOUNT_PAYMENTS` (default 900) payments each over the same three years
//! (`payment_fill::fill_service`); 10,000 accounts and 1,000,000 payments in the shop are the
//! issue's 10M payments.
//!
//! `BALCAO_BENCH_PROJECTOR=0` skips the projector's samples (steps 1 and 2 write the whole log
//! with no projector running), for the replay alone at a size the projector would take long
//! to catch up on.
//!
//! `BALCAO_BENCH_KEEP_DB=1` leaves the database behind (its URL printed) for measuring by hand.
//!
//! `cargo bench -p tests --bench payments_scale` (needs PostgreSQL and NATS, as the e2e tests).
//! Targets (issue 37): replay ≥ 60 % of the raw read's rate; the projector's rate at the full
//! size not below its rate on an empty table by more than the runs' spread.

use std::io::Write;
use std::time::{Duration, Instant};

use chrono::NaiveDate;
use commands::feed::FeedFields;
use futures::StreamExt;
use gateway::roles::{Roles, Running};
use projections::replay::ReplayReport;
use sqlx::PgPool;
use tests::TestApp;
use tests::browser::Browser;
use tests::payment_fill::{self, Fill, ServiceFill};
use uuid::Uuid;

/// Payments in each timed projector sample.
const SAMPLE: u64 = 20_000;

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// `count` per second over `elapsed`, in integers (the workspace allows no float arithmetic).
fn per_second(count: u64, elapsed: Duration) -> u64 {
    let millis = elapsed.as_millis().max(1);
    u64::try_from(u128::from(count) * 1000 / millis).unwrap_or(u64::MAX)
}

/// The highest global position in the log.
async fn last_position(db: &PgPool) -> i64 {
    sqlx::query_scalar("select coalesce(max(global_position), 0) from events")
        .fetch_one(db)
        .await
        .expect("the log answers")
}

/// Waits until the `payments` checkpoint reaches the log's last event.
async fn caught_up(db: &PgPool, checkpoint: &str, name: &str) {
    let last = last_position(db).await;
    let query = format!("select global_position from {checkpoint} where {name}");
    loop {
        let at: Option<i64> = sqlx::query_scalar(sqlx::AssertSqlSafe(query.clone()))
            .fetch_optional(db)
            .await
            .expect("the checkpoint answers");
        if at.is_some_and(|at| at >= last) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn relay_caught_up(app: &TestApp, db: &PgPool) {
    let stream = app.settings.nats_stream.replace('\'', "''");
    caught_up(
        db,
        "relay_checkpoints",
        &format!("stream_name = '{stream}'"),
    )
    .await;
}

async fn projector(app: &TestApp) -> Running {
    app.start_roles(Roles {
        serve: false,
        relay: false,
        project: true,
        projections: vec![projections::payments::NAME.to_owned()],
    })
    .await
}

/// Starts the projector, waits until it has applied the whole log, and answers how long that
/// took.
async fn project(app: &TestApp, db: &PgPool) -> Duration {
    relay_caught_up(app, db).await;
    let started = Instant::now();
    let running = projector(app).await;
    caught_up(db, "projection_checkpoints", "projection = 'payments'").await;
    let elapsed = started.elapsed();
    running.stop().await.expect("the projector stops");
    elapsed
}

/// One row per projection of where a replay's time went, in milliseconds (slowest first; the
/// projections whose own phases took under 100 ms in all are left out).
fn phase_rows(round: u64, reports: &[ReplayReport]) -> String {
    let mut reports: Vec<&ReplayReport> = reports.iter().collect();
    let own = |r: &ReplayReport| {
        let p = r.phases;
        p.applying + p.noting + p.indexing + p.vacuuming + p.switching
    };
    reports.sort_by_key(|r| std::cmp::Reverse(own(r)));
    reports
        .into_iter()
        .filter(|r| own(r) >= Duration::from_millis(100))
        .map(|r| {
            let p = r.phases;
            format!(
                "| {round} | {} | {} | {} | {} | {} | {} | {} |\n",
                r.projection,
                p.fill.as_millis(),
                p.applying.as_millis(),
                p.noting.as_millis(),
                p.indexing.as_millis(),
                p.vacuuming.as_millis(),
                p.switching.as_millis(),
            )
        })
        .collect()
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let total = env("BALCAO_BENCH_PAYMENTS", 100_000).max(SAMPLE);
        let app = TestApp::spawn_roles(
            Roles {
                project: false,
                ..Roles::all()
            },
            |_| {},
        )
        .await;
        let db = app.db().await;
        let autovacuum: String = sqlx::query_scalar("show autovacuum")
            .fetch_one(&db)
            .await
            .expect("settings");
        let mut browser = Browser::new(&app);
        let signed = browser
            .sign_up("bench@mercado.test", "senha-boa-1", "Bancada")
            .await;
        let account = signed.json["user"]["uid"]
            .as_str()
            .expect("an account")
            .to_owned();
        let key = commands::vault::load_key(&db, &account)
            .await
            .expect("the vault")
            .expect("a key");
        let fill = |payments: u64, seed: u64, last_day: NaiveDate| Fill {
            account_id: Uuid::parse_str(&account).expect("a uuid"),
            key: key.clone(),
            codes: (1..=12).map(|n| Uuid::from_u64_pair(37, n)).collect(),
            pix_keys: vec![
                "caixa@mercado.test".to_owned(),
                "12345678000190".to_owned(),
                "+5511987654321".to_owned(),
            ],
            payments,
            // Each part covers its own stretch of the three years.
            days: u32::try_from(payments * 3 * 365 / total).unwrap_or(1).max(1),
            last_day,
            seed,
        };
        let day = |y, m, d| NaiveDate::from_ymd_opt(y, m, d).expect("a day");

        // `BALCAO_BENCH_PROJECTOR=0`: only the replay against the raw read (the whole fill at
        // once, the live projector never started), for a large size in a short session.
        let with_projector = env("BALCAO_BENCH_PROJECTOR", 1) != 0;
        let (mut at_zero, mut whole, mut at_full) = (0, 0, 0);
        let filled_in;
        let rest = total - SAMPLE;
        let service = ServiceFill {
            accounts: env("BALCAO_BENCH_ACCOUNTS", 0),
            payments_each: env("BALCAO_BENCH_ACCOUNT_PAYMENTS", 900),
            days: 3 * 365,
            last_day: day(2026, 10, 31),
            password_hash: gateway::auth::password::Passwords::new()
                .hash("senha-boa-1".to_owned())
                .await
                .expect("a hash"),
            seed: 1_000,
        };
        let others;
        if with_projector {
            payment_fill::fill(&db, &fill(SAMPLE, 1, day(2024, 1, 31)))
                .await
                .expect("fill");
            at_zero = per_second(SAMPLE, project(&app, &db).await);
            let started = Instant::now();
            others = payment_fill::fill_service(&db, &service)
                .await
                .expect("fill")
                .payments;
            if rest > 0 {
                payment_fill::fill(&db, &fill(rest, 2, day(2026, 10, 31)))
                    .await
                    .expect("fill");
            }
            filled_in = started.elapsed();
            whole = per_second(rest + others, project(&app, &db).await);
            payment_fill::fill(&db, &fill(SAMPLE, 3, day(2026, 11, 26)))
                .await
                .expect("fill");
            at_full = per_second(SAMPLE, project(&app, &db).await);
        } else {
            let started = Instant::now();
            payment_fill::fill(&db, &fill(SAMPLE, 1, day(2024, 1, 31)))
                .await
                .expect("fill");
            others = payment_fill::fill_service(&db, &service)
                .await
                .expect("fill")
                .payments;
            payment_fill::fill(&db, &fill(rest, 2, day(2026, 10, 31)))
                .await
                .expect("fill");
            payment_fill::fill(&db, &fill(SAMPLE, 3, day(2026, 11, 26)))
                .await
                .expect("fill");
            filled_in = started.elapsed();
            relay_caught_up(&app, &db).await;
        }
        let payments = total + SAMPLE;
        let filled = others + if with_projector { rest } else { total + SAMPLE };

        // The raw read: the COPY replay itself runs, bytes counted and dropped.
        let events: i64 = sqlx::query_scalar("select count(*) from events")
            .fetch_one(&db)
            .await
            .expect("count");
        let fields = projections::all()
            .iter()
            .map(|p| p.reads())
            .reduce(|all, one| all.union(&one))
            .unwrap_or_else(FeedFields::everything);
        let events = u64::try_from(events).unwrap_or_default();
        let raw_read = || async {
            let mut conn = db.acquire().await.expect("a connection");
            let started = Instant::now();
            let mut copy = conn
                .copy_out_raw(&commands::feed_copy::statement(&fields))
                .await
                .expect("copy");
            let mut bytes = 0;
            while let Some(chunk) = copy.next().await {
                bytes += chunk.expect("a chunk").len();
            }
            drop(copy);
            (started.elapsed(), bytes)
        };
        let mut table = format!(
            "autovacuum {autovacuum}; {payments} payments in the shop, {others} in {} other \
             accounts, {events} events in the log (filled at {} payments/s); projector over the \
             whole fill: {whole} payments/s; projector at 0 rows {at_zero} payments/s, at {} rows \
             {at_full} payments/s \
             ({} %)\n\n\
             | round | raw read before (COPY) | replay --all | raw read after | replay ÷ faster raw read (rate) |\n\
             |---|---|---|---|---|\n",
            service.accounts,
            per_second(filled, filled_in),
            payments + others,
            at_full * 100 / at_zero.max(1),
        );
        // `BALCAO_BENCH_ROUNDS` rounds of a raw read, then `replay --all`, then a raw read again:
        // a shared machine's load moves both, so each replay is set beside the reads around it.
        let (mut before, mut bytes) = raw_read().await;
        let mut phases = String::new();
        for round in 1..=env("BALCAO_BENCH_ROUNDS", 1) {
            let started = Instant::now();
            let reports = gateway::roles::replay(&app.settings, &["all".to_owned()], false)
                .await
                .expect("replay --all finishes under the default statement timeout");
            let replay = started.elapsed();
            phases += &phase_rows(round, &reports);
            let (after, read) = raw_read().await;
            bytes = read;
            let raw = before.min(after);
            table += &format!(
                "| {round} | {} ms ({} events/s) | {} ms ({} events/s) | {} ms | {} % |\n",
                before.as_millis(),
                per_second(events, before),
                replay.as_millis(),
                per_second(events, replay),
                after.as_millis(),
                raw.as_millis() * 100 / replay.as_millis().max(1),
            );
            before = after;
        }
        table += &format!(
            "\nraw read: {} MB\n\n\
             | round | projection | fill | applying | noting | indexing | vacuuming | switching |\n\
             |---|---|---|---|---|---|---|---|\n{phases}",
            bytes / 1_000_000
        );
        std::io::stdout()
            .lock()
            .write_all(table.as_bytes())
            .expect("stdout");
        app.stop_or_keep().await;
    });
}
