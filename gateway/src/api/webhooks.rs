//! "Webhooks": the addresses an account's own systems are told of its payments at
//! ([`crate::webhook_sender`] sends; [`commands::webhooks`] keeps the queue).
//!
//! | call | who | answer |
//! |---|---|---|
//! | `GET /api/accounts/{accountId}/webhooks` | owner, manager ([`Right::ManageWebhooks`]); a key with `webhooks:write` under `/api/v1` | 200 `{webhooks: [{id, url, events, createdAt, pending, givenUp}], events: [{event, label}]}` |
//! | `POST …/webhooks` `{url, events}` | the same | 201 `{id, url, events, secret}`: the signing secret, shown this once; 422 `invalid-argument` naming `url` or `events`; 409 `webhooks-too-many` at [`commands::webhooks::MAX_ENDPOINTS`] |
//! | `DELETE …/webhooks/{endpointId}` | the same | 204: nothing more is sent to it |
//! | `POST …/webhooks/{endpointId}/segredo` | the same | 200 `{secret, previousValidUntil}`: a new signing secret, shown this once; the one it replaces keeps signing beside it for [`SECRET_GRACE_SECS`] |
//! | `GET …/webhooks/{endpointId}/entregas` | the same | 200 `{deliveries: [...]}`: the latest 50, newest first, with attempts and the last answer |
//! | `POST …/webhooks/entregas/{deliveryId}/reenviar` | the same | 202: tried again now (a given-up one gets three more days); 409 `webhook-already-delivered` |
//!
//! The secret is `whsec_` and 32 random bytes (base64url), sealed with the account's key; each
//! delivery is signed with it (`domain::webhook`). Addresses must be public `https` unless
//! `BALCAO_WEBHOOKS_ALLOW_PRIVATE` is set.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use domain::refusal::FieldProblem;
use domain::team::Right;
use domain::webhook::{EndpointUrl, EventKind};
use serde::Deserialize;
use serde_json::{Value, json};
use uuid::Uuid;

use commands::webhooks::{self, DeliveryView, EndpointView};

use crate::api::access::Workspace;
use crate::api::json::Json;
use crate::api::qrcodes::json::rfc3339;
use crate::error::ApiError;
use crate::state::AppState;

/// How every signing secret begins.
pub const SECRET_PREFIX: &str = "whsec_";

/// How long a replaced secret keeps signing beside the new one: a day to update the receiver.
pub const SECRET_GRACE_SECS: i64 = 24 * 3600;

fn new_secret() -> String {
    format!(
        "{SECRET_PREFIX}{}",
        URL_SAFE_NO_PAD.encode(crate::auth::token::random_bytes::<32>())
    )
}

/// A new endpoint as the screen or a program sends it.
#[derive(Debug, Deserialize)]
pub struct NewEndpointBody {
    #[serde(default)]
    url: String,
    #[serde(default)]
    events: Vec<String>,
}

fn label(kind: EventKind) -> &'static str {
    match kind {
        EventKind::PaymentReceived => "Pagamento recebido",
        EventKind::PaymentRefunded => "Pagamento devolvido",
    }
}

fn endpoint(view: &EndpointView) -> Value {
    json!({
        "id": view.endpoint_id,
        "url": view.url,
        "events": view.events,
        "createdAt": rfc3339(view.created_at),
        "pending": view.pending,
        "givenUp": view.given_up,
    })
}

fn delivery(view: &DeliveryView) -> Value {
    let status = if view.delivered_at.is_some() {
        "entregue"
    } else if view.given_up_at.is_some() {
        "desistiu"
    } else {
        "tentando"
    };
    json!({
        "id": view.delivery_id,
        "eventId": view.event_id,
        "event": view.kind,
        "status": status,
        "attempts": view.attempts,
        "lastStatus": view.last_status,
        "lastError": view.last_error,
        "lastAttemptAt": view.last_attempt_at.map(rfc3339),
        "nextAttemptAt": (status == "tentando").then(|| rfc3339(view.next_attempt_at)),
        "deliveredAt": view.delivered_at.map(rfc3339),
        "createdAt": rfc3339(view.created_at),
    })
}

/// `GET /api/accounts/{accountId}/webhooks`.
///
/// # Errors
///
/// As the module table says.
pub async fn list(
    State(state): State<AppState>,
    workspace: Workspace,
) -> Result<Json<Value>, ApiError> {
    workspace.require(Right::ManageWebhooks)?;
    let endpoints = webhooks::list(&state.pool, workspace.account_uuid()).await?;
    let events: Vec<Value> = EventKind::ALL
        .iter()
        .map(|kind| json!({"event": kind, "label": label(*kind)}))
        .collect();
    Ok(Json(json!({
        "webhooks": endpoints.iter().map(endpoint).collect::<Vec<_>>(),
        "events": events,
    })))
}

