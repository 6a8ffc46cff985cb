//! The gateway's clock for decisions that turn on the calendar (a payment link's expiry): the
//! system clock, plus an offset that only code can set.
//!
//! Nothing in the environment or on the command line moves it (`Settings::clock` is skipped by
//! clap); a test holds a clone of the running gateway's clock and moves it forward with
//! [`Clock::advance`] to stand for days passing, instead of rewriting a read model behind the
//! projector.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use chrono::{DateTime, Duration, Utc};

/// The system clock and a shared offset (zero unless a test moved it).
#[derive(Debug, Clone, Default)]
pub struct Clock {
    offset_millis: Arc<AtomicI64>,
}

impl Clock {
    /// Now, on this clock.
    pub fn now(&self) -> DateTime<Utc> {
        Utc::now() + Duration::milliseconds(self.offset_millis.load(Ordering::Relaxed))
    }

    /// Moves this clock, and every clone of it (the running gateway's), forward by `by`.
    pub fn advance(&self, by: Duration) {
        self.offset_millis
            .fetch_add(by.num_milliseconds(), Ordering::Relaxed);
    }
}

/// Now, RFC 3339 with microseconds, for a command's `at` (the system's clock: commands record
/// when they happened, whatever a test's [`Clock`] says of the pages).
pub fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Micros, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_moved_forward_moves_every_clone_and_starts_at_the_system_time() {
        let clock = Clock::default();
        let shared = clock.clone();
        assert!((clock.now() - Utc::now()).num_seconds().abs() < 5);
        clock.advance(Duration::days(2));
        let ahead = shared.now() - Utc::now();
        assert!(ahead > Duration::days(2) - Duration::seconds(5), "{ahead}");
    }
}
