//! The keys API's handlers (see the module table in [`super`]).

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, SecondsFormat, Utc};
use commands::CommandOutcome;
use commands::pix_keys::Registration;
use domain::key_ring::{HolderName, KeyInput, KeyLabel};
use domain::team::Right;
use projections::pix_keys::PixKeyView;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::api::access::{Workspace, projection_error};
use crate::api::json::Json;
use crate::auth::accounts::now;
use crate::error::ApiError;
use crate::read_your_writes::wait_for;
use crate::state::AppState;

/// Namespace of the key ids derived from idempotency keys (a fixed, random UUID of its own).
const KEY_ID_NAMESPACE: Uuid = Uuid::from_u128(0x7d41_2c9e_b3a0_4f58_8e16_0a9b_54c2_e7f1);

/// `POST` body: the form's values as typed.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NewKey {
    /// The key as typed (any kind, with or without its mask).
    #[serde(default)]
    pub pix_key: String,
    /// `cpf`, `cnpj`, `email`, `telefone`, `aleatoria` (or `phone`, `evp`); detected when blank.
    #[serde(default)]
    pub key_kind: Option<String>,
    /// The holder's name as the bank shows it.
    #[serde(default)]
    pub holder_name: String,
    /// A label, if any.
    #[serde(default)]
    pub label: Option<String>,
    /// Make it the account's default key (the first key always is).
    #[serde(default)]
    pub make_default: bool,
}

/// `PATCH` body.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KeyNames {
    /// The holder's name.
    #[serde(default)]
    pub holder_name: String,
    /// The label; blank or absent clears it.
    #[serde(default)]
    pub label: Option<String>,
}

/// One key as the API shows it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct KeyJson {
    /// The key's id.
    pub id: String,
    /// `cpf`, `cnpj`, `email`, `phone` or `evp`.
    pub kind: String,
    /// The key in DICT form, as written in codes (`null` only if it cannot be read).
    pub pix_key: Option<String>,
    /// The label.
    pub label: Option<String>,
    /// The holder's name as the bank shows it.
    pub holder_name: Option<String>,
    /// Whether new codes start with this key.
    pub is_default: bool,
    /// When it was registered, RFC 3339.
    pub created_at: String,
    /// When it was removed, RFC 3339; `null` while active.
    pub removed_at: Option<String>,
}

/// The list.
#[derive(Debug, Serialize)]
pub struct KeyList {
    /// Active keys, the default first, then oldest first.
    pub keys: Vec<KeyJson>,
}

