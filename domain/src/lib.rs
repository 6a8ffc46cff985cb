//! Balcão's domain: pure Rust, no I/O, no web or database crates. The BR Code engine is synchronous;
//! aggregates implement the cqrs-es `Aggregate` trait, whose `handle` is `async` but here only decides.
//!
//! | module | holds |
//! |---|---|
//! | [`account`] | the Account aggregate (sign-in, profile, team) and the [`account::password_policy`] |
//! | [`api_key`] | developer API keys: their scopes and what a new key must say |
//! | [`bank`] | the owner's bank: API Pix profiles (hosts, token call, quirks) and the client certificate it issued |
//! | [`bank_connection`] | the bank-connection aggregate: a key's bank reached through its API Pix (connected, tested, webhook registered, disconnected) |
//! | [`brcode`] | the Pix BR Code engine (make, parse, validate, CLI) |
//! | [`payment_link`] | the payment-link aggregate: a `/pagar` link for a key, an amount and a description |
//! | [`key_ring`] | an account's registered Pix keys: one default, no key twice |
//! | [`pix_key`] | Pix keys: CPF, CNPJ, e-mail, phone, random key |
//! | [`money`] | [`money::Centavos`], integer money |
//! | [`payment`] | the Payment aggregate (keyed by the Pix end-to-end id) and the API Pix webhook body |
//! | [`qr`] | QR rendering: SVG and PNG |
//! | [`qrcode`] | the QR-code aggregate: commands, events, decisions |
//! | [`saved_sign`] | the saved-sign aggregate: a sign an account keeps (its code, template, size, theme, text, logo on or off) |
//! | [`statement`] | bank statements (OFX, CSV) read into typed lines, and their reconciliation with codes and payments |
//! | [`sign`] | the printable sign (placa Pix) layout: one SVG document per sign, templates, paper sizes, themes |
//! | [`refusal`] | [`refusal::Refusal`]: what every aggregate's error tells the edges (code, kind, field) |
//! | [`subscription`] | plans (Grátis, Premium) as configuration, their limits, and the Subscription aggregate |
//! | [`sealed`] | [`sealed::Sealed`], the encrypted form of a personal field in events |
//! | [`team`] | [`team::Role`] and [`team::Right`]: who may do what in an account |
//! | [`webhook`] | outgoing webhooks: what an endpoint is told, where it may be, how it is signed and retried |
//! | [`text`] | text from outside checked for what the log and the read models can hold (no U+0000; no control characters in a name) |

pub mod account;
pub mod api_key;
pub mod bank;
pub mod bank_connection;
pub mod brcode;
pub mod key_ring;
pub mod money;
pub mod payment;
pub mod payment_link;
pub mod pix_key;
pub mod qr;
pub mod qrcode;
pub mod refusal;
pub mod saved_sign;
pub mod sealed;
pub mod sign;
pub mod statement;
pub mod subscription;
pub mod team;
pub mod text;
pub mod webhook;
