//! Balcão's domain: pure Rust, no I/O, no async, no web or database crates.
