//! The API Pix intake: one delivery (`{"pix": […]}`, the bank's webhook callback or the
//! sandbox's) parsed, bounded, checked against the receiver's key, sealed, matched and appended.
//!
//! 1. **Parse** the body whole against the spec ([`parse_delivery`]): any problem refuses all of
//!    it ([`IntakeError::Malformed`]).
//! 2. **Bound** it: at most [`MAX_ENTRIES`] entries ([`IntakeError::TooManyEntries`]), so one
//!    request's database work stays bounded.
//! 3. **Check the key**: every `chave` must be the receiver's ([`IntakeError::ForeignKey`]).
//! 4. **Seal** the payer's name, document and text with the account's key (`vault`).
//! 5. **Match and append** in one transaction ([`record_reports`]): each `txid` is matched to
//!    the code whose claim of it is committed in `unique_claims`, read in the append's own
//!    transaction, never from the `qrcodes` read model.
//!
//! Nothing is written unless every step passes. What is HTTP (the token, the body's size in
//! bytes, the HMAC, the answers) stays in the gateway.

use domain::payment::api_pix::{PixEntry, Problem, parse_delivery};
use domain::payment::{PaymentError, PaymentSource, ReportPayment};

use super::{Recorded, record_reports};
use crate::error::CommandError;
use crate::metadata::CommandMetadata;
use crate::store::PgEventStore;
use crate::vault::{VaultError, load_key};

/// The most entries one delivery may carry.
///
/// The smallest entry the spec allows (`endToEndId`, `valor` and `horario` only) is 98 bytes
/// with its comma, so a body within the receiver's default limit of 1 MiB
/// (`BALCAO_API_PIX_MAX_BODY_BYTES`) holds at most 10,699 entries and is never refused for its
/// count; a larger byte limit does not raise this one. The spec pages its lists (`paginacao`,
/// 100 items per page in its examples) and a bank notifies a key's Pix as they settle, so real
/// deliveries are far smaller.
pub const MAX_ENTRIES: usize = 11_000;

/// Where a delivery goes and how it came.
#[derive(Debug, Clone)]
pub struct Delivery {
    /// The receiving account (its id).
    pub account_id: String,
    /// The receiver's key, in DICT form: every entry's `chave` must be it.
    pub pix_key: String,
    /// [`PaymentSource::ApiPix`] or [`PaymentSource::Sandbox`].
    pub source: PaymentSource,
    /// When it arrived, RFC 3339.
    pub received_at: String,
}

/// A delivery recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Accepted {
    /// Its entries.
    pub entries: usize,
    /// What was appended (nothing new for a repeated delivery).
    pub recorded: Recorded,
}

/// Why a delivery was not recorded; in every case nothing was written.
#[derive(Debug, thiserror::Error)]
pub enum IntakeError {
    /// The body breaks the spec; every problem, with its path (the gateway's 400).
    #[error("the delivery breaks the API Pix schema")]
    Malformed(Vec<Problem>),
    /// More than [`MAX_ENTRIES`] entries (the gateway's 413).
    #[error("the delivery has {entries} entries, more than {MAX_ENTRIES}")]
    TooManyEntries {
        /// How many it had.
        entries: usize,
    },
    /// An entry is for a key that is not the receiver's (the gateway's 422).
    #[error("the delivery names another key")]
    ForeignKey(Vec<Problem>),
    /// The account's key could not be read (the gateway's 503).
    #[error(transparent)]
    Vault(#[from] VaultError),
    /// Matching or appending failed (the gateway's 503).
    #[error(transparent)]
    Record(#[from] CommandError<PaymentError>),
}

/// Whether the `chave` an entry names is the receiver's key (e-mail keys compare without case).
pub fn same_key(sent: &str, registered: &str) -> bool {
    sent == registered || (registered.contains('@') && sent.eq_ignore_ascii_case(registered))
}

/// Every entry whose `chave` is not `pix_key`, as a problem.
fn foreign_keys(entries: &[PixEntry], pix_key: &str) -> Vec<Problem> {
    entries
        .iter()
        .enumerate()
        .filter(|(_, e)| e.chave.as_deref().is_some_and(|c| !same_key(c, pix_key)))
        .map(|(i, _)| Problem {
            path: format!("pix[{i}].chave"),
            message: "Esta chave não é a chave cadastrada para este endereço.".to_owned(),
        })
        .collect()
}

/// Parses, bounds, checks, seals, matches and appends `body` (see the module).
///
/// # Errors
///
/// As [`IntakeError`]; in every case nothing was written.
pub async fn intake(
    store: &PgEventStore,
    delivery: &Delivery,
    body: &[u8],
    metadata: &CommandMetadata,
) -> Result<Accepted, IntakeError> {
    // The domain reads no clock: the bounds on `horario` are around the moment of receipt.
    let entries = parse_delivery(body, chrono::Utc::now()).map_err(IntakeError::Malformed)?;
    if entries.len() > MAX_ENTRIES {
        return Err(IntakeError::TooManyEntries {
            entries: entries.len(),
        });
    }
    let foreign = foreign_keys(&entries, &delivery.pix_key);
    if !foreign.is_empty() {
        return Err(IntakeError::ForeignKey(foreign));
    }
    let key = load_key(store.pool(), &delivery.account_id).await?;
    let seal = |plain: Option<String>| key.as_ref().zip(plain).map(|(k, p)| k.seal(&p));
    let count = entries.len();
    let reports: Vec<ReportPayment> = entries
        .into_iter()
        .map(|entry| ReportPayment {
            account_id: delivery.account_id.clone(),
            end_to_end_id: entry.end_to_end_id,
            amount: entry.amount,
            paid_at: entry.paid_at,
            txid: entry.txid,
            // Matched by `record_reports`, in the append's transaction.
            qrcode_id: None,
            payment_link_id: None,
            pix_key: Some(entry.chave.unwrap_or_else(|| delivery.pix_key.clone())),
            source: delivery.source,
            payer_name: seal(entry.payer_name),
            payer_document: seal(entry.payer_document),
            payer_info: seal(entry.payer_info),
            refunds: entry.refunds,
            received_at: delivery.received_at.clone(),
        })
        .collect();
    let recorded = record_reports(store, &reports, metadata).await?;
    Ok(Accepted {
        entries: count,
        recorded,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_email_key_matches_whatever_its_case_and_others_match_exactly() {
        assert!(same_key("Loja@Example.com", "loja@example.com"));
        assert!(same_key("+5511999998888", "+5511999998888"));
        assert!(!same_key("+5511999998887", "+5511999998888"));
    }

    #[test]
    fn the_smallest_valid_entry_is_98_bytes_so_a_mebibyte_holds_fewer_than_the_bound() {
        let entry = r#"{"endToEndId":"E87654321202009091221dfghi123456","valor":"0.01","horario":"2026-09-09T20:15:00Z"}"#;
        let body = format!(r#"{{"pix":[{entry}]}}"#);
        assert!(
            parse_delivery(body.as_bytes(), chrono::Utc::now()).is_ok(),
            "{body}"
        );
        assert_eq!(entry.len() + 1, 98);
        let most = (1024 * 1024 - r#"{"pix":[]}"#.len() + 1) / (entry.len() + 1);
        assert_eq!(most, 10_699);
        assert!(most <= MAX_ENTRIES);
    }
}
