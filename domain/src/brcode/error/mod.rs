//! The BR Code engine's errors and warnings, each with a pt-BR message for the shop owner, a
//! stable machine code for the API and the [`Field`] it concerns (so a form can put one message
//! under each input).

use serde::Serialize;

use super::tlv::TlvError;
use crate::money::MoneyError;
use crate::pix_key::PixKeyError;

mod field;
#[cfg(test)]
mod tests;
mod warning;

pub use field::Field;
pub use warning::Warning;

/// Everything that can be wrong with a BR Code or with the data to make one.
///
/// ```
/// use domain::brcode::{BrCodeError, Field};
///
/// let err = BrCodeError::MerchantNameTooLong { len: 31 };
/// assert_eq!(err.to_string(), "O nome do recebedor tem 31 caracteres; o limite do Pix é 25.");
/// assert_eq!(err.code(), "merchant-name-too-long");
/// assert_eq!(err.field(), Field::MerchantName);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BrCodeError {
    /// The Pix key is not usable.
    #[error(transparent)]
    Key(#[from] PixKeyError),
    /// The amount could not be read.
    #[error(transparent)]
    Amount(#[from] MoneyError),
    /// No receiver name.
    #[error("Falta o nome do recebedor.")]
    MerchantNameMissing,
    /// A receiver name with nothing the banks accept (only emoji or symbols, say).
    #[error("O nome “{input}” não tem letras ou números que os bancos aceitem.")]
    MerchantNameUnusable {
        /// What was typed.
        input: String,
    },
    /// A receiver name over 25 characters (after normalisation; never truncated).
    #[error("O nome do recebedor tem {len} caracteres; o limite do Pix é 25.")]
    MerchantNameTooLong {
        /// Its length in characters.
        len: usize,
    },
    /// No city.
    #[error("Falta a cidade do recebedor.")]
    MerchantCityMissing,
    /// A city with nothing the banks accept.
    #[error("A cidade “{input}” não tem letras ou números que os bancos aceitem.")]
    MerchantCityUnusable {
        /// What was typed.
        input: String,
    },
    /// A city over 15 characters (after normalisation; never truncated).
    #[error(
        "A cidade tem {len} caracteres; o limite do Pix é 15. {}",
        city_hint(.suggestion.as_deref())
    )]
    MerchantCityTooLong {
        /// Its length in characters.
        len: usize,
        /// The same city shortened to fit, when its own words allow it
        /// ([`suggest_city_abbreviation`](super::normalise::suggest_city_abbreviation)).
        suggestion: Option<String>,
    },
    /// A message for the payer with nothing the banks accept.
    #[error("A mensagem “{input}” não tem letras ou números que os bancos aceitem.")]
    AdditionalInfoUnusable {
        /// What was typed.
        input: String,
    },
    /// A message that does not fit next to this key in the 99-character Pix template.
    #[error("{}", additional_info_too_long(*len, *max))]
    AdditionalInfoTooLong {
        /// Its length in characters.
        len: usize,
        /// The room left by the key (may be 0).
        max: usize,
    },
    /// A txid character outside `A-Z a-z 0-9`.
    #[error(
        "O identificador da transação (txid) só aceita letras sem acento e números; “{ch}” não é aceito."
    )]
    TxidInvalidCharacter {
        /// The first offending character.
        ch: char,
    },
    /// A txid over 25 characters.
    #[error("O identificador da transação (txid) tem {len} caracteres; o limite do Pix é 25.")]
    TxidTooLong {
        /// Its length in characters.
        len: usize,
    },
    /// Template 62 or its txid (62-05) is missing.
    #[error("Falta o identificador da transação (campo 62-05); quando não houver, o Pix usa ***.")]
    TxidMissing,
    /// A dynamic code with a txid other than `***`.
    #[error("Em código dinâmico o identificador da transação deve ser ***, mas é “{found}”.")]
    DynamicTxidNotStars {
        /// The txid found.
        found: String,
    },
    /// A postal code that is not 8 digits.
    #[error("O CEP “{input}” não é válido; use 8 números, como 01310-100.")]
    PostalCodeInvalid {
        /// What was typed.
        input: String,
    },
    /// No location for a dynamic code.
    #[error("Falta o endereço (URL) da cobrança.")]
    UrlMissing,
    /// A location with a scheme other than `https://`, or a scheme inside the payload.
    #[error(
        "O endereço da cobrança não pode começar com “{scheme}”; o aplicativo do pagador acrescenta https:// sozinho."
    )]
    UrlHasScheme {
        /// The scheme found, e.g. `https://`.
        scheme: String,
    },
    /// A location over 77 characters.
    #[error("O endereço da cobrança tem {len} caracteres; o limite do Pix é 77 (sem https://).")]
    UrlTooLong {
        /// Its length in characters.
        len: usize,
    },
    /// A location with a space or non-ASCII character.
    #[error("O endereço da cobrança não pode ter o caractere “{ch}”.")]
    UrlInvalidCharacter {
        /// The first offending character.
        ch: char,
    },
    /// An amount of zero (write no amount to let the payer type it).
    #[error(
        "O valor deve ser maior que zero. Para o pagador digitar o valor, deixe o campo em branco."
    )]
    AmountZero,
    /// An amount whose written form exceeds 13 characters.
    #[error(
        "O valor tem {len} caracteres no código; o limite do Pix é 13 (até R$ 9.999.999.999,99)."
    )]
    AmountTooLong {
        /// The length of the written amount.
        len: usize,
    },
    /// Field 54 not in the EMV form (digits, at most one dot, at most 2 decimals).
    #[error("O valor “{found}” não está no formato do Pix (como 10.00).")]
    AmountInvalidFormat {
        /// The raw value.
        found: String,
    },
    /// Nothing to read.
    #[error("O código está vazio.")]
    PayloadEmpty,
    /// Over the 512 characters that API Pix allows for a Copia e Cola string.
    #[error("O código tem {len} caracteres; o limite do Pix Copia e Cola é 512.")]
    PayloadTooLong {
        /// Its length in characters.
        len: usize,
    },
    /// The TLV structure is broken.
    #[error(transparent)]
    Tlv(#[from] TlvError),
    /// A field written with length `00` (EMV forbids empty fields; leave them out).
    #[error("O campo {id} está vazio (tamanho 00); campos vazios devem ser omitidos.")]
    EmptyValue {
        /// The field's path, e.g. `26-02`.
        id: String,
    },
    /// The payload does not end with `6304` and 4 hex digits.
    #[error(
        "O código não termina com o CRC (6304 seguido de 4 dígitos hexadecimais); pode ter sido cortado."
    )]
    CrcMissing,
    /// The CRC does not match the payload.
    #[error(
        "O CRC do código é {given}, mas deveria ser {computed}: o código foi alterado ou gerado com erro."
    )]
    CrcMismatch {
        /// The CRC written in the payload.
        given: String,
        /// The CRC computed over the payload.
        computed: String,
    },
    /// 00 missing, not first or not `01`.
    #[error("O código deve começar com 000201 (indicador de formato 01).")]
    PayloadFormatIndicatorInvalid {
        /// The value found, if any.
        found: Option<String>,
    },
    /// 01 present with a value other than `11` or `12`.
    #[error("O tipo de uso (campo 01) deve ser 11 ou 12, mas é “{found}”.")]
    PointOfInitiationInvalid {
        /// The value found.
        found: String,
    },
    /// No 26–51 template with the GUI `br.gov.bcb.pix`.
    #[error("Este não é um código Pix: falta o campo com br.gov.bcb.pix.")]
    PixAccountMissing,
    /// The Pix template has neither a key (01) nor a URL (25), and there is no recurrence.
    #[error("O código Pix não tem chave nem endereço de cobrança.")]
    PixAccountWithoutKeyOrUrl,
    /// The Pix template has both a key and a URL.
    #[error("O código Pix tem chave e endereço de cobrança ao mesmo tempo; só um é permitido.")]
    PixAccountWithKeyAndUrl,
    /// A key over 77 characters.
    #[error("A chave Pix tem {len} caracteres; o limite é 77.")]
    KeyTooLong {
        /// Its length in characters.
        len: usize,
    },
    /// A key (26-01) no DICT kind can hold: a character or a shape outside every kind (see
    /// [`crate::pix_key::WrittenKey::Unfit`]). The payer's bank cannot find it, so no app pays
    /// the code.
    #[error("{}", key_invalid(found, *ch))]
    KeyInvalid {
        /// The key as written.
        found: String,
        /// The first character no kind accepts, when one is to blame.
        ch: Option<char>,
    },
    /// A character outside printable ASCII (`0x20`–`0x7E`) in any field but template 64 (the
    /// only place EMV allows other characters). Lengths count characters, so a generator that
    /// counted bytes shifts every field after it; this names where it sits.
    #[error("{}", outside_alphabet(path.as_deref(), *field, *ch, *at))]
    CharacterOutsideAlphabet {
        /// The field's path (`60`, `26-02`, `27-01`), or `None` when the structure is broken
        /// before the character.
        path: Option<String>,
        /// The field it concerns ([`Field::Payload`] for fields without a name of their own).
        field: Field,
        /// The first such character in the field.
        ch: char,
        /// Its character position in the (trimmed) payload.
        at: usize,
    },
    /// 52 missing or not 4 digits.
    #[error("O código de categoria (campo 52) deve ter 4 dígitos.")]
    MerchantCategoryCodeInvalid {
        /// The value found, if any.
        found: Option<String>,
    },
    /// 53 missing or not `986`.
    #[error("A moeda (campo 53) deve ser 986, o real.")]
    CurrencyInvalid {
        /// The value found, if any.
        found: Option<String>,
    },
    /// 58 missing or not `BR`.
    #[error("O país (campo 58) deve ser BR.")]
    CountryInvalid {
        /// The value found, if any.
        found: Option<String>,
    },
    /// 26-03 not 8 characters `[0-9A-Z]`.
    #[error(
        "O facilitador de saque (campo 26-03) deve ser um ISPB de 8 caracteres, mas é “{found}”."
    )]
    FssInvalid {
        /// The value found.
        found: String,
    },
}

