//! The team workflows: an owner invites an address, the invitee accepts, an invitation ends.
//!
//! Each call takes values parsed at the edge (a normalised address, a [`Role`], account ids) and
//! answers an outcome the gateway maps; every refusal is a `CommandError<AccountError>`, so it
//! reaches HTTP through the one `Refusal` mapping. Mail is the caller's: [`Invited`] carries the
//! committed link code, and the caller sends it after the commit.
//!
//! - [`invite`]: the invitee's address is sealed in `MemberInvited` with a key of the
//!   invitation's own ([`invitation_key_id`]), claimed per team (`invite:<owner>`, by digest) so
//!   one address has at most one pending or active invitation per team, and the link's code is
//!   issued, all in the command's transaction: an invitation and its link commit together.
//! - [`accept`]: only an account whose sign-in address is the invited one accepts (compared by
//!   the SHA-256 of the normalised addresses); the code is spent in the command's transaction,
//!   and, since it went only to that address, the address is marked verified.
//! - [`check`]: what a code offers, without spending it; whether the caller is the invited
//!   address is decided as for accepting, and only then may the inviter be named.
//! - [`remove_member`] and [`ending_invitation`]: ending an invitation releases the address's
//!   claim and shreds the invitation's key, in the `RemoveMember` transaction.

use std::time::Duration;

use domain::account::{
    AcceptInvitation, Account, AccountCommand, AccountError, InviteMember, Member, RemoveMember,
    VerifyEmail,
};
use domain::subscription::plans::PlanId;
use domain::team::Role;

use crate::action_codes::{self, ActionCode, Purpose};
use crate::claims::{EMAIL_SCOPE, digest, invite_scope, normalise_email};
use crate::effects::Effects;
use crate::error::CommandError;
use crate::expected_version::ExpectedVersion;
use crate::feed::FeedPosition;
use crate::metadata::CommandMetadata;
use crate::service::CommandService;
use crate::vault::{self, AccountKey, VaultError, invitation_key_id};

/// How long an invitation link works.
pub const INVITATION_TTL: Duration = Duration::from_secs(7 * 24 * 3600);

/// An invitation, as the owner asked for it.
#[derive(Debug, Clone)]
pub struct Invitation {
    /// The inviting account (its team; the stream `InviteMember` runs on).
    pub owner: String,
    /// The invitee's address, checked at the edge (normalised again here).
    pub email: String,
    /// `manager` or `operator` (the aggregate refuses `owner`).
    pub role: Role,
    /// The account's plan in force: the team refuses an invitation past its limit.
    pub plan: PlanId,
    /// When, RFC 3339.
    pub at: String,
}

/// A committed invitation: what the answer and the e-mail need.
#[derive(Debug)]
pub struct Invited {
    /// The new invitation's id.
    pub invitation_id: String,
    /// The normalised address invited.
    pub email: String,
    /// The role offered.
    pub role: Role,
    /// The link's single-use code, committed with the invitation: e-mail it after the commit.
    pub code: ActionCode,
    /// Where the command's events are in the feed (read-your-writes).
    pub position: Option<FeedPosition>,
}

/// Refuses `email` when it is the address `owner` signs in with: an owner cannot invite herself.
/// [`invite`] asks it before the command, so an owner whose team is full hears the reason that is
/// hers to fix, not the plan's.
///
/// # Errors
///
/// [`AccountError::OwnAddressInvited`], or a storage failure.
pub async fn refuse_own_address(
    accounts: &CommandService<Account>,
    owner: &str,
    email: &str,
) -> Result<(), CommandError<AccountError>> {
    let address_digest = digest(&normalise_email(email));
    if crate::claims::owner_of(accounts.store().pool(), EMAIL_SCOPE, &address_digest)
        .await
        .map_err(CommandError::Storage)?
        .as_deref()
        == Some(owner)
    {
        return Err(CommandError::Rejected(AccountError::OwnAddressInvited));
    }
    Ok(())
}

