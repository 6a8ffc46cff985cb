//! The one error type of the command layer, and how the gateway turns it into an HTTP status.

use std::error::Error as StdError;

use cqrs_es::AggregateError;

use crate::expected_version::ExpectedVersion;

/// Why a command (or a store operation) did not go through. `E` is the aggregate's own error.
///
/// # HTTP mapping
///
/// [`CommandError::status_code`] gives the status the gateway should answer with:
///
/// | variant | status | why |
/// |---|---|---|
/// | [`Rejected`](Self::Rejected) | 422 Unprocessable Content | the aggregate refused: a business rule, the user can fix the request (malformed input is the gateway's own 400, before any command) |
/// | [`IdempotencyKeyReused`](Self::IdempotencyKeyReused) | 422 Unprocessable Content | the client sent a key it already used for another stream |
/// | [`IdempotencyKeyConflict`](Self::IdempotencyKeyConflict) | 409 Conflict | the client sent a key it already used with another request (another [`RequestDigest`](crate::metadata::RequestDigest)) |
/// | [`Conflict`](Self::Conflict) | 409 Conflict | other writers kept changing the stream; retrying later will likely work |
/// | [`ClaimTaken`](Self::ClaimTaken) | 409 Conflict | a unique value the command claims (an e-mail address…) is already held |
/// | [`LimitReached`](Self::LimitReached) | 402 Payment Required | the month's count of QR codes would pass the plan's limit (the workflows in [`qrcodes`](crate::qrcodes) turn it into the domain's refusal, which names the plan) |
/// | [`PlanChanged`](Self::PlanChanged) | 409 Conflict | the account's subscription changed after the caller read the plan it passed; read the plan again and retry (the QR-code handlers do, so it reaches nobody) |
/// | [`ActionCodeExpired`](Self::ActionCodeExpired) | 410 Gone | the link's action code is used, expired or not for this (the gateway answers `expired-action-code`) |
/// | [`WrongExpectedVersion`](Self::WrongExpectedVersion) | 412 Precondition Failed | the caller's `If-Match` version is stale (use 409 if the expectation did not come from a precondition header) |
/// | [`Storage`](Self::Storage), transient ([`is_transient`](Self::is_transient)) | 503 Service Unavailable | pool exhausted, connection lost, timeout, lock timeout, too many connections: retry with back-off |
/// | [`Storage`](Self::Storage), other | 500 Internal Server Error | a database error that retrying will not fix |
/// | [`InvalidEventVersion`](Self::InvalidEventVersion), [`CorruptEvent`](Self::CorruptEvent), [`Serialization`](Self::Serialization) | 500 Internal Server Error | a programming or data error: log it, page someone |
#[derive(Debug, thiserror::Error)]
pub enum CommandError<E: StdError> {
    /// The aggregate refused the command (its `handle` returned an error). Nothing was appended.
    #[error("{0}")]
    Rejected(E),

