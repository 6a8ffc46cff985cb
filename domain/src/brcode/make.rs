//! Making BR Codes, always strictly: every value is checked, normalised where the BCB rules and
//! bank apps call for it (and the change reported), and refused with a typed pt-BR error
//! otherwise. Nothing is ever cut to fit. All field errors are reported at once so a form can
//! show one message under each input.
//!
//! ```
//! use domain::brcode::{make_static, StaticCodeRequest};
//! use domain::money::Centavos;
//! use domain::pix_key::PixKey;
//!
//! let request = StaticCodeRequest::new(PixKey::detect("(11) 91234-5678")?, "Padaria São João", "São Paulo")
//!     .with_amount(Centavos::parse_br("12,50")?)
//!     .with_txid("PEDIDO42");
//! let made = make_static(&request).unwrap();
//! assert_eq!(made.merchant_name, "PADARIA SAO JOAO");
//! assert_eq!(made.merchant_city, "SAO PAULO");
//! assert!(made.payload.contains("540512.50"));
//! assert_eq!(made.changes.len(), 2);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use serde::Serialize;

use super::crc::crc_hex;
use super::error::{BrCodeError, Field};
use super::fields::{CodeKind, PIX_GUI};
use super::normalise::{Change, ChangeReason, normalise_city, normalise_info, normalise_name};
use super::tlv::push;
use super::validate::MAX_KEY_OR_URL_LEN;
use crate::money::Centavos;
use crate::pix_key::{PixKey, PixKeyKind};

/// Characters of template 26 taken by the GUI object (`0014br.gov.bcb.pix`).
const GUI_OBJECT_LEN: usize = 18;
/// The EMV ceiling on any value, and so on template 26.
const MAX_TEMPLATE_LEN: usize = 99;
/// The longest written amount EMV allows (`9999999999.99`).
///
/// ```
/// assert_eq!("9999999999.99".len(), domain::brcode::make::MAX_AMOUNT_CHARS);
/// ```
pub const MAX_AMOUNT_CHARS: usize = 13;
/// The longest static txid.
///
/// ```
/// assert_eq!(domain::brcode::make::MAX_TXID_LEN, 25);
/// ```
pub const MAX_TXID_LEN: usize = 25;

/// What a static code (a counter sign, a fixed-price product) needs.
///
/// ```
/// use domain::brcode::StaticCodeRequest;
/// use domain::pix_key::PixKey;
///
/// let request = StaticCodeRequest::new(PixKey::detect("loja@example.com")?, "Loja", "Recife")
///     .with_info("Obrigado!")
///     .single_use();
/// assert!(request.single_use);
/// # Ok::<(), domain::pix_key::PixKeyError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaticCodeRequest {
    /// The receiver's key.
    pub key: PixKey,
    /// The receiver's name as typed (normalised to ≤ 25 upper-case ASCII characters).
    pub merchant_name: String,
    /// The city as typed (normalised to ≤ 15 upper-case ASCII characters).
    pub merchant_city: String,
    /// A fixed amount; `None` lets the payer type it.
    pub amount: Option<Centavos>,
    /// A txid for reconciliation (`[A-Za-z0-9]{1,25}`); `None` writes `***`.
    pub txid: Option<String>,
    /// A message shown to the payer (normalised, case kept).
    pub additional_info: Option<String>,
    /// A CEP (8 digits, punctuation allowed).
    pub postal_code: Option<String>,
    /// Write `010212`: the payer's app should refuse a second payment with this code.
    pub single_use: bool,
}

impl StaticCodeRequest {
    /// A request with the three mandatory values.
    ///
    /// ```
    /// # use domain::{brcode::StaticCodeRequest, pix_key::PixKey};
    /// let r = StaticCodeRequest::new(PixKey::detect("12345678909")?, "Ana", "Natal");
    /// assert!(r.amount.is_none() && r.txid.is_none());
    /// # Ok::<(), domain::pix_key::PixKeyError>(())
    /// ```
    #[must_use]
    pub fn new(
        key: PixKey,
        merchant_name: impl Into<String>,
        merchant_city: impl Into<String>,
    ) -> Self {
        Self {
            key,
            merchant_name: merchant_name.into(),
            merchant_city: merchant_city.into(),
            amount: None,
            txid: None,
            additional_info: None,
            postal_code: None,
            single_use: false,
        }
    }

    /// Sets a fixed amount.
    ///
    /// ```
    /// # use domain::{brcode::StaticCodeRequest, pix_key::PixKey, money::Centavos};
    /// let r = StaticCodeRequest::new(PixKey::detect("12345678909")?, "Ana", "Natal").with_amount(Centavos::new(100));
    /// assert_eq!(r.amount, Some(Centavos::new(100)));
    /// # Ok::<(), domain::pix_key::PixKeyError>(())
    /// ```
    #[must_use]
    pub fn with_amount(mut self, amount: Centavos) -> Self {
        self.amount = Some(amount);
        self
    }

    /// Sets a txid.
    ///
    /// ```
    /// # use domain::{brcode::StaticCodeRequest, pix_key::PixKey};
    /// let r = StaticCodeRequest::new(PixKey::detect("12345678909")?, "Ana", "Natal").with_txid("A1");
    /// assert_eq!(r.txid.as_deref(), Some("A1"));
    /// # Ok::<(), domain::pix_key::PixKeyError>(())
    /// ```
    #[must_use]
    pub fn with_txid(mut self, txid: impl Into<String>) -> Self {
        self.txid = Some(txid.into());
        self
    }

