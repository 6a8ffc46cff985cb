//! What the engine accepts but a careful reader should know: written unlike the BCB writes it.

use super::{BrCodeError, Field, Report};
use crate::pix_key::PixKeyError;

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
