//! The QR-code aggregate: `handle` only decides, `apply` only folds.

use cqrs_es::Aggregate;
use cqrs_es::event_sink::EventSink;
use serde::{Deserialize, Serialize};

use super::{
    BankCharge, ClaimQrCode, CreateAccountQrCode, CreateBankCharge, CreateQrCode, QrCodeArchived,
    QrCodeClaimed, QrCodeCommand, QrCodeCreated, QrCodeError, QrCodeEvent,
    QrCodeManagementLinkIssued, QrCodeUnarchived, STREAM_TYPE,
};
use crate::brcode::{DynamicCodeRequest, StaticCodeRequest, make_dynamic, make_static};
use crate::pix_key::PixKeyKind;

/// The state a decision needs: whether the code exists, its payload, and whether it is archived.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct QrCode {
    /// The payload, once created.
    pub payload: Option<String>,
    /// Whether the code is archived now.
    #[serde(default)]
    pub archived: bool,
    /// The code's id, once created (archive events name it).
    #[serde(default)]
    pub qrcode_id: String,
    /// The owning account: set at creation, or by a claim. `None` for a visitor's code.
    #[serde(default)]
    pub owner_id: Option<String>,
    /// Hex SHA-256 of a visitor's management token, if the code has a management link.
    #[serde(default)]
    pub management_digest: Option<String>,
    /// When it was made (RFC 3339), once created: the month a claimed code counts in.
    #[serde(default)]
    pub created_at: Option<String>,
}

impl QrCode {
    fn decide(&self, command: QrCodeCommand) -> Result<Vec<QrCodeEvent>, QrCodeError> {
        match command {
            QrCodeCommand::CreateQrCode(create) => {
                Ok(vec![QrCodeEvent::QrCodeCreated(self.create(create)?)])
            }
            QrCodeCommand::CreateAccountQrCode(create) => self.create_in_account(create),
            QrCodeCommand::ArchiveQrCode(archive) => {
                if self.payload.is_none() {
                    return Err(QrCodeError::NotFound);
                }
                if self.archived {
                    return Err(QrCodeError::AlreadyArchived);
                }
                Ok(vec![QrCodeEvent::QrCodeArchived(QrCodeArchived {
                    qrcode_id: self.qrcode_id.clone(),
                    archived_by: archive.by,
                    archived_at: archive.at,
                })])
            }
            QrCodeCommand::UnarchiveQrCode(unarchive) => {
                if self.payload.is_none() {
                    return Err(QrCodeError::NotFound);
                }
                if !self.archived {
                    return Err(QrCodeError::NotArchived);
                }
                Ok(vec![QrCodeEvent::QrCodeUnarchived(QrCodeUnarchived {
                    qrcode_id: self.qrcode_id.clone(),
                    unarchived_by: unarchive.by,
                    unarchived_at: unarchive.at,
                })])
            }
            QrCodeCommand::CreateAnonymousQrCode(anonymous) => {
                if anonymous.create.owner_id.is_some() || anonymous.create.created_by.is_some() {
                    return Err(QrCodeError::AnonymousWithOwner);
                }
                let at = anonymous.create.requested_at.clone();
                let created = self.create(anonymous.create)?;
                let issued = QrCodeManagementLinkIssued {
                    qrcode_id: created.qrcode_id.clone(),
                    token_digest: anonymous.management_digest,
                    at,
                };
                Ok(vec![
                    QrCodeEvent::QrCodeCreated(created),
                    QrCodeEvent::QrCodeManagementLinkIssued(issued),
                ])
            }
            QrCodeCommand::ClaimQrCode(claim) => self.claim(claim),
            QrCodeCommand::CreateBankCharge(charge) => self.create_bank_charge(charge),
        }
    }

