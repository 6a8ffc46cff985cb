//! The fields of a BR Code (and of the form that makes one), as errors and warnings name them.

use std::fmt;

use serde::Serialize;

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
