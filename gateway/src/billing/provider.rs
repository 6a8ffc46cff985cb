//! The billing provider port: what the subscription flow asks of whoever takes the Pix.
//!
//! Two providers implement it: the built-in [`super::sandbox`] (the default without an Asaas
//! key; payments are simulated on the checkout page) and [`super::asaas`] (Asaas API v3). Both
//! answer a charge whose Pix payload is checked by the BR Code engine before anyone sees it
//! ([`checked_payload`]).

use chrono::{DateTime, Utc};
use domain::money::Centavos;

/// Who pays: what a provider needs to open a charge in their name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Payer {
    /// The name on the charge.
    pub name: String,
    /// CPF (11 digits) or CNPJ (14 digits), digits only.
    pub document: String,
    /// Where the provider may send the receipt.
    pub email: Option<String>,
}

/// A charge to open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChargeRequest {
    /// Our charge id (the provider's external reference is `{account}:{charge}`).
    pub charge_id: String,
    /// The account paying.
    pub account_id: String,
    /// The amount.
    pub amount: Centavos,
    /// What the payer's bank shows.
    pub description: String,
    /// The last day to pay, São Paulo date.
    pub due_date: chrono::NaiveDate,
    /// Who pays (a first charge); a renewal names the provider's customer instead.
    pub payer: Option<Payer>,
    /// The provider's customer already known (a renewal).
    pub customer: Option<String>,
}

/// A charge the provider opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenedCharge {
    /// The provider's id (Asaas `pay_…`, sandbox `sbx_…`).
    pub provider_payment_id: String,
    /// The Pix copy-and-paste code, checked by the engine.
    pub pix_payload: String,
    /// When the Pix stops being payable.
    pub expires_at: DateTime<Utc>,
    /// The provider's customer charged (Asaas `cus_…`), kept for renewals.
    pub customer: Option<String>,
}

/// What became of a charge the provider was asked to delete.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Withdrawal {
    /// Deleted (or already gone): nobody can pay it any more.
    Deleted,
    /// Too late: it was paid first. The money is honoured (the period it paid for).
    AlreadyPaid {
        /// What was paid.
        amount: Centavos,
        /// When.
        paid_at: DateTime<Utc>,
    },
}

/// Why a provider could not open (or delete) a charge.
#[derive(Debug, thiserror::Error)]
pub enum ProviderError {
    /// The provider refused what we sent (its own message, for the log and the person).
    #[error("o provedor recusou a cobrança: {0}")]
    Refused(String),
    /// The provider did not answer well in time, after the retries.
    #[error("o provedor de pagamentos não respondeu: {0}")]
    Unavailable(String),
    /// The provider answered a Pix code the engine refuses: it is never shown.
    #[error("o provedor devolveu um código Pix inválido: {0}")]
    BadPixCode(String),
}

/// The payload when the engine accepts it as a valid BR Code.
///
/// # Errors
///
/// [`ProviderError::BadPixCode`] naming what the engine found.
pub fn checked_payload(payload: &str) -> Result<String, ProviderError> {
    let payload = payload.trim();
    domain::brcode::validate_strict(payload)
        .map(|_| payload.to_owned())
        .map_err(|errors| {
            ProviderError::BadPixCode(
                errors
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(" "),
            )
        })
}
