//! Replay speed over 1,000,000 events, next to the raw speed of just reading the same rows.
//!
//! `cargo bench -p projections --bench replay_speed` (needs PostgreSQL; `DATABASE_URL` names any
//! database on the server, default the local one). `BALCAO_BENCH_EVENTS` changes the number of
//! events.
//!
//! Target: `replay --all` at ≥ 60% of the raw read of the same run. The raw read is one
//! `COPY (select … from events in feed order) TO STDOUT`, bytes counted and thrown away: the
//! disk's and the server's speed with nothing decoded or written. They run in rounds
//! (`BALCAO_BENCH_ROUNDS`, default 3) of one raw read and then one `replay --all`, each replay
//! is compared with the raw read just before it, and the median of the rounds is the figure.

mod common;

use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};

use commands::Upcasters;
use commands::feed::{self, FeedPosition};
use commands::feed_copy;
use common::{BenchDb, per_second};
use futures::StreamExt;
use projections::replay::{self, ReplayOptions};
use sqlx::PgPool;

/// The allocator the `balcao` binary uses, so the replay here allocates as `balcao replay` does.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Inserts `n` mixed events in 100k-row statements, all of them valid for today's read models:
/// every other one a `QrCodeCreated`; one in a hundred a `QrCodeArchived` of the code created
/// just before it (a second event in that stream, as the dashboard's "Arquivar" writes); the
/// rest events of a stream no read model reads beyond `event_counts`, which counts every event.
///
/// (Until 2026-11-26 the other half were `PaymentConfirmed` and `QrCodeArchived` events with a
/// bare `{"n": g}` payload: once the read models learnt to check those payloads, replay parked
/// every one of them and the benchmark measured the poison path instead of a replay.)
async fn insert_mixed(pool: &PgPool, n: i64) -> anyhow::Result<()> {
    let chunk = 100_000;
    let mut from = 1;
    while from <= n {
        let to = (from + chunk - 1).min(n);
        sqlx::query(
            "insert into events (event_id, stream_type, stream_id, stream_version, event_type,
                                 schema_version, payload)
             select gen_random_uuid(),
                    case when g % 2 = 0 or g % 100 = 1 then 'qrcode' else 'bench' end,
                    case when g % 2 = 0 then md5('created' || g)::uuid::text
                         when g % 100 = 1 then md5('created' || (g - 1))::uuid::text
                         else 'bench-' || g end,
                    case when g % 100 = 1 then 2 else 1 end,
                    case when g % 2 = 0 then 'QrCodeCreated'
                         when g % 100 = 1 then 'QrCodeArchived'
                         else 'BenchNoted' end,
                    1,
                    case when g % 2 = 0 then jsonb_build_object(
                            'qrcode_id', md5('created' || g)::uuid,
                            'owner_id', case when g % 3 = 0 then md5('owner' || (g % 500))::uuid end,
                            'key_kind', (array['cpf','cnpj','email','phone','evp'])[1 + g % 5],
                            'pix_key', 'fulano' || g || '@example.com',
                            'merchant_name', 'FULANO DE TAL ' || g,
                            'merchant_city', 'SAO PAULO',
                            'amount_centavos', case when g % 5 = 0 then null else g * 10 end,
                            'description', case when g % 7 = 0 then null else 'Pedido ' || g end,
                            'txid', '***',
                            'payload', '00020126580014br.gov.bcb.pix0136' || md5(g::text) || '5204000053039865802BR6304ABCD',
                            'created_at', '2026-11-20T00:00:00Z'::timestamptz + g * interval '1 second')
                         when g % 100 = 1 then jsonb_build_object(
                            'archived_at', '2026-11-20T00:00:00Z'::timestamptz + g * interval '1 second')
                         else jsonb_build_object('n', g)
                    end
               from generate_series($1::bigint, $2::bigint) as g",
        )
        .bind(from)
        .bind(to)
        .execute(pool)
        .await?;
        from = to + 1;
    }
    // Set the rows' hint bits and visibility once, as a log that has been there a while has
    // them: otherwise the first reader after the insert writes every page it reads.
    sqlx::query("vacuum (analyze) events").execute(pool).await?;
    Ok(())
}

/// Writes out what earlier steps left dirty and waits for it, so that a checkpoint forced by
/// their WAL does not land in the middle of the next timed step (on this machine that alone
/// moved a step by up to 60 %).
async fn quiet(pool: &PgPool) -> anyhow::Result<()> {
    sqlx::query("checkpoint").execute(pool).await?;
    Ok(())
}

/// Every event in feed order through `COPY … TO STDOUT`: the raw read. Returns the rows read.
async fn copy_whole_feed(pool: &PgPool) -> anyhow::Result<u64> {
    let mut conn = pool.acquire().await?;
    let mut stream = conn
        .copy_out_raw(
            "copy (select event_id, tx_id, global_position, stream_type, stream_id, stream_version,
                          event_type, schema_version, payload, metadata, recorded_at
                     from events
                    where tx_id < pg_snapshot_xmin(pg_current_snapshot())
                    order by tx_id, global_position) to stdout",
        )
        .await?;
    let mut rows = 0;
    while let Some(chunk) = stream.next().await {
        rows += chunk?.iter().filter(|&&b| b == b'\n').count() as u64;
    }
    Ok(rows)
}

