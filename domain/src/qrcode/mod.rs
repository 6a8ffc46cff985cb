//! The QR-code aggregate: one Pix QR code, made once from validated inputs, then archived and
//! brought back at will.
//!
//! Creating a code runs the strict BR Code engine, so an event only ever carries a payload that
//! every bank app accepts. The payload is stored in the event itself ("events carry the
//! information"): read models never recompute it. A code made in an account
//! ([`CreateAccountQrCode`]) always carries a txid ([`txid`]), unique in the account; a batch
//! ([`batch`]) is many codes, each its own stream, appended in one transaction.

mod aggregate;
pub mod batch;
pub mod charge_terms;
mod commands;
mod error;
mod events;
pub mod txid;

pub use aggregate::{CHARGE_MAX_SECONDS, CHARGE_MESSAGE_MAX_CHARS, CHARGE_MIN_SECONDS, QrCode};
pub use commands::{
    ArchiveQrCode, ChargeTerms, ClaimQrCode, CreateAccountQrCode, CreateAnonymousQrCode,
    CreateBankCharge, CreateQrCode, QrCodeCommand, UnarchiveQrCode,
};
pub use error::{QrCodeError, request_field};
pub use events::{
    Adjustment, BankCharge, Discount, DiscountDate, DueDateTerms, QrCodeArchived, QrCodeClaimed,
    QrCodeCreated, QrCodeEvent, QrCodeManagementLinkIssued, QrCodeUnarchived,
};

/// The aggregate type, used as the stream type in the event log.
pub const STREAM_TYPE: &str = "qrcode";
