//! Reading and keeping codes: the list (search, filters, pages), one code, archive and unarchive.

use axum::extract::{Path, Query, State};
use chrono::{DateTime, Utc};
use commands::{CommandMetadata, ExpectedVersion};
use domain::money::Centavos;
use domain::qrcode::{ArchiveQrCode, QrCodeCommand, UnarchiveQrCode};
use domain::team::Right;
use projections::qrcodes::{QrCodeView, Search};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::json::CodeJson;
use crate::api::access::{Workspace, projection_error};
use crate::api::json::Json;
use crate::error::ApiError;
use crate::read_your_writes::wait_for;
use crate::state::AppState;

/// The default page size (the first list's: at most 200 codes at once).
pub const PAGE: i64 = 200;
/// The largest page.
pub const MAX_PAGE: i64 = 200;

/// The list's query string.
#[derive(Debug, Default, Deserialize)]
pub struct ListQuery {
    /// Text in the description or the txid, or an amount (`12,50`).
    #[serde(default)]
    pub busca: Option<String>,
    /// Only codes made from this registered key.
    #[serde(default)]
    pub chave: Option<String>,
    /// `sim`: archived only; `nao`: active only; absent or `todos`: both. Default: `nao`.
    #[serde(default)]
    pub arquivados: Option<String>,
    /// Only the codes of one batch.
    #[serde(default)]
    pub lote: Option<String>,
    /// The cursor the previous page answered (`next`).
    #[serde(default)]
    pub depois: Option<String>,
    /// Page size (1 … [`MAX_PAGE`]; default [`PAGE`]).
    #[serde(default)]
    pub limite: Option<i64>,
}

/// One page of the list.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ListJson {
    /// Newest first.
    pub qrcodes: Vec<CodeJson>,
    /// The cursor of the next page (`?depois=…`); absent on the last page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
}

fn bad_filter(field: &'static str, message: &'static str) -> ApiError {
    ApiError::invalid_argument(field, message)
}

/// `GET /api/accounts/{accountId}/qrcodes`: the account's codes (an operator's own), newest
/// first, a page at a time.
///
/// # Errors
///
/// As the module table says; 422 `invalid-argument` for a filter that cannot be read.
pub async fn list(
    State(state): State<AppState>,
    workspace: Workspace,
    Query(query): Query<ListQuery>,
) -> Result<Json<ListJson>, ApiError> {
    workspace.require(Right::ViewOwnQrCodes)?;
    let created_by =
        (!workspace.can(Right::ViewAllQrCodes)).then(|| workspace.caller_id().to_owned());
    let text = query
        .busca
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_owned);
    // A search that reads as money also finds codes of that amount ("6,50", "R$ 6,50").
    let amount_centavos = text
        .as_deref()
        .filter(|t| t.chars().any(|c| c.is_ascii_digit()))
        .and_then(|t| Centavos::parse_br(t).ok())
        .and_then(|c| i64::try_from(c.get()).ok());
    let key_id = match query.chave.as_deref().filter(|k| !k.is_empty()) {
        Some(k) => {
            Some(Uuid::parse_str(k).map_err(|_| bad_filter("chave", "Chave Pix desconhecida."))?)
        }
        None => None,
    };
    let batch_id = match query.lote.as_deref().filter(|k| !k.is_empty()) {
        Some(k) => Some(Uuid::parse_str(k).map_err(|_| bad_filter("lote", "Lote desconhecido."))?),
        None => None,
    };
    let archived = match query.arquivados.as_deref() {
        None | Some("" | "nao") => Some(false),
        Some("sim") => Some(true),
        Some("todos") => None,
        Some(_) => {
            return Err(bad_filter(
                "arquivados",
                "Use arquivados=sim, nao ou todos.",
            ));
        }
    };
    let limit = query.limite.unwrap_or(PAGE).clamp(1, MAX_PAGE);
    let after = match query.depois.as_deref().filter(|c| !c.is_empty()) {
        Some(cursor) => Some(parse_cursor(cursor).ok_or_else(|| {
            bad_filter(
                "depois",
                "Esta página da lista não existe mais. Volte ao início.",
            )
        })?),
        None => None,
    };
    let search = Search {
        created_by,
        text,
        amount_centavos,
        key_id,
        archived,
        batch_id,
        after,
        // One more than the page, to know whether a next page exists.
        limit: limit + 1,
    };
    let mut views = projections::qrcodes::search(&state.pool, workspace.account_uuid(), &search)
        .await
        .map_err(projection_error)?;
    let more = i64::try_from(views.len()).unwrap_or(i64::MAX) > limit;
    views.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
    let next = more
        .then(|| views.last().map(|v| cursor(v.created_at, v.qrcode_id)))
        .flatten();
    Ok(Json(ListJson {
        qrcodes: views
            .into_iter()
            .map(|v| CodeJson::from_view(&state, v))
            .collect(),
        next,
    }))
}

