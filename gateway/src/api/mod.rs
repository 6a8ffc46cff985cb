//! The JSON API, nested at `/api`: identity ([`auth`]), the FAQ for the dashboard ([`faq`]),
//! then the workspace routes ([`workspace`]).
//!
//! Everything under `/api` answers JSON, errors included ([`error::ApiError`]): unknown paths
//! are 404 `not-found`, a wrong method 405 `method-not-allowed`, an over-long call 408 `timeout`
//! (see [`api_error_shape`]). Bodies are limited to [`MAX_JSON_BYTES`] unless a route sets its own
//! limit, and no answer is cached (`Cache-Control: no-store`: they carry tokens and personal
//! data).

pub mod auth;
pub mod error;
pub mod faq;
pub mod json;
pub mod keys;
pub mod workspace;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Request};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tower_http::set_header::SetResponseHeaderLayer;

use crate::state::AppState;
use error::ApiError;

/// Largest JSON body the API accepts (its requests are a few fields each).
pub const MAX_JSON_BYTES: usize = 16 * 1024;

/// The API's routes, to nest at `/api`.
pub fn router() -> Router<AppState> {
    Router::new()
        .nest("/auth", auth::router())
        .route("/faq", axum::routing::get(faq::faq))
        .merge(workspace::router())
        // Issue 10: an account's Pix keys.
        .merge(keys::router())
        .fallback(|| async { ApiError::not_found() })
        .method_not_allowed_fallback(|| async { ApiError::method_not_allowed() })
        .layer(DefaultBodyLimit::max(MAX_JSON_BYTES))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CACHE_CONTROL,
            HeaderValue::from_static("no-store"),
        ))
}

/// The answer for an `/api` path no router claimed (`/api` and `/api/` themselves are not seen
/// by the nested router's fallback).
pub fn not_found() -> Response {
    let mut response = ApiError::not_found().into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// Whether `path` belongs to the API.
pub fn is_api_path(path: &str) -> bool {
    path == "/api" || path.starts_with("/api/")
}

/// Middleware for the whole router, outside the timeout layer: the timeout answers a bare 408,
/// which under `/api` becomes the API's JSON error, so the dashboard reads every failure the
/// same way.
pub async fn api_error_shape(request: Request, next: Next) -> Response {
    let is_api = is_api_path(request.uri().path());
    let response = next.run(request).await;
    if is_api
        && response.status() == StatusCode::REQUEST_TIMEOUT
        && !response.headers().contains_key(header::CONTENT_TYPE)
    {
        return ApiError::timeout().into_response();
    }
    response
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use axum::body::Body;
    use axum::routing::get;
    use tower::ServiceExt as _;
    use tower_http::timeout::TimeoutLayer;

    use super::*;

    async fn slow() -> &'static str {
        tokio::time::sleep(Duration::from_secs(5)).await;
        "tarde demais"
    }

    fn app() -> Router {
        Router::new()
            .route("/api/lento", get(slow))
            .route("/lento", get(slow))
            .layer(TimeoutLayer::with_status_code(
                StatusCode::REQUEST_TIMEOUT,
                Duration::from_millis(20),
            ))
            .layer(axum::middleware::from_fn(api_error_shape))
    }

    async fn call(path: &str) -> Response {
        app()
            .oneshot(Request::get(path).body(Body::empty()).expect("request"))
            .await
            .expect("answer")
    }

    #[tokio::test]
    async fn a_timeout_under_api_is_answered_as_an_api_error() {
        let response = call("/api/lento").await;
        assert_eq!(response.status(), StatusCode::REQUEST_TIMEOUT);
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 16)
            .await
            .expect("body");
        let body: serde_json::Value = serde_json::from_slice(&bytes).expect("JSON");
        assert_eq!(body["error"]["code"], "timeout");
    }

    #[tokio::test]
    async fn a_timeout_elsewhere_is_left_as_it_is() {
        let response = call("/lento").await;
        assert_eq!(response.status(), StatusCode::REQUEST_TIMEOUT);
        assert!(!response.headers().contains_key(header::CONTENT_TYPE));
    }
}
