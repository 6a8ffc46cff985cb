//! Teams: the accounts a person works in, and the owner's invitations.
//!
//! | call | who | answer |
//! |---|---|---|
//! | `GET /api/workspaces` | anyone signed in | `{workspaces: [{accountId, displayName, role, defaultMerchantName, defaultMerchantCity}]}`, own account first (role `owner`); the defaults are that account's, for the QR-code form |
//! | `GET /api/accounts/{accountId}/members` | owner ([`Right::ManageMembers`]) | `{members: [{invitationId, email, role, status, invitedAt, joinedAt}]}`, pending and active, oldest first |
//! | `POST /api/accounts/{accountId}/members {email, role}` | owner | 201 the member (status `invited`); the invitee gets an e-mail with `/painel/convite?codigo=…`, valid 7 days; 409 `member-already-invited`; 422 `cannot-invite-self`; 422 `invalid-argument` on `email` or `role` (`manager` or `operator`); 429 `too-many-requests` (per account and per client address) |
//! | `DELETE /api/accounts/{accountId}/members/{invitationId}` | owner | 204: a pending invitation is cancelled (its link stops working), an active member loses access at once; 404 when there is no such invitation |
//! | `POST /api/invitations/check {code}` | anyone, session optional | `{displayName, role}` of a live invitation, the code not spent; `displayName` (who invites) only to a caller signed in with the invited address, `null` to anyone else; 410 `expired-action-code` |
//! | `POST /api/invitations/accept {code}` | the account whose e-mail is the invited one | `{accountId, role}`; 410 `expired-action-code` (unknown, used, expired or cancelled); 422 `cannot-invite-self`; 403 `invitation-for-another-email` (signed in with another address); 409 `already-member` |
//!
//! The invitee's address is sealed in `MemberInvited` with a key of the invitation's own
//! ([`commands::vault::invitation_key_id`]): it is the invitee's personal data in the owner's
//! log, so it must become unreadable when the invitation ends (removal, the member deleting
//! their account, the owner deleting theirs), whatever happens to the owner's key. It is claimed
//! per team (`invite:<owner id>`, by digest) in the same
//! transaction, so one address has at most one pending or active invitation per team; removing
//! the member releases the claim. The link's code is issued in that transaction too
//! ([`commands::Effects::issue_action_code`]): an invitation and its link commit together, and only the
//! e-mail is sent after the commit.
//!
//! An invitation is bound to the invited address: only an account whose sign-in e-mail is that
//! address accepts it (compared by the SHA-256 of the normalised addresses, opened with the
//! invitation's key and the caller's own). Holding the code is not enough, since a link can be
//! forwarded or leak. The code went only to that address, so using it also proves the address is
//! the caller's: an invitee who signed up from the link (or never opened the verification
//! e-mail) has the address marked verified on acceptance, as the verification link would have
//! done. Accepting spends the code in the same transaction as `AcceptInvitation`, so a link works
//! exactly once.
//!
//! The workflows themselves (inviting, accepting, removing) are [`commands::team`]'s: these
//! handlers extract, authorise, call it and map its outcome; its refusals reach HTTP through the
//! one `From<CommandError<E: Refusal>>` for [`ApiError`]. The invitation e-mail is sent here,
//! after the commit, with the code the workflow committed.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, SecondsFormat, Utc};
use commands::claims::digest;
use commands::team::{self, Invitation};
use domain::account::MemberStatus;
use domain::team::{Right, Role};
use projections::accounts::MemberView;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::api::access::{Workspace, projection_error};
use crate::api::auth::valid_email;
use crate::api::caller::Authenticated;
use crate::api::json::Json;
use crate::api::support::{metadata, now};
use crate::auth::LimitedAction;
use crate::client_address::ClientAddress;
use crate::error::ApiError;
use crate::mail::Email;
use crate::read_your_writes::wait_for;
use crate::state::AppState;

/// How long an invitation link works.
pub use commands::team::INVITATION_TTL;

/// The dashboard page an invitation links to (`?codigo=<code>`).
pub const INVITATION_PATH: &str = "/painel/convite";

fn rfc3339(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// One account a person can work in.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkspaceJson {
    /// The account's id.
    pub account_id: String,
    /// Its name.
    pub display_name: Option<String>,
    /// The person's role there.
    pub role: Role,
    /// The recipient name new QR codes start with in this account (its settings), so a member
    /// who switches to it gets the account's name, not their own.
    pub default_merchant_name: Option<String>,
    /// The city new QR codes start with in this account.
    pub default_merchant_city: Option<String>,
}

/// `GET /api/workspaces` answer.
#[derive(Debug, Serialize)]
pub struct Workspaces {
    /// Own account first.
    pub workspaces: Vec<WorkspaceJson>,
}

