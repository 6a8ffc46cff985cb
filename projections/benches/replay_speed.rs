//! Replay speed over 1,000,000 events, next to the raw speed of just reading the feed.
//!
//! `cargo bench -p projections --bench replay_speed` (needs PostgreSQL; `DATABASE_URL` names any
//! database on the server, default the local one). Target: replay ≥ 100,000 events/s.
//! `BALCAO_BENCH_EVENTS` changes the number of events.

mod common;

use std::io::Write;
use std::sync::Arc;
use std::time::Instant;

use commands::feed::{self, FeedPosition};
use common::{BenchDb, per_second};
use projections::replay::{self, ReplayOptions};
use sqlx::PgPool;

/// Inserts `n` mixed events (half `QrCodeCreated`, the rest other types) in 100k-row statements.
async fn insert_mixed(pool: &PgPool, n: i64) -> anyhow::Result<()> {
    let chunk = 100_000;
    let mut from = 1;
    while from <= n {
        let to = (from + chunk - 1).min(n);
        sqlx::query(
            "insert into events (event_id, stream_type, stream_id, stream_version, event_type,
                                 schema_version, payload)
             select gen_random_uuid(),
                    case when g % 4 = 0 then 'payment' else 'qrcode' end,
                    case when g % 4 = 0 then 'payment-' || g
                         when g % 4 = 1 then md5('archived' || g)::uuid::text
                         else md5('created' || g)::uuid::text end,
                    1,
                    case when g % 4 = 0 then 'PaymentConfirmed'
                         when g % 4 = 1 then 'QrCodeArchived'
                         else 'QrCodeCreated' end,
                    1,
                    case when g % 4 < 2 then jsonb_build_object('n', g)
                         else jsonb_build_object(
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
                    end
               from generate_series($1::bigint, $2::bigint) as g",
        )
        .bind(from)
        .bind(to)
        .execute(pool)
        .await?;
        from = to + 1;
    }
    sqlx::query("analyze events").execute(pool).await?;
    Ok(())
}

async fn read_whole_feed(pool: &PgPool, page: i64) -> anyhow::Result<u64> {
    let mut position = FeedPosition::default();
    let mut events = 0;
    loop {
        let batch = feed::read_after(pool, position, page).await?;
        let Some(last) = batch.last() else {
            return Ok(events);
        };
        position = last.position;
        events += batch.len() as u64;
    }
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

    let page = 10_000;
    // Warm the cache once so the three runs below read the same way.
    read_whole_feed(&db.pool, page).await?;

    let started = Instant::now();
    let read = read_whole_feed(&db.pool, page).await?;
    let raw = started.elapsed();

    let options = ReplayOptions {
        page_size: page,
        ..ReplayOptions::default()
    };
    let started = Instant::now();
    let reports = replay::replay(
        &db.pool,
        &[Arc::new(projections::qrcodes::QrCodes)],
        &options,
    )
    .await?;
    let one = started.elapsed();
    let started = Instant::now();
    replay::replay(&db.pool, &projections::all(), &options).await?;
    let both = started.elapsed();
    let rows: i64 = sqlx::query_scalar("select count(*) from qrcodes")
        .fetch_one(&db.pool)
        .await?;

    writeln!(out, "  events in the log:                 {read}")?;
    writeln!(out, "  qrcodes rows after replay:         {rows}")?;
    writeln!(
        out,
        "  raw feed read (pages of {page}):     {:>8.2?}  {:>9} events/s",
        raw,
        per_second(read, raw)
    )?;
    writeln!(
        out,
        "  replay qrcodes:                    {:>8.2?}  {:>9} events/s  (target ≥ 100000)",
        one,
        per_second(reports[0].events, one)
    )?;
    writeln!(
        out,
        "  replay all ({}):  {:>8.2?}  {:>9} events/s",
        projections::all()
            .iter()
            .map(|p| p.name())
            .collect::<Vec<_>>()
            .join(" + "),
        both,
        per_second(read, both)
    )?;
    drop(out);
    db.drop_now().await
}