/// A keyset cursor: the last row's creation instant (microseconds) and id.
fn cursor(at: DateTime<Utc>, id: Uuid) -> String {
    format!("{}.{}", at.timestamp_micros(), id.simple())
}

fn parse_cursor(text: &str) -> Option<(DateTime<Utc>, Uuid)> {
    let (micros, id) = text.split_once('.')?;
    let at = DateTime::from_timestamp_micros(micros.parse().ok()?)?;
    Some((at, Uuid::parse_str(id).ok()?))
}

/// The account's code `id` as the caller may see it.
///
/// # Errors
///
/// 404 `not-found` when it is not a code of this account; 403 `forbidden` when it is another
/// member's and the caller may see only their own.
pub(crate) async fn code_of(
    state: &AppState,
    workspace: &Workspace,
    id: &str,
) -> Result<QrCodeView, ApiError> {
    let qrcode_id = Uuid::parse_str(id).map_err(|_| ApiError::not_found())?;
    let view = state
        .qrcode(qrcode_id)
        .await
        .map_err(projection_error)?
        .filter(|view| view.owner_id == Some(workspace.account_uuid()))
        .ok_or_else(ApiError::not_found)?;
    if view.created_by.as_deref() != Some(workspace.caller_id()) {
        workspace.require(Right::ViewAllQrCodes)?;
    }
    Ok(view)
}

/// `GET /api/accounts/{accountId}/qrcodes/{id}`.
///
/// # Errors
///
/// As `code_of`.
pub async fn show(
    State(state): State<AppState>,
    workspace: Workspace,
    Path((_, id)): Path<(String, String)>,
) -> Result<Json<CodeJson>, ApiError> {
    workspace.require(Right::ViewOwnQrCodes)?;
    let view = code_of(&state, &workspace, &id).await?;
    Ok(Json(CodeJson::from_view(&state, view)))
}

/// `POST /api/accounts/{accountId}/qrcodes/{id}/arquivar`.
///
/// # Errors
///
/// As `code_of`; 409 `qrcode-already-archived`.
pub async fn archive(
    State(state): State<AppState>,
    workspace: Workspace,
    Path((_, id)): Path<(String, String)>,
) -> Result<Json<CodeJson>, ApiError> {
    let command = QrCodeCommand::ArchiveQrCode(ArchiveQrCode {
        by: workspace.caller_id().to_owned(),
        at: crate::auth::accounts::now(),
    });
    change(&state, &workspace, &id, command).await
}

/// `POST /api/accounts/{accountId}/qrcodes/{id}/desarquivar`.
///
/// # Errors
///
/// As `code_of`; 409 `qrcode-not-archived`.
pub async fn unarchive(
    State(state): State<AppState>,
    workspace: Workspace,
    Path((_, id)): Path<(String, String)>,
) -> Result<Json<CodeJson>, ApiError> {
    let command = QrCodeCommand::UnarchiveQrCode(UnarchiveQrCode {
        by: workspace.caller_id().to_owned(),
        at: crate::auth::accounts::now(),
    });
    change(&state, &workspace, &id, command).await
}

async fn change(
    state: &AppState,
    workspace: &Workspace,
    id: &str,
    command: QrCodeCommand,
) -> Result<Json<CodeJson>, ApiError> {
    // Making codes is the right archiving needs; another member's code needs seeing them all.
    workspace.require(Right::CreateQrCodes)?;
    let view = code_of(state, workspace, id).await?;
    let outcome = state
        .qrcodes
        .execute_expecting(
            &view.qrcode_id.to_string(),
            command,
            ExpectedVersion::Any,
            CommandMetadata::start().by(workspace.caller_id().to_owned()),
        )
        .await
        .map_err(ApiError::from)?;
    if wait_for(state, projections::qrcodes::NAME, outcome.position).await
        && let Ok(Some(fresh)) = projections::qrcodes::find(&state.pool, view.qrcode_id).await
    {
        return Ok(Json(CodeJson::from_view(state, fresh)));
    }
    // The read model is late: the row as it will be.
    let mut json = CodeJson::from_view(state, view);
    json.version = outcome.version;
    Ok(Json(json))
}
