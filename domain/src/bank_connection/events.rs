//! What happened to a bank connection. Past tense, versioned; never changed in place. No event
//! carries a credential: see the [module](super) documentation.

use cqrs_es::DomainEvent;
use serde::{Deserialize, Serialize};

/// Events of the bank-connection aggregate, stored as an object with a `type` field plus the
/// variant's fields.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum BankConnectionEvent {
    /// The key was connected to its bank (or its credentials replaced).
    BankConnected(BankConnected),
    /// Balcão asked the bank for a token and read the key's webhook.
    BankConnectionTested(BankConnectionTested),
    /// The bank took Balcão's receiver address as the key's webhook.
    BankWebhookRegistered(BankWebhookRegistered),
    /// The bank refused (or did not answer) the webhook registration.
    BankWebhookRegistrationFailed(BankWebhookRegistrationFailed),
    /// The connection was removed; its credentials are gone.
    BankDisconnected(BankDisconnected),
    /// The connection's certificate ends within one of the warning thresholds (30, 7, 1 days);
    /// the owner was warned.
    BankCertificateExpiring(BankCertificateExpiring),
}

/// A key was connected to its bank, or a connected key's credentials were replaced (schema
/// version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BankConnected {
    /// The registered key's id (the stream id).
    pub key_id: String,
    /// The owning account.
    pub account_id: String,
    /// The key in DICT form.
    pub pix_key: String,
    /// The bank's profile slug (`efi`, `banco-do-brasil`, …, `outro`).
    pub bank: String,
    /// `producao` or `homologacao`.
    pub environment: String,
    /// Hex SHA-256 of the client certificate (DER): which certificate, without the certificate.
    pub certificate_fingerprint: String,
    /// When the certificate stops being valid, RFC 3339.
    pub certificate_not_after: String,
    /// Whether this replaced the credentials of a connection already standing.
    pub replaced: bool,
    /// The person who connected it.
    pub connected_by: String,
    /// When, RFC 3339.
    pub at: String,
}

/// The outcome of a connection test: a token asked for and the key's webhook read (schema
/// version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BankConnectionTested {
    /// Whether the bank answered both calls.
    pub ok: bool,
    /// A stable code of what failed (`bank-wrong-credentials`, `bank-certificate-refused`, …).
    pub problem: Option<String>,
    /// What failed, in pt-BR, as the owner was told.
    pub message: Option<String>,
    /// The person who ran it, or `balcao` for a check of Balcão's own.
    pub by: String,
    /// When, RFC 3339.
    pub at: String,
}

/// The bank took Balcão's receiver address as the key's webhook (schema version 1). The address
/// itself holds a secret token and is not kept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BankWebhookRegistered {
    /// The person who asked for it.
    pub by: String,
    /// When, RFC 3339.
    pub at: String,
}

/// The webhook registration failed (schema version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BankWebhookRegistrationFailed {
    /// A stable code of what failed.
    pub problem: String,
    /// What failed, in pt-BR.
    pub message: String,
    /// The person who asked for it.
    pub by: String,
    /// When, RFC 3339.
    pub at: String,
}

/// The connection was removed (schema version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BankDisconnected {
    /// The person who removed it.
    pub by: String,
    /// When, RFC 3339.
    pub at: String,
}

/// The certificate of the standing connection ends within `threshold_days` days (schema version
/// 1): recorded once per certificate and threshold, when the owner is warned by e-mail.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BankCertificateExpiring {
    /// Which certificate (its fingerprint, as [`BankConnected::certificate_fingerprint`]).
    pub certificate_fingerprint: String,
    /// When it ends, RFC 3339.
    pub certificate_not_after: String,
    /// The threshold crossed: 30, 7 or 1.
    pub threshold_days: u32,
    /// When the warning was decided, RFC 3339.
    pub at: String,
}

impl DomainEvent for BankConnectionEvent {
    fn event_type(&self) -> String {
        match self {
            BankConnectionEvent::BankConnected(_) => "BankConnected",
            BankConnectionEvent::BankConnectionTested(_) => "BankConnectionTested",
            BankConnectionEvent::BankWebhookRegistered(_) => "BankWebhookRegistered",
            BankConnectionEvent::BankWebhookRegistrationFailed(_) => {
                "BankWebhookRegistrationFailed"
            }
            BankConnectionEvent::BankDisconnected(_) => "BankDisconnected",
            BankConnectionEvent::BankCertificateExpiring(_) => "BankCertificateExpiring",
        }
        .to_owned()
    }

    fn event_version(&self) -> String {
        "1".to_owned()
    }
}
