//! Operations endpoints: health, readiness and metrics.
//!
//! Two listeners serve them:
//!
//! | listener | paths | for |
//! |---|---|---|
//! | public (`BALCAO_LISTEN`, `serve` only) | `/healthz`, `/readyz` | the load balancer |
//! | operations (`BALCAO_OPS_LISTEN`, loopback by default; one per process, every long-running role) | `/healthz`, `/readyz`, `/metrics` | probes, Prometheus |
//!
//! Readiness says what each role needs to do its job, and nothing more:
//!
//! - `serve` is ready when PostgreSQL answers. Writes and reads go to PostgreSQL only; NATS
//!   carries events to the projectors, and an outage there makes read models lag, which the
//!   read-your-writes wait and the lag metrics cover. So NATS's state is printed and exported
//!   (`balcao_nats_up`) but never takes a gateway out of the balancer.
//! - `relay` is ready when PostgreSQL and NATS answer and it is either the active relay or a
//!   standby waiting for the lock (the body says which; so does `balcao_relay_active`).
//! - `project` is ready when PostgreSQL and NATS answer and every projection it runs is active
//!   or standing by (none is failing and retrying).
//!
//! The public `/readyz` is `serve`'s; the operations `/readyz` answers 200 only when every role
//! of the process is ready, and lists each.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use projections::status::{Phase, Status};
use sqlx::PgPool;

use crate::state::AppState;

/// Gauge: 1 when this process's last round trip to NATS succeeded, 0 when it failed. Set at
/// each readiness check and scrape.
pub const NATS_UP: &str = "balcao_nats_up";

/// How long a readiness check waits for PostgreSQL or NATS to answer.
const CHECK_TIMEOUT: Duration = Duration::from_secs(2);

/// How long a scrape waits for each of its PostgreSQL readings (lag, parked events).
const OBSERVE_TIMEOUT: Duration = Duration::from_secs(3);

/// The process-wide Prometheus recorder, installed on first use (a process has only one).
pub fn metrics_handle() -> PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            let buckets = [
                0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
            ];
            let handle = PrometheusBuilder::new()
                .set_buckets(&buckets)
                .expect("bucket list is not empty")
                .install_recorder()
                .unwrap_or_else(|_| PrometheusBuilder::new().build_recorder().handle());
            commands::instruments::describe();
            handle
        })
        .clone()
}

/// `GET /healthz`: 200 while the process can answer.
pub async fn healthz() -> impl IntoResponse {
    (StatusCode::OK, "ok\n")
}

/// `GET /readyz` on the public listener: `serve`'s readiness. 200 when PostgreSQL answers,
/// else 503; the body also says whether NATS answers, which does not decide.
pub async fn readyz(State(state): State<AppState>) -> Response {
    let (database, nats) = tokio::join!(
        database_answers(&state.pool),
        nats_answers(state.nats.as_ref())
    );
    let report = Report {
        ready: database,
        lines: vec![
            format!("postgresql: {}", ok_or_down(database)),
            format!("nats: {}", ok_or_down(nats)),
        ],
    };
    report.into_response()
}

/// The relay this process runs, as the operations listener sees it.
#[derive(Clone)]
pub struct RelayWatch {
    /// The relay's pool.
    pub pool: PgPool,
    /// The stream it publishes to (its lock and checkpoint are per stream).
    pub stream: String,
    /// Its phase.
    pub status: Status,
}

/// The projectors this process runs, as the operations listener sees them.
#[derive(Clone)]
pub struct ProjectWatch {
    /// The projectors' pool.
    pub pool: PgPool,
    /// The projections it runs.
    pub projections: Vec<&'static str>,
    /// Their phases.
    pub status: Status,
}

/// Everything the operations listener looks at: the roles of this process.
#[derive(Clone)]
pub struct Watched {
    /// Renders `/metrics`.
    pub metrics: PrometheusHandle,
    /// The process's NATS connection.
    pub nats: async_nats::Client,
    /// The gateway's pool, when the process serves HTTP.
    pub serve: Option<PgPool>,
    /// The relay, when the process runs one.
    pub relay: Option<RelayWatch>,
    /// The projectors, when the process runs them.
    pub project: Option<ProjectWatch>,
}

impl Watched {
    /// Some pool of this process, for database-wide readings.
    fn any_pool(&self) -> Option<&PgPool> {
        self.serve
            .as_ref()
            .or(self.relay.as_ref().map(|r| &r.pool))
            .or(self.project.as_ref().map(|p| &p.pool))
    }
}

/// The operations listener's routes.
pub fn router(watched: Watched) -> Router {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(roles_readyz))
        .route("/metrics", get(metrics))
        .with_state(Arc::new(watched))
}

/// `GET /readyz` on the operations listener: every role of the process, 200 when all are ready.
async fn roles_readyz(State(watched): State<Arc<Watched>>) -> Response {
    let nats = nats_answers(Some(&watched.nats)).await;
    let mut report = Report {
        ready: true,
        lines: vec![format!("nats: {}", ok_or_down(nats))],
    };
    if let Some(pool) = &watched.serve {
        let database = database_answers(pool).await;
        report.role(
            "serve",
            database,
            if database { "pronto" } else { "sem PostgreSQL" },
        );
    }
    if let Some(relay) = &watched.relay {
        let database = database_answers(&relay.pool).await;
        let phase = relay.status.get(&relay.stream).unwrap_or(Phase::Starting);
        report.role(
            "relay",
            database && nats && phase.is_healthy(),
            &describe(phase, database, nats),
        );
    }
    if let Some(project) = &watched.project {
        let database = database_answers(&project.pool).await;
        for &name in &project.projections {
            let phase = project.status.get(name).unwrap_or(Phase::Starting);
            report.role(
                &format!("projeção {name}"),
                database && nats && phase.is_healthy(),
                &describe(phase, database, nats),
            );
        }
    }
    report.into_response()
}

