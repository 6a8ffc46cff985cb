//! The JetStream stream the relay publishes to and the projectors consume from.

use std::time::Duration;

use async_nats::jetstream::{self, stream};

use crate::error::Error;

/// Where events go in JetStream, shared by the relay (which creates the stream) and the
/// projectors (which only consume from it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamSettings {
    /// Stream name, e.g. `BALCAO_EVENTS`.
    pub name: String,
    /// Subject prefix; an event goes to `<prefix>.<stream_type>` and the stream captures
    /// `<prefix>.>`.
    pub subject_prefix: String,
    /// File storage survives a server restart; memory storage is for throwaway setups.
    pub storage: stream::StorageType,
    /// Replicas (1 on a single server, 3 on a cluster).
    pub replicas: usize,
    /// How long messages stay in the stream. Projectors that fall further behind fill the gap
    /// from PostgreSQL, so this bounds disk use, not correctness.
    pub max_age: Duration,
    /// How long JetStream remembers a `Nats-Msg-Id` to drop a republished event. Must be longer
    /// than the relay's retry window.
    pub duplicate_window: Duration,
}

impl Default for StreamSettings {
    fn default() -> StreamSettings {
        StreamSettings {
            name: "BALCAO_EVENTS".to_owned(),
            subject_prefix: "balcao.events".to_owned(),
            storage: stream::StorageType::File,
            replicas: 1,
            max_age: Duration::from_secs(7 * 24 * 3600),
            duplicate_window: Duration::from_secs(10 * 60),
        }
    }
}

impl StreamSettings {
    /// The subject an event of `stream_type` is published on.
    pub fn subject_for(&self, stream_type: &str) -> String {
        // A subject token may not contain '.', '*', '>' or whitespace.
        let token: String = stream_type
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        format!("{}.{token}", self.subject_prefix)
    }

    /// The filter that matches every event subject.
    pub fn all_subjects(&self) -> String {
        format!("{}.>", self.subject_prefix)
    }

    /// Checks the settings against what JetStream accepts.
    pub fn validate(&self) -> Result<(), Error> {
        let name_ok = !self.name.is_empty()
            && self
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if !name_ok {
            return Err(Error::Config(format!(
                "stream name {:?} must be letters, digits, '_' or '-'",
                self.name
            )));
        }
        let prefix_ok = !self.subject_prefix.is_empty()
            && self.subject_prefix.split('.').all(|token| {
                !token.is_empty()
                    && token
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
            });
        if !prefix_ok {
            return Err(Error::Config(format!(
                "subject prefix {:?} must be dot-separated tokens of letters, digits, '_' or '-'",
                self.subject_prefix
            )));
        }
        if !(1..=5).contains(&self.replicas) {
            return Err(Error::Config(format!(
                "replicas must be 1 to 5, not {}",
                self.replicas
            )));
        }
        if self.duplicate_window.is_zero() || self.duplicate_window > self.max_age {
            return Err(Error::Config(format!(
                "duplicate window {:?} must be positive and at most max age {:?}",
                self.duplicate_window, self.max_age
            )));
        }
        Ok(())
    }

    fn to_config(&self) -> stream::Config {
        stream::Config {
            name: self.name.clone(),
            subjects: vec![self.all_subjects()],
            storage: self.storage,
            num_replicas: self.replicas,
            max_age: self.max_age,
            duplicate_window: self.duplicate_window,
            retention: stream::RetentionPolicy::Limits,
            discard: stream::DiscardPolicy::Old,
            ..Default::default()
        }
    }
}

/// Creates the stream, or updates it to match `settings`.
pub(crate) async fn ensure_stream(
    context: &jetstream::Context,
    settings: &StreamSettings,
) -> Result<(), Error> {
    context
        .create_or_update_stream(settings.to_config())
        .await
        .map_err(|e| Error::nats("creating or updating the stream", e))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_go_to_a_subject_per_stream_type() {
        let settings = StreamSettings::default();
        assert_eq!(settings.subject_for("qrcode"), "balcao.events.qrcode");
        assert_eq!(
            settings.subject_for("odd.type *"),
            "balcao.events.odd_type__"
        );
        assert_eq!(settings.all_subjects(), "balcao.events.>");
    }

    #[test]
    fn the_defaults_are_valid() {
        assert!(StreamSettings::default().validate().is_ok());
    }

    #[test]
    fn rejects_a_duplicate_window_longer_than_the_retention() {
        let settings = StreamSettings {
            max_age: Duration::from_secs(60),
            duplicate_window: Duration::from_secs(120),
            ..StreamSettings::default()
        };
        assert!(matches!(settings.validate(), Err(Error::Config(_))));
    }

    #[test]
    fn rejects_a_subject_prefix_with_wildcards() {
        let settings = StreamSettings {
            subject_prefix: "balcao.*".to_owned(),
            ..StreamSettings::default()
        };
        assert!(matches!(settings.validate(), Err(Error::Config(_))));
    }
}
