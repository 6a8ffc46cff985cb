//! What happened to a payment. Past tense, versioned; never changed in place.

use cqrs_es::DomainEvent;
use serde::{Deserialize, Serialize};

use crate::sealed::Sealed;

/// Where a payment report came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PaymentSource {
    /// The account's bank, through the API Pix webhook.
    ApiPix,
    /// Typed in by a person of the account.
    Manual,
    /// Simulated on a payer page (sandbox only), through the same receiver.
    Sandbox,
    /// A Pix credit line of a bank statement the owner imported (OFX or CSV, issue 35).
    Extrato,
    /// The account's bank, read back through the API Pix's `GET /pix` by the catch-up of a
    /// connected key (issue 33): a Pix whose webhook was lost, late, or never sent.
    ApiPixConsulta,
}

impl PaymentSource {
    /// The stored spelling: `api-pix`, `manual`, `sandbox`, `extrato` or `api-pix-consulta`.
    pub fn as_str(self) -> &'static str {
        match self {
            PaymentSource::ApiPix => "api-pix",
            PaymentSource::Manual => "manual",
            PaymentSource::Sandbox => "sandbox",
            PaymentSource::Extrato => "extrato",
            PaymentSource::ApiPixConsulta => "api-pix-consulta",
        }
    }

    /// Whether a bank (or the sandbox standing in for one) reported it through the API Pix.
    /// A statement line is not such a report: it carries no payer, rarely the end-to-end id,
    /// and only the day at some banks, so a later API Pix report of the same payment confirms
    /// it (its values replace the line's), as it does a payment typed in by hand.
    pub fn is_bank(self) -> bool {
        !matches!(self, PaymentSource::Manual | PaymentSource::Extrato)
    }
}

/// The status of a refund (`devolucoes[].status` of the API Pix).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum RefundStatus {
    /// Asked for, not settled yet.
    EmProcessamento,
    /// Paid back to the payer (final).
    Devolvido,
    /// Not carried out (final).
    NaoRealizado,
}

impl RefundStatus {
    /// The API Pix spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            RefundStatus::EmProcessamento => "EM_PROCESSAMENTO",
            RefundStatus::Devolvido => "DEVOLVIDO",
            RefundStatus::NaoRealizado => "NAO_REALIZADO",
        }
    }

    /// The status read from its API Pix spelling.
    pub fn parse(text: &str) -> Option<RefundStatus> {
        [
            RefundStatus::EmProcessamento,
            RefundStatus::Devolvido,
            RefundStatus::NaoRealizado,
        ]
        .into_iter()
        .find(|s| s.as_str() == text)
    }

    /// Whether the status can still change.
    pub fn is_final(self) -> bool {
        !matches!(self, RefundStatus::EmProcessamento)
    }
}

/// Events of the Payment aggregate, stored with a `type` field beside the variant's fields.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum PaymentEvent {
    /// A payment was recorded (once per stream).
    PaymentRecorded(PaymentRecorded),
    /// A bank reported a payment that had been typed in by hand.
    PaymentConfirmed(PaymentConfirmed),
    /// A refund of the payment was reported, or its status moved forward.
    PaymentRefunded(PaymentRefunded),
    /// A payment typed in by hand was voided.
    PaymentVoided(PaymentVoided),
    /// A person of the account asked the bank, through Balcão, to pay (part of) it back.
    PaymentRefundRequested(PaymentRefundRequested),
    /// The bank refused a refund Balcão asked for: nothing was paid back.
    PaymentRefundRefused(PaymentRefundRefused),
}

/// A payment was recorded (schema version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaymentRecorded {
    /// The account that received it.
    pub account_id: String,
    /// The end-to-end id, or the `manual-…` reference of a payment typed in without one.
    pub reference: String,
    /// The Pix end-to-end id, when known.
    pub end_to_end_id: Option<String>,
    /// The amount received, in centavos.
    pub amount_centavos: u64,
    /// When it was paid (the bank's `horario`, or the time typed), RFC 3339.
    pub paid_at: String,
    /// The txid the payer's app sent (`None` when there was none).
    pub txid: Option<String>,
    /// The account's QR code with that txid; `None` means "sem QR code".
    pub qrcode_id: Option<String>,
    /// The account's payment link with that txid (a link's code is not a QR code of the
    /// account's list: its payments name the link here instead). Added within schema version 1:
    /// absent reads as `None`, and it is left out when `None`, so payments recorded before it
    /// existed are stored exactly as before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payment_link_id: Option<String>,
    /// The Pix key it was paid to, in DICT form, when known.
    pub pix_key: Option<String>,
    /// Who reported it.
    pub source: PaymentSource,
    /// The payer's name (`pagador.nome`), sealed with the account's key.
    pub payer_name: Option<Sealed>,
    /// The payer's CPF or CNPJ (`pagador.cpf`/`pagador.cnpj`), sealed with the account's key.
    pub payer_document: Option<Sealed>,
    /// The payer's free text (`infoPagador`), sealed with the account's key.
    pub payer_info: Option<Sealed>,
    /// A note typed with a manual record.
    pub note: Option<String>,
    /// The person who typed it (manual), by account id.
    pub recorded_by: Option<String>,
    /// When Balcão recorded it, RFC 3339.
    pub recorded_at: String,
    /// The statement line it was recorded from (source `extrato`). Added within schema
    /// version 1, as [`Self::payment_link_id`]: absent reads as `None` and `None` is left out,
    /// so every payment recorded before it is stored exactly as before. Boxed: most payments
    /// have none, and every event in memory would otherwise carry its room.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub statement: Option<Box<StatementOrigin>>,
}

