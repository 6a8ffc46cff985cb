//! The Payment aggregate: `handle` only decides, `apply` only folds.

use std::collections::{BTreeMap, BTreeSet};

use cqrs_es::Aggregate;
use cqrs_es::event_sink::EventSink;
use serde::{Deserialize, Serialize};

use super::{
    MAX_NOTE_CHARS, MAX_REFUND_DESCRIPTION_CHARS, PaymentCommand, PaymentConfirmed, PaymentError,
    PaymentEvent, PaymentRecorded, PaymentRefundRefused, PaymentRefundRequested, PaymentRefunded,
    PaymentSource, PaymentVoided, RecordManualPayment, RecordStatementLine, RefundReport,
    RefundStatus, RefuseRefund, ReportPayment, RequestRefund, STREAM_TYPE, TrackRefund,
    UNDONE_IMPORT_REASON, UndoStatementImport, VoidPayment, is_refund_id,
};
use crate::money::Centavos;

/// What a decision needs to know about a payment.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Payment {
    /// The receiving account, once recorded.
    pub account_id: Option<String>,
    /// Who recorded it first; `None` before it is recorded.
    pub source: Option<PaymentSource>,
    /// Whether a bank (or the sandbox) has reported it.
    pub reported_by_bank: bool,
    /// Whether it is voided now.
    pub voided: bool,
    /// The amount as it stands, in centavos.
    pub amount_centavos: u64,
    /// Every refund seen, by id, at its latest status.
    pub refunds: BTreeMap<String, RefundStatus>,
    /// The statement import that recorded it (source `extrato`).
    #[serde(default)]
    pub statement_import: Option<String>,
    /// Voided because its statement import was undone: a line imported again records it anew.
    #[serde(default)]
    pub undone: bool,
    /// The Pix end-to-end id, once known (a statement line may record a payment without one).
    #[serde(default)]
    pub end_to_end_id: Option<String>,
    /// The Pix key it was paid to, in DICT form, when known (which bank connection refunds it).
    #[serde(default)]
    pub pix_key: Option<String>,
    /// Every refund asked for or reported, by id: its amount in centavos.
    #[serde(default)]
    pub refund_amounts: BTreeMap<String, u64>,
    /// The refunds Balcão asked the bank for, by id.
    #[serde(default)]
    pub requested_refunds: BTreeSet<String>,
    /// The refunds the bank refused, by id.
    #[serde(default)]
    pub refused_refunds: BTreeSet<String>,
}

impl Payment {
    fn decide(&self, command: PaymentCommand) -> Result<Vec<PaymentEvent>, PaymentError> {
        match command {
            PaymentCommand::ReportPayment(report) => self.report(report),
            PaymentCommand::RecordManualPayment(record) => self.record_manual(record),
            PaymentCommand::VoidPayment(void) => self.void(void),
            PaymentCommand::RecordStatementLine(line) => self.record_statement_line(line),
            PaymentCommand::UndoStatementImport(undo) => self.undo_import(undo),
            PaymentCommand::RequestRefund(request) => self.request_refund(request),
            PaymentCommand::TrackRefund(track) => self.track_refund(track),
            PaymentCommand::RefuseRefund(refuse) => Ok(self.refuse_refund(refuse)),
        }
    }

    /// What refunds hold of the amount: asked for or reported, less those not carried out or
    /// refused.
    pub fn refunds_held(&self) -> u64 {
        self.refund_amounts
            .iter()
            .filter(|(id, _)| {
                !self.refused_refunds.contains(*id)
                    && self.refunds.get(*id) != Some(&RefundStatus::NaoRealizado)
            })
            .map(|(_, amount)| amount)
            .sum()
    }

    /// What is left to refund, in centavos.
    pub fn refundable(&self) -> u64 {
        self.amount_centavos.saturating_sub(self.refunds_held())
    }

    /// Whether the refund `refund_id` still waits for the bank: asked for by Balcão, neither
    /// refused nor at a final status.
    pub fn refund_pending(&self, refund_id: &str) -> bool {
        self.requested_refunds.contains(refund_id)
            && !self.refused_refunds.contains(refund_id)
            && self
                .refunds
                .get(refund_id)
                .is_none_or(|status| !status.is_final())
    }

    /// Whether the bank has answered about `refund_id` at all (then it has the request).
    pub fn refund_known_to_bank(&self, refund_id: &str) -> bool {
        self.refunds.contains_key(refund_id)
    }

    fn request_refund(&self, request: RequestRefund) -> Result<Vec<PaymentEvent>, PaymentError> {
        match &self.account_id {
            Some(account) if *account == request.account_id => {}
            _ => return Err(PaymentError::NotFound),
        }
        if !is_refund_id(&request.refund_id) {
            return Err(PaymentError::InvalidRefundId);
        }
        // Asked again (a retry of the same request): it is recorded already.
        if self.refund_amounts.contains_key(&request.refund_id) {
            return Ok(Vec::new());
        }
        if !self.reported_by_bank
            || self.end_to_end_id.is_none()
            || self.source == Some(PaymentSource::Sandbox)
        {
            return Err(PaymentError::RefundNeedsBank);
        }
        if request.amount.is_zero() {
            return Err(PaymentError::ZeroAmount);
        }
        let left = self.refundable();
        if left == 0 {
            return Err(PaymentError::FullyRefunded);
        }
        if request.amount.get() > left {
            return Err(PaymentError::RefundOverLeft {
                left: Centavos::new(left).to_string(),
            });
        }
        let description = request
            .description
            .map(|d| d.trim().to_owned())
            .filter(|d| !d.is_empty());
        if description
            .as_ref()
            .is_some_and(|d| d.chars().count() > MAX_REFUND_DESCRIPTION_CHARS)
        {
            return Err(PaymentError::InvalidRefundDescription);
        }
        Ok(vec![PaymentEvent::PaymentRefundRequested(
            PaymentRefundRequested {
                refund_id: request.refund_id,
                amount_centavos: request.amount.get(),
                description,
                requested_by: request.requested_by,
                requested_at: request.requested_at,
            },
        )])
    }

