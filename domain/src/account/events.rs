//! What happened to an account. Past tense, versioned; never changed in place (add a version and
//! an upcaster instead).
//!
//! Personal values (e-mail, names, phone) are only ever [`Sealed`]: once the account's key is
//! destroyed they cannot be read, while the log itself stays append-only.

use cqrs_es::DomainEvent;
use serde::{Deserialize, Serialize};

use super::commands::PasswordChangeReason;
use crate::sealed::Sealed;
use crate::team::Role;

/// Events of the Account aggregate. Stored as an object with a `type` field plus the variant's
/// fields, so read models can read the fields directly. Every one carries `account_id` and `at`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum AccountEvent {
    /// The account was opened.
    AccountOpened(AccountOpened),
    /// The current e-mail address was verified.
    EmailVerified(EmailVerified),
    /// The password changed.
    PasswordChanged(PasswordChanged),
    /// The profile fields changed.
    ProfileUpdated(ProfileUpdated),
    /// The photo was set or removed.
    PhotoChanged(PhotoChanged),
    /// The sign-in e-mail changed.
    EmailChanged(EmailChanged),
    /// The account was disabled.
    AccountDisabled(AccountDisabled),
    /// The account was enabled again.
    AccountEnabled(AccountEnabled),
    /// The account was deleted.
    AccountDeleted(AccountDeleted),
    /// Someone was invited to the team.
    MemberInvited(MemberInvited),
    /// An invitation was accepted.
    MemberJoined(MemberJoined),
    /// An invitation was cancelled or a member removed.
    MemberRemoved(MemberRemoved),
}

/// The account was opened (schema version 1). The e-mail starts unverified.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountOpened {
    /// The account's id.
    pub account_id: String,
    /// The sign-in e-mail, sealed.
    pub email: Sealed,
    /// The name shown in the dashboard, sealed.
    pub display_name: Sealed,
    /// The password's hash (PHC string).
    pub password_hash: String,
    /// When, RFC 3339.
    pub at: String,
}

/// The account's current e-mail address was verified (schema version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EmailVerified {
    /// The account's id.
    pub account_id: String,
    /// When, RFC 3339.
    pub at: String,
}

/// The password changed (schema version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PasswordChanged {
    /// The account's id.
    pub account_id: String,
    /// The new password's hash (PHC string).
    pub password_hash: String,
    /// `changed` (by the signed-in person) or `reset` (through an e-mailed link).
    pub reason: PasswordChangeReason,
    /// When, RFC 3339.
    pub at: String,
}

/// The profile fields were replaced (schema version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProfileUpdated {
    /// The account's id.
    pub account_id: String,
    /// The name shown in the dashboard, sealed.
    pub display_name: Sealed,
    /// Phone number (`+55DDNNNNNNNNN`), sealed; `None` when cleared.
    pub phone_number: Option<Sealed>,
    /// Merchant name suggested for new QR codes, sealed.
    pub default_merchant_name: Option<Sealed>,
    /// Merchant city suggested for new QR codes, sealed.
    pub default_merchant_city: Option<Sealed>,
    /// When, RFC 3339.
    pub at: String,
}

/// The photo was set or removed (schema version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhotoChanged {
    /// The account's id.
    pub account_id: String,
    /// The photo's URL; `None` when removed. A path on our own site, not personal text.
    pub photo_url: Option<String>,
    /// When, RFC 3339.
    pub at: String,
}

/// The sign-in e-mail changed; the new address is unverified (schema version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EmailChanged {
    /// The account's id.
    pub account_id: String,
    /// The new address, sealed.
    pub email: Sealed,
    /// When, RFC 3339.
    pub at: String,
}

/// The account was disabled (schema version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountDisabled {
    /// The account's id.
    pub account_id: String,
    /// When, RFC 3339.
    pub at: String,
}

/// The account was enabled again (schema version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountEnabled {
    /// The account's id.
    pub account_id: String,
    /// When, RFC 3339.
    pub at: String,
}

/// The account was deleted (schema version 1). Nothing can happen to it afterwards.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountDeleted {
    /// The account's id.
    pub account_id: String,
    /// When, RFC 3339.
    pub at: String,
}

