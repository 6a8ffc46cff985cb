//! What happened to an account's key ring. Past tense, versioned (every event is at schema
//! version 1); never changed in place (add a version and an upcaster instead).
//!
//! The key, its holder's name and its label are only ever [`Sealed`] with the account's key.

use cqrs_es::DomainEvent;
use serde::{Deserialize, Serialize};

use crate::sealed::Sealed;

/// Events of the key ring. Stored as an object with a `type` field plus the variant's fields;
/// every one carries `account_id`, `key_id`, `by` and `at`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum KeyRingEvent {
    /// A key was registered.
    PixKeyRegistered(PixKeyRegistered),
    /// A key's label or holder name changed.
    PixKeyRenamed(PixKeyRenamed),
    /// A key became the account's default.
    DefaultPixKeyChosen(DefaultPixKeyChosen),
    /// A key was removed.
    PixKeyRemoved(PixKeyRemoved),
}

/// A Pix key was registered (schema version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PixKeyRegistered {
    /// The account.
    pub account_id: String,
    /// The key's id.
    pub key_id: String,
    /// `cpf`, `cnpj`, `email`, `phone` or `evp` ([`super::stored_kind_name`]).
    pub key_kind: String,
    /// Keyed hash of the DICT form, to compare keys without reading them.
    pub fingerprint: String,
    /// The key in DICT form, sealed.
    pub pix_key: Sealed,
    /// The holder's name as the bank shows it, sealed.
    pub holder_name: Sealed,
    /// The label, sealed, if one was given.
    pub label: Option<Sealed>,
    /// Who registered it.
    pub by: String,
    /// When, RFC 3339.
    pub at: String,
}

/// A key's label and holder name were replaced (schema version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PixKeyRenamed {
    /// The account.
    pub account_id: String,
    /// The key's id.
    pub key_id: String,
    /// The holder's name, sealed.
    pub holder_name: Sealed,
    /// The label, sealed; `None` when cleared.
    pub label: Option<Sealed>,
    /// Who changed it.
    pub by: String,
    /// When, RFC 3339.
    pub at: String,
}

/// A key became the account's default; the previous default no longer is (schema version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DefaultPixKeyChosen {
    /// The account.
    pub account_id: String,
    /// The new default key.
    pub key_id: String,
    /// Who chose it (for a default moved by a removal: who removed the old one).
    pub by: String,
    /// When, RFC 3339.
    pub at: String,
}

/// A key was removed; it is no longer offered, and was the default no more (schema version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PixKeyRemoved {
    /// The account.
    pub account_id: String,
    /// The key's id.
    pub key_id: String,
    /// Who removed it.
    pub by: String,
    /// When, RFC 3339.
    pub at: String,
}

impl KeyRingEvent {
    /// The account the event belongs to.
    pub fn account_id(&self) -> &str {
        match self {
            KeyRingEvent::PixKeyRegistered(e) => &e.account_id,
            KeyRingEvent::PixKeyRenamed(e) => &e.account_id,
            KeyRingEvent::DefaultPixKeyChosen(e) => &e.account_id,
            KeyRingEvent::PixKeyRemoved(e) => &e.account_id,
        }
    }

    /// The key the event is about.
    pub fn key_id(&self) -> &str {
        match self {
            KeyRingEvent::PixKeyRegistered(e) => &e.key_id,
            KeyRingEvent::PixKeyRenamed(e) => &e.key_id,
            KeyRingEvent::DefaultPixKeyChosen(e) => &e.key_id,
            KeyRingEvent::PixKeyRemoved(e) => &e.key_id,
        }
    }

    /// When it happened, RFC 3339.
    pub fn at(&self) -> &str {
        match self {
            KeyRingEvent::PixKeyRegistered(e) => &e.at,
            KeyRingEvent::PixKeyRenamed(e) => &e.at,
            KeyRingEvent::DefaultPixKeyChosen(e) => &e.at,
            KeyRingEvent::PixKeyRemoved(e) => &e.at,
        }
    }

    /// The type name as stored, also the value of the `type` field.
    pub fn type_name(&self) -> &'static str {
        match self {
            KeyRingEvent::PixKeyRegistered(_) => "PixKeyRegistered",
            KeyRingEvent::PixKeyRenamed(_) => "PixKeyRenamed",
            KeyRingEvent::DefaultPixKeyChosen(_) => "DefaultPixKeyChosen",
            KeyRingEvent::PixKeyRemoved(_) => "PixKeyRemoved",
        }
    }
}

impl DomainEvent for KeyRingEvent {
    fn event_type(&self) -> String {
        self.type_name().to_owned()
    }

    fn event_version(&self) -> String {
        // Every key-ring event is at its first schema version.
        "1".to_owned()
    }
}
