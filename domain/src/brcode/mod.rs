//! The Pix BR Code engine: EMV TLV codec, CRC, strict generation with normalisation reports,
//! lenient and strict parsing, and the command-line face.
//!
//! | module | holds |
//! |---|---|
//! | [`tlv`] | the ID-length-value codec |
//! | [`crc`] | CRC-16/CCITT-FALSE |
//! | [`fields`] | the decoded [`BrCode`] and its JSON view |
//! | [`normalise`] | name/city/message normalisation and the [`Change`] report |
//! | [`make`] | making static and dynamic codes ([`make_static`], [`make_dynamic`], the form API) |
//! | [`parse`](mod@parse) | [`decode`], lenient [`parse()`], [`validate_strict`], [`inspect`] |
//! | [`error`] | [`BrCodeError`], [`Warning`], [`Field`] |
//! | `cli` | `brcode parse|make|svg` as a pure function, arguments parsed by clap (only with the `cli` feature) |
//!
//! ```
//! use domain::brcode::{self, StaticCodeRequest};
//! use domain::pix_key::PixKey;
//!
//! let made = brcode::make_static(&StaticCodeRequest::new(PixKey::detect("12345678909")?, "Ana", "Natal")).unwrap();
//! let parsed = brcode::validate_strict(&made.payload).unwrap();
//! assert_eq!(parsed.code.pix_key(), Some("12345678909"));
//! # Ok::<(), domain::pix_key::PixKeyError>(())
//! ```

#[cfg(feature = "cli")]
pub mod cli;
pub mod crc;
pub mod error;
pub mod fields;
pub mod make;
pub mod normalise;
pub mod parse;
pub mod tlv;
mod validate;

pub use error::{BrCodeError, Field, Report, Warning};
pub use fields::{AdditionalData, BrCode, CodeKind, PIX_GUI, PixAccount, Recurrence};
pub use make::{
    DynamicCodeRequest, FormPreview, Made, StaticCodeForm, StaticCodeRequest, make_dynamic,
    make_static, make_static_from_form, preview_form,
};
pub use normalise::{Change, ChangeReason, Normalised};
pub use parse::{Inspection, Parsed, decode, inspect, parse, validate_strict};
pub use validate::{MAX_KEY_OR_URL_LEN, MAX_PAYLOAD_LEN};
