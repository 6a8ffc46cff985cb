//! Who asked for a command, why, and under which idempotency key.

use std::collections::HashMap;
use std::fmt;

use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// A client-chosen key that makes a command safe to repeat (the `Idempotency-Key` HTTP header).
///
/// 1 to 255 visible ASCII characters (`!` to `~`): anything else is refused at the edge, so the
/// key can be logged and stored as is.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct IdempotencyKey(String);

/// The text given as an idempotency key is empty, too long or not visible ASCII.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("chave de idempotência inválida: use de 1 a 255 caracteres ASCII visíveis")]
pub struct InvalidIdempotencyKey;

impl IdempotencyKey {
    /// The longest key accepted, in bytes (= characters, as only ASCII is allowed).
    pub const MAX_LEN: usize = 255;

    /// Parses a key.
    ///
    /// # Errors
    ///
    /// [`InvalidIdempotencyKey`] when `text` is empty, longer than [`Self::MAX_LEN`] or has a
    /// character outside `!`..=`~` (spaces and control characters included).
    pub fn parse(text: &str) -> Result<Self, InvalidIdempotencyKey> {
        let visible = text.bytes().all(|b| b.is_ascii_graphic());
        if text.is_empty() || text.len() > Self::MAX_LEN || !visible {
            return Err(InvalidIdempotencyKey);
        }
        Ok(IdempotencyKey(text.to_owned()))
    }

    /// The key as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for IdempotencyKey {
    type Error = InvalidIdempotencyKey;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        IdempotencyKey::parse(&text)
    }
}

impl From<IdempotencyKey> for String {
    fn from(key: IdempotencyKey) -> Self {
        key.0
    }
}

/// The SHA-256 of what a keyed request asked for, recorded with its idempotency key: a repeat
/// with the same key and the same digest gets the first outcome, the same key with another
/// digest is refused ([`CommandError::IdempotencyKeyConflict`](crate::error::CommandError)).
///
/// What is digested is the caller's choice, as long as a faithful retry gives the same bytes:
/// the gateway digests the parsed request (so a retry that spells the amount differently is
/// still the same request), never the time it arrived.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RequestDigest([u8; 32]);

impl RequestDigest {
    /// The digest of `bytes`.
    pub fn of(bytes: &[u8]) -> Self {
        use sha2::Digest as _;
        RequestDigest(sha2::Sha256::digest(bytes).into())
    }

    /// The 32 bytes, as stored.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
}

impl fmt::Display for IdempotencyKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Context stored with every event a command appends (the `metadata` column).
///
/// Serialised as a JSON object with the field names below; fields that are `None` are left out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommandMetadata {
    /// Ties together everything done on behalf of one user action, across services and commands.
    pub correlation_id: Uuid,
    /// The message (command or event id) that directly caused this command, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub causation_id: Option<Uuid>,
    /// Who asked: e.g. `visitante`, `merchant:<id>`, `system:relay`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actor: Option<String>,
    /// Makes the command safe to repeat: a second command with the same key appends nothing and
    /// gets the first one's outcome.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<IdempotencyKey>,
    /// What the keyed request asked for, recorded with the key (not with the events).
    #[serde(skip)]
    pub request_digest: Option<RequestDigest>,
    /// The HTTP request (or job) that carried the command, for joining logs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
}

impl CommandMetadata {
    /// Metadata with only a correlation id.
    pub fn new(correlation_id: Uuid) -> Self {
        CommandMetadata {
            correlation_id,
            causation_id: None,
            actor: None,
            idempotency_key: None,
            request_digest: None,
            request_id: None,
        }
    }

    /// Metadata that starts a new correlation (a fresh uuid v7).
    pub fn start() -> Self {
        CommandMetadata::new(Uuid::now_v7())
    }

    /// Sets the causation id.
    #[must_use]
    pub fn caused_by(mut self, causation_id: Uuid) -> Self {
        self.causation_id = Some(causation_id);
        self
    }

