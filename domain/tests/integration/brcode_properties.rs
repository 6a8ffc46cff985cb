//! Property tests: making then parsing gives the input back; normalisation always yields text
//! bank apps accept; parsing never panics on any string or on near-valid payloads; a key no
//! DICT kind can hold, or a character outside printable ASCII anywhere but template 64, makes a
//! code invalid with an error naming it, and the web form refuses every such key.

use domain::brcode::normalise::{Case, normalise};
use domain::brcode::tlv::{self, DataObject};
use domain::brcode::{self, BrCodeError, Field, StaticCodeForm, StaticCodeRequest, crc, parse};
use domain::money::Centavos;
use domain::pix_key::{PixKey, PixKeyKind, WrittenKey};
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

/// Writes objects as a payload with its CRC (lengths in characters, CRC over UTF-8 bytes).
fn with_crc(objects: &[DataObject]) -> String {
    let mut body = tlv::write(objects);
    body.push_str("6304");
    let crc = crc::crc_hex(&body);
    body.extend(crc.iter().map(|b| char::from(*b)));
    body
}

/// A static code around `key`, built by hand (the builder only takes well-formed keys).
fn code_with_key(key: &str) -> Option<String> {
    let account = tlv::write(&[
        DataObject::new(0, "br.gov.bcb.pix").ok()?,
        DataObject::new(1, key).ok()?,
    ]);
    let objects = [
        DataObject::new(0, "01").ok()?,
        DataObject::new(26, account).ok()?,
        DataObject::new(52, "0000").ok()?,
        DataObject::new(53, "986").ok()?,
        DataObject::new(58, "BR").ok()?,
        DataObject::new(59, "LOJA TESTE").ok()?,
        DataObject::new(60, "SAO PAULO").ok()?,
        DataObject::new(62, "0503***").ok()?,
    ];
    Some(with_crc(&objects))
}

/// Printable ASCII characters no kind of key accepts.
const NO_KIND_ACCEPTS: &str = ":,;<>[]\\\"%&";

/// A character outside printable ASCII: control characters, DEL, accents, emoji, invisible ones.
fn stray_char() -> impl Strategy<Value = char> {
    prop_oneof![
        prop::sample::select(vec![
            '\t', '\n', '\u{1}', '\u{7f}', '\u{a0}', '\u{200b}', '\u{feff}'
        ]),
        prop::sample::select(vec!['á', 'ã', 'ç', 'é', 'Í', 'õ', 'ü', 'º', 'ª', '€', '👀']),
        any::<char>().prop_filter("outside printable ASCII", |c| !matches!(c, ' '..='~')),
    ]
}

/// Keys no DICT kind can hold, by construction: a good key with a character no kind accepts
/// (or one outside printable ASCII) put anywhere in it, or a run of digits of a length no kind
/// has (a CPF has 11, a CNPJ 14, a phone 10, 11 or 13, a random key 32 hex digits).
fn unfit_key() -> impl Strategy<Value = String> {
    let spoiled = (
        key(),
        any::<prop::sample::Index>(),
        prop_oneof![
            prop::sample::select(NO_KIND_ACCEPTS.chars().collect::<Vec<_>>()),
            stray_char(),
        ],
    )
        .prop_map(|(key, at, ch)| {
            let mut chars: Vec<char> = key.as_str().chars().collect();
            chars.insert(at.index(chars.len() + 1), ch);
            chars.into_iter().collect::<String>()
        });
    let digits = prop_oneof![1usize..=9, Just(12usize), 15usize..=31]
        .prop_flat_map(|n| prop::collection::vec(0u32..10, n))
        .prop_map(|d| {
            d.iter()
                .map(|x| char::from_digit(*x, 10).unwrap())
                .collect::<String>()
        });
    prop_oneof![spoiled, digits].prop_filter("fits the Pix template", |k| k.chars().count() <= 77)
}

