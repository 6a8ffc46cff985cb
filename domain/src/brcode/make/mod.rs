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

mod checks;
mod form;
#[cfg(test)]
mod tests;

pub use checks::{check_amount, check_postal_code, check_txid, check_url, max_additional_info_len};
pub use form::{FormPreview, StaticCodeForm, make_static_from_form, preview_form};

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
