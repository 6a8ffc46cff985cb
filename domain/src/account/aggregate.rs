//! The Account aggregate: `handle` only decides, `apply` only folds.

use cqrs_es::Aggregate;
use cqrs_es::event_sink::EventSink;
use serde::{Deserialize, Serialize};

use super::commands::{AcceptInvitation, InviteMember, OpenAccount, RemoveMember};
use super::events::{
    AccountDeleted, AccountDisabled, AccountEnabled, AccountOpened, EmailChanged, EmailVerified,
    MemberInvited, MemberJoined, MemberRemoved, PasswordChanged, PhotoChanged, ProfileUpdated,
};
use super::{AccountCommand, AccountError, AccountEvent, STREAM_TYPE};
use crate::sealed::Sealed;
use crate::subscription::limits::{self, LimitedAction, Usage};
use crate::team::Role;

/// Where an invitation stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MemberStatus {
    /// Invited, not accepted yet.
    Invited,
    /// Accepted: the person works in the account.
    Active,
    /// Cancelled before acceptance, or the member was removed.
    Removed,
}

impl MemberStatus {
    /// The stored spelling: `invited`, `active` or `removed`.
    pub fn as_str(self) -> &'static str {
        match self {
            MemberStatus::Invited => "invited",
            MemberStatus::Active => "active",
            MemberStatus::Removed => "removed",
        }
    }
}

/// One invitation to the account's team, and the membership it became.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Member {
    /// The invitation's id.
    pub invitation_id: String,
    /// The invited address, sealed with the account's key.
    pub email: Sealed,
    /// The role offered (never [`Role::Owner`]).
    pub role: Role,
    /// Invited, active or removed.
    pub status: MemberStatus,
    /// The account that accepted, once accepted.
    pub member_account_id: Option<String>,
    /// When the invitation was made, RFC 3339.
    pub invited_at: String,
    /// When it was accepted, RFC 3339.
    pub joined_at: Option<String>,
}

/// The state an account's decisions need.
///
/// Personal values stay sealed; the profile fields are not kept at all (no decision reads them,
/// the `accounts` read model shows them).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Account {
    account_id: Option<String>,
    email: Option<Sealed>,
    email_verified: bool,
    password_hash: Option<String>,
    disabled: bool,
    deleted: bool,
    /// Every invitation ever made, in order (removed ones too, so an id is never reused).
    members: Vec<Member>,
}

impl Account {
    /// The account's id, once opened.
    pub fn account_id(&self) -> Option<&str> {
        self.account_id.as_deref()
    }

    /// Whether the account was opened and has not been deleted.
    pub fn is_open(&self) -> bool {
        self.account_id.is_some() && !self.deleted
    }

    /// The current password's hash; `None` before opening and after deletion.
    pub fn password_hash(&self) -> Option<&str> {
        self.password_hash.as_deref()
    }

    /// Whether the current e-mail address was verified.
    pub fn email_verified(&self) -> bool {
        self.email_verified
    }

    /// Whether the account is disabled.
    pub fn is_disabled(&self) -> bool {
        self.disabled
    }

    /// Whether the account was deleted.
    pub fn is_deleted(&self) -> bool {
        self.deleted
    }

    /// The current sign-in e-mail, sealed; `None` before opening and after deletion.
    pub fn email(&self) -> Option<&Sealed> {
        self.email.as_ref()
    }

    /// The invitation with this id, whatever its status.
    pub fn member(&self, invitation_id: &str) -> Option<&Member> {
        self.members
            .iter()
            .find(|m| m.invitation_id == invitation_id)
    }

    /// People in the team besides the owner, open invitations included: what the plan's limit
    /// of extra people counts.
    pub fn team_size(&self) -> u32 {
        let taken = self
            .members
            .iter()
            .filter(|m| m.status != MemberStatus::Removed)
            .count();
        u32::try_from(taken).unwrap_or(u32::MAX)
    }

    /// Every invitation, in the order they were made (removed ones included).
    pub fn members(&self) -> &[Member] {
        &self.members
    }

