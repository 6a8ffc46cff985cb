//! The QR-code aggregate: one Pix QR code, made once from validated inputs.
//!
//! Creating a code runs the strict BR Code engine, so an event only ever carries a payload that
//! every bank app accepts. The payload is stored in the event itself ("events carry the
//! information"): read models never recompute it.

mod aggregate;
mod commands;
mod error;
mod events;

pub use aggregate::QrCode;
pub use commands::{ClaimQrCode, CreateAnonymousQrCode, CreateQrCode, QrCodeCommand};
pub use error::QrCodeError;
pub use events::{QrCodeClaimed, QrCodeCreated, QrCodeEvent, QrCodeManagementLinkIssued};

/// The aggregate type, used as the stream type in the event log.
pub const STREAM_TYPE: &str = "qrcode";
