//! Why a bank-connection command is refused.

use crate::refusal::{Refusal, RefusalKind};

/// A refused bank-connection command. Messages are pt-BR, for the keys screen.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BankConnectionError {
    /// The key has no standing connection.
    #[error("Esta chave não está conectada a um banco.")]
    NotConnected,
    /// The certificate's validity has ended (or its end could not be read).
    #[error("O certificado enviado venceu. Peça um novo certificado ao banco e envie-o aqui.")]
    CertificateExpired,
    /// No warning threshold crossed that was not warned of already (nothing to record).
    #[error("Nenhum aviso de vencimento a enviar agora.")]
    NothingToWarn,
}

impl Refusal for BankConnectionError {
    fn code(&self) -> &'static str {
        match self {
            BankConnectionError::NotConnected => "bank-not-connected",
            BankConnectionError::CertificateExpired => "bank-certificate-expired",
            BankConnectionError::NothingToWarn => "bank-certificate-nothing-to-warn",
        }
    }

    fn kind(&self) -> RefusalKind {
        match self {
            BankConnectionError::NotConnected => RefusalKind::NotFound,
            BankConnectionError::CertificateExpired => RefusalKind::Invalid,
            BankConnectionError::NothingToWarn => RefusalKind::Conflict,
        }
    }

    fn field(&self) -> Option<&'static str> {
        match self {
            BankConnectionError::CertificateExpired => Some("certificate"),
            BankConnectionError::NotConnected | BankConnectionError::NothingToWarn => None,
        }
    }
}
