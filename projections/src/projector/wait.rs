//! Read-your-writes: wait until a projection has applied a given feed position.

use std::time::Duration;

use commands::feed::FeedPosition;
use sqlx::PgPool;
use sqlx::postgres::PgListener;
use tokio::time::Instant;

use crate::checkpoint::{self, notify_channel, parse_notification};
use crate::error::Error;

/// Re-read the checkpoint at least this often while waiting, in case a notification is lost
/// (listener reconnect).
const RECHECK: Duration = Duration::from_millis(100);

/// How a wait ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Waited {
    /// The projection's checkpoint is at or past the position asked for.
    Reached(FeedPosition),
    /// The timeout passed first; the checkpoint was here.
    TimedOut(FeedPosition),
    /// Not waited for, or no longer ([`super::ProgressWatch`] only): the projection is
    /// stalled (no progress while someone waited), as many requests as allowed were already
    /// waiting, or the projection is not followed; the checkpoint was here.
    Skipped(FeedPosition),
}

impl Waited {
    /// Whether the projection caught up in time.
    pub fn reached(self) -> bool {
        matches!(self, Waited::Reached(_))
    }
}

/// Waits until `projection`'s checkpoint is at or past `position`, for at most `timeout`.
///
/// The gateway calls it after a command returned the feed position of its last event, before
/// reading the read model, so a user sees what they just did. It listens on the projection's
/// `NOTIFY` channel (sent when a checkpoint commits) and re-reads the checkpoint every 100 ms
/// as a safety net. It holds one pooled connection while it waits, so it is for tools, tests
/// and benchmarks; a server waits with [`super::ProgressWatch`], which holds none.
pub async fn wait_until(
    pool: &PgPool,
    projection: &str,
    position: FeedPosition,
    timeout: Duration,
) -> Result<Waited, Error> {
    let deadline = Instant::now() + timeout;
    // Cheap path first: usually the projector is already there.
    let current = checkpoint::projection_position(pool, projection).await?;
    if current >= position {
        return Ok(Waited::Reached(current));
    }
    let mut listener = PgListener::connect_with(pool).await?;
    listener.listen(&notify_channel(projection)).await?;
    // Read again now that we listen: a checkpoint committed before LISTEN sent no
    // notification we could see.
    let mut current = checkpoint::projection_position(pool, projection).await?;
    loop {
        if current >= position {
            return Ok(Waited::Reached(current));
        }
        let now = Instant::now();
        if now >= deadline {
            return Ok(Waited::TimedOut(current));
        }
        let slice = (deadline - now).min(RECHECK);
        match tokio::time::timeout(slice, listener.recv()).await {
            Ok(Ok(notification)) => {
                if let Some(notified) = parse_notification(notification.payload()) {
                    current = current.max(notified);
                    continue;
                }
                current = checkpoint::projection_position(pool, projection).await?;
            }
            Ok(Err(error)) => return Err(error.into()),
            Err(_elapsed) => {
                current = checkpoint::projection_position(pool, projection).await?;
            }
        }
    }
}