/// Which statement line, of which import and file, a payment was recorded from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatementOrigin {
    /// The import (one upload the owner confirmed), so it can be shown and undone as a whole.
    pub import_id: String,
    /// The file's name as uploaded.
    pub file_name: String,
    /// The line's key across imports (`statement::reconcile::line_key`).
    pub line_key: String,
    /// The 1-based line of the file, for the history.
    pub line: u64,
}

/// A bank reported a payment that had been typed in by hand (schema version 1): the bank's
/// values replace the typed ones and any void is lifted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaymentConfirmed {
    /// The bank that reported it.
    pub source: PaymentSource,
    /// The amount the bank reported, in centavos.
    pub amount_centavos: u64,
    /// The bank's `horario`, RFC 3339.
    pub paid_at: String,
    /// The txid the bank reported.
    pub txid: Option<String>,
    /// The account's QR code with that txid, when one matched; otherwise the typed code stays.
    pub qrcode_id: Option<String>,
    /// The account's payment link with that txid, when one matched. Added within schema
    /// version 1, as [`PaymentRecorded::payment_link_id`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payment_link_id: Option<String>,
    /// The payer's name, sealed, when the bank sent it.
    pub payer_name: Option<Sealed>,
    /// The payer's CPF or CNPJ, sealed, when the bank sent it.
    pub payer_document: Option<Sealed>,
    /// The payer's free text, sealed, when the bank sent it.
    pub payer_info: Option<Sealed>,
    /// When Balcão received the report, RFC 3339.
    pub confirmed_at: String,
    /// The Pix end-to-end id the bank reported, when the payment was recorded without one (a
    /// statement line that named none, linked to the bank's report of the same Pix). Added
    /// within schema version 1: older events read as `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_to_end_id: Option<String>,
}

/// A refund was reported or moved forward (schema version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaymentRefunded {
    /// The refund's id (`devolucoes[].id`).
    pub refund_id: String,
    /// The return's id in the SPI (`rtrId`).
    pub rtr_id: String,
    /// The amount refunded, in centavos.
    pub amount_centavos: u64,
    /// Its status as reported.
    pub status: RefundStatus,
    /// `natureza`, when sent (`ORIGINAL` when absent, per the spec).
    pub nature: Option<String>,
    /// When it was asked for (`horario.solicitacao`), RFC 3339.
    pub requested_at: Option<String>,
    /// When it settled (`horario.liquidacao`), RFC 3339.
    pub settled_at: Option<String>,
    /// Who reported it.
    pub source: PaymentSource,
    /// When Balcão received the report, RFC 3339.
    pub reported_at: String,
    /// The bank's `motivo` (why a refund was not carried out), when it sent one. Added within
    /// schema version 1, as [`PaymentRecorded::payment_link_id`]: absent reads as `None` and
    /// `None` is left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// A person of the account asked the bank that holds the payment's key to pay `amount_centavos`
/// of it back to the payer (`PUT /pix/{e2eid}/devolucao/{id}`, natureza `ORIGINAL`), schema
/// version 1. Recorded before the bank is called: the amount is reserved from then on, and the
/// request is sent (again, if need be) until the bank has it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaymentRefundRequested {
    /// The refund's id at the bank (`[a-zA-Z0-9]{1,35}`), drawn by Balcão.
    pub refund_id: String,
    /// The amount to pay back, in centavos.
    pub amount_centavos: u64,
    /// The description sent to the payer (`descricao`, at most 140 characters).
    pub description: Option<String>,
    /// Who asked, by account id.
    pub requested_by: String,
    /// When, RFC 3339.
    pub requested_at: String,
}

/// The bank refused a refund Balcão asked for (schema version 1): nothing was paid back, and
/// the amount it reserved can be asked for again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaymentRefundRefused {
    /// The refund's id.
    pub refund_id: String,
    /// Why, in pt-BR (the bank's words, as `gateway::bank::BankError` words them).
    pub reason: String,
    /// When Balcão got the refusal, RFC 3339.
    pub refused_at: String,
}

/// A payment typed in by hand was voided (schema version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaymentVoided {
    /// Why, as typed.
    pub reason: String,
    /// Who voided it, by account id.
    pub voided_by: String,
    /// When, RFC 3339.
    pub voided_at: String,
    /// The statement import whose undoing voided it ([`super::UNDONE_IMPORT_REASON`]): a later
    /// import of the same line records it again. Added within schema version 1, as
    /// [`PaymentRecorded::payment_link_id`]: absent reads as `None` and `None` is left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undone_import: Option<String>,
}

impl DomainEvent for PaymentEvent {
    fn event_type(&self) -> String {
        match self {
            PaymentEvent::PaymentRecorded(_) => "PaymentRecorded",
            PaymentEvent::PaymentConfirmed(_) => "PaymentConfirmed",
            PaymentEvent::PaymentRefunded(_) => "PaymentRefunded",
            PaymentEvent::PaymentVoided(_) => "PaymentVoided",
            PaymentEvent::PaymentRefundRequested(_) => "PaymentRefundRequested",
            PaymentEvent::PaymentRefundRefused(_) => "PaymentRefundRefused",
        }
        .to_owned()
    }

    fn event_version(&self) -> String {
        "1".to_owned()
    }
}
