//! Feeds arbitrary text to every reading entry point of the BR Code engine and checks the
//! invariants that must hold for any input, not just that nothing panics:
//!
//! * a decoded code writes back to exactly the trimmed input;
//! * strict validity implies lenient acceptance, and both agree with `inspect`;
//! * a valid code's CRC is valid.

#![no_main]

use domain::brcode::{self, parse};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let report = parse::inspect(&text);
    let lenient = brcode::parse(&text);
    let strict = brcode::validate_strict(&text);

    if let Ok(code) = parse::decode(&text) {
        assert_eq!(
            code.to_payload(),
            text.trim(),
            "decode must keep every object"
        );
        let _ = code.fields_json();
        let _ = code.kind();
        let _ = code.amount();
    }
    assert_eq!(strict.is_ok(), report.valid);
    assert_eq!(lenient.is_ok(), report.accepted);
    if report.valid {
        assert!(report.accepted && report.crc_valid);
    }
    for e in &report.errors {
        let _ = (e.to_string(), e.code(), e.field());
    }
    for w in &report.warnings {
        let _ = (w.to_string(), w.code(), w.field());
    }
});
