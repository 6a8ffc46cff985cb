//! The JSON API, nested at `/api`, one folder per resource as the URLs are: identity
//! ([`auth`]), the signed-in person's own account ([`account`]), teams ([`team`]), an account's QR
//! codes ([`qrcodes`]), the BR Code preview ([`brcode`]) and the FAQ ([`faq`]). Every route is
//! listed in [`crate::router`].
//!
//! Everything under `/api` answers JSON, errors included ([`crate::error::ApiError`]): unknown paths
//! are 404 `not-found`, a wrong method 405 `method-not-allowed`, an over-long call 408 `timeout`
//! (see [`api_error_shape`]). Bodies are limited to [`MAX_JSON_BYTES`] unless a route sets its own
//! limit, and no answer is cached (`Cache-Control: no-store`: they carry tokens and personal
//! data).
//!
//! Access is decided in one place, [`access`]: `/api/account/…` always acts on the caller's own
//! account (the token's); `/api/accounts/{accountId}/…` handlers take an [`access::Workspace`]
//! and require a [`domain::team::Right`]. A refused command reaches the client through one
//! mapping, `From<CommandError<E: Refusal>> for ApiError` ([`crate::error`]).
//!
//! | route | handler | who |
//! |---|---|---|
//! | `GET /api/faq` | [`faq::faq`] | anyone |
//! | `/api/auth/…` | [`auth`] (its own table) | see there |
//! | `GET /api/brcode/normalize` | [`brcode::normalize`] | anyone |
//! | `GET, PATCH /api/account/settings` | [`account::settings`] | signed in (own account) |
//! | `PUT /api/account/photo` | [`account::photo::upload`] | signed in (own account) |
//! | `POST /api/account/password` | [`account::credentials::change_password`] | signed in (own account) |
//! | `POST /api/account/email` | [`account::credentials::change_email`] | signed in (own account) |
//! | `POST /api/account/delete` | [`account::deletion::delete_account`] | signed in (own account) |
//! | `GET /api/workspaces` | [`team::workspaces`] | signed in |
//! | `PUT, GET, DELETE /api/accounts/{accountId}/sign-logo` | [`sign_logo`] (its own table) | owner, manager (reading: any member) |
//! | `GET, POST /api/accounts/{accountId}/members` | [`team::members`], [`team::invite`] | owner |
//! | `DELETE /api/accounts/{accountId}/members/{invitationId}` | [`team::remove`] | owner |
//! | `POST /api/invitations/check` | [`team::check`] | anyone with the link's code |
//! | `POST /api/invitations/accept` | [`team::accept`] | signed in |
//! | `/api/accounts/{accountId}/qrcodes…` | [`qrcodes`] (its own table: list, create, check, batch, show, archive, unarchive, duplicate) | owner, manager, operator (own codes) |
//! | `POST /api/accounts/{accountId}/qrcodes/{id}/claim` | [`claims::claim`] | owner, manager, operator (with the sign's management token) |
//! | `GET /api/accounts/{accountId}/bank-connections`; `PUT, DELETE …/bank-connections/{keyId}`; `POST …/{keyId}/test`, `POST …/{keyId}/webhook` | [`bank_connections`] | owner, manager |
//! | `GET, POST /api/accounts/{accountId}/payment-links` | [`payment_links::list`], [`payment_links::create`] | owner, manager |
//! | `POST /api/accounts/{accountId}/payment-links/{id}/revoke` | [`payment_links::revoke`] | owner, manager |
//! | `/api/accounts/{accountId}/placas…` | [`signs`] (its own table: list, create, show, update, duplicate, delete) | owner, manager, operator (own signs) |
//! | `GET /api/accounts/{accountId}/summary` | [`payments::summary::summary`] | owner, manager, operator (own codes) |
//! | `/api/accounts/{accountId}/extratos…` | [`payments::statements`] (its own table: preview, import, list, undo) | owner, manager |
//! | `GET, POST /api/accounts/{accountId}/api-keys`; `DELETE …/api-keys/{keyId}` | [`api_keys`] | owner, manager |
//! | `GET, POST /api/accounts/{accountId}/webhooks`; `DELETE …/webhooks/{endpointId}`; `GET …/{endpointId}/entregas`; `POST …/webhooks/entregas/{deliveryId}/reenviar` | [`webhooks`] | owner, manager |
//! | `/api/v1/…` | [`v1`] (its own tables): the developer API, called with an API key instead of a session | the key's scopes |
//! | `GET /api/accounts/{accountId}/events` | [`crate::live_routes::account`] (server-sent events) | owner, manager, operator (own codes) |
//! | `GET /api/accounts/{accountId}/subscription/charges/{chargeId}/events` | [`crate::live_routes::charge`] (server-sent events: the checkout's charge) | owner |
//!
//! Codes the resource modules add to the API's table (`crate::error`):
//!
//! | code | status | when |
//! |---|---|---|
//! | `account-disabled` | 403 | the account named in the path is disabled (only its team learns it) |
//! | `member-already-invited` | 409 | the address already has a pending or active invitation in this team |
//! | `cannot-invite-self` | 422 | the owner invites their own address (answered before the plan's limit is looked at), or accepts their own team's invitation |
//! | `already-member` | 409 | accepting an invitation to a team one already works in |
//! | `unsupported-photo-type` | 415 | a photo that is not JPEG, PNG or WebP, or whose bytes are not what its type says |
//! | `photo-too-large` | 413 | a photo over 1 MiB |
//! | `invalid-idempotency-key` | 400 | an `Idempotency-Key` header that is empty, too long or not text |
//! | `idempotency-key-reused` | 409 | an `Idempotency-Key` already used with other values |
//! | `invitation-for-another-email` | 403 | accepting an invitation signed in with another address than the invited one |
//! | `qrcode-already-claimed` | 409 | claiming a visitor's sign that an account already has |
//! | `sign-already-saved` | 409 | saving a sign under an id already used (never from the dashboard, which lets the server choose ids) |
//! | `payment-link-already-revoked` | 409 | revoking a payment link twice |
//! | `api-keys-too-many` | 409 | making a 26th unrevoked API key in one account |
//! | `webhooks-too-many` | 409 | registering an 11th webhook address in one account |
//! | `webhook-already-delivered` | 409 | sending again a delivery the address already took |
//! | `expiry-in-the-past` | 422 | a payment link's `expiresOn` is not in the future (`field`: `expiresAt`) |

