//! Refunds through a connected key's bank (issue 33, "devolução"): what happens after the refund
//! command recorded `PaymentRefundRequested` and its `bank_refunds` row
//! (`commands::bank_refunds`) in one transaction.
//!
//! One attempt ([`attempt`]), under a lock per refund so two gateways never send it together:
//! 1. the payment's stream says whether the refund still waits for the bank; if not, the row goes;
//! 2. a refund the bank has not answered about is read back first (`GET /pix/{e2eid}/devolucao/{id}`)
//!    unless this is the request's very first attempt: a crash, a timeout or a lost answer after
//!    the bank took the request must not send it twice; the bank not knowing it, it is sent
//!    (`PUT …`, natureza `ORIGINAL`);
//! 3. the bank's `Devolucao` is recorded on the payment (`TrackRefund`: a `PaymentRefunded` when
//!    its status is new or moves forward); its refusal (the amount passes what is left, the Pix is
//!    not the account's…) is recorded as `PaymentRefundRefused` with the bank's words, after
//!    reading back that the bank does not have it after all;
//! 4. a bank that does not answer (5xx, timeout, no connection) or a connection that no longer
//!    works is tried again after 10, 20, 40… seconds (at most an hour); a refund in processing is
//!    read again a minute later, until `DEVOLVIDO` or `NAO_REALIZADO` (the webhook may say so
//!    first: the stream then shows it final, and the row goes).
//!
//! The refund handler runs the first attempt itself; [`run`] takes every due row every
//! [`POLL_EVERY`] (or the catch-up's interval, when shorter).
//!
//! Metrics: `balcao_bank_refund_attempts_total{outcome}` (`tracked`, `refused`, `failed`,
//! `done`).

use std::time::Duration;

use chrono::Utc;
use commands::bank_credentials;
use commands::bank_refunds::{self, FollowedRefund};
use commands::payments::intake::same_key;
use commands::{CommandMetadata, FeedPosition};
use domain::bank_connection::BankConnection;
use domain::money::Centavos;
use domain::payment::{Payment, PaymentCommand, PaymentSource, RefuseRefund, TrackRefund};
use projections::CancellationToken;
use uuid::Uuid;

use crate::bank::{BankError, client_for, every, exclusively};
use crate::bank_catch_up::back_off;
use crate::state::AppState;

/// Refund attempts by outcome (`done`, `tracked`, `refused`, `failed`).
pub const ATTEMPTS_TOTAL: &str = "balcao_bank_refund_attempts_total";

/// How often due refunds are looked at, at most.
pub const POLL_EVERY: Duration = Duration::from_secs(30);
/// How soon a refund in processing is read again.
pub const PROCESSING_RECHECK: Duration = Duration::from_secs(60);
/// The first wait after a failed attempt ([`back_off`] doubles it after each failure in a row):
/// someone is waiting for a refund, so sooner than the catch-up's minute; shorter still when the
/// catch-up runs more often (a test's).
pub const FIRST_RETRY: Duration = Duration::from_secs(10);

/// Refunds taken per pass.
const PER_PASS: i64 = 100;

/// What one attempt did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Attempt {
    /// Another process holds the refund's lock.
    Busy,
    /// The stream shows the refund final or refused (or the payment gone): no longer followed.
    Done,
    /// The bank's answer was recorded; still in processing when `final_status` is false.
    Tracked {
        /// Whether the status is final.
        final_status: bool,
        /// Where the answer's event is in the feed (`None`: it said nothing new).
        position: Option<FeedPosition>,
    },
    /// The bank refused the request; recorded.
    Refused {
        /// The bank's words.
        reason: String,
        /// Where the refusal's event is in the feed.
        position: Option<FeedPosition>,
    },
    /// The bank could not be asked; tried again later.
    Failed {
        /// The problem's stable code.
        problem: String,
    },
}

