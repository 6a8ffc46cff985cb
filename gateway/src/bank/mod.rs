//! Balcão's client for the owner's bank: the Central Bank's API Pix, spoken with OAuth2 client
//! credentials over mutual TLS.
//!
//! [`ApiPixClient`] is built from a bank's profile (`domain::bank::profiles`), its URLs, and the
//! owner's [`Credentials`] (client id and secret, the certificate the bank issued, the extra value
//! some banks want). It keeps one access token, asks for the next one 60 s before it expires
//! (one request at a time however many calls wait), and speaks for Balcão's operations on the
//! webhook of a Pix key. Every failure is a [`BankError`], whose `Display` is the pt-BR sentence
//! the connect screen shows.
//!
//! Nothing here logs a secret: not the client secret, not a token, not the key, not the Pix key
//! itself (personal data); log lines name the operation and the HTTP status only.

mod client;
mod error;
mod every;
mod exclusive;
mod stored;

pub use client::{
    AccessToken, ApiPixClient, ApiPixSettings, ChargeReport, ChargeRequest, ChargeRequestTerms,
    Credentials, DueDateRequest, ReceivedPage, WebhookOutcome,
};
pub use error::BankError;
pub use every::every;
pub use exclusive::exclusively;
pub use stored::{BankCalls, client_for};

#[cfg(test)]
mod test_bank;
#[cfg(test)]
mod tests;
