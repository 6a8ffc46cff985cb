//! The signed-in user and their sessions.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use serde::Serialize;
use uuid::Uuid;

use super::{UserView, account_row};
use crate::api::caller::Authenticated;
use crate::api::json::Json;
use crate::auth::session::{self, EndReason};
use crate::error::ApiError;
use crate::state::AppState;

/// `GET /api/auth/me`: the signed-in account from the `accounts` read model;
/// `lastSignInTime` is the newest session's start. 403 `user-disabled` for a disabled account.
pub async fn me(
    State(state): State<AppState>,
    caller: Authenticated,
) -> Result<Json<UserView>, ApiError> {
    let Some(row) = account_row(&state, &caller.account_id).await? else {
        return Err(ApiError::not_found());
    };
    if row.disabled {
        return Err(ApiError::user_disabled());
    }
    let last_sign_in = session::last_sign_in(&state.pool, &caller.account_id).await?;
    Ok(Json(UserView::from_row(&row, last_sign_in)))
}

/// One session in the list.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionView {
    id: Uuid,
    created_at: DateTime<Utc>,
    last_used_at: DateTime<Utc>,
    user_agent: Option<String>,
    current: bool,
}

/// `{sessions: [...]}`.
#[derive(Debug, Serialize)]
pub struct SessionList {
    sessions: Vec<SessionView>,
}

/// `GET /api/auth/sessions`: the account's live sessions, newest first; `current` marks the
/// caller's.
pub async fn list_sessions(
    State(state): State<AppState>,
    caller: Authenticated,
) -> Result<Json<SessionList>, ApiError> {
    let sessions = session::list(&state.pool, &caller.account_id)
        .await?
        .into_iter()
        .map(|s| SessionView {
            current: s.id == caller.session_id,
            id: s.id,
            created_at: s.created_at,
            last_used_at: s.last_used_at,
            user_agent: s.user_agent,
        })
        .collect();
    Ok(Json(SessionList { sessions }))
}

/// `DELETE /api/auth/sessions/{id}`: ends one of the caller's sessions (the current one too).
/// 404 `not-found` for an id that is not a live session of this account.
pub async fn end_session(
    State(state): State<AppState>,
    caller: Authenticated,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let Ok(id) = Uuid::parse_str(&id) else {
        return Err(ApiError::not_found());
    };
    if session::end(&state.pool, &caller.account_id, id, EndReason::Ended).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::not_found())
    }
}
