//! The bank-connection aggregate: `handle` only decides, `apply` only folds.

use chrono::{DateTime, Utc};
use cqrs_es::Aggregate;
use cqrs_es::event_sink::EventSink;
use serde::{Deserialize, Serialize};

use super::{
    BankCertificateExpiring, BankConnected, BankConnectionCommand, BankConnectionError,
    BankConnectionEvent, BankConnectionTested, BankDisconnected, BankWebhookRegistered,
    BankWebhookRegistrationFailed, CERTIFICATE_WARNING_DAYS, ConnectBank, STREAM_TYPE,
    WarnCertificateExpiring,
};

/// Where the key's webhook at the bank stands.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum WebhookState {
    /// Not asked for since the key was connected.
    #[default]
    NotRegistered,
    /// The bank took Balcão's address, at this RFC 3339 instant.
    Registered {
        /// When.
        at: String,
    },
    /// The bank refused or did not answer.
    Failed {
        /// The problem's code.
        problem: String,
        /// What the owner was told.
        message: String,
        /// When.
        at: String,
    },
}

/// What a decision (and the keys screen) needs to know of a connection.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BankConnection {
    /// The latest connection, while it stands; `None` before the first and after a disconnection.
    pub connected: Option<BankConnected>,
    /// The latest test since the connection, if any.
    pub last_test: Option<BankConnectionTested>,
    /// The webhook at the bank.
    pub webhook: WebhookState,
    /// The warning thresholds (days) already warned of for the standing certificate.
    #[serde(default)]
    pub warned_days: Vec<u32>,
}