    /// Sets the message for the payer.
    ///
    /// ```
    /// # use domain::{brcode::StaticCodeRequest, pix_key::PixKey};
    /// let r = StaticCodeRequest::new(PixKey::detect("12345678909")?, "Ana", "Natal").with_info("Doação");
    /// assert_eq!(r.additional_info.as_deref(), Some("Doação"));
    /// # Ok::<(), domain::pix_key::PixKeyError>(())
    /// ```
    #[must_use]
    pub fn with_info(mut self, info: impl Into<String>) -> Self {
        self.additional_info = Some(info.into());
        self
    }

    /// Sets the CEP.
    ///
    /// ```
    /// # use domain::{brcode::StaticCodeRequest, pix_key::PixKey};
    /// let r = StaticCodeRequest::new(PixKey::detect("12345678909")?, "Ana", "Natal").with_postal_code("59000-000");
    /// assert!(r.postal_code.is_some());
    /// # Ok::<(), domain::pix_key::PixKeyError>(())
    /// ```
    #[must_use]
    pub fn with_postal_code(mut self, cep: impl Into<String>) -> Self {
        self.postal_code = Some(cep.into());
        self
    }

    /// Marks the code for a single payment (`01 = 12`).
    ///
    /// ```
    /// # use domain::{brcode::StaticCodeRequest, pix_key::PixKey};
    /// let r = StaticCodeRequest::new(PixKey::detect("12345678909")?, "Ana", "Natal").single_use();
    /// assert!(r.single_use);
    /// # Ok::<(), domain::pix_key::PixKeyError>(())
    /// ```
    #[must_use]
    pub fn single_use(mut self) -> Self {
        self.single_use = true;
        self
    }
}

/// What a dynamic code needs: the location a PSP created for a charge (`POST /loc`).
///
/// ```
/// use domain::brcode::{make_dynamic, DynamicCodeRequest};
///
/// let request = DynamicCodeRequest::new("https://pix.example.com/qr/v2/9d36b84f", "Loja", "Recife");
/// let made = make_dynamic(&request).unwrap();
/// assert_eq!(made.url.as_deref(), Some("pix.example.com/qr/v2/9d36b84f"));
/// assert!(made.payload.starts_with("000201010212"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DynamicCodeRequest {
    /// The location; a leading `https://` is removed (and reported).
    pub url: String,
    /// The receiver's name as typed.
    pub merchant_name: String,
    /// The city as typed.
    pub merchant_city: String,
    /// A CEP.
    pub postal_code: Option<String>,
}

impl DynamicCodeRequest {
    /// A request with the mandatory values.
    ///
    /// ```
    /// let r = domain::brcode::DynamicCodeRequest::new("pix.example.com/x", "Ana", "Natal");
    /// assert!(r.postal_code.is_none());
    /// ```
    #[must_use]
    pub fn new(
        url: impl Into<String>,
        merchant_name: impl Into<String>,
        merchant_city: impl Into<String>,
    ) -> Self {
        Self {
            url: url.into(),
            merchant_name: merchant_name.into(),
            merchant_city: merchant_city.into(),
            postal_code: None,
        }
    }
}

/// A finished code: the payload, every value as written into it, and the changes to report.
///
/// ```
/// use domain::brcode::{make_static, StaticCodeRequest};
/// use domain::pix_key::PixKey;
///
/// let made = make_static(&StaticCodeRequest::new(PixKey::detect("123e4567-e12b-12d1-a456-426655440000")?, "Fulano de Tal", "BRASILIA")).unwrap();
/// assert_eq!(made.txid, "***");
/// assert_eq!(made.payload.len(), 137);
/// # Ok::<(), domain::pix_key::PixKeyError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Made {
    /// The BR Code (Pix Copia e Cola string), ASCII only.
    pub payload: String,
    /// Static or dynamic.
    #[serde(serialize_with = "kind_as_str")]
    pub kind: CodeKind,
    /// The key written in 26-01 (static codes).
    pub key: Option<PixKey>,
    /// The location written in 26-25 (dynamic codes).
    pub url: Option<String>,
    /// Field 59 as written.
    pub merchant_name: String,
    /// Field 60 as written.
    pub merchant_city: String,
    /// Field 26-02 as written.
    pub additional_info: Option<String>,
    /// Field 54.
    pub amount: Option<Centavos>,
    /// Field 62-05 as written (`***` when none).
    pub txid: String,
    /// Field 61 as written.
    pub postal_code: Option<String>,
    /// Every value written differently from how it was typed, with pt-BR descriptions.
    pub changes: Vec<Change>,
}

fn kind_as_str<S: serde::Serializer>(kind: &CodeKind, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(kind.as_str())
}

/// The most characters of message (26-02) that fit next to `key` in the 99-character Pix
/// template: `99 − 18 (GUI) − 4 − len(key) − 4`, i.e. `73 − len(key)`; 0 when none fits.
///
/// ```
/// use domain::brcode::make::max_additional_info_len;
/// use domain::pix_key::PixKey;
///
/// assert_eq!(max_additional_info_len(&PixKey::detect("123e4567-e12b-12d1-a456-426655440000")?), 37);
/// assert_eq!(max_additional_info_len(&PixKey::detect("12345678909")?), 62);
/// # Ok::<(), domain::pix_key::PixKeyError>(())
/// ```
#[must_use]
pub fn max_additional_info_len(key: &PixKey) -> usize {
    (MAX_TEMPLATE_LEN - GUI_OBJECT_LEN - 4 - 4).saturating_sub(key.as_str().len())
}