/// Invites `invitation.email` into `invitation.owner`'s team.
///
/// # Errors
///
/// [`AccountError::OwnAddressInvited`] for the owner's own address,
/// [`AccountError::AlreadyInvited`] when the address has a pending or active invitation in this
/// team, the aggregate's refusals (a disabled or deleted account, an owner role), storage
/// failures.
pub async fn invite(
    accounts: &CommandService<Account>,
    invitation: Invitation,
    metadata: CommandMetadata,
) -> Result<Invited, CommandError<AccountError>> {
    let owner = invitation.owner.as_str();
    let email = normalise_email(&invitation.email);
    let address_digest = digest(&email);
    refuse_own_address(accounts, owner, &invitation.email).await?;
    let invitation_id = uuid::Uuid::now_v7().to_string();
    let key = AccountKey::generate(invitation_key_id(&invitation_id));
    let command = AccountCommand::InviteMember(InviteMember {
        invitation_id: invitation_id.clone(),
        email: key.seal(&email),
        role: invitation.role,
        plan: invitation.plan,
        at: invitation.at,
    });
    // The code names the owner's account (the stream `AcceptInvitation` runs on) and the
    // invitation; nothing personal. It commits with the invitation, so the e-mail sent after the
    // commit always carries a working link, and a failed invitation leaves no code.
    let code = ActionCode::generate();
    let effects = Effects::new()
        .claim(invite_scope(owner), address_digest, owner)
        .store_key(&key)
        .issue_action_code(
            &code,
            Purpose::Invitation,
            serde_json::json!({ "invitationId": invitation_id, "role": invitation.role }),
            INVITATION_TTL,
        );
    let outcome = accounts
        .execute_with(owner, command, ExpectedVersion::Any, metadata, &effects)
        .await
        .map_err(|error| match error {
            CommandError::ClaimTaken { .. } => CommandError::Rejected(AccountError::AlreadyInvited),
            other => other,
        })?;
    Ok(Invited {
        invitation_id,
        email,
        role: invitation.role,
        code,
        position: outcome.position,
    })
}

/// An acceptance: the link's code, and who uses it.
#[derive(Debug, Clone)]
pub struct Acceptance {
    /// The code from the link, as typed (trimmed here).
    pub code: String,
    /// The signed-in account accepting.
    pub member: String,
    /// When, RFC 3339.
    pub at: String,
}

/// A committed acceptance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Accepted {
    /// The account joined.
    pub owner: String,
    /// The role held there.
    pub role: Role,
    /// Whether accepting also marked the member's address verified just now.
    pub verified_address: bool,
    /// The last position written (the membership, or the verification after it).
    pub position: Option<FeedPosition>,
}

/// Accepts the invitation whose link carries `acceptance.code`.
///
/// # Errors
///
/// [`CommandError::ActionCodeExpired`] for an unknown, used, expired or cancelled code (or a
/// team that is gone); [`AccountError::InvitationForAnotherEmail`] when the member's sign-in
/// address is not the invited one (the code stays unspent); [`AccountError::CannotInviteSelf`]
/// for one's own team; [`AccountError::AlreadyMember`]; [`AccountError::TeamDisabled`] when the
/// team's account is disabled; [`AccountError::NotOpen`] when the member's account has no key
/// (deleted); storage failures.
pub async fn accept(
    accounts: &CommandService<Account>,
    acceptance: Acceptance,
) -> Result<Accepted, CommandError<AccountError>> {
    let code = acceptance.code.trim();
    let member = acceptance.member.as_str();
    let LiveCode {
        owner,
        invitation_id,
        role: invited_as,
    } = live_code(accounts, code).await?;
    // One's own team is refused by the aggregate (`cannot-invite-self`), whatever the address.
    let proves_address = owner != member
        && !invited_address_is_members(accounts, &owner, &invitation_id, member).await?;
    let metadata = || CommandMetadata::start().by(member.to_owned());
    let command = AccountCommand::AcceptInvitation(AcceptInvitation {
        invitation_id: invitation_id.clone(),
        member_account_id: member.to_owned(),
        at: acceptance.at.clone(),
    });
    let effects = Effects::new().consume_action_code(code, Purpose::Invitation);
    let outcome = accounts
        .execute_with(&owner, command, ExpectedVersion::Any, metadata(), &effects)
        .await
        .map_err(|error| match error {
            // The team or its invitation is gone: to the person, a dead link.
            CommandError::Rejected(
                AccountError::NotOpen | AccountError::Deleted | AccountError::InvitationNotFound,
            ) => CommandError::ActionCodeExpired,
            CommandError::Rejected(AccountError::Disabled) => {
                CommandError::Rejected(AccountError::TeamDisabled)
            }
            other => other,
        })?;
    let mut position = outcome.position;
    let mut verified_address = false;
    if proves_address {
        // The code went only to this address: using it proves the address, as the verification
        // link would. The membership has committed, so a failure here is logged, not returned
        // (the verification e-mail still works).
        match accounts
            .execute(
                member,
                AccountCommand::VerifyEmail(VerifyEmail {
                    at: acceptance.at.clone(),
                }),
                metadata(),
            )
            .await
        {
            Ok(verified) => {
                verified_address = true;
                position = verified.position.or(position);
            }
            Err(error) => {
                tracing::warn!(%error, account_id = member, "the invitation was accepted but the address could not be marked verified");
            }
        }
    }
    // Joined: the role is the one the invitation named; reading it back from the log is only a
    // check, and a failed read must not turn a done join into an error.
    let role = match accounts.load(&owner).await {
        Ok(loaded) => loaded
            .aggregate
            .member(&invitation_id)
            .map(|m| m.role)
            .or(invited_as),
        Err(error) => {
            tracing::warn!(%error, "could not read the team just joined; answering from the invitation");
            invited_as
        }
    }
    .ok_or_else(|| unreadable("an invitation code without its role"))?;
    Ok(Accepted {
        owner,
        role,
        verified_address,
        position,
    })
}

