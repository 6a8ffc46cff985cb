//! The bank-connection aggregate: Balcão talking to the bank that holds one of the account's
//! Pix keys, through that bank's API Pix (OAuth2 client credentials over mutual TLS).
//!
//! One stream per registered key (its id): connecting, the connection tests, the webhook
//! registration at the bank and disconnecting are events on it, so the audit trail says who
//! connected which bank, with which certificate, and what the bank answered. The credentials
//! themselves (client id, secret, certificate and private key) never enter the log: the command
//! side seals them with the account's key in a side table, written in the same transaction as
//! [`BankConnected`], and deletes them with [`BankDisconnected`]. The events keep only what is
//! safe to read back: the bank's profile, the environment, and the certificate's SHA-256
//! fingerprint and expiry.

mod aggregate;
mod commands;
mod error;
mod events;

pub use aggregate::{BankConnection, WebhookState};
pub use commands::{
    BankConnectionCommand, ConnectBank, DisconnectBank, RecordConnectionTest,
    RecordWebhookRegistration, WarnCertificateExpiring,
};
pub use error::BankConnectionError;
pub use events::{
    BankCertificateExpiring, BankConnected, BankConnectionEvent, BankConnectionTested,
    BankDisconnected, BankWebhookRegistered, BankWebhookRegistrationFailed,
};

/// Days before a certificate ends when the owner is warned (e-mail and dashboard), largest first.
pub const CERTIFICATE_WARNING_DAYS: [u32; 3] = [30, 7, 1];

/// The aggregate type, used as the stream type in the event log.
pub const STREAM_TYPE: &str = "bank_connection";
