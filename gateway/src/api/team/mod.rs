//! Teams: the accounts a person works in, and the owner's invitations.
//!
//! | call | who | answer |
//! |---|---|---|
//! | `GET /api/workspaces` | anyone signed in | `{workspaces: [{accountId, displayName, role, defaultMerchantName, defaultMerchantCity}]}`, own account first (role `owner`); the defaults are that account's, for the QR-code form |
//! | `GET /api/accounts/{accountId}/members` | owner ([`Right::ManageMembers`]) | `{members: [{invitationId, email, role, status, invitedAt, joinedAt}]}`, pending and active, oldest first |
//! | `POST /api/accounts/{accountId}/members {email, role}` | owner | 201 the member (status `invited`); the invitee gets an e-mail with `/painel/convite?codigo=…`, valid 7 days; 409 `member-already-invited`; 422 `cannot-invite-self`; 422 `invalid-argument` on `email` or `role` (`manager` or `operator`); 429 `too-many-requests` (per account and per client address) |
//! | `DELETE /api/accounts/{accountId}/members/{invitationId}` | owner | 204: a pending invitation is cancelled (its link stops working), an active member loses access at once; 404 when there is no such invitation |
//! | `POST /api/invitations/check {code}` | anyone, no session | `{displayName, role}` of a live invitation, the code not spent; 400 `expired-action-code` |
//! | `POST /api/invitations/accept {code}` | the account whose e-mail is the invited one | `{accountId, role}`; 400 `expired-action-code` (unknown, used, expired or cancelled); 422 `cannot-invite-self`; 403 `invitation-for-another-email` (signed in with another address); 409 `already-member` |
//!
//! The invitee's address is sealed in `MemberInvited` with a key of the invitation's own
//! ([`commands::vault::invitation_key_id`]): it is the invitee's personal data in the owner's
//! log, so it must become unreadable when the invitation ends (removal, the member deleting
//! their account, the owner deleting theirs), whatever happens to the owner's key. It is claimed
//! per team (`invite:<owner id>`, by digest) in the same
//! transaction, so one address has at most one pending or active invitation per team; removing
//! the member releases the claim. The link's code is issued in that transaction too
//! ([`Effects::issue_action_code`]): an invitation and its link commit together, and only the
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

use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, SecondsFormat, Utc};
use commands::action_codes::{self, ActionCode, Purpose};
use commands::claims::{EMAIL_SCOPE, digest, invite_scope, normalise_email};
use commands::vault::{self, invitation_key_id};
use commands::{CommandError, Effects, ExpectedVersion};
use domain::account::{
    AcceptInvitation, AccountCommand, InviteMember, MemberStatus, RemoveMember, VerifyEmail,
};
use domain::team::{Right, Role};
use projections::accounts::MemberView;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::api::access::{Workspace, account_disabled, projection_error};
use crate::api::auth::valid_email;
use crate::api::error::ApiError;
use crate::api::json::Json;
use crate::api::support::{metadata, now};
use crate::auth::{Authenticated, LimitedAction};
use crate::client_address::ClientAddress;
use crate::mail::Email;
use crate::read_your_writes::wait_for;
use crate::state::AppState;

/// How long an invitation link works.
pub const INVITATION_TTL: Duration = Duration::from_secs(7 * 24 * 3600);

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

/// 409 `member-already-invited`.
fn already_invited() -> ApiError {
    ApiError::new(
        StatusCode::CONFLICT,
        "member-already-invited",
        "Este e-mail já foi convidado para esta conta.",
    )
    .with_field("email")
}

