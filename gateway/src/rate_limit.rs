//! Rate limits for public actions: a token bucket per key, in memory. The key is whatever the
//! action is limited by: the client address (public QR-code creation, sign-in, recovery) or the
//! SHA-256 of an e-mail (sign-in and recovery attempts on one account, from any address).
//!
//! In memory is enough for one gateway; behind several gateways each enforces its own share,
//! which still bounds abuse. Buckets are kept in integer milli-tokens, no floats.

use std::collections::HashMap;
use std::hash::Hash;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Keys tracked before idle buckets are swept, so a flood of addresses cannot grow memory
/// without bound.
const SWEEP_ABOVE: usize = 10_000;
const MILLI: u64 = 1_000;

/// A limit was reached: the action may be tried again after [`Throttled::retry_after`]. The
/// edges answer it as 429 with `Retry-After` (`crate::error`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("too many attempts: retry in {retry_after:?}")]
pub struct Throttled {
    /// How long to wait.
    pub retry_after: Duration,
}

impl Throttled {
    /// The wait in whole seconds, rounded up (what `Retry-After` says).
    pub fn retry_after_secs(&self) -> u64 {
        self.retry_after.as_secs() + u64::from(self.retry_after.subsec_nanos() > 0)
    }
}

/// What a key has left after an action ([`RateLimiter::take`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quota {
    /// Whole actions that may go at once now.
    pub remaining: u64,
    /// How long until the allowance is whole again.
    pub full_in: Duration,
}

/// Allows `per_minute` actions per key per minute, with bursts up to the same number. The key is
/// a client address unless said otherwise.
#[derive(Debug)]
pub struct RateLimiter<K = IpAddr> {
    per_minute: u64,
    buckets: Mutex<HashMap<K, Bucket>>,
}

#[derive(Debug, Clone, Copy)]
struct Bucket {
    milli_tokens: u64,
    updated: Instant,
}

impl<K: Eq + Hash> RateLimiter<K> {
    /// A limiter allowing `per_minute` actions per key per minute (at least one).
    pub fn per_minute(per_minute: u32) -> Self {
        RateLimiter {
            per_minute: u64::from(per_minute.max(1)),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one token for `key` at time `now`. `Err` carries how long to wait.
    pub fn check(&self, key: K, now: Instant) -> Result<(), Duration> {
        self.take(key, now).map(|_| ())
    }

    /// Actions allowed per minute (and the largest burst).
    pub fn limit(&self) -> u64 {
        self.per_minute
    }

    /// [`RateLimiter::check`], telling what is left when the action may go: the `RateLimit-*`
    /// headers of an API that shows its callers their allowance.
    pub fn take(&self, key: K, now: Instant) -> Result<Quota, Duration> {
        let capacity = self.per_minute * MILLI;
        // milli-tokens regained per millisecond = per_minute / 60 (kept as a ratio).
        let mut buckets = self
            .buckets
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if buckets.len() > SWEEP_ABOVE {
            buckets.retain(|_, b| now.duration_since(b.updated) < Duration::from_secs(60));
        }
        let bucket = buckets.entry(key).or_insert(Bucket {
            milli_tokens: capacity,
            updated: now,
        });
        let elapsed_ms =
            u64::try_from(now.duration_since(bucket.updated).as_millis()).unwrap_or(u64::MAX);
        let regained = elapsed_ms.saturating_mul(self.per_minute) / 60;
        bucket.milli_tokens = bucket.milli_tokens.saturating_add(regained).min(capacity);
        bucket.updated = now;
        if bucket.milli_tokens >= MILLI {
            bucket.milli_tokens -= MILLI;
            let missing = capacity - bucket.milli_tokens;
            Ok(Quota {
                remaining: bucket.milli_tokens / MILLI,
                full_in: Duration::from_millis((missing * 60).div_ceil(self.per_minute)),
            })
        } else {
            let missing = MILLI - bucket.milli_tokens;
            let wait_ms = (missing * 60).div_ceil(self.per_minute);
            Err(Duration::from_millis(wait_ms))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn address(last: u8) -> IpAddr {
        IpAddr::from([192, 0, 2, last])
    }

    #[test]
    fn allows_the_configured_burst_then_refuses_with_a_wait() {
        let limiter = RateLimiter::per_minute(3);
        let now = Instant::now();
        for _ in 0..3 {
            assert!(limiter.check(address(1), now).is_ok());
        }
        let wait = limiter.check(address(1), now).unwrap_err();
        assert_eq!(wait, Duration::from_secs(20));
    }

    #[test]
    fn taking_tells_what_is_left_and_when_the_allowance_is_whole_again() {
        let limiter: RateLimiter<u8> = RateLimiter::per_minute(60);
        let now = Instant::now();
        let quota = limiter.take(1, now).unwrap();
        assert_eq!(quota.remaining, 59);
        assert_eq!(quota.full_in, Duration::from_secs(1));
        let quota = limiter.take(1, now).unwrap();
        assert_eq!(
            (quota.remaining, quota.full_in),
            (58, Duration::from_secs(2))
        );
        assert_eq!(limiter.limit(), 60);
    }

    #[test]
    fn each_address_has_its_own_allowance() {
        let limiter = RateLimiter::per_minute(1);
        let now = Instant::now();
        assert!(limiter.check(address(1), now).is_ok());
        assert!(limiter.check(address(1), now).is_err());
        assert!(limiter.check(address(2), now).is_ok());
    }

    #[test]
    fn any_key_can_be_limited_such_as_an_email_digest() {
        let limiter: RateLimiter<String> = RateLimiter::per_minute(2);
        let now = Instant::now();
        assert!(limiter.check("a1".to_owned(), now).is_ok());
        assert!(limiter.check("a1".to_owned(), now).is_ok());
        assert_eq!(
            limiter.check("a1".to_owned(), now),
            Err(Duration::from_secs(30))
        );
        assert!(limiter.check("b2".to_owned(), now).is_ok());
    }

    #[test]
    fn tokens_come_back_with_time() {
        let limiter = RateLimiter::per_minute(2);
        let start = Instant::now();
        assert!(limiter.check(address(1), start).is_ok());
        assert!(limiter.check(address(1), start).is_ok());
        assert!(limiter.check(address(1), start).is_err());
        assert!(
            limiter
                .check(address(1), start + Duration::from_secs(30))
                .is_ok()
        );
    }
}