    /// The active membership of `member_account_id`, if that account works in this one.
    pub fn active_member(&self, member_account_id: &str) -> Option<&Member> {
        self.members.iter().find(|m| {
            m.status == MemberStatus::Active
                && m.member_account_id.as_deref() == Some(member_account_id)
        })
    }

    /// The account's id if it exists (opened, not deleted).
    fn existing(&self) -> Result<String, AccountError> {
        if self.deleted {
            return Err(AccountError::Deleted);
        }
        self.account_id.clone().ok_or(AccountError::NotOpen)
    }

    /// The account's id if it exists and is not disabled.
    fn usable(&self) -> Result<String, AccountError> {
        let account_id = self.existing()?;
        if self.disabled {
            return Err(AccountError::Disabled);
        }
        Ok(account_id)
    }

    fn decide(&self, command: AccountCommand) -> Result<Vec<AccountEvent>, AccountError> {
        let event = match command {
            AccountCommand::OpenAccount(open) => return self.open(open),
            AccountCommand::VerifyEmail(verify) => {
                let account_id = self.usable()?;
                if self.email_verified {
                    return Ok(vec![]);
                }
                AccountEvent::EmailVerified(EmailVerified {
                    account_id,
                    at: verify.at,
                })
            }
            AccountCommand::ChangePassword(change) => {
                AccountEvent::PasswordChanged(PasswordChanged {
                    account_id: self.usable()?,
                    password_hash: change.password_hash,
                    reason: change.reason,
                    at: change.at,
                })
            }
            AccountCommand::UpdateProfile(update) => AccountEvent::ProfileUpdated(ProfileUpdated {
                account_id: self.usable()?,
                display_name: update.display_name,
                phone_number: update.phone_number,
                default_merchant_name: update.default_merchant_name,
                default_merchant_city: update.default_merchant_city,
                at: update.at,
            }),
            AccountCommand::ChangePhoto(change) => AccountEvent::PhotoChanged(PhotoChanged {
                account_id: self.usable()?,
                photo_url: change.photo_url,
                at: change.at,
            }),
            AccountCommand::ChangeEmail(change) => AccountEvent::EmailChanged(EmailChanged {
                account_id: self.usable()?,
                email: change.email,
                at: change.at,
            }),
            AccountCommand::DisableAccount(disable) => {
                let account_id = self.existing()?;
                if self.disabled {
                    return Ok(vec![]);
                }
                AccountEvent::AccountDisabled(AccountDisabled {
                    account_id,
                    at: disable.at,
                })
            }
            AccountCommand::EnableAccount(enable) => {
                let account_id = self.existing()?;
                if !self.disabled {
                    return Ok(vec![]);
                }
                AccountEvent::AccountEnabled(AccountEnabled {
                    account_id,
                    at: enable.at,
                })
            }
            AccountCommand::DeleteAccount(delete) => AccountEvent::AccountDeleted(AccountDeleted {
                account_id: self.existing()?,
                at: delete.at,
            }),
            AccountCommand::InviteMember(invite) => return self.invite(invite),
            AccountCommand::AcceptInvitation(accept) => return self.accept(accept),
            AccountCommand::RemoveMember(remove) => return self.remove(remove),
        };
        Ok(vec![event])
    }

    fn open(&self, open: OpenAccount) -> Result<Vec<AccountEvent>, AccountError> {
        if self.deleted {
            return Err(AccountError::Deleted);
        }
        if self.account_id.is_some() {
            return Err(AccountError::AlreadyOpen);
        }
        Ok(vec![AccountEvent::AccountOpened(AccountOpened {
            account_id: open.account_id,
            email: open.email,
            display_name: open.display_name,
            password_hash: open.password_hash,
            at: open.at,
        })])
    }

    fn invite(&self, invite: InviteMember) -> Result<Vec<AccountEvent>, AccountError> {
        let account_id = self.usable()?;
        if invite.role == Role::Owner {
            return Err(AccountError::RoleNotInvitable);
        }
        if self.member(&invite.invitation_id).is_some() {
            return Err(AccountError::InvitationAlreadyExists);
        }
        // Checked against the team as the log has it, so two invitations racing for the plan's
        // last place cannot both pass: the second is decided again on the first's event.
        let usage = Usage {
            extra_accounts: self.team_size(),
            ..Usage::default()
        };
        limits::check(invite.plan, LimitedAction::InviteMember, usage)
            .map_err(AccountError::PlanLimit)?;
        Ok(vec![AccountEvent::MemberInvited(MemberInvited {
            account_id,
            invitation_id: invite.invitation_id,
            email: invite.email,
            role: invite.role,
            at: invite.at,
        })])
    }

