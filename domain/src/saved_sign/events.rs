//! What happened to a saved sign. Past tense, versioned; never changed in place.
//!
//! Template, size and theme travel as their URL slugs (`classico`, `a4`, `verde`), the same
//! spelling the sign routes read, so a read model can build a file's address without the
//! domain's types.

use cqrs_es::DomainEvent;
use serde::{Deserialize, Serialize};

/// Events of the saved-sign aggregate, stored as an object with a `type` field plus the
/// variant's fields.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum SavedSignEvent {
    /// A sign was saved.
    SignSaved(SignSaved),
    /// A sign's choices changed.
    SignChanged(SignChanged),
    /// A sign was deleted.
    SignDeleted(SignDeleted),
}

/// A sign was saved (schema version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SignSaved {
    /// The sign's id.
    pub sign_id: String,
    /// The account that keeps it.
    pub owner_id: String,
    /// The person who saved it.
    pub created_by: String,
    /// The QR code it prints.
    pub qrcode_id: String,
    /// The sign it was copied from, for a duplicate.
    pub duplicate_of: Option<String>,
    /// Its name, trimmed.
    pub name: String,
    /// Template slug.
    pub template: String,
    /// Paper size slug.
    pub size: String,
    /// Theme slug.
    pub theme: String,
    /// The headline; `None` for the default.
    pub headline: Option<String>,
    /// The footer.
    pub footer: Option<String>,
    /// Whether the account's logo is drawn.
    pub with_logo: bool,
    /// When, RFC 3339.
    pub saved_at: String,
}

/// A sign's choices changed (schema version 1): every choice as it now is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SignChanged {
    /// The sign's id.
    pub sign_id: String,
    /// The person who changed it.
    pub changed_by: String,
    /// Its name, trimmed.
    pub name: String,
    /// Template slug.
    pub template: String,
    /// Paper size slug.
    pub size: String,
    /// Theme slug.
    pub theme: String,
    /// The headline; `None` for the default.
    pub headline: Option<String>,
    /// The footer.
    pub footer: Option<String>,
    /// Whether the account's logo is drawn.
    pub with_logo: bool,
    /// When, RFC 3339.
    pub at: String,
}

/// A sign was deleted (schema version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SignDeleted {
    /// The sign's id.
    pub sign_id: String,
    /// The person who deleted it.
    pub deleted_by: String,
    /// When, RFC 3339.
    pub at: String,
}

impl DomainEvent for SavedSignEvent {
    fn event_type(&self) -> String {
        match self {
            SavedSignEvent::SignSaved(_) => "SignSaved".to_owned(),
            SavedSignEvent::SignChanged(_) => "SignChanged".to_owned(),
            SavedSignEvent::SignDeleted(_) => "SignDeleted".to_owned(),
        }
    }

    fn event_version(&self) -> String {
        "1".to_owned()
    }
}
