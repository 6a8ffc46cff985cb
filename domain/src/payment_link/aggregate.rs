//! The payment-link aggregate: `handle` only decides, `apply` only folds.

use chrono::{DateTime, Utc};
use cqrs_es::Aggregate;
use cqrs_es::event_sink::EventSink;
use serde::{Deserialize, Serialize};

use super::{
    CreatePaymentLink, PaymentLinkCommand, PaymentLinkCreated, PaymentLinkError, PaymentLinkEvent,
    PaymentLinkRevoked, STREAM_TYPE,
};
use crate::brcode::make_static;
use crate::pix_key::PixKeyKind;

/// What a decision needs to know of a link.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaymentLink {
    /// The link's id, once created.
    pub link_id: Option<String>,
    /// When it stops taking payments, RFC 3339.
    pub expires_at: Option<String>,
    /// Whether it was revoked.
    pub revoked: bool,
}

/// Whether a link takes payments at a given moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkStatus {
    /// It takes payments.
    Active,
    /// Its expiry has passed.
    Expired,
    /// Its owner revoked it.
    Revoked,
}

/// Reads an RFC 3339 instant; `None` when it is not one.
fn instant(text: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(text)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

impl LinkStatus {
    /// The status of a link revoked or not, expiring at `expires_at` (RFC 3339), at `now`.
    /// Revocation wins over expiry; an unreadable expiry counts as passed (a page must never
    /// take payments for a link it cannot judge).
    pub fn at(revoked: bool, expires_at: Option<&str>, now: DateTime<Utc>) -> LinkStatus {
        if revoked {
            return LinkStatus::Revoked;
        }
        match expires_at {
            None => LinkStatus::Active,
            Some(text) => match instant(text) {
                Some(expiry) if now < expiry => LinkStatus::Active,
                _ => LinkStatus::Expired,
            },
        }
    }
}

impl PaymentLink {
    /// Whether the link takes payments at `now`.
    pub fn status_at(&self, now: DateTime<Utc>) -> LinkStatus {
        LinkStatus::at(self.revoked, self.expires_at.as_deref(), now)
    }

    fn decide(
        &self,
        command: PaymentLinkCommand,
    ) -> Result<Vec<PaymentLinkEvent>, PaymentLinkError> {
        match command {
            PaymentLinkCommand::CreatePaymentLink(create) => {
                Ok(vec![PaymentLinkEvent::PaymentLinkCreated(
                    self.create(create)?,
                )])
            }
            PaymentLinkCommand::RevokePaymentLink(revoke) => {
                let Some(link_id) = &self.link_id else {
                    return Err(PaymentLinkError::NotFound);
                };
                if self.revoked {
                    return Err(PaymentLinkError::AlreadyRevoked);
                }
                Ok(vec![PaymentLinkEvent::PaymentLinkRevoked(
                    PaymentLinkRevoked {
                        link_id: link_id.clone(),
                        revoked_by: revoke.revoked_by,
                        at: revoke.requested_at,
                    },
                )])
            }
        }
    }

    fn create(&self, create: CreatePaymentLink) -> Result<PaymentLinkCreated, PaymentLinkError> {
        if self.link_id.is_some() {
            return Err(PaymentLinkError::AlreadyCreated);
        }
        let made = make_static(&create.request).map_err(PaymentLinkError::Invalid)?;
        let Some(amount) = made.amount else {
            return Err(PaymentLinkError::AmountRequired);
        };
        if let Some(expiry) = &create.expires_at {
            let passed = match (instant(expiry), instant(&create.requested_at)) {
                (Some(expiry), Some(now)) => expiry <= now,
                _ => true,
            };
            if passed {
                return Err(PaymentLinkError::ExpiryInThePast);
            }
        }
        Ok(PaymentLinkCreated {
            link_id: create.link_id,
            owner_id: create.owner_id,
            created_by: create.created_by,
            key_kind: key_kind_name(create.request.key.kind()).to_owned(),
            pix_key: create.request.key.as_str().to_owned(),
            merchant_name: made.merchant_name,
            merchant_city: made.merchant_city,
            amount_centavos: amount.get(),
            description: made.additional_info,
            txid: made.txid,
            payload: made.payload,
            expires_at: create.expires_at,
            created_at: create.requested_at,
        })
    }
}

/// The key kind as read models store it (the QR-code aggregate's spelling).
fn key_kind_name(kind: PixKeyKind) -> &'static str {
    match kind {
        PixKeyKind::Cpf => "cpf",
        PixKeyKind::Cnpj => "cnpj",
        PixKeyKind::Email => "email",
        PixKeyKind::Phone => "phone",
        PixKeyKind::Evp => "evp",
    }
}

impl Aggregate for PaymentLink {
    const TYPE: &'static str = STREAM_TYPE;
    type Command = PaymentLinkCommand;
    type Event = PaymentLinkEvent;
    type Error = PaymentLinkError;
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
            PaymentLinkEvent::PaymentLinkCreated(created) => {
                self.link_id = Some(created.link_id);
                self.expires_at = created.expires_at;
            }
            PaymentLinkEvent::PaymentLinkRevoked(_) => self.revoked = true,
        }
    }
}

#[cfg(test)]
mod tests {
    use cqrs_es::test::TestFramework;

    use super::*;
    use crate::brcode::{StaticCodeRequest, validate_strict};
    use crate::money::Centavos;
    use crate::payment_link::RevokePaymentLink;
    use crate::pix_key::PixKey;

    type LinkTest = TestFramework<PaymentLink>;

    const NOW: &str = "2026-11-21T10:00:00Z";

