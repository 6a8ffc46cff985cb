//! The account-scoped API, merged into `/api`: the signed-in person's own account
//! (`/api/account/…`), the BR Code preview (`/api/brcode/normalize`), teams (`/api/workspaces`,
//! `/api/accounts/{accountId}/members`, `/api/invitations/accept`) and an account's QR codes
//! (`/api/accounts/{accountId}/qrcodes`).
//!
//! Access is decided in one place, [`access`]: `/api/account/…` always acts on the caller's own
//! account (the token's); `/api/accounts/{accountId}/…` handlers take a [`access::Workspace`]
//! and require a [`domain::team::Right`]. The photo itself is served outside the API, at
//! `GET /fotos/{accountId}` ([`photo::serve`], merged at the root by [`crate::build_router`] from [`public_routes`]).
//!
//! | route | handler | who |
//! |---|---|---|
//! | `GET /api/brcode/normalize` | [`normalize::normalize`] | anyone |
//! | `GET, PATCH /api/account/settings` | [`settings`] | signed in (own account) |
//! | `PUT /api/account/photo` | [`photo::upload`] | signed in (own account) |
//! | `POST /api/account/password` | [`credentials::change_password`] | signed in (own account) |
//! | `POST /api/account/email` | [`credentials::change_email`] | signed in (own account) |
//! | `POST /api/account/delete` | [`deletion::delete_account`] | signed in (own account) |
//! | `GET /api/workspaces` | [`team::workspaces`] | signed in |
//! | `GET, POST /api/accounts/{accountId}/members` | [`team::members`], [`team::invite`] | owner |
//! | `DELETE /api/accounts/{accountId}/members/{invitationId}` | [`team::remove`] | owner |
//! | `POST /api/invitations/accept` | [`team::accept`] | signed in |
//! | `GET, POST /api/accounts/{accountId}/qrcodes` | [`qrcodes::list`], [`qrcodes::create`] | owner, manager, operator |
//! | `GET /api/accounts/{accountId}/qrcodes/{id}` | [`qrcodes::show`] | owner, manager, operator (own codes) |
//!
//! Codes this module adds to the API's table (`crate::api::error`):
//!
//! | code | status | when |
//! |---|---|---|
//! | `account-disabled` | 403 | the account named in the path is disabled (only its team learns it) |
//! | `member-already-invited` | 409 | the address already has a pending or active invitation in this team |
//! | `cannot-invite-self` | 422 | the owner invites their own address, or accepts their own team's invitation |
//! | `already-member` | 409 | accepting an invitation to a team one already works in |
//! | `unsupported-photo-type` | 415 | a photo that is not JPEG, PNG or WebP, or whose bytes are not what its type says |
//! | `photo-too-large` | 413 | a photo over 1 MiB |
//! | `invalid-idempotency-key` | 400 | an `Idempotency-Key` header that is empty, too long or not text |
//! | `idempotency-key-reused` | 409 | an `Idempotency-Key` already used with other values |
//! | `invitation-for-another-email` | 403 | accepting an invitation signed in with another address than the invited one |

pub mod access;
pub mod credentials;
pub mod deletion;
pub mod normalize;
pub mod photo;
pub mod photo_check;
pub mod profile_input;
pub mod qrcodes;
pub mod settings;
mod support;
pub mod team;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{delete, get, post, put};

use crate::state::AppState;

/// The routes outside `/api` this module serves (today the profile photo, which an `<img>`
/// loads without a token), to merge at the root.
pub fn public_routes() -> Router<AppState> {
    Router::new().route("/fotos/{accountId}", get(photo::serve))
}

/// The workspace routes, relative to `/api`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/brcode/normalize", get(normalize::normalize))
        .route(
            "/account/settings",
            get(settings::show).patch(settings::update),
        )
        .route(
            "/account/photo",
            // The photo's own limit replaces the API's JSON one for this route only.
            put(photo::upload).layer(DefaultBodyLimit::max(photo_check::MAX_PHOTO_BYTES)),
        )
        .route("/account/password", post(credentials::change_password))
        .route("/account/email", post(credentials::change_email))
        .route("/account/delete", post(deletion::delete_account))
        .route("/workspaces", get(team::workspaces))
        .route(
            "/accounts/{accountId}/members",
            get(team::members).post(team::invite),
        )
        .route(
            "/accounts/{accountId}/members/{invitationId}",
            delete(team::remove),
        )
        .route("/invitations/check", post(team::check))
        .route("/invitations/accept", post(team::accept))
    // `/accounts/{accountId}/qrcodes…` is served by `crate::api::codes` (search, batch,
    // archive, txids); the handlers in `qrcodes` are kept for their tests and helpers.
}
