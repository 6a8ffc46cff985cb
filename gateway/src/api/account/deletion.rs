//! `POST /api/account/delete {password}`: the signed-in person erases their account.
//!
//! The password is asked again (400 `wrong-password` on `password`), then the workflow in
//! [`commands::account_deletion`] runs, in this order:
//!
//! 1. **the teams the person works in are left**: in each, `RemoveMember` on the owner's account
//!    releases the invitation's claim on the address and shreds the invitation's own key, so
//!    the person's address becomes unreadable in the owner's log too; the owner sees the member
//!    gone and may invite the address again. Done first so that a failure here leaves the account intact
//!    and the request can simply be repeated;
//! 2. **`DeleteAccount`**, with, in the same transaction (`commands::Effects`): every unique
//!    claim the account holds released (its sign-in e-mail, so the address can sign up again,
//!    and the invitations its own team sent) and **its key destroyed** (`account_keys`), with
//!    the keys of every invitation it sent: every sealed field in its history (e-mail, name,
//!    phone, default receiver name and city, the addresses it invited) can never be opened
//!    again;
//! 3. also in that transaction, the photo (`account_photos`), every e-mailed link's code
//!    (`action_codes`) and every session with its refresh tokens (`auth_sessions`,
//!    `refresh_tokens`) are deleted: access tokens already issued stop working at once. So a
//!    deletion that fails leaves the account whole, signed in, and can simply be asked again;
//!    one that answers 204 left nothing of this behind;
//! 4. the answer waits for the `accounts` read model, which drops the account's row and every
//!    team row naming it (as workspace or as member), and clears the refresh cookie.
//!
//! # What deletion keeps, and why
//!
//! - **The event log** is append-only and keeps the account's events, but their personal fields
//!   are only ever [`Sealed`](domain::sealed::Sealed) with the account's key, which step 2
//!   destroys: what remains is ids, times, roles, password hashes of a login that no longer
//!   exists, and the photo URL (a path with the account id). No plain e-mail, name or phone is
//!   in the log, ever (a test searches the raw payloads for the address).
//! - **QR codes** the account (or its team) made stay, as payment records: a static Pix code is
//!   printed on signs and may still be paid after the account is gone, and the payer page at
//!   `/pagamento/{id}` keeps working. A `QrCodeCreated` event holds the Pix key, the receiver
//!   name and city as printed in the code (public on the sign, not account data), the amount,
//!   the payer message, and two account ids (`owner_id`, `created_by`) that no longer lead
//!   anywhere; it holds no e-mail, name or phone of the account. Codes made by a member in
//!   someone else's account belong to that account and stay in it.
//! - **Pending invitations** the person received from other teams (not accepted) are the
//!   inviting account's records of an address it typed; they are sealed with their own key and
//!   become unreadable when that owner cancels them or deletes their account.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use commands::account_deletion::{self, Deletion as Asked};
use domain::team::Role;
use serde::Deserialize;

use super::credentials::confirm_password;
use crate::api::access::projection_error;
use crate::api::caller::Authenticated;
use crate::api::json::Json;
use crate::api::support::now;
use crate::auth::cookie::ended_session_cookies;
use crate::error::ApiError;
use crate::read_your_writes::wait_for;
use crate::state::AppState;

/// `POST /api/account/delete` body.
#[derive(Debug, Deserialize)]
pub struct Deletion {
    /// The current password, asked again.
    pub password: String,
}

/// `POST /api/account/delete`: confirms the password, names the teams the person works in and
/// runs [`commands::account_deletion`].
///
/// # Errors
///
/// 400 `wrong-password` on `password`; 401 without a valid token; 404 when the account is
/// already gone.
pub async fn delete_account(
    State(state): State<AppState>,
    caller: Authenticated,
    Json(body): Json<Deletion>,
) -> Result<Response, ApiError> {
    confirm_password(&state, &caller, &body.password, "password").await?;
    let teams = projections::accounts::workspaces_of(&state.pool, caller.account_uuid()?)
        .await
        .map_err(projection_error)?
        .into_iter()
        .filter(|workspace| workspace.role != Role::Owner)
        .map(|workspace| workspace.account_id.hyphenated().to_string())
        .collect();
    let deleted = account_deletion::delete_account(
        &state.accounts,
        Asked {
            account_id: caller.account_id.clone(),
            teams,
            at: now(),
        },
    )
    .await?;
    wait_for(&state, projections::accounts::NAME, deleted.position).await;
    tracing::info!(account_id = %caller.account_id, "account deleted");
    Ok((
        StatusCode::NO_CONTENT,
        ended_session_cookies(state.auth.cookie_secure),
    )
        .into_response())
}
