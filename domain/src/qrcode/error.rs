//! Why a QR-code command is refused.

use crate::brcode::BrCodeError;
use crate::subscription::limits::PlanLimitReached;

/// A refused QR-code command. Messages are pt-BR, for the person who typed the values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QrCodeError {
    /// The code was already created; a code is made once.
    #[error("Este QR code já foi criado.")]
    AlreadyCreated,
    /// The values break a Pix rule; every problem is listed, each naming its field.
    #[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join(" "))]
    Invalid(Vec<BrCodeError>),
    /// A code of an account needs a txid (payments are matched by it).
    #[error(
        "Informe o identificador da transação (txid) ou deixe o Balcão gerar um: um QR code da conta precisa dele para reconhecer os pagamentos."
    )]
    TxidRequired,
    /// A single-use code without an amount: it is made for one sale, and a sale has a price
    /// (a code where the payer types the amount is a sign many people pay).
    #[error(
        "Um QR code de uso único precisa de um valor: informe o valor da venda ou deixe o QR code reutilizável."
    )]
    SingleUseWithoutAmount,
    /// A single-use code without its own txid (`***`): its payment is recognised by the txid,
    /// so without one it could never be shown as paid.
    #[error(
        "Um QR code de uso único precisa de um txid só dele: é por ele que o Balcão reconhece o pagamento e avisa que o QR code já foi pago."
    )]
    SingleUseWithoutTxid,
    /// The code does not exist (archiving or bringing back a code never made).
    #[error("QR code não encontrado.")]
    NotFound,
    /// Archiving a code already archived.
    #[error("Este QR code já está arquivado.")]
    AlreadyArchived,
    /// Bringing back a code that is not archived.
    #[error("Este QR code não está arquivado.")]
    NotArchived,
    /// No such code, or the management token is not this code's: the same answer for both, so
    /// a guessed link learns nothing.
    #[error("Esta placa não existe ou o link de gestão não é o dela.")]
    ManagementLinkNotFound,
    /// The code already belongs to an account; a code is claimed once.
    #[error("Esta placa já foi salva em uma conta.")]
    AlreadyClaimed,
    /// An anonymous creation named an owner or a creator.
    #[error("Uma placa sem conta não pode ter dono.")]
    AnonymousWithOwner,
    /// The account already has a code with this txid (decided by the creation workflow's
    /// claim, not by the aggregate).
    #[error(
        "Já existe um QR code com o txid “{0}” nesta conta. Cada QR code precisa de um txid só dele: escolha outro ou deixe o Balcão gerar."
    )]
    TxidTaken(String),
    /// A batch's generated txids could not all be reserved (80 random bits each: a bug or an
    /// attack); nothing was made and sending the batch again draws new ones.
    #[error(
        "Não foi possível reservar os identificadores do lote. Nenhum QR code foi criado; envie de novo."
    )]
    BatchTxidsTaken,
    /// The `Idempotency-Key` was used before with other values.
    #[error(
        "Este Idempotency-Key já foi usado com outros dados. Use uma chave nova para um QR code diferente."
    )]
    IdempotencyKeyReused,
    /// The codes would pass the plan's codes per month (decided by the creation workflow's
    /// count, not by the aggregate).
    #[error("{0}")]
    PlanLimitReached(PlanLimitReached),
    /// A bank charge's validity outside what Balcão offers (a minute to a week).
    #[error("A validade da cobrança vai de 1 minuto a 7 dias.")]
    ChargeExpiryInvalid,
    /// A bank charge's txid outside the API Pix rule for `PUT /cob/{txid}` (26 to 35 letters
    /// and digits): Balcão derives it, so this is a bug, refused before anything is written.
    #[error("O identificador da cobrança (txid) deve ter de 26 a 35 letras e números.")]
    ChargeTxidInvalid,
    /// A bank charge's message for the payer longer than the API Pix takes.
    #[error("A mensagem para quem paga tem no máximo 140 caracteres.")]
    ChargeMessageTooLong,
    /// A due-date charge's due date in the past, or not a date.
    #[error("Informe o vencimento como uma data de hoje em diante.")]
    ChargeDueDateInvalid,
    /// Too many days after the due date.
    #[error("O prazo para pagar depois do vencimento vai de 0 a 365 dias.")]
    ChargeDaysAfterDueInvalid,
    /// A fine of a modality the table lacks, of nothing, over 100 %, or a fixed one not below the
    /// amount.
    #[error(
        "A multa é um valor fixo menor que o da cobrança (modalidade 1) ou um percentual de 0,01% a 100% (modalidade 2)."
    )]
    ChargeFineInvalid,
    /// Interest of a modality the table lacks, of nothing, or over 100 %.
    #[error(
        "Os juros são um valor por dia (modalidades 1 e 5) ou um percentual de 0,01% a 100% (modalidades 2 a 4 e 6 a 8)."
    )]
    ChargeInterestInvalid,
    /// A discount of a modality Balcão does not send, of nothing, without dates or with more than
    /// three, a date in the past or after the due date, or one that leaves nothing to pay.
    #[error(
        "O desconto é um valor fixo (modalidade 1) ou um percentual (modalidade 2) até uma a três datas de hoje até o vencimento, sem zerar a cobrança. O desconto por antecipação (modalidades 3 a 6) ainda não pode ser enviado ao banco: o esquema oficial da API Pix o torna ambíguo."
    )]
    ChargeDiscountInvalid,
    /// An abatement of a modality the table lacks, of nothing, or that leaves nothing to pay.
    #[error(
        "O abatimento é um valor fixo menor que o da cobrança (modalidade 1) ou um percentual abaixo de 100% (modalidade 2)."
    )]
    ChargeAbatementInvalid,
}

