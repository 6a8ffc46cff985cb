//! Read-your-writes, for the JSON API and the pages alike: after a command, wait (bounded) until
//! a read model has applied it, so the answer and the caller's next read see their own write.

use commands::FeedPosition;

use crate::state::AppState;

/// Waits, at most `BALCAO_READ_YOUR_WRITES_MS`, until `projection` has applied the event at
/// `position` (`None`: the command appended nothing, so there is nothing to wait for). `true`
/// when it has; `false` when the wait timed out or PostgreSQL failed, both logged.
///
/// Never an error: the command has already committed, and answering its caller with a failure
/// (inviting a retry) would be wrong; the read model catches up on its own.
pub async fn wait_for(state: &AppState, projection: &str, position: Option<FeedPosition>) -> bool {
    let Some(position) = position else {
        return true;
    };
    match projections::projector::wait_until(
        &state.pool,
        projection,
        position,
        state.read_your_writes,
    )
    .await
    {
        Ok(waited) if waited.reached() => true,
        Ok(_) => {
            tracing::warn!(
                projection,
                "the read model did not reach the command's position in time"
            );
            false
        }
        Err(error) => {
            tracing::warn!(projection, %error, "could not wait for the read model");
            false
        }
    }
}
