//! Relay, projector runtime, read models and replay.
//!
//! PostgreSQL's event log is the source of truth; NATS JetStream is the transport:
//!
//! - [`relay`] publishes every committed event, in feed order, to a JetStream stream with
//!   `Nats-Msg-Id` = event id, then stores its checkpoint in PostgreSQL.
//! - [`projector`] runs each [`Projection`] as a durable pull consumer; the read-model change and
//!   the projection's checkpoint commit in one database transaction, so redelivery is harmless.
//! - [`replay`] rebuilds read models straight from PostgreSQL into fresh tables and swaps them in
//!   without downtime.
//! - [`qrcodes`], [`accounts`] (with `account_members`), [`pix_keys`], [`payments`] (with
//!   `daily_totals` and `payment_day_totals`), [`payment_links`], [`signs`], [`subscriptions`] (with `subscription_charges`) and [`event_counts`] are the read models.
//!
//! Every long-running entry point stops when its [`CancellationToken`] is cancelled.

pub mod accounts;
pub mod checkpoint;
mod copy_in;
mod error;
pub mod event_counts;
pub mod jetstream;
pub mod lag;
mod locks;
pub mod metric_names;
mod parking;
pub mod payment_changes;
pub mod payment_links;
pub mod payments;
pub mod pix_keys;
mod projection;
pub mod projector;
pub mod qrcodes;
mod registry;
pub mod relay;
pub mod replay;
pub mod signs;
mod sql;
pub mod statement_imports;
pub mod status;
pub mod subscriptions;
mod wakeup;

pub use error::Error;
pub use jetstream::StreamSettings;
pub use projection::{ApplyError, Projection, TableSet};
pub use registry::{all, by_name};
/// The shutdown signal every long-running entry point takes: cancel it to stop them cleanly.
pub use tokio_util::sync::CancellationToken;
