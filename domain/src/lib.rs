//! Balcão's domain: pure Rust, no I/O, no web or database crates. The BR Code engine is synchronous;
//! aggregates implement the cqrs-es `Aggregate` trait, whose `handle` is `async` but here only decides.
//!
//! | module | holds |
//! |---|---|
//! | [`brcode`] | the Pix BR Code engine (make, parse, validate, CLI) |
//! | [`pix_key`] | Pix keys: CPF, CNPJ, e-mail, phone, random key |
//! | [`money`] | [`money::Centavos`], integer money |
//! | [`qr`] | QR rendering: SVG and PNG |
//! | [`qrcode`] | the QR-code aggregate: commands, events, decisions |
//! | [`sealed`] | [`sealed::Sealed`], the encrypted form of a personal field in events |

pub mod brcode;
pub mod money;
pub mod pix_key;
pub mod qr;
pub mod qrcode;
pub mod sealed;