/// The connected key of `account_id` whose Pix key is `pix_key`, if any.
///
/// # Errors
///
/// When PostgreSQL fails or a connection's stream does not load.
pub async fn connection_for(
    state: &AppState,
    account_id: Uuid,
    pix_key: &str,
) -> anyhow::Result<Option<Uuid>> {
    let keys: Vec<Uuid> =
        sqlx::query_scalar("select key_id from bank_credentials where account_id = $1")
            .bind(account_id)
            .fetch_all(&state.pool)
            .await?;
    for key_id in keys {
        let connection = state
            .payments
            .commands
            .store()
            .load::<BankConnection>(&key_id.to_string())
            .await
            .map_err(|error| anyhow::anyhow!("loading the bank connection: {error}"))?;
        if connection
            .aggregate
            .connected
            .is_some_and(|connected| same_key(&connected.pix_key, pix_key))
        {
            return Ok(Some(key_id));
        }
    }
    Ok(None)
}

fn lock_name(refund: &FollowedRefund) -> String {
    format!(
        "balcao.bank-refund.{}:{}:{}",
        refund.account_id, refund.reference, refund.refund_id
    )
}

/// One attempt at `refund`, under its lock; `first` skips reading back a request that was
/// never sent (the handler's attempt right after the command).
///
/// # Errors
///
/// When PostgreSQL fails or the payment's stream refuses the answer (the row stays, and is
/// tried again).
pub async fn attempt(
    state: &AppState,
    refund: &FollowedRefund,
    first: bool,
) -> anyhow::Result<Attempt> {
    let Some(outcome) = exclusively(
        &state.pool,
        &lock_name(refund),
        run_attempt(state, refund, first),
    )
    .await?
    else {
        return Ok(Attempt::Busy);
    };
    let outcome = outcome?;
    let label = match &outcome {
        Attempt::Busy => return Ok(outcome),
        Attempt::Done => "done",
        Attempt::Tracked { .. } => "tracked",
        Attempt::Refused { .. } => "refused",
        Attempt::Failed { .. } => "failed",
    };
    metrics::counter!(ATTEMPTS_TOTAL, "outcome" => label).increment(1);
    Ok(outcome)
}

fn stream_of(refund: &FollowedRefund) -> String {
    domain::payment::stream_id(
        &refund.account_id.hyphenated().to_string(),
        &refund.reference,
    )
}

async fn payment(state: &AppState, refund: &FollowedRefund) -> anyhow::Result<Payment> {
    state
        .payments
        .commands
        .store()
        .load::<Payment>(&stream_of(refund))
        .await
        .map(|loaded| loaded.aggregate)
        .map_err(|error| anyhow::anyhow!("loading the payment: {error}"))
}

async fn run_attempt(
    state: &AppState,
    refund: &FollowedRefund,
    first: bool,
) -> anyhow::Result<Attempt> {
    let payment = payment(state, refund).await?;
    let (true, Some(e2eid)) = (
        payment.refund_pending(&refund.refund_id),
        payment.end_to_end_id.clone(),
    ) else {
        bank_refunds::done(&state.pool, refund).await?;
        return Ok(Attempt::Done);
    };
    let credentials =
        match bank_credentials::load_opened(&state.pool, refund.account_id, refund.key_id).await {
            Ok(Some(credentials)) => credentials,
            Ok(None) => return failed(state, refund, "bank-not-connected").await,
            Err(error) => {
                tracing::warn!(%error, "the key's bank credentials could not be opened");
                return failed(state, refund, "vault").await;
            }
        };
    let client = match client_for(&state.payments.banks, &state.clock, &credentials) {
        Ok(client) => client,
        Err(error) => return failed(state, refund, error.code()).await,
    };
    let now = state.clock.now();
    let known = if first && !payment.refund_known_to_bank(&refund.refund_id) {
        None
    } else {
        match client.get_refund(&e2eid, &refund.refund_id, now).await {
            Ok(found) => found,
            Err(error) => return failed(state, refund, error.code()).await,
        }
    };
    let report = match known {
        Some(report) => report,
        None if payment.refund_known_to_bank(&refund.refund_id) => {
            // The bank reported it before and now says it has none: not ours to decide; ask
            // again later and let the operator see the problem.
            return failed(state, refund, "bank-refund-vanished").await;
        }
        None => {
            let amount = Centavos::new(u64::try_from(refund.amount_centavos).unwrap_or(0));
            match client
                .put_refund(
                    &e2eid,
                    &refund.refund_id,
                    amount,
                    refund.description.as_deref(),
                    now,
                )
                .await
            {
                Ok(report) => report,
                Err(error @ BankError::Refused { .. }) => {
                    // Refused: unless it is because our own earlier request got there.
                    return match client.get_refund(&e2eid, &refund.refund_id, now).await {
                        Ok(Some(report)) => track(state, refund, report).await,
                        Ok(None) => refuse(state, refund, error.to_string()).await,
                        Err(again) => failed(state, refund, again.code()).await,
                    };
                }
                Err(error) => return failed(state, refund, error.code()).await,
            }
        }
    };
    track(state, refund, report).await
}