    fn track_refund(&self, track: TrackRefund) -> Result<Vec<PaymentEvent>, PaymentError> {
        match &self.account_id {
            Some(account) if *account == track.account_id => {}
            _ => return Err(PaymentError::NotFound),
        }
        let mut known = self.refunds.clone();
        Ok(self
            .refund_events(
                &mut known,
                vec![track.refund],
                track.source,
                &track.received_at,
            )
            .collect())
    }

    fn refuse_refund(&self, refuse: RefuseRefund) -> Vec<PaymentEvent> {
        // Only a request the bank has not taken: once it reported a status, that status rules.
        if !self.requested_refunds.contains(&refuse.refund_id)
            || self.refused_refunds.contains(&refuse.refund_id)
            || self.refunds.contains_key(&refuse.refund_id)
        {
            return Vec::new();
        }
        vec![PaymentEvent::PaymentRefundRefused(PaymentRefundRefused {
            refund_id: refuse.refund_id,
            reason: refuse.reason,
            refused_at: refuse.refused_at,
        })]
    }

    /// A [`PaymentRefunded`] for each report that is new or moves its refund forward; `known`
    /// follows the statuses as they stand, this decision's included.
    fn refund_events<'a>(
        &'a self,
        known: &'a mut BTreeMap<String, RefundStatus>,
        reports: Vec<RefundReport>,
        source: PaymentSource,
        received_at: &'a str,
    ) -> impl Iterator<Item = PaymentEvent> + 'a {
        reports.into_iter().filter_map(move |refund| {
            if self.refused_refunds.contains(&refund.refund_id) {
                return None;
            }
            let advances = match known.get(&refund.refund_id) {
                None => true,
                Some(status) => !status.is_final() && refund.status.is_final(),
            };
            if !advances {
                return None;
            }
            known.insert(refund.refund_id.clone(), refund.status);
            Some(PaymentEvent::PaymentRefunded(PaymentRefunded {
                refund_id: refund.refund_id,
                rtr_id: refund.rtr_id,
                amount_centavos: refund.amount.get(),
                status: refund.status,
                nature: refund.nature,
                requested_at: refund.requested_at,
                settled_at: refund.settled_at,
                source,
                reported_at: received_at.to_owned(),
                reason: refund.reason,
            }))
        })
    }

    /// A statement line records the payment when its stream has none, or when the import that
    /// recorded it was undone; when the payment exists (the bank or a person recorded the same
    /// end-to-end id first, or an earlier import did), the line is that payment and adds nothing.
    fn record_statement_line(
        &self,
        line: RecordStatementLine,
    ) -> Result<Vec<PaymentEvent>, PaymentError> {
        match &self.account_id {
            Some(account) if *account != line.account_id => return Err(PaymentError::OtherAccount),
            Some(_) if !self.undone => return Ok(Vec::new()),
            _ => {}
        }
        if line.amount.is_zero() {
            return Err(PaymentError::ZeroAmount);
        }
        Ok(vec![PaymentEvent::PaymentRecorded(PaymentRecorded {
            account_id: line.account_id,
            reference: line.reference,
            end_to_end_id: line.end_to_end_id,
            amount_centavos: line.amount.get(),
            paid_at: line.paid_at,
            txid: line.txid,
            qrcode_id: line.qrcode_id,
            payment_link_id: line.payment_link_id,
            pix_key: None,
            source: PaymentSource::Extrato,
            payer_name: None,
            payer_document: None,
            payer_info: None,
            note: None,
            recorded_by: Some(line.recorded_by),
            recorded_at: line.recorded_at,
            statement: Some(Box::new(line.statement)),
        })])
    }

    /// Voids the payment only if import `undo.import_id` recorded it and nothing since made it
    /// the bank's (a bank's report settles that it was paid) or took it back already.
    fn undo_import(&self, undo: UndoStatementImport) -> Result<Vec<PaymentEvent>, PaymentError> {
        if self.account_id.is_none() {
            return Err(PaymentError::NotFound);
        }
        let recorded_by_it = self.source == Some(PaymentSource::Extrato)
            && self.statement_import.as_deref() == Some(undo.import_id.as_str());
        if !recorded_by_it || self.reported_by_bank || self.voided {
            return Ok(Vec::new());
        }
        Ok(vec![PaymentEvent::PaymentVoided(PaymentVoided {
            reason: UNDONE_IMPORT_REASON.to_owned(),
            voided_by: undo.undone_by,
            voided_at: undo.undone_at,
            undone_import: Some(undo.import_id),
        })])
    }

    fn report(&self, report: ReportPayment) -> Result<Vec<PaymentEvent>, PaymentError> {
        let mut events = Vec::new();
        match &self.account_id {
            None => events.push(PaymentEvent::PaymentRecorded(PaymentRecorded {
                account_id: report.account_id.clone(),
                reference: report.end_to_end_id.clone(),
                end_to_end_id: Some(report.end_to_end_id.clone()),
                amount_centavos: report.amount.get(),
                paid_at: report.paid_at.clone(),
                txid: report.txid.clone(),
                qrcode_id: report.qrcode_id.clone(),
                payment_link_id: report.payment_link_id.clone(),
                pix_key: report.pix_key.clone(),
                source: report.source,
                payer_name: report.payer_name.clone(),
                payer_document: report.payer_document.clone(),
                payer_info: report.payer_info.clone(),
                note: None,
                recorded_by: None,
                recorded_at: report.received_at.clone(),
                statement: None,
            })),
            Some(account) if *account != report.account_id => {
                return Err(PaymentError::OtherAccount);
            }
            // Typed in by hand before the bank said so: the bank's word settles it.
            Some(_) if !self.reported_by_bank => {
                events.push(PaymentEvent::PaymentConfirmed(PaymentConfirmed {
                    source: report.source,
                    amount_centavos: report.amount.get(),
                    paid_at: report.paid_at.clone(),
                    txid: report.txid.clone(),
                    qrcode_id: report.qrcode_id.clone(),
                    payment_link_id: report.payment_link_id.clone(),
                    payer_name: report.payer_name.clone(),
                    payer_document: report.payer_document.clone(),
                    payer_info: report.payer_info.clone(),
                    confirmed_at: report.received_at.clone(),
                    // Learnt from the bank when the payment was recorded without it.
                    end_to_end_id: self
                        .end_to_end_id
                        .is_none()
                        .then(|| report.end_to_end_id.clone()),
                }));
            }
            // A bank repeating itself (retries, a later delivery with refunds): nothing new.
            Some(_) => {}
        }
        // Statuses as they stand, including what this very decision records.
        let mut known = self.refunds.clone();
        events.extend(self.refund_events(
            &mut known,
            report.refunds,
            report.source,
            &report.received_at,
        ));
        Ok(events)
    }

    fn record_manual(
        &self,
        record: RecordManualPayment,
    ) -> Result<Vec<PaymentEvent>, PaymentError> {
        if self.account_id.is_some() {
            return Err(PaymentError::AlreadyRecorded);
        }
        if record.amount.is_zero() {
            return Err(PaymentError::ZeroAmount);
        }
        let note = record
            .note
            .map(|n| n.trim().to_owned())
            .filter(|n| !n.is_empty());
        if note
            .as_ref()
            .is_some_and(|n| n.chars().count() > MAX_NOTE_CHARS)
        {
            return Err(PaymentError::InvalidNote);
        }
        Ok(vec![PaymentEvent::PaymentRecorded(PaymentRecorded {
            account_id: record.account_id,
            reference: record.reference,
            end_to_end_id: record.end_to_end_id,
            amount_centavos: record.amount.get(),
            paid_at: record.paid_at,
            txid: record.txid,
            qrcode_id: record.qrcode_id,
            payment_link_id: None,
            pix_key: None,
            source: PaymentSource::Manual,
            payer_name: None,
            payer_document: None,
            payer_info: None,
            note,
            recorded_by: Some(record.recorded_by),
            recorded_at: record.recorded_at,
            statement: None,
        })])
    }

    fn void(&self, void: VoidPayment) -> Result<Vec<PaymentEvent>, PaymentError> {
        if self.account_id.is_none() {
            return Err(PaymentError::NotFound);
        }
        if self.reported_by_bank {
            return Err(PaymentError::NotManual);
        }
        if self.voided {
            return Err(PaymentError::AlreadyVoided);
        }
        let reason = void.reason.trim();
        if reason.is_empty() || reason.chars().count() > MAX_NOTE_CHARS {
            return Err(PaymentError::InvalidReason);
        }
        Ok(vec![PaymentEvent::PaymentVoided(PaymentVoided {
            reason: reason.to_owned(),
            voided_by: void.voided_by,
            voided_at: void.voided_at,
            undone_import: None,
        })])
    }
}

