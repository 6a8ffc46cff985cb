//! One value at a time, as a form checks it under its input: the txid, the amount, the postal
//! code, the URL of a dynamic code, and the room left for the message.

use super::*;

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
