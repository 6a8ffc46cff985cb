//! The domain's integration tests in one binary (one link instead of one per file): each module
//! drives the public API of `domain` as a caller outside the crate would.

mod account;
mod brcode_properties;
mod brcode_vectors;
mod qr_roundtrip;
