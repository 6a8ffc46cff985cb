//! Upcasters: old event payloads turned into the current shape on the read path.
//!
//! Stored rows are never rewritten. Each event row keeps the schema version it was written with;
//! when it is read, every registered step for its `(event_type, schema_version)` runs in turn
//! (version 1 → 2 → 3 …) until no step is registered for the version reached, and only then is the
//! payload deserialised into the aggregate's event type.
//!
//! **One registry for every reader.** [`Upcasters::application`] is the registry of this build: the
//! event store uses it when an aggregate loads, and the feed ([`crate::feed::read_after`]) applies
//! it to every event it hands out, so the relay, the projectors and replay all see current shapes.
//! A read model therefore reads exactly one schema version of each event type,
//! [`Upcasters::current_version`], and parks anything else (an event written by newer code).
//!
//! **Schema version convention:** `DomainEvent::event_version()` returns the schema version as a
//! positive decimal integer, `"1"` for an event's first shape. Bump it whenever a stored payload of
//! the old shape would no longer deserialise (or would mean something else), and register an
//! upcaster from the old version at the same time.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, LazyLock};

use serde_json::Value;

use crate::json_text::JsonText;
use crate::stored_event::StoredEvent;

/// One upcasting step: the payload at version `n` in, the payload at version `n + 1` out.
pub type UpcastStep = dyn Fn(Value) -> Value + Send + Sync;

/// Reads a schema version from `DomainEvent::event_version()`: a positive decimal integer with no
/// sign, spaces or leading zeros (`"1"`, `"2"`, `"17"`).
pub fn parse_schema_version(event_version: &str) -> Option<i32> {
    let digits_only =
        !event_version.is_empty() && event_version.bytes().all(|b| b.is_ascii_digit());
    if !digits_only || event_version.starts_with('0') {
        return None;
    }
    event_version.parse().ok()
}

/// The registry of upcasting steps, keyed by (event type, schema version they read).
///
/// Event types are unique across aggregates (`QrCodeCreated`, not `Created`), so one registry serves
/// the whole store and the projections reading the feed.
#[derive(Default)]
pub struct Upcasters {
    steps: HashMap<(String, i32), Box<UpcastStep>>,
    /// The version each chain ends at, per event type with at least one step.
    current: HashMap<String, i32>,
}

/// Built once: every store, feed reader and projection of the process shares it.
static APPLICATION: LazyLock<Arc<Upcasters>> = LazyLock::new(|| Arc::new(Upcasters::balcao()));

impl Upcasters {
    /// An empty registry.
    pub fn new() -> Self {
        Upcasters::default()
    }

    /// The registry of this build, shared: what `PgEventStore::new`, the relay, the projectors and
    /// replay use unless told otherwise.
    pub fn application() -> Arc<Upcasters> {
        Arc::clone(&APPLICATION)
    }

    /// Every step Balcão registers. Empty while every event type is at its first shape.
    ///
    /// When an event's shape changes: change the domain type to the new shape, bump its
    /// `event_version()`, register the step from the old version here, and the store, the feed
    /// and every read model read old events in the new shape (the rows stay as stored).
    fn balcao() -> Upcasters {
        Upcasters::new()
    }

    /// Registers the step that turns `event_type` payloads at `from_version` into `from_version + 1`.
    ///
    /// # Panics
    ///
    /// When `from_version` is not positive or a step for the same key is already registered: both
    /// are programming errors best caught at start-up.
    #[must_use]
    pub fn with(
        mut self,
        event_type: &str,
        from_version: i32,
        step: impl Fn(Value) -> Value + Send + Sync + 'static,
    ) -> Self {
        assert!(from_version > 0, "schema versions start at 1");
        let previous = self
            .steps
            .insert((event_type.to_owned(), from_version), Box::new(step));
        assert!(
            previous.is_none(),
            "two upcasters for {event_type} v{from_version}"
        );
        let current = self.current.entry(event_type.to_owned()).or_insert(1);
        *current = (*current).max(from_version.saturating_add(1));
        self
    }

    /// The schema version every event of `event_type` has once upcast: the newest shape this build
    /// knows (1 for a type no step was registered for).
    ///
    /// An event read at any other version was written by newer code (or its chain of steps has a
    /// hole): a reader must not guess at it.
    pub fn current_version(&self, event_type: &str) -> i32 {
        self.current.get(event_type).copied().unwrap_or(1)
    }