impl Aggregate for Payment {
    const TYPE: &'static str = STREAM_TYPE;
    type Command = PaymentCommand;
    type Event = PaymentEvent;
    type Error = PaymentError;
    type Services = ();

    async fn handle(
        &mut self,
        command: Self::Command,
        _services: &Self::Services,
        sink: &EventSink<Self>,
    ) -> Result<(), Self::Error> {
        for event in self.decide(command)? {
            sink.write(event, self).await;
        }
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        match event {
            PaymentEvent::PaymentRecorded(recorded) => {
                self.account_id = Some(recorded.account_id);
                self.source = Some(recorded.source);
                self.reported_by_bank = recorded.source.is_bank();
                self.amount_centavos = recorded.amount_centavos;
                self.statement_import = recorded.statement.map(|s| s.import_id);
                self.end_to_end_id = recorded.end_to_end_id;
                self.pix_key = recorded.pix_key;
                // Recorded again after its import was undone.
                self.voided = false;
                self.undone = false;
            }
            PaymentEvent::PaymentConfirmed(confirmed) => {
                self.reported_by_bank = true;
                self.voided = false;
                self.undone = false;
                self.amount_centavos = confirmed.amount_centavos;
                if confirmed.end_to_end_id.is_some() {
                    self.end_to_end_id = confirmed.end_to_end_id;
                }
            }
            PaymentEvent::PaymentRefunded(refunded) => {
                self.refund_amounts
                    .insert(refunded.refund_id.clone(), refunded.amount_centavos);
                self.refunds.insert(refunded.refund_id, refunded.status);
            }
            PaymentEvent::PaymentRefundRequested(requested) => {
                self.refund_amounts
                    .insert(requested.refund_id.clone(), requested.amount_centavos);
                self.requested_refunds.insert(requested.refund_id);
            }
            PaymentEvent::PaymentRefundRefused(refused) => {
                self.refused_refunds.insert(refused.refund_id);
            }
            PaymentEvent::PaymentVoided(voided) => {
                self.voided = true;
                self.undone = voided.undone_import.is_some();
            }
        }
    }
}

impl Payment {
    /// Decides `command` on this state without an event sink (what the batch receiver uses to
    /// decide many streams inside one transaction).
    ///
    /// # Errors
    ///
    /// As the aggregate refuses.
    pub fn decide_now(&self, command: PaymentCommand) -> Result<Vec<PaymentEvent>, PaymentError> {
        self.decide(command)
    }
}

