//! Balcão's domain: pure Rust, no I/O, no web or database crates. The BR Code engine is synchronous;
//! aggregates implement the cqrs-es `Aggregate` trait, whose `handle` is `async` but here only decides.
//!
//! | module | holds |
//! |---|---|
//! | [`account`] | the Account aggregate (sign-in, profile, team) and the [`account::password_policy`] |
//! | [`brcode`] | the Pix BR Code engine (make, parse, validate, CLI) |
//! | [`pix_key`] | Pix keys: CPF, CNPJ, e-mail, phone, random key |
//! | [`money`] | [`money::Centavos`], integer money |
//! | [`payment`] | the Payment aggregate (keyed by the Pix end-to-end id) and the API Pix webhook body |
//! | [`qr`] | QR rendering: SVG and PNG |
//! | [`qrcode`] | the QR-code aggregate: commands, events, decisions |
//! | [`sign`] | the printable sign (placa Pix) layout: one SVG document per sign, templates, paper sizes, themes |
//! | [`refusal`] | [`refusal::Refusal`]: what every aggregate's error tells the edges (code, kind, field) |
//! | [`sealed`] | [`sealed::Sealed`], the encrypted form of a personal field in events |
//! | [`team`] | [`team::Role`] and [`team::Right`]: who may do what in an account |

pub mod account;
pub mod brcode;
pub mod money;
pub mod payment;
pub mod pix_key;
pub mod qr;
pub mod qrcode;
pub mod refusal;
pub mod sealed;
pub mod sign;
pub mod team;
