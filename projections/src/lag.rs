//! How far the relay and the projections are behind the event log, read from PostgreSQL.
//!
//! The operations endpoint calls the `observe_*` functions on every scrape, so the gauges are
//! the truth at that moment whichever instance is scraped (leader or standby) and keep growing
//! while a role is stuck, which a gauge set only by the working loop would not.
//!
//! Lag is measured against everything committed, in feed order after the checkpoint: for the
//! relay, events not yet published; for a projection, events not yet in its read model (so it
//! includes the relay's own lag, which is what a reader waits for).

use std::collections::BTreeMap;

use commands::feed::FeedPosition;
use sqlx::PgPool;

use crate::checkpoint;
use crate::metric_names::{
    PARKED_EVENTS, PROJECTION_LAG_EVENTS, PROJECTION_LAG_SECONDS, PROJECTOR_ACTIVE, RELAY_ACTIVE,
    RELAY_LAG_EVENTS, RELAY_LAG_SECONDS,
};
pub use crate::sql::PENDING_AFTER;
use crate::sql::{pending_after, tx_text};
use crate::status::{Phase, Status};

/// How far behind the log something is.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Lag {
    /// Committed events after the checkpoint (an estimate from positions: `sql::pending_after`).
    pub events: i64,
    /// Seconds since the oldest of them was recorded; 0 when there is none.
    pub seconds: f64,
}

/// The lag of everything after `after`.
async fn lag_after(pool: &PgPool, after: FeedPosition) -> Result<Lag, sqlx::Error> {
    let events = pending_after(pool, after).await?;
    if events == 0 {
        return Ok(Lag::default());
    }
    // The first event in feed order after the checkpoint: one probe of the feed index.
    let seconds: Option<f64> = sqlx::query_scalar(
        "select greatest(0, extract(epoch from clock_timestamp() - recorded_at))::float8
           from events
          where (tx_id, global_position) > ($1::text::xid8, $2)
          order by tx_id, global_position
          limit 1",
    )
    .bind(tx_text(after))
    .bind(after.global_position)
    .fetch_optional(pool)
    .await?;
    Ok(Lag {
        events,
        seconds: seconds.unwrap_or_default(),
    })
}

/// Events committed but not yet published to `stream_name`, and the age of the oldest.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn relay_lag(pool: &PgPool, stream_name: &str) -> Result<Lag, sqlx::Error> {
    let position = checkpoint::relay_position(pool, stream_name).await?;
    lag_after(pool, position).await
}

/// Events committed but not yet in `projection`'s read model, and the age of the oldest.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn projection_lag(pool: &PgPool, projection: &str) -> Result<Lag, sqlx::Error> {
    let position = checkpoint::projection_position(pool, projection).await?;
    lag_after(pool, position).await
}

/// Rows in `parked_events`, per projection (projections with none are absent).
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn parked_counts(pool: &PgPool) -> Result<BTreeMap<String, i64>, sqlx::Error> {
    let rows: Vec<(String, i64)> =
        sqlx::query_as("select projection, count(*) from parked_events group by projection")
            .fetch_all(pool)
            .await?;
    Ok(rows.into_iter().collect())
}

/// Sets the relay's gauges: its lag behind the log and whether this process leads.
///
/// # Errors
///
/// When PostgreSQL fails (the leadership gauge is set anyway).
pub async fn observe_relay(
    pool: &PgPool,
    stream_name: &str,
    status: &Status,
) -> Result<(), sqlx::Error> {
    let active = status.get(stream_name) == Some(Phase::Active);
    metrics::gauge!(RELAY_ACTIVE).set(if active { 1.0 } else { 0.0 });
    let lag = relay_lag(pool, stream_name).await?;
    metrics::gauge!(RELAY_LAG_EVENTS).set(count_gauge(lag.events));
    metrics::gauge!(RELAY_LAG_SECONDS).set(lag.seconds);
    Ok(())
}

/// Sets each projection's gauges: lag behind the log, parked events, and whether this process's
/// projector leads it.
///
/// # Errors
///
/// When PostgreSQL fails (the leadership gauges are set anyway).
pub async fn observe_projections(
    pool: &PgPool,
    projections: &[&'static str],
    status: &Status,
) -> Result<(), sqlx::Error> {
    for &name in projections {
        let active = status.get(name) == Some(Phase::Active);
        metrics::gauge!(PROJECTOR_ACTIVE, "projection" => name).set(if active { 1.0 } else { 0.0 });
    }
    let parked = parked_counts(pool).await?;
    for &name in projections {
        let lag = projection_lag(pool, name).await?;
        metrics::gauge!(PROJECTION_LAG_EVENTS, "projection" => name).set(count_gauge(lag.events));
        metrics::gauge!(PROJECTION_LAG_SECONDS, "projection" => name).set(lag.seconds);
        let parked = parked.get(name).copied().unwrap_or_default();
        metrics::gauge!(PARKED_EVENTS, "projection" => name).set(count_gauge(parked));
    }
    Ok(())
}

/// A count as a gauge value; counts here are capped far inside `u32`.
fn count_gauge(count: i64) -> f64 {
    f64::from(u32::try_from(count.max(0)).unwrap_or(u32::MAX))
}