#[cfg(test)]
mod tests {
    use cqrs_es::test::TestFramework;

    use super::*;
    use crate::money::Centavos;
    use crate::payment::RefundReport;
    use crate::sealed::Sealed;

    type PaymentTest = TestFramework<Payment>;

    const ACCOUNT: &str = "0190f1a2-0000-7000-8000-00000000000a";
    const OTHER: &str = "0190f1a2-0000-7000-8000-00000000000b";
    const E2E: &str = "E12345678202009091221kkkkkkkkkkk";
    const PERSON: &str = "0190f1a2-0000-7000-8000-00000000000c";

    fn refund(status: RefundStatus) -> RefundReport {
        RefundReport {
            refund_id: "123ABC".to_owned(),
            rtr_id: "D12345678202009091221abcdf098765".to_owned(),
            amount: Centavos::new(1_000),
            status,
            nature: None,
            requested_at: Some("2020-09-09T20:15:00.358Z".to_owned()),
            settled_at: None,
            reason: None,
        }
    }

    fn report(source: PaymentSource, refunds: Vec<RefundReport>) -> ReportPayment {
        ReportPayment {
            account_id: ACCOUNT.to_owned(),
            end_to_end_id: E2E.to_owned(),
            amount: Centavos::new(11_000),
            paid_at: "2020-09-09T20:15:00.358Z".to_owned(),
            txid: Some("c3e0e7a4e7f1469a9f782d3d4999343c".to_owned()),
            qrcode_id: Some("0a6b5c1e-6a1f-4c55-9d0e-2d3a4b5c6d7e".to_owned()),
            payment_link_id: None,
            pix_key: Some("loja@example.com".to_owned()),
            source,
            payer_name: Some(Sealed::from_text("v1.nome")),
            payer_document: None,
            payer_info: Some(Sealed::from_text("v1.info")),
            refunds,
            received_at: "2020-09-09T20:15:01Z".to_owned(),
        }
    }

    fn manual(amount: u64) -> RecordManualPayment {
        RecordManualPayment {
            account_id: ACCOUNT.to_owned(),
            reference: E2E.to_owned(),
            end_to_end_id: Some(E2E.to_owned()),
            amount: Centavos::new(amount),
            paid_at: "2020-09-09T20:10:00Z".to_owned(),
            qrcode_id: None,
            txid: None,
            note: Some("  pago no balcão ".to_owned()),
            recorded_by: PERSON.to_owned(),
            recorded_at: "2020-09-09T20:11:00Z".to_owned(),
        }
    }

    fn void(reason: &str) -> VoidPayment {
        VoidPayment {
            reason: reason.to_owned(),
            voided_by: PERSON.to_owned(),
            voided_at: "2020-09-09T21:00:00Z".to_owned(),
        }
    }

    /// Every event `commands` decide when applied one after another, from nothing.
    fn run(commands: Vec<PaymentCommand>) -> (Payment, Vec<PaymentEvent>) {
        let mut state = Payment::default();
        let mut all = Vec::new();
        for command in commands {
            if let Ok(events) = state.decide_now(command) {
                for event in events {
                    state.apply(event.clone());
                    all.push(event);
                }
            }
        }
        (state, all)
    }

    fn recorded(events: &[PaymentEvent]) -> usize {
        events
            .iter()
            .filter(|e| matches!(e, PaymentEvent::PaymentRecorded(_)))
            .count()
    }

    #[test]
    fn the_first_bank_report_records_the_payment_with_its_sealed_payer() {
        let events = PaymentTest::with(())
            .given_no_previous_events()
            .when(PaymentCommand::ReportPayment(report(
                PaymentSource::ApiPix,
                vec![],
            )))
            .inspect_result()
            .expect("recorded");
        let [PaymentEvent::PaymentRecorded(recorded)] = events.as_slice() else {
            panic!("one PaymentRecorded, got {events:?}");
        };
        assert_eq!(recorded.amount_centavos, 11_000);
        assert_eq!(recorded.source, PaymentSource::ApiPix);
        assert_eq!(recorded.reference, E2E);
        assert_eq!(recorded.payer_name, Some(Sealed::from_text("v1.nome")));
        let json = serde_json::to_value(&events[0]).expect("serialisable");
        assert_eq!(json["type"], "PaymentRecorded");
        assert_eq!(json["source"], "api-pix");
    }

    #[test]
    fn the_same_report_delivered_again_records_nothing() {
        let first = run(vec![PaymentCommand::ReportPayment(report(
            PaymentSource::ApiPix,
            vec![],
        ))])
        .1;
        PaymentTest::with(())
            .given(first)
            .when(PaymentCommand::ReportPayment(report(
                PaymentSource::ApiPix,
                vec![],
            )))
            .then_expect_events(vec![]);
    }