    /// Every attempt lost the race for the stream's next version to another writer (the stream was
    /// reloaded and the command decided again before each retry). Nothing was appended.
    #[error(
        "o registro {stream_type}/{stream_id} mudou ao mesmo tempo {attempts} vezes; tente de novo"
    )]
    Conflict {
        /// Aggregate type of the contended stream.
        stream_type: String,
        /// The contended stream.
        stream_id: String,
        /// Attempts made (1 + retries).
        attempts: u32,
    },

    /// The stream is not at the version the caller expected. Nothing was appended.
    #[error("o registro {stream_type}/{stream_id} está na versão {actual}, e não em {expected}")]
    WrongExpectedVersion {
        /// Aggregate type of the stream.
        stream_type: String,
        /// The stream.
        stream_id: String,
        /// What the caller expected.
        expected: ExpectedVersion,
        /// The version found.
        actual: i64,
    },

    /// A value the command claims ([`Effects::claim`](crate::effects::Effects::claim)) is already held in
    /// `scope` (by another stream, or already by this one). Nothing was appended and no effect
    /// applied.
    #[error("este valor já está em uso ({scope})")]
    ClaimTaken {
        /// The claim's scope, e.g. `email` or `invite:<account id>`.
        scope: String,
    },

    /// The month's count of QR codes ([`Effects::count_qrcodes`](crate::effects::Effects::count_qrcodes))
    /// would pass the limit it was given. Nothing was appended and no effect applied.
    #[error("o limite de QR codes do mês foi atingido ({had} criados)")]
    LimitReached {
        /// The month's count before this command.
        had: u32,
    },

    /// The account's subscription stream is no longer at the version the limit of
    /// [`Effects::count_qrcodes`](crate::effects::Effects::count_qrcodes) was read at: the plan may have
    /// changed since. Nothing was appended and no effect applied; read the plan again and retry.
    #[error("o plano da conta mudou durante o pedido; tente de novo")]
    PlanChanged,

    /// The action code the command spends
    /// ([`Effects::consume_action_code`](crate::effects::Effects::consume_action_code)) is unknown, already
    /// used, expired, or issued for another purpose or account. Nothing was appended and no effect
    /// applied.
    #[error("este link expirou ou já foi usado")]
    ActionCodeExpired,

    /// The idempotency key was first used for a command on another stream. Nothing was appended.
    #[error(
        "a chave de idempotência {key} já foi usada em outro registro ({stream_type}/{stream_id})"
    )]
    IdempotencyKeyReused {
        /// The key.
        key: String,
        /// Aggregate type the key was first used with.
        stream_type: String,
        /// Stream the key was first used with.
        stream_id: String,
    },

    /// The idempotency key was first used with another request (the recorded
    /// [`RequestDigest`](crate::metadata::RequestDigest) differs). Nothing was appended.
    #[error("a chave de idempotência {key} já foi usada com outro pedido")]
    IdempotencyKeyConflict {
        /// The key.
        key: String,
    },

    /// An event's `DomainEvent::event_version()` is not a schema version (a positive integer such
    /// as `"1"`, see [`parse_schema_version`](crate::upcast::parse_schema_version)). Nothing was appended.
    #[error(
        "o evento {event_type} declara a versão de esquema {version:?}, que não é um inteiro positivo"
    )]
    InvalidEventVersion {
        /// The event type.
        event_type: String,
        /// The version string it declared.
        version: String,
    },

    /// A stored event (after upcasting) does not deserialise into the aggregate's event type: a
    /// missing upcaster or a broken one.
    #[error(
        "o evento {event_type} v{schema_version} em {stream_id}@{stream_version} não pôde ser lido: {source}"
    )]
    CorruptEvent {
        /// The stream it belongs to.
        stream_id: String,
        /// Its version in the stream.
        stream_version: i64,
        /// Its type.
        event_type: String,
        /// Its schema version after upcasting.
        schema_version: i32,
        /// What serde said.
        source: serde_json::Error,
    },

    /// An event or outcome could not be turned into JSON (or the stored outcome back from it).
    #[error("falha ao serializar: {0}")]
    Serialization(serde_json::Error),

    /// PostgreSQL or the connection pool failed.
    #[error("falha no banco de dados: {0}")]
    Storage(#[from] sqlx::Error),
}

impl<E: StdError> CommandError<E> {
    /// The HTTP status the gateway should answer with (see the table on [`CommandError`]).
    pub fn status_code(&self) -> u16 {
        match self {
            CommandError::Rejected(_) | CommandError::IdempotencyKeyReused { .. } => 422,
            CommandError::Conflict { .. }
            | CommandError::ClaimTaken { .. }
            | CommandError::IdempotencyKeyConflict { .. }
            | CommandError::PlanChanged => 409,
            CommandError::ActionCodeExpired => 410,
            CommandError::LimitReached { .. } => 402,
            CommandError::WrongExpectedVersion { .. } => 412,
            CommandError::Storage(_) if self.is_transient() => 503,
            CommandError::Storage(_)
            | CommandError::InvalidEventVersion { .. }
            | CommandError::CorruptEvent { .. }
            | CommandError::Serialization(_) => 500,
        }
    }

    /// Whether the same request may succeed if simply tried again later (conflicts and
    /// availability problems; never business rejections).
    pub fn is_transient(&self) -> bool {
        match self {
            CommandError::Conflict { .. } | CommandError::PlanChanged => true,
            CommandError::Storage(error) => storage_error_is_transient(error),
            _ => false,
        }
    }

    /// A short label for metrics and logs (`outcome` label of `balcao_commands_total`).
    pub fn kind(&self) -> &'static str {
        match self {
            CommandError::Rejected(_) => "rejected",
            CommandError::Conflict { .. } => "conflict",
            CommandError::WrongExpectedVersion { .. } => "wrong_expected_version",
            CommandError::IdempotencyKeyReused { .. } => "idempotency_key_reused",
            CommandError::IdempotencyKeyConflict { .. } => "idempotency_key_conflict",
            CommandError::ClaimTaken { .. } => "claim_taken",
            CommandError::ActionCodeExpired => "action_code_expired",
            CommandError::LimitReached { .. } => "limit_reached",
            CommandError::PlanChanged => "plan_changed",
            CommandError::InvalidEventVersion { .. }
            | CommandError::CorruptEvent { .. }
            | CommandError::Serialization(_) => "bug",
            CommandError::Storage(_) => "storage_error",
        }
    }
}