/// Every event (every field) through the replay's binary `COPY` ([`feed_copy::FeedCopy`]): what
/// `replay --all` reads with, nothing applied.
async fn decode_whole_feed(pool: &PgPool, page: usize) -> anyhow::Result<u64> {
    let upcasters = Upcasters::application();
    let mut conn = pool.acquire().await?;
    let mut feed = feed_copy::FeedCopy::start(&mut conn, feed::FeedFields::everything()).await?;
    let mut events = 0;
    while let Some(batch) = feed.next_page(&upcasters, page).await? {
        events += batch.len() as u64;
    }
    Ok(events)
}

/// Every event through `feed::read_after` in pages: what the relay does, decoded into events.
async fn read_whole_feed(pool: &PgPool, page: i64) -> anyhow::Result<u64> {
    let upcasters = Upcasters::application();
    let mut position = FeedPosition::default();
    let mut events = 0;
    loop {
        let batch = feed::read_after(pool, &upcasters, position, page).await?;
        let Some(last) = batch.last() else {
            return Ok(events);
        };
        position = last.position;
        events += batch.len() as u64;
    }
}

fn line(out: &mut impl Write, what: &str, events: u64, took: Duration) -> std::io::Result<()> {
    writeln!(
        out,
        "  {what:<44} {:>8.2?}  {:>9} events/s",
        took,
        per_second(events, took)
    )
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let n: i64 = std::env::var("BALCAO_BENCH_EVENTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    let db = BenchDb::create().await?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "replay_speed: inserting {n} events…")?;
    let started = Instant::now();
    insert_mixed(&db.pool, n).await?;
    writeln!(out, "  inserted in {:.1?}", started.elapsed())?;

    let page = ReplayOptions::default().page_size;
    let rounds: usize = std::env::var("BALCAO_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3)
        .max(1);
    // Warm the cache once so every run below reads the same way.
    copy_whole_feed(&db.pool).await?;

    quiet(&db.pool).await?;
    let started = Instant::now();
    let read = read_whole_feed(&db.pool, page).await?;
    let paged = started.elapsed();

    quiet(&db.pool).await?;
    let started = Instant::now();
    let decoded = decode_whole_feed(&db.pool, usize::try_from(page)?).await?;
    let decoding = started.elapsed();

    // Rounds of one raw read and one `replay --all`, each replay next to the raw read just
    // before it: this VM's speed drifts by half within minutes, so a replay compared with a raw
    // read made minutes apart says more about the drift than about the replay.
    let options = ReplayOptions::default();
    let mut pairs: Vec<(Duration, Duration)> = Vec::with_capacity(rounds);
    let mut copied = 0;
    let mut replayed = 0;
    let mut parked = 0;
    for _ in 0..rounds {
        quiet(&db.pool).await?;
        let started = Instant::now();
        copied = copy_whole_feed(&db.pool).await?;
        let raw = started.elapsed();

        quiet(&db.pool).await?;
        let started = Instant::now();
        let reports = replay::replay(&db.pool, &projections::all(), &options).await?;
        pairs.push((raw, started.elapsed()));
        replayed = reports[0].events;
        parked += reports.iter().map(|r| r.parked).sum::<usize>();
    }

    quiet(&db.pool).await?;
    let started = Instant::now();
    let one = replay::replay(
        &db.pool,
        &[Arc::new(projections::qrcodes::QrCodes)],
        &options,
    )
    .await?;
    let qrcodes = started.elapsed();
    parked += one.iter().map(|r| r.parked).sum::<usize>();

    let rows: i64 = sqlx::query_scalar("select count(*) from qrcodes")
        .fetch_one(&db.pool)
        .await?;
    let archived: i64 =
        sqlx::query_scalar("select count(*) from qrcodes where archived_at is not null")
            .fetch_one(&db.pool)
            .await?;
    // A figure over parked events would measure the poison path, not a replay.
    anyhow::ensure!(
        parked == 0,
        "replay parked {parked} events: the data is wrong"
    );
    let names = projections::all()
        .iter()
        .map(|p| p.name())
        .collect::<Vec<_>>()
        .join(" + ");

    writeln!(out, "  events in the log:                 {read}")?;
    writeln!(
        out,
        "  qrcodes rows after replay:         {rows} ({archived} archived)"
    )?;
    line(
        &mut out,
        &format!("feed::read_after, pages of {page}"),
        read,
        paged,
    )?;
    line(
        &mut out,
        "binary COPY, decoded (replay's reader)",
        decoded,
        decoding,
    )?;
    // Same number of events each: the ratio of speeds is the inverse ratio of times.
    let percent = |raw: Duration, took: Duration| raw.as_micros() * 100 / took.as_micros().max(1);
    let mut shares = Vec::with_capacity(rounds);
    writeln!(out, "  replay --all ({names}):")?;
    for (round, (raw, all)) in pairs.iter().enumerate() {
        line(
            &mut out,
            &format!("round {}: raw COPY read", round + 1),
            copied,
            *raw,
        )?;
        line(
            &mut out,
            &format!("round {}: replay --all", round + 1),
            replayed,
            *all,
        )?;
        shares.push(percent(*raw, *all));
    }
    let mut sorted = shares.clone();
    sorted.sort_unstable();
    line(&mut out, "replay qrcodes", one[0].events, qrcodes)?;
    writeln!(
        out,
        "  replay --all = {:?} % of the raw read just before it, median {} % (target ≥ 60 %)",
        shares,
        sorted[sorted.len() / 2]
    )?;
    drop(out);
    db.drop_now().await
}