/// A character as a message shows it: itself in quotes, or its code point when it is invisible.
fn shown(ch: char) -> String {
    let invisible = ch.is_control()
        || ch.is_whitespace()
        || matches!(u32::from(ch), 0x200B..=0x200F | 0x2028..=0x202E | 0x2060..=0x206F | 0xFEFF);
    if invisible {
        format!("invisível U+{:04X}", u32::from(ch))
    } else {
        format!("“{ch}”")
    }
}

fn key_invalid(found: &str, ch: Option<char>) -> String {
    match ch {
        Some(ch) => format!(
            "A chave Pix “{found}” tem o caractere {}, que nenhuma chave do DICT aceita; o banco do pagador não vai encontrá-la.",
            shown(ch)
        ),
        None => format!(
            "A chave Pix “{found}” não é CPF, CNPJ, e-mail, celular nem chave aleatória; o banco do pagador não vai encontrá-la."
        ),
    }
}

fn outside_alphabet(path: Option<&str>, field: Field, ch: char, at: usize) -> String {
    let rule = "fora do campo 64, o BR Code só aceita caracteres ASCII imprimíveis (letras sem acento, números, espaço e símbolos como . - / :).";
    match path {
        Some(path) if field == Field::Payload => {
            format!("O campo {path} tem o caractere {}; {rule}", shown(ch))
        }
        Some(path) => format!(
            "O campo {path} ({}) tem o caractere {}; {rule}",
            field.label(),
            shown(ch)
        ),
        None => format!(
            "O código tem o caractere {} na posição {at}; {rule}",
            shown(ch)
        ),
    }
}