/// 422 `cannot-invite-self`.
fn cannot_invite_self() -> ApiError {
    ApiError::new(
        StatusCode::UNPROCESSABLE_ENTITY,
        "cannot-invite-self",
        "Você não pode convidar o seu próprio e-mail: você já é o titular desta conta.",
    )
    .with_field("email")
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
    let normalised = valid_email(&body.email, "email")?;
    let role = Role::parse(&body.role).ok_or_else(|| {
        ApiError::invalid_argument(
            "role",
            "Escolha o papel: gerente (manager) ou operador (operator).",
        )
    })?;
    let owner = workspace.account_id();
    let address_digest = digest(&normalised);
    if commands::claims::owner_of(&state.pool, EMAIL_SCOPE, &address_digest).await?
        == Some(owner.to_owned())
    {
        return Err(cannot_invite_self());
    }
    // Issue 12: the plan's extra accounts (members and open invitations).
    crate::billing::allow(
        &state,
        &workspace,
        domain::subscription::limits::LimitedAction::InviteMember,
    )
    .await?;
    let invitation_id = Uuid::now_v7().to_string();
    let key = commands::vault::AccountKey::generate(invitation_key_id(&invitation_id));
    let command = AccountCommand::InviteMember(InviteMember {
        invitation_id: invitation_id.clone(),
        email: key.seal(&normalised),
        role,
        at: now(),
    });
    // The link's code names the owner's account (the stream `AcceptInvitation` runs on) and the
    // invitation; nothing personal. It commits with the invitation, so the e-mail sent after the
    // commit always carries a working link, and a failed invitation leaves no code.
    let code = ActionCode::generate();
    let effects = Effects::new()
        .claim(invite_scope(owner), address_digest, owner)
        .store_key(&key)
        .issue_action_code(
            &code,
            Purpose::Invitation,
            serde_json::json!({ "invitationId": invitation_id, "role": role }),
            INVITATION_TTL,
        );
    let outcome = state
        .accounts
        .execute_with(
            owner,
            command,
            ExpectedVersion::Any,
            metadata(workspace.caller_id()),
            &effects,
        )
        .await
        .map_err(|error| match error {
            CommandError::ClaimTaken { .. } => already_invited(),
            other => ApiError::from(other),
        })?;
    let link = format!(
        "{}{INVITATION_PATH}?codigo={}",
        state.site.url.trim_end_matches('/'),
        code.as_str()
    );
    // The invitation is made: a failed read from here on costs a nicer answer, never a failure.
    let inviter = projections::accounts::find(&state.pool, workspace.account_uuid())
        .await
        .inspect_err(|error| tracing::warn!(%error, "could not read the inviter's name"))
        .ok()
        .flatten()
        .and_then(|account| account.display_name)
        .unwrap_or_default();
    state.mailer.send_in_background(Email::invitation(
        &normalised,
        &inviter,
        &role.label().to_lowercase(),
        &link,
        INVITATION_TTL,
    ));
    let listed = if wait_for(&state, projections::accounts::NAME, outcome.position).await {
        projections::accounts::members_of(&state.pool, workspace.account_uuid())
            .await
            .inspect_err(|error| tracing::warn!(%error, "could not read the new member; answering from the command"))
            .unwrap_or_default()
    } else {
        Vec::new()
    };
    let member = listed
        .into_iter()
        .find(|m| m.invitation_id == invitation_id)
        .map_or_else(
            // The read model is late: answer with what was just decided.
            || MemberJson {
                invitation_id: invitation_id.clone(),
                email: Some(normalised.clone()),
                role,
                status: MemberStatus::Invited,
                invited_at: rfc3339(Utc::now()),
                joined_at: None,
            },
            MemberJson::from,
        );
    Ok((StatusCode::CREATED, Json(member)).into_response())
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
    let owner = workspace.account_id();
    let loaded = state.accounts.load(owner).await.map_err(ApiError::from)?;
    let member = loaded
        .aggregate
        .member(&invitation_id)
        .ok_or_else(ApiError::not_found)?;
    let effects = ending_invitation(&state.pool, owner, member).await?;
    let command = AccountCommand::RemoveMember(RemoveMember {
        invitation_id,
        at: now(),
    });
    let outcome = state
        .accounts
        .execute_with(
            owner,
            command,
            ExpectedVersion::Any,
            metadata(workspace.caller_id()),
            &effects,
        )
        .await
        .map_err(ApiError::from)?;
    wait_for(&state, projections::accounts::NAME, outcome.position).await;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/invitations/check`: what an invitation link offers, without accepting it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InvitationOffer {
    /// The inviting account's name, when it has one.
    pub display_name: Option<String>,
    /// The role offered.
    pub role: Role,
}

/// `POST /api/invitations/check {code}`: who invites and as what, so the sign-in and sign-up
/// pages a link leads to can say what is going on. Needs no session (the visitor has not signed
/// in yet); the code is the credential, as for accepting, and is read, never spent.
///
/// # Errors
///
/// 400 `expired-action-code` for an unknown, used, expired or cancelled code.
pub async fn check(
    State(state): State<AppState>,
    Json(body): Json<Acceptance>,
) -> Result<Json<InvitationOffer>, ApiError> {
    let pending = action_codes::peek(&state.pool, body.code.trim(), Purpose::Invitation)
        .await?
        .ok_or_else(ApiError::expired_action_code)?;
    let role = pending
        .payload
        .get("role")
        .and_then(|role| serde_json::from_value::<Role>(role.clone()).ok())
        .ok_or_else(ApiError::expired_action_code)?;
    // The name only makes the message nicer: without it the page still says what is offered.
    let display_name = match Uuid::parse_str(&pending.account_id) {
        Ok(owner) => projections::accounts::find(&state.pool, owner)
            .await
            .inspect_err(|error| tracing::warn!(%error, "could not read the inviter's name"))
            .ok()
            .flatten()
            .and_then(|account| account.display_name),
        Err(_) => None,
    };
    Ok(Json(InvitationOffer { display_name, role }))
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
    let code = body.code.trim();
    let pending = action_codes::peek(&state.pool, code, Purpose::Invitation)
        .await?
        .ok_or_else(ApiError::expired_action_code)?;
    let invitation_id = pending
        .payload
        .get("invitationId")
        .and_then(serde_json::Value::as_str)
        .ok_or_else(ApiError::expired_action_code)?
        .to_owned();
    let owner = pending.account_id;
    // One's own team is refused by the aggregate (`cannot-invite-self`), whatever the address.
    let proves_address = if owner == caller.account_id {
        false
    } else {
        !invitee_check(&state, &owner, &invitation_id, &caller.account_id).await?
    };
    let command = AccountCommand::AcceptInvitation(AcceptInvitation {
        invitation_id: invitation_id.clone(),
        member_account_id: caller.account_id.clone(),
        at: now(),
    });
    let effects = Effects::new().consume_action_code(code, Purpose::Invitation);
    let outcome = state
        .accounts
        .execute_with(
            &owner,
            command,
            ExpectedVersion::Any,
            metadata(&caller.account_id),
            &effects,
        )
        .await
        .map_err(|error| match error {
            CommandError::Rejected(
                domain::account::AccountError::NotOpen
                | domain::account::AccountError::Deleted
                | domain::account::AccountError::InvitationNotFound,
            ) => ApiError::expired_action_code(),
            CommandError::Rejected(domain::account::AccountError::Disabled) => account_disabled(),
            other => ApiError::from(other),
        })?;
    let mut position = outcome.position;
    if proves_address {
        // The code went only to this address: using it proves the address, as the verification
        // link would. The membership has committed, so a failure here is logged, not answered
        // (the verification e-mail still works).
        match state
            .accounts
            .execute(
                &caller.account_id,
                AccountCommand::VerifyEmail(VerifyEmail { at: now() }),
                metadata(&caller.account_id),
            )
            .await
        {
            Ok(verified) => position = verified.position.or(position),
            Err(error) => {
                tracing::warn!(%error, account_id = %caller.account_id, "the invitation was accepted but the address could not be marked verified");
            }
        }
    }
    wait_for(&state, projections::accounts::NAME, position).await;
    // Joined: the role is the one the invitation named; reading it back from the log is only a
    // check, and a failed read must not turn a done join into an error.
    let invited_as = pending
        .payload
        .get("role")
        .and_then(|role| serde_json::from_value::<Role>(role.clone()).ok());
    let role = match state.accounts.load(&owner).await {
        Ok(loaded) => loaded
            .aggregate
            .member(&invitation_id)
            .map(|member| member.role)
            .or(invited_as),
        Err(error) => {
            tracing::warn!(%error, "could not read the team just joined; answering from the invitation");
            invited_as
        }
    }
    .ok_or_else(|| ApiError::internal(anyhow::anyhow!("an invitation code without its role")))?;
    Ok(Json(Accepted {
        account_id: owner,
        role,
    }))
}

/// 403 `invitation-for-another-email`.
fn invitation_for_another_email() -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        "invitation-for-another-email",
        "Este convite foi enviado para outro e-mail. Saia desta conta e abra o link de novo para entrar, ou criar uma conta, com o e-mail que recebeu o convite.",
    )
}

/// Checks that `caller`'s sign-in address is the one invitation `invitation_id` of `owner`'s team
/// was sent to, and answers whether that address is verified already.
///
/// # Errors
///
/// 403 `invitation-for-another-email` for another address; 400 `expired-action-code` when the
/// invitation or its key is gone (it ended); 404 when the caller's account has no key (deleted);
/// 500 when a sealed field is unreadable or PostgreSQL fails.
async fn invitee_check(
    state: &AppState,
    owner: &str,
    invitation_id: &str,
    caller: &str,
) -> Result<bool, ApiError> {
    let unreadable = |e: vault::VaultError| ApiError::internal(anyhow::Error::new(e));
    let team = state.accounts.load(owner).await.map_err(ApiError::from)?;
    let member = team
        .aggregate
        .member(invitation_id)
        .ok_or_else(ApiError::expired_action_code)?;
    let invitation_key = vault::load_key(&state.pool, &invitation_key_id(invitation_id))
        .await
        .map_err(unreadable)?
        .ok_or_else(ApiError::expired_action_code)?;
    let invited = invitation_key.open(&member.email).map_err(unreadable)?;

    let account = state.accounts.load(caller).await.map_err(ApiError::from)?;
    let key = vault::load_key(&state.pool, caller)
        .await
        .map_err(unreadable)?
        .ok_or_else(ApiError::not_found)?;
    let own = account
        .aggregate
        .email()
        .map(|sealed| key.open(sealed))
        .transpose()
        .map_err(unreadable)?
        .ok_or_else(ApiError::not_found)?;
    if digest(&normalise_email(&own)) != digest(&normalise_email(&invited)) {
        return Err(invitation_for_another_email());
    }
    Ok(account.aggregate.email_verified())
}

/// What ending `member`'s invitation to `owner`'s team does beside the log: releases the
/// address's claim (its digest, read with the invitation's key) and shreds that key.
///
/// # Errors
///
/// 500 when the key is unreadable or PostgreSQL fails.
pub(super) async fn ending_invitation(
    pool: &sqlx::PgPool,
    owner: &str,
    member: &domain::account::Member,
) -> Result<Effects, ApiError> {
    let key_id = invitation_key_id(&member.invitation_id);
    let mut effects = Effects::new();
    if let Some(key) = commands::vault::load_key(pool, &key_id)
        .await
        .map_err(|e| ApiError::internal(anyhow::Error::new(e)))?
    {
        let address = key
            .open(&member.email)
            .map_err(|e| ApiError::internal(anyhow::Error::new(e)))?;
        effects = effects.release(invite_scope(owner), digest(&normalise_email(&address)));
    }
    Ok(effects.shred_key(key_id))
}
