//! The switch: rebuilt tables become the live ones in one short transaction.

use std::time::Duration;

use commands::feed::{self, FeedPosition};
use sqlx::PgPool;

use super::{Build, ReplayOptions};
use crate::checkpoint;
use crate::error::Error;
use crate::locks::lock_projection_writes;
use crate::parking::apply_with_parking;
use crate::sql::execute_trusted;

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
    let fields = build.projection.reads();
    while position < live {
        let mut page = feed::read_after_with(
            &mut *tx,
            &options.upcasters,
            position,
            options.page_size,
            &fields,
        )
        .await?;
        page.retain(|e| e.position <= live);
        let Some(last) = page.last() else { break };
        position = last.position;
        caught_up += page.len() as u64;
        parked.extend(
            apply_with_parking(
                &mut tx,
                &*build.projection,
                &build.target,
                &options.upcasters,
                &page,
            )
            .await?,
        );
    }
    // If replay read further than the live projector got, the projector skips what replay
    // already included.
    let position = live.max(replayed_to);

    for table in &build.tables {
        table.swap(&mut tx).await?;
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
