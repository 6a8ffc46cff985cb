//! The switch: rebuilt tables become the live ones in one short transaction.

use std::time::Duration;

use commands::feed::{self, FeedPosition};
use sqlx::{PgConnection, PgPool};

use super::{Build, ReplayOptions, quote};
use crate::locks::lock_projection_writes;
use crate::parking::apply_with_parking;
use crate::sql::execute_trusted;
use crate::{Error, checkpoint};

/// SQLSTATE `lock_not_available`: `lock_timeout` expired.
const LOCK_NOT_AVAILABLE: &str = "55P03";

/// What the switch did.
pub(super) struct Switched {
    pub(super) position: FeedPosition,
    pub(super) caught_up: u64,
    pub(super) parked: usize,
}

/// Swaps `build`'s tables in, retrying when a lock is not granted in time (a long read of the
/// old table, or a long projector batch).
pub(super) async fn switch(
    pool: &PgPool,
    build: &Build,
    replayed_to: FeedPosition,
    options: &ReplayOptions,
) -> Result<Switched, Error> {
    let mut attempt = 1;
    loop {
        match try_switch(pool, build, replayed_to, options).await {
            Err(Error::Database(sqlx::Error::Database(db)))
                if db.code().as_deref() == Some(LOCK_NOT_AVAILABLE)
                    && attempt < options.switch_attempts =>
            {
                tracing::warn!(
                    projection = build.projection.name(),
                    attempt,
                    "switch could not take its locks in time; retrying"
                );
                attempt += 1;
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            other => return other,
        }
    }
}

async fn try_switch(
    pool: &PgPool,
    build: &Build,
    replayed_to: FeedPosition,
    options: &ReplayOptions,
) -> Result<Switched, Error> {
    let name = build.projection.name();
    let mut tx = pool.begin().await?;
    execute_trusted(
        &mut *tx,
        format!(
            "set local lock_timeout = '{}ms'",
            options.switch_lock_timeout.as_millis()
        ),
    )
    .await?;
    // From here on the live projector waits for us, and we for its current batch.
    lock_projection_writes(&mut tx, name).await?;
    let live = checkpoint::read_locked(&mut tx, name).await?;

    // The live projector may have applied events committed after replay's last read.
    let mut position = replayed_to;
    let mut caught_up = 0;
    let mut parked = Vec::new();
    while position < live {
        let mut page = feed::read_after(&mut *tx, position, options.page_size).await?;
        page.retain(|e| e.position <= live);
        let Some(last) = page.last() else { break };
        position = last.position;
        caught_up += page.len() as u64;
        parked.extend(apply_with_parking(&mut tx, &*build.projection, &build.target, &page).await?);
    }
    // If replay read further than the live projector got, the projector skips what replay
    // already included.
    let position = live.max(replayed_to);

    for table in build.projection.tables() {
        swap_table(&mut tx, table, &build.target.table(table)).await?;
    }
    checkpoint::store(&mut tx, name, position, None).await?;
    tx.commit().await?;
    for event in &parked {
        event.report(name);
    }
    Ok(Switched {
        position,
        caught_up,
        parked: parked.len(),
    })
}

/// Replaces table `live` by `rebuilt`, renaming the rebuilt table's constraints and indexes to
/// the names the live ones had, so the next rebuild compares and renames the same way.
async fn swap_table(conn: &mut PgConnection, live: &str, rebuilt: &str) -> Result<(), Error> {
    execute_trusted(&mut *conn, format!("drop table if exists {}", quote(live))).await?;
    execute_trusted(
        &mut *conn,
        format!("alter table {} rename to {}", quote(rebuilt), quote(live)),
    )
    .await?;
    // Renaming an index-backed constraint renames its index too; the second pass catches the
    // plain indexes.
    let constraints: Vec<String> = sqlx::query_scalar(
        "select conname::text from pg_constraint where conrelid = to_regclass($1)",
    )
    .bind(quote(live))
    .fetch_all(&mut *conn)
    .await?;
    for constraint in constraints {
        if let Some(rest) = constraint.strip_prefix(rebuilt) {
            execute_trusted(
                &mut *conn,
                format!(
                    "alter table {} rename constraint {} to {}",
                    quote(live),
                    quote(&constraint),
                    quote(&format!("{live}{rest}"))
                ),
            )
            .await?;
        }
    }
    let indexes: Vec<String> = sqlx::query_scalar(
        "select indexname::text from pg_indexes
          where schemaname = current_schema() and tablename = $1",
    )
    .bind(live)
    .fetch_all(&mut *conn)
    .await?;
    for index in indexes {
        if let Some(rest) = index.strip_prefix(rebuilt) {
            execute_trusted(
                &mut *conn,
                format!(
                    "alter index {} rename to {}",
                    quote(&index),
                    quote(&format!("{live}{rest}"))
                ),
            )
            .await?;
        }
    }
    Ok(())
}
