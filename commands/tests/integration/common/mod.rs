//! Helpers shared by the integration tests: a fresh PostgreSQL database per test, and a small
//! ledger aggregate to drive the store with.

pub mod codes;
pub mod ledger;

use commands::feed::{FeedPosition, StoredEvent, read_after};
use commands::{PgEventStore, PoolSettings, Upcasters};
use sqlx::postgres::{PgConnectOptions, PgPool};
use sqlx::{AssertSqlSafe, Connection, PgConnection};
use uuid::Uuid;

/// Where the tests create their databases: `DATABASE_URL` (any database on the server, used only
/// to run `create database`/`drop database`), or the local development server.
pub fn admin_url() -> String {
    std::env::var("DATABASE_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_owned())
}

/// A database of its own for one test, migrated with `commands::MIGRATOR`, dropped when this value
/// is dropped (also when the test panics).
pub struct TestDb {
    /// The application pool, made by `commands::connect_with`.
    pub pool: PgPool,
    /// The database's name, `balcao_test_<uuid>`.
    pub name: String,
    admin: PgConnectOptions,
}

impl TestDb {
    /// A fresh database with the default pool settings.
    pub async fn new() -> TestDb {
        TestDb::with_settings(&PoolSettings::default()).await
    }

    /// A fresh database whose pool uses `settings`.
    pub async fn with_settings(settings: &PoolSettings) -> TestDb {
        // Only the server matters: databases are created from the maintenance database, so a
        // DATABASE_URL naming a database that does not exist yet (as `make` sets it) works.
        let admin: PgConnectOptions = admin_url()
            .parse::<PgConnectOptions>()
            .expect("DATABASE_URL parses")
            .database("postgres");
        let name = format!("balcao_test_{}", Uuid::new_v4().simple());
        let mut conn = PgConnection::connect_with(&admin)
            .await
            .expect("PostgreSQL is reachable (set DATABASE_URL)");
        sqlx::query(AssertSqlSafe(format!("create database {name}")))
            .execute(&mut conn)
            .await
            .expect("create the test database");
        conn.close().await.ok();
        let db = TestDb {
            pool: commands::connect_with(admin.clone().database(&name), settings)
                .await
                .expect("connect to the test database"),
            name,
            admin,
        };
        commands::MIGRATOR
            .run(&db.pool)
            .await
            .expect("migrations apply to a fresh database");
        db
    }

    /// Connect options for this database.
    pub fn options(&self) -> PgConnectOptions {
        self.admin.clone().database(&self.name)
    }

    /// Another connection to this database, outside the pool (to stage transactions by hand).
    pub async fn connection(&self) -> PgConnection {
        PgConnection::connect_with(&self.options())
            .await
            .expect("connect to the test database")
    }

    /// An event store over the pool, with the application's upcasters (none yet).
    pub fn store(&self) -> PgEventStore {
        PgEventStore::new(self.pool.clone())
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        let admin = self.admin.clone();
        let name = self.name.clone();
        // Drop runs inside the test's runtime, where blocking on a future is not allowed: use a
        // thread with a runtime of its own. `with (force)` ends the pool's open connections.
        let dropped = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a runtime to drop the test database");
            runtime.block_on(async move {
                let mut conn = PgConnection::connect_with(&admin).await?;
                sqlx::query(AssertSqlSafe(format!(
                    "drop database if exists {name} with (force)"
                )))
                .execute(&mut conn)
                .await?;
                conn.close().await
            })
        })
        .join();
        if !matches!(dropped, Ok(Ok(()))) {
            eprintln!("could not drop test database {}", self.name);
        }
    }
}

/// Insert one event row by hand on `conn` (inside whatever transaction it has open), the way an
/// older version of the application or another writer would have.
pub async fn insert_raw_event(
    conn: &mut PgConnection,
    stream_id: &str,
    stream_version: i64,
    event_type: &str,
    schema_version: i32,
    payload: serde_json::Value,
) -> i64 {
    sqlx::query_scalar(
        "insert into events (event_id, stream_type, stream_id, stream_version, event_type,
                             schema_version, payload)
         values ($1, 'ledger', $2, $3, $4, $5, $6)
         returning global_position",
    )
    .bind(Uuid::now_v7())
    .bind(stream_id)
    .bind(stream_version)
    .bind(event_type)
    .bind(schema_version)
    .bind(payload)
    .fetch_one(conn)
    .await
    .expect("insert an event by hand")
}

/// Reads the feed after `after` until it holds at least `at_least` events (or 10 s pass), and
/// returns what it holds then.
///
/// The transaction-id horizon is cluster-wide: a transaction open in *any* database of the server
/// (another test, another engineer's suite) holds every feed back until it ends. So a test must
/// wait for its committed events to come into view; it can never see them out of order or see a
/// rolled-back one, which is what the assertions check.
pub async fn read_feed_until(
    pool: &PgPool,
    after: FeedPosition,
    at_least: usize,
) -> Vec<StoredEvent> {
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let events = read_after(pool, &Upcasters::application(), after, 1_000)
            .await
            .expect("read the feed");
        if events.len() >= at_least || tokio::time::Instant::now() >= deadline {
            return events;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
}

/// A new random stream id.
pub fn new_stream() -> String {
    format!("ledger-{}", Uuid::now_v7())
}