    #[test]
    fn a_refund_delivered_before_its_payment_ends_exactly_as_in_order() {
        // In order: the payment, then the payment again carrying its refund, then the refund settled.
        let in_order = run(vec![
            PaymentCommand::ReportPayment(report(PaymentSource::ApiPix, vec![])),
            PaymentCommand::ReportPayment(report(
                PaymentSource::ApiPix,
                vec![refund(RefundStatus::EmProcessamento)],
            )),
            PaymentCommand::ReportPayment(report(
                PaymentSource::ApiPix,
                vec![refund(RefundStatus::Devolvido)],
            )),
        ]);
        // Out of order: the settled refund first, then the older deliveries.
        let reversed = run(vec![
            PaymentCommand::ReportPayment(report(
                PaymentSource::ApiPix,
                vec![refund(RefundStatus::Devolvido)],
            )),
            PaymentCommand::ReportPayment(report(
                PaymentSource::ApiPix,
                vec![refund(RefundStatus::EmProcessamento)],
            )),
            PaymentCommand::ReportPayment(report(PaymentSource::ApiPix, vec![])),
        ]);
        assert_eq!(reversed.0, in_order.0, "same state whatever the order");
        assert_eq!(recorded(&reversed.1), 1);
        assert_eq!(
            reversed.0.refunds.get("123ABC"),
            Some(&RefundStatus::Devolvido),
            "a final status never goes back"
        );
        // The refund that came first is recorded with the payment, right after it.
        let PaymentEvent::PaymentRefunded(first_refund) = &reversed.1[1] else {
            panic!("the refund follows the payment: {:?}", reversed.1);
        };
        assert_eq!(first_refund.status, RefundStatus::Devolvido);
        assert_eq!(first_refund.amount_centavos, 1_000);
        assert_eq!(reversed.1.len(), 2, "nothing after: {:?}", reversed.1);
    }

    #[test]
    fn a_refund_still_in_processing_is_recorded_again_when_it_settles_and_never_after() {
        let given = run(vec![PaymentCommand::ReportPayment(report(
            PaymentSource::ApiPix,
            vec![refund(RefundStatus::EmProcessamento)],
        ))])
        .1;
        let events = PaymentTest::with(())
            .given(given.clone())
            .when(PaymentCommand::ReportPayment(report(
                PaymentSource::ApiPix,
                vec![refund(RefundStatus::NaoRealizado)],
            )))
            .inspect_result()
            .expect("accepted");
        assert!(
            matches!(events.as_slice(), [PaymentEvent::PaymentRefunded(r)] if r.status == RefundStatus::NaoRealizado),
            "{events:?}"
        );
        let mut settled = given;
        settled.extend(events);
        PaymentTest::with(())
            .given(settled)
            .when(PaymentCommand::ReportPayment(report(
                PaymentSource::ApiPix,
                vec![refund(RefundStatus::Devolvido)],
            )))
            .then_expect_events(vec![]);
    }

    #[test]
    fn a_payment_reported_by_the_bank_and_typed_in_by_hand_is_one_payment_whatever_the_order() {
        // Typed in first, then the bank: the bank confirms it, with the bank's amount.
        let (typed_first, events) = run(vec![
            PaymentCommand::RecordManualPayment(manual(10_000)),
            PaymentCommand::ReportPayment(report(PaymentSource::ApiPix, vec![])),
        ]);
        assert_eq!(recorded(&events), 1);
        assert!(
            matches!(events[1], PaymentEvent::PaymentConfirmed(_)),
            "{events:?}"
        );
        assert!(typed_first.reported_by_bank);
        assert_eq!(
            typed_first.amount_centavos, 11_000,
            "the bank's amount stands"
        );
        // The bank first: typing it in afterwards is refused, and it stays the bank's.
        PaymentTest::with(())
            .given(
                run(vec![PaymentCommand::ReportPayment(report(
                    PaymentSource::ApiPix,
                    vec![],
                ))])
                .1,
            )
            .when(PaymentCommand::RecordManualPayment(manual(10_000)))
            .then_expect_error(PaymentError::AlreadyRecorded);
    }

    #[test]
    fn a_sandbox_report_after_a_bank_report_of_the_same_payment_adds_nothing() {
        let (state, events) = run(vec![
            PaymentCommand::ReportPayment(report(PaymentSource::ApiPix, vec![])),
            PaymentCommand::ReportPayment(report(PaymentSource::Sandbox, vec![])),
        ]);
        assert_eq!(events.len(), 1);
        assert_eq!(state.source, Some(PaymentSource::ApiPix));
    }

    #[test]
    fn a_report_for_another_account_is_refused() {
        let mut other = report(PaymentSource::ApiPix, vec![]);
        other.account_id = OTHER.to_owned();
        PaymentTest::with(())
            .given(
                run(vec![PaymentCommand::ReportPayment(report(
                    PaymentSource::ApiPix,
                    vec![],
                ))])
                .1,
            )
            .when(PaymentCommand::ReportPayment(other))
            .then_expect_error(PaymentError::OtherAccount);
    }

    #[test]
    fn a_payment_typed_in_by_hand_is_recorded_with_its_trimmed_note_and_who_typed_it() {
        let events = PaymentTest::with(())
            .given_no_previous_events()
            .when(PaymentCommand::RecordManualPayment(manual(2_500)))
            .inspect_result()
            .expect("recorded");
        let [PaymentEvent::PaymentRecorded(recorded)] = events.as_slice() else {
            panic!("{events:?}");
        };
        assert_eq!(recorded.source, PaymentSource::Manual);
        assert_eq!(recorded.note.as_deref(), Some("pago no balcão"));
        assert_eq!(recorded.recorded_by.as_deref(), Some(PERSON));
    }

    #[test]
    fn a_payment_of_zero_cannot_be_typed_in() {
        PaymentTest::with(())
            .given_no_previous_events()
            .when(PaymentCommand::RecordManualPayment(manual(0)))
            .then_expect_error(PaymentError::ZeroAmount);
    }

    #[test]
    fn a_payment_typed_in_by_hand_is_voided_once_with_its_reason() {
        let given = run(vec![PaymentCommand::RecordManualPayment(manual(2_500))]).1;
        PaymentTest::with(())
            .given(given.clone())
            .when(PaymentCommand::VoidPayment(void(" digitado errado ")))
            .then_expect_events(vec![PaymentEvent::PaymentVoided(PaymentVoided {
                reason: "digitado errado".to_owned(),
                voided_by: PERSON.to_owned(),
                voided_at: "2020-09-09T21:00:00Z".to_owned(),
                undone_import: None,
            })]);
        let (_, voided) = run(vec![
            PaymentCommand::RecordManualPayment(manual(2_500)),
            PaymentCommand::VoidPayment(void("digitado errado")),
        ]);
        PaymentTest::with(())
            .given(voided)
            .when(PaymentCommand::VoidPayment(void("de novo")))
            .then_expect_error(PaymentError::AlreadyVoided);
    }

