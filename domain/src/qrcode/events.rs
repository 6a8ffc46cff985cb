//! What happened to a QR code. Past tense, versioned; never changed in place (add a version and
//! an upcaster instead).

use cqrs_es::DomainEvent;
use serde::{Deserialize, Serialize};

/// Events of the QR-code aggregate. Stored as an object with a `type` field plus the variant's
/// fields, so read models can read the fields directly.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum QrCodeEvent {
    /// A static Pix QR code was made.
    QrCodeCreated(QrCodeCreated),
    /// A visitor's code got its private management link (only the token's digest is kept).
    QrCodeManagementLinkIssued(QrCodeManagementLinkIssued),
    /// A visitor's code was claimed by an account.
    QrCodeClaimed(QrCodeClaimed),
}

/// A static Pix QR code was made (schema version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QrCodeCreated {
    /// The code's id.
    pub qrcode_id: String,
    /// The owning account, if any.
    pub owner_id: Option<String>,
    /// The account of the person who made it (a team member's own account when `owner_id` is
    /// the workspace); `None` for visitors. Added within schema version 1: events stored before
    /// it existed read as `None`.
    #[serde(default)]
    pub created_by: Option<String>,
    /// `cpf`, `cnpj`, `email`, `phone` or `evp`.
    pub key_kind: String,
    /// The key in DICT form, as written in the code.
    pub pix_key: String,
    /// Field 59 as written (normalised).
    pub merchant_name: String,
    /// Field 60 as written (normalised).
    pub merchant_city: String,
    /// Field 54 in centavos; `None` lets the payer type the amount.
    pub amount_centavos: Option<u64>,
    /// Field 26-02 as written, shown to the payer.
    pub description: Option<String>,
    /// Field 62-05 as written (`***` when none).
    pub txid: String,
    /// The whole BR Code ("Pix Copia e Cola").
    pub payload: String,
    /// When it was made, RFC 3339.
    pub created_at: String,
}

/// A visitor's code got its private management link (schema version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QrCodeManagementLinkIssued {
    /// The code's id.
    pub qrcode_id: String,
    /// Hex SHA-256 of the link's token; the token itself is never stored.
    pub token_digest: String,
    /// When, RFC 3339.
    pub at: String,
}

/// A visitor's code was claimed by an account (schema version 1): from here on it is that
/// account's code, made by `claimed_by`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QrCodeClaimed {
    /// The code's id.
    pub qrcode_id: String,
    /// The account that owns it now.
    pub owner_id: String,
    /// The person who claimed it (their own account id).
    pub claimed_by: String,
    /// When, RFC 3339.
    pub at: String,
}

impl DomainEvent for QrCodeEvent {
    fn event_type(&self) -> String {
        match self {
            QrCodeEvent::QrCodeCreated(_) => "QrCodeCreated".to_owned(),
            QrCodeEvent::QrCodeManagementLinkIssued(_) => "QrCodeManagementLinkIssued".to_owned(),
            QrCodeEvent::QrCodeClaimed(_) => "QrCodeClaimed".to_owned(),
        }
    }

    fn event_version(&self) -> String {
        match self {
            QrCodeEvent::QrCodeCreated(_) => "1".to_owned(),
            QrCodeEvent::QrCodeManagementLinkIssued(_) | QrCodeEvent::QrCodeClaimed(_) => {
                "1".to_owned()
            }
        }
    }
}