/// What a live invitation code says.
struct LiveCode {
    /// The inviting account.
    owner: String,
    /// The invitation in its team.
    invitation_id: String,
    /// The role offered (`None` only for a code issued without it).
    role: Option<Role>,
}

/// Reads `code` without spending it.
async fn live_code(
    accounts: &CommandService<Account>,
    code: &str,
) -> Result<LiveCode, CommandError<AccountError>> {
    let pending = action_codes::peek(accounts.store().pool(), code, Purpose::Invitation)
        .await
        .map_err(CommandError::Storage)?
        .ok_or(CommandError::ActionCodeExpired)?;
    let invitation_id = pending
        .payload
        .get("invitationId")
        .and_then(serde_json::Value::as_str)
        .ok_or(CommandError::ActionCodeExpired)?
        .to_owned();
    let role = pending
        .payload
        .get("role")
        .and_then(|role| serde_json::from_value::<Role>(role.clone()).ok());
    Ok(LiveCode {
        owner: pending.account_id,
        invitation_id,
        role,
    })
}

/// What the holder of an invitation code may learn before accepting ([`check`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Offer {
    /// The inviting account: for the caller to name only when `for_caller`.
    pub owner: String,
    /// The role offered.
    pub role: Role,
    /// Whether the caller is signed in with the invited address. The code alone proves
    /// nothing (a link can be forwarded or leak), so who invites is the invitee's to know.
    pub for_caller: bool,
}

/// Reads the invitation `code` leads to without spending it, for `caller` (the signed-in
/// account, or `None` for a visitor): the role offered, and whether the caller's sign-in address
/// is the invited one, as [`accept`] decides it.
///
/// # Errors
///
/// [`CommandError::ActionCodeExpired`] for an unknown, used, expired or cancelled code (or a
/// team that is gone); storage failures.
pub async fn check(
    accounts: &CommandService<Account>,
    code: &str,
    caller: Option<&str>,
) -> Result<Offer, CommandError<AccountError>> {
    let LiveCode {
        owner,
        invitation_id,
        role,
    } = live_code(accounts, code.trim()).await?;
    let role = role.ok_or(CommandError::ActionCodeExpired)?;
    let for_caller = match caller {
        Some(member) if member != owner => {
            match invited_address_is_members(accounts, &owner, &invitation_id, member).await {
                Ok(_) => true,
                Err(CommandError::Rejected(
                    AccountError::InvitationForAnotherEmail | AccountError::NotOpen,
                )) => false,
                Err(other) => return Err(other),
            }
        }
        _ => false,
    };
    Ok(Offer {
        owner,
        role,
        for_caller,
    })
}