    /// The dynamic code of a bank's charge. The values the bank holds (key, amount, txid,
    /// message) are checked as a static code's would be, so the code's page and the list show
    /// what the bank charges; the payload itself is the dynamic code of the location.
    fn create_bank_charge(
        &self,
        charge: CreateBankCharge,
    ) -> Result<Vec<QrCodeEvent>, QrCodeError> {
        if self.payload.is_some() {
            return Err(QrCodeError::AlreadyCreated);
        }
        let CreateBankCharge {
            create,
            location,
            terms,
        } = charge;
        let txid = create.request.txid.clone().unwrap_or_default();
        if !(26..=35).contains(&txid.len()) || !txid.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(QrCodeError::ChargeTxidInvalid);
        }
        let Some(amount) = create.request.amount else {
            return Err(QrCodeError::SingleUseWithoutAmount);
        };
        let window = super::charge_terms::window(terms, &create.requested_at, amount.get())?;
        // The static engine checks the values (and writes the txid's 25-character field no
        // wider than it allows); only its verdict and normalised texts are kept.
        if create
            .request
            .additional_info
            .as_deref()
            .is_some_and(|message| message.chars().count() > CHARGE_MESSAGE_MAX_CHARS)
        {
            return Err(QrCodeError::ChargeMessageTooLong);
        }
        // The message is the bank's (`solicitacaoPagador`), not the payload's: it is not held to
        // a static code's field 26-02 limits.
        let mut values = create.request.clone();
        values.txid = None;
        values.single_use = false;
        values.additional_info = None;
        let checked = make_static(&values).map_err(QrCodeError::Invalid)?;
        let mut dynamic = DynamicCodeRequest::new(
            location,
            create.request.merchant_name.clone(),
            create.request.merchant_city.clone(),
        );
        dynamic.postal_code = create.request.postal_code.clone();
        let made = make_dynamic(&dynamic).map_err(QrCodeError::Invalid)?;
        Ok(vec![QrCodeEvent::QrCodeCreated(QrCodeCreated {
            qrcode_id: create.qrcode_id,
            owner_id: Some(create.owner_id),
            created_by: Some(create.created_by),
            key_kind: key_kind_name(create.request.key.kind()).to_owned(),
            pix_key: create.request.key.as_str().to_owned(),
            merchant_name: made.merchant_name,
            merchant_city: made.merchant_city,
            amount_centavos: checked.amount.map(|a| a.get()),
            description: create.request.additional_info,
            txid,
            payload: made.payload,
            created_at: create.requested_at,
            key_id: create.key_id,
            batch_id: None,
            duplicate_of: None,
            single_use: true,
            bank_charge: Some(BankCharge {
                location: made.url.unwrap_or_default(),
                expires_in_seconds: window.expires_in_seconds,
                expires_at: window
                    .expires_at
                    .with_timezone(&chrono::Utc)
                    .to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
                due: window.due,
            }),
        })])
    }

    fn create_in_account(
        &self,
        create: CreateAccountQrCode,
    ) -> Result<Vec<QrCodeEvent>, QrCodeError> {
        if self.payload.is_some() {
            return Err(QrCodeError::AlreadyCreated);
        }
        check_single_use(&create.request)?;
        // An account's code must have a txid.
        if !has_own_txid(&create.request) {
            return Err(QrCodeError::TxidRequired);
        }
        let made = make_static(&create.request).map_err(QrCodeError::Invalid)?;
        Ok(vec![QrCodeEvent::QrCodeCreated(QrCodeCreated {
            qrcode_id: create.qrcode_id,
            owner_id: Some(create.owner_id),
            created_by: Some(create.created_by),
            key_kind: key_kind_name(create.request.key.kind()).to_owned(),
            pix_key: create.request.key.as_str().to_owned(),
            merchant_name: made.merchant_name,
            merchant_city: made.merchant_city,
            amount_centavos: made.amount.map(|a| a.get()),
            description: made.additional_info,
            txid: made.txid,
            payload: made.payload,
            created_at: create.requested_at,
            key_id: create.key_id,
            batch_id: create.batch_id,
            duplicate_of: create.duplicate_of,
            single_use: create.request.single_use,
            bank_charge: None,
        })])
    }

    /// A code from the public sign form (with or without an account, `***` allowed).
    fn create(&self, create: CreateQrCode) -> Result<QrCodeCreated, QrCodeError> {
        if self.payload.is_some() {
            return Err(QrCodeError::AlreadyCreated);
        }
        check_single_use(&create.request)?;
        let made = make_static(&create.request).map_err(QrCodeError::Invalid)?;
        Ok(QrCodeCreated {
            qrcode_id: create.qrcode_id,
            owner_id: create.owner_id,
            created_by: create.created_by,
            key_kind: key_kind_name(create.request.key.kind()).to_owned(),
            pix_key: create.request.key.as_str().to_owned(),
            merchant_name: made.merchant_name,
            merchant_city: made.merchant_city,
            amount_centavos: made.amount.map(|a| a.get()),
            description: made.additional_info,
            txid: made.txid,
            payload: made.payload,
            created_at: create.requested_at,
            key_id: None,
            batch_id: None,
            duplicate_of: None,
            single_use: create.request.single_use,
            bank_charge: None,
        })
    }

    /// The token is checked before anything else, so that without it nobody learns whether
    /// the code exists or was already claimed.
    fn claim(&self, claim: ClaimQrCode) -> Result<Vec<QrCodeEvent>, QrCodeError> {
        let (Some(_), Some(digest)) = (&self.payload, &self.management_digest) else {
            return Err(QrCodeError::ManagementLinkNotFound);
        };
        if !same_digest(digest, &claim.management_digest) {
            return Err(QrCodeError::ManagementLinkNotFound);
        }
        if self.owner_id.is_some() {
            return Err(QrCodeError::AlreadyClaimed);
        }
        Ok(vec![QrCodeEvent::QrCodeClaimed(QrCodeClaimed {
            qrcode_id: claim.qrcode_id,
            owner_id: claim.owner_id,
            claimed_by: claim.claimed_by,
            at: claim.requested_at,
        })])
    }
}

/// The shortest validity a bank charge may have: a minute (enough to pay at the counter).
pub const CHARGE_MIN_SECONDS: u32 = 60;

/// The longest: a week. A charge for later is a due-date charge (`cobv`), not a `cob`.
pub const CHARGE_MAX_SECONDS: u32 = 7 * 24 * 60 * 60;

/// The longest message for the payer a charge takes (`solicitacaoPagador`, API Pix).
pub const CHARGE_MESSAGE_MAX_CHARS: usize = 140;

/// Whether `request` carries a txid of its own: `***` (or blank) means "no txid" to the engine.
fn has_own_txid(request: &StaticCodeRequest) -> bool {
    request
        .txid
        .as_deref()
        .is_some_and(|t| !t.trim().is_empty() && t.trim() != "***")
}

/// A single-use code is made for one sale: it needs the sale's amount, and its own txid, by
/// which its payment is recognised (without one it could never be shown as paid).
fn check_single_use(request: &StaticCodeRequest) -> Result<(), QrCodeError> {
    if !request.single_use {
        return Ok(());
    }
    if request.amount.is_none() {
        return Err(QrCodeError::SingleUseWithoutAmount);
    }
    if !has_own_txid(request) {
        return Err(QrCodeError::SingleUseWithoutTxid);
    }
    Ok(())
}

