//! Sign-up, sign-in and the password policy.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use chrono::Utc;
use commands::claims::{EMAIL_SCOPE, digest};
use commands::sign_up::{self, NewAccount};
use commands::vault;
use serde::{Deserialize, Serialize};

use super::{
    UserView, account_row, check_password, signed_in, user_agent, valid_display_name, valid_email,
};
use crate::api::json::Json;
use crate::api::same_origin::SameOrigin;
use crate::auth::LimitedAction;
use crate::auth::accounts::now;
use crate::auth::session;
use crate::client_address::ClientAddress;
use crate::error::ApiError;
use crate::read_your_writes::wait_for;
use crate::state::AppState;

/// `GET /api/auth/password-policy`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PolicyAnswer {
    min_length: usize,
    require_lowercase: bool,
    require_uppercase: bool,
    require_numeric: bool,
    require_non_alphanumeric: bool,
}

/// `GET /api/auth/password-policy`: the rules the server enforces, for the form's checklist.
pub async fn password_policy(State(state): State<AppState>) -> Json<PolicyAnswer> {
    let policy = state.auth.policy;
    Json(PolicyAnswer {
        min_length: policy.min_length,
        require_lowercase: policy.require_lowercase,
        require_uppercase: policy.require_uppercase,
        require_numeric: policy.require_numeric,
        require_non_alphanumeric: policy.require_non_alphanumeric,
    })
}

/// `POST /api/auth/signup`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SignUp {
    email: String,
    password: String,
    display_name: String,
}

/// `POST /api/auth/signup`: opens the account, signs it in and sends the verification e-mail.
/// Limited per client address and per e-mail (429 `too-many-requests` with `Retry-After`): each
/// sign-up hashes a password and sends an e-mail to an address of the caller's choosing.
///
/// The e-mail's uniqueness is guarded by a claim written in the same transaction as the
/// `AccountOpened` event, so of simultaneous sign-ups with one address exactly one succeeds and
/// the others answer 409 `email-already-in-use`. The early look-up only spares them the
/// password hashing. The session and the verification code are written in that transaction
/// too; only the e-mail is sent after it.
pub async fn sign_up(
    State(state): State<AppState>,
    _same_origin: SameOrigin,
    client: ClientAddress,
    headers: HeaderMap,
    Json(body): Json<SignUp>,
) -> Result<Response, ApiError> {
    let email = valid_email(&body.email, "email")?;
    let display_name = valid_display_name(&body.display_name)?;
    check_password(&state, &body.password, "password")?;
    state
        .auth
        .limits
        .check(LimitedAction::SignUp, Some(client.0), Some(&digest(&email)))?;
    // Spares the password hashing when the address is known to be taken; the claim decides.
    if sign_up::address_taken(&state.accounts, &email).await? {
        return Err(ApiError::email_already_in_use());
    }
    let password_hash = state.auth.passwords.hash(body.password).await?;
    let opened_at = Utc::now();
    let opened = sign_up::open_account(
        &state.accounts,
        NewAccount {
            email,
            display_name: display_name.clone(),
            password_hash,
            user_agent: user_agent(&headers).map(str::to_owned),
            at: now(),
        },
    )
    .await?;
    let account_id = opened.account_id;
    let email = opened.email;
    let new_session = opened.session;
    super::mail_verification_link(&state, opened.verification.as_str(), &email, &display_name);

    // The account is open: from here on the read model is only a nicer answer, never a reason
    // to fail.
    let row = if wait_for(&state, projections::accounts::NAME, opened.position).await {
        account_row(&state, &account_id)
            .await
            .inspect_err(|error| tracing::warn!(%error, %account_id, "could not read the new account; answering from the command"))
            .ok()
            .flatten()
    } else {
        None
    };
    let user = if let Some(row) = row {
        UserView::from_row(&row, Some(opened_at))
    } else {
        // The read model is late: answer from what this request knows; `/me` catches up.
        UserView::new(
            account_id.clone(),
            email,
            false,
            Some(display_name),
            opened_at,
            opened_at,
        )
    };
    Ok(signed_in(&state, &account_id, &new_session, user))
}

/// `POST /api/auth/login`.
#[derive(Debug, Deserialize)]
pub struct LogIn {
    email: String,
    password: String,
}

/// `POST /api/auth/login`: checks the password against the account as the event log has it
/// (not the read model, which may lag), then starts a session.
///
/// An unknown e-mail and a wrong password get the same answer, 401 `invalid-credential`, after
/// the same work (a password check against a dummy hash), so neither the answer nor its timing
/// tells whether an address has an account. `user-disabled` is only said to someone who gave
/// the right password.
pub async fn log_in(
    State(state): State<AppState>,
    _same_origin: SameOrigin,
    client: ClientAddress,
    headers: HeaderMap,
    Json(body): Json<LogIn>,
) -> Result<Response, ApiError> {
    let email = valid_email(&body.email, "email")?;
    let email_digest = digest(&email);
    state
        .auth
        .limits
        .check(LimitedAction::SignIn, Some(client.0), Some(&email_digest))?;

    let owner = commands::claims::owner_of(&state.pool, EMAIL_SCOPE, &email_digest).await?;
    let account = match &owner {
        Some(account_id) => {
            let loaded = state.accounts.load(account_id).await?;
            Some(loaded.aggregate).filter(|a| a.is_open() && !a.is_deleted())
        }
        None => None,
    };
    let (Some(account_id), Some(account)) = (owner, account) else {
        state.auth.passwords.verify_nothing(body.password).await?;
        return Err(ApiError::invalid_credential());
    };
    let stored = account.password_hash().unwrap_or_default().to_owned();
    if !state.auth.passwords.verify(body.password, stored).await? {
        return Err(ApiError::invalid_credential());
    }
    if account.is_disabled() {
        return Err(ApiError::user_disabled());
    }

    let new_session = session::start(&state.pool, &account_id, user_agent(&headers)).await?;
    let signed_in_at = Utc::now();
    let user = match account_row(&state, &account_id).await? {
        Some(row) => UserView::from_row(&row, Some(signed_in_at)),
        None => {
            // Only right after a sign-up whose read model is still late: open what the event
            // log has.
            let email = match vault::load_key(&state.pool, &account_id).await {
                Ok(Some(key)) => account
                    .email()
                    .and_then(|sealed| key.open(sealed).ok())
                    .unwrap_or(email),
                _ => email,
            };
            UserView::new(
                account_id.clone(),
                email,
                account.email_verified(),
                None,
                signed_in_at,
                signed_in_at,
            )
        }
    };
    Ok(signed_in(&state, &account_id, &new_session, user))
}