impl QrCodeError {
    /// A stable, machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            QrCodeError::AlreadyCreated => "qrcode-already-created",
            QrCodeError::Invalid(_) => "qrcode-invalid",
            QrCodeError::TxidRequired => "txid-required",
            QrCodeError::SingleUseWithoutAmount => "single-use-without-amount",
            QrCodeError::SingleUseWithoutTxid => "single-use-without-txid",
            QrCodeError::NotFound => "not-found",
            QrCodeError::AlreadyArchived => "qrcode-already-archived",
            QrCodeError::NotArchived => "qrcode-not-archived",
            QrCodeError::ManagementLinkNotFound => "not-found",
            QrCodeError::AlreadyClaimed => "qrcode-already-claimed",
            QrCodeError::AnonymousWithOwner => "qrcode-anonymous-with-owner",
            QrCodeError::TxidTaken(_) => "txid-taken",
            QrCodeError::BatchTxidsTaken => "conflict",
            QrCodeError::IdempotencyKeyReused => "idempotency-key-reused",
            QrCodeError::PlanLimitReached(_) => "plan-limit-reached",
            QrCodeError::ChargeExpiryInvalid => "charge-expiry-invalid",
            QrCodeError::ChargeTxidInvalid => "charge-txid-invalid",
            QrCodeError::ChargeMessageTooLong => "charge-message-too-long",
            QrCodeError::ChargeDueDateInvalid => "charge-due-date-invalid",
            QrCodeError::ChargeDaysAfterDueInvalid => "charge-days-after-due-invalid",
            QrCodeError::ChargeFineInvalid => "charge-fine-invalid",
            QrCodeError::ChargeInterestInvalid => "charge-interest-invalid",
            QrCodeError::ChargeDiscountInvalid => "charge-discount-invalid",
            QrCodeError::ChargeAbatementInvalid => "charge-abatement-invalid",
        }
    }
}

/// The request field (as the API spells it) a BR Code problem is about.
pub fn request_field(error: &BrCodeError) -> &'static str {
    use crate::brcode::Field;
    match error.field() {
        Field::MerchantName => "merchantName",
        Field::MerchantCity => "merchantCity",
        Field::TransactionAmount => "amount",
        Field::AdditionalInfo => "description",
        Field::Txid => "txid",
        _ => "pixKey",
    }
}