/// Compares two digests without stopping at the first difference.
fn same_digest(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// The key kind as read models store it.
fn key_kind_name(kind: PixKeyKind) -> &'static str {
    match kind {
        PixKeyKind::Cpf => "cpf",
        PixKeyKind::Cnpj => "cnpj",
        PixKeyKind::Email => "email",
        PixKeyKind::Phone => "phone",
        PixKeyKind::Evp => "evp",
    }
}

impl Aggregate for QrCode {
    const TYPE: &'static str = STREAM_TYPE;
    type Command = QrCodeCommand;
    type Event = QrCodeEvent;
    type Error = QrCodeError;
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
            QrCodeEvent::QrCodeCreated(created) => {
                self.qrcode_id = created.qrcode_id;
                self.payload = Some(created.payload);
                self.owner_id = created.owner_id;
                self.created_at = Some(created.created_at);
            }
            QrCodeEvent::QrCodeArchived(_) => self.archived = true,
            QrCodeEvent::QrCodeUnarchived(_) => self.archived = false,
            QrCodeEvent::QrCodeManagementLinkIssued(issued) => {
                self.management_digest = Some(issued.token_digest);
            }
            QrCodeEvent::QrCodeClaimed(claimed) => self.owner_id = Some(claimed.owner_id),
        }
    }
}

#[cfg(test)]
mod tests {
    use cqrs_es::DomainEvent;
    use cqrs_es::test::TestFramework;

    use super::*;
    use crate::brcode::{StaticCodeRequest, validate_strict};
    use crate::money::Centavos;
    use crate::pix_key::PixKey;
    use crate::qrcode::{
        Adjustment, ArchiveQrCode, ChargeTerms, CreateQrCode, Discount, DiscountDate, DueDateTerms,
        UnarchiveQrCode,
    };

    type QrCodeTest = TestFramework<QrCode>;

    fn create(name: &str, city: &str, amount: Option<u64>) -> QrCodeCommand {
        let key = PixKey::detect("loja@example.com").expect("a valid e-mail key");
        let mut request = StaticCodeRequest::new(key, name, city);
        request.amount = amount.map(Centavos::new);
        QrCodeCommand::CreateQrCode(CreateQrCode {
            qrcode_id: "0a6b5c1e-6a1f-4c55-9d0e-2d3a4b5c6d7e".to_owned(),
            owner_id: None,
            created_by: None,
            request,
            requested_at: "2026-11-21T10:00:00Z".to_owned(),
        })
    }

    fn created_event(command: QrCodeCommand) -> QrCodeEvent {
        let QrCodeCommand::CreateQrCode(create) = command else {
            panic!("a CreateQrCode");
        };
        let made = make_static(&create.request).expect("valid request");
        QrCodeEvent::QrCodeCreated(QrCodeCreated {
            qrcode_id: create.qrcode_id,
            owner_id: None,
            created_by: None,
            key_kind: "email".to_owned(),
            pix_key: "loja@example.com".to_owned(),
            merchant_name: made.merchant_name,
            merchant_city: made.merchant_city,
            amount_centavos: made.amount.map(|a| a.get()),
            description: None,
            txid: "***".to_owned(),
            payload: made.payload,
            created_at: create.requested_at,
            key_id: None,
            batch_id: None,
            duplicate_of: None,
            single_use: false,
            bank_charge: None,
        })
    }

    #[test]
    fn creating_a_code_records_the_normalised_values_and_a_strictly_valid_payload() {
        let command = create("Padaria São João", "São Paulo", Some(1250));
        let events = QrCodeTest::with(())
            .given_no_previous_events()
            .when(command)
            .inspect_result()
            .expect("the code is created");
        let [QrCodeEvent::QrCodeCreated(created)] = events.as_slice() else {
            panic!("exactly one QrCodeCreated, got {events:?}");
        };
        assert_eq!(created.merchant_name, "PADARIA SAO JOAO");
        assert_eq!(created.merchant_city, "SAO PAULO");
        assert_eq!(created.amount_centavos, Some(1250));
        assert_eq!(created.key_kind, "email");
        assert!(
            validate_strict(&created.payload).is_ok(),
            "{}",
            created.payload
        );
    }

    #[test]
    fn the_event_is_exactly_what_the_engine_made() {
        let command = create("Ana", "Natal", None);
        QrCodeTest::with(())
            .given_no_previous_events()
            .when(command.clone())
            .then_expect_events(vec![created_event(command)]);
    }

    #[test]
    fn a_code_cannot_be_created_twice() {
        let command = create("Ana", "Natal", None);
        QrCodeTest::with(())
            .given(vec![created_event(command.clone())])
            .when(command)
            .then_expect_error(QrCodeError::AlreadyCreated);
    }

    #[test]
    fn a_name_longer_than_the_pix_limit_is_refused_with_a_portuguese_message() {
        let command = create("Comercio de Alimentos Naturais Ltda", "Natal", None);
        let error = QrCodeTest::with(())
            .given_no_previous_events()
            .when(command)
            .inspect_result()
            .expect_err("too long a name");
        let QrCodeError::Invalid(errors) = &error else {
            panic!("expected Invalid, got {error:?}");
        };
        assert_eq!(errors.len(), 1);
        assert!(error.to_string().contains("25"), "{error}");
    }