/// Checks that `member`'s sign-in address is the one invitation `invitation_id` of `owner`'s
/// team was sent to, and answers whether that address is verified already.
async fn invited_address_is_members(
    accounts: &CommandService<Account>,
    owner: &str,
    invitation_id: &str,
    member: &str,
) -> Result<bool, CommandError<AccountError>> {
    let pool = accounts.store().pool();
    let team = accounts.load(owner).await?;
    let invitation = team
        .aggregate
        .member(invitation_id)
        .ok_or(CommandError::ActionCodeExpired)?;
    let invitation_key = vault::load_key(pool, &invitation_key_id(invitation_id))
        .await
        .map_err(vault_failure)?
        .ok_or(CommandError::ActionCodeExpired)?;
    let invited = invitation_key
        .open(&invitation.email)
        .map_err(vault_failure)?;

    let account = accounts.load(member).await?;
    let key = vault::load_key(pool, member)
        .await
        .map_err(vault_failure)?
        .ok_or(CommandError::Rejected(AccountError::NotOpen))?;
    let own = account
        .aggregate
        .email()
        .map(|sealed| key.open(sealed))
        .transpose()
        .map_err(vault_failure)?
        .ok_or(CommandError::Rejected(AccountError::NotOpen))?;
    if digest(&normalise_email(&own)) != digest(&normalise_email(&invited)) {
        return Err(CommandError::Rejected(
            AccountError::InvitationForAnotherEmail,
        ));
    }
    Ok(account.aggregate.email_verified())
}

/// Ends invitation `invitation_id` of `owner`'s team: a pending one is cancelled (its link stops
/// working), an active member loses access. The address's claim is released and the
/// invitation's key shredded in the same transaction.
///
/// # Errors
///
/// [`AccountError::InvitationNotFound`] when the team has no such invitation; the aggregate's
/// refusals; storage failures.
pub async fn remove_member(
    accounts: &CommandService<Account>,
    owner: &str,
    invitation_id: &str,
    at: String,
    metadata: CommandMetadata,
) -> Result<Option<FeedPosition>, CommandError<AccountError>> {
    let loaded = accounts.load(owner).await?;
    let member = loaded
        .aggregate
        .member(invitation_id)
        .ok_or(CommandError::Rejected(AccountError::InvitationNotFound))?;
    let effects = ending_invitation(accounts.store().pool(), owner, member).await?;
    let command = AccountCommand::RemoveMember(RemoveMember {
        invitation_id: invitation_id.to_owned(),
        at,
    });
    let outcome = accounts
        .execute_with(owner, command, ExpectedVersion::Any, metadata, &effects)
        .await?;
    Ok(outcome.position)
}

/// What ending `member`'s invitation to `owner`'s team does beside the log: releases the
/// address's claim (its digest, read with the invitation's key) and shreds that key.
///
/// # Errors
///
/// When the key is unreadable or PostgreSQL fails.
pub async fn ending_invitation<E: std::error::Error>(
    pool: &sqlx::PgPool,
    owner: &str,
    member: &Member,
) -> Result<Effects, CommandError<E>> {
    let key_id = invitation_key_id(&member.invitation_id);
    let mut effects = Effects::new();
    if let Some(key) = vault::load_key(pool, &key_id)
        .await
        .map_err(vault_failure)?
    {
        let address = key.open(&member.email).map_err(vault_failure)?;
        effects = effects.release(invite_scope(owner), digest(&normalise_email(&address)));
    }
    Ok(effects.shred_key(key_id))
}

/// A vault failure as the command layer reports it: PostgreSQL's own error, or an unreadable
/// value (a storage failure that retrying will not fix).
pub(crate) fn vault_failure<E: std::error::Error>(error: VaultError) -> CommandError<E> {
    match error {
        VaultError::Storage(error) => CommandError::Storage(error),
        other => CommandError::Storage(sqlx::Error::Decode(Box::new(other))),
    }
}

fn unreadable<E: std::error::Error>(what: &'static str) -> CommandError<E> {
    CommandError::Storage(sqlx::Error::Decode(what.into()))
}
