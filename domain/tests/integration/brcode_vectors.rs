//! The shared BR Code vectors: every one classified as its `valid` flag says, its CRC judged
//! as `crc_valid` says, its decoded fields equal to `expected`, its listed errors found, its
//! listed warnings (and no others of the kinds the file tracks) raised. Every mismatch is
//! reported, not just the first.
//!
//! The vectors live in `tests/data/brcode_vectors.json`, a copy of the project's shared set of real
//! codes (made 2026-11-21, every CRC recomputed independently) so the suite needs nothing outside
//! the repository; cases added here are marked `"source": "balcao"`, and vectors whose class
//! changed carry a `"revised"` note (`meta.balcao_revisions` says why). Where a vector lists
//! `error_codes` (`{code, field}` pairs) or `warning_codes`, ours must equal them exactly.

use std::collections::BTreeSet;

use domain::brcode::{self, parse};
use serde_json::Value;

const VECTORS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/brcode_vectors.json"
);

fn vectors() -> Vec<Value> {
    let text =
        std::fs::read_to_string(VECTORS).unwrap_or_else(|e| panic!("reading {VECTORS}: {e}"));
    let json: Value = serde_json::from_str(&text).expect("the vectors file is JSON");
    json["vectors"]
        .as_array()
        .expect("a `vectors` array")
        .clone()
}

/// Which of our error codes a vector's error text stands for.
fn codes_for_error(text: &str) -> &'static [&'static str] {
    let rules: [(&str, &[&str]); 19] = [
        ("fits no DICT key type", &["key-invalid"]),
        ("outside printable ASCII", &["character-outside-alphabet"]),
        ("62-05 txid", &["txid-invalid-character", "txid-too-long"]),
        ("URL carries scheme", &["url-has-scheme"]),
        ("dynamic code with txid", &["dynamic-txid-not-stars"]),
        ("59 length", &["merchant-name-too-long"]),
        ("60 length", &["merchant-city-too-long"]),
        ("empty value", &["empty-value"]),
        ("54 is zero", &["amount-zero"]),
        ("CRC mismatch", &["crc-mismatch"]),
        ("does not end with 6304", &["crc-missing"]),
        (
            "TLV:",
            &["tlv-not-numeric", "tlv-value-too-short", "tlv-duplicate-id"],
        ),
        ("00 must be first", &["payload-format-indicator-invalid"]),
        ("01 must be", &["point-of-initiation-invalid"]),
        ("53 !=", &["currency-invalid"]),
        ("58 !=", &["country-invalid"]),
        ("missing 59", &["merchant-name-missing"]),
        ("missing 60", &["merchant-city-missing"]),
        ("missing 62", &["txid-missing"]),
    ];
    let more: [(&str, &[&str]); 2] = [
        ("26 has neither", &["pix-account-without-key-or-url"]),
        ("54 bad format", &["amount-invalid-format"]),
    ];
    rules
        .into_iter()
        .chain(more)
        .find(|(prefix, _)| text.contains(prefix))
        .map_or(&[], |(_, codes)| codes)
}

/// Which of our warning codes a vector's warning text stands for.
fn code_for_warning(text: &str) -> Option<&'static str> {
    if text.starts_with("GUI not lowercase") {
        Some("gui-not-lowercase")
    } else if text.contains("not in canonical 2-decimal form") {
        Some("amount-not-canonical")
    } else {
        None
    }
}

/// Warnings the vectors file does not track (it checks no key shapes, for instance).
const UNTRACKED_WARNINGS: [&str; 3] = [
    "key-not-canonical",
    "amount-in-dynamic-code",
    "crc-lowercase",
];

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// A vector's `error_codes`: exact `{code, field}` pairs, when it lists them.
fn pairs(value: &Value) -> Option<BTreeSet<(String, String)>> {
    let pair = |p: &Value| {
        let text = |k: &str| p[k].as_str().unwrap_or("?").to_owned();
        (text("code"), text("field"))
    };
    value.as_array().map(|a| a.iter().map(pair).collect())
}

