//! Property tests: making then parsing gives the input back; normalisation always yields text
//! bank apps accept; parsing never panics on any string or on near-valid payloads.

use domain::brcode::normalise::{Case, normalise};
use domain::brcode::tlv::{self, DataObject};
use domain::brcode::{self, StaticCodeRequest, crc, parse};
use domain::money::Centavos;
use domain::pix_key::{PixKey, PixKeyKind};
use proptest::prelude::*;

/// Mod-11 check digit as the Receita defines it, written independently of the crate.
fn cpf_digit(body: &[u32]) -> u32 {
    let n = body.len() as u32 + 1;
    let s: u32 = body
        .iter()
        .enumerate()
        .map(|(i, d)| d * (n - i as u32))
        .sum();
    let r = s % 11;
    if r < 2 { 0 } else { 11 - r }
}

fn cnpj_digit(body: &[u32]) -> u32 {
    let s: u32 = body
        .iter()
        .rev()
        .enumerate()
        .map(|(i, v)| v * (2 + i as u32 % 8))
        .sum();
    let r = s % 11;
    if r < 2 { 0 } else { 11 - r }
}

fn cpf() -> impl Strategy<Value = String> {
    prop::collection::vec(0u32..10, 9)
        .prop_filter("not one repeated digit", |d| d.iter().any(|x| *x != d[0]))
        .prop_map(|mut d| {
            let dv1 = cpf_digit(&d);
            d.push(dv1);
            let dv2 = cpf_digit(&d);
            d.push(dv2);
            d.iter()
                .map(|x| char::from_digit(*x, 10).unwrap())
                .collect()
        })
}

fn cnpj() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(('0'..='9').chain('A'..='Z').collect::<Vec<_>>()),
        12,
    )
    .prop_filter("not one repeated character", |c| {
        c.iter().any(|x| *x != c[0])
    })
    .prop_map(|chars| {
        let mut values: Vec<u32> = chars.iter().map(|c| *c as u32 - 48).collect();
        let dv1 = cnpj_digit(&values);
        values.push(dv1);
        let dv2 = cnpj_digit(&values);
        let mut s: String = chars.into_iter().collect();
        s.push(char::from_digit(dv1, 10).unwrap());
        s.push(char::from_digit(dv2, 10).unwrap());
        s
    })
}

fn key() -> impl Strategy<Value = PixKey> {
    prop_oneof![
        cpf().prop_map(|s| PixKey::parse_as(PixKeyKind::Cpf, &s).unwrap()),
        cnpj().prop_map(|s| PixKey::parse_as(PixKeyKind::Cnpj, &s).unwrap()),
        "[a-z0-9._+-]{1,30}@[a-z0-9]{1,20}\\.com\\.br".prop_map(|s| PixKey::parse_as(
            PixKeyKind::Email,
            &s
        )
        .unwrap()),
        (
            prop::sample::select(vec!["11", "21", "61", "71", "85", "91"]),
            "9[0-9]{8}"
        )
            .prop_map(
                |(ddd, n)| PixKey::parse_as(PixKeyKind::Phone, &format!("{ddd}{n}")).unwrap()
            ),
        "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
            .prop_map(|s| PixKey::parse_as(PixKeyKind::Evp, &s).unwrap()),
    ]
}

/// Text already in normal form: allowed characters, single inner spaces, no outer spaces.
fn normal_text(max: usize, upper: bool) -> impl Strategy<Value = String> {
    let letters = if upper {
        "[A-Z0-9$%*+./:-]"
    } else {
        "[A-Za-z0-9$%*+./:-]"
    };
    prop::collection::vec(
        prop::string::string_regex(&format!("{letters}{{1,8}}")).unwrap(),
        1..6,
    )
    .prop_map(|words| words.join(" "))
    .prop_filter("fits the limit", move |s| s.len() <= max)
}

#[derive(Debug, Clone)]
struct Input {
    key: PixKey,
    name: String,
    city: String,
    amount: Option<u64>,
    txid: Option<String>,
    info: Option<String>,
    postal: Option<String>,
    single_use: bool,
}

fn input() -> impl Strategy<Value = Input> {
    (
        key(),
        normal_text(25, true),
        normal_text(15, true),
        prop::option::of(1u64..=999_999_999_999),
        prop::option::of("[A-Za-z0-9]{1,25}"),
        prop::option::of(normal_text(72, false)),
        prop::option::of("[0-9]{8}"),
        any::<bool>(),
    )
        .prop_map(
            |(key, name, city, amount, txid, info, postal, single_use)| {
                let room = brcode::make::max_additional_info_len(&key);
                let info = info.filter(|i| i.len() <= room);
                Input {
                    key,
                    name,
                    city,
                    amount,
                    txid,
                    info,
                    postal,
                    single_use,
                }
            },
        )
}

fn request(input: &Input) -> StaticCodeRequest {
    StaticCodeRequest {
        key: input.key.clone(),
        merchant_name: input.name.clone(),
        merchant_city: input.city.clone(),
        amount: input.amount.map(Centavos::new),
        txid: input.txid.clone(),
        additional_info: input.info.clone(),
        postal_code: input.postal.clone(),
        single_use: input.single_use,
    }
}

