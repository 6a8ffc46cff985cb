//! The rules, in one place. Each finding is either *fatal* (the lenient parser refuses the code:
//! real payer apps cannot pay it), *strict* (a BCB rule is broken, but payer apps are known to
//! accept it) or a warning (an interoperability risk that breaks no rule).
//!
//! The split follows the shared test vectors: a vector is `valid` exactly when there is no fatal
//! and no strict finding.

use super::crc::{crc16, hex4};
use super::error::{BrCodeError, Field, Warning};
use super::fields::{BrCode, PIX_GUI};
use super::tlv::DataObject;
use crate::pix_key::PixKey;

/// The most characters API Pix allows in a Copia e Cola string.
///
/// ```
/// assert_eq!(domain::brcode::MAX_PAYLOAD_LEN, 512);
/// ```
pub const MAX_PAYLOAD_LEN: usize = 512;
/// The most characters of a key (26-01) or location (26-25).
///
/// ```
/// assert_eq!(domain::brcode::MAX_KEY_OR_URL_LEN, 77);
/// ```
pub const MAX_KEY_OR_URL_LEN: usize = 77;

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Severity {
    /// The lenient parser refuses the code.
    Fatal,
    /// Only the strict validator refuses it.
    Strict,
}

/// Everything found about one payload.
#[derive(Debug, Default)]
pub(crate) struct Findings {
    pub(crate) errors: Vec<(Severity, BrCodeError)>,
    pub(crate) warnings: Vec<Warning>,
}

impl Findings {
    fn fatal(&mut self, e: BrCodeError) {
        self.errors.push((Severity::Fatal, e));
    }

    fn strict(&mut self, e: BrCodeError) {
        self.errors.push((Severity::Strict, e));
    }

    fn warn(&mut self, w: Warning) {
        self.warnings.push(w);
    }
}

/// The state of field 63, read from the last 8 characters alone (so it can be judged even
/// when the TLV structure is broken).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CrcState {
    /// The payload does not end with `6304` + 4 hex digits.
    Missing,
    /// The CRC does not match.
    Mismatch { given: String, computed: String },
    /// The CRC matches; `lowercase` when written with lower-case hex.
    Valid { lowercase: bool },
}

/// Reads the CRC state of a trimmed payload.
pub(crate) fn crc_state(payload: &str) -> CrcState {
    let Some((start, _)) = payload.char_indices().rev().nth(7) else {
        return CrcState::Missing;
    };
    let tail = &payload.as_bytes()[start..];
    if tail.len() != 8 || &tail[..4] != b"6304" || !tail[4..].iter().all(u8::is_ascii_hexdigit) {
        return CrcState::Missing;
    }
    let computed = hex4(crc16(&payload.as_bytes()[..payload.len() - 4]));
    let given = &tail[4..];
    if given.eq_ignore_ascii_case(&computed) {
        CrcState::Valid {
            lowercase: given != computed,
        }
    } else {
        CrcState::Mismatch {
            given: String::from_utf8_lossy(given).into_owned(),
            computed: String::from_utf8_lossy(&computed).into_owned(),
        }
    }
}

/// Adds the CRC finding for a payload.
pub(crate) fn check_crc(state: &CrcState, findings: &mut Findings) {
    match state {
        CrcState::Missing => findings.fatal(BrCodeError::CrcMissing),
        CrcState::Mismatch { given, computed } => findings.fatal(BrCodeError::CrcMismatch {
            given: given.clone(),
            computed: computed.clone(),
        }),
        CrcState::Valid { lowercase: true } => findings.warn(Warning::CrcLowercase),
        CrcState::Valid { lowercase: false } => {}
    }
}

