//! What can be asked of an account.
//!
//! Every command carries `at`, the moment it was asked for (RFC 3339): the domain reads no clock.
//! Personal values arrive already sealed with the account's key by the command layer.

use serde::{Deserialize, Serialize};

use crate::sealed::Sealed;
use crate::subscription::plans::PlanId;
use crate::team::Role;

/// Commands of the Account aggregate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AccountCommand {
    /// Open a new account (sign-up).
    OpenAccount(OpenAccount),
    /// Mark the current e-mail address as verified.
    VerifyEmail(VerifyEmail),
    /// Replace the password hash.
    ChangePassword(ChangePassword),
    /// Replace the profile fields.
    UpdateProfile(UpdateProfile),
    /// Set or clear the profile photo.
    ChangePhoto(ChangePhoto),
    /// Move the account to another e-mail address (then unverified).
    ChangeEmail(ChangeEmail),
    /// Stop the account from being used, keeping its data.
    DisableAccount(DisableAccount),
    /// Let a disabled account be used again.
    EnableAccount(EnableAccount),
    /// Delete the account for good.
    DeleteAccount(DeleteAccount),
    /// Invite someone to the account's team.
    InviteMember(InviteMember),
    /// Someone with an account accepts a pending invitation.
    AcceptInvitation(AcceptInvitation),
    /// Cancel an invitation or remove a member.
    RemoveMember(RemoveMember),
}

/// Open a new account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenAccount {
    /// The new account's id (a UUID v7, also the stream id).
    pub account_id: String,
    /// The sign-in e-mail, sealed; the command layer has already claimed it as unique.
    pub email: Sealed,
    /// The name shown in the dashboard, sealed.
    pub display_name: Sealed,
    /// The password's hash (PHC string); the plain password never reaches the domain.
    pub password_hash: String,
    /// When, RFC 3339.
    pub at: String,
}

/// Mark the account's current e-mail address as verified (the link sent to it was opened).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyEmail {
    /// When, RFC 3339.
    pub at: String,
}

/// Why a password changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PasswordChangeReason {
    /// The signed-in person changed it, giving the current one.
    Changed,
    /// Set through a reset link sent by e-mail.
    Reset,
}

/// Replace the password hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangePassword {
    /// The new password's hash (PHC string).
    pub password_hash: String,
    /// Whether it was changed or reset.
    pub reason: PasswordChangeReason,
    /// When, RFC 3339.
    pub at: String,
}

/// Replace the profile fields as a whole (what the settings form sends).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UpdateProfile {
    /// The name shown in the dashboard, sealed.
    pub display_name: Sealed,
    /// Phone number as `+55DDNNNNNNNNN`, sealed; `None` clears it.
    pub phone_number: Option<Sealed>,
    /// Merchant name suggested for new QR codes, sealed; `None` clears it.
    pub default_merchant_name: Option<Sealed>,
    /// Merchant city suggested for new QR codes, sealed; `None` clears it.
    pub default_merchant_city: Option<Sealed>,
    /// When, RFC 3339.
    pub at: String,
}

/// Set or clear the profile photo.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangePhoto {
    /// The photo's URL (`/fotos/{accountId}?v={etag}`); `None` removes the photo.
    pub photo_url: Option<String>,
    /// When, RFC 3339.
    pub at: String,
}

/// Move the account to another e-mail address. The new address starts unverified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangeEmail {
    /// The new sign-in e-mail, sealed; the command layer has already claimed it as unique.
    pub email: Sealed,
    /// When, RFC 3339.
    pub at: String,
}

/// Stop the account from being used (sign-in and every change refused), keeping its data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DisableAccount {
    /// When, RFC 3339.
    pub at: String,
}

/// Let a disabled account be used again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnableAccount {
    /// When, RFC 3339.
    pub at: String,
}

/// Delete the account for good. The command layer also destroys the account's key, which makes
/// every sealed field in its history unreadable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeleteAccount {
    /// When, RFC 3339.
    pub at: String,
}

/// Invite someone, by e-mail, to the account's team.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InviteMember {
    /// The invitation's id (a UUID chosen by the caller).
    pub invitation_id: String,
    /// The invited address, sealed with this account's key.
    pub email: Sealed,
    /// The role offered: [`Role::Manager`] or [`Role::Operator`].
    pub role: Role,
    /// The account's plan in force: the team refuses an invitation past its number of extra
    /// people, counted from the team's own members and open invitations.
    pub plan: PlanId,
    /// When, RFC 3339.
    pub at: String,
}

/// Someone signed in to their own account accepts a pending invitation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AcceptInvitation {
    /// The invitation being accepted.
    pub invitation_id: String,
    /// The account of the person joining.
    pub member_account_id: String,
    /// When, RFC 3339.
    pub at: String,
}

/// Cancel a pending invitation or remove an active member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoveMember {
    /// The invitation (pending or accepted) to end.
    pub invitation_id: String,
    /// When, RFC 3339.
    pub at: String,
}
