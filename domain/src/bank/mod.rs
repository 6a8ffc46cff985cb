//! The owner's own bank, reached through the Central Bank's API Pix: which banks Balcão knows
//! and how each one is reached ([`profiles`]), and the client certificate the bank issued to the
//! owner ([`certificate`]).
//!
//! Pure data and parsing: the HTTP client that talks to a bank lives in the gateway
//! (`gateway::bank`), built from a [`profiles::BankProfile`], an [`profiles::Environment`] and a
//! [`certificate::ClientCertificate`].

pub mod certificate;
pub mod profiles;