    fn accept(&self, accept: AcceptInvitation) -> Result<Vec<AccountEvent>, AccountError> {
        let account_id = self.usable()?;
        let invitation = self
            .member(&accept.invitation_id)
            .ok_or(AccountError::InvitationNotFound)?;
        if invitation.status != MemberStatus::Invited {
            return Err(AccountError::InvitationNotPending);
        }
        if accept.member_account_id == account_id {
            return Err(AccountError::CannotInviteSelf);
        }
        if self.active_member(&accept.member_account_id).is_some() {
            return Err(AccountError::AlreadyMember);
        }
        Ok(vec![AccountEvent::MemberJoined(MemberJoined {
            account_id,
            invitation_id: accept.invitation_id,
            member_account_id: accept.member_account_id,
            at: accept.at,
        })])
    }

    fn remove(&self, remove: RemoveMember) -> Result<Vec<AccountEvent>, AccountError> {
        let account_id = self.usable()?;
        let invitation = self
            .member(&remove.invitation_id)
            .ok_or(AccountError::InvitationNotFound)?;
        if invitation.status == MemberStatus::Removed {
            // Removing twice (a double click, a retried request) changes nothing.
            return Ok(vec![]);
        }
        Ok(vec![AccountEvent::MemberRemoved(MemberRemoved {
            account_id,
            invitation_id: remove.invitation_id,
            at: remove.at,
        })])
    }

    fn member_mut(&mut self, invitation_id: &str) -> Option<&mut Member> {
        self.members
            .iter_mut()
            .find(|m| m.invitation_id == invitation_id)
    }
}

impl Aggregate for Account {
    const TYPE: &'static str = STREAM_TYPE;
    type Command = AccountCommand;
    type Event = AccountEvent;
    type Error = AccountError;
    type Services = ();

    async fn handle(
        &mut self,
        command: Self::Command,
        _services: &Self::Services,
        sink: &EventSink<Self>,
    ) -> Result<(), Self::Error> {
        for event in self.decide(command)? {
            sink.write(event, self).await;
        }
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        match event {
            AccountEvent::AccountOpened(opened) => {
                self.account_id = Some(opened.account_id);
                self.email = Some(opened.email);
                self.email_verified = false;
                self.password_hash = Some(opened.password_hash);
            }
            AccountEvent::EmailVerified(_) => self.email_verified = true,
            AccountEvent::PasswordChanged(changed) => {
                self.password_hash = Some(changed.password_hash);
            }
            AccountEvent::ProfileUpdated(_) | AccountEvent::PhotoChanged(_) => {}
            AccountEvent::EmailChanged(changed) => {
                self.email = Some(changed.email);
                self.email_verified = false;
            }
            AccountEvent::AccountDisabled(_) => self.disabled = true,
            AccountEvent::AccountEnabled(_) => self.disabled = false,
            AccountEvent::AccountDeleted(_) => {
                // Nothing of a deleted account is needed again: keep only the fact.
                self.deleted = true;
                self.email = None;
                self.password_hash = None;
                self.members.clear();
            }
            AccountEvent::MemberInvited(invited) => self.members.push(Member {
                invitation_id: invited.invitation_id,
                email: invited.email,
                role: invited.role,
                status: MemberStatus::Invited,
                member_account_id: None,
                invited_at: invited.at,
                joined_at: None,
            }),
            AccountEvent::MemberJoined(joined) => {
                if let Some(member) = self.member_mut(&joined.invitation_id) {
                    member.status = MemberStatus::Active;
                    member.member_account_id = Some(joined.member_account_id);
                    member.joined_at = Some(joined.at);
                }
            }
            AccountEvent::MemberRemoved(removed) => {
                if let Some(member) = self.member_mut(&removed.invitation_id) {
                    member.status = MemberStatus::Removed;
                }
            }
        }
    }
}
