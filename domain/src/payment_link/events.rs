//! What happened to a payment link. Past tense, versioned; never changed in place.

use cqrs_es::DomainEvent;
use serde::{Deserialize, Serialize};

/// Events of the payment-link aggregate, stored as an object with a `type` field plus the
/// variant's fields.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type")]
// A creation carries the whole code; a revocation a few ids. Both live for one command, so
// boxing the creation would only add noise.
#[allow(clippy::large_enum_variant)]
pub enum PaymentLinkEvent {
    /// A link was made.
    PaymentLinkCreated(PaymentLinkCreated),
    /// A link was revoked.
    PaymentLinkRevoked(PaymentLinkRevoked),
}

/// A payment link was made (schema version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaymentLinkCreated {
    /// The link's id.
    pub link_id: String,
    /// The owning account.
    pub owner_id: String,
    /// The person who made it.
    pub created_by: String,
    /// `cpf`, `cnpj`, `email`, `phone` or `evp`.
    pub key_kind: String,
    /// The key in DICT form, as written in the code.
    pub pix_key: String,
    /// Field 59 as written (normalised).
    pub merchant_name: String,
    /// Field 60 as written (normalised).
    pub merchant_city: String,
    /// Field 54 in centavos.
    pub amount_centavos: u64,
    /// Field 26-02 as written, shown to the payer.
    pub description: Option<String>,
    /// Field 62-05 as written.
    pub txid: String,
    /// The whole BR Code ("Pix Copia e Cola").
    pub payload: String,
    /// When the link stops taking payments, RFC 3339; `None` for never.
    pub expires_at: Option<String>,
    /// When it was made, RFC 3339.
    pub created_at: String,
}

/// A payment link was revoked (schema version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaymentLinkRevoked {
    /// The link's id.
    pub link_id: String,
    /// The person who revoked it.
    pub revoked_by: String,
    /// When, RFC 3339.
    pub at: String,
}

impl DomainEvent for PaymentLinkEvent {
    fn event_type(&self) -> String {
        match self {
            PaymentLinkEvent::PaymentLinkCreated(_) => "PaymentLinkCreated".to_owned(),
            PaymentLinkEvent::PaymentLinkRevoked(_) => "PaymentLinkRevoked".to_owned(),
        }
    }

    fn event_version(&self) -> String {
        "1".to_owned()
    }
}
