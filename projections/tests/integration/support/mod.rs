//! Helpers shared by the integration tests: a fresh PostgreSQL database and a JetStream stream
//! of its own per test, events inserted straight into `events`, and polling with deadlines.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use async_nats::jetstream;
use commands::feed::FeedPosition;
use projections::projector::ProjectorConfig;
use projections::relay::RelayConfig;
use projections::{CancellationToken, Projection, StreamSettings};
use serde_json::{Value, json};
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{AssertSqlSafe, Connection, PgConnection, PgPool};
use tokio::task::JoinHandle;
use uuid::Uuid;

/// How long a test waits for something that should happen within milliseconds.
pub const PATIENCE: Duration = Duration::from_secs(20);

/// Any database on the test server (used to create and drop the per-test databases).
pub fn admin_url() -> String {
    std::env::var("DATABASE_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_owned())
}

/// The NATS server with JetStream.
pub fn nats_url() -> String {
    std::env::var("NATS_URL").unwrap_or_else(|_| "nats://127.0.0.1:4222".to_owned())
}

/// A database and a JetStream stream of its own for one test; both are dropped with it (also
/// when the test panics).
pub struct TestEnv {
    /// Pool on the test database.
    pub pool: PgPool,
    /// Database name, `balcao_test_<uuid>`.
    pub db_name: String,
    /// Connected NATS client.
    pub nats: async_nats::Client,
    /// Stream `BALCAO_TEST_<uuid>` on subjects `test.<uuid>.>`.
    pub stream: StreamSettings,
    admin: PgConnectOptions,
}

impl TestEnv {
    /// Creates and migrates a fresh database, and picks a unique stream name and subject prefix.
    pub async fn start() -> TestEnv {
        // Only the server matters: databases are created from the maintenance database, so a
        // DATABASE_URL naming a database that does not exist yet (as `make` sets it) works.
        let admin: PgConnectOptions = admin_url()
            .parse::<PgConnectOptions>()
            .expect("DATABASE_URL parses")
            .database("postgres");
        let id = Uuid::new_v4().simple().to_string();
        let db_name = format!("balcao_test_{id}");
        let mut conn = PgConnection::connect_with(&admin)
            .await
            .expect("PostgreSQL is reachable (set DATABASE_URL)");
        sqlx::query(AssertSqlSafe(format!("create database {db_name}")))
            .execute(&mut conn)
            .await
            .expect("create the test database");
        conn.close().await.ok();
        let pool = PgPoolOptions::new()
            .max_connections(8)
            .connect_with(admin.clone().database(&db_name))
            .await
            .expect("connect to the test database");
        commands::MIGRATOR
            .run(&pool)
            .await
            .expect("migrations apply to a fresh database");
        let nats = async_nats::connect(nats_url())
            .await
            .expect("NATS is reachable (set NATS_URL)");
        let stream = StreamSettings {
            name: format!("BALCAO_TEST_{}", id.to_uppercase()),
            subject_prefix: format!("test.{id}.events"),
            storage: jetstream::stream::StorageType::File,
            replicas: 1,
            max_age: Duration::from_secs(3600),
            duplicate_window: Duration::from_secs(120),
        };
        TestEnv {
            pool,
            db_name,
            nats,
            stream,
            admin,
        }
    }

    /// A relay configuration for this test's stream with short intervals.
    pub fn relay_config(&self, instance: &str) -> RelayConfig {
        RelayConfig {
            stream: self.stream.clone(),
            batch_size: 500,
            poll_interval: Duration::from_millis(200),
            gather: Duration::from_millis(10),
            lock_retry_interval: Duration::from_millis(50),
            retry_window: Duration::from_secs(60),
            nats_timeout: Duration::from_secs(5),
            instance: instance.to_owned(),
            upcasters: commands::Upcasters::application(),
            fault: None,
        }
    }

    /// A projector configuration for this test's stream with short intervals.
    pub fn projector_config(&self) -> ProjectorConfig {
        ProjectorConfig {
            stream: self.stream.clone(),
            lock_retry_interval: Duration::from_millis(100),
            max_backoff: Duration::from_millis(500),
            instance: "test".to_owned(),
            ..ProjectorConfig::default()
        }
    }

    /// JetStream context on the test's connection.
    pub fn jetstream(&self) -> jetstream::Context {
        jetstream::new(self.nats.clone())
    }

    /// Starts a relay in the background.
    pub fn spawn_relay(
        &self,
        config: RelayConfig,
        shutdown: &CancellationToken,
    ) -> JoinHandle<Result<(), projections::Error>> {
        tokio::spawn(projections::relay::run(
            self.pool.clone(),
            self.nats.clone(),
            config,
            shutdown.clone(),
        ))
    }

    /// Starts the projector runtime in the background.
    pub fn spawn_projector(
        &self,
        projections: Vec<Arc<dyn Projection>>,
        shutdown: &CancellationToken,
    ) -> JoinHandle<Result<(), projections::Error>> {
        tokio::spawn(projections::projector::run(
            self.pool.clone(),
            self.nats.clone(),
            projections,
            self.projector_config(),
            shutdown.clone(),
        ))
    }

    /// Inserts events in one statement (one transaction); returns their feed positions in feed
    /// order.
    pub async fn insert(&self, events: &[NewEvent]) -> Vec<FeedPosition> {
        insert_events(&self.pool, events).await
    }

    /// The feed position of the newest event in the log.
    pub async fn last_position(&self) -> FeedPosition {
        let (tx, gp): (i64, i64) = sqlx::query_as(
            "select tx_id::text::bigint, global_position from events
              order by tx_id desc, global_position desc limit 1",
        )
        .fetch_one(&self.pool)
        .await
        .expect("the log holds events");
        FeedPosition {
            tx_id: u64::try_from(tx).expect("positive"),
            global_position: gp,
        }
    }

    /// Waits until the projection's checkpoint reaches `position`.
    pub async fn wait_for_projection(&self, projection: &str, position: FeedPosition) {
        let waited = projections::projector::wait_until(&self.pool, projection, position, PATIENCE)
            .await
            .expect("wait_until works");
        assert!(
            waited.reached(),
            "{projection} did not reach {position:?}: {waited:?}"
        );
    }

    /// Messages currently stored in the test's stream (0 before the relay created it).
    pub async fn stream_messages(&self) -> u64 {
        match self.jetstream().get_stream(&self.stream.name).await {
            Ok(mut stream) => stream.info().await.expect("stream info").state.messages,
            Err(_) => 0,
        }
    }

    /// Which relay instance (by `application_name`) holds the relay lock in this database.
    pub async fn relay_lock_holder(&self) -> Option<String> {
        sqlx::query_scalar(
            "select a.application_name::text
               from pg_locks l join pg_stat_activity a on a.pid = l.pid
              where l.locktype = 'advisory' and l.granted
                and l.database = (select oid from pg_database where datname = current_database())
                and a.application_name like 'balcao-relay %'",
        )
        .fetch_optional(&self.pool)
        .await
        .expect("query pg_locks")
    }
}

impl Drop for TestEnv {
    fn drop(&mut self) {
        let admin = self.admin.clone();
        let db_name = self.db_name.clone();
        let stream = self.stream.name.clone();
        // Drop runs inside the test's runtime, where blocking on a future is not allowed: use a
        // thread with a runtime of its own. `with (force)` ends the pool's open connections.
        let dropped = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a runtime to clean up");
            runtime.block_on(async move {
                if let Ok(client) = async_nats::connect(nats_url()).await {
                    jetstream::new(client).delete_stream(&stream).await.ok();
                }
                let mut conn = PgConnection::connect_with(&admin).await?;
                sqlx::query(AssertSqlSafe(format!(
                    "drop database if exists {db_name} with (force)"
                )))
                .execute(&mut conn)
                .await?;
                conn.close().await
            })
        })
        .join();
        if !matches!(dropped, Ok(Ok(()))) {
            eprintln!("could not drop test database {}", self.db_name);
        }
    }
}

