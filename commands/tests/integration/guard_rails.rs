//! Guard rails on a real PostgreSQL: session timeouts on the application's connections, and the age
//! of the oldest open transaction.

use crate::common;

use std::time::Duration;

use commands::{CommandError, PoolSettings, oldest_transaction_age};
use common::TestDb;
use metrics_util::debugging::{DebugValue, DebuggingRecorder};
use sqlx::Connection;

async fn show(pool: &sqlx::PgPool, setting: &'static str) -> String {
    let sql = match setting {
        "statement_timeout" => "show statement_timeout",
        "lock_timeout" => "show lock_timeout",
        "idle_in_transaction_session_timeout" => "show idle_in_transaction_session_timeout",
        _ => "show application_name",
    };
    sqlx::query_scalar(sql).fetch_one(pool).await.unwrap()
}

#[tokio::test]
async fn the_pools_connections_carry_the_configured_timeouts() {
    let settings = PoolSettings {
        statement_timeout: Duration::from_millis(1_234),
        lock_timeout: Duration::from_millis(567),
        idle_in_transaction_session_timeout: Duration::from_millis(8_900),
        application_name: "balcao-teste".to_owned(),
        ..PoolSettings::default()
    };
    let db = TestDb::with_settings(&settings).await;

    assert_eq!(show(&db.pool, "statement_timeout").await, "1234ms");
    assert_eq!(show(&db.pool, "lock_timeout").await, "567ms");
    assert_eq!(
        show(&db.pool, "idle_in_transaction_session_timeout").await,
        "8900ms"
    );
    assert_eq!(show(&db.pool, "application_name").await, "balcao-teste");
}

#[tokio::test]
async fn the_default_settings_turn_every_timeout_on() {
    let db = TestDb::new().await;
    assert_eq!(show(&db.pool, "statement_timeout").await, "10s");
    assert_eq!(show(&db.pool, "lock_timeout").await, "5s");
    assert_eq!(
        show(&db.pool, "idle_in_transaction_session_timeout").await,
        "15s"
    );
}

#[tokio::test]
async fn a_statement_running_past_the_timeout_is_cancelled_and_maps_to_503() {
    let settings = PoolSettings {
        statement_timeout: Duration::from_millis(100),
        ..PoolSettings::default()
    };
    let db = TestDb::with_settings(&settings).await;

    let error = sqlx::query("select pg_sleep(2)")
        .execute(&db.pool)
        .await
        .unwrap_err();

    let code = error
        .as_database_error()
        .and_then(|e| e.code())
        .map(|c| c.into_owned());
    assert_eq!(code.as_deref(), Some("57014"));
    assert_eq!(
        CommandError::<std::io::Error>::Storage(error).status_code(),
        503
    );
}

#[tokio::test]
async fn a_session_left_idle_inside_a_transaction_is_ended() {
    let settings = PoolSettings {
        idle_in_transaction_session_timeout: Duration::from_millis(100),
        ..PoolSettings::default()
    };
    let db = TestDb::with_settings(&settings).await;
    let mut conn = db.pool.acquire().await.unwrap();

    let mut forgotten = conn.begin().await.unwrap();
    sqlx::query("select 1")
        .execute(&mut *forgotten)
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(400)).await;

    assert!(
        sqlx::query("select 1")
            .execute(&mut *forgotten)
            .await
            .is_err(),
        "the idle transaction survived its timeout"
    );
}

#[tokio::test]
async fn reports_the_age_of_the_oldest_open_transaction() {
    let db = TestDb::new().await;
    let mut other = db.connection().await;
    assert_eq!(oldest_transaction_age(&db.pool).await.unwrap(), None);

    let mut open = other.begin().await.unwrap();
    sqlx::query("select 1").execute(&mut *open).await.unwrap();
    tokio::time::sleep(Duration::from_millis(60)).await;
    let age = oldest_transaction_age(&db.pool).await.unwrap().unwrap();
    assert!(age >= Duration::from_millis(60), "{age:?}");
    assert!(age < Duration::from_secs(30), "{age:?}");

    open.commit().await.unwrap();
    assert_eq!(oldest_transaction_age(&db.pool).await.unwrap(), None);
}

#[tokio::test]
async fn observing_the_oldest_transaction_sets_its_gauge() {
    let recorder = DebuggingRecorder::new();
    let snapshotter = recorder.snapshotter();
    let _recording = metrics::set_default_local_recorder(&recorder);
    let db = TestDb::new().await;
    let mut other = db.connection().await;
    let mut open = other.begin().await.unwrap();
    sqlx::query("select 1").execute(&mut *open).await.unwrap();
    tokio::time::sleep(Duration::from_millis(20)).await;

    commands::observe_oldest_transaction_age(&db.pool)
        .await
        .unwrap();

    let gauge = snapshotter
        .snapshot()
        .into_vec()
        .into_iter()
        .find(|(key, _, _, _)| key.key().name() == "balcao_oldest_transaction_age_seconds")
        .map(|(_, _, _, value)| value);
    match gauge {
        Some(DebugValue::Gauge(seconds)) => assert!(seconds.into_inner() >= 0.02, "{seconds}"),
        other => panic!("expected the gauge, got {other:?}"),
    }
    open.commit().await.unwrap();
}
