//! Read-your-writes, for the JSON API and the pages alike: after a command, wait (bounded) until
//! a read model has applied it, so the answer and the caller's next read see their own write.
//!
//! Waiting never holds a database connection ([`projections::projector::ProgressWatch`]: one listener per process), at
//! most `BALCAO_READ_YOUR_WRITES_WAITERS` requests wait at a time, and a wait that runs out
//! (or is not taken) is never an error: the command has committed, so the handler answers from
//! the command's own result.
//!
//! Pages about one QR code do not wait at all: a code the projector has not written yet is drawn
//! from its own stream (`crate::state::AppState::qrcode`).

use commands::FeedPosition;
use projections::projector::Waited;

pub(crate) mod progress;

pub use progress::Progress;

/// Waits, at most `BALCAO_READ_YOUR_WRITES_MS`, until `projection` has applied the event at
/// `position` (`None`: the command appended nothing, so there is nothing to wait for). `true`
/// when it has; `false` when the wait timed out or was not taken (too many waiting), both
/// logged.
///
/// Never an error: the command has already committed, and answering its caller with a failure
/// (inviting a retry) would be wrong; the read model catches up on its own.
pub async fn wait_for(
    shared: &impl AsRef<Progress>,
    projection: &str,
    position: Option<FeedPosition>,
) -> bool {
    let Some(position) = position else {
        return true;
    };
    let progress = shared.as_ref();
    match progress
        .watch()
        .wait(projection, position, progress.patience())
        .await
    {
        Waited::Reached(_) => true,
        Waited::TimedOut(_) => {
            tracing::warn!(
                projection,
                "the read model did not reach the command's position in time"
            );
            false
        }
        Waited::Skipped(_) => {
            tracing::warn!(
                projection,
                "too many requests waiting for read models; answering without waiting"
            );
            false
        }
    }
}
