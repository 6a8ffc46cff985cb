//! The Account aggregate: a person's sign-in, profile and team.
//!
//! One stream per account (stream type `"account"`, stream id = the account id, a UUID v7). The
//! aggregate decides who may do what to the account; uniqueness across accounts (one account per
//! e-mail, one invitation per address), the encryption of personal fields and the single-use
//! e-mail links are the command layer's work (`commands`), done in the same transaction as the
//! append.
//!
//! Rules, in the order they are checked:
//!
//! - a deleted account refuses every command ([`AccountError::Deleted`], `account-deleted`);
//! - an account never opened refuses everything but [`OpenAccount`] ([`AccountError::NotOpen`]),
//!   and an open one refuses [`OpenAccount`] ([`AccountError::AlreadyOpen`]);
//! - a disabled account can only be enabled, disabled again (nothing happens) or deleted; every
//!   other command is refused with [`AccountError::Disabled`] (`user-disabled`);
//! - verifying a verified e-mail, disabling a disabled account, enabling an enabled one and
//!   removing a removed invitation emit no event (retries are harmless);
//! - changing the e-mail makes it unverified again;
//! - invitations offer manager or operator, never owner; only a pending invitation can be
//!   accepted, not by the owner's own account and not by an account already in the team.

mod aggregate;
mod commands;
mod error;
mod events;
pub mod password_policy;

pub use aggregate::{Account, Member, MemberStatus};
pub use commands::{
    AcceptInvitation, AccountCommand, ChangeEmail, ChangePassword, ChangePhoto, DeleteAccount,
    DisableAccount, EnableAccount, InviteMember, OpenAccount, PasswordChangeReason, RemoveMember,
    UpdateProfile, VerifyEmail,
};
pub use error::AccountError;
pub use events::{
    AccountDeleted, AccountDisabled, AccountEnabled, AccountEvent, AccountOpened, EmailChanged,
    EmailVerified, MemberInvited, MemberJoined, MemberRemoved, PasswordChanged, PhotoChanged,
    ProfileUpdated,
};

/// The aggregate type, used as the stream type in the event log.
pub const STREAM_TYPE: &str = "account";