/// An event to insert by hand.
#[derive(Debug, Clone)]
pub struct NewEvent {
    pub event_id: Uuid,
    pub stream_type: String,
    pub stream_id: String,
    pub stream_version: i64,
    pub event_type: String,
    pub schema_version: i32,
    pub payload: Value,
}

impl NewEvent {
    /// A `QrCodeCreated` event for a new QR code, as the domain writes it.
    pub fn qrcode_created(qrcode_id: Uuid, amount_centavos: Option<i64>) -> NewEvent {
        NewEvent {
            event_id: Uuid::now_v7(),
            stream_type: "qrcode".to_owned(),
            stream_id: qrcode_id.to_string(),
            stream_version: 1,
            event_type: "QrCodeCreated".to_owned(),
            schema_version: 1,
            payload: qrcode_payload(qrcode_id, amount_centavos),
        }
    }

    /// An event of another aggregate, which the `qrcodes` projection ignores.
    pub fn other(stream_type: &str, event_type: &str) -> NewEvent {
        NewEvent {
            event_id: Uuid::now_v7(),
            stream_type: stream_type.to_owned(),
            stream_id: Uuid::now_v7().to_string(),
            stream_version: 1,
            event_type: event_type.to_owned(),
            schema_version: 1,
            payload: json!({"note": "not a QR code"}),
        }
    }
}

