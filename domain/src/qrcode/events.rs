//! What happened to a QR code. Past tense, versioned; never changed in place (add a version and
//! an upcaster instead).

use cqrs_es::DomainEvent;
use serde::{Deserialize, Serialize};

/// Events of the QR-code aggregate. Stored as an object with a `type` field plus the variant's
/// fields, so read models can read the fields directly.
#[allow(
    clippy::large_enum_variant,
    reason = "a creation is the first and usual event; boxing it would change every match for a few bytes"
)]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum QrCodeEvent {
    /// A static Pix QR code was made.
    QrCodeCreated(QrCodeCreated),
    /// The code was archived: its payer page stops offering it.
    QrCodeArchived(QrCodeArchived),
    /// An archived code was brought back.
    QrCodeUnarchived(QrCodeUnarchived),
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
    /// The account's registered key (`pix_keys.key_id`) the code was made from; `None` for a
    /// typed key and for visitors. Added within schema version 1 (absent reads as `None`, and it
    /// is left out when `None`, so codes made without it are stored exactly as before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key_id: Option<String>,
    /// The batch the code was made in (one id shared by every code of one batch command);
    /// `None` for a code made alone. Added within schema version 1, as `key_id`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch_id: Option<String>,
    /// The code this one duplicates (same values, new txid); `None` otherwise. Added within
    /// schema version 1, as `key_id`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duplicate_of: Option<String>,
    /// Made for one sale (its BR Code says `01 = 12`): once a payment of it arrives, its payer
    /// page says "já foi pago" to everyone instead of offering the code. Only a code with an
    /// amount and its own txid can be single-use. Added within schema version 1: absent reads as
    /// `false` (every code made before it is reusable), and it is left out when `false`, so
    /// reusable codes are stored exactly as before.
    #[serde(default, skip_serializing_if = "is_false")]
    pub single_use: bool,
    /// The charge a connected bank made for this code (`cob`), when the code is its dynamic
    /// code; `None` for every code Balcão writes itself. Added within schema version 1 (absent
    /// reads as `None`, left out when `None`). For such a code `txid` is the charge's txid, the
    /// one the bank reports the payment with, while the payload says `***` as every dynamic BR
    /// Code does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bank_charge: Option<BankCharge>,
}

/// A charge the account's bank holds behind a dynamic code: immediate (`cob`) or with a due
/// date (`cobv`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BankCharge {
    /// The location written in the code (26-25), without `https://`.
    pub location: String,
    /// A `cob`'s `calendario.expiracao` as sent, in seconds; `None` for a `cobv`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_in_seconds: Option<u32>,
    /// When the code stops being offered, RFC 3339. A `cob`: `created_at` plus the validity
    /// (Balcão's clock read before the bank was called, so never later than the bank's own
    /// expiry). A `cobv`: the end of its last payable day in Brasília (the due date plus
    /// `validadeAposVencimento` days).
    pub expires_at: String,
    /// A `cobv`'s terms; `None` for a `cob`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub due: Option<DueDateTerms>,
}

/// A due-date charge's terms (`cobv`), each adjustment in the API Pix's own modalities (its
/// domain tables: [`crate::qrcode::charge_terms`]). Values are in hundredths: centavos for a
/// fixed value, hundredths of a percent for a percentage (`200` = 2,00 %).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DueDateTerms {
    /// `calendario.dataDeVencimento`, `YYYY-MM-DD`.
    pub due_date: String,
    /// `calendario.validadeAposVencimento`: days the charge may still be paid after the due date.
    pub days_after_due: u32,
    /// Who owes it (`devedor.nome`), sealed with the account's key.
    pub debtor_name: crate::sealed::Sealed,
    /// Their CPF or CNPJ (`devedor.cpf` / `devedor.cnpj`), sealed.
    pub debtor_document: crate::sealed::Sealed,
    /// `multa`: 1 fixed value, 2 percentage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fine: Option<Adjustment>,
    /// `juros`: 1 value a day, 2 % a day, 3 % a month, 4 % a year, in calendar days; 5–8 the same
    /// in business days.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interest: Option<Adjustment>,
    /// `desconto`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discount: Option<Discount>,
    /// `abatimento`: 1 fixed value, 2 percentage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abatement: Option<Adjustment>,
}

/// A fine, interest or abatement: the spec's modality and its value (`valorPerc`), in hundredths.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Adjustment {
    /// The modality, as the spec's domain table numbers it.
    pub modality: u8,
    /// Centavos, or hundredths of a percent, as the modality says.
    pub value: u64,
}

/// A discount (`desconto`): 1 fixed value and 2 percentage up to the dates given (up to three,
/// `descontoDataFixa`); 3 value and 4 … per day paid early (calendar, business days), 5 and 6 the
/// same as percentages (`valorPerc`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Discount {
    /// The modality, 1 to 6.
    pub modality: u8,
    /// Modalities 1 and 2: each last day and its value.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dates: Vec<DiscountDate>,
    /// Modalities 3 to 6: the value per day paid early.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<u64>,
}

/// A discount up to a date.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiscountDate {
    /// The last day it applies, `YYYY-MM-DD` (at most the due date).
    pub until: String,
    /// Centavos (modality 1) or hundredths of a percent (modality 2).
    pub value: u64,
}

/// Whether `value` is `false`: a flag added within a version is left out of the stored event
/// while it is off.
#[allow(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde passes a reference"
)]
fn is_false(value: &bool) -> bool {
    !*value
}

/// The code was archived (schema version 1): it stays in the account, its txid stays taken,
/// and its payer page says it no longer takes payments.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QrCodeArchived {
    /// The code's id.
    pub qrcode_id: String,
    /// Who archived it (account id).
    pub archived_by: String,
    /// When, RFC 3339.
    pub archived_at: String,
}

/// An archived code was brought back (schema version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QrCodeUnarchived {
    /// The code's id.
    pub qrcode_id: String,
    /// Who brought it back (account id).
    pub unarchived_by: String,
    /// When, RFC 3339.
    pub unarchived_at: String,
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
            QrCodeEvent::QrCodeArchived(_) => "QrCodeArchived".to_owned(),
            QrCodeEvent::QrCodeUnarchived(_) => "QrCodeUnarchived".to_owned(),
            QrCodeEvent::QrCodeManagementLinkIssued(_) => "QrCodeManagementLinkIssued".to_owned(),
            QrCodeEvent::QrCodeClaimed(_) => "QrCodeClaimed".to_owned(),
        }
    }

    fn event_version(&self) -> String {
        match self {
            QrCodeEvent::QrCodeCreated(_)
            | QrCodeEvent::QrCodeArchived(_)
            | QrCodeEvent::QrCodeUnarchived(_)
            | QrCodeEvent::QrCodeManagementLinkIssued(_)
            | QrCodeEvent::QrCodeClaimed(_) => "1".to_owned(),
        }
    }
}
