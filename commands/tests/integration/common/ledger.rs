//! A small aggregate for the tests: a ledger holding centavos.
//!
//! Its services carry two test hooks that run inside `handle`, between the command service's load
//! and its append, to stage races deterministically: a competing writer and a gate.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use commands::{CommandMetadata, ExpectedVersion, PgEventStore};
use cqrs_es::event_sink::EventSink;
use cqrs_es::{Aggregate, DomainEvent};
use serde::{Deserialize, Serialize};
use tokio::sync::Barrier;

/// The ledger's state.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ledger {
    /// Current balance.
    pub balance_centavos: i64,
}

/// What can be asked of a ledger.
#[derive(Debug, Clone, PartialEq)]
pub enum LedgerCommand {
    /// Put money in.
    Deposit { amount_centavos: i64 },
    /// Put money in and charge a fee on it (two events).
    DepositWithFee {
        amount_centavos: i64,
        fee_centavos: i64,
    },
    /// Take money out.
    Withdraw { amount_centavos: i64 },
    /// Check the balance covers an amount; decides nothing.
    ConfirmBalance { at_least_centavos: i64 },
}

/// What happened to a ledger.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum LedgerEvent {
    /// Money came in. Schema version 2: version 1 stored the amount as a pt-BR decimal string
    /// in `valor` (see the upcasting tests).
    Deposited { amount_centavos: i64 },
    /// A fee was charged.
    FeeCharged { fee_centavos: i64 },
    /// Money went out.
    Withdrawn { amount_centavos: i64 },
}

impl DomainEvent for LedgerEvent {
    fn event_type(&self) -> String {
        match self {
            LedgerEvent::Deposited { .. } => "Deposited",
            LedgerEvent::FeeCharged { .. } => "FeeCharged",
            LedgerEvent::Withdrawn { .. } => "Withdrawn",
        }
        .to_owned()
    }

    fn event_version(&self) -> String {
        match self {
            LedgerEvent::Deposited { .. } => "2",
            LedgerEvent::FeeCharged { .. } | LedgerEvent::Withdrawn { .. } => "1",
        }
        .to_owned()
    }
}

/// Why a ledger refuses a command.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LedgerError {
    /// Amounts must be positive.
    #[error("o valor deve ser maior que zero")]
    NotPositive,
    /// Not enough money.
    #[error("saldo insuficiente")]
    InsufficientFunds,
}

/// Test hooks run at the start of `handle`.
#[derive(Default)]
pub struct LedgerServices {
    /// Appends a competing deposit to a stream, behind the command service's back.
    pub interference: Option<Interference>,
    /// Holds every `handle` until as many have arrived as the barrier counts.
    pub gate: Option<Arc<Barrier>>,
}

/// A competing writer: appends a 1-centavo deposit to `stream_id` on its next `strikes` calls.
pub struct Interference {
    store: PgEventStore,
    stream_id: String,
    strikes: AtomicU32,
}

impl Interference {
    /// A writer that will strike `strikes` times.
    pub fn new(store: PgEventStore, stream_id: &str, strikes: u32) -> Self {
        Interference {
            store,
            stream_id: stream_id.to_owned(),
            strikes: AtomicU32::new(strikes),
        }
    }

    async fn strike(&self) {
        let left = self
            .strikes
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1));
        if left.is_ok() {
            self.store
                .append::<Ledger>(
                    &self.stream_id,
                    ExpectedVersion::Any,
                    &[LedgerEvent::Deposited { amount_centavos: 1 }],
                    &CommandMetadata::start().by("interference"),
                )
                .await
                .expect("the competing writer appends");
        }
    }
}

impl Aggregate for Ledger {
    const TYPE: &'static str = "ledger";
    type Command = LedgerCommand;
    type Event = LedgerEvent;
    type Error = LedgerError;
    type Services = LedgerServices;

    async fn handle(
        &mut self,
        command: LedgerCommand,
        services: &LedgerServices,
        sink: &EventSink<Self>,
    ) -> Result<(), LedgerError> {
        if let Some(interference) = &services.interference {
            interference.strike().await;
        }
        if let Some(gate) = &services.gate {
            gate.wait().await;
        }
        match command {
            LedgerCommand::Deposit { amount_centavos } => {
                if amount_centavos <= 0 {
                    return Err(LedgerError::NotPositive);
                }
                sink.write(LedgerEvent::Deposited { amount_centavos }, self)
                    .await;
            }
            LedgerCommand::DepositWithFee {
                amount_centavos,
                fee_centavos,
            } => {
                if amount_centavos <= 0 || fee_centavos <= 0 {
                    return Err(LedgerError::NotPositive);
                }
                sink.write(LedgerEvent::Deposited { amount_centavos }, self)
                    .await;
                sink.write(LedgerEvent::FeeCharged { fee_centavos }, self)
                    .await;
            }
            LedgerCommand::Withdraw { amount_centavos } => {
                if amount_centavos <= 0 {
                    return Err(LedgerError::NotPositive);
                }
                if amount_centavos > self.balance_centavos {
                    return Err(LedgerError::InsufficientFunds);
                }
                sink.write(LedgerEvent::Withdrawn { amount_centavos }, self)
                    .await;
            }
            LedgerCommand::ConfirmBalance { at_least_centavos } => {
                if at_least_centavos > self.balance_centavos {
                    return Err(LedgerError::InsufficientFunds);
                }
            }
        }
        Ok(())
    }

    fn apply(&mut self, event: LedgerEvent) {
        match event {
            LedgerEvent::Deposited { amount_centavos } => self.balance_centavos += amount_centavos,
            LedgerEvent::FeeCharged { fee_centavos } => self.balance_centavos -= fee_centavos,
            LedgerEvent::Withdrawn { amount_centavos } => self.balance_centavos -= amount_centavos,
        }
    }
}