fn additional_info_too_long(len: usize, max: usize) -> String {
    if max == 0 {
        format!(
            "A mensagem para o pagador tem {len} caracteres, mas com esta chave não cabe nenhuma mensagem (limite de 99 caracteres dos dados Pix)."
        )
    } else {
        format!(
            "A mensagem para o pagador tem {len} caracteres; com esta chave cabem no máximo {max}."
        )
    }
}

impl BrCodeError {
    /// A stable machine-readable code for the API (kebab-case, never translated). Key and amount
    /// errors pass their own codes through (`key-…`, `amount-…`).
    ///
    /// ```
    /// use domain::brcode::BrCodeError;
    /// assert_eq!(BrCodeError::CrcMissing.code(), "crc-missing");
    /// ```
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            Self::Key(e) => e.code(),
            Self::Amount(e) => e.code(),
            Self::Tlv(e) => e.code(),
            Self::MerchantNameMissing => "merchant-name-missing",
            Self::MerchantNameUnusable { .. } => "merchant-name-unusable",
            Self::MerchantNameTooLong { .. } => "merchant-name-too-long",
            Self::MerchantCityMissing => "merchant-city-missing",
            Self::MerchantCityUnusable { .. } => "merchant-city-unusable",
            Self::MerchantCityTooLong { .. } => "merchant-city-too-long",
            Self::AdditionalInfoUnusable { .. } => "additional-info-unusable",
            Self::AdditionalInfoTooLong { .. } => "additional-info-too-long",
            Self::TxidInvalidCharacter { .. } => "txid-invalid-character",
            Self::TxidTooLong { .. } => "txid-too-long",
            Self::TxidMissing => "txid-missing",
            Self::DynamicTxidNotStars { .. } => "dynamic-txid-not-stars",
            Self::PostalCodeInvalid { .. } => "postal-code-invalid",
            Self::UrlMissing => "url-missing",
            Self::UrlHasScheme { .. } => "url-has-scheme",
            Self::UrlTooLong { .. } => "url-too-long",
            Self::UrlInvalidCharacter { .. } => "url-invalid-character",
            Self::AmountZero => "amount-zero",
            Self::AmountTooLong { .. } => "amount-too-long",
            Self::AmountInvalidFormat { .. } => "amount-invalid-format",
            Self::PayloadEmpty => "payload-empty",
            Self::PayloadTooLong { .. } => "payload-too-long",
            Self::EmptyValue { .. } => "empty-value",
            Self::CrcMissing => "crc-missing",
            Self::CrcMismatch { .. } => "crc-mismatch",
            Self::PayloadFormatIndicatorInvalid { .. } => "payload-format-indicator-invalid",
            Self::PointOfInitiationInvalid { .. } => "point-of-initiation-invalid",
            Self::PixAccountMissing => "pix-account-missing",
            Self::PixAccountWithoutKeyOrUrl => "pix-account-without-key-or-url",
            Self::PixAccountWithKeyAndUrl => "pix-account-with-key-and-url",
            Self::KeyTooLong { .. } => "key-too-long",
            Self::KeyInvalid { .. } => "key-invalid",
            Self::CharacterOutsideAlphabet { .. } => "character-outside-alphabet",
            Self::MerchantCategoryCodeInvalid { .. } => "merchant-category-code-invalid",
            Self::CurrencyInvalid { .. } => "currency-invalid",
            Self::CountryInvalid { .. } => "country-invalid",
            Self::FssInvalid { .. } => "fss-invalid",
        }
    }

    /// The field the error concerns.
    ///
    /// ```
    /// use domain::brcode::{BrCodeError, Field};
    /// assert_eq!(BrCodeError::AmountZero.field(), Field::TransactionAmount);
    /// ```
    #[must_use]
    pub fn field(&self) -> Field {
        match self {
            Self::Key(_) | Self::KeyTooLong { .. } | Self::KeyInvalid { .. } => Field::PixKey,
            Self::CharacterOutsideAlphabet { field, .. } => *field,
            Self::Amount(_)
            | Self::AmountZero
            | Self::AmountTooLong { .. }
            | Self::AmountInvalidFormat { .. } => Field::TransactionAmount,
            Self::MerchantNameMissing
            | Self::MerchantNameUnusable { .. }
            | Self::MerchantNameTooLong { .. } => Field::MerchantName,
            Self::MerchantCityMissing
            | Self::MerchantCityUnusable { .. }
            | Self::MerchantCityTooLong { .. } => Field::MerchantCity,
            Self::AdditionalInfoUnusable { .. } | Self::AdditionalInfoTooLong { .. } => {
                Field::AdditionalInfo
            }
            Self::TxidInvalidCharacter { .. }
            | Self::TxidTooLong { .. }
            | Self::TxidMissing
            | Self::DynamicTxidNotStars { .. } => Field::Txid,
            Self::PostalCodeInvalid { .. } => Field::PostalCode,
            Self::UrlMissing
            | Self::UrlHasScheme { .. }
            | Self::UrlTooLong { .. }
            | Self::UrlInvalidCharacter { .. } => Field::Url,
            Self::PayloadEmpty
            | Self::PayloadTooLong { .. }
            | Self::Tlv(_)
            | Self::EmptyValue { .. } => Field::Payload,
            Self::CrcMissing | Self::CrcMismatch { .. } => Field::Crc,
            Self::PayloadFormatIndicatorInvalid { .. } => Field::PayloadFormatIndicator,
            Self::PointOfInitiationInvalid { .. } => Field::PointOfInitiation,
            Self::PixAccountMissing
            | Self::PixAccountWithoutKeyOrUrl
            | Self::PixAccountWithKeyAndUrl => Field::MerchantAccount,
            Self::MerchantCategoryCodeInvalid { .. } => Field::MerchantCategoryCode,
            Self::CurrencyInvalid { .. } => Field::TransactionCurrency,
            Self::CountryInvalid { .. } => Field::CountryCode,
            Self::FssInvalid { .. } => Field::Fss,
        }
    }

    /// The error as a serialisable `{code, field, message}` record for the API.
    ///
    /// ```
    /// use domain::brcode::BrCodeError;
    /// let report = BrCodeError::AmountZero.report();
    /// assert_eq!(report.code, "amount-zero");
    /// assert_eq!(report.field, "transaction_amount");
    /// ```
    #[must_use]
    pub fn report(&self) -> Report {
        Report {
            code: self.code(),
            field: self.field().as_str(),
            message: self.to_string(),
        }
    }
}

/// An error or warning flattened for JSON: `{"code", "field", "message"}`.
///
/// ```
/// let json = serde_json::to_string(&domain::brcode::BrCodeError::CrcMissing.report()).unwrap();
/// assert!(json.starts_with(r#"{"code":"crc-missing","field":"crc","message":"#));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Report {
    /// Stable machine code.
    pub code: &'static str,
    /// The field's JSON name.
    pub field: &'static str,
    /// The pt-BR message.
    pub message: String,
}

/// The end of the "city too long" message: the typed city's own abbreviation when there is one.
fn city_hint(suggestion: Option<&str>) -> String {
    match suggestion {
        Some(short) => format!("Use uma abreviação, como “{short}”."),
        None => "Use uma abreviação de até 15 caracteres, como a cidade aparece no seu banco."
            .to_owned(),
    }
}
