//! Guard rails: connection settings that keep one stuck session from stalling the feed, and the
//! age of the oldest open transaction for an alert.
//!
//! The feed reads only below the transaction-id horizon, so any transaction left open (a forgotten
//! `BEGIN`, a hung request holding a transaction) pauses every reader until it ends. The
//! application's connections therefore get `statement_timeout`, `lock_timeout` and
//! `idle_in_transaction_session_timeout`, sent as startup options (no extra round trip per
//! connection).

use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{Connection, PgPool};

use crate::instruments;

/// How [`connect`] builds the application's pool. `Default` gives the values documented on each
/// field. A zero timeout means "off", as in PostgreSQL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PoolSettings {
    /// Largest number of open connections (default 10).
    pub max_connections: u32,
    /// Connections kept open even when idle (default 0).
    pub min_connections: u32,
    /// How long a caller waits for a free connection before `PoolTimedOut` (default 5 s).
    pub acquire_timeout: Duration,
    /// `statement_timeout`: the longest one statement may run (default 10 s).
    pub statement_timeout: Duration,
    /// `lock_timeout`: the longest a statement waits for a lock (default 5 s).
    pub lock_timeout: Duration,
    /// `idle_in_transaction_session_timeout`: how long a session may sit inside a transaction
    /// doing nothing before PostgreSQL ends it (default 15 s).
    pub idle_in_transaction_session_timeout: Duration,
    /// `application_name`, shown in `pg_stat_activity` (default `balcao`).
    pub application_name: String,
}

impl Default for PoolSettings {
    fn default() -> Self {
        PoolSettings {
            max_connections: 10,
            min_connections: 0,
            acquire_timeout: Duration::from_secs(5),
            statement_timeout: Duration::from_secs(10),
            lock_timeout: Duration::from_secs(5),
            idle_in_transaction_session_timeout: Duration::from_secs(15),
            application_name: "balcao".to_owned(),
        }
    }
}

/// Milliseconds for a PostgreSQL timeout setting (whole milliseconds; sub-millisecond rounds up, so
/// a tiny non-zero timeout never turns into "off").
fn millis(duration: Duration) -> u128 {
    let whole = duration.as_millis();
    if duration.subsec_nanos().is_multiple_of(1_000_000) {
        whole
    } else {
        whole.saturating_add(1)
    }
}

impl PoolSettings {
    /// `options` with this struct's session settings added (to any the URL already had).
    pub fn apply(&self, options: PgConnectOptions) -> PgConnectOptions {
        options.application_name(&self.application_name).options([
            (
                "statement_timeout",
                millis(self.statement_timeout).to_string(),
            ),
            ("lock_timeout", millis(self.lock_timeout).to_string()),
            (
                "idle_in_transaction_session_timeout",
                millis(self.idle_in_transaction_session_timeout).to_string(),
            ),
        ])
    }
}

/// A connection idle for longer than this is pinged before it is handed out ([`connect_with`]).
pub const PING_WHEN_IDLE_FOR: Duration = Duration::from_secs(1);

/// Opens the application's pool to `database_url` with `settings`' timeouts on every connection.
///
/// A connection that sat idle for more than [`PING_WHEN_IDLE_FOR`] is pinged before it is handed
/// out, and dropped (a new one opened in its place) if the ping fails. After a PostgreSQL
/// restart every pooled connection is dead: unchecked, each would fail one request (or one
/// readiness probe) before being dropped, so at low traffic the gateway answered 503 for
/// half a minute after the database was back. The ping is one round trip (a `Sync` message, no
/// query); connections in steady use are idle for less than a second and skip it, so it is
/// paid only when traffic is low, where it costs nothing anyone waits for. sqlx's own
/// `test_before_acquire` would ping on every acquire, under load too.
///
/// # Errors
///
/// When the URL does not parse or the first connection fails.
pub async fn connect(database_url: &str, settings: &PoolSettings) -> Result<PgPool, sqlx::Error> {
    let options: PgConnectOptions = database_url.parse()?;
    connect_with(options, settings).await
}

/// [`connect`] with already-parsed connect options.
///
/// # Errors
///
/// When the first connection fails.
pub async fn connect_with(
    options: PgConnectOptions,
    settings: &PoolSettings,
) -> Result<PgPool, sqlx::Error> {
    PgPoolOptions::new()
        .max_connections(settings.max_connections)
        .min_connections(settings.min_connections)
        .acquire_timeout(settings.acquire_timeout)
        .test_before_acquire(false)
        .before_acquire(|connection, meta| {
            Box::pin(async move {
                if meta.idle_for > PING_WHEN_IDLE_FOR {
                    connection.ping().await?;
                }
                Ok(true)
            })
        })
        .connect_with(settings.apply(options))
        .await
}

/// Age of the oldest transaction open in this database on a client connection (active or idle in
/// transaction), other than the caller's own; `None` when there is none.
///
/// Background workers (autovacuum and the like) are left out: they take no transaction id, so they
/// do not hold the feed's horizon back, and a long vacuum would otherwise look like a stall.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn oldest_transaction_age(pool: &PgPool) -> Result<Option<Duration>, sqlx::Error> {
    let micros: Option<i64> = sqlx::query_scalar(
        "select (extract(epoch from clock_timestamp() - min(xact_start)) * 1000000)::bigint
           from pg_stat_activity
          where datname = current_database()
            and backend_type = 'client backend'
            and pid <> pg_backend_pid()
            and state <> 'idle'
            and xact_start is not null",
    )
    .fetch_one(pool)
    .await?;
    Ok(micros.map(|us| Duration::from_micros(u64::try_from(us).unwrap_or_default())))
}

/// [`oldest_transaction_age`], also set as the gauge
/// [`balcao_oldest_transaction_age_seconds`](instruments::OLDEST_TRANSACTION_AGE_SECONDS) (0 when
/// none). Call it on every metrics scrape or on a timer.
///
/// # Errors
///
/// When PostgreSQL fails (the gauge is left as it was).
pub async fn observe_oldest_transaction_age(
    pool: &PgPool,
) -> Result<Option<Duration>, sqlx::Error> {
    let age = oldest_transaction_age(pool).await?;
    instruments::record_oldest_transaction_age(age);
    Ok(age)
}
