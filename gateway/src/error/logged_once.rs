//! Each failure is logged once, with its method, route, status and cause, whichever edge drew
//! it (`crate::telemetry::log_failures` reads the cause the error left in the response).

use std::io::Write;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::Body;
use axum::extract::Request;
use axum::routing::get;
use tower::ServiceExt as _;
use tracing_subscriber::fmt::MakeWriter;

use super::{ApiError, AppError};

/// Everything the subscriber writes, to read back.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("lock").extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> MakeWriter<'a> for Captured {
    type Writer = Captured;

    fn make_writer(&'a self) -> Self::Writer {
        self.clone()
    }
}

async fn log_lines_of(path: &str) -> Vec<String> {
    let captured = Captured::default();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(captured.clone())
        .with_ansi(false)
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);
    let app = Router::new()
        .route(
            "/api/codigos/{id}",
            get(|| async { ApiError::internal(anyhow::anyhow!("disco cheio")) }),
        )
        .route(
            "/pagina/{id}",
            get(|| async { AppError::Internal(anyhow::anyhow!("banco travado")) }),
        )
        .route("/recusa", get(|| async { ApiError::not_found() }))
        .route(
            "/placa/{id}",
            get(|| async { crate::html::render_failure(&"variável ausente") }),
        )
        .layer(axum::middleware::from_fn(crate::telemetry::log_failures))
        .layer(tower_http::trace::TraceLayer::new_for_http().on_failure(()));
    let response = app
        .oneshot(Request::get(path).body(Body::empty()).expect("request"))
        .await
        .expect("answer");
    drop(response);
    let text = String::from_utf8(captured.0.lock().expect("lock").clone()).expect("UTF-8");
    text.lines()
        .filter(|line| line.contains("ERROR") || line.contains("WARN"))
        .map(str::to_owned)
        .collect()
}

#[tokio::test(flavor = "current_thread")]
async fn a_failed_api_call_is_logged_once_with_its_method_route_status_and_cause() {
    let lines = log_lines_of("/api/codigos/123").await;
    assert_eq!(lines.len(), 1, "{lines:#?}");
    let line = &lines[0];
    for part in ["GET", "/api/codigos/{id}", "500", "disco cheio"] {
        assert!(line.contains(part), "{part} missing from {line}");
    }
    assert!(
        !line.contains("/api/codigos/123"),
        "the raw path leaked: {line}"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn a_failed_page_is_logged_once_with_its_cause() {
    let lines = log_lines_of("/pagina/7").await;
    assert_eq!(lines.len(), 1, "{lines:#?}");
    assert!(lines[0].contains("banco travado"), "{}", lines[0]);
    assert!(lines[0].contains("/pagina/{id}"), "{}", lines[0]);
}

#[tokio::test(flavor = "current_thread")]
async fn a_page_whose_template_failed_is_logged_once_with_its_route_and_cause() {
    let lines = log_lines_of("/placa/7").await;
    assert_eq!(lines.len(), 1, "{lines:#?}");
    assert!(lines[0].contains("variável ausente"), "{}", lines[0]);
    assert!(lines[0].contains("/placa/{id}"), "{}", lines[0]);
}

#[tokio::test(flavor = "current_thread")]
async fn a_plain_refusal_is_not_logged() {
    assert!(log_lines_of("/recusa").await.is_empty());
}
