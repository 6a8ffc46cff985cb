//! Operations endpoints: `/healthz` (the process answers), `/readyz` (PostgreSQL and NATS answer)
//! and `/metrics` (Prometheus text format).

use std::sync::OnceLock;

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};

use crate::state::AppState;

/// How long `/readyz` waits for NATS to answer.
const NATS_PING_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(2);

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

/// `GET /readyz`: 200 when PostgreSQL and NATS both answer, else 503 naming what is down.
pub async fn readyz(State(state): State<AppState>) -> impl IntoResponse {
    let database = sqlx::query_scalar::<_, i32>("select 1")
        .fetch_one(&state.pool)
        .await
        .is_ok();
    // A round trip to the server, not the client's idea of its connection state.
    let nats = match &state.nats {
        Some(client) => matches!(
            tokio::time::timeout(NATS_PING_TIMEOUT, client.flush()).await,
            Ok(Ok(()))
        ),
        None => false,
    };
    let body = format!(
        "postgresql: {}\nnats: {}\n",
        if database { "ok" } else { "indisponível" },
        if nats { "ok" } else { "indisponível" }
    );
    let status = if database && nats {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (
        status,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        body,
    )
}

/// `GET /metrics`: every metric in the Prometheus text format. The age of the oldest open
/// transaction (what stalls the feed) is read fresh on every scrape.
pub async fn metrics(State(state): State<AppState>) -> impl IntoResponse {
    if let Err(error) = commands::observe_oldest_transaction_age(&state.pool).await {
        tracing::warn!(%error, "could not read the oldest transaction's age");
    }
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        state.metrics.render(),
    )
}
