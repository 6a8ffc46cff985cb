//! The Pix key ring: the Pix keys an account has registered, to make codes from.
//!
//! One stream per account (stream type [`STREAM_TYPE`] `"pix_keys"`, stream id = the account id),
//! so that the rules that span keys are decided in one place, by one writer at a time: the same
//! key cannot be registered twice in an account, and exactly one active key is the default while
//! any is active.
//!
//! A key and its holder's name are personal data. The domain never sees them in the clear: the
//! command layer (`commands::pix_keys`) parses what was typed ([`KeyInput::parse`]), seals the key,
//! the holder name and the label with the account's own key, and hands in the key's
//! *fingerprint* (a keyed hash of its DICT form, also made with the account's key) so the ring can
//! compare keys without reading them. Deleting the account destroys that key: the sealed values
//! and the fingerprints in the log become unreadable and unlinkable (crypto-shredding).
//!
//! Rules, in the order they are checked:
//!
//! - registering: the key id must be new in the ring ([`KeyRingError::KeyIdTaken`]); an active key
//!   with the same fingerprint refuses it ([`KeyRingError::AlreadyRegistered`], 409); the plan's
//!   number of keys ([`KeyRingError::PlanLimit`], 402); at most [`MAX_ACTIVE_KEYS`] active keys
//!   ([`KeyRingError::TooManyKeys`]). The first active key becomes
//!   the default, and so does any key registered with `make_default`;
//! - renaming, choosing the default and removing name a key of the ring
//!   ([`KeyRingError::KeyNotFound`]) that is not removed ([`KeyRingError::KeyRemoved`]), except
//!   that removing a removed key changes nothing (a retried request);
//! - choosing the default key when it already is the default changes nothing;
//! - removing the default key makes the oldest remaining active key the default (an explicit
//!   [`DefaultPixKeyChosen`] event), or leaves no default when none remains;
//! - a removed key keeps its place in the ring, so its id is never reused; the same key may be
//!   registered again, under a new id. QR codes made with a removed key are not touched: they
//!   carry their own copy of the key and keep working.

mod aggregate;
mod commands;
mod error;
mod events;
mod input;

pub use aggregate::{PixKeyRing, RingKey};
pub use commands::{
    ChooseDefaultPixKey, KeyRingCommand, RegisterPixKey, RemovePixKey, RenamePixKey,
};
pub use error::KeyRingError;
pub use events::{
    DefaultPixKeyChosen, KeyRingEvent, PixKeyRegistered, PixKeyRemoved, PixKeyRenamed,
};
pub use input::{
    HolderName, KeyInput, KeyLabel, MAX_HOLDER_NAME_LEN, MAX_LABEL_LEN, ParsedKeyInput,
    stored_kind_name,
};

/// The aggregate type, used as the stream type in the event log.
pub const STREAM_TYPE: &str = "pix_keys";

/// The most active keys one account may hold, whatever its plan: the largest plan's limit
/// (Premium's 50, which the home page promises). The DICT's own limits (20 keys per company's
/// bank account, 5 per person's) bound one bank account, and a Balcão account may hold the keys
/// of several; each plan's smaller limit is checked first
/// ([`crate::subscription::limits::check`]). A test keeps every plan within it.
pub const MAX_ACTIVE_KEYS: usize = 50;
