//! [`Authenticated`]: who is calling, from the bearer token.

use axum::extract::{FromRequestParts, OptionalFromRequestParts};
use axum::http::header;
use axum::http::request::Parts;
use uuid::Uuid;

use crate::auth::now_secs;
use crate::auth::session::{self, SessionState};
use crate::auth::token::Claims;
use crate::error::ApiError;
use crate::state::AppState;

/// The signed-in caller of an API handler: take it as an argument and the handler only runs
/// for a valid `Authorization: Bearer <access token>`.
///
/// Checking costs one query: the token's signature and expiry are checked in memory, then the
/// session is read to make sure it was not ended (sign-out, a reused refresh token, a reset
/// password, a disabled or deleted account). A token therefore stops working the moment its
/// session ends, not when it expires.
///
/// Rejections (as [`ApiError`]): 401 `unauthenticated` for a missing, malformed, forged or
/// expired token or an ended session; 403 `user-disabled` when the session was ended because
/// the account was disabled.
///
/// `Option<Authenticated>` is `None` when there is no `Authorization` header at all, and still
/// refuses a bad one.
///
/// ```ignore
/// async fn handler(caller: Authenticated) -> Result<Json<Answer>, ApiError> {
///     let account_id: &str = &caller.account_id;
///     // …
/// }
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Authenticated {
    /// The signed-in account (the token's `sub`).
    pub account_id: String,
    /// The session the token belongs to (the token's `sid`).
    pub session_id: Uuid,
}

impl Authenticated {
    /// The account id as a UUID (account ids are UUID v7 strings).
    ///
    /// # Errors
    ///
    /// 401 `unauthenticated` if it is not one (a token we did not issue cannot get here).
    pub fn account_uuid(&self) -> Result<Uuid, ApiError> {
        Uuid::parse_str(&self.account_id).map_err(|_| ApiError::unauthenticated())
    }
}

fn bearer(parts: &Parts) -> Option<Result<&str, ApiError>> {
    bearer_of(&parts.headers)
}

/// The token of an `Authorization: Bearer …` header: `None` without the header, 401
/// `unauthenticated` for one that is not a bearer token.
pub(crate) fn bearer_of(headers: &axum::http::HeaderMap) -> Option<Result<&str, ApiError>> {
    let value = headers.get(header::AUTHORIZATION)?;
    let token = value
        .to_str()
        .ok()
        .and_then(|v| {
            let (scheme, token) = v.trim().split_once(' ')?;
            scheme
                .eq_ignore_ascii_case("bearer")
                .then_some(token.trim())
        })
        .filter(|t| !t.is_empty())
        .ok_or_else(ApiError::unauthenticated);
    Some(token)
}

async fn authenticate(token: &str, state: &AppState) -> Result<Authenticated, ApiError> {
    let claims = verified(token, state)?;
    let found = session::state(&state.pool, &claims.sub, claims.sid).await?;
    admitted(state, claims, found).await
}

/// The token's claims once its signature and expiry are checked (in memory, no query).
fn verified(token: &str, state: &AppState) -> Result<Claims, ApiError> {
    state
        .auth
        .tokens
        .verify(token, now_secs())
        .map_err(|reason| {
            tracing::debug!(%reason, "access token refused");
            ApiError::unauthenticated()
        })
}

/// The caller, when the token's session is still active; the refusal otherwise.
async fn admitted(
    state: &AppState,
    claims: Claims,
    found: SessionState,
) -> Result<Authenticated, ApiError> {
    match found {
        SessionState::Active => Ok(Authenticated {
            account_id: claims.sub,
            session_id: claims.sid,
        }),
        // Ended by disabling: say so while the account is still disabled (a second query,
        // only on this rare path); once enabled again it is an ordinary ended session.
        SessionState::Ended(Some(reason))
            if reason == session::EndReason::Disabled.as_str()
                && crate::auth::accounts::is_disabled(&state.accounts, &claims.sub).await? =>
        {
            Err(ApiError::user_disabled())
        }
        SessionState::Ended(_) | SessionState::Missing => Err(ApiError::unauthenticated()),
    }
}

/// [`Authenticated`] and the caller's access to `account` in one query, for the workspace
/// extractor ([`crate::api::access::Workspace`]): the same answers as the extractor followed
/// by [`projections::accounts::access_to`], one round trip fewer on every workspace request.
/// Without a token, or with one that fails its checks, nothing is queried.
///
/// # Errors
///
/// As the extractor's; 503/500 when PostgreSQL fails.
pub(crate) async fn authenticate_in(
    parts: &Parts,
    state: &AppState,
    account: Uuid,
) -> Result<(Authenticated, Option<projections::accounts::Access>), ApiError> {
    let token = bearer(parts).unwrap_or_else(|| Err(ApiError::unauthenticated()))?;
    let claims = verified(token, state)?;
    let (found, access) =
        session::session_and_access(&state.pool, claims.sid, &claims.sub, account).await?;
    let caller = admitted(state, claims, found).await?;
    Ok((caller, access))
}

impl FromRequestParts<AppState> for Authenticated {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        match bearer(parts) {
            None => Err(ApiError::unauthenticated()),
            Some(token) => authenticate(token?, state).await,
        }
    }
}

impl OptionalFromRequestParts<AppState> for Authenticated {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Option<Self>, Self::Rejection> {
        match bearer(parts) {
            None => Ok(None),
            Some(token) => authenticate(token?, state).await.map(Some),
        }
    }
}