/// Whether a storage error says "not now" rather than "wrong": the same request may well
/// succeed a moment later. The gateway answers these 503 with `Retry-After`, never 500, whether
/// a command or a read met them. Under heavy load they are what a starved server answers (a
/// statement cancelled by `statement_timeout`, a lock not granted within `lock_timeout`).
///
/// Besides the pool's own timeouts and lost connections, PostgreSQL's codes (appendix A):
/// class `08` connection exception, class `53` insufficient resources (too many connections,
/// out of memory or disk), `57014` query cancelled (statement timeout), `57P01`–`57P05`
/// shutdowns and idle timeouts, `55P03` lock not available, `40001` serialization failure,
/// `40P01` deadlock detected.
pub fn storage_error_is_transient(error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed | sqlx::Error::Io(_) => true,
        sqlx::Error::Database(db) => db.code().is_some_and(|code| sqlstate_is_transient(&code)),
        _ => false,
    }
}

fn sqlstate_is_transient(code: &str) -> bool {
    code.starts_with("08")
        || code.starts_with("53")
        || code.starts_with("57P")
        || matches!(code, "57014" | "55P03" | "40001" | "40P01")
}

/// For the cqrs-es [`EventStore`](cqrs_es::EventStore) trait: conflicts become
/// `AggregateConflict`, corrupt events `DeserializationError`, storage failures
/// `DatabaseConnectionError`.
impl<E> From<CommandError<E>> for AggregateError<E>
where
    E: StdError + Send + Sync + 'static,
{
    fn from(error: CommandError<E>) -> Self {
        match error {
            CommandError::Rejected(e) => AggregateError::UserError(e),
            CommandError::Conflict { .. } | CommandError::WrongExpectedVersion { .. } => {
                AggregateError::AggregateConflict
            }
            CommandError::CorruptEvent { source, .. } => {
                AggregateError::DeserializationError(Box::new(source))
            }
            CommandError::Storage(e) => AggregateError::DatabaseConnectionError(Box::new(e)),
            other => AggregateError::UnexpectedError(Box::new(other)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("saldo insuficiente")]
    struct Insufficient;

    type Error = CommandError<Insufficient>;

    #[test]
    fn database_codes_that_mean_not_now_are_transient_and_the_rest_are_not() {
        for transient in [
            "57014", "55P03", "53300", "53200", "57P01", "57P03", "08006", "40001", "40P01",
        ] {
            assert!(sqlstate_is_transient(transient), "{transient}");
        }
        // A broken key, a bad value, a missing table: bugs or bad data; retrying won't help.
        for permanent in ["23505", "22P02", "42P01", "42703", "23503"] {
            assert!(!sqlstate_is_transient(permanent), "{permanent}");
        }
    }

    #[test]
    fn a_business_rejection_is_a_422() {
        assert_eq!(Error::Rejected(Insufficient).status_code(), 422);
    }

    #[test]
    fn an_exhausted_conflict_is_a_409_and_worth_retrying() {
        let error = Error::Conflict {
            stream_type: "ledger".into(),
            stream_id: "a".into(),
            attempts: 4,
        };
        assert_eq!(error.status_code(), 409);
        assert!(error.is_transient());
    }

    #[test]
    fn a_taken_claim_is_a_409_and_not_worth_retrying() {
        let error = Error::ClaimTaken {
            scope: "email".into(),
        };
        assert_eq!(error.status_code(), 409);
        assert_eq!(error.kind(), "claim_taken");
        assert!(!error.is_transient());
    }

    #[test]
    fn a_spent_action_code_is_a_410() {
        let error = Error::ActionCodeExpired;
        assert_eq!(error.status_code(), 410);
        assert_eq!(error.kind(), "action_code_expired");
        assert!(!error.is_transient());
    }

    #[test]
    fn a_stale_precondition_is_a_412() {
        let error = Error::WrongExpectedVersion {
            stream_type: "ledger".into(),
            stream_id: "a".into(),
            expected: ExpectedVersion::Exact(1),
            actual: 2,
        };
        assert_eq!(error.status_code(), 412);
        assert!(!error.is_transient());
    }

    #[test]
    fn a_pool_timeout_is_a_503_and_a_bad_row_a_500() {
        assert_eq!(Error::Storage(sqlx::Error::PoolTimedOut).status_code(), 503);
        assert_eq!(Error::Storage(sqlx::Error::RowNotFound).status_code(), 500);
    }
}