    #[test]
    fn the_stored_form_of_the_event_carries_its_fields_at_the_top_level() {
        let event = created_event(create("Ana", "Natal", Some(500)));
        let json = serde_json::to_value(&event).expect("serialisable");
        assert_eq!(json["type"], "QrCodeCreated");
        assert_eq!(json["merchant_name"], "ANA");
        assert_eq!(json["amount_centavos"], 500);
        assert_eq!(event.event_version(), "1");
    }

    const ID: &str = "0a6b5c1e-6a1f-4c55-9d0e-2d3a4b5c6d7e";
    const OWNER: &str = "0190f1a2-0000-7000-8000-00000000000a";
    const MEMBER: &str = "0190f1a2-0000-7000-8000-00000000000b";

    fn create_in_account(txid: Option<&str>) -> QrCodeCommand {
        let key = PixKey::detect("loja@example.com").expect("a valid e-mail key");
        let mut request = StaticCodeRequest::new(key, "Padaria", "Natal");
        request.txid = txid.map(str::to_owned);
        QrCodeCommand::CreateAccountQrCode(CreateAccountQrCode {
            qrcode_id: ID.to_owned(),
            owner_id: OWNER.to_owned(),
            created_by: MEMBER.to_owned(),
            key_id: Some("0190f1a2-0000-7000-8000-0000000000cc".to_owned()),
            batch_id: None,
            duplicate_of: None,
            request,
            requested_at: "2026-11-21T10:00:00Z".to_owned(),
        })
    }

    fn made_in_account() -> QrCodeEvent {
        let events = QrCodeTest::with(())
            .given_no_previous_events()
            .when(create_in_account(Some("MESA01")))
            .inspect_result()
            .expect("the code is created");
        events.into_iter().next().expect("one event")
    }

    fn archive() -> QrCodeCommand {
        QrCodeCommand::ArchiveQrCode(ArchiveQrCode {
            by: MEMBER.to_owned(),
            at: "2026-11-22T10:00:00Z".to_owned(),
        })
    }

    fn unarchive() -> QrCodeCommand {
        QrCodeCommand::UnarchiveQrCode(UnarchiveQrCode {
            by: OWNER.to_owned(),
            at: "2026-11-23T10:00:00Z".to_owned(),
        })
    }

    fn archived() -> QrCodeEvent {
        QrCodeEvent::QrCodeArchived(QrCodeArchived {
            qrcode_id: ID.to_owned(),
            archived_by: MEMBER.to_owned(),
            archived_at: "2026-11-22T10:00:00Z".to_owned(),
        })
    }

    #[test]
    fn a_code_made_in_an_account_carries_its_txid_key_id_and_owner() {
        let QrCodeEvent::QrCodeCreated(created) = made_in_account() else {
            panic!("a QrCodeCreated");
        };
        assert_eq!(created.txid, "MESA01");
        assert_eq!(created.owner_id.as_deref(), Some(OWNER));
        assert_eq!(created.created_by.as_deref(), Some(MEMBER));
        assert_eq!(
            created.key_id.as_deref(),
            Some("0190f1a2-0000-7000-8000-0000000000cc")
        );
        assert!(
            created.payload.contains("0506MESA01"),
            "{}",
            created.payload
        );
        assert!(validate_strict(&created.payload).is_ok());
    }

    #[test]
    fn a_code_made_in_an_account_without_a_txid_or_with_stars_is_refused() {
        for txid in [None, Some("***"), Some("  ")] {
            QrCodeTest::with(())
                .given_no_previous_events()
                .when(create_in_account(txid))
                .then_expect_error(QrCodeError::TxidRequired);
        }
    }

    #[test]
    fn a_txid_breaking_the_static_code_rules_is_refused_naming_the_txid() {
        for (txid, code) in [
            ("MESA-01", "txid-invalid-character"),
            ("pedido 1", "txid-invalid-character"),
            ("AÇAI1", "txid-invalid-character"),
            ("A1234567890123456789012345", "txid-too-long"),
        ] {
            let error = QrCodeTest::with(())
                .given_no_previous_events()
                .when(create_in_account(Some(txid)))
                .inspect_result()
                .expect_err(txid);
            let QrCodeError::Invalid(errors) = &error else {
                panic!("expected Invalid, got {error:?}");
            };
            assert_eq!(errors.len(), 1, "{txid}");
            assert_eq!(errors[0].code(), code, "{txid}");
            assert_eq!(errors[0].field().as_str(), "txid", "{txid}");
        }
        // 25 characters is the limit, not over it.
        QrCodeTest::with(())
            .given_no_previous_events()
            .when(create_in_account(Some(&"A".repeat(25))))
            .inspect_result()
            .expect("25 characters are allowed");
    }

    #[test]
    fn archiving_a_code_records_who_and_when() {
        QrCodeTest::with(())
            .given(vec![made_in_account()])
            .when(archive())
            .then_expect_events(vec![archived()]);
    }

    #[test]
    fn archiving_a_code_twice_is_refused() {
        QrCodeTest::with(())
            .given(vec![made_in_account(), archived()])
            .when(archive())
            .then_expect_error(QrCodeError::AlreadyArchived);
    }