/// Checks a txid for a static code. Blank input and `***` mean "no txid".
///
/// # Errors
/// [`BrCodeError::TxidInvalidCharacter`] (only `A-Z a-z 0-9`; no `-`, `_`, spaces or accents)
/// or [`BrCodeError::TxidTooLong`]. Nothing is removed or cut: a txid must come back intact.
///
/// ```
/// use domain::brcode::{make::check_txid, BrCodeError};
///
/// assert_eq!(check_txid(" PEDIDO42 ")?, Some("PEDIDO42".to_owned()));
/// assert_eq!(check_txid("")?, None);
/// assert_eq!(check_txid("pedido-42"), Err(BrCodeError::TxidInvalidCharacter { ch: '-' }));
/// # Ok::<(), BrCodeError>(())
/// ```
pub fn check_txid(input: &str) -> Result<Option<String>, BrCodeError> {
    let txid = input.trim();
    if txid.is_empty() || txid == "***" {
        return Ok(None);
    }
    if let Some(ch) = txid.chars().find(|c| !c.is_ascii_alphanumeric()) {
        return Err(BrCodeError::TxidInvalidCharacter { ch });
    }
    if txid.len() > MAX_TXID_LEN {
        return Err(BrCodeError::TxidTooLong { len: txid.len() });
    }
    Ok(Some(txid.to_owned()))
}

/// Checks an amount for field 54 and writes it as `N.NN`.
///
/// # Errors
/// [`BrCodeError::AmountZero`] (leave the amount out instead) or [`BrCodeError::AmountTooLong`]
/// over 13 characters (R$ 9.999.999.999,99).
///
/// ```
/// use domain::brcode::{make::check_amount, BrCodeError};
/// use domain::money::Centavos;
///
/// assert_eq!(check_amount(Centavos::new(198))?, "1.98");
/// assert_eq!(check_amount(Centavos::ZERO), Err(BrCodeError::AmountZero));
/// assert_eq!(check_amount(Centavos::new(1_000_000_000_000)), Err(BrCodeError::AmountTooLong { len: 14 }));
/// # Ok::<(), BrCodeError>(())
/// ```
pub fn check_amount(amount: Centavos) -> Result<String, BrCodeError> {
    if amount.is_zero() {
        return Err(BrCodeError::AmountZero);
    }
    let written = amount.to_emv();
    if written.len() > MAX_AMOUNT_CHARS {
        return Err(BrCodeError::AmountTooLong { len: written.len() });
    }
    Ok(written)
}

/// Checks a CEP and writes it with digits only. Blank input means "no CEP".
///
/// # Errors
/// [`BrCodeError::PostalCodeInvalid`] unless it is 8 digits (with optional `-`, `.`, spaces).
///
/// ```
/// use domain::brcode::make::check_postal_code;
///
/// let (cep, change) = check_postal_code("01310-100")?.unwrap();
/// assert_eq!(cep, "01310100");
/// assert!(change.is_some());
/// # Ok::<(), domain::brcode::BrCodeError>(())
/// ```
pub fn check_postal_code(input: &str) -> Result<Option<(String, Option<Change>)>, BrCodeError> {
    let trimmed = input.trim();
    if trimmed.is_empty() {
        return Ok(None);
    }
    let invalid = || BrCodeError::PostalCodeInvalid {
        input: trimmed.to_owned(),
    };
    let mut digits = String::with_capacity(8);
    for ch in trimmed.chars() {
        match ch {
            '0'..='9' => digits.push(ch),
            '-' | '.' | ' ' => {}
            _ => return Err(invalid()),
        }
    }
    if digits.len() != 8 {
        return Err(invalid());
    }
    let change = (digits != input).then(|| Change {
        field: Field::PostalCode,
        before: input.to_owned(),
        after: digits.clone(),
        reasons: vec![ChangeReason::PostalCodeFormatted],
    });
    Ok(Some((digits, change)))
}

/// Checks a dynamic location: strips a leading `https://` (reported), refuses other schemes,
/// spaces, non-ASCII characters and more than 77 characters.
///
/// # Errors
/// [`BrCodeError::UrlMissing`], [`BrCodeError::UrlHasScheme`], [`BrCodeError::UrlInvalidCharacter`]
/// or [`BrCodeError::UrlTooLong`].
///
/// ```
/// use domain::brcode::{make::check_url, BrCodeError};
///
/// assert_eq!(check_url("HTTPS://pix.example.com/qr/v2/abc")?.0, "pix.example.com/qr/v2/abc");
/// assert!(matches!(check_url("http://pix.example.com"), Err(BrCodeError::UrlHasScheme { .. })));
/// # Ok::<(), BrCodeError>(())
/// ```
pub fn check_url(input: &str) -> Result<(String, Option<Change>), BrCodeError> {
    let trimmed = input.trim();
    if trimmed.is_empty() {
        return Err(BrCodeError::UrlMissing);
    }
    let has_https = trimmed.len() >= 8 && trimmed[..8].eq_ignore_ascii_case("https://");
    let url = if has_https { &trimmed[8..] } else { trimmed };
    if let Some(at) = url.find("://") {
        return Err(BrCodeError::UrlHasScheme {
            scheme: url[..at + 3].to_owned(),
        });
    }
    if let Some(ch) = url.chars().find(|c| !c.is_ascii_graphic()) {
        return Err(BrCodeError::UrlInvalidCharacter { ch });
    }
    if url.is_empty() {
        return Err(BrCodeError::UrlMissing);
    }
    let len = url.len();
    if len > MAX_KEY_OR_URL_LEN {
        return Err(BrCodeError::UrlTooLong { len });
    }
    let change = (url != input).then(|| Change {
        field: Field::Url,
        before: input.to_owned(),
        after: url.to_owned(),
        reasons: if has_https {
            vec![ChangeReason::SchemeRemoved]
        } else {
            vec![ChangeReason::SpacesAdjusted]
        },
    });
    Ok((url.to_owned(), change))
}

