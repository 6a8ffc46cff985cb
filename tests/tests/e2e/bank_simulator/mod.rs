//! The API Pix bank simulator's own proof (issue 33): a plain reqwest client (rustls, identity
//! from PEM) against [`tests::api_pix_bank::BankSimulator`], each behaviour Balcão's client will
//! rely on, and each quirk enforced.

mod callbacks;
mod handshake;
mod pix;
mod quirks;
mod support;
mod token;
mod validation;
mod webhook;