    #[test]
    fn a_void_needs_a_reason() {
        PaymentTest::with(())
            .given(run(vec![PaymentCommand::RecordManualPayment(manual(2_500))]).1)
            .when(PaymentCommand::VoidPayment(void("   ")))
            .then_expect_error(PaymentError::InvalidReason);
    }

    #[test]
    fn a_payment_the_bank_reported_cannot_be_voided() {
        PaymentTest::with(())
            .given(
                run(vec![PaymentCommand::ReportPayment(report(
                    PaymentSource::ApiPix,
                    vec![],
                ))])
                .1,
            )
            .when(PaymentCommand::VoidPayment(void("não reconheço")))
            .then_expect_error(PaymentError::NotManual);
    }

    #[test]
    fn a_voided_payment_the_bank_then_reports_counts_again_and_cannot_be_voided() {
        let (state, _) = run(vec![
            PaymentCommand::RecordManualPayment(manual(2_500)),
            PaymentCommand::VoidPayment(void("digitado errado")),
            PaymentCommand::ReportPayment(report(PaymentSource::ApiPix, vec![])),
        ]);
        assert!(!state.voided);
        assert!(state.reported_by_bank);
        assert_eq!(
            state.decide_now(PaymentCommand::VoidPayment(void("de novo"))),
            Err(PaymentError::NotManual)
        );
    }

    #[test]
    fn voiding_a_payment_that_does_not_exist_is_not_found() {
        PaymentTest::with(())
            .given_no_previous_events()
            .when(PaymentCommand::VoidPayment(void("x")))
            .then_expect_error(PaymentError::NotFound);
    }

    fn statement_line(amount: u64) -> RecordStatementLine {
        RecordStatementLine {
            account_id: ACCOUNT.to_owned(),
            reference: E2E.to_owned(),
            end_to_end_id: Some(E2E.to_owned()),
            amount: Centavos::new(amount),
            paid_at: "2020-09-09T20:15:00-03:00".to_owned(),
            txid: None,
            qrcode_id: None,
            payment_link_id: None,
            statement: crate::payment::StatementOrigin {
                import_id: "import-1".to_owned(),
                file_name: "extrato.ofx".to_owned(),
                line_key: "fitid:A1".to_owned(),
                line: 7,
            },
            recorded_by: PERSON.to_owned(),
            recorded_at: "2020-09-10T12:00:00Z".to_owned(),
        }
    }

    #[test]
    fn a_statement_line_records_a_payment_from_the_extrato_with_its_origin() {
        let (state, events) = run(vec![PaymentCommand::RecordStatementLine(statement_line(
            11_000,
        ))]);
        let [PaymentEvent::PaymentRecorded(recorded)] = events.as_slice() else {
            panic!("one PaymentRecorded, got {events:?}");
        };
        assert_eq!(recorded.source, PaymentSource::Extrato);
        assert_eq!(
            recorded.statement.as_ref().map(|s| s.line_key.as_str()),
            Some("fitid:A1")
        );
        assert!(!state.reported_by_bank);
    }

    #[test]
    fn a_statement_line_of_a_payment_already_recorded_adds_nothing() {
        let (_, events) = run(vec![
            PaymentCommand::ReportPayment(report(PaymentSource::ApiPix, vec![])),
            PaymentCommand::RecordStatementLine(statement_line(11_000)),
            PaymentCommand::RecordStatementLine(statement_line(11_000)),
        ]);
        assert_eq!(events.len(), 1, "{events:?}");
        assert_eq!(recorded(&events), 1);
    }

    #[test]
    fn the_banks_report_of_a_payment_recorded_from_a_statement_confirms_it() {
        let (state, events) = run(vec![
            PaymentCommand::RecordStatementLine(statement_line(11_000)),
            PaymentCommand::ReportPayment(report(PaymentSource::ApiPix, vec![])),
        ]);
        assert!(matches!(events[1], PaymentEvent::PaymentConfirmed(_)));
        assert!(state.reported_by_bank);
    }

    #[test]
    fn the_banks_report_of_a_statement_payment_without_an_end_to_end_id_names_it() {
        let line = RecordStatementLine {
            reference: "extrato-0123456789abcdef0123456789abcdef".to_owned(),
            end_to_end_id: None,
            ..statement_line(11_000)
        };
        let (state, events) = run(vec![
            PaymentCommand::RecordStatementLine(line),
            PaymentCommand::ReportPayment(report(PaymentSource::ApiPix, vec![])),
        ]);
        let PaymentEvent::PaymentConfirmed(confirmed) = &events[1] else {
            panic!("confirmed: {events:?}");
        };
        assert_eq!(confirmed.end_to_end_id.as_deref(), Some(E2E));
        assert_eq!(state.end_to_end_id.as_deref(), Some(E2E));
        // A payment that had its id already is confirmed without repeating it.
        let (_, events) = run(vec![
            PaymentCommand::RecordStatementLine(statement_line(11_000)),
            PaymentCommand::ReportPayment(report(PaymentSource::ApiPix, vec![])),
        ]);
        let PaymentEvent::PaymentConfirmed(confirmed) = &events[1] else {
            panic!("confirmed: {events:?}");
        };
        assert_eq!(confirmed.end_to_end_id, None);
    }

