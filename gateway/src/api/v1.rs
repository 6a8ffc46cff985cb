//! The developer API, `/api/v1`: what a shop's own systems (a POS, an online store, an ERP) call
//! with an API key made on the dashboard ([`crate::api::api_keys`]).
//!
//! Every call carries `Authorization: Bearer balcao_…`. [`authenticate`] finds the key by the
//! SHA-256 of its secret, takes one call from the key's allowance and hands the key to the
//! handlers as a [`KeyCaller`]; [`crate::api::access::Workspace`] then admits it to its own
//! account only, with its scopes in place of a role. The handlers are the dashboard's own, so
//! a key gets the same answers, refusals and idempotency (`Idempotency-Key`) a person gets, and
//! what it makes or changes names `api-key:{keyId}` in its events' metadata. Session tokens are
//! refused here, and keys everywhere else.
//!
//! | route | scope |
//! |---|---|
//! | `GET /api/v1/key` | any: the key's own id, account and scopes |
//! | `GET /api/v1/accounts/{accountId}/qrcodes`, `GET …/qrcodes/{id}` | `qrcodes:read` (or `qrcodes:write`) |
//! | `POST /api/v1/accounts/{accountId}/qrcodes`, `POST …/qrcodes/lote` | `qrcodes:write` |
//! | `GET /api/v1/accounts/{accountId}/payments`, `…/payments/summary`, `…/payments/csv`, `…/payments/{reference}`, `…/payments/{reference}/history`, `…/daily-totals` | `payments:read` |
//! | `GET, POST /api/v1/accounts/{accountId}/payment-links`, `POST …/payment-links/{id}/revoke` | `payment-links:write` |
//! | `GET, POST /api/v1/accounts/{accountId}/webhooks`, `DELETE …/webhooks/{endpointId}`, `GET …/{endpointId}/entregas`, `POST …/{endpointId}/segredo`, `POST …/webhooks/entregas/{deliveryId}/reenviar` | `webhooks:write` |
//!
//! | answer | when |
//! |---|---|
//! | 401 `unauthenticated` | no key, a session token, an unknown, revoked or expired key, or one whose account was deleted |
//! | 403 `account-disabled` | the key's account is disabled |
//! | 403 `forbidden` | the key lacks the route's scope (the message names it) |
//! | 404 `not-found` | the path names another account than the key's |
//! | 429 `too-many-requests` | the key used its allowance (`BALCAO_API_KEY_PER_MINUTE`); `Retry-After` says when to try again |
//!
//! Every answer to a known key carries `RateLimit-Limit` (calls per minute), `RateLimit-Remaining`
//! and `RateLimit-Reset` (seconds until the allowance is whole again).
//!
//! Refusals are RFC 7807 `application/problem+json`, as the API Pix itself answers ([`problem_json`]
//! turns the dashboard's error into one): `type` is `https://balcao.app/erros/{code}` with the
//! dashboard's stable code, `title` and `detail` the pt-BR message, `status`, and `violacoes`
//! (`propriedade`, `razao`, and `linha` for a batch's line) for each field at fault. An
//! `Idempotency-Key` sent again with another request is 422 here (as the IETF's draft on the header
//! says; the dashboard answers it 409).

use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use domain::api_key::Scope;
use serde_json::json;
use uuid::Uuid;

use crate::api::access::account_disabled;
use crate::api::json::Json;
use crate::api::payments::receiver::token_digest;
use crate::api::{payment_links, payments, qrcodes, webhooks};
use crate::error::ApiError;
use crate::state::AppState;

/// How every API key's secret begins, so a secret scanner (and a person) can tell one.
pub const KEY_PREFIX: &str = "balcao_";

/// The API key a `/api/v1` call came with, once [`authenticate`] found it usable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyCaller {
    /// The key.
    pub key_id: Uuid,
    /// The account it acts for.
    pub account_id: Uuid,
    /// What it may do.
    pub scopes: Vec<Scope>,
}

impl KeyCaller {
    /// How the key is named as the actor of what it does: `api-key:{keyId}`.
    pub fn actor(&self) -> String {
        format!("api-key:{}", self.key_id.hyphenated())
    }
}

/// `/api/v1`'s routes, relative to it, behind [`authenticate`].
pub fn routes(state: AppState) -> Router<AppState> {
    let account = |path: &str| format!("/accounts/{{accountId}}{path}");
    Router::new()
        .route("/key", get(key))
        .route(
            &account("/qrcodes"),
            get(qrcodes::manage::list).post(qrcodes::create::create),
        )
        .route(&account("/qrcodes/lote"), post(qrcodes::create::batch))
        .route(&account("/qrcodes/{id}"), get(qrcodes::manage::show))
        .route(&account("/payments"), get(payments::search::list))
        .route(
            &account("/payments/summary"),
            get(payments::search::summary),
        )
        .route(&account("/payments/csv"), get(payments::export::csv))
        .route(
            &account("/payments/{reference}"),
            get(payments::records::show),
        )
        .route(
            &account("/payments/{reference}/history"),
            get(payments::history::history),
        )
        .route(&account("/daily-totals"), get(payments::records::totals))
        .route(
            &account("/payment-links"),
            get(payment_links::list).post(payment_links::create),
        )
        .route(
            &account("/payment-links/{id}/revoke"),
            post(payment_links::revoke),
        )
        .route(
            &account("/webhooks"),
            get(webhooks::list).post(webhooks::register),
        )
        .route(
            &account("/webhooks/{endpointId}"),
            axum::routing::delete(webhooks::remove),
        )
        .route(
            &account("/webhooks/{endpointId}/entregas"),
            get(webhooks::deliveries),
        )
        .route(
            &account("/webhooks/{endpointId}/segredo"),
            post(webhooks::replace_secret),
        )
        .route(
            &account("/webhooks/entregas/{deliveryId}/reenviar"),
            post(webhooks::redeliver),
        )
        .route_layer(axum::middleware::from_fn_with_state(state, authenticate))
        // Outside the key's layer, so its own refusals are problems too.
        .route_layer(axum::middleware::from_fn(problem_json))
}