/// Applies every rule to a decoded code (the CRC is checked separately by [`check_crc`]).
pub(crate) fn examine(payload: &str, code: &BrCode, crc: &CrcState, findings: &mut Findings) {
    let len = payload.chars().count();
    if len > MAX_PAYLOAD_LEN {
        findings.strict(BrCodeError::PayloadTooLong { len });
    }
    if crc != &CrcState::Missing && code.objects.last().is_none_or(|o| o.id != 63) {
        findings.fatal(BrCodeError::CrcMissing);
    }
    for object in &code.objects {
        if (65..=79).contains(&object.id) {
            findings.warn(Warning::ReservedId {
                id: format!("{:02}", object.id),
            });
        }
    }
    check_empty_values(code, findings);
    check_header(code, findings);
    check_account(code, findings);
    check_fixed_fields(code, findings);
    check_texts(code, findings);
    check_amount(code, findings);
    check_txid(code, findings);
}

/// EMV forbids `LEN = 00`; name every empty object, nested ones by their path.
fn check_empty_values(code: &BrCode, findings: &mut Findings) {
    let mut report = |path: String| findings.strict(BrCodeError::EmptyValue { id: path });
    for object in &code.objects {
        if object.is_empty() {
            report(format!("{:02}", object.id));
        }
    }
    let nested: [(u8, &[DataObject]); 3] = [
        (
            code.merchant_account.as_ref().map_or(0, |a| a.id),
            code.merchant_account
                .as_ref()
                .map_or(&[][..], |a| &a.children[..]),
        ),
        (
            62,
            code.additional_data
                .as_ref()
                .map_or(&[][..], |d| &d.other[..]),
        ),
        (
            code.recurrence.as_ref().map_or(0, |r| r.id),
            code.recurrence.as_ref().map_or(&[][..], |r| &r.other[..]),
        ),
    ];
    for (parent, children) in nested {
        for child in children.iter().filter(|c| c.is_empty()) {
            report(format!("{parent:02}-{:02}", child.id));
        }
    }
    if code.txid() == Some("") {
        report("62-05".to_owned());
    }
}

fn check_header(code: &BrCode, findings: &mut Findings) {
    let first = code.objects.first();
    if !first.is_some_and(|o| o.id == 0 && o.value == "01") {
        findings.fatal(BrCodeError::PayloadFormatIndicatorInvalid {
            found: code.payload_format_indicator.clone(),
        });
    }
    if let Some(poi) = &code.point_of_initiation_method
        && poi != "11"
        && poi != "12"
    {
        findings.strict(BrCodeError::PointOfInitiationInvalid { found: poi.clone() });
    }
}

fn check_account(code: &BrCode, findings: &mut Findings) {
    let Some(account) = &code.merchant_account else {
        findings.fatal(BrCodeError::PixAccountMissing);
        return;
    };
    if account.gui != PIX_GUI {
        findings.warn(Warning::GuiNotLowercase {
            found: account.gui.clone(),
        });
    }
    match (&account.key, &account.url) {
        (Some(_), Some(_)) => findings.fatal(BrCodeError::PixAccountWithKeyAndUrl),
        (None, None) if code.recurrence_url().is_none() => {
            findings.fatal(BrCodeError::PixAccountWithoutKeyOrUrl);
        }
        _ => {}
    }
    if let Some(key) = &account.key {
        let len = key.chars().count();
        if len > MAX_KEY_OR_URL_LEN {
            findings.strict(BrCodeError::KeyTooLong { len });
        }
        if !key.is_empty() && PixKey::canonical_kind(key).is_none() {
            findings.warn(Warning::KeyNotCanonical { found: key.clone() });
        }
    }
    let urls = [account.url.as_deref(), code.recurrence_url()];
    for url in urls.into_iter().flatten() {
        check_url(url, findings);
    }
    if let Some(fss) = &account.fss
        && !(fss.len() == 8
            && fss
                .bytes()
                .all(|b| b.is_ascii_digit() || b.is_ascii_uppercase()))
    {
        findings.strict(BrCodeError::FssInvalid { found: fss.clone() });
    }
}

fn check_url(url: &str, findings: &mut Findings) {
    let len = url.chars().count();
    if len > MAX_KEY_OR_URL_LEN {
        findings.strict(BrCodeError::UrlTooLong { len });
    }
    if let Some(at) = url.find("://") {
        findings.strict(BrCodeError::UrlHasScheme {
            scheme: url[..at + 3].to_owned(),
        });
    }
}

