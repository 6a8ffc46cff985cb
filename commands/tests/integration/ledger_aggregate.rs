//! Given/when/then tests of the test ledger with cqrs-es's `TestFramework` (no database).
//!
//! `TestFramework::when` starts a runtime of its own, so these are plain `#[test]`s.

use crate::common;

use common::ledger::{Ledger, LedgerCommand, LedgerError, LedgerEvent, LedgerServices};
use cqrs_es::test::TestFramework;

fn ledger() -> TestFramework<Ledger> {
    TestFramework::with(LedgerServices::default())
}

#[test]
fn deposits_into_an_empty_ledger() {
    ledger()
        .given_no_previous_events()
        .when(LedgerCommand::Deposit {
            amount_centavos: 1_000,
        })
        .then_expect_events(vec![LedgerEvent::Deposited {
            amount_centavos: 1_000,
        }]);
}

#[test]
fn refuses_a_deposit_of_zero_centavos() {
    ledger()
        .given_no_previous_events()
        .when(LedgerCommand::Deposit { amount_centavos: 0 })
        .then_expect_error(LedgerError::NotPositive);
}

#[test]
fn a_deposit_with_a_fee_records_the_deposit_and_then_the_fee() {
    ledger()
        .given_no_previous_events()
        .when(LedgerCommand::DepositWithFee {
            amount_centavos: 1_000,
            fee_centavos: 99,
        })
        .then_expect_events(vec![
            LedgerEvent::Deposited {
                amount_centavos: 1_000,
            },
            LedgerEvent::FeeCharged { fee_centavos: 99 },
        ]);
}

#[test]
fn withdraws_what_the_balance_covers() {
    ledger()
        .given(vec![
            LedgerEvent::Deposited {
                amount_centavos: 1_000,
            },
            LedgerEvent::FeeCharged { fee_centavos: 100 },
        ])
        .when(LedgerCommand::Withdraw {
            amount_centavos: 900,
        })
        .then_expect_events(vec![LedgerEvent::Withdrawn {
            amount_centavos: 900,
        }]);
}

#[test]
fn refuses_to_withdraw_more_than_the_balance() {
    ledger()
        .given(vec![
            LedgerEvent::Deposited {
                amount_centavos: 1_000,
            },
            LedgerEvent::FeeCharged { fee_centavos: 100 },
        ])
        .when(LedgerCommand::Withdraw {
            amount_centavos: 901,
        })
        .then_expect_error_message("saldo insuficiente");
}

#[test]
fn confirming_a_covered_balance_decides_nothing() {
    ledger()
        .given(vec![LedgerEvent::Deposited {
            amount_centavos: 500,
        }])
        .when(LedgerCommand::ConfirmBalance {
            at_least_centavos: 500,
        })
        .then_expect_events(vec![]);
}
