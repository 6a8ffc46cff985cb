//! The profile photo: `PUT /api/account/photo` stores it, `GET /fotos/{accountId}` serves it.
//!
//! The bytes live in `account_photos` (outside the event log: a photo is personal data and is
//! deleted with the account); the log only records `PhotoChanged` with the photo's URL,
//! `/fotos/{accountId}?v={etag}`, where the etag is the hex SHA-256 of the bytes, so a new photo
//! gets a new URL and a browser never shows a stale one.
//!
//! Upload rules ([`photo_check`](super::photo_check)): `Content-Type` `image/jpeg`, `image/png`
//! or `image/webp` whose first bytes agree (else 415 `unsupported-photo-type`), at most 1 MiB
//! (else 413 `photo-too-large`; the route has its own body limit, above the API's 64 KiB).
//!
//! Serving: the stored type, `X-Content-Type-Options: nosniff` (a browser must never read the
//! bytes as anything else), an `ETag`, `Cache-Control: private, no-cache` (revalidate each time;
//! `If-None-Match` answers 304), and a 404 when the account has no photo. The photo is public to
//! whoever knows the account id (an `<img>` sends no bearer token), like an avatar on any site.

use axum::body::{Body, Bytes};
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use domain::account::{AccountCommand, ChangePhoto};
use serde::Serialize;
use uuid::Uuid;

use super::photo_check::{check, declared, photo_too_large};
use crate::api::caller::Authenticated;
use crate::api::json::Json;
use crate::api::support::{metadata, now};
use crate::error::ApiError;
use crate::error::AppError;
use crate::read_your_writes::wait_for;
use crate::state::AppState;

/// The answer to an upload.
#[derive(Debug, Serialize)]
pub struct PhotoUploaded {
    /// `/fotos/{accountId}?v={etag}`.
    #[serde(rename = "photoURL")]
    pub photo_url: String,
}

/// The URL of `account_id`'s photo whose bytes hash to `etag`.
pub fn photo_url(account_id: &str, etag: &str) -> String {
    format!("/fotos/{account_id}?v={etag}")
}

/// `PUT /api/account/photo`: the raw image is the body.
///
/// # Errors
///
/// 415 `unsupported-photo-type`, 413 `photo-too-large`, 401 without a valid token, 404 when the
/// account is gone, 403 `user-disabled` when it is disabled.
pub async fn upload(
    State(state): State<AppState>,
    caller: Authenticated,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<PhotoUploaded>, ApiError> {
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok());
    // The type first: a 5 MB PDF is the wrong kind of file before it is too large.
    declared(content_type)?;
    let bytes = body.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            photo_too_large()
        } else {
            ApiError::invalid_json("Não foi possível ler a foto enviada.")
        }
    })?;
    let kind = check(content_type, &bytes)?;
    let account_id = caller.account_id.clone();
    // The bytes first, then the event naming them: the URL in the log never points at nothing.
    let etag = commands::photos::store(&state.pool, &account_id, kind.mime(), &bytes).await?;
    let url = photo_url(&account_id, &etag);
    let command = AccountCommand::ChangePhoto(ChangePhoto {
        photo_url: Some(url.clone()),
        at: now(),
    });
    let outcome = match state
        .accounts
        .execute(&account_id, command, metadata(&account_id))
        .await
    {
        Ok(outcome) => outcome,
        Err(error) => {
            // Refused (deleted or disabled account): the bytes must not stay behind.
            commands::photos::discard(&state.pool, &account_id, &etag).await?;
            return Err(ApiError::from(error));
        }
    };
    wait_for(&state, projections::accounts::NAME, outcome.position).await;
    Ok(Json(PhotoUploaded { photo_url: url }))
}

/// `GET /fotos/{accountId}` (outside `/api`: an `<img>` loads it).
///
/// # Errors
///
/// 404 (the site's page) when the account has no photo.
pub async fn serve(
    State(state): State<AppState>,
    Path(account_id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    let Ok(account) = Uuid::parse_str(&account_id) else {
        return Err(AppError::NotFound);
    };
    let photo = commands::photos::find(&state.pool, &account.hyphenated().to_string()).await?;
    let Some(commands::photos::Photo {
        content_type,
        bytes,
        etag,
    }) = photo
    else {
        return Err(AppError::NotFound);
    };
    let quoted = format!("\"{etag}\"");
    let fresh = headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .any(|tag| {
            let tag = tag.trim();
            tag == "*" || tag.trim_start_matches("W/") == quoted
        });
    let mut response = if fresh {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        Response::new(Body::from(bytes))
    };
    let out = response.headers_mut();
    if !fresh {
        out.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_str(&content_type).map_err(|e| AppError::Internal(e.into()))?,
        );
    }
    out.insert(
        header::ETAG,
        HeaderValue::from_str(&quoted).map_err(|e| AppError::Internal(e.into()))?,
    );
    out.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, no-cache"),
    );
    out.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_url_carries_the_bytes_digest_as_its_version() {
        let etag = commands::photos::etag_of(b"abc");
        assert_eq!(
            etag,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            photo_url("0196a1b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b", &etag),
            format!("/fotos/0196a1b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b?v={etag}")
        );
    }
}
