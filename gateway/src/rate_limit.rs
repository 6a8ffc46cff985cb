//! A per-client-address rate limit for public actions (a token bucket per address, in memory).
//!
//! In memory is enough for one gateway; behind several gateways each enforces its own share,
//! which still bounds abuse. Buckets are kept in integer milli-tokens, no floats.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Addresses tracked before idle buckets are swept, so a flood of addresses cannot grow memory
/// without bound.
const SWEEP_ABOVE: usize = 10_000;
const MILLI: u64 = 1_000;

/// Allows `per_minute` actions per address per minute, with bursts up to the same number.
#[derive(Debug)]
pub struct RateLimiter {
    per_minute: u64,
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
}

#[derive(Debug, Clone, Copy)]
struct Bucket {
    milli_tokens: u64,
    updated: Instant,
}

impl RateLimiter {
    /// A limiter allowing `per_minute` actions per address per minute (at least one).
    pub fn per_minute(per_minute: u32) -> Self {
        RateLimiter {
            per_minute: u64::from(per_minute.max(1)),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one token for `address` at time `now`. `Err` carries how long to wait.
    pub fn check(&self, address: IpAddr, now: Instant) -> Result<(), Duration> {
        let capacity = self.per_minute * MILLI;
        // milli-tokens regained per millisecond = per_minute / 60 (kept as a ratio).
        let mut buckets = self
            .buckets
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if buckets.len() > SWEEP_ABOVE {
            buckets.retain(|_, b| now.duration_since(b.updated) < Duration::from_secs(60));
        }
        let bucket = buckets.entry(address).or_insert(Bucket {
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
            Ok(())
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
    fn each_address_has_its_own_allowance() {
        let limiter = RateLimiter::per_minute(1);
        let now = Instant::now();
        assert!(limiter.check(address(1), now).is_ok());
        assert!(limiter.check(address(1), now).is_err());
        assert!(limiter.check(address(2), now).is_ok());
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