    /// Whether no step is registered.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// Runs every step that applies to a payload of `event_type` at `schema_version`, returning the
    /// version reached and the payload at that version.
    pub fn upcast(&self, event_type: &str, schema_version: i32, payload: Value) -> (i32, Value) {
        let mut version = schema_version;
        let mut payload = payload;
        if self.steps.is_empty() {
            return (version, payload);
        }
        let mut key = (event_type.to_owned(), version);
        while let Some(step) = self.steps.get(&key) {
            payload = step(payload);
            version = version.saturating_add(1);
            key.1 = version;
        }
        (version, payload)
    }

    /// [`upcast`](Self::upcast) for a payload as read from the log. One already at its current
    /// version (nearly every one) is returned as it is, without being parsed.
    pub fn upcast_payload(
        &self,
        event_type: &str,
        schema_version: i32,
        payload: JsonText,
    ) -> (i32, JsonText) {
        if self.steps.is_empty() || schema_version >= self.current_version(event_type) {
            return (schema_version, payload);
        }
        let (version, value) = self.upcast(event_type, schema_version, payload.to_value());
        (version, JsonText::from_value(&value))
    }

    /// [`upcast`](Self::upcast) for a whole event read from the feed (schema version bumped too).
    pub fn upcast_event(&self, event: StoredEvent) -> StoredEvent {
        let (schema_version, payload) =
            self.upcast_payload(&event.event_type, event.schema_version, event.payload);
        StoredEvent {
            schema_version,
            payload,
            ..event
        }
    }
}

impl fmt::Debug for Upcasters {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut keys: Vec<_> = self.steps.keys().collect();
        keys.sort();
        f.debug_struct("Upcasters").field("steps", &keys).finish()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn reads_plain_positive_integers_as_schema_versions() {
        assert_eq!(parse_schema_version("1"), Some(1));
        assert_eq!(parse_schema_version("17"), Some(17));
    }

    #[test]
    fn refuses_versions_that_are_not_plain_positive_integers() {
        for text in ["", "0", "01", "-1", "+1", "1.0", "v1", " 1", "99999999999"] {
            assert_eq!(parse_schema_version(text), None, "{text:?}");
        }
    }

    fn rename(from: &'static str, to: &'static str) -> impl Fn(Value) -> Value + Send + Sync {
        move |mut payload| {
            if let Some(object) = payload.as_object_mut()
                && let Some(value) = object.remove(from)
            {
                object.insert(to.to_owned(), value);
            }
            payload
        }
    }

    #[test]
    fn chains_steps_from_the_stored_version_to_the_newest() {
        let upcasters = Upcasters::new()
            .with("Deposited", 1, rename("valor", "amount"))
            .with("Deposited", 2, rename("amount", "amount_centavos"));
        let (version, payload) = upcasters.upcast("Deposited", 1, json!({"valor": 5}));
        assert_eq!(version, 3);
        assert_eq!(payload, json!({"amount_centavos": 5}));
    }

    #[test]
    fn starts_the_chain_at_the_stored_version() {
        let upcasters = Upcasters::new()
            .with("Deposited", 1, rename("valor", "amount"))
            .with("Deposited", 2, rename("amount", "amount_centavos"));
        let (version, payload) = upcasters.upcast("Deposited", 2, json!({"amount": 5}));
        assert_eq!(version, 3);
        assert_eq!(payload, json!({"amount_centavos": 5}));
    }

    #[test]
    fn leaves_other_event_types_alone() {
        let upcasters = Upcasters::new().with("Deposited", 1, rename("valor", "amount"));
        let (version, payload) = upcasters.upcast("Withdrawn", 1, json!({"valor": 5}));
        assert_eq!(version, 1);
        assert_eq!(payload, json!({"valor": 5}));
    }

    #[test]
    fn the_current_version_is_where_the_chain_ends_and_1_without_steps() {
        let upcasters = Upcasters::new()
            .with("Deposited", 1, rename("valor", "amount"))
            .with("Deposited", 2, rename("amount", "amount_centavos"));
        assert_eq!(upcasters.current_version("Deposited"), 3);
        assert_eq!(upcasters.current_version("Withdrawn"), 1);
    }

    #[test]
    fn the_application_registry_is_one_shared_instance() {
        assert!(Arc::ptr_eq(
            &Upcasters::application(),
            &Upcasters::application()
        ));
    }

    #[test]
    #[should_panic(expected = "two upcasters")]
    fn refuses_two_steps_for_the_same_version() {
        let _ = Upcasters::new()
            .with("Deposited", 1, rename("a", "b"))
            .with("Deposited", 1, rename("a", "c"));
    }
}