/// Reads an RFC 3339 instant; `None` when it is not one.
fn instant(text: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(text)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

impl BankConnection {
    fn decide(
        &self,
        command: BankConnectionCommand,
    ) -> Result<BankConnectionEvent, BankConnectionError> {
        match command {
            BankConnectionCommand::ConnectBank(connect) => self.connect(connect),
            BankConnectionCommand::RecordConnectionTest(test) => {
                self.require_connected()?;
                let (problem, message) = match test.outcome {
                    Ok(()) => (None, None),
                    Err((problem, message)) => (Some(problem), Some(message)),
                };
                Ok(BankConnectionEvent::BankConnectionTested(
                    BankConnectionTested {
                        ok: problem.is_none(),
                        problem,
                        message,
                        by: test.by,
                        at: test.requested_at,
                    },
                ))
            }
            BankConnectionCommand::RecordWebhookRegistration(registration) => {
                self.require_connected()?;
                Ok(match registration.outcome {
                    Ok(()) => BankConnectionEvent::BankWebhookRegistered(BankWebhookRegistered {
                        by: registration.by,
                        at: registration.requested_at,
                    }),
                    Err((problem, message)) => BankConnectionEvent::BankWebhookRegistrationFailed(
                        BankWebhookRegistrationFailed {
                            problem,
                            message,
                            by: registration.by,
                            at: registration.requested_at,
                        },
                    ),
                })
            }
            BankConnectionCommand::WarnCertificateExpiring(warn) => self.warn_expiring(&warn),
            BankConnectionCommand::DisconnectBank(disconnect) => {
                self.require_connected()?;
                Ok(BankConnectionEvent::BankDisconnected(BankDisconnected {
                    by: disconnect.by,
                    at: disconnect.requested_at,
                }))
            }
        }
    }

    /// The smallest threshold the certificate's end is within, if it was not warned of yet. A
    /// certificate that ended is past every threshold: the 1-day warning, once.
    fn warn_expiring(
        &self,
        warn: &WarnCertificateExpiring,
    ) -> Result<BankConnectionEvent, BankConnectionError> {
        let connected = self.require_connected()?;
        let (Some(not_after), Some(now)) = (
            instant(&connected.certificate_not_after),
            instant(&warn.now),
        ) else {
            return Err(BankConnectionError::NothingToWarn);
        };
        let left = not_after - now;
        let threshold = CERTIFICATE_WARNING_DAYS
            .iter()
            .copied()
            .filter(|days| left <= chrono::Duration::days(i64::from(*days)))
            .min()
            .filter(|days| !self.warned_days.contains(days))
            .ok_or(BankConnectionError::NothingToWarn)?;
        Ok(BankConnectionEvent::BankCertificateExpiring(
            BankCertificateExpiring {
                certificate_fingerprint: connected.certificate_fingerprint.clone(),
                certificate_not_after: connected.certificate_not_after.clone(),
                threshold_days: threshold,
                at: warn.now.clone(),
            },
        ))
    }

    fn require_connected(&self) -> Result<&BankConnected, BankConnectionError> {
        self.connected
            .as_ref()
            .ok_or(BankConnectionError::NotConnected)
    }

    fn connect(&self, connect: ConnectBank) -> Result<BankConnectionEvent, BankConnectionError> {
        // A certificate whose end cannot be read counts as expired: a connection must never
        // stand on a certificate nobody can judge.
        let still_valid = match (
            instant(&connect.certificate_not_after),
            instant(&connect.requested_at),
        ) {
            (Some(not_after), Some(now)) => now < not_after,
            _ => false,
        };
        if !still_valid {
            return Err(BankConnectionError::CertificateExpired);
        }
        Ok(BankConnectionEvent::BankConnected(BankConnected {
            key_id: connect.key_id,
            account_id: connect.account_id,
            pix_key: connect.pix_key,
            bank: connect.bank,
            environment: connect.environment,
            certificate_fingerprint: connect.certificate_fingerprint,
            certificate_not_after: connect.certificate_not_after,
            replaced: self.connected.is_some(),
            connected_by: connect.connected_by,
            at: connect.requested_at,
        }))
    }
}

impl Aggregate for BankConnection {
    const TYPE: &'static str = STREAM_TYPE;
    type Command = BankConnectionCommand;
    type Event = BankConnectionEvent;
    type Error = BankConnectionError;
    type Services = ();

    async fn handle(
        &mut self,
        command: Self::Command,
        _services: &Self::Services,
        sink: &EventSink<Self>,
    ) -> Result<(), Self::Error> {
        let event = self.decide(command)?;
        sink.write(event, self).await;
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        match event {
            BankConnectionEvent::BankConnected(connected) => {
                // New credentials: what was tested or registered with the old ones no longer
                // says anything about these.
                *self = BankConnection {
                    connected: Some(connected),
                    ..BankConnection::default()
                };
            }
            BankConnectionEvent::BankConnectionTested(tested) => self.last_test = Some(tested),
            BankConnectionEvent::BankWebhookRegistered(registered) => {
                self.webhook = WebhookState::Registered { at: registered.at };
            }
            BankConnectionEvent::BankWebhookRegistrationFailed(failed) => {
                self.webhook = WebhookState::Failed {
                    problem: failed.problem,
                    message: failed.message,
                    at: failed.at,
                };
            }
            BankConnectionEvent::BankDisconnected(_) => *self = BankConnection::default(),
            BankConnectionEvent::BankCertificateExpiring(expiring) => {
                // A smaller threshold also covers the larger ones: a connection made 5 days
                // before its end is warned once ("7 dias"), not again for 30.
                self.warned_days.extend(
                    CERTIFICATE_WARNING_DAYS
                        .iter()
                        .filter(|days| **days >= expiring.threshold_days),
                );
                self.warned_days.sort_unstable();
                self.warned_days.dedup();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use cqrs_es::test::TestFramework;

    use super::*;
    use crate::bank_connection::{DisconnectBank, RecordConnectionTest, RecordWebhookRegistration};

    type ConnectionTest = TestFramework<BankConnection>;

    const NOW: &str = "2026-11-28T18:00:00Z";
    const KEY: &str = "0190f1a2-0000-7000-8000-0000000000k1";
    const ACCOUNT: &str = "0190f1a2-0000-7000-8000-00000000000a";
    const OWNER: &str = "0190f1a2-0000-7000-8000-00000000000b";

    fn connect(not_after: &str) -> ConnectBank {
        ConnectBank {
            key_id: KEY.to_owned(),
            account_id: ACCOUNT.to_owned(),
            pix_key: "loja@example.com".to_owned(),
            bank: "efi".to_owned(),
            environment: "producao".to_owned(),
            certificate_fingerprint: "ab".repeat(32),
            certificate_not_after: not_after.to_owned(),
            connected_by: OWNER.to_owned(),
            requested_at: NOW.to_owned(),
        }
    }

    fn connected(replaced: bool) -> BankConnectionEvent {
        BankConnectionEvent::BankConnected(BankConnected {
            key_id: KEY.to_owned(),
            account_id: ACCOUNT.to_owned(),
            pix_key: "loja@example.com".to_owned(),
            bank: "efi".to_owned(),
            environment: "producao".to_owned(),
            certificate_fingerprint: "ab".repeat(32),
            certificate_not_after: "2027-11-28T00:00:00Z".to_owned(),
            replaced,
            connected_by: OWNER.to_owned(),
            at: NOW.to_owned(),
        })
    }

    fn failure(problem: &str, message: &str) -> Result<(), (String, String)> {
        Err((problem.to_owned(), message.to_owned()))
    }

    #[test]
    fn a_key_with_a_valid_certificate_is_connected() {
        ConnectionTest::with(())
            .given_no_previous_events()
            .when(BankConnectionCommand::ConnectBank(connect(
                "2027-11-28T00:00:00Z",
            )))
            .then_expect_events(vec![connected(false)]);
    }

    #[test]
    fn connecting_again_replaces_the_credentials_and_says_so() {
        ConnectionTest::with(())
            .given(vec![connected(false)])
            .when(BankConnectionCommand::ConnectBank(connect(
                "2027-11-28T00:00:00Z",
            )))
            .then_expect_events(vec![connected(true)]);
    }

    #[test]
    fn an_expired_or_unreadable_certificate_is_refused() {
        for not_after in ["2026-11-28T17:59:59Z", NOW, "amanhã"] {
            ConnectionTest::with(())
                .given_no_previous_events()
                .when(BankConnectionCommand::ConnectBank(connect(not_after)))
                .then_expect_error(BankConnectionError::CertificateExpired);
        }
    }

    #[test]
    fn tests_and_registrations_are_noted_with_the_banks_answer() {
        ConnectionTest::with(())
            .given(vec![connected(false)])
            .when(BankConnectionCommand::RecordConnectionTest(
                RecordConnectionTest {
                    outcome: failure(
                        "bank-wrong-credentials",
                        "Client ID ou Client Secret errado.",
                    ),
                    by: OWNER.to_owned(),
                    requested_at: NOW.to_owned(),
                },
            ))
            .then_expect_events(vec![BankConnectionEvent::BankConnectionTested(
                BankConnectionTested {
                    ok: false,
                    problem: Some("bank-wrong-credentials".to_owned()),
                    message: Some("Client ID ou Client Secret errado.".to_owned()),
                    by: OWNER.to_owned(),
                    at: NOW.to_owned(),
                },
            )]);
        ConnectionTest::with(())
            .given(vec![connected(false)])
            .when(BankConnectionCommand::RecordWebhookRegistration(
                RecordWebhookRegistration {
                    outcome: Ok(()),
                    by: OWNER.to_owned(),
                    requested_at: NOW.to_owned(),
                },
            ))
            .then_expect_events(vec![BankConnectionEvent::BankWebhookRegistered(
                BankWebhookRegistered {
                    by: OWNER.to_owned(),
                    at: NOW.to_owned(),
                },
            )]);
    }

    #[test]
    fn nothing_is_noted_or_removed_for_a_key_that_is_not_connected() {
        let disconnected = BankConnectionEvent::BankDisconnected(BankDisconnected {
            by: OWNER.to_owned(),
            at: NOW.to_owned(),
        });
        for given in [vec![], vec![connected(false), disconnected]] {
            ConnectionTest::with(())
                .given(given.clone())
                .when(BankConnectionCommand::DisconnectBank(DisconnectBank {
                    by: OWNER.to_owned(),
                    requested_at: NOW.to_owned(),
                }))
                .then_expect_error(BankConnectionError::NotConnected);
            ConnectionTest::with(())
                .given(given)
                .when(BankConnectionCommand::RecordWebhookRegistration(
                    RecordWebhookRegistration {
                        outcome: Ok(()),
                        by: OWNER.to_owned(),
                        requested_at: NOW.to_owned(),
                    },
                ))
                .then_expect_error(BankConnectionError::NotConnected);
        }
    }

    #[test]
    fn new_credentials_forget_what_the_old_ones_were_told() {
        let mut connection = BankConnection::default();
        connection.apply(connected(false));
        connection.apply(BankConnectionEvent::BankWebhookRegistrationFailed(
            BankWebhookRegistrationFailed {
                problem: "bank-scope-missing".to_owned(),
                message: "Falta o escopo webhook.write.".to_owned(),
                by: OWNER.to_owned(),
                at: NOW.to_owned(),
            },
        ));
        connection.apply(connected(true));
        assert_eq!(connection.webhook, WebhookState::NotRegistered);
        assert!(connection.last_test.is_none());
        connection.apply(BankConnectionEvent::BankDisconnected(BankDisconnected {
            by: OWNER.to_owned(),
            at: NOW.to_owned(),
        }));
        assert_eq!(connection, BankConnection::default());
    }

    fn warn_at(now: &str) -> BankConnectionCommand {
        BankConnectionCommand::WarnCertificateExpiring(WarnCertificateExpiring {
            now: now.to_owned(),
        })
    }

    fn expiring(threshold_days: u32, at: &str) -> BankConnectionEvent {
        BankConnectionEvent::BankCertificateExpiring(BankCertificateExpiring {
            certificate_fingerprint: "ab".repeat(32),
            certificate_not_after: "2027-11-28T00:00:00Z".to_owned(),
            threshold_days,
            at: at.to_owned(),
        })
    }

    #[test]
    fn a_certificate_thirty_days_from_its_end_is_warned_of_once() {
        ConnectionTest::with(())
            .given(vec![connected(false)])
            .when(warn_at("2027-10-29T00:00:00Z"))
            .then_expect_events(vec![expiring(30, "2027-10-29T00:00:00Z")]);
        ConnectionTest::with(())
            .given(vec![connected(false), expiring(30, "2027-10-29T00:00:00Z")])
            .when(warn_at("2027-11-01T00:00:00Z"))
            .then_expect_error(BankConnectionError::NothingToWarn);
    }

    #[test]
    fn seven_days_and_one_day_before_the_end_are_warned_of_again() {
        ConnectionTest::with(())
            .given(vec![connected(false), expiring(30, "2027-10-29T00:00:00Z")])
            .when(warn_at("2027-11-21T00:00:00Z"))
            .then_expect_events(vec![expiring(7, "2027-11-21T00:00:00Z")]);
        ConnectionTest::with(())
            .given(vec![
                connected(false),
                expiring(30, "2027-10-29T00:00:00Z"),
                expiring(7, "2027-11-21T00:00:00Z"),
            ])
            .when(warn_at("2027-11-27T12:00:00Z"))
            .then_expect_events(vec![expiring(1, "2027-11-27T12:00:00Z")]);
    }

    #[test]
    fn a_certificate_far_from_its_end_or_a_key_without_connection_is_not_warned_of() {
        ConnectionTest::with(())
            .given(vec![connected(false)])
            .when(warn_at("2027-06-01T00:00:00Z"))
            .then_expect_error(BankConnectionError::NothingToWarn);
        ConnectionTest::with(())
            .given_no_previous_events()
            .when(warn_at("2027-11-27T00:00:00Z"))
            .then_expect_error(BankConnectionError::NotConnected);
    }

    #[test]
    fn a_connection_made_days_before_the_end_is_warned_once_for_the_nearest_threshold() {
        let mut state = BankConnection::default();
        state.apply(connected(false));
        let event = state
            .decide(warn_at("2027-11-24T00:00:00Z"))
            .expect("warned");
        assert_eq!(event, expiring(7, "2027-11-24T00:00:00Z"));
        state.apply(event);
        assert_eq!(
            state.decide(warn_at("2027-11-25T00:00:00Z")),
            Err(BankConnectionError::NothingToWarn)
        );
    }

    #[test]
    fn new_credentials_start_the_warnings_over() {
        let mut state = BankConnection::default();
        state.apply(connected(false));
        state.apply(expiring(30, "2027-10-29T00:00:00Z"));
        state.apply(connected(true));
        assert!(state.warned_days.is_empty());
    }
}