    #[test]
    fn an_archived_code_is_brought_back_and_can_be_archived_again() {
        QrCodeTest::with(())
            .given(vec![made_in_account(), archived()])
            .when(unarchive())
            .then_expect_events(vec![QrCodeEvent::QrCodeUnarchived(QrCodeUnarchived {
                qrcode_id: ID.to_owned(),
                unarchived_by: OWNER.to_owned(),
                unarchived_at: "2026-11-23T10:00:00Z".to_owned(),
            })]);
        let brought_back = QrCodeEvent::QrCodeUnarchived(QrCodeUnarchived {
            qrcode_id: ID.to_owned(),
            unarchived_by: OWNER.to_owned(),
            unarchived_at: "2026-11-23T10:00:00Z".to_owned(),
        });
        QrCodeTest::with(())
            .given(vec![made_in_account(), archived(), brought_back])
            .when(archive())
            .then_expect_events(vec![archived()]);
    }

    #[test]
    fn bringing_back_a_code_that_is_not_archived_is_refused() {
        QrCodeTest::with(())
            .given(vec![made_in_account()])
            .when(unarchive())
            .then_expect_error(QrCodeError::NotArchived);
    }

    #[test]
    fn archiving_or_bringing_back_a_code_never_made_is_not_found() {
        QrCodeTest::with(())
            .given_no_previous_events()
            .when(archive())
            .then_expect_error(QrCodeError::NotFound);
        QrCodeTest::with(())
            .given_no_previous_events()
            .when(unarchive())
            .then_expect_error(QrCodeError::NotFound);
    }

    #[test]
    fn the_new_fields_are_left_out_of_a_public_code_so_its_stored_form_is_unchanged() {
        let event = created_event(create("Ana", "Natal", Some(500)));
        let json = serde_json::to_value(&event).expect("serialisable");
        for field in ["key_id", "batch_id", "duplicate_of", "single_use"] {
            assert!(json.get(field).is_none(), "{field} in {json}");
        }
        let json = serde_json::to_value(archived()).expect("serialisable");
        assert_eq!(json["type"], "QrCodeArchived");
        assert_eq!(archived().event_version(), "1");
    }

    #[test]
    fn the_person_who_made_the_code_is_recorded_beside_the_owning_account() {
        let QrCodeCommand::CreateQrCode(mut create) = create("Ana", "Natal", None) else {
            panic!("a CreateQrCode");
        };
        create.owner_id = Some("0190f1a2-0000-7000-8000-00000000000a".to_owned());
        create.created_by = Some("0190f1a2-0000-7000-8000-00000000000b".to_owned());
        let events = QrCodeTest::with(())
            .given_no_previous_events()
            .when(QrCodeCommand::CreateQrCode(create))
            .inspect_result()
            .expect("the code is created");
        let [QrCodeEvent::QrCodeCreated(created)] = events.as_slice() else {
            panic!("exactly one QrCodeCreated, got {events:?}");
        };
        assert_eq!(
            created.owner_id.as_deref(),
            Some("0190f1a2-0000-7000-8000-00000000000a")
        );
        assert_eq!(
            created.created_by.as_deref(),
            Some("0190f1a2-0000-7000-8000-00000000000b")
        );
        let json = serde_json::to_value(&events[0]).expect("serialisable");
        assert_eq!(json["created_by"], "0190f1a2-0000-7000-8000-00000000000b");
    }

    #[test]
    fn an_event_stored_before_created_by_existed_still_reads_with_no_creator() {
        // Exactly what the log holds for codes made before teams (schema version 1).
        let stored = serde_json::json!({
            "type": "QrCodeCreated",
            "qrcode_id": "0a6b5c1e-6a1f-4c55-9d0e-2d3a4b5c6d7e",
            "owner_id": null,
            "key_kind": "email",
            "pix_key": "loja@example.com",
            "merchant_name": "ANA",
            "merchant_city": "NATAL",
            "amount_centavos": 500,
            "description": null,
            "txid": "***",
            "payload": "00020126...6304ABCD",
            "created_at": "2026-11-20T12:00:00Z"
        });
        let event: QrCodeEvent = serde_json::from_value(stored).expect("old events still read");
        let QrCodeEvent::QrCodeCreated(created) = &event else {
            panic!("a QrCodeCreated, got {event:?}");
        };
        assert_eq!(created.created_by, None);
        assert_eq!(created.merchant_name, "ANA");
        assert_eq!(event.event_version(), "1");
    }

    /// An account's code for one sale: amount, txid and `single_use` as given.
    fn single_use_in_account(amount: Option<u64>, txid: Option<&str>) -> QrCodeCommand {
        let QrCodeCommand::CreateAccountQrCode(mut create) = create_in_account(txid) else {
            panic!("an account's creation");
        };
        create.request.amount = amount.map(Centavos::new);
        create.request.single_use = true;
        QrCodeCommand::CreateAccountQrCode(create)
    }

    #[test]
    fn given_no_code_when_a_single_use_code_with_an_amount_and_a_txid_is_made_then_it_is_recorded_as_single_use()
     {
        let events = QrCodeTest::with(())
            .given_no_previous_events()
            .when(single_use_in_account(Some(4_990), Some("PEDIDO42")))
            .inspect_result()
            .expect("the code is made");
        let [QrCodeEvent::QrCodeCreated(created)] = events.as_slice() else {
            panic!("exactly one QrCodeCreated, got {events:?}");
        };
        assert!(created.single_use);
        assert_eq!(created.amount_centavos, Some(4_990));
        assert_eq!(created.txid, "PEDIDO42");
        // The BR Code says so too: `01 = 12`, a payer's app may refuse a second payment.
        let parsed = validate_strict(&created.payload).expect("a valid code");
        assert!(parsed.code.is_single_use(), "{}", created.payload);
        let json = serde_json::to_value(&events[0]).expect("serialisable");
        assert_eq!(json["single_use"], true);
    }