fn problem(field: &'static str, message: impl Into<String>) -> FieldProblem {
    FieldProblem {
        field,
        line: None,
        message: message.into(),
    }
}

/// `POST /api/accounts/{accountId}/webhooks`.
///
/// # Errors
///
/// As the module table says.
pub async fn register(
    State(state): State<AppState>,
    workspace: Workspace,
    Json(body): Json<NewEndpointBody>,
) -> Result<Response, ApiError> {
    workspace.require(Right::ManageWebhooks)?;
    let mut problems = Vec::new();
    let url = EndpointUrl::parse(&body.url, state.webhooks.allow_private)
        .map_err(|refused| problems.push(problem("url", refused.0)))
        .ok();
    let mut events = Vec::new();
    for text in &body.events {
        match EventKind::parse(text.trim()) {
            Some(kind) if !events.contains(&kind) => events.push(kind),
            Some(_) => {}
            None => problems.push(problem(
                "events",
                format!(
                    "Evento desconhecido: {:?}. Os eventos são: {}.",
                    text.trim(),
                    EventKind::ALL.map(EventKind::as_str).join(", ")
                ),
            )),
        }
    }
    if body.events.is_empty() {
        problems.push(problem(
            "events",
            "Escolha ao menos um evento para o endereço.",
        ));
    }
    let Some(url) = url.filter(|_| problems.is_empty()) else {
        return Err(ApiError::invalid_fields(problems));
    };
    events.sort_unstable();
    let key = commands::vault::load_key(&state.pool, workspace.account_id())
        .await
        .map_err(ApiError::internal)?
        .ok_or_else(ApiError::not_found)?;
    let secret = new_secret();
    let endpoint_id = webhooks::register(
        &state.pool,
        webhooks::Register {
            account_id: workspace.account_uuid(),
            url: &url,
            events: &events,
            secret: &key.seal(&secret),
            by: workspace.caller_id(),
        },
    )
    .await?;
    let answer = json!({
        "id": endpoint_id,
        "url": url.as_str(),
        "events": events,
        "secret": secret,
    });
    Ok((StatusCode::CREATED, Json(answer)).into_response())
}

fn id(text: &str) -> Result<Uuid, ApiError> {
    Uuid::parse_str(text).map_err(|_| ApiError::not_found())
}

/// `DELETE /api/accounts/{accountId}/webhooks/{endpointId}`.
///
/// # Errors
///
/// As the module table says.
pub async fn remove(
    State(state): State<AppState>,
    workspace: Workspace,
    Path((_, endpoint_id)): Path<(String, String)>,
) -> Result<StatusCode, ApiError> {
    workspace.require(Right::ManageWebhooks)?;
    webhooks::remove(&state.pool, workspace.account_uuid(), id(&endpoint_id)?).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/accounts/{accountId}/webhooks/{endpointId}/segredo`.
///
/// # Errors
///
/// As the module table says.
pub async fn replace_secret(
    State(state): State<AppState>,
    workspace: Workspace,
    Path((_, endpoint_id)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    workspace.require(Right::ManageWebhooks)?;
    let endpoint_id = id(&endpoint_id)?;
    let key = commands::vault::load_key(&state.pool, workspace.account_id())
        .await
        .map_err(ApiError::internal)?
        .ok_or_else(ApiError::not_found)?;
    let secret = new_secret();
    let until = webhooks::replace_secret(
        &state.pool,
        workspace.account_uuid(),
        endpoint_id,
        &key.seal(&secret),
        SECRET_GRACE_SECS,
    )
    .await?;
    Ok(Json(
        json!({"secret": secret, "previousValidUntil": rfc3339(until)}),
    ))
}

/// `GET /api/accounts/{accountId}/webhooks/{endpointId}/entregas`.
///
/// # Errors
///
/// As the module table says.
pub async fn deliveries(
    State(state): State<AppState>,
    workspace: Workspace,
    Path((_, endpoint_id)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    workspace.require(Right::ManageWebhooks)?;
    let found = webhooks::deliveries(&state.pool, workspace.account_uuid(), id(&endpoint_id)?)
        .await?
        .ok_or_else(ApiError::not_found)?;
    Ok(Json(json!({
        "deliveries": found.iter().map(delivery).collect::<Vec<_>>(),
    })))
}

/// `POST /api/accounts/{accountId}/webhooks/entregas/{deliveryId}/reenviar`.
///
/// # Errors
///
/// As the module table says.
pub async fn redeliver(
    State(state): State<AppState>,
    workspace: Workspace,
    Path((_, delivery_id)): Path<(String, String)>,
) -> Result<StatusCode, ApiError> {
    workspace.require(Right::ManageWebhooks)?;
    webhooks::redeliver(&state.pool, workspace.account_uuid(), id(&delivery_id)?).await?;
    Ok(StatusCode::ACCEPTED)
}
