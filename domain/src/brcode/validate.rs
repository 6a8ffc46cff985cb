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
use crate::pix_key::{PixKey, WrittenKey};

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
    check_alphabet(code, findings);
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
        if !key.is_empty() {
            check_key(key, findings);
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

/// The manual asks for "uma chave válida no DICT" and says a code with an invalid key is one no
/// reader can process: a key no DICT kind can hold is fatal. Near misses are only warned about,
/// because real codes carry them and some banks pay them.
fn check_key(key: &str, findings: &mut Findings) {
    match PixKey::read_written(key) {
        WrittenKey::Canonical(_) => {}
        WrittenKey::NearMiss(dict_form) => findings.warn(Warning::KeyNotCanonical {
            found: key.to_owned(),
            dict_form: dict_form.map(|k| k.as_str().to_owned()),
        }),
        WrittenKey::Unfit { ch } => findings.fatal(BrCodeError::KeyInvalid {
            found: key.to_owned(),
            ch,
        }),
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
                findings.strict(BrCodeError::MerchantCityTooLong {
                    len,
                    suggestion: super::normalise::suggest_city_abbreviation(city),
                });
            }
        }
    }
}

/// True for the characters every field but template 64 may hold: printable ASCII, the EMV
/// "ans" format (the BR Code manual's own set is narrower; the Pix manual's examples use
/// lower case, `@` and `_`, all printable ASCII).
pub(crate) fn in_alphabet(ch: char) -> bool {
    matches!(ch, ' '..='~')
}

/// Fields whose own rule already names a character outside its alphabet: 00, 01, 52, 53, 54,
/// 58 and 63 at the top, the key and the fss in the Pix template, the txid in 62.
fn has_own_alphabet_rule(code: &BrCode, parent: Option<u8>, id: u8) -> bool {
    let pix = code.merchant_account.as_ref().map(|a| a.id);
    match parent {
        None => matches!(id, 0 | 1 | 52 | 53 | 54 | 58 | 63),
        Some(62) => id == 5,
        Some(parent) => Some(parent) == pix && matches!(id, 1 | 3),
    }
}

/// The [`Field`] a path names, for the error's `field()`.
pub(crate) fn field_of_path(parent: Option<u8>, id: u8, pix: Option<u8>, rec: Option<u8>) -> Field {
    match (parent, id) {
        (None, 59) => Field::MerchantName,
        (None, 60) => Field::MerchantCity,
        (None, 61) => Field::PostalCode,
        (Some(62), 5) => Field::Txid,
        (Some(p), 1) if Some(p) == pix => Field::PixKey,
        (Some(p), 2) if Some(p) == pix => Field::AdditionalInfo,
        (Some(p), 3) if Some(p) == pix => Field::Fss,
        (Some(p), 25) if Some(p) == pix => Field::Url,
        (Some(p), _) if Some(p) == pix => Field::MerchantAccount,
        (Some(p), _) if Some(p) == rec => Field::Recurrence,
        _ => Field::Payload,
    }
}

/// The [`Field`] of a path found in a code whose structure is broken (so which template is
/// the Pix one is unknown): 26 is, in every real code.
pub(crate) fn field_of_guessed_path(path: &str) -> Field {
    let id = |s: &str| s.parse::<u8>().ok();
    match path.split_once('-') {
        Some((parent, child)) => match (id(parent), id(child)) {
            (Some(parent), Some(child)) => field_of_path(Some(parent), child, Some(26), None),
            _ => Field::Payload,
        },
        None => id(path).map_or(Field::Payload, |id| field_of_path(None, id, Some(26), None)),
    }
}

/// Any character outside printable ASCII, in any field but template 64, is an error naming the
/// field (one per field: the first such character). Strict, not fatal: payer apps differ (some
/// pay an accented city, others refuse the code), so the lenient parser warns.
fn check_alphabet(code: &BrCode, findings: &mut Findings) {
    let pix = code.merchant_account.as_ref().map(|a| a.id);
    let rec = code.recurrence.as_ref().map(|r| r.id);
    let mut report = |parent: Option<u8>, object: &DataObject, value_at: usize| {
        if has_own_alphabet_rule(code, parent, object.id) {
            return;
        }
        let Some((i, ch)) = object
            .value
            .chars()
            .enumerate()
            .find(|(_, c)| !in_alphabet(*c))
        else {
            return;
        };
        let path = match parent {
            None => format!("{:02}", object.id),
            Some(p) => format!("{p:02}-{:02}", object.id),
        };
        findings.strict(BrCodeError::CharacterOutsideAlphabet {
            path: Some(path),
            field: field_of_path(parent, object.id, pix, rec),
            ch,
            at: value_at + i,
        });
    };
    let mut offset = 0;
    for object in &code.objects {
        let value_at = offset + 4;
        offset = value_at + object.len();
        if object.id == 64 || object.value.chars().all(in_alphabet) {
            continue;
        }
        let template = matches!(object.id, 26..=51 | 62 | 80..=99);
        match template.then(|| object.children().ok()).flatten() {
            Some(children) => {
                let mut child_offset = value_at;
                for child in &children {
                    let child_value_at = child_offset + 4;
                    child_offset = child_value_at + child.len();
                    report(Some(object.id), child, child_value_at);
                }
            }
            None => report(None, object, value_at),
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
