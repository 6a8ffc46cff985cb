//! What a successful command answers, alone or in a batch.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::feed::FeedPosition;

/// The result of a command that went through (or of its first execution, when repeated with the
/// same idempotency key).
///
/// Also stored as JSON in `command_idempotency.result`; the field names are part of that format.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommandOutcome {
    /// Aggregate type of the stream written.
    pub stream_type: String,
    /// The stream written.
    pub stream_id: String,
    /// The stream's version after the command: its ETag. Unchanged when no event was appended.
    pub version: i64,
    /// Ids of the appended events, in stream order (empty when the command decided nothing).
    pub event_ids: Vec<Uuid>,
    /// Feed position of the last appended event: once a projection's checkpoint reaches it, the
    /// read model reflects this command (read-your-writes). `None` when nothing was appended.
    pub position: Option<FeedPosition>,
    /// True when this is the stored answer of an earlier execution with the same idempotency key
    /// (HTTP: `Idempotent-Replayed: true`); nothing was appended this time.
    #[serde(default, skip_serializing)]
    pub replayed: bool,
}

/// What a batch of new streams answers.
///
/// Also stored as JSON in `command_idempotency.result` for a keyed batch; the field names are
/// part of that format.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BatchOutcome {
    /// One outcome per stream, in the order given.
    pub outcomes: Vec<CommandOutcome>,
    /// Feed position of the batch's last event: once a projection passed it, it shows every
    /// stream of the batch. `None` when no command decided an event.
    pub position: Option<FeedPosition>,
    /// True when this is the stored answer of an earlier batch with the same idempotency key:
    /// nothing was made this time, and the streams are the first batch's.
    #[serde(default, skip_serializing)]
    pub replayed: bool,
}
