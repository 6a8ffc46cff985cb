//! The shop's logo on its signs (Premium): `PUT`, `GET` and `DELETE
//! /api/accounts/{accountId}/sign-logo`.
//!
//! The raw file is the body (so the dashboard can show the upload's progress). It must be PNG,
//! JPEG or SVG **by its bytes** (`domain::sign::logo`; a declared `Content-Type` that disagrees
//! with them is refused too), at most 2 MB; an SVG is stored sanitised. The file goes to the
//! object store ([`crate::storage`]) at `logos/{accountId}/{sha256}.{ext}`: the newest object
//! under the account's folder is the logo, and its name is its checksum, checked on every read.
//! Once the logo is in the store, the account's signs (`/placas/{id}.pdf|png|svg` of its codes)
//! draw it, while the plan allows it.
//!
//! | call | who | answers |
//! |---|---|---|
//! | `PUT` | owner, manager (`ManageSettings`) | 200 `{"contentType", "bytes", "checksum"}`; 402 `plan-limit-reached` on Grátis; 413 `logo-too-large`; 415 `unsupported-logo-type`; 422 `invalid-logo` (an SVG that does not parse, a PNG or JPEG whose size cannot be read); the storage catalogue's code and status when the store fails |
//! | `GET` | any member | the file (`nosniff`, an SVG under a `sandbox` CSP), 404 `not-found` when there is none |
//! | `DELETE` | owner, manager | 204, also when there was none |

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use domain::sign::logo::{Logo, LogoError, LogoFormat, MAX_LOGO_BYTES};
use domain::team::Right;
use serde::Serialize;

use crate::api::access::Workspace;
use crate::api::json::Json;
use crate::error::ApiError;
use crate::state::AppState;
use crate::storage::logos::{current, folder, hex_sha256};

/// The body limit of the upload route: the largest logo and a little room.
pub const BODY_LIMIT: usize = MAX_LOGO_BYTES + 1024;

/// The answer to an upload.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LogoStored {
    /// The stored type.
    pub content_type: &'static str,
    /// The stored size (an SVG after sanitising).
    pub bytes: usize,
    /// The hex SHA-256 of the stored bytes.
    pub checksum: String,
}

fn too_large() -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "logo-too-large",
        LogoError::TooLarge.to_string(),
    )
}

fn refused(error: &LogoError) -> ApiError {
    match error {
        LogoError::TooLarge => too_large(),
        LogoError::Empty | LogoError::UnsupportedType => ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported-logo-type",
            error.to_string(),
        ),
        LogoError::Unreadable(_) | LogoError::BadSvg(_) => ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid-logo",
            error.to_string(),
        ),
    }
}

/// The logo format a `Content-Type` names: `Some(None)` for a generic type
/// (`application/octet-stream`, none) that leaves it to the bytes, `None` for a type that is
/// not a logo's.
fn declared(headers: &HeaderMap) -> Option<Option<LogoFormat>> {
    let Some(value) = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
    else {
        return Some(None);
    };
    let essence = value
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    match essence.as_str() {
        "image/png" => Some(Some(LogoFormat::Png)),
        "image/jpeg" | "image/jpg" => Some(Some(LogoFormat::Jpeg)),
        "image/svg+xml" => Some(Some(LogoFormat::Svg)),
        "" | "application/octet-stream" => Some(None),
        _ => None,
    }
}

/// `PUT /api/accounts/{accountId}/sign-logo`: the raw file is the body.
///
/// # Errors
///
/// See the module table.
pub async fn upload(
    State(state): State<AppState>,
    workspace: Workspace,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<LogoStored>, ApiError> {
    workspace.require(Right::ManageSettings)?;
    crate::billing::allow_logo(&state.billing, workspace.account_id()).await?;
    let unsupported = || refused(&LogoError::UnsupportedType);
    let declared = declared(&headers).ok_or_else(unsupported)?;
    let bytes = body.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            too_large()
        } else {
            ApiError::invalid_json("Não foi possível ler o arquivo enviado. Tente de novo.")
        }
    })?;
    let logo = Logo::check(&bytes).map_err(|e| refused(&e))?;
    if declared.is_some_and(|format| format != logo.format()) {
        return Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported-logo-type",
            format!(
                "O arquivo diz ser {} mas o conteúdo é {}. Salve a imagem de novo como PNG, JPEG ou SVG.",
                declared.map_or("", LogoFormat::mime),
                logo.format().mime()
            ),
        ));
    }
    let stored = Bytes::copy_from_slice(logo.bytes());
    let checksum = hex_sha256(&stored);
    let account = workspace.account_uuid();
    let path = format!(
        "{}/{checksum}.{}",
        folder(account),
        logo.format().extension()
    );
    state.storage.put(&path, stored.clone()).await?;
    // The new one is in place: the older ones go (a failure here leaves them behind, unseen,
    // since the newest object is the logo; the next upload or a removal clears them).
    if let Ok(paths) = state.storage.list(&folder(account)).await {
        for old in paths.iter().filter(|p| **p != path) {
            if let Err(error) = state.storage.delete(old).await {
                tracing::warn!(%old, ?error, "an old logo was left behind");
            }
        }
    }
    Ok(Json(LogoStored {
        content_type: logo.format().mime(),
        bytes: stored.len(),
        checksum,
    }))
}

/// `GET /api/accounts/{accountId}/sign-logo`.
///
/// # Errors
///
/// 404 `not-found` without a logo; the storage catalogue.
pub async fn read(
    State(state): State<AppState>,
    workspace: Workspace,
) -> Result<Response, ApiError> {
    let stored = current(&state.storage, workspace.account_uuid())
        .await?
        .ok_or_else(ApiError::not_found)?;
    let mut response = Response::new(Body::from(stored.logo.bytes().to_vec()));
    let out = response.headers_mut();
    out.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(stored.logo.format().mime()),
    );
    out.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    out.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("default-src 'none'; style-src 'unsafe-inline'; sandbox"),
    );
    out.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if let Ok(etag) = HeaderValue::from_str(&format!("\"{}\"", stored.checksum)) {
        out.insert(header::ETAG, etag);
    }
    Ok(response)
}

/// `DELETE /api/accounts/{accountId}/sign-logo`.
///
/// # Errors
///
/// 403 without `ManageSettings`; the storage catalogue.
pub async fn remove(
    State(state): State<AppState>,
    workspace: Workspace,
) -> Result<Response, ApiError> {
    workspace.require(Right::ManageSettings)?;
    for path in state
        .storage
        .list(&folder(workspace.account_uuid()))
        .await?
    {
        state.storage.delete(&path).await?;
    }
    Ok(StatusCode::NO_CONTENT.into_response())
}