/// One invitation or member.
#[derive(Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct MemberJson {
    /// The invitation's id (the path segment to remove it).
    pub invitation_id: String,
    /// The invited address.
    pub email: Option<String>,
    /// `manager` or `operator`.
    pub role: Role,
    /// `invited` or `active`.
    pub status: MemberStatus,
    /// When the invitation was sent, RFC 3339.
    pub invited_at: String,
    /// When it was accepted, RFC 3339.
    pub joined_at: Option<String>,
}

impl From<MemberView> for MemberJson {
    fn from(view: MemberView) -> Self {
        MemberJson {
            invitation_id: view.invitation_id,
            email: view.email,
            role: view.role,
            status: view.status,
            invited_at: rfc3339(view.invited_at),
            joined_at: view.joined_at.map(rfc3339),
        }
    }
}

/// `GET …/members` answer.
#[derive(Debug, Serialize)]
pub struct Members {
    /// Pending invitations and active members, oldest first.
    pub members: Vec<MemberJson>,
}

/// `POST …/members` body.
#[derive(Debug, Deserialize)]
pub struct NewMember {
    /// The invitee's address.
    pub email: String,
    /// `manager` or `operator`.
    pub role: String,
}

/// `POST /api/invitations/accept` body.
#[derive(Debug, Deserialize)]
pub struct Acceptance {
    /// The code from the link.
    pub code: String,
}

/// `POST /api/invitations/accept` answer.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Accepted {
    /// The account joined.
    pub account_id: String,
    /// The role held there.
    pub role: Role,
}

/// `GET /api/workspaces`.
///
/// # Errors
///
/// 401 without a valid token.
pub async fn workspaces(
    State(state): State<AppState>,
    caller: Authenticated,
) -> Result<Json<Workspaces>, ApiError> {
    let views = projections::accounts::workspaces_of(&state.pool, caller.account_uuid()?)
        .await
        .map_err(projection_error)?;
    let mut workspaces = Vec::with_capacity(views.len());
    // A person works in one to a few accounts: one lookup each for the account's defaults.
    for view in views {
        let account = projections::accounts::find(&state.pool, view.account_id)
            .await
            .map_err(projection_error)?;
        let (default_merchant_name, default_merchant_city) = account
            .map(|a| (a.default_merchant_name, a.default_merchant_city))
            .unwrap_or_default();
        workspaces.push(WorkspaceJson {
            account_id: view.account_id.hyphenated().to_string(),
            display_name: view.display_name,
            role: view.role,
            default_merchant_name,
            default_merchant_city,
        });
    }
    Ok(Json(Workspaces { workspaces }))
}

/// `GET /api/accounts/{accountId}/members`.
///
/// # Errors
///
/// As [`Workspace`] and the module table say.
pub async fn members(
    State(state): State<AppState>,
    workspace: Workspace,
) -> Result<Json<Members>, ApiError> {
    workspace.require(Right::ManageMembers)?;
    let views = projections::accounts::members_of(&state.pool, workspace.account_uuid())
        .await
        .map_err(projection_error)?;
    Ok(Json(Members {
        members: views.into_iter().map(MemberJson::from).collect(),
    }))
}

/// `POST /api/accounts/{accountId}/members`.
///
/// # Errors
///
/// As [`Workspace`] and the module table say.
pub async fn invite(
    State(state): State<AppState>,
    client: ClientAddress,
    workspace: Workspace,
    Json(body): Json<NewMember>,
) -> Result<Response, ApiError> {
    workspace.require(Right::ManageMembers)?;
    // Every invitation is an e-mail to an address of the caller's choosing.
    state.auth.limits.check(
        LimitedAction::Invite,
        Some(client.0),
        Some(&digest(workspace.account_id())),
    )?;
    let email = valid_email(&body.email, "email")?;
    let role = Role::parse(&body.role).ok_or_else(|| {
        ApiError::invalid_argument(
            "role",
            "Escolha o papel: gerente (manager) ou operador (operator).",
        )
    })?;
    // Issue 12: the plan's extra accounts (members and open invitations), checked by the team
    // against its own members.
    let plan = crate::billing::plan_of(&state.billing, workspace.account_id()).await?;
    let invitation = Invitation {
        owner: workspace.account_id().to_owned(),
        email,
        role,
        plan,
        at: now(),
    };
    let invited =
        team::invite(&state.accounts, invitation, metadata(workspace.caller_id())).await?;
    mail_invitation(&state, &workspace, &invited).await;
    let member = invited_member(&state, &workspace, invited).await;
    Ok((StatusCode::CREATED, Json(member)).into_response())
}

