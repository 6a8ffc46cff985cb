//! The `command_idempotency` table: the first outcome of every command that carried a key, and
//! the digest of the request it answered ([`RequestDigest`]), so that the same key sent with
//! another request is refused (409) rather than answered with an outcome that is not its own.

use std::time::Duration;

use sqlx::{PgExecutor, PgPool};

use crate::error::CommandError;
use crate::metadata::{IdempotencyKey, RequestDigest};
use crate::outcome::BatchOutcome;
use crate::outcome::CommandOutcome;

/// Name of the primary key on the idempotency key.
pub(crate) const KEY_CONSTRAINT: &str = "command_idempotency_pkey";

/// A recorded first outcome.
#[derive(sqlx::FromRow)]
pub(crate) struct Recorded {
    pub(crate) stream_type: String,
    pub(crate) stream_id: String,
    pub(crate) result: serde_json::Value,
    /// The digest of the first request, when it carried one (migration 0006).
    pub(crate) request_digest: Option<Vec<u8>>,
}

impl Recorded {
    /// The recorded outcome, marked as replayed, if the key was recorded for this same stream and
    /// this same request. A digest missing on either side (a key recorded before digests were,
    /// or a caller that gives none) cannot be compared and is taken as the same request.
    pub(crate) fn replay<E: std::error::Error>(
        self,
        key: &IdempotencyKey,
        digest: Option<&RequestDigest>,
        stream_type: &str,
        stream_id: &str,
    ) -> Result<CommandOutcome, CommandError<E>> {
        if self.stream_type != stream_type || self.stream_id != stream_id {
            return Err(CommandError::IdempotencyKeyReused {
                key: key.to_string(),
                stream_type: self.stream_type,
                stream_id: self.stream_id,
            });
        }
        if let (Some(recorded), Some(given)) = (&self.request_digest, digest)
            && recorded.as_slice() != given.as_bytes()
        {
            return Err(CommandError::IdempotencyKeyConflict {
                key: key.to_string(),
            });
        }
        let mut outcome: CommandOutcome =
            serde_json::from_value(self.result).map_err(CommandError::Serialization)?;
        outcome.replayed = true;
        Ok(outcome)
    }

    /// The recorded outcome of a batch (`CommandService::create_streams`), marked as replayed, if
    /// the key was recorded by a batch of the same aggregate type for this same request. A
    /// batch's streams are its own (a retry may bring fresh ids), so they are not compared; a key
    /// recorded by a single-stream command is another command's.
    pub(crate) fn replay_batch<E: std::error::Error>(
        self,
        key: &IdempotencyKey,
        digest: Option<&RequestDigest>,
        stream_type: &str,
    ) -> Result<BatchOutcome, CommandError<E>> {
        let Recorded {
            stream_type: recorded_type,
            stream_id,
            result,
            request_digest,
        } = self;
        let reused = || CommandError::IdempotencyKeyReused {
            key: key.to_string(),
            stream_type: recorded_type.clone(),
            stream_id: stream_id.clone(),
        };
        if recorded_type != stream_type {
            return Err(reused());
        }
        if let (Some(recorded), Some(given)) = (&request_digest, digest)
            && recorded.as_slice() != given.as_bytes()
        {
            return Err(CommandError::IdempotencyKeyConflict {
                key: key.to_string(),
            });
        }
        // A single command's outcome has no `outcomes`: the key was not a batch's.
        let Ok(mut outcome) = serde_json::from_value::<BatchOutcome>(result) else {
            return Err(reused());
        };
        outcome.replayed = true;
        for one in &mut outcome.outcomes {
            one.replayed = true;
        }
        Ok(outcome)
    }
}

/// The outcome recorded under `key`, if any.
pub(crate) async fn find(
    pool: &PgPool,
    key: &IdempotencyKey,
) -> Result<Option<Recorded>, sqlx::Error> {
    sqlx::query_as(
        "select stream_type, stream_id, result, request_digest
           from command_idempotency where idempotency_key = $1",
    )
    .bind(key.as_str())
    .fetch_optional(pool)
    .await
}

/// Records the outcome of a command that appended nothing (commands that append record theirs in
/// the append statement itself), on the pool or inside a command's transaction.
pub(crate) async fn record<'e>(
    executor: impl PgExecutor<'e>,
    key: &IdempotencyKey,
    digest: Option<&RequestDigest>,
    stream_type: &str,
    stream_id: &str,
    result: &serde_json::Value,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "insert into command_idempotency (idempotency_key, stream_type, stream_id, result,
                                          request_digest)
         values ($1, $2, $3, $4, $5)",
    )
    .bind(key.as_str())
    .bind(stream_type)
    .bind(stream_id)
    .bind(result)
    .bind(digest.map(RequestDigest::as_bytes))
    .execute(executor)
    .await?;
    Ok(())
}

/// Forgets idempotency keys recorded more than `older_than` ago; returns how many.
///
/// After this, repeating one of those commands executes it again, so keep keys at least as long
/// as clients may retry (a day is common).
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn prune_idempotency_keys(
    pool: &PgPool,
    older_than: Duration,
) -> Result<u64, sqlx::Error> {
    let micros = i64::try_from(older_than.as_micros()).unwrap_or(i64::MAX);
    let done = sqlx::query(
        "delete from command_idempotency where recorded_at < now() - $1::bigint * interval '1 microsecond'",
    )
    .bind(micros)
    .execute(pool)
    .await?;
    Ok(done.rows_affected())
}
