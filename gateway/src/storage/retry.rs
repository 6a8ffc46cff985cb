//! The storage retry policy: a call that fails with 5xx, 408 or 429 is tried again after a
//! back-off that doubles from 1 s up to 64 s, plus up to 1 s of random jitter, for as long as
//! the operation's budget allows (2 minutes; 10 for uploads); any other failure is final at
//! once. When the next wait would pass the budget, the answer is
//! [`StorageError::RetryLimitExceeded`].
//!
//! The waits go through a [`Sleeper`], which also tells the time and draws the jitter, so the
//! tests compute the whole schedule without sleeping.

use std::future::Future;
use std::pin::Pin;
use std::time::{Duration, Instant};

use super::{Failure, StorageError, classify};

/// Which budget an operation gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    /// Writing an object: [`RetryPolicy::upload_budget`].
    Upload,
    /// Reading, listing, deleting: [`RetryPolicy::budget`].
    Other,
}

/// When and how long to retry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// The first wait.
    pub first: Duration,
    /// The longest wait (before jitter).
    pub cap: Duration,
    /// The most jitter added to a wait.
    pub jitter: Duration,
    /// How long an operation may take, retries included.
    pub budget: Duration,
    /// The same for uploads.
    pub upload_budget: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            first: Duration::from_secs(1),
            cap: Duration::from_secs(64),
            jitter: Duration::from_secs(1),
            budget: Duration::from_secs(120),
            upload_budget: Duration::from_secs(600),
        }
    }
}

impl RetryPolicy {
    /// The wait before retry number `retry` (0 for the first retry), without jitter: `first`
    /// doubled `retry` times, at most `cap`.
    ///
    /// ```
    /// use std::time::Duration;
    /// use gateway::storage::retry::RetryPolicy;
    ///
    /// let policy = RetryPolicy::default();
    /// let waits: Vec<u64> = (0..9).map(|n| policy.backoff(n).as_secs()).collect();
    /// assert_eq!(waits, [1, 2, 4, 8, 16, 32, 64, 64, 64]);
    /// ```
    pub fn backoff(&self, retry: u32) -> Duration {
        let doubled = self
            .first
            .checked_mul(1_u32.checked_shl(retry).unwrap_or(u32::MAX))
            .unwrap_or(self.cap);
        doubled.min(self.cap)
    }
}

/// Whether a status is worth retrying: server errors, request timeout, too many requests.
pub fn is_retryable(status: u16) -> bool {
    (500..=599).contains(&status) || status == 408 || status == 429
}

/// Time, sleep and randomness for the retry loop.
pub trait Sleeper: Send + Sync {
    /// Time since some fixed instant.
    fn elapsed(&self) -> Duration;
    /// Waits `duration`.
    fn sleep(&self, duration: Duration) -> Pin<Box<dyn Future<Output = ()> + Send + '_>>;
    /// A random duration in `0..=max`.
    fn jitter(&self, max: Duration) -> Duration;
}

/// The real clock: tokio's sleep, jitter from the operating system's random source.
#[derive(Debug)]
pub struct TokioSleeper {
    start: Instant,
}

impl Default for TokioSleeper {
    fn default() -> Self {
        Self {
            start: Instant::now(),
        }
    }
}

impl Sleeper for TokioSleeper {
    fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    fn sleep(&self, duration: Duration) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        Box::pin(tokio::time::sleep(duration))
    }

    fn jitter(&self, max: Duration) -> Duration {
        let mut bytes = [0_u8; 8];
        if getrandom::fill(&mut bytes).is_err() {
            return Duration::ZERO;
        }
        let millis = u64::try_from(max.as_millis()).unwrap_or(u64::MAX);
        Duration::from_millis(u64::from_le_bytes(bytes) % millis.saturating_add(1))
    }
}

/// Runs `attempt` until it succeeds, fails for good, or the budget runs out.
///
/// # Errors
///
/// The catalogue entry of the last failure; [`StorageError::RetryLimitExceeded`] when a
/// retryable failure was still coming when the budget ran out.
pub async fn run<T, F, Fut>(
    policy: &RetryPolicy,
    sleeper: &dyn Sleeper,
    operation: Operation,
    mut attempt: F,
) -> Result<T, StorageError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = object_store::Result<T>>,
{
    let budget = super::budget(policy, operation);
    let start = sleeper.elapsed();
    let mut retry = 0_u32;
    loop {
        let error = match attempt().await {
            Ok(value) => return Ok(value),
            Err(error) => error,
        };
        let status = match classify(&error) {
            Failure::Final(kind) => {
                tracing::warn!(%error, ?kind, "storage call failed");
                return Err(kind);
            }
            Failure::Status(status) if !is_retryable(status) => {
                tracing::warn!(%error, status, "storage call refused");
                return Err(StorageError::from_status(status));
            }
            Failure::Status(status) => status,
        };
        let wait = policy.backoff(retry) + sleeper.jitter(policy.jitter);
        let spent = sleeper.elapsed().saturating_sub(start);
        if spent + wait > budget {
            tracing::warn!(%error, status, retries = retry, ?spent, "storage call gave up");
            return Err(StorageError::RetryLimitExceeded);
        }
        tracing::info!(%error, status, ?wait, "storage call failed; retrying");
        sleeper.sleep(wait).await;
        retry += 1;
    }
}