fn rfc3339(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

impl From<PixKeyView> for KeyJson {
    fn from(view: PixKeyView) -> Self {
        KeyJson {
            id: view.key_id.to_string(),
            kind: view.key_kind,
            pix_key: view.pix_key,
            label: view.label,
            holder_name: view.holder_name,
            is_default: view.is_default,
            created_at: rfc3339(view.created_at),
            removed_at: view.removed_at.map(rfc3339),
        }
    }
}

/// `GET /api/accounts/{accountId}/keys`.
///
/// # Errors
///
/// As the module table says.
pub async fn list(
    State(state): State<AppState>,
    workspace: Workspace,
) -> Result<Json<KeyList>, ApiError> {
    // Whoever makes codes may see the keys to make them with.
    workspace.require(Right::CreateQrCodes)?;
    let views = projections::pix_keys::list_active(&state.pool, workspace.account_uuid())
        .await
        .map_err(projection_error)?;
    Ok(Json(KeyList {
        keys: views.into_iter().map(KeyJson::from).collect(),
    }))
}

/// `GET /api/accounts/{accountId}/keys/{keyId}`.
///
/// # Errors
///
/// As the module table says.
pub async fn show(
    State(state): State<AppState>,
    workspace: Workspace,
    Path((_, key_id)): Path<(String, String)>,
) -> Result<Json<KeyJson>, ApiError> {
    workspace.require(Right::CreateQrCodes)?;
    let view = find(&state, &workspace, &key_id)
        .await?
        .ok_or_else(ApiError::not_found)?;
    Ok(Json(view.into()))
}

/// `POST /api/accounts/{accountId}/keys`.
///
/// # Errors
///
/// As the module table says.
pub async fn register(
    State(state): State<AppState>,
    workspace: Workspace,
    headers: HeaderMap,
    Json(body): Json<NewKey>,
) -> Result<Response, ApiError> {
    workspace.require(Right::ManageKeys)?;
    let input = KeyInput {
        pix_key: body.pix_key,
        key_kind: body.key_kind,
        holder_name: body.holder_name,
        label: body.label,
    }
    .parse()
    .map_err(|refusal| ApiError::refused(&refusal))?;
    // Issue 12: the plan's number of keys, checked by the key ring against its own keys.
    let plan = crate::billing::plan_of(&state.billing, workspace.account_id()).await?;
    let mut metadata = commands::CommandMetadata::start().by(workspace.caller_id().to_owned());
    let idempotency = crate::api::idempotency::key(&workspace, &headers, "painel-chave")?;
    let key_id = crate::api::idempotency::id_for(&KEY_ID_NAMESPACE, idempotency.as_ref());
    let registration = Registration {
        account_id: workspace.account_id().to_owned(),
        key_id: key_id.to_string(),
        input,
        make_default: body.make_default,
        plan,
        by: workspace.caller_id().to_owned(),
        at: now(),
    };
    if let Some(key) = idempotency {
        metadata = metadata
            .with_idempotency_key(key)
            .with_request_digest(registration.digest());
    }
    let fallback = registration.clone();
    let outcome = state
        .pix_keys
        .register(registration, metadata)
        .await
        .map_err(ApiError::from)?;
    // The key is registered: from here on nothing may answer a failure.
    let json = match settled(&state, &workspace, &key_id.to_string(), &outcome).await {
        Some(view) => view.into(),
        None => {
            let is_default = current_default(&state, &workspace).await.as_deref()
                == Some(fallback.key_id.as_str());
            KeyJson {
                id: fallback.key_id,
                kind: domain::key_ring::stored_kind_name(fallback.input.key.kind()).to_owned(),
                pix_key: Some(fallback.input.key.as_str().to_owned()),
                label: fallback.input.label.map(|l| l.as_str().to_owned()),
                holder_name: Some(fallback.input.holder_name.as_str().to_owned()),
                is_default,
                created_at: stamp(&fallback.at),
                removed_at: None,
            }
        }
    };
    let mut response = (StatusCode::CREATED, Json(json)).into_response();
    crate::api::idempotency::mark_replayed(&mut response, outcome.replayed);
    Ok(response)
}

/// `PATCH /api/accounts/{accountId}/keys/{keyId}`.
///
/// # Errors
///
/// As the module table says.
pub async fn rename(
    State(state): State<AppState>,
    workspace: Workspace,
    Path((_, key_id)): Path<(String, String)>,
    Json(body): Json<KeyNames>,
) -> Result<Json<KeyJson>, ApiError> {
    workspace.require(Right::ManageKeys)?;
    let key_id = key_uuid(&key_id)?;
    let holder_name =
        HolderName::parse(&body.holder_name).map_err(|refusal| ApiError::refused(&refusal))?;
    let label = KeyLabel::parse(body.label.as_deref().unwrap_or_default())
        .map_err(|refusal| ApiError::refused(&refusal))?;
    let outcome = state
        .pix_keys
        .rename(
            workspace.account_id(),
            &key_id,
            &holder_name,
            label.as_ref(),
            workspace.caller_id(),
            &now(),
            commands::CommandMetadata::start().by(workspace.caller_id().to_owned()),
        )
        .await
        .map_err(ApiError::from)?;
    let view = answer(&state, &workspace, &key_id, &outcome).await?;
    let mut json = KeyJson::from(view);
    // When the read model is late, its row is patched with what the command recorded.
    json.holder_name = Some(holder_name.as_str().to_owned());
    json.label = label.map(|l| l.as_str().to_owned());
    Ok(Json(json))
}

/// `POST /api/accounts/{accountId}/keys/{keyId}/default`.
///
/// # Errors
///
/// As the module table says.
pub async fn choose_default(
    State(state): State<AppState>,
    workspace: Workspace,
    Path((_, key_id)): Path<(String, String)>,
) -> Result<Json<KeyJson>, ApiError> {
    workspace.require(Right::ManageKeys)?;
    let key_id = key_uuid(&key_id)?;
    let outcome = state
        .pix_keys
        .choose_default(
            workspace.account_id(),
            &key_id,
            workspace.caller_id(),
            &now(),
            commands::CommandMetadata::start().by(workspace.caller_id().to_owned()),
        )
        .await
        .map_err(ApiError::from)?;
    let mut json = KeyJson::from(answer(&state, &workspace, &key_id, &outcome).await?);
    json.is_default = true;
    Ok(Json(json))
}

/// `DELETE /api/accounts/{accountId}/keys/{keyId}`.
///
/// # Errors
///
/// As the module table says.
pub async fn remove(
    State(state): State<AppState>,
    workspace: Workspace,
    Path((_, key_id)): Path<(String, String)>,
) -> Result<StatusCode, ApiError> {
    workspace.require(Right::ManageKeys)?;
    let key_id = key_uuid(&key_id)?;
    let outcome = state
        .pix_keys
        .remove(
            workspace.account_id(),
            &key_id,
            workspace.caller_id(),
            &now(),
            commands::CommandMetadata::start().by(workspace.caller_id().to_owned()),
        )
        .await
        .map_err(ApiError::from)?;
    // The list the dashboard reloads next should no longer show it.
    wait_for(&state, projections::pix_keys::NAME, outcome.position).await;
    Ok(StatusCode::NO_CONTENT)
}

/// A key id from the path: anything but a UUID names no key (404).
fn key_uuid(text: &str) -> Result<String, ApiError> {
    Uuid::parse_str(text)
        .map(|id| id.hyphenated().to_string())
        .map_err(|_| ApiError::not_found())
}

/// The account's key `key_id` in the read model, or in the log while the read model lags
/// (another account's key: `None`).
async fn find(
    state: &AppState,
    workspace: &Workspace,
    key_id: &str,
) -> Result<Option<PixKeyView>, ApiError> {
    let Ok(key_id) = Uuid::parse_str(key_id) else {
        return Ok(None);
    };
    projections::pix_keys::find_or_from_log(
        &state.pool,
        state.qrcodes.store(),
        workspace.account_uuid(),
        key_id,
    )
    .await
    .map_err(projection_error)
}

/// The read model's row for `key_id` once it shows the command, or `None` when it is late or
/// unreadable (logged: the command has committed, so this never fails the request).
async fn settled(
    state: &AppState,
    workspace: &Workspace,
    key_id: &str,
    outcome: &CommandOutcome,
) -> Option<PixKeyView> {
    if !wait_for(state, projections::pix_keys::NAME, outcome.position).await {
        return None;
    }
    find(state, workspace, key_id)
        .await
        .inspect_err(|error| {
            tracing::warn!(
                ?error,
                key_id,
                "could not read the key just changed; answering from the command"
            );
        })
        .ok()
        .flatten()
}

/// After a rename or a new default: the key's row (possibly one event behind, which the
/// caller patches). The key exists, since the ring accepted the command; only a read model
/// that never saw it (or a database outage) leaves nothing to answer with.
async fn answer(
    state: &AppState,
    workspace: &Workspace,
    key_id: &str,
    outcome: &CommandOutcome,
) -> Result<PixKeyView, ApiError> {
    if let Some(view) = settled(state, workspace, key_id, outcome).await {
        return Ok(view);
    }
    find(state, workspace, key_id).await?.ok_or_else(|| {
        ApiError::unavailable(anyhow::anyhow!(
            "the pix_keys read model has not caught up with key {key_id} yet"
        ))
    })
}

/// The ring's default key, read from the aggregate itself (for an answer made while the read
/// model is late).
async fn current_default(state: &AppState, workspace: &Workspace) -> Option<String> {
    state
        .pix_keys
        .service()
        .load(workspace.account_id())
        .await
        .ok()
        .and_then(|loaded| loaded.aggregate.default_key().map(str::to_owned))
}

/// A command's RFC 3339 time in the read model's precision.
fn stamp(at: &str) -> String {
    DateTime::parse_from_rfc3339(at)
        .map_or_else(|_| at.to_owned(), |t| rfc3339(t.with_timezone(&Utc)))
}

#[cfg(test)]
mod tests {
    use commands::CommandError;
    use domain::key_ring::KeyRingError;

    use super::*;

    #[test]
    fn a_duplicate_key_answers_409_with_its_field_and_portuguese_message() {
        let error = ApiError::from(CommandError::Rejected(KeyRingError::AlreadyRegistered));
        assert_eq!(error.status(), StatusCode::CONFLICT);
        assert_eq!(error.code(), "pix-key-already-registered");
        assert_eq!(error.field(), Some("pixKey"));
        assert_eq!(
            error.message(),
            "Esta chave Pix já está cadastrada nesta conta."
        );
    }

    #[test]
    fn a_key_of_another_account_answers_404() {
        let error = ApiError::from(CommandError::Rejected(KeyRingError::KeyNotFound));
        assert_eq!(error.status(), StatusCode::NOT_FOUND);
        assert_eq!(error.code(), "not-found");
    }

    #[test]
    fn a_removed_key_answers_410_and_a_bad_key_422_on_its_field() {
        let error = ApiError::from(CommandError::Rejected(KeyRingError::KeyRemoved));
        assert_eq!(error.status(), StatusCode::GONE);
        let error = ApiError::refused(&KeyRingError::InvalidKey(
            domain::pix_key::PixKeyError::CpfCheckDigits,
        ));
        assert_eq!(error.status(), StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(error.code(), "key-cpf-check-digits");
        assert_eq!(error.field(), Some("pixKey"));
    }
}
