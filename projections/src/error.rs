//! The one error type of this crate's runtime parts (relay, projector, replay, queries).

use std::time::Duration;

/// Why a relay, projector, replay or read-model query failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// PostgreSQL refused or lost the connection.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    /// A JetStream API call (stream or consumer management, publish, pull) failed.
    #[error("NATS JetStream: {context}: {source}")]
    Nats {
        /// What was being done.
        context: &'static str,
        /// The client's error.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// An event could not be serialised for publishing.
    #[error("serialising event {event_id}: {source}")]
    Encode {
        /// The event.
        event_id: uuid::Uuid,
        /// The serialiser's error.
        source: serde_json::Error,
    },
    /// A configuration value breaks an invariant; the message says which.
    #[error("invalid configuration: {0}")]
    Config(String),
    /// The relay kept failing to publish a batch for longer than its retry window.
    #[error("publishing failed for longer than the retry window ({window:?}): {last_error}")]
    PublishRetriesExhausted {
        /// The configured retry window.
        window: Duration,
        /// The last failure seen.
        last_error: String,
    },
    /// No projection is registered under this name.
    #[error("unknown projection {0:?}")]
    UnknownProjection(String),
    /// Another replay of this projection holds its replay lock.
    #[error("a replay of projection {0:?} is already running")]
    ReplayInProgress(String),
    /// A long-running loop lost something it needs (its lock's connection, its message
    /// stream) and starts over.
    #[error("interrupted: {0}")]
    Interrupted(&'static str),
    /// The relay stopped at an injected fault point (testing aid, see `relay::Fault`).
    #[error("injected fault: {0}")]
    InjectedFault(&'static str),
}

impl Error {
    /// Wraps a NATS client error with what was being done.
    pub(crate) fn nats(
        context: &'static str,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> Self {
        Error::Nats {
            context,
            source: Box::new(source),
        }
    }
}
