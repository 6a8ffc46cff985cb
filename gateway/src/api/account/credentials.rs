//! The signed-in person's password and sign-in e-mail: `POST /api/account/password` and
//! `POST /api/account/email`. Both ask for the current password again, checked against the
//! Account aggregate's hash (argon2id, [`crate::auth::password`]), so a borrowed unlocked
//! device is not enough to take the account over.
//!
//! | call | answer |
//! |---|---|
//! | password | 204; the person's **other** sessions end (this one stays signed in); 400 `wrong-password` on `currentPassword`; 422 `weak-password` on `newPassword` (the message lists what is missing) |
//! | e-mail | 204 once a confirmation link is on its way to the new address (nothing changes until it is opened: the auth API's `verify-email` applies it; see [`request_email_change`]); 400 `wrong-password` on `password`; 422 `invalid-argument` on `newEmail` (malformed, or the current address); 409 `email-already-in-use` on `newEmail` |

use axum::extract::State;
use axum::http::StatusCode;
use commands::ExpectedVersion;
use domain::account::{Account, AccountCommand, ChangePassword, PasswordChangeReason};
use serde::Deserialize;

use super::settings::own_account;
use crate::api::auth::{check_password, request_email_change, valid_email};
use crate::api::caller::Authenticated;
use crate::api::json::Json;
use crate::api::support::{metadata, now};
use crate::auth::LimitedAction;
use crate::auth::session::{self, EndReason};
use crate::error::ApiError;
use crate::state::AppState;

/// `POST /api/account/password` body.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PasswordChange {
    /// The password in use now.
    pub current_password: String,
    /// The one to use from now on.
    pub new_password: String,
}

/// `POST /api/account/email` body.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EmailChange {
    /// The address to move the account to.
    pub new_email: String,
    /// The current password.
    pub password: String,
}

/// The caller's account as the aggregate stands, once `password` is confirmed to be its
/// password: the authoritative check (the read model holds no hash).
///
/// # Errors
///
/// 400 `wrong-password` on `field`; 404 when the account is gone; 429 `too-many-requests` after
/// the per-account budget of attempts (`BALCAO_AUTH_PER_MINUTE_PER_EMAIL` a minute).
pub(crate) async fn confirm_password(
    state: &AppState,
    caller: &Authenticated,
    password: &str,
    field: &str,
) -> Result<(Account, i64), ApiError> {
    state.auth.limits.check(
        LimitedAction::ConfirmPassword,
        None,
        Some(&caller.account_id),
    )?;
    let loaded = state
        .accounts
        .load(&caller.account_id)
        .await
        .map_err(ApiError::from)?;
    let Some(hash) = loaded.aggregate.password_hash().map(str::to_owned) else {
        return Err(ApiError::not_found());
    };
    if loaded.aggregate.is_disabled() {
        return Err(ApiError::user_disabled());
    }
    let matches = state
        .auth
        .passwords
        .verify(password.to_owned(), hash)
        .await?;
    if !matches {
        return Err(ApiError::wrong_password().with_field(field.to_owned()));
    }
    Ok((loaded.aggregate, loaded.version))
}

/// `POST /api/account/password`.
///
/// # Errors
///
/// As the module table says.
pub async fn change_password(
    State(state): State<AppState>,
    caller: Authenticated,
    Json(body): Json<PasswordChange>,
) -> Result<StatusCode, ApiError> {
    let (_, version) =
        confirm_password(&state, &caller, &body.current_password, "currentPassword").await?;
    check_password(&state, &body.new_password, "newPassword")?;
    let password_hash = state.auth.passwords.hash(body.new_password).await?;
    let command = AccountCommand::ChangePassword(ChangePassword {
        password_hash,
        reason: PasswordChangeReason::Changed,
        at: now(),
    });
    // Exactly the version whose hash was checked: a password changed meanwhile (another
    // device, a reset link) makes this one a conflict rather than a silent overwrite.
    state
        .accounts
        .execute_expecting(
            &caller.account_id,
            command,
            ExpectedVersion::Exact(version),
            metadata(&caller.account_id),
        )
        .await
        .map_err(ApiError::from)?;
    end_other_sessions(&state, &caller).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Ends every session of the caller's account but the one making the request: whoever else
/// knew the old password is signed out, the person changing it is not.
async fn end_other_sessions(state: &AppState, caller: &Authenticated) -> Result<(), ApiError> {
    let ended = session::end_all(
        &state.pool,
        &caller.account_id,
        Some(caller.session_id),
        EndReason::Ended,
    )
    .await?;
    tracing::info!(
        account_id = caller.account_id,
        sessions_ended = ended,
        "password changed; the other sessions were ended"
    );
    Ok(())
}

/// `POST /api/account/email`.
///
/// # Errors
///
/// As the module table says.
pub async fn change_email(
    State(state): State<AppState>,
    caller: Authenticated,
    Json(body): Json<EmailChange>,
) -> Result<StatusCode, ApiError> {
    // The address first: it costs nothing, the password check costs an argon2 run.
    valid_email(&body.new_email, "newEmail")?;
    confirm_password(&state, &caller, &body.password, "password").await?;
    let account = own_account(&state, &caller).await?;
    request_email_change(
        &state,
        &caller.account_id,
        &body.new_email,
        account.display_name.as_deref().unwrap_or_default(),
    )
    .await?;
    Ok(StatusCode::NO_CONTENT)
}
