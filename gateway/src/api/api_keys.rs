//! "Chaves de API": the developer API keys an account's own systems call `/api/v1` with
//! ([`crate::api::v1`]).
//!
//! | call | who | answer |
//! |---|---|---|
//! | `GET /api/accounts/{accountId}/api-keys` | owner, manager ([`Right::ManageApiKeys`]) | 200 `{apiKeys: [...], scopes: [{scope, label}]}`: unrevoked keys first, newest first; never a secret |
//! | `POST /api/accounts/{accountId}/api-keys` `{name, scopes, expiresOn?}` | owner, manager | 201 the key with its `secret`, shown this once; 422 `invalid-argument` naming `name`, `scopes` or `expiresOn` (every problem in `problems`); 409 `api-keys-too-many` at [`commands::api_keys::MAX_LIVE_KEYS`] |
//! | `DELETE /api/accounts/{accountId}/api-keys/{keyId}` | owner, manager | 204: the key stops at once; 404 for a key that is not the account's or was revoked |
//!
//! Operators get 403 `forbidden`, and no API key may reach these routes (they take a session).
//! The secret is [`KEY_PREFIX`] and 32 random bytes (base64url); only its SHA-256 is stored.
//! `expiresOn` is a date (`AAAA-MM-DD`): the key works through the end of that day in Brasília.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::{DateTime, Utc};
use domain::api_key::{NewApiKey, Scope};
use domain::team::Right;
use serde::Deserialize;
use serde_json::{Value, json};
use uuid::Uuid;

use commands::api_keys::{self, ApiKeyView};

use crate::api::access::Workspace;
use crate::api::json::Json;
use crate::api::payment_links::end_of_day_in_brasilia;
use crate::api::payments::receiver::token_digest;
use crate::api::qrcodes::json::rfc3339;
use crate::api::v1::KEY_PREFIX;
use crate::error::ApiError;
use crate::state::AppState;

/// Characters of the secret the list shows, so the owner can tell keys apart.
const HINT_CHARS: usize = 12;

/// A new key as the screen sends it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NewKeyBody {
    #[serde(default)]
    name: String,
    #[serde(default)]
    scopes: Vec<String>,
    #[serde(default)]
    expires_on: Option<String>,
}

fn view(key: &ApiKeyView) -> Value {
    json!({
        "id": key.key_id,
        "name": key.name,
        "scopes": key.scopes,
        "tokenHint": key.token_hint,
        "createdBy": key.created_by,
        "createdAt": rfc3339(key.created_at),
        "expiresAt": key.expires_at.map(rfc3339),
        "revokedAt": key.revoked_at.map(rfc3339),
        "lastUsedAt": key.last_used_at.map(rfc3339),
    })
}

fn scopes() -> Vec<Value> {
    Scope::ALL
        .iter()
        .map(|scope| json!({"scope": scope, "label": scope.label()}))
        .collect()
}

/// `GET /api/accounts/{accountId}/api-keys`.
///
/// # Errors
///
/// As the module table says.
pub async fn list(
    State(state): State<AppState>,
    workspace: Workspace,
) -> Result<Json<Value>, ApiError> {
    workspace.require(Right::ManageApiKeys)?;
    let keys = api_keys::list(&state.pool, workspace.account_uuid()).await?;
    Ok(Json(json!({
        "apiKeys": keys.iter().map(view).collect::<Vec<_>>(),
        "scopes": scopes(),
    })))
}

/// `POST /api/accounts/{accountId}/api-keys`.
///
/// # Errors
///
/// As the module table says.
pub async fn create(
    State(state): State<AppState>,
    workspace: Workspace,
    Json(body): Json<NewKeyBody>,
) -> Result<Response, ApiError> {
    workspace.require(Right::ManageApiKeys)?;
    let expires_at = match body.expires_on.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(day) => {
            let end = end_of_day_in_brasilia(day)?;
            Some(
                DateTime::parse_from_rfc3339(&end)
                    .map_err(ApiError::internal)?
                    .timestamp(),
            )
        }
    };
    let scopes: Vec<&str> = body.scopes.iter().map(String::as_str).collect();
    let key = NewApiKey::parse(&body.name, &scopes, expires_at, Utc::now().timestamp())
        .map_err(|refused| ApiError::refused(&refused))?;
    let secret = format!(
        "{KEY_PREFIX}{}",
        URL_SAFE_NO_PAD.encode(crate::auth::token::random_bytes::<32>())
    );
    let hint: String = secret.chars().take(HINT_CHARS).collect();
    let key_id = api_keys::create(
        &state.pool,
        api_keys::Create {
            account_id: workspace.account_uuid(),
            key: &key,
            token_digest: &token_digest(&secret),
            token_hint: &hint,
            by: workspace.caller_id(),
        },
    )
    .await?;
    let answer = json!({
        "id": key_id,
        "accountId": workspace.account_id(),
        "name": key.name,
        "scopes": key.scopes,
        "tokenHint": hint,
        "expiresAt": key.expires_at.and_then(|at| DateTime::from_timestamp(at, 0)).map(rfc3339),
        "secret": secret,
    });
    Ok((StatusCode::CREATED, Json(answer)).into_response())
}

/// `DELETE /api/accounts/{accountId}/api-keys/{keyId}`.
///
/// # Errors
///
/// As the module table says.
pub async fn revoke(
    State(state): State<AppState>,
    workspace: Workspace,
    Path((_, key_id)): Path<(String, String)>,
) -> Result<StatusCode, ApiError> {
    workspace.require(Right::ManageApiKeys)?;
    let key_id = Uuid::parse_str(&key_id).map_err(|_| ApiError::not_found())?;
    api_keys::revoke(&state.pool, workspace.account_uuid(), key_id).await?;
    Ok(StatusCode::NO_CONTENT)
}
