//! Rendering is CPU work (an A4 PNG at 300 dpi is tens of milliseconds and 25 MB of pixels):
//! it runs on tokio's blocking pool, never on the async workers, and at most
//! [`permits`] renders run at once, so a flood of PNG requests queues here instead of
//! starving the server. A request that waits longer than [`WAIT`] for a permit gets the 503
//! page with `Retry-After` (the server is busy, not broken).

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use tokio::sync::Semaphore;

use crate::error::AppError;

/// How long a request waits for a render permit before it is turned away.
pub const WAIT: Duration = Duration::from_secs(10);

/// How many renders may run at once: one per core, at most four.
pub fn permits() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .clamp(1, 4)
}

fn semaphore() -> &'static Arc<Semaphore> {
    static SEMAPHORE: OnceLock<Arc<Semaphore>> = OnceLock::new();
    SEMAPHORE.get_or_init(|| Arc::new(Semaphore::new(permits())))
}

/// Runs `work` on the blocking pool under a render permit.
pub async fn run<T, F>(work: F) -> Result<T, AppError>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    let permit = tokio::time::timeout(WAIT, semaphore().clone().acquire_owned())
        .await
        .map_err(|_| AppError::Unavailable(anyhow::anyhow!("every sign render permit is busy")))?
        .map_err(|e| AppError::Internal(anyhow::anyhow!("render semaphore closed: {e}")))?;
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        work()
    })
    .await
    .map_err(|e| AppError::Internal(anyhow::anyhow!("sign render task failed: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_is_at_least_one_permit_and_at_most_four() {
        assert!((1..=4).contains(&permits()));
    }

    #[tokio::test]
    async fn the_work_returns_its_value() {
        assert_eq!(run(|| 6 * 7).await.expect("ran"), 42);
    }
}