fn check_fixed_fields(code: &BrCode, findings: &mut Findings) {
    match &code.merchant_category_code {
        None => findings.fatal(BrCodeError::MerchantCategoryCodeInvalid { found: None }),
        Some(mcc) if !(mcc.len() == 4 && mcc.bytes().all(|b| b.is_ascii_digit())) => {
            findings.strict(BrCodeError::MerchantCategoryCodeInvalid {
                found: Some(mcc.clone()),
            });
        }
        Some(_) => {}
    }
    if code.transaction_currency.as_deref() != Some("986") {
        findings.fatal(BrCodeError::CurrencyInvalid {
            found: code.transaction_currency.clone(),
        });
    }
    match &code.country_code {
        None => findings.fatal(BrCodeError::CountryInvalid { found: None }),
        Some(country) if country != "BR" => findings.strict(BrCodeError::CountryInvalid {
            found: Some(country.clone()),
        }),
        Some(_) => {}
    }
}

fn check_texts(code: &BrCode, findings: &mut Findings) {
    match &code.merchant_name {
        None => findings.fatal(BrCodeError::MerchantNameMissing),
        Some(name) => {
            let len = name.chars().count();
            if len > 25 {
                findings.strict(BrCodeError::MerchantNameTooLong { len });
            }
        }
    }
    match &code.merchant_city {
        None => findings.fatal(BrCodeError::MerchantCityMissing),
        Some(city) => {
            let len = city.chars().count();
            if len > 15 {
                findings.strict(BrCodeError::MerchantCityTooLong { len });
            }
        }
    }
    let info = code
        .merchant_account
        .as_ref()
        .and_then(|a| a.additional_info.clone());
    let texts = [
        (Field::MerchantName, code.merchant_name.clone()),
        (Field::MerchantCity, code.merchant_city.clone()),
        (Field::AdditionalInfo, info),
    ];
    for (field, value) in texts {
        if let Some(value) = value.filter(|v| !v.is_ascii()) {
            findings.warn(Warning::NonAsciiText { field, value });
        }
    }
}

fn check_amount(code: &BrCode, findings: &mut Findings) {
    let Some(amount) = &code.transaction_amount else {
        return;
    };
    let dynamic = code.kind().is_some_and(|k| k.is_dynamic());
    if dynamic {
        findings.warn(Warning::AmountInDynamicCode);
    }
    if amount.is_empty() {
        return; // already reported as an empty value
    }
    let (integer, fraction) = amount.split_once('.').unwrap_or((amount, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if integer.is_empty() || !digits(integer) || !digits(fraction) || fraction.len() > 2 {
        findings.strict(BrCodeError::AmountInvalidFormat {
            found: amount.clone(),
        });
        return;
    }
    let len = amount.chars().count();
    if len > 13 {
        findings.strict(BrCodeError::AmountTooLong { len });
    }
    if fraction.len() != 2 {
        findings.warn(Warning::AmountNotCanonical {
            found: amount.clone(),
        });
    }
    let zero = amount.bytes().all(|b| b == b'0' || b == b'.');
    let saque = code
        .merchant_account
        .as_ref()
        .is_some_and(|a| a.fss.is_some());
    // Pix Saque/Troco codes may carry 0.00, and in dynamic codes the manual gives "0" the
    // meaning "take the amount from the charge".
    if zero && !saque && !dynamic {
        findings.strict(BrCodeError::AmountZero);
    }
}

fn check_txid(code: &BrCode, findings: &mut Findings) {
    let Some(txid) = code.txid() else {
        findings.fatal(BrCodeError::TxidMissing);
        return;
    };
    if txid != "***" {
        if let Some(ch) = txid.chars().find(|c| !c.is_ascii_alphanumeric()) {
            findings.strict(BrCodeError::TxidInvalidCharacter { ch });
        }
        let len = txid.chars().count();
        if len > 25 {
            findings.strict(BrCodeError::TxidTooLong { len });
        }
        if code.kind().is_some_and(|k| k.is_dynamic()) {
            findings.strict(BrCodeError::DynamicTxidNotStars {
                found: txid.to_owned(),
            });
        }
    }
}
