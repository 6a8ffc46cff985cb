//! A projection sees only the parts of events it says it reads ([`Projection::reads`]), live
//! and in a replay alike: a payload it forgot to name is missing in every test, not only in
//! the replay of a large log.

use crate::support;

use std::sync::Arc;

use async_trait::async_trait;
use commands::Upcasters;
use commands::feed::{FeedFields, StoredEvent};
use projections::replay::{self, ReplayOptions};
use projections::{ApplyError, CancellationToken, Projection, TableSet};
use serde_json::Value;
use sqlx::PgConnection;
use support::{NewEvent, TestEnv};
use uuid::Uuid;

const NAME: &str = "narrowed_seen";
const TABLE: &str = "narrowed_seen";

/// Writes down every event it is handed, payload and metadata as they came.
struct Recorder;

#[async_trait]
impl Projection for Recorder {
    fn name(&self) -> &'static str {
        NAME
    }

    fn tables(&self) -> &'static [&'static str] {
        &[TABLE]
    }

    fn reads(&self) -> FeedFields {
        FeedFields::payloads_of(&["qrcode"])
    }

    async fn apply_batch(
        &self,
        conn: &mut PgConnection,
        target: &TableSet,
        _upcasters: &Upcasters,
        events: &[StoredEvent],
    ) -> Result<(), ApplyError> {
        for event in events {
            sqlx::query(sqlx::AssertSqlSafe(format!(
                "insert into {} (event_id, stream_type, payload, metadata) values ($1, $2, $3, $4)",
                target.table(TABLE)
            )))
            .bind(event.event_id)
            .bind(&event.stream_type)
            .bind(&event.payload)
            .bind(&event.metadata)
            .execute(&mut *conn)
            .await?;
        }
        Ok(())
    }
}

async fn seen(env: &TestEnv) -> Vec<(Uuid, String, Value, Value)> {
    sqlx::query_as(
        "select event_id, stream_type, payload, metadata from narrowed_seen order by event_id",
    )
    .fetch_all(&env.pool)
    .await
    .unwrap()
}

#[tokio::test]
async fn a_projection_gets_only_the_payloads_it_names_and_no_metadata_live_and_in_replay() {
    let env = TestEnv::start().await;
    // A read model's table comes from the migrations; this test's own comes from here.
    sqlx::query(
        "create table narrowed_seen (event_id uuid primary key, stream_type text not null,
                                     payload jsonb not null, metadata jsonb not null)",
    )
    .execute(&env.pool)
    .await
    .unwrap();
    let code = Uuid::now_v7();
    env.insert(&[
        NewEvent::qrcode_created(code, Some(1_250)),
        NewEvent::other("payment", "PaymentConfirmed"),
    ])
    .await;

    let shutdown = CancellationToken::new();
    let relay = env.spawn_relay(env.relay_config("a"), &shutdown);
    let projector = env.spawn_projector(vec![Arc::new(Recorder)], &shutdown);
    env.wait_for_projection(NAME, env.last_position().await)
        .await;
    shutdown.cancel();
    relay.await.unwrap().unwrap();
    projector.await.unwrap().unwrap();

    let live = seen(&env).await;
    assert_eq!(live.len(), 2);
    let by_stream = |stream: &str| live.iter().find(|row| row.1 == stream).unwrap().clone();
    assert_eq!(by_stream("qrcode").2["qrcode_id"], code.to_string());
    assert_eq!(by_stream("payment").2, Value::Null, "not a stream it reads");
    assert!(live.iter().all(|row| row.3 == Value::Null), "no metadata");

    let reports = replay::replay(&env.pool, &[Arc::new(Recorder)], &ReplayOptions::default())
        .await
        .unwrap();
    assert_eq!(reports[0].events, 2);
    assert_eq!(seen(&env).await, live, "replay hands it the same");
}
