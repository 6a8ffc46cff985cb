//! The e-mailed links: address verification, password recovery and a new sign-in address.
//!
//! Each link carries a single-use action code (`commands::action_codes`); the command it leads to
//! spends the code in the same transaction as its events, so a link works once even when it is
//! opened twice at the same time.
//!
//! | link | path | valid for |
//! |---|---|---|
//! | verify the address | `/verificar-email?oobCode=…` | 3 days |
//! | choose a new password | `/redefinir-senha?oobCode=…` | 1 hour |
//! | confirm a new address | `/verificar-email?oobCode=…` | 24 hours |

use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use commands::action_codes::{self, Purpose};
use commands::claims::{EMAIL_SCOPE, digest, normalise_email};
use commands::vault;
use commands::{CommandMetadata, Effects, FeedPosition};
use domain::account::{
    AccountCommand, ChangeEmail, ChangePassword, PasswordChangeReason, VerifyEmail,
};
use domain::sealed::Sealed;
use serde::Deserialize;

use super::{check_password, link, valid_email};
use crate::api::caller::Authenticated;
use crate::api::json::Json;
use crate::auth::LimitedAction;
use crate::auth::accounts::now;
use crate::auth::session::{self, EndReason};
use crate::client_address::ClientAddress;
use crate::error::ApiError;
use crate::mail::Email;
use crate::read_your_writes::wait_for;
use crate::state::AppState;

/// How long an address-verification link works.
pub use commands::sign_up::VERIFY_EMAIL_TTL;
/// How long a password-reset link works.
pub const RESET_PASSWORD_TTL: Duration = Duration::from_secs(3600);
/// How long a new-address confirmation link works.
pub const CHANGE_EMAIL_TTL: Duration = Duration::from_secs(24 * 3600);
/// The dashboard page that verifies an address (and confirms a new one).
const VERIFY_PATH: &str = "/verificar-email";
/// The dashboard page that sets a new password.
const RESET_PATH: &str = "/redefinir-senha";
/// The query parameter carrying the code on both pages.
const CODE_PARAM: &str = "oobCode";
/// The field of a `change_email` code's payload holding the new address, sealed with the
/// account's key.
const NEW_EMAIL_FIELD: &str = "email";

/// Issues a verification code for `account_id` and e-mails the link to `email` in the
/// background. Failures are logged and counted, never returned: the caller's answer does not
/// depend on the mail server.
pub async fn send_verification_email(
    state: &AppState,
    account_id: &str,
    email: &str,
    display_name: &str,
) {
    match action_codes::issue(
        &state.pool,
        account_id,
        Purpose::VerifyEmail,
        serde_json::json!({}),
        VERIFY_EMAIL_TTL,
    )
    .await
    {
        Ok(issued) => mail_verification_link(state, &issued.code, email, display_name),
        Err(error) => {
            tracing::warn!(%error, account_id, "could not issue the verification code");
        }
    }
}

/// E-mails the verification link carrying the committed `code` to `email`, in the background.
pub fn mail_verification_link(state: &AppState, code: &str, email: &str, display_name: &str) {
    let url = link(state, VERIFY_PATH, CODE_PARAM, code);
    state.mailer.send_in_background(Email::verify_email(
        email,
        display_name,
        &url,
        VERIFY_EMAIL_TTL,
    ));
}

/// Starts moving `account_id` to `new_email`: issues a `change_email` code carrying the new
/// address (sealed) and e-mails the confirmation link to the new address. The account keeps its
/// current address until the link is opened (`POST /api/auth/verify-email`), which claims the
/// new address, releases the old one and marks the new one verified.
///
/// `new_email` is checked and normalised here; `display_name` greets the person.
///
/// # Errors
///
/// 422 `invalid-argument` (field `newEmail`) for a malformed address or the current one; 409
/// `email-already-in-use` when another account has it; 404 `not-found` when the account has no
/// key (deleted); a failure.
pub async fn request_email_change(
    state: &AppState,
    account_id: &str,
    new_email: &str,
    display_name: &str,
) -> Result<(), ApiError> {
    let new_email = valid_email(new_email, "newEmail")?;
    match commands::claims::owner_of(&state.pool, EMAIL_SCOPE, &digest(&new_email)).await? {
        Some(owner) if owner == account_id => {
            return Err(ApiError::invalid_argument(
                "newEmail",
                "Este já é o e-mail da sua conta.",
            ));
        }
        Some(_) => return Err(ApiError::email_already_in_use().with_field("newEmail")),
        None => {}
    }
    let key = vault::load_key(&state.pool, account_id)
        .await
        .map_err(|e| ApiError::internal(anyhow::Error::new(e)))?
        .ok_or_else(ApiError::not_found)?;
    let sealed = key.seal(&new_email);
    let issued = action_codes::issue(
        &state.pool,
        account_id,
        Purpose::ChangeEmail,
        serde_json::json!({ NEW_EMAIL_FIELD: sealed.as_str() }),
        CHANGE_EMAIL_TTL,
    )
    .await?;
    let url = link(state, VERIFY_PATH, CODE_PARAM, &issued.code);
    state.mailer.send_in_background(Email::confirm_new_email(
        &new_email,
        display_name,
        &url,
        CHANGE_EMAIL_TTL,
    ));
    Ok(())
}