/// Where a stray character goes in a made code: a top-level field, or a sub-field of the Pix
/// template (`Some(26)`) or of another arrangement's template 27 added for the purpose.
#[derive(Debug, Clone, Copy)]
enum Target {
    Name,
    City,
    PostalCode,
    Info,
    OtherArrangement,
}

impl Target {
    fn expected(self) -> (&'static str, Field) {
        match self {
            Self::Name => ("59", Field::MerchantName),
            Self::City => ("60", Field::MerchantCity),
            Self::PostalCode => ("61", Field::PostalCode),
            Self::Info => ("26-02", Field::AdditionalInfo),
            Self::OtherArrangement => ("27-01", Field::Payload),
        }
    }
}

fn insert(value: &str, at: prop::sample::Index, ch: char) -> String {
    let mut chars: Vec<char> = value.chars().collect();
    chars.insert(at.index(chars.len() + 1), ch);
    chars.into_iter().collect()
}

/// The made code with `ch` put into the target field (the field is added when the code has
/// none), every length rewritten in characters and the CRC recomputed. `None` when the field
/// would no longer fit in 99 characters.
fn spoil(payload: &str, target: Target, at: prop::sample::Index, ch: char) -> Option<String> {
    let code = brcode::decode(payload).ok()?;
    let mut objects: Vec<DataObject> = code
        .objects()
        .iter()
        .filter(|o| o.id() != 63)
        .cloned()
        .collect();
    let top = |id: u8| match target {
        Target::Name => id == 59,
        Target::City => id == 60,
        Target::PostalCode => id == 61,
        _ => false,
    };
    match target {
        Target::Name | Target::City | Target::PostalCode => {
            if !objects.iter().any(|o| top(o.id())) {
                let at = objects.iter().position(|o| o.id() == 62)?;
                objects.insert(at, DataObject::new(61, "01310100").ok()?);
            }
            let i = objects.iter().position(|o| top(o.id()))?;
            objects[i] =
                DataObject::new(objects[i].id(), insert(objects[i].value(), at, ch)).ok()?;
        }
        Target::Info => {
            let i = objects.iter().position(|o| o.id() == 26)?;
            let mut children = objects[i].children().ok()?;
            match children.iter().position(|c| c.id() == 2) {
                Some(j) => {
                    children[j] = DataObject::new(2, insert(children[j].value(), at, ch)).ok()?
                }
                None => children.push(DataObject::new(2, ch.to_string()).ok()?),
            }
            objects[i] = DataObject::new(26, tlv::write(&children)).ok()?;
        }
        Target::OtherArrangement => {
            let other = tlv::write(&[
                DataObject::new(0, "BR.COM.OUTRO").ok()?,
                DataObject::new(1, insert("0123456789", at, ch)).ok()?,
            ]);
            let i = objects.iter().position(|o| o.id() == 26)?;
            objects.insert(i + 1, DataObject::new(27, other).ok()?);
        }
    }
    Some(with_crc(&objects))
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
    fn every_key_no_dict_kind_can_hold_makes_the_code_invalid_with_key_invalid(key in unfit_key()) {
        prop_assert!(matches!(PixKey::read_written(&key), WrittenKey::Unfit { .. }), "{key:?}");
        let payload = code_with_key(&key).expect("the key fits the template");
        let report = parse::inspect(&payload);
        prop_assert!(report.crc_valid && !report.valid, "{payload:?}");
        prop_assert!(
            report.errors.iter().any(|e| matches!(e, BrCodeError::KeyInvalid { found, .. } if *found == key)),
            "{payload:?}: {:?}", report.errors
        );
        // Fatal: no payer app can find the key, so the lenient parser refuses the code too.
        prop_assert!(brcode::parse(&payload).is_err());
    }

    #[test]
    fn a_well_formed_key_is_never_found_unfit_and_makes_a_code_without_key_errors(key in key()) {
        prop_assert!(matches!(PixKey::read_written(key.as_str()), WrittenKey::Canonical(_)));
        let payload = code_with_key(key.as_str()).unwrap();
        prop_assert!(brcode::validate_strict(&payload).is_ok(), "{payload:?}");
        let near_miss = PixKey::read_written(&key.display_form());
        prop_assert!(!matches!(near_miss, WrittenKey::Unfit { .. }), "{}", key.display_form());
    }

    #[test]
    fn the_form_refuses_every_key_the_reader_finds_unfit(
        typed in prop_oneof![unfit_key(), "\\PC{0,20}", "[0-9 .()/-]{0,20}", "[A-Za-z0-9@._+-]{0,20}"]
    ) {
        let written = PixKey::read_written(typed.trim());
        for kind in ["", "cpf", "cnpj", "email", "telefone", "aleatoria"] {
            let preview = brcode::preview_form(&StaticCodeForm {
                key: typed.clone(),
                key_kind: kind.into(),
                ..StaticCodeForm::default()
            });
            match (&written, &preview.key) {
                (WrittenKey::Unfit { .. }, Some(key)) => {
                    prop_assert!(false, "the form took {typed:?} as {kind:?}: {key:?}");
                }
                // Whatever the form accepts, it writes in the form the reader finds canonical.
                (_, Some(key)) => prop_assert!(
                    matches!(PixKey::read_written(key.as_str()), WrittenKey::Canonical(_))
                ),
                (_, None) => prop_assert!(preview.errors.iter().any(|e| e.field() == Field::PixKey)),
            }
        }
    }

    #[test]
    fn every_character_outside_printable_ascii_outside_template_64_makes_the_code_invalid_naming_its_field(
        input in input(),
        target in prop::sample::select(vec![Target::Name, Target::City, Target::PostalCode, Target::Info, Target::OtherArrangement]),
        at in any::<prop::sample::Index>(),
        ch in stray_char(),
    ) {
        let made = brcode::make_static(&request(&input)).unwrap().payload;
        let spoiled = spoil(&made, target, at, ch);
        prop_assume!(spoiled.is_some(), "the field is full");
        let payload = spoiled.unwrap();
        let (path, field) = target.expected();
        let report = parse::inspect(&payload);
        prop_assert!(report.crc_valid && !report.valid, "{payload:?}");
        let named = report.errors.iter().any(|e| matches!(
            e,
            BrCodeError::CharacterOutsideAlphabet { path: Some(p), ch: c, .. } if p == path && *c == ch
        ) && e.field() == field);
        prop_assert!(named, "{payload:?}: {:?}", report.errors);
        // Strict, not fatal: the lenient parser names it among its warnings.
        if let Ok(parsed) = brcode::parse(&payload) {
            prop_assert!(parsed.warnings.iter().any(|w| w.code() == "character-outside-alphabet"));
        }
    }

    #[test]
    fn any_text_in_the_language_template_64_keeps_a_valid_code_valid(
        input in input(), name in "\\PC{1,25}", city in "\\PC{1,15}"
    ) {
        let made = brcode::make_static(&request(&input)).unwrap().payload;
        let code = brcode::decode(&made).unwrap();
        let language = tlv::write(&[
            DataObject::new(0, "pt").unwrap(),
            DataObject::new(1, name).unwrap(),
            DataObject::new(2, city).unwrap(),
        ]);
        let mut objects: Vec<DataObject> =
            code.objects().iter().filter(|o| o.id() != 63).cloned().collect();
        let at = objects.iter().position(|o| o.id() == 62).unwrap();
        objects.insert(at, DataObject::new(64, language).unwrap());
        let payload = with_crc(&objects);
        prop_assert!(brcode::validate_strict(&payload).is_ok(), "{payload:?}: {:?}", parse::inspect(&payload).errors);
    }

    #[test]
    fn keys_shown_to_people_read_back_as_the_same_key(key in key()) {
        prop_assert_eq!(PixKey::parse_as(key.kind(), &key.display_form()), Ok(key.clone()));
        prop_assert_eq!(PixKey::canonical_kind(key.as_str()), Some(key.kind()));
    }
}