proptest! {
    #[test]
    fn making_then_parsing_gives_every_input_back(input in input()) {
        let made = brcode::make_static(&request(&input)).expect("valid input makes a code");
        prop_assert!(made.changes.is_empty(), "normal input needs no change: {:?}", made.changes);
        prop_assert!(made.payload.is_ascii());
        let code = brcode::validate_strict(&made.payload).expect("strictly valid").code;
        prop_assert_eq!(code.pix_key(), Some(input.key.as_str()));
        prop_assert_eq!(code.merchant_name.as_deref(), Some(input.name.as_str()));
        prop_assert_eq!(code.merchant_city.as_deref(), Some(input.city.as_str()));
        prop_assert_eq!(code.amount().map(Centavos::get), input.amount);
        prop_assert_eq!(code.txid(), Some(input.txid.as_deref().unwrap_or("***")));
        let info = code.merchant_account.as_ref().and_then(|a| a.additional_info.as_deref());
        prop_assert_eq!(info, input.info.as_deref());
        prop_assert_eq!(code.postal_code.as_deref(), input.postal.as_deref());
        prop_assert_eq!(code.is_single_use(), input.single_use);
        prop_assert_eq!(code.to_payload(), made.payload);
    }

    #[test]
    fn any_typed_name_and_city_either_are_refused_or_make_a_valid_code(
        key in key(), name in "\\PC{0,40}", city in "\\PC{0,20}", info in "\\PC{0,80}"
    ) {
        let req = StaticCodeRequest::new(key, name, city).with_info(info);
        if let Ok(made) = brcode::make_static(&req) {
            let code = brcode::validate_strict(&made.payload).expect("strictly valid").code;
            prop_assert_eq!(code.merchant_name.as_deref(), Some(made.merchant_name.as_str()));
            prop_assert_eq!(code.merchant_city.as_deref(), Some(made.merchant_city.as_str()));
        }
    }

    #[test]
    fn normalised_text_uses_only_accepted_characters_and_is_stable(s in "\\PC*", upper in any::<bool>()) {
        let case = if upper { Case::Upper } else { Case::Keep };
        let (text, _) = normalise(&s, case);
        prop_assert!(text.chars().all(|c| c.is_ascii_alphanumeric() || " $%*+-./:".contains(c)), "{text:?}");
        prop_assert!(!text.starts_with(' ') && !text.ends_with(' ') && !text.contains("  "));
        if upper {
            prop_assert!(!text.chars().any(|c| c.is_ascii_lowercase()));
        }
        let (again, reasons) = normalise(&text, case);
        prop_assert_eq!(again, text);
        prop_assert!(reasons.is_empty());
    }

    #[test]
    fn parsing_any_string_never_panics(s in "\\PC*") {
        let report = parse::inspect(&s);
        prop_assert_eq!(report.valid, brcode::validate_strict(&s).is_ok());
        prop_assert_eq!(report.accepted, brcode::parse(&s).is_ok());
    }

    #[test]
    fn parsing_tlv_shaped_noise_never_panics(parts in prop::collection::vec(("[0-9]{2}", "[0-9]{2}", "\\PC{0,12}"), 0..12)) {
        let s: String = parts.into_iter().map(|(id, len, value)| format!("{id}{len}{value}")).collect();
        let _ = parse::inspect(&s);
        if let Ok(code) = parse::decode(&s) {
            prop_assert_eq!(code.to_payload(), s.trim());
        }
    }

    #[test]
    fn parsing_a_mutated_valid_payload_never_panics_and_never_passes_with_a_wrong_crc(
        input in input(), at in any::<prop::sample::Index>(), ch in prop::char::range(' ', '~'), op in 0u8..4
    ) {
        // ASCII edits only: a one-byte change is a burst CRC-16 always detects, so the property
        // is exact rather than "almost always". Non-ASCII noise is covered by the tests above.
        let payload = brcode::make_static(&request(&input)).unwrap().payload;
        let mut chars: Vec<char> = payload.chars().collect();
        let i = at.index(chars.len());
        match op {
            0 => { chars.remove(i); }
            1 => chars.insert(i, ch),
            2 => chars[i] = ch,
            _ => chars.truncate(i),
        }
        let mutated: String = chars.into_iter().collect();
        let report = parse::inspect(&mutated);
        let n = payload.len() - 4;
        // Harmless edits: trailing whitespace (trimmed) and the case of a CRC hex letter.
        let harmless = mutated.trim() == payload
            || (mutated.len() == payload.len()
                && mutated[..n] == payload[..n]
                && mutated[n..].eq_ignore_ascii_case(&payload[n..]));
        prop_assert!(harmless || !report.valid, "mutated payload still valid: {:?}", mutated);
        if let Some(code) = &report.code {
            prop_assert_eq!(code.to_payload(), mutated.trim());
        }
    }

    #[test]
    fn tlv_objects_write_and_read_back(values in prop::collection::btree_map(0u8..100, "[ -~]{0,99}", 0..10)) {
        let objects: Vec<DataObject> = values.into_iter().map(|(id, v)| DataObject::new(id, v).unwrap()).collect();
        prop_assert_eq!(tlv::parse(&tlv::write(&objects)).unwrap(), objects);
    }

    #[test]
    fn the_crc_table_matches_the_bitwise_definition(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        let mut expected: u16 = 0xFFFF;
        for b in &bytes {
            expected ^= u16::from(*b) << 8;
            for _ in 0..8 {
                expected = if expected & 0x8000 != 0 { (expected << 1) ^ 0x1021 } else { expected << 1 };
            }
        }
        prop_assert_eq!(crc::crc16(&bytes), expected);
    }

    #[test]
    fn money_written_in_pt_br_or_emv_reads_back(c in 0u64..=10_000_000_000_000) {
        let amount = Centavos::new(c);
        prop_assert_eq!(Centavos::parse_br(&amount.to_string()), Ok(amount));
        prop_assert_eq!(Centavos::parse_emv(&amount.to_emv()), Ok(amount));
    }

    #[test]
    fn keys_shown_to_people_read_back_as_the_same_key(key in key()) {
        prop_assert_eq!(PixKey::parse_as(key.kind(), &key.display_form()), Ok(key.clone()));
        prop_assert_eq!(PixKey::canonical_kind(key.as_str()), Some(key.kind()));
    }
}