/// Keeps the `Ok` value, files the error, and records the change.
fn take<T>(result: Result<T, BrCodeError>, errors: &mut Vec<BrCodeError>) -> Option<T> {
    result.map_err(|e| errors.push(e)).ok()
}

/// Makes a static code.
///
/// # Errors
/// Every field error at once, each naming its [`Field`].
///
/// ```
/// use domain::brcode::{make_static, StaticCodeRequest};
/// use domain::pix_key::PixKey;
///
/// let request = StaticCodeRequest::new(PixKey::detect("123e4567-e12b-12d1-a456-426655440000")?, "Fulano de Tal", "BRASILIA");
/// let made = make_static(&request).unwrap();
/// // Names are written in capitals: the only difference from the BCB manual's example.
/// assert_eq!(made.payload, "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913FULANO DE TAL6008BRASILIA62070503***6304F012");
///
/// let bad = StaticCodeRequest::new(PixKey::detect("12345678909")?, "Leone Parise Vieira da Silva", "Presidente Prudente").with_txid("my_id");
/// let errors = make_static(&bad).unwrap_err();
/// assert_eq!(errors.iter().map(|e| e.code()).collect::<Vec<_>>(),
///            ["merchant-name-too-long", "merchant-city-too-long", "txid-invalid-character"]);
/// # Ok::<(), domain::pix_key::PixKeyError>(())
/// ```
pub fn make_static(request: &StaticCodeRequest) -> Result<Made, Vec<BrCodeError>> {
    let mut errors = Vec::new();
    let mut changes = Vec::new();
    let name = take(normalise_name(&request.merchant_name), &mut errors);
    let city = take(normalise_city(&request.merchant_city), &mut errors);
    let info = request
        .additional_info
        .as_deref()
        .and_then(|i| take(normalise_info(i), &mut errors))
        .flatten();
    let max_info = max_additional_info_len(&request.key);
    if let Some(info) = info.as_ref().filter(|i| i.text.len() > max_info) {
        errors.push(BrCodeError::AdditionalInfoTooLong {
            len: info.text.len(),
            max: max_info,
        });
    }
    let amount = request
        .amount
        .and_then(|a| take(check_amount(a), &mut errors));
    let txid = request
        .txid
        .as_deref()
        .and_then(|t| take(check_txid(t), &mut errors))
        .flatten();
    let postal = request
        .postal_code
        .as_deref()
        .and_then(|p| take(check_postal_code(p), &mut errors))
        .flatten();
    let (Some(name), Some(city)) = (name, city) else {
        return Err(errors);
    };
    if !errors.is_empty() {
        return Err(errors);
    }
    changes.extend(name.change);
    changes.extend(city.change);
    let info_text = info.map(|i| {
        changes.extend(i.change);
        i.text
    });
    let postal_text = postal.map(|(cep, change)| {
        changes.extend(change);
        cep
    });
    let mut account = String::with_capacity(MAX_TEMPLATE_LEN);
    push(&mut account, 0, PIX_GUI);
    push(&mut account, 1, request.key.as_str());
    if let Some(info) = &info_text {
        push(&mut account, 2, info);
    }
    let fields = Fields {
        single_use: request.single_use,
        account: &account,
        amount: amount.as_deref(),
        name: &name.text,
        city: &city.text,
        postal_code: postal_text.as_deref(),
        txid: txid.as_deref().unwrap_or("***"),
    };
    Ok(Made {
        payload: fields.write(),
        kind: CodeKind::Static,
        key: Some(request.key.clone()),
        url: None,
        merchant_name: name.text,
        merchant_city: city.text,
        additional_info: info_text,
        amount: request.amount,
        txid: txid.unwrap_or_else(|| "***".to_owned()),
        postal_code: postal_text,
        changes,
    })
}