    fn create(amount: Option<u64>, expires_at: Option<&str>) -> PaymentLinkCommand {
        let key = PixKey::detect("loja@example.com").expect("a valid e-mail key");
        let mut request = StaticCodeRequest::new(key, "Padaria São João", "Natal");
        request.amount = amount.map(Centavos::new);
        request.additional_info = Some("Bolo de aniversário".to_owned());
        request.txid = Some("LINK0A6B5C1E".to_owned());
        PaymentLinkCommand::CreatePaymentLink(CreatePaymentLink {
            link_id: "0a6b5c1e-6a1f-4c55-9d0e-2d3a4b5c6d7e".to_owned(),
            owner_id: "0190f1a2-0000-7000-8000-00000000000a".to_owned(),
            created_by: "0190f1a2-0000-7000-8000-00000000000b".to_owned(),
            request,
            expires_at: expires_at.map(str::to_owned),
            requested_at: NOW.to_owned(),
        })
    }

    fn history(expires_at: Option<&str>) -> Vec<PaymentLinkEvent> {
        LinkTest::with(())
            .given_no_previous_events()
            .when(create(Some(4590), expires_at))
            .inspect_result()
            .expect("the link is made")
    }

    fn revoke() -> PaymentLinkCommand {
        PaymentLinkCommand::RevokePaymentLink(RevokePaymentLink {
            revoked_by: "0190f1a2-0000-7000-8000-00000000000b".to_owned(),
            requested_at: "2026-11-21T12:00:00Z".to_owned(),
        })
    }

    fn at(text: &str) -> DateTime<Utc> {
        instant(text).expect("an instant")
    }

    fn folded(events: Vec<PaymentLinkEvent>) -> PaymentLink {
        let mut link = PaymentLink::default();
        for event in events {
            link.apply(event);
        }
        link
    }

    #[test]
    fn a_link_carries_a_strictly_valid_code_with_its_amount_and_txid() {
        let events = history(None);
        let [PaymentLinkEvent::PaymentLinkCreated(created)] = events.as_slice() else {
            panic!("one PaymentLinkCreated, got {events:?}");
        };
        assert_eq!(created.amount_centavos, 4590);
        assert_eq!(created.merchant_name, "PADARIA SAO JOAO");
        assert_eq!(created.txid, "LINK0A6B5C1E");
        assert!(
            validate_strict(&created.payload).is_ok(),
            "{}",
            created.payload
        );
        let json = serde_json::to_value(&events[0]).expect("serialisable");
        assert_eq!(json["type"], "PaymentLinkCreated");
    }

    #[test]
    fn a_link_without_an_amount_is_refused() {
        LinkTest::with(())
            .given_no_previous_events()
            .when(create(None, None))
            .then_expect_error(PaymentLinkError::AmountRequired);
    }

    #[test]
    fn a_link_is_made_once() {
        LinkTest::with(())
            .given(history(None))
            .when(create(Some(4590), None))
            .then_expect_error(PaymentLinkError::AlreadyCreated);
    }

    #[test]
    fn an_expiry_that_is_not_in_the_future_is_refused() {
        for expiry in [NOW, "2026-11-20T10:00:00Z", "amanhã"] {
            LinkTest::with(())
                .given_no_previous_events()
                .when(create(Some(100), Some(expiry)))
                .then_expect_error(PaymentLinkError::ExpiryInThePast);
        }
    }

    #[test]
    fn a_link_takes_payments_until_its_expiry_and_not_from_it_on() {
        let link = folded(history(Some("2026-11-22T10:00:00-03:00")));
        assert_eq!(
            link.status_at(at("2026-11-22T12:59:59Z")),
            LinkStatus::Active
        );
        assert_eq!(
            link.status_at(at("2026-11-22T13:00:00Z")),
            LinkStatus::Expired
        );
        let forever = folded(history(None));
        assert_eq!(
            forever.status_at(at("2099-01-01T00:00:00Z")),
            LinkStatus::Active
        );
    }

    #[test]
    fn revoking_a_link_records_who_and_when() {
        LinkTest::with(())
            .given(history(None))
            .when(revoke())
            .then_expect_events(vec![PaymentLinkEvent::PaymentLinkRevoked(
                PaymentLinkRevoked {
                    link_id: "0a6b5c1e-6a1f-4c55-9d0e-2d3a4b5c6d7e".to_owned(),
                    revoked_by: "0190f1a2-0000-7000-8000-00000000000b".to_owned(),
                    at: "2026-11-21T12:00:00Z".to_owned(),
                },
            )]);
    }

    #[test]
    fn a_revoked_link_takes_no_payments_even_before_its_expiry() {
        let mut events = history(Some("2099-01-01T00:00:00Z"));
        events.extend(
            LinkTest::with(())
                .given(events.clone())
                .when(revoke())
                .inspect_result()
                .expect("revoked"),
        );
        assert_eq!(folded(events).status_at(at(NOW)), LinkStatus::Revoked);
    }

    #[test]
    fn a_link_is_revoked_once() {
        let mut events = history(None);
        events.push(PaymentLinkEvent::PaymentLinkRevoked(PaymentLinkRevoked {
            link_id: "0a6b5c1e-6a1f-4c55-9d0e-2d3a4b5c6d7e".to_owned(),
            revoked_by: "x".to_owned(),
            at: NOW.to_owned(),
        }));
        LinkTest::with(())
            .given(events)
            .when(revoke())
            .then_expect_error(PaymentLinkError::AlreadyRevoked);
    }

    #[test]
    fn a_link_that_does_not_exist_cannot_be_revoked() {
        LinkTest::with(())
            .given_no_previous_events()
            .when(revoke())
            .then_expect_error(PaymentLinkError::NotFound);
    }
}