/// As the edges read it: values the Pix rules reject are `invalid-argument`, naming every field
/// at once ([`Refusal::problems`](crate::refusal::Refusal::problems)), and a missing txid is
/// `invalid-argument` on `txid`, as the API's general code for a bad form value; so is a
/// single-use code without an amount (on `amount`) or without its own txid (on `txid`).
impl crate::refusal::Refusal for QrCodeError {
    fn code(&self) -> &'static str {
        match self {
            QrCodeError::Invalid(_)
            | QrCodeError::TxidRequired
            | QrCodeError::SingleUseWithoutAmount
            | QrCodeError::SingleUseWithoutTxid
            | QrCodeError::ChargeExpiryInvalid
            | QrCodeError::ChargeMessageTooLong
            | QrCodeError::ChargeDueDateInvalid
            | QrCodeError::ChargeDaysAfterDueInvalid
            | QrCodeError::ChargeFineInvalid
            | QrCodeError::ChargeInterestInvalid
            | QrCodeError::ChargeDiscountInvalid
            | QrCodeError::ChargeAbatementInvalid => "invalid-argument",
            other => QrCodeError::code(other),
        }
    }

    fn kind(&self) -> crate::refusal::RefusalKind {
        match self {
            QrCodeError::AlreadyCreated
            | QrCodeError::AlreadyArchived
            | QrCodeError::NotArchived
            | QrCodeError::TxidTaken(_)
            | QrCodeError::BatchTxidsTaken
            | QrCodeError::IdempotencyKeyReused => crate::refusal::RefusalKind::Conflict,
            QrCodeError::Invalid(_)
            | QrCodeError::TxidRequired
            | QrCodeError::SingleUseWithoutAmount
            | QrCodeError::SingleUseWithoutTxid => crate::refusal::RefusalKind::Invalid,
            QrCodeError::NotFound | QrCodeError::ManagementLinkNotFound => {
                crate::refusal::RefusalKind::NotFound
            }
            QrCodeError::AlreadyClaimed => crate::refusal::RefusalKind::Conflict,
            QrCodeError::AnonymousWithOwner
            | QrCodeError::ChargeExpiryInvalid
            | QrCodeError::ChargeMessageTooLong
            | QrCodeError::ChargeDueDateInvalid
            | QrCodeError::ChargeDaysAfterDueInvalid
            | QrCodeError::ChargeFineInvalid
            | QrCodeError::ChargeInterestInvalid
            | QrCodeError::ChargeDiscountInvalid
            | QrCodeError::ChargeAbatementInvalid
            | QrCodeError::ChargeTxidInvalid => crate::refusal::RefusalKind::Invalid,
            QrCodeError::PlanLimitReached(refusal) => crate::refusal::Refusal::kind(refusal),
        }
    }

    fn field(&self) -> Option<&'static str> {
        match self {
            QrCodeError::TxidRequired
            | QrCodeError::TxidTaken(_)
            | QrCodeError::SingleUseWithoutTxid => Some("txid"),
            QrCodeError::SingleUseWithoutAmount => Some("amount"),
            QrCodeError::ChargeExpiryInvalid => Some("expiresInMinutes"),
            QrCodeError::ChargeMessageTooLong => Some("description"),
            QrCodeError::ChargeDueDateInvalid => Some("dueDate"),
            QrCodeError::ChargeDaysAfterDueInvalid => Some("daysAfterDue"),
            QrCodeError::ChargeFineInvalid => Some("fine"),
            QrCodeError::ChargeInterestInvalid => Some("interest"),
            QrCodeError::ChargeDiscountInvalid => Some("discount"),
            QrCodeError::ChargeAbatementInvalid => Some("abatement"),
            QrCodeError::Invalid(errors) => errors.first().map(request_field),
            _ => None,
        }
    }

    fn problems(&self) -> Vec<crate::refusal::FieldProblem> {
        match self {
            QrCodeError::Invalid(errors) => errors
                .iter()
                .map(|error| {
                    crate::refusal::FieldProblem::new(request_field(error), error.to_string())
                })
                .collect(),
            _ => Vec::new(),
        }
    }
}