    #[test]
    fn given_no_code_when_a_single_use_code_has_no_amount_then_it_is_refused_on_the_amount() {
        let error = QrCodeTest::with(())
            .given_no_previous_events()
            .when(single_use_in_account(None, Some("PEDIDO42")))
            .inspect_result()
            .expect_err("a sale has a price");
        assert_eq!(error, QrCodeError::SingleUseWithoutAmount);
        assert_eq!(crate::refusal::Refusal::field(&error), Some("amount"));
        assert_eq!(crate::refusal::Refusal::code(&error), "invalid-argument");
        assert_eq!(
            crate::refusal::Refusal::kind(&error).http_status(),
            422,
            "{error}"
        );
        assert!(error.to_string().contains("uso único"), "{error}");
    }

    #[test]
    fn given_no_code_when_a_single_use_code_has_no_txid_of_its_own_then_it_is_refused_on_the_txid()
    {
        for txid in [None, Some("***"), Some(" ")] {
            let error = QrCodeTest::with(())
                .given_no_previous_events()
                .when(single_use_in_account(Some(4_990), txid))
                .inspect_result()
                .expect_err("no txid, no way to recognise its payment");
            assert_eq!(error, QrCodeError::SingleUseWithoutTxid, "{txid:?}");
            assert_eq!(crate::refusal::Refusal::field(&error), Some("txid"));
        }
        // The public sign form writes `***`: a sign is never single-use.
        let QrCodeCommand::CreateQrCode(mut create) = create("Ana", "Natal", Some(500)) else {
            panic!("a CreateQrCode");
        };
        create.request.single_use = true;
        QrCodeTest::with(())
            .given_no_previous_events()
            .when(QrCodeCommand::CreateQrCode(create))
            .then_expect_error(QrCodeError::SingleUseWithoutTxid);
    }

    #[test]
    fn a_code_stored_before_single_use_existed_reads_as_reusable() {
        let QrCodeEvent::QrCodeCreated(made) = made_in_account() else {
            panic!("a QrCodeCreated");
        };
        assert!(!made.single_use);
        let stored = serde_json::to_value(QrCodeEvent::QrCodeCreated(made)).expect("json");
        assert!(stored.get("single_use").is_none(), "{stored}");
        let read: QrCodeEvent = serde_json::from_value(stored).expect("old events still read");
        let QrCodeEvent::QrCodeCreated(read) = read else {
            panic!("a QrCodeCreated");
        };
        assert!(!read.single_use);
    }

    const TOKEN_DIGEST: &str = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
    const PERSON: &str = "0190f1a2-0000-7000-8000-00000000000b";

    fn anonymous() -> QrCodeCommand {
        let QrCodeCommand::CreateQrCode(create) = create("Ana", "Natal", Some(500)) else {
            panic!("a creation");
        };
        QrCodeCommand::CreateAnonymousQrCode(crate::qrcode::CreateAnonymousQrCode {
            create,
            management_digest: TOKEN_DIGEST.to_owned(),
        })
    }

    /// What a visitor's creation wrote to the log.
    fn anonymous_history() -> Vec<QrCodeEvent> {
        QrCodeTest::with(())
            .given_no_previous_events()
            .when(anonymous())
            .inspect_result()
            .expect("the visitor's code is made")
    }

    fn claim(digest: &str) -> QrCodeCommand {
        QrCodeCommand::ClaimQrCode(ClaimQrCode {
            qrcode_id: "0a6b5c1e-6a1f-4c55-9d0e-2d3a4b5c6d7e".to_owned(),
            owner_id: OWNER.to_owned(),
            claimed_by: PERSON.to_owned(),
            management_digest: digest.to_owned(),
            requested_at: "2026-11-21T11:00:00Z".to_owned(),
        })
    }

    fn claimed() -> QrCodeEvent {
        QrCodeEvent::QrCodeClaimed(QrCodeClaimed {
            qrcode_id: "0a6b5c1e-6a1f-4c55-9d0e-2d3a4b5c6d7e".to_owned(),
            owner_id: OWNER.to_owned(),
            claimed_by: PERSON.to_owned(),
            at: "2026-11-21T11:00:00Z".to_owned(),
        })
    }

    #[test]
    fn a_visitors_code_records_only_the_digest_of_its_management_token() {
        let events = anonymous_history();
        let [
            QrCodeEvent::QrCodeCreated(created),
            QrCodeEvent::QrCodeManagementLinkIssued(issued),
        ] = events.as_slice()
        else {
            panic!("a creation and a management link, got {events:?}");
        };
        assert_eq!(created.owner_id, None);
        assert_eq!(issued.token_digest, TOKEN_DIGEST);
        assert_eq!(
            serde_json::to_value(&events[1]).expect("serialisable")["type"],
            "QrCodeManagementLinkIssued"
        );
    }

    #[test]
    fn a_visitors_code_cannot_name_an_owner() {
        let QrCodeCommand::CreateAnonymousQrCode(mut anonymous) = anonymous() else {
            panic!("anonymous");
        };
        anonymous.create.owner_id = Some(OWNER.to_owned());
        QrCodeTest::with(())
            .given_no_previous_events()
            .when(QrCodeCommand::CreateAnonymousQrCode(anonymous))
            .then_expect_error(QrCodeError::AnonymousWithOwner);
    }

    #[test]
    fn the_management_token_claims_a_visitors_code_for_an_account() {
        QrCodeTest::with(())
            .given(anonymous_history())
            .when(claim(TOKEN_DIGEST))
            .then_expect_events(vec![claimed()]);
    }

