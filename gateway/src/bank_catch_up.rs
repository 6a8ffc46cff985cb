//! The catch-up of connected keys (issue 33, "nothing missed"): every
//! `BALCAO_BANK_CATCH_UP_SECS`, each connected key's bank is read back through the API Pix's
//! `GET /pix` and what it reports is recorded through the same intake as a webhook delivery, with
//! the source `api-pix-consulta`. A payment is one stream per end-to-end id, so a Pix the webhook
//! already delivered (or delivers later) is recorded once; the catch-up also finds the Pix the
//! spec never notifies (a transfer to the key without a txid).
//!
//! Per key, `bank_catch_up` (migration 0035) keeps up to when the bank has been read back
//! (`checked_until`). A run reads from ten minutes before it (a bank may list a Pix a little
//! after its `horario`), or from a day ago the first time, to now, page by page, and moves the
//! mark only once every page is recorded: a crash mid-way reads the same window again, which
//! records nothing twice. A failing bank is tried again after 1, 2, 4… minutes, at most an hour
//! apart, and the key's page says "sem contato com o banco desde …" with the bank's words.
//!
//! Several gateways may run this: a key is read by one at a time (a session advisory lock taken
//! with `pg_try_advisory_lock`, released with the connection if the process dies).
//!
//! Metrics: `balcao_bank_catch_up_runs_total{outcome="ok"|"failed"}`,
//! `balcao_bank_catch_up_recorded_total` (payments the catch-up appended) and, per connected key,
//! `balcao_bank_catch_up_failing_seconds{key}` (how long its bank has been out of reach).

use std::time::Duration;

use chrono::{DateTime, Utc};
use commands::CommandMetadata;
use commands::bank_credentials;
use commands::payments::intake::{Delivery, IntakeError, intake, same_key};
use domain::bank_connection::BankConnection;
use domain::payment::PaymentSource;
use projections::CancellationToken;
use uuid::Uuid;

use crate::bank::{BankError, client_for, every, exclusively};
use crate::state::AppState;

/// Catch-up runs by outcome (`ok`, `failed`).
pub const RUNS_TOTAL: &str = "balcao_bank_catch_up_runs_total";
/// Payments the catch-up appended.
pub const RECORDED_TOTAL: &str = "balcao_bank_catch_up_recorded_total";
/// Per connected key (label `key`, the key's id): for how many seconds its bank has failed the
/// catch-up, 0 while it answers. The alert `BalcaoBankOutOfReach` watches it per connection.
pub const FAILING_SECONDS: &str = "balcao_bank_catch_up_failing_seconds";

/// How far before the mark a run starts reading.
pub const OVERLAP: Duration = Duration::from_secs(10 * 60);
/// How far back the first run of a key reads.
pub const FIRST_LOOK_BACK: Duration = Duration::from_secs(24 * 60 * 60);
/// Entries asked for per page (the spec's most).
pub const PER_PAGE: u32 = 1000;
/// The longest wait between attempts at a failing bank.
pub const MAX_BACK_OFF: Duration = Duration::from_secs(60 * 60);

/// What one key's run did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyRun {
    /// Another process holds the key's lock, or the key is no longer connected.
    Skipped,
    /// Every page read and recorded.
    Done {
        /// Entries of the key the bank listed.
        listed: usize,
        /// Payment events appended (0 when everything was known).
        appended: usize,
    },
    /// The bank (or the intake) failed; tried again after the back-off.
    Failed {
        /// The problem's stable code.
        problem: String,
    },
}

/// The first wait after a failed run (a minute), doubled after each failure in a row.
pub const FIRST_BACK_OFF: Duration = Duration::from_secs(60);

/// The wait after `failures` failures in a row, from `first`: `first`, twice it, four times…,
/// at most [`MAX_BACK_OFF`] (the catch-up from a minute; refunds, someone waiting, sooner).
#[must_use]
pub fn back_off(failures: u32, first: Duration) -> Duration {
    first
        .saturating_mul(1 << failures.saturating_sub(1).min(16))
        .min(MAX_BACK_OFF)
}

/// How often the connected certificates' ends are looked at, at most (the catch-up's interval
/// when shorter): warnings are by the day, and each look reads every connection's stream.
pub const CERTIFICATES_EVERY: Duration = Duration::from_secs(60 * 60);

/// Runs every key that is due, every [`crate::bank::BankCalls::catch_up_every`], and looks at the
/// certificates' ends every [`CERTIFICATES_EVERY`], until `token` is cancelled.
pub async fn run(state: AppState, token: CancellationToken) {
    let catch_up = every(
        state.payments.banks.catch_up_every,
        &token,
        "bank catch-up",
        || async { run_due(&state).await.map(drop).map_err(Into::into) },
    );
    let certificates = every(
        CERTIFICATES_EVERY.min(state.payments.banks.catch_up_every),
        &token,
        "certificate warnings",
        || async { crate::bank_certificates::warn_due(&state).await.map(drop) },
    );
    tokio::join!(catch_up, certificates);
}

