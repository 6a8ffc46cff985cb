//! The API Pix receiver's pipeline, shared by the bank's webhook and the sandbox.

use std::collections::HashMap;

use commands::CommandMetadata;
use commands::payments::{Recorded, record_reports};
use commands::vault::load_key;
use domain::payment::api_pix::{Problem, parse_delivery};
use domain::payment::{PaymentSource, ReportPayment};
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::state::AppState;

/// Where a delivery goes: the account, and the key its receiver was turned on for.
#[derive(Debug, Clone)]
pub struct Target {
    /// The receiving account.
    pub account_id: Uuid,
    /// The key, in DICT form; every entry's `chave` must be it.
    pub pix_key: String,
    /// Who reports, for the events' metadata (`api-pix:{receiverId}`, `sandbox`).
    pub actor: String,
}

/// Why a delivery was not recorded.
#[derive(Debug)]
pub enum Refused {
    /// The body breaks the spec (400); every problem, with its path.
    Malformed(Vec<Problem>),
    /// An entry is for a key that is not the receiver's (422).
    ForeignKey(Vec<Problem>),
    /// PostgreSQL or the event store failed (503/500); nothing was written.
    Failed(anyhow::Error),
}

/// The SHA-256 of a receiver's token: all the database keeps.
pub fn token_digest(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

/// Whether `header` (`sha256=<hex>`) is the HMAC-SHA256 of `body` under `secret`, compared in
/// constant time.
pub fn signature_matches(secret: &[u8], body: &[u8], header: Option<&str>) -> bool {
    let Some(hex) = header.and_then(|h| h.trim().strip_prefix("sha256=")) else {
        return false;
    };
    let Some(expected) = decode_hex(hex) else {
        return false;
    };
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(secret) else {
        return false;
    };
    mac.update(body);
    mac.verify_slice(&expected).is_ok()
}

/// `sha256=<hex>` for `body` under `secret` (what a sender puts in `X-Balcao-Signature`).
pub fn sign(secret: &[u8], body: &[u8]) -> String {
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(secret) else {
        return String::new();
    };
    mac.update(body);
    let bytes = mac.finalize().into_bytes();
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256={hex}")
}

fn decode_hex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

/// Whether the `chave` an entry names is the receiver's key (e-mail keys compare without case).
fn same_key(sent: &str, registered: &str) -> bool {
    sent == registered || (registered.contains('@') && sent.eq_ignore_ascii_case(registered))
}

/// Validates `body` whole, matches and seals it, and records every entry in one transaction.
///
/// # Errors
///
/// As [`Refused`]; in every case nothing was written.
pub async fn receive(
    state: &AppState,
    target: &Target,
    body: &[u8],
    source: PaymentSource,
) -> Result<Recorded, Refused> {
    let entries = parse_delivery(body, chrono::Utc::now()).map_err(Refused::Malformed)?;
    let foreign: Vec<Problem> = entries
        .iter()
        .enumerate()
        .filter(|(_, e)| {
            e.chave
                .as_deref()
                .is_some_and(|c| !same_key(c, &target.pix_key))
        })
        .map(|(i, _)| Problem {
            path: format!("pix[{i}].chave"),
            message: "Esta chave não é a chave cadastrada para este endereço.".to_owned(),
        })
        .collect();
    if !foreign.is_empty() {
        return Err(Refused::ForeignKey(foreign));
    }
    let account = target.account_id.hyphenated().to_string();
    let txids: Vec<String> = entries.iter().filter_map(|e| e.txid.clone()).collect();
    let codes: HashMap<String, Uuid> = if txids.is_empty() {
        HashMap::new()
    } else {
        // The oldest code with a txid wins, should an account ever hold two.
        let rows: Vec<(String, Uuid)> = sqlx::query_as(
            "select txid, qrcode_id from qrcodes
              where owner_id = $1 and txid = any($2::text[])
              order by created_at desc",
        )
        .bind(target.account_id)
        .bind(&txids)
        .fetch_all(&state.pool)
        .await
        .map_err(|e| Refused::Failed(e.into()))?;
        rows.into_iter().collect()
    };
    let key = load_key(&state.pool, &account)
        .await
        .map_err(|e| Refused::Failed(anyhow::Error::new(e)))?;
    let seal = |plain: Option<&String>| match (&key, plain) {
        (Some(key), Some(plain)) => Some(key.seal(plain)),
        _ => None,
    };
    let received_at = crate::auth::accounts::now();
    let reports: Vec<ReportPayment> = entries
        .iter()
        .map(|entry| ReportPayment {
            account_id: account.clone(),
            end_to_end_id: entry.end_to_end_id.clone(),
            amount: entry.amount,
            paid_at: entry.paid_at.clone(),
            txid: entry.txid.clone(),
            qrcode_id: entry
                .txid
                .as_ref()
                .and_then(|t| codes.get(t))
                .map(|id| id.hyphenated().to_string()),
            pix_key: Some(
                entry
                    .chave
                    .clone()
                    .unwrap_or_else(|| target.pix_key.clone()),
            ),
            source,
            payer_name: seal(entry.payer_name.as_ref()),
            payer_document: seal(entry.payer_document.as_ref()),
            payer_info: seal(entry.payer_info.as_ref()),
            refunds: entry.refunds.clone(),
            received_at: received_at.clone(),
        })
        .collect();
    let metadata = CommandMetadata::start().by(target.actor.clone());
    record_reports(state.payments.commands.store(), &reports, &metadata)
        .await
        .map_err(|e| Refused::Failed(anyhow::Error::new(e)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signature_made_with_the_secret_matches_and_any_other_does_not() {
        let body = br#"{"pix":[]}"#;
        let header = sign(b"segredo", body);
        assert!(signature_matches(b"segredo", body, Some(&header)));
        assert!(!signature_matches(b"outro", body, Some(&header)));
        assert!(!signature_matches(b"segredo", b"{}", Some(&header)));
        assert!(!signature_matches(b"segredo", body, None));
        assert!(!signature_matches(b"segredo", body, Some("sha256=zz")));
    }

    #[test]
    fn an_email_key_matches_whatever_its_case_and_others_match_exactly() {
        assert!(same_key("Loja@Example.com", "loja@example.com"));
        assert!(same_key("+5511999998888", "+5511999998888"));
        assert!(!same_key("+5511999998887", "+5511999998888"));
    }
}
