//! Why a payment-link command is refused.

use crate::brcode::BrCodeError;
use crate::refusal::{Refusal, RefusalKind};

/// A refused payment-link command. Messages are pt-BR, for the person who typed the values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PaymentLinkError {
    /// The link was already made.
    #[error("Este link de pagamento já foi criado.")]
    AlreadyCreated,
    /// There is no such link.
    #[error("Link de pagamento não encontrado.")]
    NotFound,
    /// The link was already revoked.
    #[error("Este link de pagamento já foi cancelado.")]
    AlreadyRevoked,
    /// A payment link asks for a fixed amount.
    #[error("Informe o valor a cobrar.")]
    AmountRequired,
    /// The expiry is not after the moment of creation.
    #[error("A validade precisa ser uma data futura.")]
    ExpiryInThePast,
    /// The values break a Pix rule; every problem is listed, each naming its field.
    #[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join(" "))]
    Invalid(Vec<BrCodeError>),
}

impl Refusal for PaymentLinkError {
    fn code(&self) -> &'static str {
        match self {
            PaymentLinkError::AlreadyCreated => "payment-link-already-created",
            PaymentLinkError::NotFound => "not-found",
            PaymentLinkError::AlreadyRevoked => "payment-link-already-revoked",
            PaymentLinkError::AmountRequired => "amount-required",
            PaymentLinkError::ExpiryInThePast => "expiry-in-the-past",
            PaymentLinkError::Invalid(_) => "invalid-argument",
        }
    }

    fn kind(&self) -> RefusalKind {
        match self {
            PaymentLinkError::AlreadyCreated | PaymentLinkError::AlreadyRevoked => {
                RefusalKind::Conflict
            }
            PaymentLinkError::NotFound => RefusalKind::NotFound,
            PaymentLinkError::AmountRequired
            | PaymentLinkError::ExpiryInThePast
            | PaymentLinkError::Invalid(_) => RefusalKind::Invalid,
        }
    }

    fn field(&self) -> Option<&'static str> {
        match self {
            PaymentLinkError::AmountRequired => Some("amount"),
            PaymentLinkError::ExpiryInThePast => Some("expiresAt"),
            _ => None,
        }
    }
}
