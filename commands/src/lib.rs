//! Command handling: the cqrs-es core over Balcão's own PostgreSQL event store.
//!
//! - [`PgEventStore`] appends and loads events (expected-version concurrency, event ids, metadata,
//!   read-path [`Upcasters`]) and implements the cqrs-es [`EventStore`](cqrs_es::EventStore) trait.
//! - [`CommandService`] runs one aggregate's commands: load, decide (`Aggregate::handle`), append,
//!   with bounded retries on version conflicts and idempotency keys; it answers a
//!   [`CommandOutcome`] carrying the [`FeedPosition`] for read-your-writes.
//! - [`Effects`] are the writes beside the log that a command needs (unique claims, account keys,
//!   single-use action codes issued or spent, sessions, an erased account's photo, codes and
//!   sessions): [`CommandService::execute_with`] applies them in the same PostgreSQL transaction
//!   as the append, so they take effect exactly when the events do.
//! - [`CommandService::create_streams`] creates many new streams (a batch of QR codes) in one
//!   transaction, all or nothing.
//! - [`claims`]: set-based uniqueness (one account per e-mail address, one txid per account), by
//!   digest.
//! - [`vault`]: one AES-256-GCM key per account, sealing the personal fields events carry into
//!   [`Sealed`](domain::sealed::Sealed) text; shredding the key makes them unreadable for good.
//! - [`action_codes`]: the single-use codes of the links sent by e-mail (only their SHA-256 is
//!   stored).
//! - [`qrcodes`]: making an account's QR codes (one, or a batch in one transaction), each txid
//!   claimed in its account with the code and counted against the plan's monthly limit
//!   ([`qrcode_usage`]) with it.
//! - [`sign_up`]: opening an account with its claim, key, first session and verification code
//!   in one transaction.
//! - [`team`]: the team workflows (invite, accept, remove a member), each invitation and its
//!   e-mailed link committed in one transaction.
//! - [`account_deletion`]: leaving the teams, then deleting the account with everything it holds
//!   beside the log in the deletion's transaction.
//! - [`pix_keys`]: the Pix keys workflow (seal, fingerprint, run the key ring's command).
//! - [`sessions`]: sign-in sessions and their rotating refresh tokens (only their SHA-256 is
//!   stored).
//! - [`photos`]: profile photos' bytes, kept out of the log and deleted with the account.
//! - [`secrets`]: secrets generated once and shared by every server (the access-token key).
//! - [`payments`]: the API Pix intake ([`payments::intake`]: parse, bound, check the key, seal)
//!   and a delivery's payment reports matched to their codes by txid claim, decided and appended
//!   in one transaction, under at most [`payments::LOCK_BUCKETS`] advisory locks per account.
//! - [`feed`] reads every committed event in the one order all readers agree on.
//! - [`connect`] and [`oldest_transaction_age`] are the guard rails that keep the feed moving.
//! - [`MIGRATOR`] holds every migration in `migrations/`; all crates use this one.

pub mod account_deletion;
pub mod action_codes;
pub mod api_keys;
pub mod api_pix_receivers;
pub mod bank_credentials;
pub mod bank_refunds;
mod batch;
pub mod claims;
mod effects;
mod error;
mod expected_version;
pub mod feed;
pub mod feed_copy;
mod idempotency;
pub mod instruments;
mod json_text;
mod metadata;
mod outcome;
pub mod payments;
pub mod photos;
pub mod pix_keys;
mod pool;
pub mod provider_deliveries;
pub mod qrcode_usage;
pub mod qrcodes;
pub mod secrets;
mod service;
pub mod sessions;
pub mod sign_up;
mod store;
mod store_cqrs;
mod stored_event;
pub mod team;
mod upcast;
pub mod vault;
pub mod webhooks;

pub use effects::Effects;
pub use error::{CommandError, storage_error_is_transient};
pub use expected_version::ExpectedVersion;
pub use feed::{FeedPosition, StoredEvent};
pub use idempotency::prune_idempotency_keys;
pub use json_text::JsonText;
pub use metadata::{CommandMetadata, IdempotencyKey, InvalidIdempotencyKey, RequestDigest};
pub use outcome::{BatchOutcome, CommandOutcome};
pub use pool::{
    PING_WHEN_IDLE_FOR, PoolSettings, connect, connect_with, observe_oldest_transaction_age,
    oldest_transaction_age,
};
pub use service::{CommandService, LoadedOrReplayed};
pub use store::{DEFAULT_MAX_RETRIES, LoadedAggregate, PgEventStore};
pub use store_cqrs::PgAggregateContext;
pub use upcast::{UpcastStep, Upcasters, parse_schema_version};

/// The channel the `events` insert trigger notifies (`LISTEN balcao_events`).
///
/// Notifications carry no payload and only say "read the feed again soon". They are gated: only one
/// inserting transaction at a time carries one, and transactions inserting while it is in flight
/// send none (see `migrations/0002_commands.sql`). So a listener must look again shortly (tens of
/// milliseconds) after each notification, and poll as well.
pub const EVENTS_CHANNEL: &str = "balcao_events";

/// Every migration in the workspace's `migrations/` folder, embedded at compile time.
///
/// Run it with `MIGRATOR.run(&pool)` or [`migrate`]. Every crate (gateway, projections, tests) uses
/// this one so the set of applied migrations is the same everywhere.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../migrations");

/// Applies every pending migration in [`MIGRATOR`].
///
/// Migrations may take longer than the application's `statement_timeout` on a large database; run
/// them on a pool made with a [`PoolSettings`] whose `statement_timeout` is zero (off) when that
/// matters.
///
/// # Errors
///
/// Fails when a migration fails or an applied migration's file changed since it was applied.
pub async fn migrate(pool: &sqlx::PgPool) -> Result<(), sqlx::migrate::MigrateError> {
    MIGRATOR.run(pool).await
}