fn metadata() -> CommandMetadata {
    CommandMetadata::start().by("bank-refunds")
}

async fn track(
    state: &AppState,
    refund: &FollowedRefund,
    report: domain::payment::RefundReport,
) -> anyhow::Result<Attempt> {
    let final_status = report.status.is_final();
    let command = PaymentCommand::TrackRefund(TrackRefund {
        account_id: refund.account_id.hyphenated().to_string(),
        refund: report,
        source: PaymentSource::ApiPixConsulta,
        received_at: crate::auth::accounts::now(),
    });
    let position = execute(state, refund, command).await?;
    if final_status {
        bank_refunds::done(&state.pool, refund).await?;
    } else {
        let next = Utc::now() + chrono::Duration::from_std(PROCESSING_RECHECK).unwrap_or_default();
        bank_refunds::reschedule(&state.pool, refund, next, 0, None).await?;
    }
    Ok(Attempt::Tracked {
        final_status,
        position,
    })
}

async fn refuse(
    state: &AppState,
    refund: &FollowedRefund,
    reason: String,
) -> anyhow::Result<Attempt> {
    let command = PaymentCommand::RefuseRefund(RefuseRefund {
        refund_id: refund.refund_id.clone(),
        reason: reason.clone(),
        refused_at: crate::auth::accounts::now(),
    });
    let position = execute(state, refund, command).await?;
    bank_refunds::done(&state.pool, refund).await?;
    Ok(Attempt::Refused { reason, position })
}

async fn execute(
    state: &AppState,
    refund: &FollowedRefund,
    command: PaymentCommand,
) -> anyhow::Result<Option<FeedPosition>> {
    state
        .payments
        .commands
        .execute(&stream_of(refund), command, metadata())
        .await
        .map(|outcome| outcome.position)
        .map_err(|error| anyhow::anyhow!("recording the bank's answer: {error}"))
}

async fn failed(
    state: &AppState,
    refund: &FollowedRefund,
    problem: &str,
) -> anyhow::Result<Attempt> {
    let failures = refund.failures.saturating_add(1);
    let first = FIRST_RETRY.min(state.payments.banks.catch_up_every);
    let wait = back_off(u32::try_from(failures).unwrap_or(u32::MAX), first);
    let next = Utc::now() + chrono::Duration::from_std(wait).unwrap_or_default();
    bank_refunds::reschedule(&state.pool, refund, next, failures, Some(problem)).await?;
    tracing::warn!(
        problem,
        failures,
        "a refund could not reach the bank; trying again later"
    );
    Ok(Attempt::Failed {
        problem: problem.to_owned(),
    })
}

/// Attempts every due refund.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn run_due(state: &AppState) -> anyhow::Result<Vec<Attempt>> {
    let due = bank_refunds::due(&state.pool, PER_PASS).await?;
    let mut attempts = Vec::with_capacity(due.len());
    for refund in due {
        attempts.push(attempt(state, &refund, false).await?);
    }
    Ok(attempts)
}

/// Attempts due refunds every [`POLL_EVERY`] (or the catch-up's interval, when shorter) until
/// `token` is cancelled.
pub async fn run(state: AppState, token: CancellationToken) {
    every(
        POLL_EVERY.min(state.payments.banks.catch_up_every),
        &token,
        "refund follow-up",
        || async { run_due(&state).await.map(drop) },
    )
    .await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failing_refund_is_retried_sooner_than_the_catch_up_and_never_more_than_an_hour_apart() {
        let waits: Vec<u64> = (1..=4)
            .map(|n| back_off(n, FIRST_RETRY).as_secs())
            .collect();
        assert_eq!(waits, [10, 20, 40, 80]);
        assert_eq!(
            back_off(40, FIRST_RETRY),
            crate::bank_catch_up::MAX_BACK_OFF
        );
    }
}