/// `POST /api/auth/recover`.
#[derive(Debug, Deserialize)]
pub struct Recover {
    email: String,
}

/// `POST /api/auth/recover {email}`: 204 whatever happens next. When the address belongs to
/// an open, enabled account, a reset link is issued and e-mailed; that work runs after the
/// answer, so neither the answer nor its timing says whether the account exists. Limited per
/// client address and per e-mail.
pub async fn recover(
    State(state): State<AppState>,
    client: ClientAddress,
    Json(body): Json<Recover>,
) -> Result<StatusCode, ApiError> {
    let email = valid_email(&body.email, "email")?;
    let email_digest = digest(&email);
    state
        .auth
        .limits
        .check(LimitedAction::Recover, Some(client.0), Some(&email_digest))?;
    tokio::spawn(async move {
        if let Err(error) = send_reset_link(&state, &email, &email_digest).await {
            tracing::warn!(error = %error, "the recovery e-mail could not be prepared");
        }
    });
    Ok(StatusCode::NO_CONTENT)
}

async fn send_reset_link(
    state: &AppState,
    email: &str,
    email_digest: &str,
) -> Result<(), ApiError> {
    let Some(account_id) =
        commands::claims::owner_of(&state.pool, EMAIL_SCOPE, email_digest).await?
    else {
        return Ok(());
    };
    let account = state.accounts.load(&account_id).await?.aggregate;
    if !account.is_open() || account.is_deleted() || account.is_disabled() {
        return Ok(());
    }
    let issued = action_codes::issue(
        &state.pool,
        &account_id,
        Purpose::ResetPassword,
        serde_json::json!({}),
        RESET_PASSWORD_TTL,
    )
    .await?;
    let url = link(state, RESET_PATH, CODE_PARAM, &issued.code);
    // Already on a task of its own: send here, so the outcome is logged with this work.
    let _ = state
        .mailer
        .send(&Email::reset_password(email, &url, RESET_PASSWORD_TTL))
        .await;
    Ok(())
}

/// `POST /api/auth/reset`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Reset {
    oob_code: String,
    new_password: String,
}

