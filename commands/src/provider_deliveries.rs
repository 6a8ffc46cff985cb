//! The billing provider's webhook deliveries already handled (`billing_webhook_events`, from
//! `migrations/0012_subscriptions.sql`: side state beside the log).
//!
//! A provider delivers an event again until it gets a 2xx, and the same event may arrive twice
//! at once. The subscription's commands are idempotent on their own (the aggregate ignores a
//! charge change it already has), so this table only spares the work of deciding again: an
//! event id is remembered after its command committed, and a delivery whose id is remembered
//! is answered at once.

use sqlx::PgPool;

/// Whether `provider`'s event `event_id` was handled before.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn handled(pool: &PgPool, provider: &str, event_id: &str) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar(
        "select exists (select 1 from billing_webhook_events where provider = $1 and event_id = $2)",
    )
    .bind(provider)
    .bind(event_id)
    .fetch_one(pool)
    .await
}

/// Remembers that `provider`'s event `event_id` was handled (again is harmless).
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn remember(pool: &PgPool, provider: &str, event_id: &str) -> Result<(), sqlx::Error> {
    sqlx::query(
        "insert into billing_webhook_events (provider, event_id) values ($1, $2)
         on conflict do nothing",
    )
    .bind(provider)
    .bind(event_id)
    .execute(pool)
    .await
    .map(|_| ())
}
