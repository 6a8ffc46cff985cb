//! The BR Code engine's errors and warnings, each with a pt-BR message for the shop owner, a
//! stable machine code for the API and the [`Field`] it concerns (so a form can put one message
//! under each input).

use std::fmt;

use serde::Serialize;

use super::tlv::TlvError;
use crate::money::MoneyError;
use crate::pix_key::PixKeyError;

/// A field of the BR Code (or of the form that makes one). [`Field::as_str`] gives the same
/// names the decoded-fields JSON uses.
///
/// ```
/// use domain::brcode::Field;
///
/// assert_eq!(Field::MerchantName.as_str(), "merchant_name");
/// assert_eq!(Field::MerchantName.label(), "Nome do recebedor");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Field {
    /// The payload as a whole (structure, size).
    Payload,
    /// 00, Payload Format Indicator.
    PayloadFormatIndicator,
    /// 01, Point of Initiation Method.
    #[serde(rename = "point_of_initiation_method")]
    PointOfInitiation,
    /// 26–51, the Pix Merchant Account Information template.
    #[serde(rename = "merchant_account_information")]
    MerchantAccount,
    /// 26-01, the Pix key.
    PixKey,
    /// 26-02, free text shown to the payer.
    AdditionalInfo,
    /// 26-03, the ISPB of the Pix Saque/Troco facilitator.
    Fss,
    /// 26-25, the dynamic code's location.
    Url,
    /// 52, Merchant Category Code.
    MerchantCategoryCode,
    /// 53, Transaction Currency.
    TransactionCurrency,
    /// 54, Transaction Amount.
    TransactionAmount,
    /// 58, Country Code.
    CountryCode,
    /// 59, Merchant Name.
    MerchantName,
    /// 60, Merchant City.
    MerchantCity,
    /// 61, Postal Code.
    PostalCode,
    /// 62-05, the txid.
    Txid,
    /// 63, CRC.
    Crc,
    /// 80–99, the Pix Automático (recurrence) template.
    Recurrence,
}

impl Field {
    /// The snake_case name used in JSON (`pix_key`, `merchant_city`, …).
    ///
    /// ```
    /// assert_eq!(domain::brcode::Field::TransactionAmount.as_str(), "transaction_amount");
    /// ```
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Payload => "payload",
            Self::PayloadFormatIndicator => "payload_format_indicator",
            Self::PointOfInitiation => "point_of_initiation_method",
            Self::MerchantAccount => "merchant_account_information",
            Self::PixKey => "pix_key",
            Self::AdditionalInfo => "additional_info",
            Self::Fss => "fss",
            Self::Url => "url",
            Self::MerchantCategoryCode => "merchant_category_code",
            Self::TransactionCurrency => "transaction_currency",
            Self::TransactionAmount => "transaction_amount",
            Self::CountryCode => "country_code",
            Self::MerchantName => "merchant_name",
            Self::MerchantCity => "merchant_city",
            Self::PostalCode => "postal_code",
            Self::Txid => "txid",
            Self::Crc => "crc",
            Self::Recurrence => "recurrence",
        }
    }

    /// The pt-BR label people see.
    ///
    /// ```
    /// assert_eq!(domain::brcode::Field::MerchantCity.label(), "Cidade");
    /// ```
    #[must_use]
    pub const fn label(self) -> &'static str {
        match self {
            Self::Payload => "Código",
            Self::PayloadFormatIndicator => "Indicador de formato",
            Self::PointOfInitiation => "Tipo de uso do código",
            Self::MerchantAccount => "Dados da conta Pix",
            Self::PixKey => "Chave Pix",
            Self::AdditionalInfo => "Mensagem para o pagador",
            Self::Fss => "Facilitador de saque",
            Self::Url => "Endereço (URL) da cobrança",
            Self::MerchantCategoryCode => "Código de categoria (MCC)",
            Self::TransactionCurrency => "Moeda",
            Self::TransactionAmount => "Valor",
            Self::CountryCode => "País",
            Self::MerchantName => "Nome do recebedor",
            Self::MerchantCity => "Cidade",
            Self::PostalCode => "CEP",
            Self::Txid => "Identificador da transação (txid)",
            Self::Crc => "CRC",
            Self::Recurrence => "Pix Automático",
        }
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

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