pub mod access;
pub mod account;
pub mod api_keys;
pub mod auth;
pub mod bank_connections;
pub mod billing;
pub mod brcode;
pub mod caller;
pub mod claims;
pub mod faq;
pub mod idempotency;
pub mod json;
pub mod keys;
pub mod payment_links;
pub mod payments;
pub mod qrcodes;
pub mod same_origin;
pub mod sign_logo;
pub mod signs;
pub(crate) mod support;
pub mod team;
pub mod v1;
pub mod webhooks;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Request};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tower_http::set_header::SetResponseHeaderLayer;

use crate::error::ApiError;
use crate::state::AppState;

/// Largest JSON body the API accepts (its requests are a few fields each).
pub const MAX_JSON_BYTES: usize = 16 * 1024;

/// What every route under `/api` shares: the JSON 404 and 405, the body limit and `no-store`
/// ([`crate::router`] lists the routes themselves).
pub fn layers(routes: Router<AppState>) -> Router<AppState> {
    routes
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

/// Middleware for the whole router: a query string holding U+0000 (`%00`: a raw NUL cannot
/// stand in a URI) is refused with 400 before any handler reads it, since no PostgreSQL `text`
/// parameter can carry it (a search or a cursor holding one was a 500). Under `/api` the answer
/// is the JSON error `invalid-text` naming the parameter, as the JSON reader's for a body
/// (`json`); elsewhere the error page says it.
pub async fn refuse_nul_in_query(request: Request, next: Next) -> Response {
    let Some(name) = request.uri().query().and_then(nul_parameter) else {
        return next.run(request).await;
    };
    let message = format!(
        "O parâmetro {name} do endereço tem um caractere nulo (U+0000), que não pode ser usado. Apague-o e tente de novo."
    );
    if is_api_path(request.uri().path()) {
        ApiError::new(StatusCode::BAD_REQUEST, "invalid-text", message)
            .with_field(name)
            .into_response()
    } else {
        crate::error::AppError::Refused {
            status: StatusCode::BAD_REQUEST,
            message,
        }
        .into_response()
    }
}

/// The name of the first query parameter (name or value) that decodes to a U+0000.
fn nul_parameter(query: &str) -> Option<String> {
    query
        .split('&')
        .find(|pair| pair.contains("%00"))
        .map(|pair| {
            pair.split('=')
                .next()
                .unwrap_or_default()
                .replace("%00", "")
        })
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

    #[test]
    fn a_query_holding_a_nul_names_its_parameter_and_any_other_query_passes() {
        assert_eq!(
            nul_parameter("busca=a%00b&limite=10"),
            Some("busca".to_owned())
        );
        assert_eq!(
            nul_parameter("limite=10&depois=%00"),
            Some("depois".to_owned())
        );
        assert_eq!(nul_parameter("busca=100%25&q=%2000"), None);
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