#[test]
fn every_shared_vector_is_classified_and_decoded_as_the_file_says() {
    let vectors = vectors();
    assert_eq!(vectors.len(), 92, "the file holds 92 vectors");
    let mut mismatches = Vec::new();
    for v in &vectors {
        let id = v["id"].as_str().unwrap_or("?");
        let payload = v["payload"].as_str().expect("payload");
        let mut fail = |what: String| mismatches.push(format!("{id}: {what}"));
        let report = parse::inspect(payload);
        let our_codes: Vec<&str> = report.errors.iter().map(|e| e.code()).collect();

        let valid = v["valid"].as_bool().expect("valid flag");
        if report.valid != valid {
            fail(format!(
                "valid is {} but the file says {valid}; errors {our_codes:?}",
                report.valid
            ));
        }
        if valid && brcode::parse(payload).is_err() {
            fail("a valid vector is refused by the lenient parser".into());
        }
        if valid != brcode::validate_strict(payload).is_ok() {
            fail("validate_strict disagrees with inspect".into());
        }
        let crc_valid = v["crc_valid"].as_bool().expect("crc_valid flag");
        if report.crc_valid != crc_valid {
            fail(format!(
                "crc_valid is {} but the file says {crc_valid}",
                report.crc_valid
            ));
        }

        match (&v["expected"], &report.code) {
            (Value::Null, None) => {}
            (Value::Null, Some(_)) => fail("decoded, but the file expects no decoding".into()),
            (expected, None) => fail(format!("not decoded ({our_codes:?}); expected {expected}")),
            (expected, Some(code)) => {
                let fields = code.fields_json();
                if &fields != expected {
                    fail(format!(
                        "fields differ:\n   ours     {fields}\n   expected {expected}"
                    ));
                }
                if code.to_payload() != payload {
                    fail("writing the decoded objects back does not give the payload".into());
                }
            }
        }

        for error in strings(&v["errors"]) {
            let wanted = codes_for_error(&error);
            if wanted.is_empty() {
                fail(format!("the test does not know the error text {error:?}"));
            } else if !our_codes.iter().any(|c| wanted.contains(c)) {
                fail(format!(
                    "expected {error:?} ({wanted:?}); ours {our_codes:?}"
                ));
            }
        }
        for ours in &our_codes {
            let explained = strings(&v["errors"])
                .iter()
                .any(|e| codes_for_error(e).contains(ours));
            if !explained {
                fail(format!("our error {ours} is not listed in the file"));
            }
        }

        if let Some(expected) = pairs(&v["error_codes"]) {
            let ours: BTreeSet<(String, String)> = report
                .errors
                .iter()
                .map(|e| (e.code().to_owned(), e.field().as_str().to_owned()))
                .collect();
            if ours != expected {
                fail(format!("error codes {ours:?}, the file lists {expected:?}"));
            }
        }
        if v["warning_codes"].is_array() {
            let expected: BTreeSet<String> = strings(&v["warning_codes"]).into_iter().collect();
            let ours: BTreeSet<String> = report
                .warnings
                .iter()
                .map(|w| w.code().to_owned())
                .collect();
            if ours != expected {
                fail(format!(
                    "warning codes {ours:?}, the file lists {expected:?}"
                ));
            }
        }

        if valid {
            let expected_warnings: BTreeSet<&str> = strings(&v["warnings"])
                .iter()
                .filter_map(|w| code_for_warning(w))
                .collect();
            let our_warnings: BTreeSet<&str> = report
                .warnings
                .iter()
                .map(|w| w.code())
                .filter(|c| !UNTRACKED_WARNINGS.contains(c))
                .collect();
            if expected_warnings != our_warnings {
                fail(format!(
                    "warnings {our_warnings:?}, the file lists {expected_warnings:?}"
                ));
            }
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}

#[test]
fn the_file_splits_into_49_valid_and_43_invalid_and_so_do_we() {
    let vectors = vectors();
    let ours_valid = vectors
        .iter()
        .filter(|v| parse::inspect(v["payload"].as_str().unwrap_or_default()).valid)
        .count();
    assert_eq!(ours_valid, 49);
}
