//! The one task per process that turns the `payments` projection's progress into changes on the
//! broadcast: each time the projection moves, one query reads the rows changed after the
//! task's cursor, for every client at once.

use std::sync::Arc;
use std::time::Duration;

use commands::FeedPosition;
use projections::payment_changes::{self, PaymentChange, Scope};
use projections::projector::Follower;
use sqlx::PgPool;
use tokio::sync::{broadcast, watch};

/// Rows read per query; a burst larger than this is read in several.
const PAGE: i64 = 500;
/// Pause before trying again after PostgreSQL failed.
const RETRY: Duration = Duration::from_secs(1);

/// Runs until aborted (when the last [`super::Live`] goes).
pub(super) async fn run(
    pool: PgPool,
    mut follower: Follower,
    changes: broadcast::Sender<Arc<PaymentChange>>,
    head: watch::Sender<FeedPosition>,
) {
    // What the projection applied before this process started is history, not news: start at
    // its stored checkpoint (the follower was subscribed first, so no move is missed).
    let mut cursor = loop {
        match projections::checkpoint::projection_position(&pool, projections::payments::NAME).await
        {
            Ok(position) => break position,
            Err(error) => {
                tracing::warn!(%error, "live updates: could not read the payments checkpoint");
                tokio::time::sleep(RETRY).await;
            }
        }
    };
    head.send_replace(cursor);
    loop {
        let reached = follower.next().await;
        loop {
            match payment_changes::after(&pool, cursor, Scope::default(), PAGE).await {
                Ok(rows) => {
                    let full = i64::try_from(rows.len()).unwrap_or(i64::MAX) >= PAGE;
                    for change in rows {
                        cursor = cursor.max(change.position);
                        // No receiver is not an error: nobody is watching right now.
                        let _ = changes.send(Arc::new(change));
                    }
                    if !full {
                        break;
                    }
                }
                Err(error) => {
                    tracing::warn!(%error, "live updates: could not read the changed payments; trying again");
                    tokio::time::sleep(RETRY).await;
                }
            }
        }
        // Every row up to the checkpoint heard is read: a snapshot taken now is at least there.
        cursor = cursor.max(reached);
        head.send_replace(cursor);
    }
}