/// Makes a dynamic code: `01 = 12`, the location in 26-25, no amount, txid `***` (the charge
/// behind the location carries both).
///
/// # Errors
/// Every field error at once.
///
/// ```
/// use domain::brcode::{make_dynamic, parse, CodeKind, DynamicCodeRequest};
///
/// let made = make_dynamic(&DynamicCodeRequest::new("pix.example.com/8b3da2f39a4140d1a91abd93113bd441", "Fulano de Tal", "Brasília")).unwrap();
/// let parsed = parse::validate_strict(&made.payload).unwrap();
/// assert_eq!(parsed.code.kind(), Some(CodeKind::Dynamic));
/// assert_eq!(parsed.code.txid(), Some("***"));
/// ```
pub fn make_dynamic(request: &DynamicCodeRequest) -> Result<Made, Vec<BrCodeError>> {
    let mut errors = Vec::new();
    let mut changes = Vec::new();
    let url = take(check_url(&request.url), &mut errors);
    let name = take(normalise_name(&request.merchant_name), &mut errors);
    let city = take(normalise_city(&request.merchant_city), &mut errors);
    let postal = request
        .postal_code
        .as_deref()
        .and_then(|p| take(check_postal_code(p), &mut errors))
        .flatten();
    let (Some((url, url_change)), Some(name), Some(city)) = (url, name, city) else {
        return Err(errors);
    };
    if !errors.is_empty() {
        return Err(errors);
    }
    changes.extend(url_change);
    changes.extend(name.change);
    changes.extend(city.change);
    let postal_text = postal.map(|(cep, change)| {
        changes.extend(change);
        cep
    });
    let mut account = String::with_capacity(MAX_TEMPLATE_LEN);
    push(&mut account, 0, PIX_GUI);
    push(&mut account, 25, &url);
    let fields = Fields {
        single_use: true,
        account: &account,
        amount: None,
        name: &name.text,
        city: &city.text,
        postal_code: postal_text.as_deref(),
        txid: "***",
    };
    Ok(Made {
        payload: fields.write(),
        kind: CodeKind::Dynamic,
        key: None,
        url: Some(url),
        merchant_name: name.text,
        merchant_city: city.text,
        additional_info: None,
        amount: None,
        txid: "***".to_owned(),
        postal_code: postal_text,
        changes,
    })
}

/// Checked values, ready to write in ascending ID order.
struct Fields<'a> {
    single_use: bool,
    account: &'a str,
    amount: Option<&'a str>,
    name: &'a str,
    city: &'a str,
    postal_code: Option<&'a str>,
    txid: &'a str,
}

impl Fields<'_> {
    fn write(&self) -> String {
        let mut p =
            String::with_capacity(64 + self.account.len() + self.name.len() + self.city.len());
        push(&mut p, 0, "01");
        if self.single_use {
            push(&mut p, 1, "12");
        }
        push(&mut p, 26, self.account);
        push(&mut p, 52, "0000");
        push(&mut p, 53, "986");
        if let Some(amount) = self.amount {
            push(&mut p, 54, amount);
        }
        push(&mut p, 58, "BR");
        push(&mut p, 59, self.name);
        push(&mut p, 60, self.city);
        if let Some(cep) = self.postal_code {
            push(&mut p, 61, cep);
        }
        let mut data = String::with_capacity(4 + self.txid.len());
        push(&mut data, 5, self.txid);
        push(&mut p, 62, &data);
        p.push_str("6304");
        let crc = crc_hex(&p);
        p.extend(crc.iter().map(|b| char::from(*b)));
        debug_assert!(
            super::parse::validate_strict(&p).is_ok(),
            "the builder wrote an invalid code: {p}"
        );
        p
    }
}

/// The web form's raw inputs, exactly as submitted (blank strings for empty inputs).
///
/// ```
/// use domain::brcode::{make_static_from_form, StaticCodeForm};
///
/// let form = StaticCodeForm {
///     key: "(11) 91234-5678".into(),
///     key_kind: "telefone".into(),
///     merchant_name: "Açaí da Praça".into(),
///     merchant_city: "Belém".into(),
///     amount: "R$ 15,00".into(),
///     ..StaticCodeForm::default()
/// };
/// let made = make_static_from_form(&form).unwrap();
/// assert_eq!(made.merchant_name, "ACAI DA PRACA");
/// assert_eq!(made.changes.len(), 3); // key, name, city
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StaticCodeForm {
    /// The key as typed.
    pub key: String,
    /// The key kind chosen (`cpf`, `cnpj`, `email`, `telefone`, `aleatoria`); blank to detect.
    pub key_kind: String,
    /// The receiver's name.
    pub merchant_name: String,
    /// The city.
    pub merchant_city: String,
    /// The amount in pt-BR (`12,50`); blank to let the payer type it.
    pub amount: String,
    /// The txid; blank for none.
    pub txid: String,
    /// The message for the payer; blank for none.
    pub additional_info: String,
    /// The CEP; blank for none.
    pub postal_code: String,
    /// Single payment only.
    pub single_use: bool,
}

/// What the form's values will become, and what is wrong with them, field by field — for live
/// feedback before the code is made. Values that are fine are filled in even when others fail.
///
/// ```
/// use domain::brcode::{preview_form, Field, StaticCodeForm};
///
/// let preview = preview_form(&StaticCodeForm {
///     key: "529.982.247-24".into(),
///     merchant_name: "São Paulo Doces".into(),
///     merchant_city: "São Paulo".into(),
///     ..StaticCodeForm::default()
/// });
/// assert_eq!(preview.merchant_name.as_deref(), Some("SAO PAULO DOCES"));
/// assert_eq!(preview.errors.len(), 1);
/// assert_eq!(preview.errors[0].field(), Field::PixKey);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FormPreview {
    /// The key in DICT form.
    pub key: Option<PixKey>,
    /// Field 59 as it will be written.
    pub merchant_name: Option<String>,
    /// Field 60 as it will be written.
    pub merchant_city: Option<String>,
    /// Field 26-02 as it will be written.
    pub additional_info: Option<String>,
    /// The amount.
    pub amount: Option<Centavos>,
    /// The txid (`None` → `***`).
    pub txid: Option<String>,
    /// The CEP.
    pub postal_code: Option<String>,
    /// What will be written differently from how it was typed.
    pub changes: Vec<Change>,
    /// Everything that must be fixed, one entry per problem, each naming its field.
    pub errors: Vec<BrCodeError>,
}