/// `POST /api/auth/reset {oobCode, newPassword}`: sets the password and ends every session of
/// the account (whoever was signed in must sign in again with the new password). 400
/// `expired-action-code` for a used, expired or unknown code; 422 `weak-password`.
pub async fn reset(
    State(state): State<AppState>,
    Json(body): Json<Reset>,
) -> Result<StatusCode, ApiError> {
    let Some(pending) =
        action_codes::peek(&state.pool, &body.oob_code, Purpose::ResetPassword).await?
    else {
        return Err(ApiError::expired_action_code());
    };
    check_password(&state, &body.new_password, "newPassword")?;
    let password_hash = state.auth.passwords.hash(body.new_password).await?;
    let account_id = pending.account_id;
    state
        .accounts
        .execute_with(
            &account_id,
            AccountCommand::ChangePassword(ChangePassword {
                password_hash,
                reason: PasswordChangeReason::Reset,
                at: now(),
            }),
            commands::ExpectedVersion::Any,
            CommandMetadata::start().by(account_id.clone()),
            &Effects::new().consume_action_code(&body.oob_code, Purpose::ResetPassword),
        )
        .await?;
    let ended = session::end_all(&state.pool, &account_id, None, EndReason::PasswordReset).await?;
    tracing::info!(%account_id, sessions_ended = ended, "password reset by e-mail");
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/auth/reset/check`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResetCheck {
    oob_code: String,
}

/// `POST /api/auth/reset/check {oobCode}`: 204 while the reset link still works, 400
/// `expired-action-code` for a used, expired or unknown code. It reads the code and never spends
/// it, so the page a link opens can say at once that the link is spent, before a new password is
/// typed for nothing. (A POST, so the code stays out of access logs, as with `reset`.)
pub async fn check_reset(
    State(state): State<AppState>,
    Json(body): Json<ResetCheck>,
) -> Result<StatusCode, ApiError> {
    action_codes::peek(&state.pool, &body.oob_code, Purpose::ResetPassword)
        .await?
        .map(|_| StatusCode::NO_CONTENT)
        .ok_or_else(ApiError::expired_action_code)
}

/// `POST /api/auth/verify-email`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VerifyEmailBody {
    oob_code: String,
}

/// `POST /api/auth/verify-email {oobCode}`: a verification link marks the address verified; a
/// new-address link moves the account to the new address (claiming it, releasing the old one)
/// and marks it verified. 410 `expired-action-code` for a used, expired or unknown code.
pub async fn verify_email(
    State(state): State<AppState>,
    Json(body): Json<VerifyEmailBody>,
) -> Result<StatusCode, ApiError> {
    let code = body.oob_code;
    if let Some(pending) = action_codes::peek(&state.pool, &code, Purpose::VerifyEmail).await? {
        let account_id = pending.account_id;
        let outcome = state
            .accounts
            .execute_with(
                &account_id,
                AccountCommand::VerifyEmail(VerifyEmail { at: now() }),
                commands::ExpectedVersion::Any,
                CommandMetadata::start().by(account_id.clone()),
                &Effects::new().consume_action_code(&code, Purpose::VerifyEmail),
            )
            .await?;
        // The page that opened the link reads `/me` next: answer once the read model shows it.
        wait_for(&state, projections::accounts::NAME, outcome.position).await;
        return Ok(StatusCode::NO_CONTENT);
    }
    if let Some(pending) = action_codes::peek(&state.pool, &code, Purpose::ChangeEmail).await? {
        let position = change_email(&state, &code, &pending.account_id, &pending.payload).await?;
        wait_for(&state, projections::accounts::NAME, position).await;
        return Ok(StatusCode::NO_CONTENT);
    }
    Err(ApiError::expired_action_code())
}

async fn change_email(
    state: &AppState,
    code: &str,
    account_id: &str,
    payload: &serde_json::Value,
) -> Result<Option<FeedPosition>, ApiError> {
    let sealed = payload
        .get(NEW_EMAIL_FIELD)
        .and_then(serde_json::Value::as_str)
        .map(Sealed::from_text)
        .ok_or_else(|| {
            ApiError::internal(anyhow::anyhow!("a change_email code without its address"))
        })?;
    let Some(key) = vault::load_key(&state.pool, account_id)
        .await
        .map_err(|e| ApiError::internal(anyhow::Error::new(e)))?
    else {
        // The account was deleted since: the link leads nowhere.
        return Err(ApiError::expired_action_code());
    };
    let open = |sealed: &Sealed| {
        key.open(sealed)
            .map(|plain| normalise_email(&plain))
            .map_err(|e| ApiError::internal(anyhow::anyhow!("{e}")))
    };
    let new_digest = digest(&open(&sealed)?);
    let account = state.accounts.load(account_id).await?.aggregate;
    let old_digest = account.email().map(open).transpose()?.map(|e| digest(&e));

    let mut effects = Effects::new().consume_action_code(code, Purpose::ChangeEmail);
    if old_digest.as_deref() != Some(new_digest.as_str()) {
        if let Some(old) = old_digest {
            effects = effects.release(EMAIL_SCOPE, old);
        }
        effects = effects.claim(EMAIL_SCOPE, new_digest, account_id);
    }
    let metadata = CommandMetadata::start().by(account_id.to_owned());
    state
        .accounts
        .execute_with(
            account_id,
            AccountCommand::ChangeEmail(ChangeEmail {
                email: sealed,
                at: now(),
            }),
            commands::ExpectedVersion::Any,
            metadata.clone(),
            &effects,
        )
        .await?;
    // Opening the link proved the new address is theirs.
    let verified = state
        .accounts
        .execute(
            account_id,
            AccountCommand::VerifyEmail(VerifyEmail { at: now() }),
            metadata,
        )
        .await?;
    tracing::info!(account_id, "sign-in e-mail changed");
    Ok(verified.position)
}

/// `POST /api/auth/send-verification` (bearer): e-mails a new verification link to the
/// account's address, unless it is verified already. 204, or 429 `too-many-requests` (limited
/// per client address and per account).
pub async fn send_verification(
    State(state): State<AppState>,
    client: ClientAddress,
    caller: Authenticated,
) -> Result<StatusCode, ApiError> {
    state.auth.limits.check(
        LimitedAction::SendVerification,
        Some(client.0),
        Some(&digest(&caller.account_id)),
    )?;
    let Some(row) = super::account_row(&state, &caller.account_id).await? else {
        return Err(ApiError::not_found());
    };
    if row.disabled {
        return Err(ApiError::user_disabled());
    }
    let account = state.accounts.load(&caller.account_id).await?.aggregate;
    if account.email_verified() {
        return Ok(StatusCode::NO_CONTENT);
    }
    let key = vault::load_key(&state.pool, &caller.account_id)
        .await
        .map_err(|e| ApiError::internal(anyhow::Error::new(e)))?
        .ok_or_else(ApiError::not_found)?;
    let email = account
        .email()
        .map(|sealed| key.open(sealed))
        .transpose()
        .map_err(|e| ApiError::internal(anyhow::anyhow!("{e}")))?
        .ok_or_else(ApiError::not_found)?;
    let name = row.display_name.unwrap_or_default();
    send_verification_email(&state, &caller.account_id, &email, &name).await;
    Ok(StatusCode::NO_CONTENT)
}
