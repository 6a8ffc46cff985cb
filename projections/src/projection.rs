//! The contract every read model implements.

use async_trait::async_trait;
use commands::Upcasters;
use commands::feed::{FeedFields, StoredEvent};
use sqlx::PgConnection;
use uuid::Uuid;

/// A read model built from the feed.
///
/// The runtime calls [`Projection::apply_batch`] inside a transaction that also moves the
/// projection's checkpoint, so an implementation only writes its own tables and never commits.
/// Events arrive in feed order, each exactly once per table set: the runtime has already
/// dropped redeliveries and filled gaps, and upcast every event with `upcasters`.
///
/// A projection owns no DDL: its tables come from `migrations/`, and replay makes its fresh
/// tables as copies of the live ones.
#[async_trait]
pub trait Projection: Send + Sync + 'static {
    /// Stable, unique name: the JetStream durable consumer name, the checkpoint key and part of
    /// the lock keys. Lower-case letters, digits and `_` only (it is also part of a NOTIFY
    /// channel name).
    fn name(&self) -> &'static str;

    /// The live names of the tables this projection owns; replay rebuilds all of them.
    fn tables(&self) -> &'static [&'static str];

    /// The stream types whose events change this read model; `None` (the default) for every
    /// event. The live projector lets a batch holding only other streams' events wait, up to
    /// [`ProjectorConfig::hold_other_streams`](crate::projector::ProjectorConfig), and commits it
    /// with the next batch that matters (one checkpoint round instead of one per batch: eight
    /// projections each committed a round per creation). Replay applies every event, so a
    /// stream left out here makes replay and live differ, which the replay tests see.
    fn streams(&self) -> Option<&'static [&'static str]> {
        None
    }

    /// The parts of each event [`Projection::apply_batch`] reads beyond its envelope (ids,
    /// position, stream, type, schema version, time): by default the payloads of
    /// [`Projection::streams`] and no metadata. Every runtime, live and replay, hands the
    /// projection events narrowed to these fields ([`FeedFields::narrow`]), so a payload left
    /// out shows in every test; replay asks PostgreSQL for no more than this, which is most of
    /// its reading cost on a large log.
    fn reads(&self) -> FeedFields {
        match self.streams() {
            Some(streams) => FeedFields::payloads_of(streams),
            None => FeedFields::everything(),
        }
    }

    /// Whether replay may leave this projection's plain indexes (neither unique nor behind a
    /// constraint) out while it fills fresh tables, and build them once at the end: much cheaper
    /// than keeping them up to date row by row. Say yes only when `apply_batch` never finds rows
    /// through such an index (it only inserts, or looks rows up by a unique key), or replay would
    /// scan whole tables instead.
    fn indexes_built_after_replay(&self) -> bool {
        false
    }

    /// Whether replay may also leave the primary key and unique indexes out while it fills fresh
    /// tables, building them once at the end (a sorted pass instead of a random B-tree insert
    /// per row). Say yes only when `apply_batch` never reads its own tables (it only inserts)
    /// and implements [`Projection::remove_refused_by_keys`], which finds afterwards the rows
    /// the keys would have refused.
    fn keys_built_after_replay(&self) -> bool {
        false
    }

    /// Replay only, for a projection whose keys are built after the fill: deletes from
    /// `target` every row a unique key would have refused had it been there (each repeat of a
    /// key after its first, in feed order) and returns the events those rows came from. Replay
    /// parks them, as live parks an event whose insert breaks a key.
    async fn remove_refused_by_keys(
        &self,
        _conn: &mut PgConnection,
        _target: &TableSet,
    ) -> Result<Vec<Uuid>, sqlx::Error> {
        Ok(Vec::new())
    }

    /// Replay only: called once after the fill, before the keys and indexes left out are built
    /// and before the switch's catch-up. A projection that noted changes while
    /// [`TableSet::is_filling`] applies them here, in one pass, and leaves its note tables
    /// empty.
    async fn finish_fill(
        &self,
        _conn: &mut PgConnection,
        _target: &TableSet,
    ) -> Result<(), sqlx::Error> {
        Ok(())
    }

    /// Replay only: called after [`Projection::finish_fill`], while the keys and indexes left
    /// out are built, and before the rows a key refuses are removed. A projection fills here
    /// the tables it derives from its filled ones (counts, sums), reading them and nothing
    /// else: their index builds let readers in but no writer. Running beside the index builds
    /// instead of before them, a pass over a large table costs no time of its own.
    async fn derive_after_fill(
        &self,
        _conn: &mut PgConnection,
        _target: &TableSet,
    ) -> Result<(), sqlx::Error> {
        Ok(())
    }

    /// Applies `events` (feed order, possibly including events this projection ignores) to the
    /// tables named by `target`.
    ///
    /// The events are already upcast with `upcasters`: a payload the projection reads must be at
    /// `upcasters.current_version(event_type)`, and any other version (written by newer code) is
    /// rejected rather than guessed at.
    ///
    /// Return [`ApplyError::Rejected`] naming the event when one cannot be applied (bad payload,
    /// unknown schema version): the runtime parks it and applies the rest. Database errors
    /// abort the batch; the runtime tells event-specific ones (constraint and data errors,
    /// which it parks) from outages (which it retries).
    async fn apply_batch(
        &self,
        conn: &mut PgConnection,
        target: &TableSet,
        upcasters: &Upcasters,
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
    filling: bool,
}

impl TableSet {
    /// The live tables the gateway reads.
    pub fn live() -> TableSet {
        TableSet {
            suffix: None,
            filling: false,
        }
    }

    /// A rebuild set; `generation` comes from the `projection_rebuild_generation` sequence, so
    /// two rebuilds never share names.
    pub fn rebuild(generation: i64) -> TableSet {
        TableSet {
            suffix: Some(format!("{REBUILD_MARKER}{generation}")),
            filling: false,
        }
    }

    /// The same rebuild set during replay's fill: the keys and indexes left out
    /// ([`Projection::keys_built_after_replay`], [`Projection::indexes_built_after_replay`])
    /// are not there yet, and [`Projection::finish_fill`] runs once the fill ends. The switch's
    /// catch-up uses the plain rebuild set, with every key built.
    pub fn filling(&self) -> TableSet {
        TableSet {
            suffix: self.suffix.clone(),
            filling: self.suffix.is_some(),
        }
    }

    /// Whether this is a rebuild set during replay's fill (see [`TableSet::filling`]): a
    /// projection may then note its changes to rows already written and apply them all in
    /// [`Projection::finish_fill`], instead of joining each batch's few with the whole table.
    pub fn is_filling(&self) -> bool {
        self.filling
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

    #[test]
    fn only_a_rebuild_set_can_be_filling_and_it_names_the_same_tables() {
        let filling = TableSet::rebuild(7).filling();
        assert!(filling.is_filling());
        assert_eq!(filling.table("qrcodes"), "qrcodes__rebuild_7");
        assert!(!TableSet::rebuild(7).is_filling());
        assert!(!TableSet::live().filling().is_filling());
    }
}
