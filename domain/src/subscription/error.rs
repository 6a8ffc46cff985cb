//! Why a subscription command is refused.

use crate::refusal::{Refusal, RefusalKind};

/// A refused subscription command. Messages are pt-BR, for the shop owner.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SubscriptionError {
    /// Grátis is not bought.
    #[error("Escolha um plano Premium para assinar.")]
    NotAPaidPlan,
    /// The charge does not cost what the plan costs.
    #[error("O valor da cobrança não é o preço do plano.")]
    WrongAmount,
    /// Premium is on, paid until a date, and not yet near its renewal.
    #[error("Sua conta já é Premium até {until}. A renovação é cobrada perto dessa data.")]
    AlreadyPremium {
        /// The end of the period, RFC 3339.
        until: String,
    },
    /// A checkout of this plan is still waiting for its Pix: it is the one to pay.
    #[error("Já existe uma cobrança deste plano esperando o pagamento.")]
    CheckoutAlreadyOpen {
        /// Our id of the open charge.
        charge_id: String,
    },
    /// No Premium to renew, cancel or expire.
    #[error("Sua conta não tem uma assinatura Premium ativa.")]
    NotPremium,
    /// A renewal is only charged in the last days of the period.
    #[error("A renovação só é cobrada nos últimos dias do período.")]
    TooEarlyToRenew,
    /// A renewal charge is already open.
    #[error("Já existe uma cobrança de renovação em aberto.")]
    RenewalAlreadyIssued,
    /// The owner cancelled; nothing more is charged.
    #[error("A assinatura foi cancelada e termina no fim do período pago.")]
    AlreadyCancelled,
    /// The period has not ended yet.
    #[error("O período pago ainda não terminou.")]
    NotYetEnded,
    /// No charge of this subscription has that id.
    #[error("Cobrança não encontrada.")]
    UnknownCharge,
    /// An instant the command carries is not RFC 3339.
    #[error("Data inválida.")]
    BadInstant,
}

impl Refusal for SubscriptionError {
    fn code(&self) -> &'static str {
        match self {
            SubscriptionError::NotAPaidPlan => "not-a-paid-plan",
            SubscriptionError::WrongAmount => "wrong-amount",
            SubscriptionError::AlreadyPremium { .. } => "already-premium",
            SubscriptionError::CheckoutAlreadyOpen { .. } => "checkout-already-open",
            SubscriptionError::NotPremium => "not-premium",
            SubscriptionError::TooEarlyToRenew => "too-early-to-renew",
            SubscriptionError::RenewalAlreadyIssued => "renewal-already-issued",
            SubscriptionError::AlreadyCancelled => "subscription-already-cancelled",
            SubscriptionError::NotYetEnded => "period-not-ended",
            SubscriptionError::UnknownCharge => "not-found",
            SubscriptionError::BadInstant => "invalid-argument",
        }
    }

    fn kind(&self) -> RefusalKind {
        match self {
            SubscriptionError::NotAPaidPlan
            | SubscriptionError::WrongAmount
            | SubscriptionError::BadInstant => RefusalKind::Invalid,
            SubscriptionError::UnknownCharge => RefusalKind::NotFound,
            SubscriptionError::AlreadyPremium { .. }
            | SubscriptionError::CheckoutAlreadyOpen { .. }
            | SubscriptionError::NotPremium
            | SubscriptionError::TooEarlyToRenew
            | SubscriptionError::RenewalAlreadyIssued
            | SubscriptionError::AlreadyCancelled
            | SubscriptionError::NotYetEnded => RefusalKind::Conflict,
        }
    }

    fn field(&self) -> Option<&'static str> {
        match self {
            SubscriptionError::NotAPaidPlan => Some("plan"),
            _ => None,
        }
    }
}
