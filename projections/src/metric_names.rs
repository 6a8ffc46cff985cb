//! Names of the metrics this crate records (exported by whatever recorder the binary installs).
//!
//! Lag and parked-event gauges are read from PostgreSQL when scraped ([`crate::lag`]), so any
//! process running the relay or projector role reports them, leader or standby, and they never go
//! stale while a role is stuck. `deploy/grafana-dashboard.json` and `deploy/prometheus-alerts.yml`
//! use exactly these names (checked by the gateway's `deploy_files` test against [`ALL`]).

/// Gauge: committed events past the relay's checkpoint, i.e. not yet published (estimated from
/// positions without counting the log: `sql::pending_after`).
pub const RELAY_LAG_EVENTS: &str = "balcao_relay_lag_events";
/// Gauge: age in seconds of the oldest committed event the relay has not published (0 when it
/// is caught up).
pub const RELAY_LAG_SECONDS: &str = "balcao_relay_lag_seconds";
/// Gauge: 1 while this process's relay holds the relay lock (leads), 0 while it stands by.
pub const RELAY_ACTIVE: &str = "balcao_relay_active";
/// Counter: events the relay published and JetStream acknowledged (duplicates included).
pub const RELAY_PUBLISHED: &str = "balcao_relay_published_total";
/// Counter: publishes JetStream reported as duplicates of an earlier `Nats-Msg-Id`.
pub const RELAY_DUPLICATES: &str = "balcao_relay_duplicates_total";
/// Counter: writes of the relay's checkpoint to `relay_checkpoints` (at most four a second
/// while it publishes, one more when it idles or stops).
pub const RELAY_CHECKPOINTS_STORED: &str = "balcao_relay_checkpoints_stored_total";
/// Counter: batches the relay read and published (each one read of the feed and one round of
/// acks); `balcao_relay_published_total` divided by this is the mean batch size.
pub const RELAY_BATCHES: &str = "balcao_relay_batches_total";
/// Gauge, per projection: committed events past the projection's checkpoint (the feed's head
/// minus the checkpoint, estimated from positions without counting the log).
pub const PROJECTION_LAG_EVENTS: &str = "balcao_projection_lag_events";
/// Gauge, per projection: age in seconds of the oldest committed event the projection has not
/// applied (0 when it is caught up).
pub const PROJECTION_LAG_SECONDS: &str = "balcao_projection_lag_seconds";
/// Gauge, per projection: seconds between the last applied event's recording and its apply, set
/// by the active projector at each batch.
pub const PROJECTION_APPLY_DELAY_SECONDS: &str = "balcao_projection_apply_delay_seconds";
/// Gauge, per projection: 1 while this process's projector holds the projection's lock.
pub const PROJECTOR_ACTIVE: &str = "balcao_projector_active";
/// Counter, per projection: events applied (parked ones excluded).
pub const PROJECTION_APPLIED: &str = "balcao_projection_applied_total";
/// Counter, per projection: events this process parked as poison.
pub const PARKED_EVENTS_TOTAL: &str = "balcao_parked_events_total";
/// Gauge, per projection: rows in `parked_events`, whoever parked them.
pub const PARKED_EVENTS: &str = "balcao_parked_events";
/// Counter, per projection: times the projector filled a gap in the stream from PostgreSQL.
pub const PROJECTION_GAP_REPAIRS: &str = "balcao_projection_gap_repairs_total";
/// Counter, per projection: rounds the projector committed (each a transaction that moves the
/// checkpoint). Batches of only other streams' events wait and share a round (see
/// `ProjectorConfig::hold_other_streams`).
pub const PROJECTION_ROUNDS: &str = "balcao_projection_rounds_total";

/// Every metric name above.
pub const ALL: &[&str] = &[
    RELAY_LAG_EVENTS,
    RELAY_LAG_SECONDS,
    RELAY_ACTIVE,
    RELAY_PUBLISHED,
    RELAY_DUPLICATES,
    RELAY_CHECKPOINTS_STORED,
    RELAY_BATCHES,
    PROJECTION_LAG_EVENTS,
    PROJECTION_LAG_SECONDS,
    PROJECTION_APPLY_DELAY_SECONDS,
    PROJECTOR_ACTIVE,
    PROJECTION_APPLIED,
    PARKED_EVENTS_TOTAL,
    PARKED_EVENTS,
    PROJECTION_GAP_REPAIRS,
    PROJECTION_ROUNDS,
];
