//! The Payment aggregate: one Pix payment received by an account, however often and in whatever
//! order it is reported.
//!
//! A payment's stream id is [`stream_id`]: the account and the Pix end-to-end id (`endToEndId`,
//! the id the Central Bank's SPI gives every Pix). Scoping by account keeps one account from
//! blocking another's payment by reporting its end-to-end id first through its own receiver.
//! A payment recorded by hand without an end-to-end id gets a `manual-…` reference instead.
//!
//! | source | how it arrives | events |
//! |---|---|---|
//! | [`PaymentSource::ApiPix`] | the bank's API Pix webhook (`POST {url}/pix`, parsed by [`api_pix`]) | [`PaymentRecorded`] the first time, [`PaymentConfirmed`] when it had been recorded by hand, a [`PaymentRefunded`] per new or advanced `devolucoes` entry |
//! | [`PaymentSource::Sandbox`] | "Simular pagamento" on a payer page, through the same receiver | as `api-pix` |
//! | [`PaymentSource::Manual`] | the owner, a manager or the code's operator types it | [`PaymentRecorded`]; [`PaymentVoided`] when voided |
//! | [`PaymentSource::Extrato`] | a Pix credit line of an imported bank statement ([`crate::statement`]) | [`PaymentRecorded`] with its [`StatementOrigin`], only on a new stream (or one whose import was undone): a line whose payment exists already (by its end-to-end id) records nothing; [`PaymentVoided`] with `undone_import` when its import is undone |
//!
//! What the aggregate decides, so the end state does not depend on order or repetition:
//! - the first report records; a repeat of a bank report records nothing;
//! - a bank report of a payment typed in by hand confirms it ([`PaymentConfirmed`]: the bank's
//!   amount and time replace the typed ones, and a void is lifted, since the bank says it was paid);
//! - a refund (`devolucoes` entry) is recorded the first time its id is seen and again only when
//!   its status moves forward (`EM_PROCESSAMENTO` → `DEVOLVIDO` | `NAO_REALIZADO`); a final
//!   status never goes back. A refund that arrives with (or before) its payment's first report
//!   is recorded right after the payment, in the same decision;
//! - a statement line records a payment only where there is none; a later bank report of it
//!   confirms it, as it does a payment typed in by hand;
//! - a refund asked for through Balcão ([`PaymentRefundRequested`]) reserves its amount: the
//!   refunds asked for or reported, less those not carried out or refused, never pass the
//!   payment's amount; only a payment a bank reported (it has an end-to-end id the bank knows)
//!   can be refunded; the bank's answers move it as a reported refund does, and its refusal
//!   ([`PaymentRefundRefused`]) frees the amount;
//! - only a payment recorded by hand (or from a statement) and not confirmed by a bank can be
//!   voided, once;
//! - undoing a statement import voids the payment only if that very import recorded it and no
//!   bank confirmed it; a line of it imported again later records the payment again (a second
//!   [`PaymentRecorded`] on the stream, the only case there is one: the undo took the first
//!   back).

mod aggregate;
pub mod api_pix;
pub mod bounds;
mod commands;
mod error;
mod events;

pub use aggregate::Payment;
pub use commands::{
    PaymentCommand, RecordManualPayment, RecordStatementLine, RefundReport, RefuseRefund,
    ReportPayment, RequestRefund, TrackRefund, UndoStatementImport, VoidPayment,
};
pub use error::PaymentError;
pub use events::{
    PaymentConfirmed, PaymentEvent, PaymentRecorded, PaymentRefundRefused, PaymentRefundRequested,
    PaymentRefunded, PaymentSource, PaymentVoided, RefundStatus, StatementOrigin,
};

/// The aggregate type, used as the stream type in the event log.
pub const STREAM_TYPE: &str = "payment";

/// The stream id of the payment `reference` (an end-to-end id, or a `manual-…` reference)
/// received by `account_id`.
///
/// ```
/// assert_eq!(
///     domain::payment::stream_id("0190f1a2-0000-7000-8000-00000000000a", "E12345678202009091221kkkkkkkkkkk"),
///     "0190f1a2-0000-7000-8000-00000000000a:E12345678202009091221kkkkkkkkkkk"
/// );
/// ```
pub fn stream_id(account_id: &str, reference: &str) -> String {
    format!("{account_id}:{reference}")
}

/// The void reason of a payment whose statement import was undone.
pub const UNDONE_IMPORT_REASON: &str = "Importação desfeita";

/// The longest refund description the API Pix takes (`descricao`), in characters.
pub const MAX_REFUND_DESCRIPTION_CHARS: usize = 140;

/// Whether `id` is a refund id the API Pix takes (`[a-zA-Z0-9]{1,35}`).
pub fn is_refund_id(id: &str) -> bool {
    (1..=35).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// The longest void reason or note accepted, in characters.
pub const MAX_NOTE_CHARS: usize = 200;
