//! Relay settings.

use std::sync::Arc;
use std::time::Duration;

use commands::Upcasters;

use crate::error::Error;
use crate::jetstream::StreamSettings;

/// How the relay runs. `RelayConfig::default()` suits production on one NATS server.
#[derive(Debug, Clone)]
pub struct RelayConfig {
    /// The JetStream stream to create (or update) and publish to.
    pub stream: StreamSettings,
    /// Events read from the feed and published per round (pipelined, acks awaited together).
    pub batch_size: i64,
    /// Longest wait between two looks at the feed when no `NOTIFY` arrives (fallback polling).
    pub poll_interval: Duration,
    /// After publishing a batch that was not full, how long the relay lets events gather before
    /// it looks again. Under steady writes one probe, one read and one publish round then serve
    /// every event committed in that time, instead of a look per notification (most batches
    /// held one event at 200 creations a second). It is the most a busy feed's next event waits
    /// for the relay; the first event after an idle spell is read at once. Zero looks at once.
    pub gather: Duration,
    /// How often a standby relay tries to take the lock.
    pub lock_retry_interval: Duration,
    /// How long the relay keeps retrying a batch JetStream does not acknowledge before it gives
    /// up with an error. Must be shorter than the stream's duplicate window, so that every retry
    /// is still recognised as a duplicate.
    pub retry_window: Duration,
    /// Timeout of each JetStream request (publish ack, stream management).
    pub nats_timeout: Duration,
    /// Names this instance in `pg_stat_activity` (`application_name = "balcao-relay <instance>"`).
    pub instance: String,
    /// The upcasters the feed applies, so the stream carries current shapes
    /// ([`Upcasters::application`] unless a test brings its own).
    pub upcasters: Arc<Upcasters>,
    /// Testing aid: stop at a fault point as a crash there would. `None` in production.
    pub fault: Option<Fault>,
}

/// Where an injected fault stops the relay (testing aid).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// After JetStream acknowledged a batch and before the checkpoint is stored: `run` returns
    /// [`Error::InjectedFault`] and drops its connection, as if the process died right there.
    CrashAfterPublish,
}

impl Default for RelayConfig {
    fn default() -> RelayConfig {
        RelayConfig {
            stream: StreamSettings::default(),
            batch_size: 1_000,
            poll_interval: Duration::from_secs(1),
            gather: Duration::from_millis(10),
            lock_retry_interval: Duration::from_secs(2),
            retry_window: Duration::from_secs(5 * 60),
            nats_timeout: Duration::from_secs(5),
            instance: format!("pid {}", std::process::id()),
            upcasters: Upcasters::application(),
            fault: None,
        }
    }
}

impl RelayConfig {
    /// Checks the settings; the relay refuses to start with invalid ones.
    pub fn validate(&self) -> Result<(), Error> {
        self.stream.validate()?;
        if self.stream.duplicate_window <= self.retry_window {
            return Err(Error::Config(format!(
                "the duplicate window ({:?}) must be longer than the relay's retry window ({:?}), \
                 or a retried publish could be stored twice",
                self.stream.duplicate_window, self.retry_window
            )));
        }
        if self.batch_size < 1 {
            return Err(Error::Config("batch size must be at least 1".to_owned()));
        }
        if self.poll_interval.is_zero() || self.lock_retry_interval.is_zero() {
            return Err(Error::Config(
                "poll and lock retry intervals must be positive".to_owned(),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_valid() {
        assert!(RelayConfig::default().validate().is_ok());
    }

    #[test]
    fn rejects_a_duplicate_window_not_longer_than_the_retry_window() {
        let mut config = RelayConfig::default();
        config.stream.duplicate_window = Duration::from_secs(120);
        config.retry_window = Duration::from_secs(120);
        let error = config.validate().unwrap_err();
        assert!(error.to_string().contains("duplicate window"), "{error}");
    }
}
