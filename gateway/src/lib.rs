//! Balcão's HTTP gateway (axum) and the roles of the `balcao` binary.
//!
//! [`build_router`] lists every route; handlers live in [`pages`] (askama pages), [`api`] (the
//! JSON API under `/api`), [`spa`] (the dashboard's built files) and [`ops`] (health, readiness,
//! metrics); [`server`] is the connection loop both listeners (public and operations) run. Errors
//! map to HTTP in one place per kind of answer: [`error::AppError`] for pages,
//! [`api::error::ApiError`] for the API.

pub mod api;
pub mod assets;
pub mod auth;
pub mod client_address;
pub mod config;
pub mod content;
pub mod error;
pub mod housekeeping;
pub mod html;
pub mod mail;
pub mod ops;
pub mod pages;
pub mod rate_limit;
pub mod read_your_writes;
pub mod roles;
pub mod server;
pub mod spa;
pub mod state;
pub mod telemetry;

use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::{any, get, post};
use tower_http::compression::CompressionLayer;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;

use crate::error::AppError;
use crate::pages::{
    articles, home, institutional, pay_link, payment, seo, sign_created, sign_form,
};
use crate::state::AppState;

/// Largest request body accepted (forms are small; this bounds abuse).
const MAX_BODY_BYTES: usize = 64 * 1024;
/// Longest a request may take before the server answers 408.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// Every route of the gateway.
pub fn build_router(state: AppState) -> Router {
    Router::new()
        // Public pages.
        .route("/", get(home::home))
        .route("/blog", get(articles::blog))
        .route("/privacidade", get(institutional::privacy))
        .route("/termos-de-uso", get(institutional::terms))
        .route("/sobre-nos", get(institutional::about))
        .route("/api-pix", get(institutional::api_pix))
        .route("/painel/duvidas", get(institutional::faq))
        // 301, as the dashboard's contract says (axum's `Redirect::permanent` is a 308).
        .route(
            "/painel/index_old",
            get(|| async {
                (
                    StatusCode::MOVED_PERMANENTLY,
                    [(header::LOCATION, "/painel")],
                )
            }),
        )
        // The visitor's flow: make a sign, then the payer page.
        .route(
            "/criar-placa-pix",
            get(sign_form::show).post(sign_form::submit),
        )
        .route("/pagamento/{qrcode_id}", get(payment::show))
        .route("/pagamento/{qrcode_id}/placa", get(payment::sign))
        // Issue 10: a visitor's sign just made (and its management link), payment links.
        .route("/placa-pix-criada", get(sign_created::bare))
        .route("/placa-pix-criada/{qrcode_id}", get(sign_created::show))
        .route(
            "/placa-pix-criada/{qrcode_id}/enviar-link",
            post(sign_created::send_link),
        )
        .route("/pagar", get(pay_link::show))
        // The dashboard (`/entrar`, `/criar-conta`, …, `/painel/*`) and its JSON API.
        .merge(spa::routes())
        .nest("/api", api::router())
        // Profile photos, loaded by `<img>` without a token (`api::workspace::photo`).
        .merge(api::workspace::public_routes())
        // Else `/{slug}` would answer `/api` with the HTML 404 page.
        .route("/api", any(|| async { api::not_found() }))
        // Findability and assets.
        .route("/sitemap.xml", get(seo::sitemap))
        .route("/robots.txt", get(seo::robots))
        .route("/favicon.svg", get(assets::favicon))
        .route("/static/{name}", get(assets::serve_static))
        // Operations, for the load balancer; `/metrics` is on the operations listener only
        // (`ops::router`), which is not public.
        .route("/healthz", get(ops::healthz))
        .route("/readyz", get(ops::readyz))
        // Articles live at the root: `/{slug}`; anything else there is the 404 page.
        .route("/{slug}", get(articles::article))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            REQUEST_TIMEOUT,
        ))
        .layer(axum::middleware::from_fn(api::api_error_shape))
        .layer(CompressionLayer::new())
        .layer(TraceLayer::new_for_http())
        .layer(header_layer(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(header_layer(header::X_FRAME_OPTIONS, "DENY"))
        .layer(header_layer(
            header::REFERRER_POLICY,
            "strict-origin-when-cross-origin",
        ))
        .layer(header_layer(
            header::CONTENT_SECURITY_POLICY,
            CONTENT_SECURITY_POLICY,
        ))
        .with_state(state)
}

/// Sets `name` on every response that does not already have it (no sniffing, no framing, a strict
/// referrer policy, the content security policy).
fn header_layer(
    name: header::HeaderName,
    value: &'static str,
) -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::if_not_present(name, HeaderValue::from_static(value))
}

/// The content security policy: only our own scripts and styles, plus the tag manager, which the
/// consent script loads only after the visitor accepts.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self' https://www.googletagmanager.com; \
     style-src 'self'; img-src 'self' data: https://www.google-analytics.com https://www.googletagmanager.com; \
     connect-src 'self' https://*.google-analytics.com https://*.analytics.google.com https://www.googletagmanager.com; \
     frame-ancestors 'none'; base-uri 'self'; form-action 'self'";

async fn not_found(uri: axum::http::Uri) -> axum::response::Response {
    if api::is_api_path(uri.path()) {
        return api::not_found();
    }
    AppError::NotFound.into_response()
}
