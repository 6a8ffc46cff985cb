//! Refreshing the access token and signing out.

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, FormRejection};
use axum::extract::{Form, FromRequestParts, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::TokenAnswer;
use crate::api::caller::Authenticated;
use crate::api::json::{self, Json};
use crate::api::same_origin::SameOrigin;
use crate::auth::cookie::{ended_session_cookies, read_refresh_cookie, session_cookies};
use crate::auth::now_secs;
use crate::auth::session::{self, EndReason, Refresh, Refused};
use crate::auth::token::ACCESS_TOKEN_TTL;
use crate::error::ApiError;
use crate::state::AppState;

/// `POST /api/auth/token` form.
#[derive(Debug, Deserialize)]
pub struct TokenForm {
    grant_type: Option<String>,
}

/// An error that also removes the refresh cookie (a refused token is useless to keep).
fn refused(state: &AppState, error: ApiError) -> Response {
    (ended_session_cookies(state.auth.cookie_secure), error).into_response()
}

/// `POST /api/auth/token` (`grant_type=refresh_token`, the refresh cookie): a new access token
/// and the next refresh token.
///
/// The presented token is spent. Presenting it again within the reuse interval
/// (`BALCAO_REFRESH_REUSE_INTERVAL_SECS`: a retry after a lost answer, parallel tabs) answers the
/// same successor; presenting it later ends its session (someone else has it too), so the
/// successor stops working as well. Cross-site requests are refused (403 `cross-site-request`,
/// [`SameOrigin`]). A session ended because the account was
/// disabled (or an account disabled since) answers 403 `user-disabled`; anything else refused
/// 401 `invalid-credential`. A refusal clears the cookie.
pub async fn refresh(
    State(state): State<AppState>,
    _same_origin: SameOrigin,
    headers: HeaderMap,
    form: Result<Form<TokenForm>, FormRejection>,
) -> Result<Response, ApiError> {
    let Form(form) = form.map_err(|rejection| match rejection {
        FormRejection::InvalidFormContentType(_) => ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported-media-type",
            "Envie o pedido como formulário (application/x-www-form-urlencoded).",
        ),
        other if other.status() == StatusCode::PAYLOAD_TOO_LARGE => ApiError::payload_too_large(),
        _ => ApiError::invalid_json("O formulário do pedido não pôde ser lido."),
    })?;
    if form.grant_type.as_deref() != Some("refresh_token") {
        return Err(ApiError::invalid_argument(
            "grant_type",
            "Use grant_type=refresh_token.",
        ));
    }
    let Some(presented) = read_refresh_cookie(&headers) else {
        return Ok(refused(&state, ApiError::session_expired()));
    };
    let (account_id, session_id, successor) =
        match session::rotate(&state.pool, &presented, state.auth.refresh_reuse_interval).await? {
            Refresh::Rotated {
                account_id,
                session_id,
                refresh_token,
            } => (account_id, session_id, refresh_token),
            Refresh::Refused(Refused::Ended {
                account_id,
                reason: Some(reason),
            }) if reason == EndReason::Disabled.as_str()
                && crate::auth::accounts::is_disabled(&state.accounts, &account_id).await? =>
            {
                return Ok(refused(&state, ApiError::user_disabled()));
            }
            Refresh::Refused(reason) => {
                tracing::debug!(?reason, "refresh token refused");
                return Ok(refused(&state, ApiError::session_expired()));
            }
        };
    // A sign-in that raced with disabling the account may hold a session the disabling did
    // not see: the read model settles it.
    if let Some(row) = super::account_row(&state, &account_id).await?
        && row.disabled
    {
        session::end(&state.pool, &account_id, session_id, EndReason::Disabled).await?;
        return Ok(refused(&state, ApiError::user_disabled()));
    }
    let answer = TokenAnswer {
        access_token: state.auth.tokens.issue(&account_id, session_id, now_secs()),
        expires_in: ACCESS_TOKEN_TTL.as_secs(),
    };
    Ok((
        session_cookies(&successor, state.auth.cookie_secure),
        Json(answer),
    )
        .into_response())
}

/// `POST /api/auth/revoke` body (optional: an empty body signs out this device).
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RevokeBody {
    #[serde(default)]
    all_devices: bool,
}

/// `POST /api/auth/revoke {allDevices}`: signs out this session, or every session of the
/// account. The session is found from the bearer token or, without a usable one, from the
/// refresh cookie, so a person whose access token expired can still sign out. Answers 204 and
/// clears the cookie; 401 `unauthenticated` (cookie cleared too) when neither identifies a live
/// session, which the dashboard reads as "already signed out".
pub async fn revoke(
    State(state): State<AppState>,
    _same_origin: SameOrigin,
    mut parts: Parts,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let body = body.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::payload_too_large()
        } else {
            ApiError::invalid_json("Não foi possível ler o corpo do pedido.")
        }
    })?;
    let request: RevokeBody = if body.iter().all(u8::is_ascii_whitespace) {
        RevokeBody::default()
    } else {
        let is_json = parts
            .headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.to_ascii_lowercase().contains("json"));
        if !is_json {
            return Err(ApiError::unsupported_media_type());
        }
        json::parse(&body)?
    };
    // A bad or ended bearer token is not an error here: the cookie may still name the session.
    let from_token =
        <Authenticated as FromRequestParts<AppState>>::from_request_parts(&mut parts, &state)
            .await
            .ok()
            .map(|caller| (caller.account_id, caller.session_id));
    let identified = match from_token {
        Some(found) => Some(found),
        None => match read_refresh_cookie(&parts.headers) {
            Some(token) => session::owner_of_token(&state.pool, &token)
                .await?
                .map(|(session_id, account_id)| (account_id, session_id)),
            None => None,
        },
    };
    let Some((account_id, session_id)) = identified else {
        return Ok(refused(&state, ApiError::unauthenticated()));
    };
    if request.all_devices {
        let ended = session::end_all(&state.pool, &account_id, None, EndReason::SignOutAll).await?;
        tracing::info!(%account_id, ended, "signed out of every device");
    } else if !session::end(&state.pool, &account_id, session_id, EndReason::SignOut).await? {
        return Ok(refused(&state, ApiError::unauthenticated()));
    }
    Ok((
        StatusCode::NO_CONTENT,
        ended_session_cookies(state.auth.cookie_secure),
    )
        .into_response())
}
