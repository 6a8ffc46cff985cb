//! The relay's "anything after my checkpoint?" probe, which also feeds the lag gauges, costs a few
//! index pages however long the log is — also under the generic plan PostgreSQL switches a
//! prepared statement to after five runs (which once turned a `count(*)` into a full scan).

use crate::support;

use sqlx::{AssertSqlSafe, Connection, PgConnection};
use support::TestEnv;

/// Events in the log: a year of a busy shop's sales and more.
const EVENTS: i64 = 1_000_000;
/// How many of them lie after the checkpoint.
const AFTER_CHECKPOINT: i64 = 9;

#[tokio::test]
async fn the_pending_probe_reads_a_handful_of_index_pages_in_a_log_of_a_million_events_under_a_generic_plan()
 {
    let env = TestEnv::start().await;
    sqlx::query(
        "insert into events (event_id, stream_type, stream_id, stream_version, event_type,
                             schema_version, payload)
         select gen_random_uuid(), 'plano', 'consulta', g, 'Preenchido', 1, '{}'::jsonb
           from generate_series(1, $1) as g",
    )
    .bind(EVENTS)
    .execute(&env.pool)
    .await
    .expect("fill the log");
    sqlx::query("analyze events")
        .execute(&env.pool)
        .await
        .expect("analyze");
    let (tx_id, global_position): (String, i64) = sqlx::query_as(
        "select tx_id::text, global_position from events
          order by global_position offset $1 limit 1",
    )
    .bind(EVENTS - AFTER_CHECKPOINT - 1)
    .fetch_one(&env.pool)
    .await
    .expect("the checkpoint near the end");

    let mut conn = PgConnection::connect_with(&env.pool.connect_options())
        .await
        .expect("a connection of its own");
    sqlx::raw_sql("set plan_cache_mode = force_generic_plan")
        .execute(&mut conn)
        .await
        .expect("generic plans only");
    sqlx::raw_sql(AssertSqlSafe(format!(
        "prepare pending(text, bigint) as {}",
        projections::lag::PENDING_AFTER
    )))
    .execute(&mut conn)
    .await
    .expect("prepare the probe");
    let execute = format!("execute pending('{tx_id}', {global_position})");
    let pending: i64 = sqlx::query_scalar(AssertSqlSafe(execute.clone()))
        .fetch_one(&mut conn)
        .await
        .expect("the probe answers");
    assert_eq!(pending, AFTER_CHECKPOINT);

    let plan: serde_json::Value = sqlx::query_scalar(AssertSqlSafe(format!(
        "explain (analyze, buffers, format json) {execute}"
    )))
    .fetch_one(&mut conn)
    .await
    .expect("explain the probe");
    let text = plan.to_string();
    assert!(!text.contains("Seq Scan"), "no scan of the log: {plan:#}");
    let mut pages = 0;
    count_buffers(&plan[0]["Plan"], &mut pages);
    assert!(pages < 100, "{pages} pages read for one probe: {plan:#}");
}

/// Shared buffers hit or read by the plan's top node (PostgreSQL's counts include its children).
fn count_buffers(node: &serde_json::Value, pages: &mut i64) {
    for key in ["Shared Hit Blocks", "Shared Read Blocks"] {
        *pages += node[key].as_i64().unwrap_or_default();
    }
}