    fn undo(import_id: &str) -> PaymentCommand {
        PaymentCommand::UndoStatementImport(crate::payment::UndoStatementImport {
            import_id: import_id.to_owned(),
            undone_by: PERSON.to_owned(),
            undone_at: "2020-09-11T12:00:00Z".to_owned(),
        })
    }

    #[test]
    fn undoing_the_import_that_recorded_a_payment_voids_it_as_an_undone_import() {
        PaymentTest::with(())
            .given(
                run(vec![PaymentCommand::RecordStatementLine(statement_line(
                    11_000,
                ))])
                .1,
            )
            .when(undo("import-1"))
            .then_expect_events(vec![PaymentEvent::PaymentVoided(PaymentVoided {
                reason: UNDONE_IMPORT_REASON.to_owned(),
                voided_by: PERSON.to_owned(),
                voided_at: "2020-09-11T12:00:00Z".to_owned(),
                undone_import: Some("import-1".to_owned()),
            })]);
    }

    #[test]
    fn undoing_an_import_leaves_what_it_did_not_record_or_a_bank_confirmed() {
        // Another import's payment.
        let (_, given) = run(vec![PaymentCommand::RecordStatementLine(statement_line(
            11_000,
        ))]);
        PaymentTest::with(())
            .given(given)
            .when(undo("import-2"))
            .then_expect_events(vec![]);
        // The bank's payment the line was linked to.
        let (_, given) = run(vec![PaymentCommand::ReportPayment(report(
            PaymentSource::ApiPix,
            vec![],
        ))]);
        PaymentTest::with(())
            .given(given)
            .when(undo("import-1"))
            .then_expect_events(vec![]);
        // Recorded by the import, then confirmed by the bank: it was paid.
        let (_, given) = run(vec![
            PaymentCommand::RecordStatementLine(statement_line(11_000)),
            PaymentCommand::ReportPayment(report(PaymentSource::ApiPix, vec![])),
        ]);
        PaymentTest::with(())
            .given(given)
            .when(undo("import-1"))
            .then_expect_events(vec![]);
        // Undone twice: once.
        let (_, given) = run(vec![
            PaymentCommand::RecordStatementLine(statement_line(11_000)),
            undo("import-1"),
        ]);
        PaymentTest::with(())
            .given(given)
            .when(undo("import-1"))
            .then_expect_events(vec![]);
    }

    #[test]
    fn a_line_imported_again_after_its_import_was_undone_records_the_payment_again() {
        let mut again = statement_line(11_000);
        again.statement.import_id = "import-2".to_owned();
        let (state, events) = run(vec![
            PaymentCommand::RecordStatementLine(statement_line(11_000)),
            undo("import-1"),
            PaymentCommand::RecordStatementLine(again),
        ]);
        assert_eq!(recorded(&events), 2, "{events:?}");
        assert!(!state.voided && !state.undone);
        assert_eq!(state.statement_import.as_deref(), Some("import-2"));
    }

    #[test]
    fn a_statement_line_does_not_bring_back_a_payment_voided_by_hand() {
        let (state, events) = run(vec![
            PaymentCommand::RecordStatementLine(statement_line(11_000)),
            PaymentCommand::VoidPayment(void("não era venda")),
            PaymentCommand::RecordStatementLine(statement_line(11_000)),
        ]);
        assert_eq!(recorded(&events), 1, "{events:?}");
        assert!(state.voided);
    }

    #[test]
    fn a_statement_line_of_zero_is_refused() {
        PaymentTest::with(())
            .given_no_previous_events()
            .when(PaymentCommand::RecordStatementLine(statement_line(0)))
            .then_expect_error(PaymentError::ZeroAmount);
    }

    #[test]
    fn a_payment_recorded_before_statements_existed_reads_without_one() {
        let (_, mut events) = run(vec![PaymentCommand::RecordStatementLine(statement_line(1))]);
        let PaymentEvent::PaymentRecorded(mut recorded) = events.remove(0) else {
            panic!("a PaymentRecorded first");
        };
        recorded.statement = None;
        let mut json =
            serde_json::to_value(PaymentEvent::PaymentRecorded(recorded)).expect("serialises");
        assert!(json.get("statement").is_none(), "None is left out: {json}");
        json["source"] = "api-pix".into();
        let read: PaymentEvent = serde_json::from_value(json).expect("reads");
        let PaymentEvent::PaymentRecorded(read) = read else {
            panic!("{read:?}")
        };
        assert_eq!(read.statement, None);
    }

    fn ask(id: &str, amount: u64) -> PaymentCommand {
        PaymentCommand::RequestRefund(RequestRefund {
            account_id: ACCOUNT.to_owned(),
            refund_id: id.to_owned(),
            amount: Centavos::new(amount),
            description: Some("  Produto devolvido ".to_owned()),
            requested_by: PERSON.to_owned(),
            requested_at: "2020-09-10T10:00:00Z".to_owned(),
        })
    }

    fn bank_says(id: &str, amount: u64, status: RefundStatus) -> PaymentCommand {
        PaymentCommand::TrackRefund(TrackRefund {
            account_id: ACCOUNT.to_owned(),
            refund: RefundReport {
                refund_id: id.to_owned(),
                amount: Centavos::new(amount),
                status,
                ..refund(status)
            },
            source: PaymentSource::ApiPixConsulta,
            received_at: "2020-09-10T10:00:01Z".to_owned(),
        })
    }

    fn refused(id: &str) -> PaymentCommand {
        PaymentCommand::RefuseRefund(RefuseRefund {
            refund_id: id.to_owned(),
            reason: "O banco recusou o pedido: saldo insuficiente".to_owned(),
            refused_at: "2020-09-10T10:00:02Z".to_owned(),
        })
    }