/// Runs every connected key whose next attempt is due.
///
/// # Errors
///
/// When PostgreSQL fails listing the keys (a key's own failure is noted on its row).
pub async fn run_due(state: &AppState) -> Result<Vec<(Uuid, KeyRun)>, sqlx::Error> {
    let due: Vec<(Uuid, Uuid)> = sqlx::query_as(
        "select c.key_id, c.account_id from bank_credentials c
           left join bank_catch_up u on u.key_id = c.key_id
          where coalesce(u.next_attempt_at, '-infinity') <= now()
          order by u.next_attempt_at nulls first",
    )
    .fetch_all(&state.pool)
    .await?;
    let mut runs = Vec::with_capacity(due.len());
    for (key_id, account_id) in due {
        runs.push((key_id, catch_up_key(state, account_id, key_id).await?));
    }
    Ok(runs)
}

fn lock_name(key_id: Uuid) -> String {
    format!("balcao.bank-catch-up.{key_id}")
}

/// One key's run, under its lock.
///
/// # Errors
///
/// When PostgreSQL fails taking the lock or noting the outcome.
pub async fn catch_up_key(
    state: &AppState,
    account_id: Uuid,
    key_id: Uuid,
) -> Result<KeyRun, sqlx::Error> {
    let run = exclusively(&state.pool, &lock_name(key_id), async {
        let outcome = read_back(state, account_id, key_id).await;
        note(state, account_id, key_id, outcome).await
    })
    .await?;
    run.unwrap_or(Ok(KeyRun::Skipped))
}

/// What a run found, before it is noted.
enum Outcome {
    Gone,
    Done {
        until: DateTime<Utc>,
        listed: usize,
        appended: usize,
    },
    Failed {
        problem: String,
        message: String,
    },
}

fn failed(problem: &str, message: impl Into<String>) -> Outcome {
    Outcome::Failed {
        problem: problem.to_owned(),
        message: message.into(),
    }
}

/// Reads the key's window from its bank and records what it lists.
async fn read_back(state: &AppState, account_id: Uuid, key_id: Uuid) -> Outcome {
    let credentials = match bank_credentials::load_opened(&state.pool, account_id, key_id).await {
        Ok(Some(credentials)) => credentials,
        Ok(None) => return Outcome::Gone,
        Err(error) => return failed("vault", error.to_string()),
    };
    let connection: BankConnection = match state
        .payments
        .commands
        .store()
        .load::<BankConnection>(&key_id.to_string())
        .await
    {
        Ok(loaded) => loaded.aggregate,
        Err(error) => return failed("storage", error.to_string()),
    };
    let Some(connected) = connection.connected else {
        return Outcome::Gone;
    };
    let client = match client_for(&state.payments.banks, &state.clock, &credentials) {
        Ok(client) => client,
        Err(error) => return bank_failed(&error),
    };
    let mark: Option<DateTime<Utc>> =
        match sqlx::query_scalar("select checked_until from bank_catch_up where key_id = $1")
            .bind(key_id)
            .fetch_optional(&state.pool)
            .await
        {
            Ok(mark) => mark.flatten(),
            Err(error) => return failed("storage", error.to_string()),
        };
    let now = state.clock.now();
    let since = |span: Duration| now - chrono::Duration::from_std(span).unwrap_or_default();
    let inicio = mark.map_or_else(
        || since(FIRST_LOOK_BACK),
        |mark| mark - chrono::Duration::from_std(OVERLAP).unwrap_or_default(),
    );
    let delivery = Delivery {
        account_id: account_id.hyphenated().to_string(),
        pix_key: connected.pix_key.clone(),
        source: PaymentSource::ApiPixConsulta,
        received_at: crate::auth::accounts::now(),
    };
    let metadata = CommandMetadata::start().by("bank-catch-up");
    let (mut listed, mut appended) = (0, 0);
    let mut page = 0;
    loop {
        let received = match client.received_pix(inicio, now, page, PER_PAGE).await {
            Ok(received) => received,
            Err(error) => return bank_failed(&error),
        };
        // `GET /pix` lists every key of the account at that bank: this key's are this run's.
        let mine: Vec<serde_json::Value> = received
            .entries
            .into_iter()
            .filter(|entry| {
                entry["chave"]
                    .as_str()
                    .is_none_or(|chave| same_key(chave, &connected.pix_key))
            })
            .collect();
        listed += mine.len();
        if !mine.is_empty() {
            match record(state, &delivery, &metadata, mine).await {
                Ok(events) => appended += events,
                Err(outcome) => return outcome,
            }
        }
        page += 1;
        if page >= received.pages {
            break;
        }
    }
    Outcome::Done {
        until: now,
        listed,
        appended,
    }
}

