//! Projector settings.

use std::sync::Arc;
use std::time::Duration;

use commands::Upcasters;

use crate::jetstream::StreamSettings;

/// How projectors run. `ProjectorConfig::default()` matches `RelayConfig::default()`'s stream.
#[derive(Debug, Clone)]
pub struct ProjectorConfig {
    /// The stream to consume (only `name` and `subject_prefix` are used; the relay owns the
    /// stream's settings).
    pub stream: StreamSettings,
    /// Most messages applied in one database transaction.
    pub max_batch: usize,
    /// How long JetStream waits for an ack before redelivering.
    pub ack_wait: Duration,
    /// Most unacknowledged messages JetStream lets the consumer hold.
    pub max_ack_pending: i64,
    /// Longest a batch holding only events of streams the projection does not read
    /// ([`crate::projection::Projection::streams`]) waits, unacknowledged, for a batch that matters, so that
    /// both go in one checkpoint round. Also how far behind such a projection's stored checkpoint
    /// (its lag gauges, a wait for one of those events) may be.
    pub hold_other_streams: Duration,
    /// Page size when a gap in the stream is filled from PostgreSQL.
    pub feed_page_size: i64,
    /// How often a standby projector tries to take its projection's lock, and how often an
    /// active one checks it still holds it.
    pub lock_retry_interval: Duration,
    /// Longest pause between retries after a failure (database or NATS down).
    pub max_backoff: Duration,
    /// Names this instance in `pg_stat_activity` (`balcao-projector <name> <instance>`).
    pub instance: String,
    /// Upcasters applied to every event before a projection sees it, from the stream or from the
    /// feed ([`Upcasters::application`] unless a test brings its own).
    pub upcasters: Arc<Upcasters>,
}

impl Default for ProjectorConfig {
    fn default() -> ProjectorConfig {
        ProjectorConfig {
            stream: StreamSettings::default(),
            max_batch: 1_000,
            ack_wait: Duration::from_secs(30),
            max_ack_pending: 20_000,
            hold_other_streams: Duration::from_millis(250),
            feed_page_size: 5_000,
            lock_retry_interval: Duration::from_secs(2),
            max_backoff: Duration::from_secs(5),
            instance: format!("pid {}", std::process::id()),
            upcasters: Upcasters::application(),
        }
    }
}