/// A `QrCodeCreated` v1 payload.
pub fn qrcode_payload(qrcode_id: Uuid, amount_centavos: Option<i64>) -> Value {
    json!({
        "qrcode_id": qrcode_id,
        "owner_id": null,
        "key_kind": "email",
        "pix_key": "fulano@example.com",
        "merchant_name": "FULANO DE TAL",
        "merchant_city": "SAO PAULO",
        "amount_centavos": amount_centavos,
        "description": "Café",
        "txid": "***",
        "payload": "00020126...6304ABCD",
        "created_at": "2026-11-20T12:00:00Z"
    })
}

/// Inserts `events` in one multi-row statement and waits until the feed can read them; returns
/// their positions in feed order.
///
/// The feed and replay read below the transaction-id horizon, which is cluster-wide: a
/// transaction another test holds open in its own database keeps these committed events out of
/// a replay started at once (a test replaying straight after inserting saw `parked: 0` of 2 about
/// one run in three when the projections' tests became one binary). Returning only once they are
/// below the horizon makes "inserted" mean "readable", as the tests assume.
pub async fn insert_events(pool: &PgPool, events: &[NewEvent]) -> Vec<FeedPosition> {
    let rows: Vec<(i64, i64)> = sqlx::query_as(
        "insert into events (event_id, stream_type, stream_id, stream_version, event_type,
                             schema_version, payload, metadata)
         select e.event_id, e.stream_type, e.stream_id, e.stream_version, e.event_type,
                e.schema_version, e.payload, '{}'::jsonb
           from unnest($1::uuid[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::int[],
                       $7::jsonb[])
             as e(event_id, stream_type, stream_id, stream_version, event_type, schema_version,
                  payload)
         returning tx_id::text::bigint, global_position",
    )
    .bind(events.iter().map(|e| e.event_id).collect::<Vec<_>>())
    .bind(
        events
            .iter()
            .map(|e| e.stream_type.clone())
            .collect::<Vec<_>>(),
    )
    .bind(
        events
            .iter()
            .map(|e| e.stream_id.clone())
            .collect::<Vec<_>>(),
    )
    .bind(events.iter().map(|e| e.stream_version).collect::<Vec<_>>())
    .bind(
        events
            .iter()
            .map(|e| e.event_type.clone())
            .collect::<Vec<_>>(),
    )
    .bind(events.iter().map(|e| e.schema_version).collect::<Vec<_>>())
    .bind(events.iter().map(|e| e.payload.clone()).collect::<Vec<_>>())
    .fetch_all(pool)
    .await
    .expect("insert events");
    let mut positions: Vec<FeedPosition> = rows
        .into_iter()
        .map(|(tx, gp)| FeedPosition {
            tx_id: u64::try_from(tx).expect("positive"),
            global_position: gp,
        })
        .collect();
    positions.sort();
    if let Some(newest) = positions.last() {
        let tx_id = newest.tx_id.to_string();
        eventually("the inserted events fall below the horizon", || {
            let (pool, tx_id) = (pool.clone(), tx_id.clone());
            async move {
                sqlx::query_scalar::<_, bool>(
                    "select pg_snapshot_xmin(pg_current_snapshot()) > $1::text::xid8",
                )
                .bind(tx_id)
                .fetch_one(&pool)
                .await
                .expect("the horizon answers")
            }
        })
        .await;
    }
    positions
}