/// Records one page; an entry the spec does not allow is skipped (logged) rather than holding
/// back every other one of the page forever.
async fn record(
    state: &AppState,
    delivery: &Delivery,
    metadata: &CommandMetadata,
    entries: Vec<serde_json::Value>,
) -> Result<usize, Outcome> {
    let store = state.payments.commands.store();
    let body = serde_json::json!({ "pix": entries }).to_string();
    match intake(store, delivery, body.as_bytes(), metadata).await {
        Ok(accepted) => Ok(accepted.recorded.events),
        Err(IntakeError::Malformed(_)) => {
            let mut appended = 0;
            for entry in entries {
                let one = serde_json::json!({ "pix": [entry] }).to_string();
                match intake(store, delivery, one.as_bytes(), metadata).await {
                    Ok(accepted) => appended += accepted.recorded.events,
                    Err(IntakeError::Malformed(problems)) => tracing::warn!(
                        problems = problems.len(),
                        "the bank listed a Pix the API Pix schema does not allow; skipped"
                    ),
                    Err(error) => return Err(failed("intake", error.to_string())),
                }
            }
            Ok(appended)
        }
        Err(error) => Err(failed("intake", error.to_string())),
    }
}

fn bank_failed(error: &BankError) -> Outcome {
    failed(error.code(), error.to_string())
}

/// Notes the outcome on the key's row and in the metrics.
async fn note(
    state: &AppState,
    account_id: Uuid,
    key_id: Uuid,
    outcome: Outcome,
) -> Result<KeyRun, sqlx::Error> {
    match outcome {
        Outcome::Gone => Ok(KeyRun::Skipped),
        Outcome::Done {
            until,
            listed,
            appended,
        } => {
            let every = i64::try_from(state.payments.banks.catch_up_every.as_secs()).unwrap_or(300);
            sqlx::query(
                "insert into bank_catch_up (key_id, account_id, checked_until, last_success_at,
                        failing_since, failures, last_problem, next_attempt_at, recorded)
                 values ($1, $2, $3, now(), null, 0, null, now() + $4 * interval '1 second', $5)
                 on conflict (key_id) do update
                    set checked_until = excluded.checked_until, last_success_at = now(),
                        failing_since = null, failures = 0, last_problem = null,
                        next_attempt_at = excluded.next_attempt_at,
                        recorded = bank_catch_up.recorded + excluded.recorded",
            )
            .bind(key_id)
            .bind(account_id)
            .bind(until)
            .bind(every)
            .bind(i64::try_from(appended).unwrap_or(i64::MAX))
            .execute(&state.pool)
            .await?;
            metrics::counter!(RUNS_TOTAL, "outcome" => "ok").increment(1);
            metrics::gauge!(FAILING_SECONDS, "key" => key_id.to_string()).set(0.0);
            metrics::counter!(RECORDED_TOTAL).increment(u64::try_from(appended).unwrap_or(0));
            if appended > 0 {
                tracing::info!(
                    listed,
                    appended,
                    "bank catch-up recorded what the webhook had not"
                );
            }
            Ok(KeyRun::Done { listed, appended })
        }
        Outcome::Failed { problem, message } => {
            let failures: i32 = sqlx::query_scalar(
                "select coalesce((select failures from bank_catch_up where key_id = $1), 0) + 1",
            )
            .bind(key_id)
            .fetch_one(&state.pool)
            .await?;
            let wait = back_off(u32::try_from(failures).unwrap_or(u32::MAX), FIRST_BACK_OFF);
            let failing_for: f64 = sqlx::query_scalar(
                "insert into bank_catch_up (key_id, account_id, failing_since, failures,
                        last_problem, next_attempt_at)
                 values ($1, $2, now(), $3, $4, now() + $5 * interval '1 second')
                 on conflict (key_id) do update
                    set failing_since = coalesce(bank_catch_up.failing_since, now()),
                        failures = excluded.failures, last_problem = excluded.last_problem,
                        next_attempt_at = excluded.next_attempt_at
                 returning extract(epoch from now() - failing_since)::float8",
            )
            .bind(key_id)
            .bind(account_id)
            .bind(failures)
            .bind(&message)
            .bind(i64::try_from(wait.as_secs()).unwrap_or(3600))
            .fetch_one(&state.pool)
            .await?;
            metrics::counter!(RUNS_TOTAL, "outcome" => "failed").increment(1);
            metrics::gauge!(FAILING_SECONDS, "key" => key_id.to_string()).set(failing_for);
            tracing::warn!(
                problem,
                failures,
                "bank catch-up failed; trying again later"
            );
            Ok(KeyRun::Failed { problem })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failing_bank_is_tried_again_after_one_two_four_minutes_and_at_most_an_hour() {
        let minutes: Vec<u64> = (1..=9)
            .map(|n| back_off(n, FIRST_BACK_OFF).as_secs() / 60)
            .collect();
        assert_eq!(minutes, [1, 2, 4, 8, 16, 32, 60, 60, 60]);
    }
}
