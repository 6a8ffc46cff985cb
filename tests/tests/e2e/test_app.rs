//! The test app itself: a test that panics leaves no database, stream or folder behind.

use std::str::FromStr;

use sqlx::ConnectOptions;
use sqlx::postgres::PgConnectOptions;
use tests::TestApp;

#[tokio::test]
async fn a_test_that_panics_leaves_no_database_and_no_stream_behind() {
    let (made, what_was_made) = tokio::sync::oneshot::channel();
    let failing_test = tokio::spawn(async move {
        let app = TestApp::spawn().await;
        let _ = made.send((
            app.database_name().to_owned(),
            app.settings.nats_url.clone(),
            app.settings.nats_stream.clone(),
        ));
        panic!("this test fails on purpose, with its app still running");
    });
    let outcome = failing_test.await;
    assert!(outcome.is_err_and(|e| e.is_panic()), "the test panicked");
    let (database, nats_url, stream) = what_was_made.await.expect("the app had started");

    let server = std::env::var("DATABASE_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_owned());
    let mut admin = PgConnectOptions::from_str(&server)
        .expect("a PostgreSQL URL")
        .database("postgres")
        .connect()
        .await
        .expect("PostgreSQL answers");
    let left: i64 = sqlx::query_scalar("select count(*) from pg_database where datname = $1")
        .bind(&database)
        .fetch_one(&mut admin)
        .await
        .expect("pg_database");
    assert_eq!(left, 0, "the database {database} is gone");

    let jetstream =
        async_nats::jetstream::new(async_nats::connect(&nats_url).await.expect("NATS answers"));
    assert!(
        jetstream.get_stream(&stream).await.is_err(),
        "the stream {stream} is gone"
    );
}
