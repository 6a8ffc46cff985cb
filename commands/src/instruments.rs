//! The metrics this crate records, by name. The gateway installs the Prometheus recorder; with no
//! recorder installed, recording is a no-op.

use std::time::Duration;

/// Histogram, seconds a command took from the idempotency check to the answer, labelled
/// `aggregate` (the aggregate type) and `outcome` (as in [`COMMANDS_TOTAL`]).
pub const COMMAND_DURATION_SECONDS: &str = "balcao_command_duration_seconds";

/// Counter of executed commands, labelled `aggregate` and `outcome`: `ok`, `replayed` (idempotent
/// repeat), `rejected`, `conflict`, `wrong_expected_version`, `idempotency_key_reused`,
/// `claim_taken`, `action_code_expired`, `storage_error` or `bug`.
pub const COMMANDS_TOTAL: &str = "balcao_commands_total";

/// Counter of command retries after losing a version race, labelled `aggregate`. A high rate means
/// a hot stream.
pub const COMMAND_RETRIES_TOTAL: &str = "balcao_command_retries_total";

/// Gauge, age in seconds of the oldest open transaction in the database (0 when none), set by
/// [`observe_oldest_transaction_age`](crate::pool::observe_oldest_transaction_age). The feed cannot move
/// past a transaction that is still open, so alert when this stays high.
pub const OLDEST_TRANSACTION_AGE_SECONDS: &str = "balcao_oldest_transaction_age_seconds";

/// Registers units and help texts for the metrics above with the installed recorder; call once after
/// installing it.
pub fn describe() {
    metrics::describe_histogram!(
        COMMAND_DURATION_SECONDS,
        metrics::Unit::Seconds,
        "Time to execute a command, from the idempotency check to the answer."
    );
    metrics::describe_counter!(
        COMMANDS_TOTAL,
        metrics::Unit::Count,
        "Commands executed, by aggregate type and outcome."
    );
    metrics::describe_counter!(
        COMMAND_RETRIES_TOTAL,
        metrics::Unit::Count,
        "Command retries after another writer took the stream's next version."
    );
    metrics::describe_gauge!(
        OLDEST_TRANSACTION_AGE_SECONDS,
        metrics::Unit::Seconds,
        "Age of the oldest open transaction in the database; the event feed waits for it."
    );
}

pub(crate) fn record_command(aggregate: &'static str, outcome: &'static str, elapsed: Duration) {
    metrics::histogram!(COMMAND_DURATION_SECONDS, "aggregate" => aggregate, "outcome" => outcome)
        .record(elapsed);
    metrics::counter!(COMMANDS_TOTAL, "aggregate" => aggregate, "outcome" => outcome).increment(1);
}

pub(crate) fn record_retry(aggregate: &'static str) {
    metrics::counter!(COMMAND_RETRIES_TOTAL, "aggregate" => aggregate).increment(1);
}

pub(crate) fn record_oldest_transaction_age(age: Option<Duration>) {
    metrics::gauge!(OLDEST_TRANSACTION_AGE_SECONDS).set(age.unwrap_or_default());
}
