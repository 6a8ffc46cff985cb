//! Deleting an account: the workflow behind `POST /api/account/delete`.
//!
//! The caller (the gateway) has confirmed the password and names the teams the person works in
//! (read from the `accounts` read model). Then, in this order:
//!
//! 1. **the teams are left**: in each, `RemoveMember` on the owner's account releases the
//!    invitation's claim on the address and shreds the invitation's own key
//!    ([`crate::team::ending_invitation`]), so the person's address becomes unreadable in the
//!    owner's log too. Done first so that a failure here leaves the account intact and the
//!    request can simply be repeated;
//! 2. **`DeleteAccount`**, with, in the same transaction ([`Effects`]): every unique claim the
//!    account holds released, its vault key and the keys of every invitation it sent shredded,
//!    its photo, every e-mailed link's code and every session deleted. A deletion that fails
//!    leaves the account whole and can be asked again; one that succeeded left nothing behind.

use domain::account::{Account, AccountCommand, AccountError, DeleteAccount, RemoveMember};

use crate::effects::Effects;
use crate::error::CommandError;
use crate::expected_version::ExpectedVersion;
use crate::feed::FeedPosition;
use crate::metadata::CommandMetadata;
use crate::service::CommandService;
use crate::team::ending_invitation;
use crate::vault::invitation_key_id;

/// A deletion, as the signed-in person asked for it.
#[derive(Debug, Clone)]
pub struct Deletion {
    /// The account to delete.
    pub account_id: String,
    /// The accounts whose teams the person works in (not their own), to leave first.
    pub teams: Vec<String>,
    /// When, RFC 3339.
    pub at: String,
}

/// A committed deletion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deleted {
    /// How many teams were left on the way.
    pub teams_left: usize,
    /// Where `AccountDeleted` is in the feed (read-your-writes).
    pub position: Option<FeedPosition>,
}

/// Deletes `deletion.account_id` after leaving its teams.
///
/// # Errors
///
/// The aggregate's refusals ([`AccountError::Deleted`] for an account already gone), storage
/// failures (nothing of the account is erased then; teams left stay left).
pub async fn delete_account(
    accounts: &CommandService<Account>,
    deletion: Deletion,
) -> Result<Deleted, CommandError<AccountError>> {
    let account_id = deletion.account_id.as_str();
    let metadata = || CommandMetadata::start().by(account_id.to_owned());
    let mut teams_left = 0;
    for owner in deletion.teams.iter().filter(|owner| *owner != account_id) {
        let team = accounts.load(owner).await?;
        // The read model may be behind a removal: the log decides.
        let Some(member) = team.aggregate.active_member(account_id) else {
            continue;
        };
        let effects = ending_invitation(accounts.store().pool(), owner, member).await?;
        let command = AccountCommand::RemoveMember(RemoveMember {
            invitation_id: member.invitation_id.clone(),
            at: deletion.at.clone(),
        });
        accounts
            .execute_with(owner, command, ExpectedVersion::Any, metadata(), &effects)
            .await?;
        teams_left += 1;
    }
    let account = accounts.load(account_id).await?;
    let mut effects = Effects::new()
        .release_all(account_id)
        .shred_key(account_id)
        .delete_photo(account_id)
        .forget_all_bank_credentials(account_id)
        .forget_action_codes(account_id)
        .delete_sessions(account_id);
    // The addresses of the people this account invited are sealed with keys of their own.
    for member in account.aggregate.members() {
        effects = effects.shred_key(invitation_key_id(&member.invitation_id));
    }
    let outcome = accounts
        .execute_with(
            account_id,
            AccountCommand::DeleteAccount(DeleteAccount { at: deletion.at }),
            ExpectedVersion::Any,
            metadata(),
            &effects,
        )
        .await?;
    Ok(Deleted {
        teams_left,
        position: outcome.position,
    })
}