/// Reads and checks every input of the form at once.
///
/// ```
/// use domain::brcode::{preview_form, StaticCodeForm};
/// let preview = preview_form(&StaticCodeForm { amount: "0,00".into(), ..StaticCodeForm::default() });
/// let codes: Vec<_> = preview.errors.iter().map(|e| e.code()).collect();
/// assert_eq!(codes, ["key-empty", "merchant-name-missing", "merchant-city-missing", "amount-zero"]);
/// ```
#[must_use]
pub fn preview_form(form: &StaticCodeForm) -> FormPreview {
    let mut p = FormPreview::default();
    let errors = &mut p.errors;
    let kind = if form.key_kind.trim().is_empty() {
        Ok(None)
    } else {
        form.key_kind.parse::<PixKeyKind>().map(Some)
    };
    p.key = take(
        kind.and_then(|kind| PixKey::parse(&form.key, kind))
            .map_err(BrCodeError::from),
        errors,
    );
    if let Some(key) = &p.key
        && key.as_str() != form.key
    {
        p.changes.push(Change {
            field: Field::PixKey,
            before: form.key.clone(),
            after: key.as_str().to_owned(),
            reasons: vec![ChangeReason::KeyFormatted],
        });
    }
    for (result, slot) in [
        (normalise_name(&form.merchant_name), &mut p.merchant_name),
        (normalise_city(&form.merchant_city), &mut p.merchant_city),
    ] {
        if let Some(n) = take(result, errors) {
            p.changes.extend(n.change);
            *slot = Some(n.text);
        }
    }
    if !form.amount.trim().is_empty() {
        let amount = Centavos::parse_br(&form.amount).map_err(BrCodeError::from);
        p.amount = take(amount.and_then(|a| check_amount(a).map(|_| a)), errors);
    }
    if let Some(info) = take(normalise_info(&form.additional_info), errors).flatten() {
        let max = p.key.as_ref().map_or(72, max_additional_info_len);
        if info.text.len() > max {
            errors.push(BrCodeError::AdditionalInfoTooLong {
                len: info.text.len(),
                max,
            });
        } else {
            p.changes.extend(info.change);
            p.additional_info = Some(info.text);
        }
    }
    p.txid = take(check_txid(&form.txid), errors).flatten();
    if let Some((cep, change)) = take(check_postal_code(&form.postal_code), errors).flatten() {
        p.changes.extend(change);
        p.postal_code = Some(cep);
    }
    p
}

/// Makes a static code straight from the form's raw inputs, reporting every field error at once.
///
/// # Errors
/// Every problem, each naming its [`Field`], in form order.
///
/// ```
/// use domain::brcode::{make_static_from_form, StaticCodeForm};
///
/// let errors = make_static_from_form(&StaticCodeForm {
///     key: "11999999975".into(), // a valid CPF *and* a plausible mobile
///     merchant_name: "Ana".into(),
///     merchant_city: "Natal".into(),
///     txid: "pedido 1".into(),
///     ..StaticCodeForm::default()
/// }).unwrap_err();
/// assert_eq!(errors.iter().map(|e| e.code()).collect::<Vec<_>>(), ["key-ambiguous", "txid-invalid-character"]);
/// ```
pub fn make_static_from_form(form: &StaticCodeForm) -> Result<Made, Vec<BrCodeError>> {
    let preview = preview_form(form);
    let changes = preview.changes.clone();
    let request = preview.into_request(form.single_use)?;
    // The values are already normalised, so this second pass reports no changes of its own.
    make_static(&request).map(|mut made| {
        made.changes = changes;
        made
    })
}

