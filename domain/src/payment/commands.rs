//! What can be asked of a payment. Values arrive parsed (amounts in centavos, times in RFC 3339,
//! personal fields already sealed by the command layer).

use crate::money::Centavos;
use crate::sealed::Sealed;

use super::{PaymentSource, RefundStatus, StatementOrigin};

/// Commands of the Payment aggregate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PaymentCommand {
    /// A bank (or the sandbox) reports the payment, with its refunds.
    ReportPayment(ReportPayment),
    /// A person of the account types the payment in.
    RecordManualPayment(RecordManualPayment),
    /// A person voids a payment typed in by hand.
    VoidPayment(VoidPayment),
    /// A Pix credit of an imported bank statement, confirmed by the owner, is recorded.
    RecordStatementLine(RecordStatementLine),
    /// The owner undoes the statement import that recorded this payment.
    UndoStatementImport(UndoStatementImport),
    /// A person of the account asks for (part of) the payment back to the payer, through the
    /// bank that holds its key.
    RequestRefund(RequestRefund),
    /// The bank answered about one refund (`GET`/`PUT /pix/{e2eid}/devolucao/{id}`).
    TrackRefund(TrackRefund),
    /// The bank refused a refund Balcão asked for.
    RefuseRefund(RefuseRefund),
}

/// One entry of an API Pix delivery, as the receiver parsed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportPayment {
    /// The account whose receiver got it.
    pub account_id: String,
    /// `endToEndId`.
    pub end_to_end_id: String,
    /// `valor`.
    pub amount: Centavos,
    /// `horario`, RFC 3339.
    pub paid_at: String,
    /// `txid`.
    pub txid: Option<String>,
    /// The account's QR code with that txid, if any.
    pub qrcode_id: Option<String>,
    /// The account's payment link with that txid, if any.
    pub payment_link_id: Option<String>,
    /// `chave`, or the receiver's key when the entry has none.
    pub pix_key: Option<String>,
    /// [`PaymentSource::ApiPix`] or [`PaymentSource::Sandbox`].
    pub source: PaymentSource,
    /// `pagador.nome`, sealed.
    pub payer_name: Option<Sealed>,
    /// `pagador.cpf` or `pagador.cnpj`, sealed.
    pub payer_document: Option<Sealed>,
    /// `infoPagador`, sealed.
    pub payer_info: Option<Sealed>,
    /// `devolucoes`, in the order sent.
    pub refunds: Vec<RefundReport>,
    /// When the delivery arrived, RFC 3339.
    pub received_at: String,
}

/// One `devolucoes` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefundReport {
    /// `id`.
    pub refund_id: String,
    /// `rtrId`.
    pub rtr_id: String,
    /// `valor`.
    pub amount: Centavos,
    /// `status`.
    pub status: RefundStatus,
    /// `natureza`.
    pub nature: Option<String>,
    /// `horario.solicitacao`.
    pub requested_at: Option<String>,
    /// `horario.liquidacao`.
    pub settled_at: Option<String>,
    /// `motivo`.
    pub reason: Option<String>,
}

/// Ask the bank to pay `amount` of the payment back (natureza `ORIGINAL`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestRefund {
    /// The account asking (it must be the payment's).
    pub account_id: String,
    /// The refund's id, drawn by the caller: `[a-zA-Z0-9]{1,35}`. Asking again with the same id
    /// records nothing more.
    pub refund_id: String,
    /// How much.
    pub amount: Centavos,
    /// What the payer reads (`descricao`), trimmed; at most 140 characters.
    pub description: Option<String>,
    /// Who asks, by account id.
    pub requested_by: String,
    /// When, RFC 3339.
    pub requested_at: String,
}

/// What the bank said about one refund.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrackRefund {
    /// The account whose payment it is.
    pub account_id: String,
    /// The bank's `Devolucao`.
    pub refund: RefundReport,
    /// Which path it came by ([`PaymentSource::ApiPixConsulta`]: Balcão asked).
    pub source: PaymentSource,
    /// When it arrived, RFC 3339.
    pub received_at: String,
}

/// The bank refused the refund `refund_id` that Balcão asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefuseRefund {
    /// The refund's id.
    pub refund_id: String,
    /// Why, pt-BR.
    pub reason: String,
    /// When, RFC 3339.
    pub refused_at: String,
}

/// A payment typed in by a person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordManualPayment {
    /// The account that received it.
    pub account_id: String,
    /// The end-to-end id or the `manual-…` reference (the stream's).
    pub reference: String,
    /// The end-to-end id, when the person typed one.
    pub end_to_end_id: Option<String>,
    /// The amount received.
    pub amount: Centavos,
    /// When it was paid, RFC 3339.
    pub paid_at: String,
    /// The account's QR code it paid, if any.
    pub qrcode_id: Option<String>,
    /// That code's txid, if any.
    pub txid: Option<String>,
    /// A note.
    pub note: Option<String>,
    /// Who typed it, by account id.
    pub recorded_by: String,
    /// When, RFC 3339.
    pub recorded_at: String,
}

/// Void a payment typed in by hand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VoidPayment {
    /// Why.
    pub reason: String,
    /// Who, by account id.
    pub voided_by: String,
    /// When, RFC 3339.
    pub voided_at: String,
}

/// A Pix credit line of a bank statement, to be recorded as a payment (source `extrato`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordStatementLine {
    /// The account whose statement it is.
    pub account_id: String,
    /// The stream's reference: the line's end-to-end id when it has one (so the bank's own
    /// report lands on the same payment), else `extrato-…` derived from the line key.
    pub reference: String,
    /// The end-to-end id found in the line's texts, if any.
    pub end_to_end_id: Option<String>,
    /// The credit.
    pub amount: Centavos,
    /// When it was posted, RFC 3339.
    pub paid_at: String,
    /// The txid found in the line's texts, if any.
    pub txid: Option<String>,
    /// The account's QR code the owner confirmed it paid, if any.
    pub qrcode_id: Option<String>,
    /// The account's payment link it paid, if any.
    pub payment_link_id: Option<String>,
    /// Where it came from.
    pub statement: StatementOrigin,
    /// Who imported it, by account id.
    pub recorded_by: String,
    /// When, RFC 3339.
    pub recorded_at: String,
}

/// Undo, on one payment, the statement import `import_id`: the payment that import recorded is
/// voided ("Importação desfeita"); anything else (a payment another source recorded, another
/// import's, one a bank confirmed, one already voided) stays as it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UndoStatementImport {
    /// The import being undone.
    pub import_id: String,
    /// Who undoes it, by account id.
    pub undone_by: String,
    /// When, RFC 3339.
    pub undone_at: String,
}