/// Someone was invited to the account's team (schema version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberInvited {
    /// The inviting account's id.
    pub account_id: String,
    /// The invitation's id.
    pub invitation_id: String,
    /// The invited address, sealed with the invitation's own key (`invitation:<id>`), shredded when
    /// the invitation ends.
    pub email: Sealed,
    /// The role offered (`manager` or `operator`).
    pub role: Role,
    /// When, RFC 3339.
    pub at: String,
}

/// A pending invitation was accepted (schema version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberJoined {
    /// The inviting account's id.
    pub account_id: String,
    /// The invitation accepted.
    pub invitation_id: String,
    /// The account of the person who joined.
    pub member_account_id: String,
    /// When, RFC 3339.
    pub at: String,
}

/// An invitation was cancelled or a member removed (schema version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberRemoved {
    /// The inviting account's id.
    pub account_id: String,
    /// The invitation ended.
    pub invitation_id: String,
    /// When, RFC 3339.
    pub at: String,
}

impl AccountEvent {
    /// The account the event belongs to.
    pub fn account_id(&self) -> &str {
        match self {
            AccountEvent::AccountOpened(e) => &e.account_id,
            AccountEvent::EmailVerified(e) => &e.account_id,
            AccountEvent::PasswordChanged(e) => &e.account_id,
            AccountEvent::ProfileUpdated(e) => &e.account_id,
            AccountEvent::PhotoChanged(e) => &e.account_id,
            AccountEvent::EmailChanged(e) => &e.account_id,
            AccountEvent::AccountDisabled(e) => &e.account_id,
            AccountEvent::AccountEnabled(e) => &e.account_id,
            AccountEvent::AccountDeleted(e) => &e.account_id,
            AccountEvent::MemberInvited(e) => &e.account_id,
            AccountEvent::MemberJoined(e) => &e.account_id,
            AccountEvent::MemberRemoved(e) => &e.account_id,
        }
    }

    /// When it happened, RFC 3339.
    pub fn at(&self) -> &str {
        match self {
            AccountEvent::AccountOpened(e) => &e.at,
            AccountEvent::EmailVerified(e) => &e.at,
            AccountEvent::PasswordChanged(e) => &e.at,
            AccountEvent::ProfileUpdated(e) => &e.at,
            AccountEvent::PhotoChanged(e) => &e.at,
            AccountEvent::EmailChanged(e) => &e.at,
            AccountEvent::AccountDisabled(e) => &e.at,
            AccountEvent::AccountEnabled(e) => &e.at,
            AccountEvent::AccountDeleted(e) => &e.at,
            AccountEvent::MemberInvited(e) => &e.at,
            AccountEvent::MemberJoined(e) => &e.at,
            AccountEvent::MemberRemoved(e) => &e.at,
        }
    }

    /// The type name as stored (`AccountOpened`, …), also the value of the `type` field.
    pub fn type_name(&self) -> &'static str {
        match self {
            AccountEvent::AccountOpened(_) => "AccountOpened",
            AccountEvent::EmailVerified(_) => "EmailVerified",
            AccountEvent::PasswordChanged(_) => "PasswordChanged",
            AccountEvent::ProfileUpdated(_) => "ProfileUpdated",
            AccountEvent::PhotoChanged(_) => "PhotoChanged",
            AccountEvent::EmailChanged(_) => "EmailChanged",
            AccountEvent::AccountDisabled(_) => "AccountDisabled",
            AccountEvent::AccountEnabled(_) => "AccountEnabled",
            AccountEvent::AccountDeleted(_) => "AccountDeleted",
            AccountEvent::MemberInvited(_) => "MemberInvited",
            AccountEvent::MemberJoined(_) => "MemberJoined",
            AccountEvent::MemberRemoved(_) => "MemberRemoved",
        }
    }
}

impl DomainEvent for AccountEvent {
    fn event_type(&self) -> String {
        self.type_name().to_owned()
    }

    fn event_version(&self) -> String {
        // Every Account event is at its first schema version.
        "1".to_owned()
    }
}