/// Something a payer's app may trip on, though the code is readable. Messages are pt-BR.
///
/// ```
/// use domain::brcode::{Warning, Field};
///
/// let w = Warning::GuiNotLowercase { found: "BR.GOV.BCB.PIX".into() };
/// assert_eq!(w.code(), "gui-not-lowercase");
/// assert_eq!(w.field(), Field::MerchantAccount);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Warning {
    /// The GUI is not written `br.gov.bcb.pix` (it is case-insensitive, but BCB writes it so).
    #[error("O identificador Pix está escrito “{found}”; o padrão é br.gov.bcb.pix em minúsculas.")]
    GuiNotLowercase {
        /// The GUI as written.
        found: String,
    },
    /// An amount not written with exactly 2 decimals (`10`, `10.`, `1.5`).
    #[error(
        "O valor está escrito “{found}”; alguns bancos só leem valores com duas casas decimais, como 10.00."
    )]
    AmountNotCanonical {
        /// The raw amount.
        found: String,
    },
    /// A key with the shape of a DICT kind but not in its form: a phone without `+55`, an
    /// upper-case e-mail, a masked CPF (the DICT form is shown), or a CPF, CNPJ or phone whose
    /// content the DICT refuses (the reason is shown). Some banks pay these; a key no kind can
    /// hold is an error instead ([`BrCodeError::KeyInvalid`]).
    #[error("{}", key_not_canonical(found, dict_form))]
    KeyNotCanonical {
        /// The key as written.
        found: String,
        /// The DICT form, or why the DICT would refuse the key.
        dict_form: Result<String, PixKeyError>,
    },
    /// An amount in a dynamic code, which payers ignore (the charge behind the URL rules).
    #[error(
        "Código dinâmico com valor no campo 54: o aplicativo do pagador ignora esse valor e usa o da cobrança."
    )]
    AmountInDynamicCode,
    /// The CRC written in lower-case hex.
    #[error("O CRC está em letras minúsculas; o padrão é maiúsculas.")]
    CrcLowercase,
    /// An ID in the reserved range 65–79.
    #[error("O código usa o campo {id}, reservado pelo padrão EMV.")]
    ReservedId {
        /// The ID.
        id: String,
    },
    /// A rule the strict validator enforces, tolerated by the lenient parser because real
    /// payer apps accept it.
    #[error(transparent)]
    BreaksStrictRule(BrCodeError),
}

fn key_not_canonical(found: &str, dict_form: &Result<String, PixKeyError>) -> String {
    match dict_form {
        Ok(form) => format!(
            "A chave “{found}” não está no formato do DICT, que a escreve “{form}”; alguns bancos não a encontram assim."
        ),
        Err(why) => {
            format!("A chave “{found}” não está no formato do DICT: {why} O pagamento pode falhar.")
        }
    }
}

