//! Developer API keys: what a key may do ([`Scope`]) and what a new key must say (its name, its
//! scopes, its expiry), checked before anything is stored.
//!
//! A key acts for the account, never for a person: it holds no role, only scopes, and each
//! workspace right maps to at most one scope ([`Scope::for_right`]). The rights that change who
//! may act (team, settings, Pix keys, API keys themselves) map to none, so no key can grant
//! itself more.
//!
//! ```
//! use domain::api_key::{NewApiKey, Scope};
//! use domain::team::Right;
//! let key = NewApiKey::parse(" Loja virtual ", &["payments:read", "qrcodes:write"], None, 0)
//!     .unwrap();
//! assert_eq!(key.name, "Loja virtual");
//! assert_eq!(key.scopes, vec![Scope::QrCodesWrite, Scope::PaymentsRead]);
//! assert_eq!(Scope::for_right(Right::ViewAllTransactions), Some(Scope::PaymentsRead));
//! assert_eq!(Scope::for_right(Right::ManageMembers), None);
//! ```

use serde::{Deserialize, Serialize};

use crate::refusal::{FieldProblem, Refusal, RefusalKind};
use crate::team::Right;

/// What a key may do. Stored and sent as `resource:action` text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Scope {
    /// Read the account's QR codes.
    #[serde(rename = "qrcodes:read")]
    QrCodesRead,
    /// Make QR codes (reading them back included).
    #[serde(rename = "qrcodes:write")]
    QrCodesWrite,
    /// Read payments: the list, its totals, one payment, its history, the CSV.
    #[serde(rename = "payments:read")]
    PaymentsRead,
    /// Make and revoke payment links.
    #[serde(rename = "payment-links:write")]
    PaymentLinksWrite,
    /// Register and remove webhook endpoints, read their deliveries, send one again.
    #[serde(rename = "webhooks:write")]
    WebhooksWrite,
}

impl Scope {
    /// Every scope, in the order the screen lists them.
    pub const ALL: [Scope; 5] = [
        Scope::QrCodesRead,
        Scope::QrCodesWrite,
        Scope::PaymentsRead,
        Scope::PaymentLinksWrite,
        Scope::WebhooksWrite,
    ];

    /// The stored spelling (`qrcodes:read`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::QrCodesRead => "qrcodes:read",
            Scope::QrCodesWrite => "qrcodes:write",
            Scope::PaymentsRead => "payments:read",
            Scope::PaymentLinksWrite => "payment-links:write",
            Scope::WebhooksWrite => "webhooks:write",
        }
    }

    /// The scope its stored spelling names.
    pub fn parse(text: &str) -> Option<Scope> {
        Scope::ALL.into_iter().find(|scope| scope.as_str() == text)
    }

    /// What it allows, in pt-BR, for the keys screen and the refusals.
    pub fn label(self) -> &'static str {
        match self {
            Scope::QrCodesRead => "ver os QR codes",
            Scope::QrCodesWrite => "criar QR codes",
            Scope::PaymentsRead => "ver os pagamentos",
            Scope::PaymentLinksWrite => "criar e cancelar links de pagamento",
            Scope::WebhooksWrite => "cadastrar endereços de webhook e ver as entregas",
        }
    }

    /// The scope a key needs for what `right` allows a person; `None` when no key may do it.
    pub fn for_right(right: Right) -> Option<Scope> {
        match right {
            Right::CreateQrCodes => Some(Scope::QrCodesWrite),
            Right::ViewAllQrCodes | Right::ViewOwnQrCodes => Some(Scope::QrCodesRead),
            Right::ViewAllTransactions | Right::ViewOwnTransactions => Some(Scope::PaymentsRead),
            Right::ManagePaymentLinks => Some(Scope::PaymentLinksWrite),
            Right::ManageWebhooks => Some(Scope::WebhooksWrite),
            Right::ManageKeys
            | Right::ManageMembers
            | Right::ManageSettings
            | Right::ManageApiKeys => None,
        }
    }

    /// Whether a key holding `scopes` may do what `self` allows: `qrcodes:write` covers
    /// `qrcodes:read` (a program that makes codes reads them back).
    pub fn granted_by(self, scopes: &[Scope]) -> bool {
        scopes.contains(&self)
            || (self == Scope::QrCodesRead && scopes.contains(&Scope::QrCodesWrite))
    }
}

/// The longest key name, in characters.
pub const MAX_NAME_CHARS: usize = 60;

/// The longest life a key may be given, in days (a key with no expiry lives until revoked).
pub const MAX_LIFE_DAYS: i64 = 2 * 366;

/// A key as the owner asked for it, every rule checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewApiKey {
    /// Trimmed, 1 to [`MAX_NAME_CHARS`] characters, no control characters.
    pub name: String,
    /// At least one, each once, in [`Scope::ALL`]'s order.
    pub scopes: Vec<Scope>,
    /// Unix seconds; in the future and at most [`MAX_LIFE_DAYS`] ahead.
    pub expires_at: Option<i64>,
}

/// Why a key cannot be made as asked: every problem, each naming its field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", .0.first().map_or("", |p| p.message.as_str()))]
pub struct ApiKeyProblems(pub Vec<FieldProblem>);

impl Refusal for ApiKeyProblems {
    fn code(&self) -> &'static str {
        "invalid-argument"
    }

    fn kind(&self) -> RefusalKind {
        RefusalKind::Invalid
    }

    fn field(&self) -> Option<&'static str> {
        self.0.first().map(|p| p.field)
    }

    fn problems(&self) -> Vec<FieldProblem> {
        self.0.clone()
    }
}