/// E-mails the invitee the link with the code the invitation committed (sent in the background:
/// the invitation is made, so a failed read of the inviter's name costs a plainer e-mail, never
/// a failure).
async fn mail_invitation(state: &AppState, workspace: &Workspace, invited: &team::Invited) {
    let link = format!(
        "{}{INVITATION_PATH}?codigo={}",
        state.site.url.trim_end_matches('/'),
        invited.code.as_str()
    );
    let inviter = projections::accounts::find(&state.pool, workspace.account_uuid())
        .await
        .inspect_err(|error| tracing::warn!(%error, "could not read the inviter's name"))
        .ok()
        .flatten()
        .and_then(|account| account.display_name)
        .unwrap_or_default();
    state.mailer.send_in_background(Email::invitation(
        &invited.email,
        &inviter,
        &invited.role.label().to_lowercase(),
        &link,
        INVITATION_TTL,
    ));
}

/// The new member as the list shows it, or, while the read model is late, as the command
/// decided it.
async fn invited_member(
    state: &AppState,
    workspace: &Workspace,
    invited: team::Invited,
) -> MemberJson {
    let listed = if wait_for(state, projections::accounts::NAME, invited.position).await {
        projections::accounts::members_of(&state.pool, workspace.account_uuid())
            .await
            .inspect_err(|error| tracing::warn!(%error, "could not read the new member; answering from the command"))
            .unwrap_or_default()
    } else {
        Vec::new()
    };
    listed
        .into_iter()
        .find(|m| m.invitation_id == invited.invitation_id)
        .map_or_else(
            || MemberJson {
                invitation_id: invited.invitation_id.clone(),
                email: Some(invited.email.clone()),
                role: invited.role,
                status: MemberStatus::Invited,
                invited_at: rfc3339(Utc::now()),
                joined_at: None,
            },
            MemberJson::from,
        )
}

/// `DELETE /api/accounts/{accountId}/members/{invitationId}`.
///
/// # Errors
///
/// As [`Workspace`] and the module table say.
pub async fn remove(
    State(state): State<AppState>,
    workspace: Workspace,
    Path((_, invitation_id)): Path<(String, String)>,
) -> Result<StatusCode, ApiError> {
    workspace.require(Right::ManageMembers)?;
    let position = team::remove_member(
        &state.accounts,
        workspace.account_id(),
        &invitation_id,
        now(),
        metadata(workspace.caller_id()),
    )
    .await?;
    wait_for(&state, projections::accounts::NAME, position).await;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/invitations/check`: what an invitation link offers, without accepting it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InvitationOffer {
    /// The inviting account's name, when it has one and the caller is the invitee.
    pub display_name: Option<String>,
    /// The role offered.
    pub role: Role,
}

/// `POST /api/invitations/check {code}`: what an invitation offers, so the sign-in and sign-up
/// pages a link leads to can say what is going on. Needs no session (the visitor has not signed
/// in yet); the code is read, never spent.
///
/// Holding the code is not proof of being the invitee (a link can be forwarded, or leak from a
/// shared screen or a log): a visitor or anyone signed in with another address learns only that
/// there is a live invitation and its role; who invites (`displayName`) is said only to a caller
/// signed in with the invited address, decided as for accepting ([`team::check`]). The invitee
/// already read the inviter's name in the e-mail the code came in.
///
/// # Errors
///
/// 410 `expired-action-code` for an unknown, used, expired or cancelled code; 401 for a bearer
/// token that is not valid (no header at all is a visitor).
pub async fn check(
    State(state): State<AppState>,
    caller: Option<Authenticated>,
    Json(body): Json<Acceptance>,
) -> Result<Json<InvitationOffer>, ApiError> {
    let caller = caller.map(|caller| caller.account_id);
    let offer = team::check(&state.accounts, &body.code, caller.as_deref()).await?;
    // The name only makes the message nicer: without it the page still says what is offered.
    let display_name = match (offer.for_caller, Uuid::parse_str(&offer.owner)) {
        (true, Ok(owner)) => projections::accounts::find(&state.pool, owner)
            .await
            .inspect_err(|error| tracing::warn!(%error, "could not read the inviter's name"))
            .ok()
            .flatten()
            .and_then(|account| account.display_name),
        _ => None,
    };
    Ok(Json(InvitationOffer {
        display_name,
        role: offer.role,
    }))
}

/// `POST /api/invitations/accept`.
///
/// # Errors
///
/// As the module table says.
pub async fn accept(
    State(state): State<AppState>,
    caller: Authenticated,
    Json(body): Json<Acceptance>,
) -> Result<Json<Accepted>, ApiError> {
    let acceptance = team::Acceptance {
        code: body.code,
        member: caller.account_id.clone(),
        at: now(),
    };
    let accepted = team::accept(&state.accounts, acceptance).await?;
    wait_for(&state, projections::accounts::NAME, accepted.position).await;
    Ok(Json(Accepted {
        account_id: accepted.owner,
        role: accepted.role,
    }))
}
