//! "Receber confirmações do banco": an API Pix receiver per registered Pix key.
//!
//! | call | who | answer |
//! |---|---|---|
//! | `GET …/api-pix-receivers/{keyId}` | owner, manager | 200 `{enabled, createdAt, rotatedAt, pixKey}` (the URL is shown only when made) |
//! | `POST …/api-pix-receivers/{keyId}` | owner, manager | 201 `{enabled, url, pixKey, steps}`; 409 `api-pix-receiver-on` when already on |
//! | `POST …/api-pix-receivers/{keyId}/rotate` | owner, manager | 200 a new `url` (the old one stops at once); 404 when off |
//! | `DELETE …/api-pix-receivers/{keyId}` | owner, manager | 204; 404 when off |
//!
//! Operators get 403 `forbidden` ([`Right::ManageKeys`]); a key that is not the account's (or was
//! removed) is 404 `not-found`. The token is 32 random bytes (base64url); only its SHA-256 is
//! stored, so the URL can be shown only once.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::{DateTime, SecondsFormat, Utc};
use domain::team::Right;
use serde_json::json;
use uuid::Uuid;

use commands::api_pix_receivers as receivers;

use crate::api::access::Workspace;
use crate::api::json::Json;
use crate::api::payments::receiver::token_digest;
use crate::error::ApiError;
use crate::state::AppState;

/// The account's live key `key_id`, in DICT form; 404 for a key that is not the account's or
/// was removed.
pub(crate) async fn key_of(
    state: &AppState,
    workspace: &Workspace,
    key_id: &str,
) -> Result<(Uuid, String), ApiError> {
    let key_id = Uuid::parse_str(key_id).map_err(|_| ApiError::not_found())?;
    // From the log while the read model lags: a key registered a moment ago is the account's.
    let key = projections::pix_keys::find_or_from_log(
        &state.pool,
        state.qrcodes.store(),
        workspace.account_uuid(),
        key_id,
    )
    .await
    .map_err(crate::api::access::projection_error)?;
    key.filter(|k| k.removed_at.is_none())
        .and_then(|k| k.pix_key)
        .map(|pix_key| (key_id, pix_key))
        .ok_or_else(ApiError::not_found)
}

pub(crate) fn new_token() -> String {
    URL_SAFE_NO_PAD.encode(crate::auth::token::random_bytes::<32>())
}

pub(crate) fn url_for(state: &AppState, token: &str) -> String {
    format!(
        "{}/webhooks/api-pix/{token}",
        state.site.url.trim_end_matches('/')
    )
}

/// The steps to register the URL at the bank, in pt-BR.
pub fn steps(pix_key: &str, url: &str) -> Vec<String> {
    vec![
        "Copie o endereço acima e guarde-o como uma senha: quem o tiver pode avisar pagamentos em seu nome.".to_owned(),
        "Entre na área de desenvolvedor (API Pix) do banco onde a chave está cadastrada. Ela segue o padrão da API Pix do Banco Central; o banco fornece as credenciais e o certificado.".to_owned(),
        format!("Cadastre o webhook da chave {pix_key}: PUT /webhook/{pix_key} com o corpo {{\"webhookUrl\": \"{url}\"}}."),
        "Não acrescente nada ao endereço: o banco chama o endereço com /pix no fim, e o Balcão aceita assim.".to_owned(),
        "O banco só avisa Pix que trazem um identificador (txid): os QR codes do Balcão trazem o seu.".to_owned(),
        "Faça um Pix de teste, de qualquer valor, para um QR code desta chave: ele aparece nas transações em segundos.".to_owned(),
        "Se o endereço vazar, gere um novo aqui: o anterior para de funcionar na mesma hora. Para parar de receber, desligue.".to_owned(),
    ]
}

fn rfc3339(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// `GET /api/accounts/{accountId}/api-pix-receivers/{keyId}`.
///
/// # Errors
///
/// As the module table says.
pub async fn show(
    State(state): State<AppState>,
    workspace: Workspace,
    Path((_, key_id)): Path<(String, String)>,
) -> Result<Json<serde_json::Value>, ApiError> {
    workspace.require(Right::ManageKeys)?;
    let (key_id, pix_key) = key_of(&state, &workspace, &key_id).await?;
    let live = receivers::live(&state.pool, workspace.account_uuid(), key_id).await?;
    Ok(Json(match live {
        Some(live) => json!({
            "enabled": true, "pixKey": pix_key, "createdAt": rfc3339(live.created_at),
            "rotatedAt": live.rotated_at.map(rfc3339),
        }),
        None => json!({"enabled": false, "pixKey": pix_key}),
    }))
}

fn made(state: &AppState, pix_key: &str, token: &str) -> serde_json::Value {
    let url = url_for(state, token);
    json!({"enabled": true, "pixKey": pix_key, "steps": steps(pix_key, &url), "url": url})
}

/// `POST /api/accounts/{accountId}/api-pix-receivers/{keyId}`.
///
/// # Errors
///
/// As the module table says.
pub async fn turn_on(
    State(state): State<AppState>,
    workspace: Workspace,
    Path((_, key_id)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    workspace.require(Right::ManageKeys)?;
    let (key_id, pix_key) = key_of(&state, &workspace, &key_id).await?;
    // Issue 12: the plan's API Pix webhook endpoints, counted by the command (a key whose
    // receiver is already on gets 409, not the plan's 402).
    let plan = crate::billing::plan_of(&state.billing, workspace.account_id()).await?;
    let token = new_token();
    receivers::turn_on(
        &state.pool,
        receivers::TurnOn {
            account_id: workspace.account_uuid(),
            key_id,
            token_digest: &token_digest(&token),
            by: workspace.caller_id(),
            plan,
        },
    )
    .await?;
    Ok((StatusCode::CREATED, Json(made(&state, &pix_key, &token))).into_response())
}

/// `POST /api/accounts/{accountId}/api-pix-receivers/{keyId}/rotate`.
///
/// # Errors
///
/// As the module table says.
pub async fn rotate(
    State(state): State<AppState>,
    workspace: Workspace,
    Path((_, key_id)): Path<(String, String)>,
) -> Result<Json<serde_json::Value>, ApiError> {
    workspace.require(Right::ManageKeys)?;
    let (key_id, pix_key) = key_of(&state, &workspace, &key_id).await?;
    let token = new_token();
    receivers::rotate(
        &state.pool,
        workspace.account_uuid(),
        key_id,
        &token_digest(&token),
    )
    .await?;
    Ok(Json(made(&state, &pix_key, &token)))
}

/// `DELETE /api/accounts/{accountId}/api-pix-receivers/{keyId}`.
///
/// # Errors
///
/// As the module table says.
pub async fn turn_off(
    State(state): State<AppState>,
    workspace: Workspace,
    Path((_, key_id)): Path<(String, String)>,
) -> Result<StatusCode, ApiError> {
    workspace.require(Right::ManageKeys)?;
    let (key_id, _) = key_of(&state, &workspace, &key_id).await?;
    receivers::turn_off(&state.pool, workspace.account_uuid(), key_id).await?;
    Ok(StatusCode::NO_CONTENT)
}
