//! Why a payment command is refused.

use crate::refusal::{Refusal, RefusalKind};

/// A refused payment command. Messages are pt-BR, for the person who asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PaymentError {
    /// There is no such payment.
    #[error("Pagamento não encontrado.")]
    NotFound,
    /// A payment with this end-to-end id is already recorded.
    #[error("Este pagamento já foi registrado.")]
    AlreadyRecorded,
    /// A payment the bank reported cannot be voided (one typed in by hand or imported from a
    /// statement can, until the bank reports it).
    #[error(
        "Este pagamento foi confirmado pelo banco e não pode ser anulado. Só se anula um pagamento registrado à mão ou importado do extrato."
    )]
    NotManual,
    /// The payment was already voided.
    #[error("Este pagamento já foi anulado.")]
    AlreadyVoided,
    /// A payment of zero.
    #[error("Informe um valor maior que zero.")]
    ZeroAmount,
    /// A void without a reason, or a reason or note over the limit.
    #[error("Diga o motivo em até 200 caracteres.")]
    InvalidReason,
    /// A note over the limit.
    #[error("A observação pode ter até 200 caracteres.")]
    InvalidNote,
    /// A report for another account than the one the payment was recorded for.
    #[error("Pagamento não encontrado.")]
    OtherAccount,
    /// A statement batch over the lines one command may record.
    #[error("Envie o extrato em lotes de até 1.000 linhas.")]
    TooManyLines,
    /// No statement import of the account has this id (or it recorded and linked nothing).
    #[error("Importação não encontrada.")]
    ImportNotFound,
    /// The statement import was undone already.
    #[error("Esta importação já foi desfeita.")]
    ImportAlreadyUndone,
    /// Only a payment a bank reported can be refunded through it.
    #[error(
        "Só dá para devolver pelo Balcão um Pix que o banco confirmou. Este pagamento foi registrado à mão, importado do extrato ou simulado: devolva pelo app do banco."
    )]
    RefundNeedsBank,
    /// Everything was refunded (or asked for) already.
    #[error("Este pagamento já foi devolvido por inteiro (ou a devolução já foi pedida).")]
    FullyRefunded,
    /// A refund over what is left to refund.
    #[error("O valor passa do que resta a devolver: no máximo {left}.")]
    RefundOverLeft {
        /// What is left, written as the owner reads money (`R$ 12,34`).
        left: String,
    },
    /// A refund description over the API Pix's 140 characters.
    #[error("A descrição pode ter até 140 caracteres.")]
    InvalidRefundDescription,
    /// A refund id the API Pix would refuse.
    #[error("Identificador de devolução inválido.")]
    InvalidRefundId,
}

impl Refusal for PaymentError {
    fn code(&self) -> &'static str {
        match self {
            PaymentError::NotFound | PaymentError::OtherAccount => "payment-not-found",
            PaymentError::AlreadyRecorded => "payment-already-recorded",
            PaymentError::NotManual => "payment-not-manual",
            PaymentError::AlreadyVoided => "payment-already-voided",
            PaymentError::ZeroAmount => "payment-amount-zero",
            PaymentError::InvalidReason => "payment-reason-invalid",
            PaymentError::InvalidNote => "payment-note-invalid",
            PaymentError::TooManyLines => "statement-batch-too-large",
            PaymentError::ImportNotFound => "statement-import-not-found",
            PaymentError::ImportAlreadyUndone => "statement-import-already-undone",
            PaymentError::RefundNeedsBank => "payment-refund-needs-bank",
            PaymentError::FullyRefunded => "payment-fully-refunded",
            PaymentError::RefundOverLeft { .. } => "payment-refund-over-left",
            PaymentError::InvalidRefundDescription => "payment-refund-description-invalid",
            PaymentError::InvalidRefundId => "payment-refund-id-invalid",
        }
    }

    fn kind(&self) -> RefusalKind {
        match self {
            PaymentError::NotFound | PaymentError::OtherAccount | PaymentError::ImportNotFound => {
                RefusalKind::NotFound
            }
            PaymentError::AlreadyRecorded
            | PaymentError::NotManual
            | PaymentError::AlreadyVoided
            | PaymentError::ImportAlreadyUndone
            | PaymentError::RefundNeedsBank
            | PaymentError::FullyRefunded => RefusalKind::Conflict,
            PaymentError::RefundOverLeft { .. }
            | PaymentError::InvalidRefundDescription
            | PaymentError::InvalidRefundId
            | PaymentError::ZeroAmount
            | PaymentError::InvalidReason
            | PaymentError::InvalidNote
            | PaymentError::TooManyLines => RefusalKind::Invalid,
        }
    }

    fn field(&self) -> Option<&'static str> {
        match self {
            PaymentError::ZeroAmount | PaymentError::RefundOverLeft { .. } => Some("amount"),
            PaymentError::InvalidRefundDescription => Some("description"),
            PaymentError::InvalidReason => Some("reason"),
            PaymentError::InvalidNote => Some("note"),
            _ => None,
        }
    }
}