    #[test]
    fn a_code_is_claimed_once() {
        let mut history = anonymous_history();
        history.push(claimed());
        QrCodeTest::with(())
            .given(history)
            .when(claim(TOKEN_DIGEST))
            .then_expect_error(QrCodeError::AlreadyClaimed);
    }

    #[test]
    fn a_claim_with_a_wrong_token_is_refused_as_not_found() {
        let wrong = "0000000000000000000000000000000000000000000000000000000000000000";
        QrCodeTest::with(())
            .given(anonymous_history())
            .when(claim(wrong))
            .then_expect_error(QrCodeError::ManagementLinkNotFound);
    }

    #[test]
    fn a_wrong_token_learns_nothing_even_about_a_claimed_code() {
        let mut history = anonymous_history();
        history.push(claimed());
        QrCodeTest::with(())
            .given(history)
            .when(claim("abc"))
            .then_expect_error(QrCodeError::ManagementLinkNotFound);
    }

    #[test]
    fn an_accounts_own_code_has_no_management_link_to_claim_it_with() {
        let QrCodeCommand::CreateQrCode(mut create) = create("Ana", "Natal", None) else {
            panic!("a creation");
        };
        create.owner_id = Some(OWNER.to_owned());
        let history = QrCodeTest::with(())
            .given_no_previous_events()
            .when(QrCodeCommand::CreateQrCode(create))
            .inspect_result()
            .expect("made");
        QrCodeTest::with(())
            .given(history)
            .when(claim(TOKEN_DIGEST))
            .then_expect_error(QrCodeError::ManagementLinkNotFound);
    }

    #[test]
    fn a_code_that_does_not_exist_cannot_be_claimed() {
        QrCodeTest::with(())
            .given_no_previous_events()
            .when(claim(TOKEN_DIGEST))
            .then_expect_error(QrCodeError::ManagementLinkNotFound);
    }

    const CHARGE_TXID: &str = "0190f1a2000070008000000000000abc";

    fn bank_charge(amount: Option<u64>, txid: &str, seconds: u32) -> QrCodeCommand {
        let QrCodeCommand::CreateAccountQrCode(mut create) = create_in_account(Some(txid)) else {
            unreachable!("an account code")
        };
        create.request.amount = amount.map(Centavos::new);
        create.request.additional_info = Some("Pedido 42".to_owned());
        QrCodeCommand::CreateBankCharge(CreateBankCharge {
            create,
            location: "https://pix.banco.example/qr/v2/9d36b84fc70b478fb95c12729b90ca25".to_owned(),
            terms: ChargeTerms::Immediate {
                expires_in_seconds: seconds,
            },
        })
    }

    #[test]
    fn given_no_code_when_a_bank_charge_is_recorded_then_its_code_is_the_dynamic_code_of_the_location()
     {
        let events = QrCodeTest::with(())
            .given_no_previous_events()
            .when(bank_charge(Some(4_590), CHARGE_TXID, 900))
            .inspect_result()
            .expect("the charge is recorded");
        let [QrCodeEvent::QrCodeCreated(created)] = events.as_slice() else {
            panic!("one creation, got {events:?}");
        };
        let parsed = validate_strict(&created.payload).expect("a code every bank app reads");
        assert_eq!(parsed.code.kind(), Some(crate::brcode::CodeKind::Dynamic));
        assert_eq!(parsed.code.txid(), Some("***"));
        assert!(
            created
                .payload
                .contains("pix.banco.example/qr/v2/9d36b84fc70b478fb95c12729b90ca25")
        );
        assert!(!created.payload.contains("https://"));
        // Matched by the charge's txid, shown with what the bank charges.
        assert_eq!(created.txid, CHARGE_TXID);
        assert_eq!(created.amount_centavos, Some(4_590));
        assert_eq!(created.description.as_deref(), Some("Pedido 42"));
        assert_eq!(created.pix_key, "loja@example.com");
        assert!(created.single_use);
        assert_eq!(
            created.bank_charge,
            Some(BankCharge {
                location: "pix.banco.example/qr/v2/9d36b84fc70b478fb95c12729b90ca25".to_owned(),
                expires_in_seconds: Some(900),
                expires_at: "2026-11-21T10:15:00Z".to_owned(),
                due: None,
            })
        );
    }

    #[test]
    fn given_no_code_when_a_bank_charge_has_no_amount_or_a_validity_out_of_range_then_it_is_refused()
     {
        for (command, expected) in [
            (
                bank_charge(None, CHARGE_TXID, 900),
                QrCodeError::SingleUseWithoutAmount,
            ),
            (
                bank_charge(Some(100), CHARGE_TXID, 59),
                QrCodeError::ChargeExpiryInvalid,
            ),
            (
                bank_charge(Some(100), CHARGE_TXID, CHARGE_MAX_SECONDS + 1),
                QrCodeError::ChargeExpiryInvalid,
            ),
            (
                bank_charge(Some(100), "MESA01", 900),
                QrCodeError::ChargeTxidInvalid,
            ),
        ] {
            QrCodeTest::with(())
                .given_no_previous_events()
                .when(command)
                .then_expect_error(expected);
        }
    }

    #[test]
    fn given_a_recorded_charge_when_it_is_recorded_again_then_it_is_refused() {
        let first = QrCodeTest::with(())
            .given_no_previous_events()
            .when(bank_charge(Some(100), CHARGE_TXID, 900))
            .inspect_result()
            .expect("recorded");
        QrCodeTest::with(())
            .given(first)
            .when(bank_charge(Some(100), CHARGE_TXID, 900))
            .then_expect_error(QrCodeError::AlreadyCreated);
    }

