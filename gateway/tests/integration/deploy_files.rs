//! The Grafana dashboard and the Prometheus alert rules in `deploy/` name only metrics the code
//! exports, so a renamed metric cannot leave a silent alert behind; and what the binary writes
//! for a deployment's log collector is plain text.

use std::collections::BTreeSet;
use std::path::PathBuf;

/// Every metric name the code records, from each crate's list of names.
fn exported() -> BTreeSet<&'static str> {
    let mut names: BTreeSet<&'static str> = BTreeSet::new();
    names.extend(projections::metric_names::ALL);
    names.extend(gateway::ops::METRIC_NAMES);
    names.extend([
        commands::instruments::COMMAND_DURATION_SECONDS,
        commands::instruments::COMMANDS_TOTAL,
        commands::instruments::COMMAND_RETRIES_TOTAL,
        commands::instruments::OLDEST_TRANSACTION_AGE_SECONDS,
    ]);
    names
}

fn deploy_file(relative: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../deploy")
        .join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every `balcao_…` word in `text`.
fn metric_words(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|word| word.starts_with("balcao_"))
        .map(str::to_owned)
        .collect()
}

/// The exported metric a word refers to: itself, or the histogram a `_bucket`, `_sum` or
/// `_count` series belongs to.
fn resolve<'a>(word: &str, exported: &BTreeSet<&'a str>) -> Option<&'a str> {
    let base = ["_bucket", "_sum", "_count"]
        .iter()
        .find_map(|suffix| word.strip_suffix(suffix))
        .filter(|base| exported.contains(base))
        .unwrap_or(word);
    exported.get(base).copied()
}

#[test]
fn the_dashboard_and_the_alert_rules_name_only_metrics_the_code_exports() {
    let exported = exported();
    for file in ["grafana/balcao.json", "prometheus/alerts.yml"] {
        let text = deploy_file(file);
        let words = metric_words(&text);
        assert!(!words.is_empty(), "{file} names no metric");
        let unknown: Vec<&String> = words
            .iter()
            .filter(|word| resolve(word, &exported).is_none())
            .collect();
        assert!(
            unknown.is_empty(),
            "{file} names unknown metrics: {unknown:?}"
        );
    }
}

#[test]
fn the_alert_rules_watch_lag_parked_events_leadership_and_transport() {
    let words = metric_words(&deploy_file("prometheus/alerts.yml"));
    for needed in [
        projections::metric_names::RELAY_LAG_SECONDS,
        projections::metric_names::RELAY_ACTIVE,
        projections::metric_names::PROJECTION_LAG_SECONDS,
        projections::metric_names::PROJECTOR_ACTIVE,
        projections::metric_names::PARKED_EVENTS,
        commands::instruments::OLDEST_TRANSACTION_AGE_SECONDS,
        gateway::ops::NATS_UP,
        // Per bank connection (issue 33): a key whose bank fails the catch-up.
        gateway::bank_catch_up::FAILING_SECONDS,
        gateway::bank_refunds::ATTEMPTS_TOTAL,
    ] {
        assert!(words.contains(needed), "no alert on {needed}");
    }
}

#[test]
fn the_dashboard_is_valid_json_with_panels() {
    let dashboard: serde_json::Value =
        serde_json::from_str(&deploy_file("grafana/balcao.json")).expect("valid JSON");
    let panels = dashboard["panels"].as_array().expect("a panel list");
    assert!(panels.len() > 5, "{} panels", panels.len());
}

/// `make run`'s log piped to a file (or a service manager's journal) is plain text: colour is
/// for terminals only (issue 34, item 6).
#[tokio::test]
async fn a_log_written_to_a_pipe_carries_no_colour_codes() {
    use sqlx::{ConnectOptions, Connection};

    let server = std::env::var("DATABASE_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_owned());
    // The server's maintenance database: the one `DATABASE_URL` names may not exist yet.
    let admin = server
        .parse::<sqlx::postgres::PgConnectOptions>()
        .expect("DATABASE_URL")
        .database("postgres");
    let database = format!("balcao_plain_log_{}", uuid::Uuid::now_v7().simple());
    let mut conn = admin.connect().await.expect("PostgreSQL");
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "create database \"{database}\""
    )))
    .execute(&mut conn)
    .await
    .expect("a fresh database");
    let url = admin.clone().database(&database).to_url_lossy().to_string();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_balcao"))
        .arg("migrate")
        .env("DATABASE_URL", &url)
        .env("RUST_LOG", "info")
        .env_remove("NO_COLOR")
        .output()
        .expect("balcao migrate runs");
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "drop database if exists \"{database}\" with (force)"
    )))
    .execute(&mut conn)
    .await
    .ok();
    conn.close().await.ok();
    assert!(output.status.success(), "{output:?}");
    let log = [output.stdout, output.stderr].concat();
    let text = String::from_utf8_lossy(&log);
    assert!(
        text.contains("INFO"),
        "the migration logs something: {text}"
    );
    assert!(!text.contains('\u{1b}'), "no escape codes: {text:?}");
}