    fn bank_payment() -> PaymentCommand {
        PaymentCommand::ReportPayment(report(PaymentSource::ApiPix, vec![]))
    }

    #[test]
    fn a_refund_of_a_bank_payment_is_requested_with_its_trimmed_description() {
        let (state, _) = run(vec![bank_payment()]);
        let events = state.decide_now(ask("D1", 4_000)).expect("requested");
        let [PaymentEvent::PaymentRefundRequested(requested)] = events.as_slice() else {
            panic!("one PaymentRefundRequested, got {events:?}");
        };
        assert_eq!(requested.amount_centavos, 4_000);
        assert_eq!(requested.description.as_deref(), Some("Produto devolvido"));
        assert_eq!(requested.requested_by, PERSON);
    }

    #[test]
    fn refunds_asked_for_never_pass_the_payment_and_the_refusal_names_what_is_left() {
        let (state, events) = run(vec![bank_payment(), ask("D1", 6_000), ask("D2", 5_000)]);
        assert_eq!(events.len(), 3, "{events:?}");
        assert_eq!(state.refundable(), 0);
        assert_eq!(
            state.decide_now(ask("D3", 1)),
            Err(PaymentError::FullyRefunded)
        );
        let (state, _) = run(vec![bank_payment(), ask("D1", 6_000)]);
        assert_eq!(
            state.decide_now(ask("D2", 5_001)),
            Err(PaymentError::RefundOverLeft {
                left: "R$ 50,00".to_owned()
            })
        );
    }

    #[test]
    fn a_refund_the_bank_refused_or_did_not_carry_out_frees_its_amount() {
        let (state, events) = run(vec![bank_payment(), ask("D1", 11_000), refused("D1")]);
        assert!(matches!(
            events.last(),
            Some(PaymentEvent::PaymentRefundRefused(r)) if r.refund_id == "D1"
        ));
        assert_eq!(state.refundable(), 11_000);
        assert!(!state.refund_pending("D1"));
        let (state, _) = run(vec![
            bank_payment(),
            ask("D1", 11_000),
            bank_says("D1", 11_000, RefundStatus::NaoRealizado),
        ]);
        assert_eq!(state.refundable(), 11_000);
    }

    #[test]
    fn the_same_refund_asked_twice_is_recorded_once() {
        let (_, events) = run(vec![bank_payment(), ask("D1", 1_000), ask("D1", 1_000)]);
        assert_eq!(events.len(), 2, "{events:?}");
    }

    #[test]
    fn a_requested_refund_follows_the_banks_statuses_forward_only() {
        let (state, events) = run(vec![
            bank_payment(),
            ask("D1", 1_000),
            bank_says("D1", 1_000, RefundStatus::EmProcessamento),
            bank_says("D1", 1_000, RefundStatus::EmProcessamento),
            bank_says("D1", 1_000, RefundStatus::Devolvido),
            bank_says("D1", 1_000, RefundStatus::NaoRealizado),
        ]);
        let statuses: Vec<RefundStatus> = events
            .iter()
            .filter_map(|e| match e {
                PaymentEvent::PaymentRefunded(r) => Some(r.status),
                _ => None,
            })
            .collect();
        assert_eq!(
            statuses,
            [RefundStatus::EmProcessamento, RefundStatus::Devolvido]
        );
        assert!(!state.refund_pending("D1"));
        assert_eq!(state.refundable(), 10_000);
    }

    #[test]
    fn once_the_bank_has_reported_a_refund_a_late_refusal_changes_nothing() {
        let (_, events) = run(vec![
            bank_payment(),
            ask("D1", 1_000),
            bank_says("D1", 1_000, RefundStatus::EmProcessamento),
            refused("D1"),
        ]);
        assert!(
            !events
                .iter()
                .any(|e| matches!(e, PaymentEvent::PaymentRefundRefused(_))),
            "{events:?}"
        );
    }

    #[test]
    fn only_a_payment_a_bank_reported_can_be_refunded_through_it() {
        let (typed, _) = run(vec![PaymentCommand::RecordManualPayment(manual(5_000))]);
        assert_eq!(
            typed.decide_now(ask("D1", 100)),
            Err(PaymentError::RefundNeedsBank)
        );
        let (simulated, _) = run(vec![PaymentCommand::ReportPayment(report(
            PaymentSource::Sandbox,
            vec![],
        ))]);
        assert_eq!(
            simulated.decide_now(ask("D1", 100)),
            Err(PaymentError::RefundNeedsBank)
        );
        assert_eq!(
            Payment::default().decide_now(ask("D1", 100)),
            Err(PaymentError::NotFound)
        );
    }

    #[test]
    fn a_refund_of_zero_a_long_description_or_a_bad_id_is_refused() {
        let (state, _) = run(vec![bank_payment()]);
        assert_eq!(
            state.decide_now(ask("D1", 0)),
            Err(PaymentError::ZeroAmount)
        );
        assert_eq!(
            state.decide_now(ask("D-1", 100)),
            Err(PaymentError::InvalidRefundId)
        );
        let long = PaymentCommand::RequestRefund(RequestRefund {
            description: Some("x".repeat(141)),
            ..match ask("D1", 100) {
                PaymentCommand::RequestRefund(r) => r,
                _ => unreachable!(),
            }
        });
        assert_eq!(
            state.decide_now(long),
            Err(PaymentError::InvalidRefundDescription)
        );
    }

    #[test]
    fn a_refund_the_bank_reported_by_webhook_counts_against_what_is_left() {
        let (state, _) = run(vec![PaymentCommand::ReportPayment(report(
            PaymentSource::ApiPix,
            vec![refund(RefundStatus::Devolvido)],
        ))]);
        assert_eq!(state.refundable(), 10_000);
    }
}