impl Warning {
    /// A stable machine-readable code; a [`Warning::BreaksStrictRule`] carries the rule's code.
    ///
    /// ```
    /// assert_eq!(domain::brcode::Warning::CrcLowercase.code(), "crc-lowercase");
    /// ```
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            Self::GuiNotLowercase { .. } => "gui-not-lowercase",
            Self::AmountNotCanonical { .. } => "amount-not-canonical",
            Self::KeyNotCanonical { .. } => "key-not-canonical",
            Self::AmountInDynamicCode => "amount-in-dynamic-code",
            Self::CrcLowercase => "crc-lowercase",
            Self::ReservedId { .. } => "reserved-id",
            Self::BreaksStrictRule(e) => e.code(),
        }
    }

    /// The field the warning concerns.
    ///
    /// ```
    /// use domain::brcode::{Field, Warning};
    /// assert_eq!(Warning::AmountInDynamicCode.field(), Field::TransactionAmount);
    /// ```
    #[must_use]
    pub fn field(&self) -> Field {
        match self {
            Self::GuiNotLowercase { .. } => Field::MerchantAccount,
            Self::AmountNotCanonical { .. } | Self::AmountInDynamicCode => Field::TransactionAmount,
            Self::KeyNotCanonical { .. } => Field::PixKey,
            Self::CrcLowercase => Field::Crc,
            Self::ReservedId { .. } => Field::Payload,
            Self::BreaksStrictRule(e) => e.field(),
        }
    }

    /// The warning as a serialisable `{code, field, message}` record.
    ///
    /// ```
    /// let report = domain::brcode::Warning::CrcLowercase.report();
    /// assert_eq!(report.field, "crc");
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn says_the_name_limit_in_words_a_shop_owner_understands() {
        assert_eq!(
            BrCodeError::MerchantNameTooLong { len: 31 }.to_string(),
            "O nome do recebedor tem 31 caracteres; o limite do Pix é 25."
        );
    }

    #[test]
    fn explains_when_a_key_leaves_no_room_for_a_message() {
        let msg = BrCodeError::AdditionalInfoTooLong { len: 10, max: 0 }.to_string();
        assert!(msg.contains("não cabe nenhuma mensagem"), "{msg}");
        let msg = BrCodeError::AdditionalInfoTooLong { len: 40, max: 37 }.to_string();
        assert!(msg.contains("no máximo 37"), "{msg}");
    }

    #[test]
    fn passes_key_and_amount_codes_through_and_files_them_under_their_fields() {
        let key = BrCodeError::from(PixKeyError::CpfCheckDigits);
        assert_eq!(
            (key.code(), key.field()),
            ("key-cpf-check-digits", Field::PixKey)
        );
        let amount = BrCodeError::from(MoneyError::Negative);
        assert_eq!(
            (amount.code(), amount.field()),
            ("amount-negative", Field::TransactionAmount)
        );
    }

    #[test]
    fn names_the_field_and_the_character_outside_the_alphabet() {
        let e = BrCodeError::CharacterOutsideAlphabet {
            path: Some("60".into()),
            field: Field::MerchantCity,
            ch: 'ó',
            at: 120,
        };
        assert_eq!(
            e.to_string(),
            "O campo 60 (Cidade) tem o caractere “ó”; fora do campo 64, o BR Code só aceita caracteres ASCII imprimíveis (letras sem acento, números, espaço e símbolos como . - / :)."
        );
        assert_eq!(
            (e.code(), e.field()),
            ("character-outside-alphabet", Field::MerchantCity)
        );
        let unnamed = BrCodeError::CharacterOutsideAlphabet {
            path: Some("27-01".into()),
            field: Field::Payload,
            ch: '\t',
            at: 80,
        };
        assert!(
            unnamed
                .to_string()
                .starts_with("O campo 27-01 tem o caractere invisível U+0009;"),
            "{unnamed}"
        );
        let lost = BrCodeError::CharacterOutsideAlphabet {
            path: None,
            field: Field::Payload,
            ch: 'á',
            at: 170,
        };
        assert!(
            lost.to_string()
                .starts_with("O código tem o caractere “á” na posição 170;"),
            "{lost}"
        );
    }

    #[test]
    fn names_the_key_no_dict_kind_can_hold() {
        let colon = BrCodeError::KeyInvalid {
            found: "08074883:00196".into(),
            ch: Some(':'),
        };
        assert_eq!(
            colon.to_string(),
            "A chave Pix “08074883:00196” tem o caractere “:”, que nenhuma chave do DICT aceita; o banco do pagador não vai encontrá-la."
        );
        assert_eq!(
            (colon.code(), colon.field()),
            ("key-invalid", Field::PixKey)
        );
        let shape = BrCodeError::KeyInvalid {
            found: "43214833".into(),
            ch: None,
        };
        assert_eq!(
            shape.to_string(),
            "A chave Pix “43214833” não é CPF, CNPJ, e-mail, celular nem chave aleatória; o banco do pagador não vai encontrá-la."
        );
    }

    #[test]
    fn shows_the_dict_form_of_a_near_miss_or_why_the_dict_refuses_it() {
        let phone = Warning::KeyNotCanonical {
            found: "71996074734".into(),
            dict_form: Ok("+5571996074734".into()),
        };
        assert_eq!(
            phone.to_string(),
            "A chave “71996074734” não está no formato do DICT, que a escreve “+5571996074734”; alguns bancos não a encontram assim."
        );
        let cpf = Warning::KeyNotCanonical {
            found: "11111111111".into(),
            dict_form: Err(PixKeyError::NotCpfNorPhone("11111111111".into())),
        };
        assert_eq!(
            cpf.to_string(),
            "A chave “11111111111” não está no formato do DICT: “11111111111” não é um CPF válido nem um celular com DDD. O pagamento pode falhar."
        );
    }
}
