//! The contract every read model implements.

use async_trait::async_trait;
use commands::feed::StoredEvent;
use sqlx::PgConnection;
use uuid::Uuid;

/// A read model built from the feed.
///
/// The runtime calls [`Projection::apply_batch`] inside a transaction that also moves the
/// projection's checkpoint, so an implementation only writes its own tables and never commits.
/// Events arrive in feed order, each exactly once per table set: the runtime has already
/// dropped redeliveries and filled gaps.
#[async_trait]
pub trait Projection: Send + Sync + 'static {
    /// Stable, unique name: the JetStream durable consumer name, the checkpoint key and part of
    /// the lock keys. Lower-case letters, digits and `_` only (it is also part of a NOTIFY
    /// channel name).
    fn name(&self) -> &'static str;

    /// The live names of the tables this projection owns; replay rebuilds all of them.
    fn tables(&self) -> &'static [&'static str];

    /// Creates an empty set of this projection's tables named by `target`, with the same
    /// columns, constraints and indexes as the live ones.
    async fn create_tables(
        &self,
        conn: &mut PgConnection,
        target: &TableSet,
    ) -> Result<(), sqlx::Error>;

    /// Applies `events` (feed order, possibly including events this projection ignores) to the
    /// tables named by `target`.
    ///
    /// Return [`ApplyError::Rejected`] naming the event when one cannot be applied (bad payload,
    /// unknown schema version): the runtime parks it and applies the rest. Database errors
    /// abort the batch; the runtime tells event-specific ones (constraint and data errors,
    /// which it parks) from outages (which it retries).
    async fn apply_batch(
        &self,
        conn: &mut PgConnection,
        target: &TableSet,
        events: &[StoredEvent],
    ) -> Result<(), ApplyError>;
}

/// Why [`Projection::apply_batch`] failed.
#[derive(Debug, thiserror::Error)]
pub enum ApplyError {
    /// This event can never be applied as it is; the runtime parks it.
    #[error("event {event_id} rejected: {reason}")]
    Rejected {
        /// The offending event.
        event_id: Uuid,
        /// Why, for the parked-events table and the log.
        reason: String,
    },
    /// The database refused a statement.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
}

/// Which physical tables a projection writes: the live ones or a fresh rebuild set.
///
/// Rebuild tables are named `<live>__rebuild_<generation>`; replay fills them and then renames
/// them to the live names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableSet {
    suffix: Option<String>,
}

impl TableSet {
    /// The live tables the gateway reads.
    pub fn live() -> TableSet {
        TableSet { suffix: None }
    }

    /// A rebuild set; `generation` comes from the `projection_rebuild_generation` sequence, so
    /// two rebuilds never share names.
    pub fn rebuild(generation: i64) -> TableSet {
        TableSet {
            suffix: Some(format!("{REBUILD_MARKER}{generation}")),
        }
    }

    /// The physical name of the table whose live name is `live_name`.
    pub fn table(&self, live_name: &str) -> String {
        match &self.suffix {
            None => live_name.to_owned(),
            Some(suffix) => format!("{live_name}{suffix}"),
        }
    }

    /// Whether these are the live tables.
    pub fn is_live(&self) -> bool {
        self.suffix.is_none()
    }
}

/// What separates a live table name from its rebuild generation.
pub(crate) const REBUILD_MARKER: &str = "__rebuild_";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn live_tables_keep_their_names_and_rebuilds_get_a_generation_suffix() {
        assert_eq!(TableSet::live().table("qrcodes"), "qrcodes");
        assert_eq!(TableSet::rebuild(7).table("qrcodes"), "qrcodes__rebuild_7");
        assert!(TableSet::live().is_live());
        assert!(!TableSet::rebuild(7).is_live());
    }
}