/// Largest error body [`problem_json`] reads (an error is a few hundred bytes; a batch's problems
/// list is bounded by the batch).
const MAX_ERROR_BYTES: usize = 256 * 1024;

/// Rewrites an `/api/v1` refusal from the dashboard's error shape (`crate::error::ApiError`) into
/// `application/problem+json`, keeping its status (but 422 for a reused `Idempotency-Key`) and its
/// headers (`Retry-After`, `WWW-Authenticate`, `RateLimit-*`).
pub async fn problem_json(request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if response.status().is_success() || !is_json {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let error = match axum::body::to_bytes(body, MAX_ERROR_BYTES).await {
        Ok(bytes) => serde_json::from_slice::<serde_json::Value>(&bytes)
            .ok()
            .map(|mut v| v["error"].take())
            .filter(serde_json::Value::is_object),
        Err(_) => None,
    };
    let Some(error) = error else {
        parts.status = StatusCode::INTERNAL_SERVER_ERROR;
        return problem(parts, "internal", "Erro interno.", Vec::new());
    };
    let code = error["code"].as_str().unwrap_or("internal");
    let message = error["message"].as_str().unwrap_or("Erro interno.");
    if code == "idempotency-key-reused" {
        parts.status = StatusCode::UNPROCESSABLE_ENTITY;
    }
    let mut violations: Vec<serde_json::Value> = error["problems"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| {
            let mut v = json!({"propriedade": p["field"], "razao": p["message"]});
            if !p["line"].is_null() {
                v["linha"] = p["line"].clone();
            }
            v
        })
        .collect();
    if violations.is_empty() && error["field"].is_string() {
        violations.push(json!({"propriedade": error["field"], "razao": message}));
    }
    problem(parts, code, message, violations)
}

fn problem(
    mut parts: axum::http::response::Parts,
    code: &str,
    message: &str,
    violations: Vec<serde_json::Value>,
) -> Response {
    let mut body = json!({
        "type": format!("https://balcao.app/erros/{code}"),
        "title": message,
        "status": parts.status.as_u16(),
        "detail": message,
    });
    if !violations.is_empty() {
        body["violacoes"] = json!(violations);
    }
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/problem+json"),
    );
    Response::from_parts(parts, axum::body::Body::from(body.to_string()))
}

/// `GET /api/v1/key`: the key's own id, account and scopes, so a program learns which account
/// its paths name.
async fn key(caller: axum::Extension<KeyCaller>) -> Json<serde_json::Value> {
    Json(json!({
        "keyId": caller.key_id,
        "accountId": caller.account_id,
        "scopes": caller.scopes,
    }))
}

fn unauthenticated(message: &'static str) -> ApiError {
    ApiError::new(StatusCode::UNAUTHORIZED, "unauthenticated", message)
}

/// The key a request presents, when it is usable.
async fn presented(state: &AppState, headers: &HeaderMap) -> Result<KeyCaller, ApiError> {
    let secret = crate::api::caller::bearer_of(headers)
        .and_then(Result::ok)
        .filter(|token| token.starts_with(KEY_PREFIX))
        .ok_or_else(|| {
            unauthenticated(
                "Envie uma chave de API no cabeçalho Authorization: Bearer balcao_…. Crie a chave no painel, em Configurações.",
            )
        })?;
    let found = commands::api_keys::by_token(&state.pool, &token_digest(secret))
        .await?
        .ok_or_else(|| unauthenticated("Esta chave de API não existe."))?;
    if found.account_disabled {
        return Err(account_disabled());
    }
    if !found.usable {
        return Err(unauthenticated(
            "Esta chave de API foi revogada ou venceu. Crie outra no painel.",
        ));
    }
    Ok(KeyCaller {
        key_id: found.key_id,
        account_id: found.account_id,
        scopes: found.scopes,
    })
}

fn seconds(wait: Duration) -> u64 {
    wait.as_secs() + u64::from(wait.subsec_nanos() > 0)
}

fn set_quota(headers: &mut HeaderMap, limit: u64, remaining: u64, reset: u64) {
    for (name, value) in [
        ("ratelimit-limit", limit),
        ("ratelimit-remaining", remaining),
        ("ratelimit-reset", reset),
    ] {
        headers.insert(name, HeaderValue::from(value));
    }
}

/// The layer in front of every `/api/v1` route: the key is found and checked, one call is
/// taken from its allowance, and the answer says what is left (the module's tables).
pub async fn authenticate(
    State(state): State<AppState>,
    mut request: Request,
    next: Next,
) -> Response {
    let caller = match presented(&state, request.headers()).await {
        Ok(caller) => caller,
        Err(refused) => return refused.into_response(),
    };
    let limit = state.key_limiter.limit();
    let quota = match state.key_limiter.take(caller.key_id, Instant::now()) {
        Ok(quota) => quota,
        Err(wait) => {
            let mut response = ApiError::too_many_requests(seconds(wait)).into_response();
            set_quota(response.headers_mut(), limit, 0, seconds(wait));
            return response;
        }
    };
    request.extensions_mut().insert(caller);
    let mut response = next.run(request).await;
    set_quota(
        response.headers_mut(),
        limit,
        quota.remaining,
        seconds(quota.full_in),
    );
    response
}
