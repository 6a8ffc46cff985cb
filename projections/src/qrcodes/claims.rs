//! `QrCodeClaimed`: a visitor's code claimed by an account. Its row's `owner_id` becomes the
//! account and `created_by` the person who claimed it, so the code is listed (and counted) as
//! any other code of that account; replay does the same, so replay equals live.
//!
//! Claims are rare beside creations: one set-based `update … from unnest(…)` per batch that has
//! any. During replay's fill the table has no key yet (`keys_built_after_replay`), so claims are
//! noted instead and applied in one pass after the fill (`super::replay_changes`).

use commands::Upcasters;
use commands::feed::StoredEvent;
use serde::Deserialize;
use sqlx::PgConnection;
use uuid::Uuid;

use crate::projection::ApplyError;

/// The event type.
pub const CLAIMED: &str = "QrCodeClaimed";

/// Payload of `QrCodeClaimed` in its current shape (schema version 1).
#[derive(Debug, Deserialize)]
pub(super) struct QrCodeClaimedV1 {
    pub(super) qrcode_id: Uuid,
    pub(super) owner_id: Uuid,
    pub(super) claimed_by: String,
}

/// The claims of one batch, in feed order.
#[derive(Debug, Default)]
pub(super) struct Claims {
    qrcode_id: Vec<Uuid>,
    owner_id: Vec<Uuid>,
    claimed_by: Vec<String>,
    /// The claim's version in the code's stream (replay's notes keep the last).
    version: Vec<i64>,
}

impl Claims {
    /// Reads one `QrCodeClaimed`, or names it for parking when its version or payload is not
    /// the one this read model knows.
    pub(super) fn push(
        &mut self,
        upcasters: &Upcasters,
        event: &StoredEvent,
    ) -> Result<(), ApplyError> {
        let current = upcasters.current_version(CLAIMED);
        if event.schema_version != current {
            return Err(ApplyError::Rejected {
                event_id: event.event_id,
                reason: format!(
                    "unknown schema version {} of {CLAIMED}",
                    event.schema_version
                ),
            });
        }
        let claimed = event
            .payload
            .deserialize::<QrCodeClaimedV1>()
            .map_err(|error| ApplyError::Rejected {
                event_id: event.event_id,
                reason: format!("payload of {CLAIMED} v{current} does not deserialise: {error}"),
            })?;
        self.qrcode_id.push(claimed.qrcode_id);
        self.owner_id.push(claimed.owner_id);
        self.claimed_by.push(claimed.claimed_by);
        self.version.push(event.stream_version);
        Ok(())
    }

    /// Moves each claimed code into its account in table `t`. A code is claimed once (the
    /// aggregate refuses a second claim), so no two claims of a batch name the same row.
    /// Replay's fill: notes the claims in `changes` (`qrcode_replay_changes`), applied once the
    /// fill ends (see `super::replay_changes`).
    pub(super) async fn note(
        self,
        conn: &mut PgConnection,
        changes: &str,
    ) -> Result<(), sqlx::Error> {
        if self.qrcode_id.is_empty() {
            return Ok(());
        }
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "insert into {changes} (qrcode_id, version, kind, owner_id, claimed_by)
             select c.qrcode_id, c.version, 'claim', c.owner_id, c.claimed_by
               from unnest($1::uuid[], $2::bigint[], $3::uuid[], $4::text[])
                 as c(qrcode_id, version, owner_id, claimed_by)"
        )))
        .bind(&self.qrcode_id)
        .bind(&self.version)
        .bind(&self.owner_id)
        .bind(&self.claimed_by)
        .execute(&mut *conn)
        .await?;
        Ok(())
    }

    /// Moves each claimed code into its account in table `t`.
    pub(super) async fn apply(self, conn: &mut PgConnection, t: &str) -> Result<(), sqlx::Error> {
        if self.qrcode_id.is_empty() {
            return Ok(());
        }
        // A code whose creation was parked has no row: nothing to move, as in replay.
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "update {t} q
                set owner_id = c.owner_id, created_by = c.claimed_by
               from unnest($1::uuid[], $2::uuid[], $3::text[]) as c(qrcode_id, owner_id, claimed_by)
              where q.qrcode_id = c.qrcode_id"
        )))
        .bind(&self.qrcode_id)
        .bind(&self.owner_id)
        .bind(&self.claimed_by)
        .execute(&mut *conn)
        .await?;
        Ok(())
    }
}