/// Polls `check` every 20 ms until it returns true; panics after [`PATIENCE`].
pub async fn eventually<F, Fut>(what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: Future<Output = bool>,
{
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while !check().await {
        assert!(
            tokio::time::Instant::now() < deadline,
            "timed out waiting for: {what}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Pulls every message currently in the stream through a throwaway consumer, in stream order.
pub async fn read_stream(env: &TestEnv) -> Vec<async_nats::jetstream::Message> {
    use futures::StreamExt;
    let stream = env
        .jetstream()
        .get_stream(&env.stream.name)
        .await
        .expect("the stream exists");
    let total = env.stream_messages().await;
    let consumer = stream
        .create_consumer(jetstream::consumer::pull::OrderedConfig {
            filter_subject: env.stream.all_subjects(),
            ..Default::default()
        })
        .await
        .expect("an ordered consumer");
    let mut messages = consumer.messages().await.expect("pull");
    let mut out = Vec::new();
    while (out.len() as u64) < total {
        let message = tokio::time::timeout(PATIENCE, messages.next())
            .await
            .expect("messages arrive")
            .expect("the stream goes on")
            .expect("a message");
        out.push(message);
    }
    out
}

/// Whether the projection's durable consumer has every message of the stream delivered and
/// acknowledged (acked or terminated).
pub async fn consumer_settled(env: &TestEnv, projection: &str) -> bool {
    let Ok(stream) = env.jetstream().get_stream(&env.stream.name).await else {
        return false;
    };
    let Ok(mut consumer) = stream
        .get_consumer::<jetstream::consumer::pull::Config>(projection)
        .await
    else {
        return false;
    };
    let Ok(info) = consumer.info().await else {
        return false;
    };
    info.num_pending == 0 && info.num_ack_pending == 0 && info.delivered.stream_sequence > 0
}

/// The `qrcodes` rows as comparable text, ordered by id.
pub async fn qrcode_rows(pool: &PgPool, table: &str) -> Vec<String> {
    sqlx::query_scalar(AssertSqlSafe(format!(
        "select t::text from {table} t order by qrcode_id"
    )))
    .fetch_all(pool)
    .await
    .expect("read qrcodes")
}

/// The `event_counts` rows as comparable text, ordered by key.
pub async fn event_count_rows(pool: &PgPool, table: &str) -> Vec<String> {
    sqlx::query_scalar(AssertSqlSafe(format!(
        "select t::text from {table} t order by stream_type, event_type"
    )))
    .fetch_all(pool)
    .await
    .expect("read event_counts")
}

/// The whole feed once it holds at least `at_least` events.
///
/// The transaction-id horizon is cluster-wide: a transaction open anywhere on the server (another
/// test, another suite) holds every feed back until it ends, so committed events may take a
/// moment to come into view.
pub async fn read_feed(pool: &PgPool, at_least: usize) -> Vec<commands::feed::StoredEvent> {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        let events = commands::feed::read_after(
            pool,
            &commands::Upcasters::application(),
            FeedPosition::default(),
            100_000,
        )
        .await
        .expect("read the feed");
        if events.len() >= at_least {
            return events;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the feed stays short"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}