    #[test]
    fn a_code_stored_before_bank_charges_existed_reads_with_none_and_is_stored_unchanged() {
        let QrCodeEvent::QrCodeCreated(created) = made_in_account() else {
            panic!("a creation");
        };
        assert!(created.bank_charge.is_none());
        let json = serde_json::to_value(&created).expect("serialisable");
        assert!(json.get("bank_charge").is_none(), "{json}");
    }

    fn due_terms() -> DueDateTerms {
        DueDateTerms {
            due_date: "2026-12-10".to_owned(),
            days_after_due: 30,
            debtor_name: crate::sealed::Sealed::from_text("v1.nome"),
            debtor_document: crate::sealed::Sealed::from_text("v1.documento"),
            fine: Some(Adjustment {
                modality: 2,
                value: 200,
            }),
            interest: Some(Adjustment {
                modality: 3,
                value: 100,
            }),
            discount: Some(Discount {
                modality: 1,
                dates: vec![DiscountDate {
                    until: "2026-12-05".to_owned(),
                    value: 500,
                }],
                value: None,
            }),
            abatement: Some(Adjustment {
                modality: 1,
                value: 1_000,
            }),
        }
    }

    fn due_date_charge(terms: DueDateTerms) -> QrCodeCommand {
        let QrCodeCommand::CreateBankCharge(mut charge) =
            bank_charge(Some(15_000), CHARGE_TXID, 60)
        else {
            unreachable!("a charge")
        };
        charge.terms = ChargeTerms::DueDate(terms);
        QrCodeCommand::CreateBankCharge(charge)
    }

    #[test]
    fn given_no_code_when_a_due_date_charge_is_recorded_then_it_is_offered_until_the_end_of_its_last_day_in_brasilia()
     {
        let events = QrCodeTest::with(())
            .given_no_previous_events()
            .when(due_date_charge(due_terms()))
            .inspect_result()
            .expect("the charge is recorded");
        let [QrCodeEvent::QrCodeCreated(created)] = events.as_slice() else {
            panic!("one creation, got {events:?}");
        };
        let charge = created.bank_charge.clone().expect("a bank charge");
        // 2026-12-10 plus 30 days, 23:59:59 in Brasília.
        assert_eq!(charge.expires_at, "2027-01-10T02:59:59Z");
        assert_eq!(charge.expires_in_seconds, None);
        assert_eq!(charge.due, Some(due_terms()));
        // The debtor is in the log only sealed.
        let stored = serde_json::to_string(&created).expect("serialisable");
        assert!(
            stored.contains("v1.nome") && stored.contains("v1.documento"),
            "{stored}"
        );
        assert!(created.single_use);
    }

    #[test]
    fn given_no_code_when_a_due_date_charge_breaks_a_rule_then_it_is_refused_naming_the_term() {
        let adjustment = |modality, value| Some(Adjustment { modality, value });
        let discount = |modality, dates: Vec<(&str, u64)>, value| {
            Some(Discount {
                modality,
                dates: dates
                    .into_iter()
                    .map(|(until, value)| DiscountDate {
                        until: until.to_owned(),
                        value,
                    })
                    .collect(),
                value,
            })
        };
        let past = DueDateTerms {
            due_date: "2026-11-20".to_owned(),
            discount: None,
            ..due_terms()
        };
        let too_long = DueDateTerms {
            days_after_due: 366,
            ..due_terms()
        };
        let fine = DueDateTerms {
            fine: adjustment(2, 10_001),
            ..due_terms()
        };
        let fine_modality = DueDateTerms {
            fine: adjustment(3, 100),
            ..due_terms()
        };
        let interest = DueDateTerms {
            interest: adjustment(9, 100),
            ..due_terms()
        };
        let discount_after_due = DueDateTerms {
            discount: discount(1, vec![("2026-12-11", 500)], None),
            ..due_terms()
        };
        let discount_four_dates = DueDateTerms {
            discount: discount(
                2,
                vec![
                    ("2026-12-01", 10),
                    ("2026-12-02", 10),
                    ("2026-12-03", 10),
                    ("2026-12-04", 10),
                ],
                None,
            ),
            ..due_terms()
        };
        let early_discount = DueDateTerms {
            discount: discount(3, Vec::new(), Some(10)),
            ..due_terms()
        };
        let abatement = DueDateTerms {
            abatement: adjustment(2, 10_000),
            discount: None,
            ..due_terms()
        };
        let nothing_left = DueDateTerms {
            abatement: adjustment(1, 14_500),
            ..due_terms()
        };
        for (terms, expected) in [
            (past, QrCodeError::ChargeDueDateInvalid),
            (too_long, QrCodeError::ChargeDaysAfterDueInvalid),
            (fine, QrCodeError::ChargeFineInvalid),
            (fine_modality, QrCodeError::ChargeFineInvalid),
            (interest, QrCodeError::ChargeInterestInvalid),
            (discount_after_due, QrCodeError::ChargeDiscountInvalid),
            (discount_four_dates, QrCodeError::ChargeDiscountInvalid),
            (early_discount, QrCodeError::ChargeDiscountInvalid),
            (abatement, QrCodeError::ChargeAbatementInvalid),
            (nothing_left, QrCodeError::ChargeDiscountInvalid),
        ] {
            QrCodeTest::with(())
                .given_no_previous_events()
                .when(due_date_charge(terms))
                .then_expect_error(expected);
        }
    }
}
