//! The saved-sign aggregate: a printable sign (placa Pix) an account keeps in its dashboard, so
//! the owner can print it again, change it, or make a variant of it.
//!
//! A saved sign is only a set of choices: which of the account's QR codes it prints, and the
//! [`Template`](crate::sign::Template), [`PaperSize`](crate::sign::PaperSize),
//! [`Theme`](crate::sign::Theme), headline, footer and whether the account's logo is drawn,
//! under a name the owner gives it. The files themselves are always rendered on demand by the
//! sign routes (`/placas/{qrcode_id}.pdf|png|svg?…`) from the code and these choices, so a
//! saved sign never goes stale when the layout improves.
//!
//! Which code it may print, and who may touch it, are the gateway's checks (the code must be
//! one of the account's, visible to the caller); the aggregate checks the choices themselves.

mod aggregate;
mod commands;
mod error;
mod events;

pub use aggregate::SavedSign;
pub use commands::{ChangeSign, DeleteSign, SaveSign, SavedSignCommand, SignSettings};
pub use error::SavedSignError;
pub use events::{SavedSignEvent, SignChanged, SignDeleted, SignSaved};

/// The aggregate type, used as the stream type in the event log.
pub const STREAM_TYPE: &str = "saved_sign";
/// The longest name a saved sign may have, in characters.
pub const MAX_NAME_CHARS: usize = 60;