    /// Sets the actor.
    #[must_use]
    pub fn by(mut self, actor: impl Into<String>) -> Self {
        self.actor = Some(actor.into());
        self
    }

    /// Sets the idempotency key.
    #[must_use]
    pub fn with_idempotency_key(mut self, key: IdempotencyKey) -> Self {
        self.idempotency_key = Some(key);
        self
    }

    /// Sets the digest of what the keyed request asked for: the same key with another digest is
    /// then refused instead of answered with the first outcome.
    #[must_use]
    pub fn with_request_digest(mut self, digest: RequestDigest) -> Self {
        self.request_digest = Some(digest);
        self
    }

    /// Sets the request id.
    #[must_use]
    pub fn with_request_id(mut self, request_id: impl Into<String>) -> Self {
        self.request_id = Some(request_id.into());
        self
    }

    /// The JSON object stored in the `metadata` column.
    pub fn to_json(&self) -> serde_json::Value {
        let mut object = serde_json::Map::new();
        object.insert(
            "correlation_id".into(),
            self.correlation_id.to_string().into(),
        );
        if let Some(causation_id) = self.causation_id {
            object.insert("causation_id".into(), causation_id.to_string().into());
        }
        if let Some(actor) = &self.actor {
            object.insert("actor".into(), actor.clone().into());
        }
        if let Some(key) = &self.idempotency_key {
            object.insert("idempotency_key".into(), key.as_str().into());
        }
        if let Some(request_id) = &self.request_id {
            object.insert("request_id".into(), request_id.clone().into());
        }
        serde_json::Value::Object(object)
    }

    /// The same fields as the string map cqrs-es passes around (`EventEnvelope::metadata`).
    pub fn to_map(&self) -> HashMap<String, String> {
        match self.to_json() {
            serde_json::Value::Object(object) => object
                .into_iter()
                .filter_map(|(k, v)| v.as_str().map(|s| (k, s.to_owned())))
                .collect(),
            _ => HashMap::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_a_uuid_as_idempotency_key() {
        let key = IdempotencyKey::parse("0196a1b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b").unwrap();
        assert_eq!(key.as_str(), "0196a1b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b");
    }

    #[test]
    fn rejects_an_empty_idempotency_key() {
        assert_eq!(IdempotencyKey::parse(""), Err(InvalidIdempotencyKey));
    }

    #[test]
    fn rejects_an_idempotency_key_longer_than_255_characters() {
        assert!(IdempotencyKey::parse(&"a".repeat(255)).is_ok());
        assert_eq!(
            IdempotencyKey::parse(&"a".repeat(256)),
            Err(InvalidIdempotencyKey)
        );
    }

    #[test]
    fn rejects_an_idempotency_key_with_spaces_or_accents() {
        assert_eq!(IdempotencyKey::parse("a b"), Err(InvalidIdempotencyKey));
        assert_eq!(IdempotencyKey::parse("pão"), Err(InvalidIdempotencyKey));
        assert_eq!(IdempotencyKey::parse("a\nb"), Err(InvalidIdempotencyKey));
    }

    #[test]
    fn leaves_absent_metadata_fields_out_of_the_json() {
        let id = Uuid::nil();
        let json = CommandMetadata::new(id).by("visitante").to_json();
        assert_eq!(
            json,
            serde_json::json!({"correlation_id": id.to_string(), "actor": "visitante"})
        );
    }

    #[test]
    fn metadata_json_round_trips_through_serde() {
        let metadata = CommandMetadata::start()
            .caused_by(Uuid::now_v7())
            .by("merchant:42")
            .with_idempotency_key(IdempotencyKey::parse("k-1").unwrap())
            .with_request_id("req-9");
        let back: CommandMetadata = serde_json::from_value(metadata.to_json()).unwrap();
        assert_eq!(back, metadata);
        assert_eq!(metadata.to_map().len(), 5);
    }
}