impl FormPreview {
    /// The request the previewed values make, for a caller that shows the review first and makes
    /// the code (or sends a command) later.
    ///
    /// # Errors
    /// The preview's errors, when it has any.
    ///
    /// ```
    /// use domain::brcode::{preview_form, StaticCodeForm};
    ///
    /// let preview = preview_form(&StaticCodeForm {
    ///     key: "loja@example.com".into(),
    ///     merchant_name: "Açaí".into(),
    ///     merchant_city: "Belém".into(),
    ///     ..StaticCodeForm::default()
    /// });
    /// let request = preview.into_request(false).unwrap();
    /// assert_eq!(request.merchant_name, "ACAI");
    /// ```
    pub fn into_request(self, single_use: bool) -> Result<StaticCodeRequest, Vec<BrCodeError>> {
        if !self.errors.is_empty() {
            return Err(self.errors);
        }
        let (Some(key), Some(merchant_name), Some(merchant_city)) =
            (self.key, self.merchant_name, self.merchant_city)
        else {
            unreachable!("preview_form reports an error for every missing mandatory value");
        };
        Ok(StaticCodeRequest {
            key,
            merchant_name,
            merchant_city,
            amount: self.amount,
            txid: self.txid,
            additional_info: self.additional_info,
            postal_code: self.postal_code,
            single_use,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(s: &str) -> PixKey {
        PixKey::detect(s).unwrap()
    }

    fn codes(errors: &[BrCodeError]) -> Vec<&'static str> {
        errors.iter().map(BrCodeError::code).collect()
    }

    #[test]
    fn reproduces_the_shared_vectors_byte_for_byte() {
        let cases = [
            (
                StaticCodeRequest::new(key("thalesog@me.com"), "Thales Ogliari", "SÃO MIGUÉL DO O")
                    .with_amount(Centavos::new(1_000))
                    .with_info("Pedido 123"),
                "00020126510014br.gov.bcb.pix0115thalesog@me.com0210Pedido 123520400005303986540510.005802BR5914THALES OGLIARI6015SAO MIGUEL DO O62070503***63040DC6",
            ),
            (
                StaticCodeRequest::new(key("12.ABC.345/01DE-35"), "Loja Exemplo", "São Paulo")
                    .with_amount(Centavos::new(4_990))
                    .with_txid("PEDIDO12345"),
                "00020126360014br.gov.bcb.pix011412ABC34501DE35520400005303986540549.905802BR5912LOJA EXEMPLO6009SAO PAULO62150511PEDIDO1234563042AA8",
            ),
            (
                StaticCodeRequest::new(
                    key(&format!("{}@example.com", "a".repeat(65))),
                    "Acme",
                    "Brasília",
                ),
                "00020126990014br.gov.bcb.pix0177aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa@example.com5204000053039865802BR5904ACME6008BRASILIA62070503***63040FCA",
            ),
            (
                StaticCodeRequest::new(
                    key("123e4567-e12b-12d1-a456-426655440000"),
                    "ACME",
                    "BRASILIA",
                )
                .with_info("X".repeat(37)),
                "00020126990014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400000237XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX5204000053039865802BR5904ACME6008BRASILIA62070503***6304583B",
            ),
            (
                StaticCodeRequest::new(
                    key("123e4567-e12b-12d1-a456-426614174000"),
                    "Fulano de Tal",
                    "Brasília",
                )
                .with_amount(Centavos::new(1_000)),
                "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426614174000520400005303986540510.005802BR5913FULANO DE TAL6008BRASILIA62070503***630436D9",
            ),
        ];
        for (request, expected) in cases {
            assert_eq!(make_static(&request).unwrap().payload, expected);
        }
    }

    #[test]
    fn refuses_a_message_when_a_77_character_key_fills_the_template() {
        let request = StaticCodeRequest::new(
            key(&format!("{}@example.com", "a".repeat(65))),
            "Acme",
            "Natal",
        )
        .with_info("Oi");
        assert_eq!(
            make_static(&request).unwrap_err(),
            vec![BrCodeError::AdditionalInfoTooLong { len: 2, max: 0 }]
        );
    }

    #[test]
    fn refuses_one_character_more_than_a_random_key_leaves_for_the_message() {
        let request =
            StaticCodeRequest::new(key("123e4567-e12b-12d1-a456-426655440000"), "Acme", "Natal")
                .with_info("X".repeat(38));
        assert_eq!(
            make_static(&request).unwrap_err(),
            vec![BrCodeError::AdditionalInfoTooLong { len: 38, max: 37 }]
        );
    }

    #[test]
    fn writes_the_largest_amount_and_refuses_one_centavo_more() {
        let base = StaticCodeRequest::new(key("12345678909"), "Ana", "Natal");
        let max = make_static(&base.clone().with_amount(Centavos::new(999_999_999_999))).unwrap();
        assert!(max.payload.contains("54139999999999.99"));
        let over = make_static(&base.with_amount(Centavos::new(1_000_000_000_000))).unwrap_err();
        assert_eq!(over, vec![BrCodeError::AmountTooLong { len: 14 }]);
    }

    #[test]
    fn never_writes_a_zero_amount() {
        let request =
            StaticCodeRequest::new(key("12345678909"), "Ana", "Natal").with_amount(Centavos::ZERO);
        assert_eq!(
            make_static(&request).unwrap_err(),
            vec![BrCodeError::AmountZero]
        );
    }

    #[test]
    fn writes_amounts_with_exactly_two_decimals() {
        let made = make_static(
            &StaticCodeRequest::new(key("12345678909"), "Ana", "Natal")
                .with_amount(Centavos::new(198)),
        )
        .unwrap();
        assert!(made.payload.contains("54041.98"), "{}", made.payload);
    }

    #[test]
    fn writes_stars_when_there_is_no_txid_and_the_txid_when_there_is() {
        let base = StaticCodeRequest::new(key("12345678909"), "Ana", "Natal");
        assert!(
            make_static(&base.clone())
                .unwrap()
                .payload
                .contains("62070503***6304")
        );
        assert!(
            make_static(&base.clone().with_txid("   "))
                .unwrap()
                .payload
                .contains("0503***")
        );
        assert!(
            make_static(&base.with_txid("Abc123"))
                .unwrap()
                .payload
                .contains("62100506Abc1236304")
        );
    }

    #[test]
    fn refuses_txids_with_dash_underscore_space_or_accents_and_over_25_characters() {
        for (txid, ch) in [("a-b", '-'), ("a_b", '_'), ("a b", ' '), ("pedidoé", 'é')] {
            assert_eq!(
                check_txid(txid),
                Err(BrCodeError::TxidInvalidCharacter { ch }),
                "{txid}"
            );
        }
        assert_eq!(
            check_txid(&"a".repeat(26)),
            Err(BrCodeError::TxidTooLong { len: 26 })
        );
        assert_eq!(check_txid(&"a".repeat(25)).unwrap().unwrap().len(), 25);
    }

    #[test]
    fn leaves_field_01_out_of_reusable_codes_and_writes_12_for_single_use() {
        let base = StaticCodeRequest::new(key("12345678909"), "Ana", "Natal");
        assert!(
            make_static(&base.clone())
                .unwrap()
                .payload
                .starts_with("00020126")
        );
        assert!(
            make_static(&base.single_use())
                .unwrap()
                .payload
                .starts_with("00020101021226")
        );
    }

    #[test]
    fn reports_every_field_error_at_once() {
        let request = StaticCodeRequest::new(key("12345678909"), "", "😀")
            .with_amount(Centavos::ZERO)
            .with_txid("a-b")
            .with_postal_code("1234");
        let errors = make_static(&request).unwrap_err();
        assert_eq!(
            codes(&errors),
            [
                "merchant-name-missing",
                "merchant-city-unusable",
                "amount-zero",
                "txid-invalid-character",
                "postal-code-invalid"
            ]
        );
        let fields: Vec<Field> = errors.iter().map(BrCodeError::field).collect();
        assert_eq!(
            fields,
            [
                Field::MerchantName,
                Field::MerchantCity,
                Field::TransactionAmount,
                Field::Txid,
                Field::PostalCode
            ]
        );
    }

    #[test]
    fn says_what_it_changed_before_anything_is_printed() {
        let made = make_static(
            &StaticCodeRequest::new(key("12345678909"), "José  & Cia", "São Paulo")
                .with_postal_code("01310-100"),
        )
        .unwrap();
        let said: Vec<String> = made.changes.iter().map(ToString::to_string).collect();
        assert_eq!(
            said,
            [
                "Nome do recebedor: “José  & Cia” será escrito como “JOSE CIA” (letras acentuadas escritas sem acento; caracteres que os bancos não aceitam removidos: “&”; espaços ajustados; letras em maiúsculas).",
                "Cidade: “São Paulo” será escrito como “SAO PAULO” (letras acentuadas escritas sem acento; letras em maiúsculas).",
                "CEP: “01310-100” será escrito como “01310100” (CEP escrito só com números).",
            ]
        );
    }

    #[test]
    fn makes_a_dynamic_code_with_the_location_without_scheme() {
        let made = make_dynamic(&DynamicCodeRequest::new(
            "HTTPS://pix.example.com/qr/v2/abc",
            "Loja",
            "Natal",
        ))
        .unwrap();
        assert!(made.payload.starts_with("000201010212"));
        assert!(made.payload.contains("2525pix.example.com/qr/v2/abc"));
        assert!(made.payload.contains("62070503***"));
        assert!(!made.payload.contains("54"), "no amount field");
        assert_eq!(made.changes[0].reasons, vec![ChangeReason::SchemeRemoved]);
    }

    #[test]
    fn refuses_other_schemes_spaces_and_locations_over_77_characters() {
        assert_eq!(
            check_url("http://x.com/a"),
            Err(BrCodeError::UrlHasScheme {
                scheme: "http://".into()
            })
        );
        assert_eq!(
            check_url("https://ftp://x"),
            Err(BrCodeError::UrlHasScheme {
                scheme: "ftp://".into()
            })
        );
        assert_eq!(
            check_url("x.com/a b"),
            Err(BrCodeError::UrlInvalidCharacter { ch: ' ' })
        );
        assert_eq!(check_url("https://"), Err(BrCodeError::UrlMissing));
        let at_limit = format!("pix.example.com/{}", "a".repeat(61));
        assert_eq!(check_url(&at_limit).unwrap().0.len(), 77);
        assert_eq!(
            check_url(&format!("{at_limit}a")),
            Err(BrCodeError::UrlTooLong { len: 78 })
        );
    }

    #[test]
    fn reports_the_key_rewritten_in_dict_form_from_the_form() {
        let made = make_static_from_form(&StaticCodeForm {
            key: "(11) 91234-5678".into(),
            merchant_name: "ANA".into(),
            merchant_city: "NATAL".into(),
            ..StaticCodeForm::default()
        })
        .unwrap();
        assert_eq!(made.key.unwrap().as_str(), "+5511912345678");
        assert_eq!(made.changes.len(), 1);
        assert_eq!(made.changes[0].reasons, vec![ChangeReason::KeyFormatted]);
    }

    #[test]
    fn refuses_an_unknown_key_kind_from_the_form() {
        let errors = make_static_from_form(&StaticCodeForm {
            key: "12345678909".into(),
            key_kind: "boleto".into(),
            merchant_name: "ANA".into(),
            merchant_city: "NATAL".into(),
            ..StaticCodeForm::default()
        })
        .unwrap_err();
        assert_eq!(codes(&errors), ["key-unknown-kind"]);
    }

    #[test]
    fn checks_the_message_room_against_the_key_in_the_form_preview() {
        let preview = preview_form(&StaticCodeForm {
            key: "123e4567-e12b-12d1-a456-426655440000".into(),
            merchant_name: "ANA".into(),
            merchant_city: "NATAL".into(),
            additional_info: "X".repeat(40),
            ..StaticCodeForm::default()
        });
        assert_eq!(
            preview.errors,
            vec![BrCodeError::AdditionalInfoTooLong { len: 40, max: 37 }]
        );
        assert_eq!(preview.merchant_name.as_deref(), Some("ANA"));
    }
}
