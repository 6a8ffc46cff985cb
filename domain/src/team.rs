//! Teams: the role a person holds in an account (a workspace) and what each role may do.
//!
//! The account's owner holds [`Role::Owner`]; everyone else joins by invitation as a
//! [`Role::Manager`] or a [`Role::Operator`]. The gateway asks [`Role::can`] before every
//! workspace action, so this table is the one place the rights are written down.
//!
//! ```
//! use domain::team::{Right, Role};
//! assert!(Role::Manager.can(Right::ManageKeys));
//! assert!(!Role::Operator.can(Right::ViewAllQrCodes));
//! assert_eq!(Role::parse("operator"), Some(Role::Operator));
//! assert_eq!(Role::parse("owner"), None); // nobody is invited as owner
//! ```

use serde::{Deserialize, Serialize};

/// A person's role in an account. Stored and sent as lower-case text (`owner`, `manager`,
/// `operator`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The person who opened the account: every right. Never invited.
    Owner,
    /// Runs the shop day to day: Pix keys, every QR code and transaction; not the team, not the
    /// account's settings.
    Manager,
    /// At the till: makes QR codes and sees their own codes and the payments to them.
    Operator,
}

impl Role {
    /// Every role, most powerful first.
    pub const ALL: [Role; 3] = [Role::Owner, Role::Manager, Role::Operator];

    /// The role an invitation names: `"manager"` or `"operator"` (trimmed, any case).
    ///
    /// `"owner"` and anything else give `None`: ownership is never handed out by invitation.
    pub fn parse(text: &str) -> Option<Role> {
        match text.trim().to_ascii_lowercase().as_str() {
            "manager" => Some(Role::Manager),
            "operator" => Some(Role::Operator),
            _ => None,
        }
    }

    /// The stored spelling: `owner`, `manager` or `operator`.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Owner => "owner",
            Role::Manager => "manager",
            Role::Operator => "operator",
        }
    }

    /// The role read back from its stored spelling ([`Role::as_str`]), `owner` included.
    pub fn from_stored(text: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|role| role.as_str() == text)
    }

    /// The name people read (pt-BR), e.g. in an invitation e-mail.
    pub fn label(self) -> &'static str {
        match self {
            Role::Owner => "Proprietário",
            Role::Manager => "Gerente",
            Role::Operator => "Operador",
        }
    }

    /// Whether someone holding this role may do what `right` allows.
    pub fn can(self, right: Right) -> bool {
        match self {
            Role::Owner => true,
            Role::Manager => !matches!(right, Right::ManageMembers | Right::ManageSettings),
            Role::Operator => matches!(
                right,
                Right::CreateQrCodes | Right::ViewOwnQrCodes | Right::ViewOwnTransactions
            ),
        }
    }
}

/// Something a role may or may not do inside an account.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Right {
    /// Add, change and remove the account's Pix keys.
    ManageKeys,
    /// Make QR codes (and printed signs) for the account.
    CreateQrCodes,
    /// See every QR code of the account, whoever made it.
    ViewAllQrCodes,
    /// See the QR codes one made oneself.
    ViewOwnQrCodes,
    /// See every payment received by the account.
    ViewAllTransactions,
    /// See the payments made to one's own QR codes.
    ViewOwnTransactions,
    /// Invite and remove team members.
    ManageMembers,
    /// Change the account's settings.
    ManageSettings,
    /// Create, list and revoke the account's payment links (`/pagar`).
    ManagePaymentLinks,
    /// Create, list and revoke the account's developer API keys.
    ManageApiKeys,
    /// Register and remove the addresses the account's events are sent to (outgoing webhooks).
    ManageWebhooks,
}

impl Right {
    /// Every right, in declaration order.
    pub const ALL: [Right; 11] = [
        Right::ManageKeys,
        Right::CreateQrCodes,
        Right::ViewAllQrCodes,
        Right::ViewOwnQrCodes,
        Right::ViewAllTransactions,
        Right::ViewOwnTransactions,
        Right::ManageMembers,
        Right::ManageSettings,
        Right::ManagePaymentLinks,
        Right::ManageApiKeys,
        Right::ManageWebhooks,
    ];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_role_has_exactly_the_rights_the_team_table_gives_it() {
        use Right::*;
        // (right, owner, manager, operator)
        let table = [
            (ManageKeys, true, true, false),
            (CreateQrCodes, true, true, true),
            (ViewAllQrCodes, true, true, false),
            (ViewOwnQrCodes, true, true, true),
            (ViewAllTransactions, true, true, false),
            (ViewOwnTransactions, true, true, true),
            (ManageMembers, true, false, false),
            (ManageSettings, true, false, false),
            (ManagePaymentLinks, true, true, false),
            (ManageApiKeys, true, true, false),
            (ManageWebhooks, true, true, false),
        ];
        assert_eq!(table.len(), Right::ALL.len(), "every right is in the table");
        for (right, owner, manager, operator) in table {
            assert_eq!(Role::Owner.can(right), owner, "owner × {right:?}");
            assert_eq!(Role::Manager.can(right), manager, "manager × {right:?}");
            assert_eq!(Role::Operator.can(right), operator, "operator × {right:?}");
        }
    }

    #[test]
    fn only_manager_and_operator_can_be_named_in_an_invitation() {
        assert_eq!(Role::parse("manager"), Some(Role::Manager));
        assert_eq!(Role::parse(" Operator "), Some(Role::Operator));
        assert_eq!(Role::parse("owner"), None);
        assert_eq!(Role::parse("admin"), None);
        assert_eq!(Role::parse(""), None);
    }

    #[test]
    fn roles_read_back_from_their_stored_spelling_and_serialise_in_lower_case() {
        for role in Role::ALL {
            assert_eq!(Role::from_stored(role.as_str()), Some(role));
            assert_eq!(
                serde_json::to_value(role).expect("serialisable"),
                serde_json::json!(role.as_str())
            );
        }
        assert_eq!(Role::from_stored("Owner"), None);
    }

    #[test]
    fn rights_serialise_in_snake_case() {
        assert_eq!(
            serde_json::to_value(Right::ViewOwnQrCodes).expect("serialisable"),
            serde_json::json!("view_own_qr_codes")
        );
    }
}