/// A relay's or projector's state in words: its phase, and what it is missing.
fn describe(phase: Phase, database: bool, nats: bool) -> String {
    let mut text = phase.label().to_owned();
    if !database {
        text.push_str(", sem PostgreSQL");
    }
    if !nats {
        text.push_str(", sem NATS");
    }
    text
}

/// `GET /metrics` on the operations listener: every metric of the process, in the Prometheus
/// text format. Lag, parked events, the oldest transaction's age and NATS's state are read
/// fresh on every scrape, for the roles the process runs.
async fn metrics(State(watched): State<Arc<Watched>>) -> Response {
    // The gauges are process-wide: two scrapes observing at once (two scrapers, or several apps
    // in one test process) would each render the other's figures. Scrapes are rare; one at a
    // time costs nothing.
    static ONE_SCRAPE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    let _scraping = ONE_SCRAPE_AT_A_TIME.lock().await;
    nats_answers(Some(&watched.nats)).await;
    if let Some(pool) = watched.any_pool() {
        observe("the oldest transaction's age", async {
            commands::observe_oldest_transaction_age(pool)
                .await
                .map(drop)
        })
        .await;
    }
    if let Some(relay) = &watched.relay {
        observe(
            "the relay's lag",
            projections::lag::observe_relay(&relay.pool, &relay.stream, &relay.status),
        )
        .await;
    }
    if let Some(project) = &watched.project {
        observe(
            "the projections' lag",
            projections::lag::observe_projections(
                &project.pool,
                &project.projections,
                &project.status,
            ),
        )
        .await;
    }
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        watched.metrics.render(),
    )
        .into_response()
}

/// Runs one reading for a scrape; a failure or timeout is logged and the scrape goes on with
/// the gauge's previous value.
async fn observe<E: std::fmt::Display>(what: &str, reading: impl Future<Output = Result<(), E>>) {
    match tokio::time::timeout(OBSERVE_TIMEOUT, reading).await {
        Ok(Ok(())) => {}
        Ok(Err(error)) => tracing::warn!(%error, "could not read {what}"),
        Err(_) => tracing::warn!("reading {what} took longer than {OBSERVE_TIMEOUT:?}"),
    }
}

/// Whether PostgreSQL answers a trivial query through `pool` in time.
///
/// A failed query is tried once more within the same time: after a PostgreSQL restart a pooled
/// connection used within [`commands::PING_WHEN_IDLE_FOR`] is handed out unchecked and fails,
/// and is dropped then; the second try gets a fresh one, so readiness comes back with the
/// first probe after the database answers, not one probe per dead connection later.
async fn database_answers(pool: &PgPool) -> bool {
    let answers = async {
        for _ in 0..2 {
            if let Ok(1) = sqlx::query_scalar::<_, i32>("select 1")
                .fetch_one(pool)
                .await
            {
                return true;
            }
        }
        false
    };
    tokio::time::timeout(CHECK_TIMEOUT, answers)
        .await
        .unwrap_or(false)
}

/// Whether NATS answers a round trip in time (not the client's idea of its connection); sets
/// [`NATS_UP`].
async fn nats_answers(client: Option<&async_nats::Client>) -> bool {
    let up = match client {
        // Disconnected: say so at once rather than wait for a flush that cannot succeed.
        Some(client) if client.connection_state() == async_nats::connection::State::Connected => {
            matches!(
                tokio::time::timeout(CHECK_TIMEOUT, client.flush()).await,
                Ok(Ok(()))
            )
        }
        _ => false,
    };
    metrics::gauge!(NATS_UP).set(if up { 1.0 } else { 0.0 });
    up
}

fn ok_or_down(up: bool) -> &'static str {
    if up { "ok" } else { "indisponível" }
}

/// A readiness answer: 200 or 503, one line per thing checked.
struct Report {
    ready: bool,
    lines: Vec<String>,
}

impl Report {
    fn role(&mut self, name: &str, ready: bool, state: &str) {
        self.ready &= ready;
        self.lines.push(format!("{name}: {state}"));
    }
}

impl IntoResponse for Report {
    fn into_response(self) -> Response {
        let status = if self.ready {
            StatusCode::OK
        } else {
            StatusCode::SERVICE_UNAVAILABLE
        };
        let mut body = self.lines.join("\n");
        body.push('\n');
        (
            status,
            [
                (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
                (header::CACHE_CONTROL, "no-store"),
            ],
            body,
        )
            .into_response()
    }
}

/// Every metric name the gateway itself records (the other crates list theirs).
pub const METRIC_NAMES: &[&str] = &[
    NATS_UP,
    crate::server::OPEN_CONNECTIONS,
    crate::server::REFUSED_CONNECTIONS,
    crate::server::REFUSED_PER_ADDRESS,
    crate::mail::MAIL_COUNTER,
    crate::bank_catch_up::RUNS_TOTAL,
    crate::bank_catch_up::RECORDED_TOTAL,
    crate::bank_catch_up::FAILING_SECONDS,
    crate::bank_refunds::ATTEMPTS_TOTAL,
    crate::api::qrcodes::charge::CHARGES_TOTAL,
    crate::bank_certificates::WARNINGS_TOTAL,
];