fn problem(field: &'static str, message: impl Into<String>) -> FieldProblem {
    FieldProblem {
        field,
        line: None,
        message: message.into(),
    }
}

impl NewApiKey {
    /// Checks a new key's `name`, `scopes` (their stored spellings) and `expires_at` (Unix
    /// seconds) at `now` (Unix seconds).
    ///
    /// # Errors
    ///
    /// Every problem found, in the order of the fields (`name`, `scopes`, `expiresOn`).
    pub fn parse(
        name: &str,
        scopes: &[&str],
        expires_at: Option<i64>,
        now: i64,
    ) -> Result<NewApiKey, ApiKeyProblems> {
        let mut problems = Vec::new();
        let name = name.trim();
        if name.is_empty() {
            problems.push(problem(
                "name",
                "Dê um nome à chave, como o do sistema que vai usá-la.",
            ));
        } else if name.chars().count() > MAX_NAME_CHARS {
            problems.push(problem(
                "name",
                format!("O nome pode ter até {MAX_NAME_CHARS} caracteres."),
            ));
        } else if name.chars().any(char::is_control) {
            problems.push(problem(
                "name",
                "O nome não pode ter caracteres de controle.",
            ));
        }
        let mut parsed = Vec::new();
        for text in scopes {
            match Scope::parse(text.trim()) {
                Some(scope) => parsed.push(scope),
                None => problems.push(problem(
                    "scopes",
                    format!(
                        "Permissão desconhecida: {:?}. As permissões são: {}.",
                        text.trim(),
                        Scope::ALL.map(Scope::as_str).join(", ")
                    ),
                )),
            }
        }
        parsed.sort_unstable();
        parsed.dedup();
        if scopes.is_empty() {
            problems.push(problem(
                "scopes",
                "Escolha ao menos uma permissão para a chave.",
            ));
        }
        if let Some(at) = expires_at {
            if at <= now {
                problems.push(problem(
                    "expiresOn",
                    "A validade precisa ser uma data futura.",
                ));
            } else if at - now > MAX_LIFE_DAYS * 86_400 {
                problems.push(problem(
                    "expiresOn",
                    "A validade pode ser de até dois anos; sem validade, a chave vale até ser revogada.",
                ));
            }
        }
        if !problems.is_empty() {
            return Err(ApiKeyProblems(problems));
        }
        Ok(NewApiKey {
            name: name.to_owned(),
            scopes: parsed,
            expires_at,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_795_000_000;

    #[test]
    fn every_scope_reads_back_from_its_spelling_and_serde_agrees() {
        for scope in Scope::ALL {
            assert_eq!(Scope::parse(scope.as_str()), Some(scope));
            assert_eq!(
                serde_json::to_value(scope).unwrap(),
                serde_json::json!(scope.as_str())
            );
        }
        assert_eq!(Scope::parse("admin"), None);
    }

    #[test]
    fn no_key_may_manage_people_settings_pix_keys_or_other_api_keys() {
        for right in Right::ALL {
            let scope = Scope::for_right(right);
            let managing = matches!(
                right,
                Right::ManageKeys
                    | Right::ManageMembers
                    | Right::ManageSettings
                    | Right::ManageApiKeys
            );
            assert_eq!(scope.is_none(), managing, "{right:?}");
        }
    }

    #[test]
    fn writing_qr_codes_lets_a_key_read_them_and_nothing_else_is_implied() {
        assert!(Scope::QrCodesRead.granted_by(&[Scope::QrCodesWrite]));
        assert!(!Scope::QrCodesWrite.granted_by(&[Scope::QrCodesRead]));
        assert!(!Scope::PaymentsRead.granted_by(&[Scope::QrCodesWrite]));
    }

    #[test]
    fn a_key_without_a_name_or_scopes_or_with_a_past_expiry_lists_every_problem() {
        let refused = NewApiKey::parse("  ", &[], Some(NOW - 1), NOW).unwrap_err();
        let fields: Vec<_> = refused.0.iter().map(|p| p.field).collect();
        assert_eq!(fields, ["name", "scopes", "expiresOn"]);
        assert_eq!(
            refused.to_string(),
            "Dê um nome à chave, como o do sistema que vai usá-la."
        );
    }

    #[test]
    fn an_unknown_scope_is_named_and_the_known_ones_listed() {
        let refused = NewApiKey::parse("ERP", &["payments:read", "tudo"], None, NOW).unwrap_err();
        assert_eq!(refused.0.len(), 1);
        assert!(refused.0[0].message.contains("\"tudo\""));
        assert!(refused.0[0].message.contains("payments:read"));
    }

    #[test]
    fn scopes_are_kept_once_in_order_and_an_expiry_within_two_years_is_taken() {
        let key = NewApiKey::parse(
            "ERP",
            &["payments:read", "qrcodes:read", "payments:read"],
            Some(NOW + 86_400),
            NOW,
        )
        .unwrap();
        assert_eq!(key.scopes, vec![Scope::QrCodesRead, Scope::PaymentsRead]);
        assert_eq!(key.expires_at, Some(NOW + 86_400));
        let too_far = NewApiKey::parse("ERP", &["payments:read"], Some(NOW + 800 * 86_400), NOW);
        assert_eq!(too_far.unwrap_err().0[0].field, "expiresOn");
    }

    #[test]
    fn a_long_name_or_one_with_a_control_character_is_refused() {
        let long = "a".repeat(MAX_NAME_CHARS + 1);
        assert_eq!(
            NewApiKey::parse(&long, &["payments:read"], None, NOW)
                .unwrap_err()
                .0[0]
                .field,
            "name"
        );
        assert!(NewApiKey::parse("ERP\u{7}", &["payments:read"], None, NOW).is_err());
    }
}
