//! Names of the metrics this crate records (exported by whatever recorder the binary installs).

/// Gauge: committed events past the relay's checkpoint (capped at `RELAY_LAG_CAP`).
pub(crate) const RELAY_LAG_EVENTS: &str = "balcao_relay_lag_events";
/// Counter: events the relay published and JetStream acknowledged (duplicates included).
pub(crate) const RELAY_PUBLISHED: &str = "balcao_relay_published_total";
/// Counter: publishes JetStream reported as duplicates of an earlier `Nats-Msg-Id`.
pub(crate) const RELAY_DUPLICATES: &str = "balcao_relay_duplicates_total";
/// Gauge, per projection: seconds between the last applied event's recording and its apply.
pub(crate) const PROJECTION_LAG_SECONDS: &str = "balcao_projection_lag_seconds";
/// Counter, per projection: events applied (parked ones excluded).
pub(crate) const PROJECTION_APPLIED: &str = "balcao_projection_applied_total";
/// Counter, per projection: events parked as poison.
pub(crate) const PARKED_EVENTS: &str = "balcao_parked_events_total";
/// Counter, per projection: times the projector filled a gap in the stream from PostgreSQL.
pub(crate) const PROJECTION_GAP_REPAIRS: &str = "balcao_projection_gap_repairs_total";

/// The relay counts its lag up to this many events; beyond it the gauge saturates.
pub(crate) const RELAY_LAG_CAP: i64 = 1_000_000;
