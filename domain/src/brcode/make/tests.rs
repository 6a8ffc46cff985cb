//! The writer against the BCB's rules and examples.

use super::*;

fn key(s: &str) -> PixKey {
    PixKey::detect(s).unwrap()
}

fn codes(errors: &[BrCodeError]) -> Vec<&'static str> {
    errors.iter().map(BrCodeError::code).collect()
}

#[test]
fn reproduces_the_shared_vectors_byte_for_byte() {
    let cases = [
        (
            StaticCodeRequest::new(key("thalesog@me.com"), "Thales Ogliari", "SÃO MIGUÉL DO O")
                .with_amount(Centavos::new(1_000))
                .with_info("Pedido 123"),
            "00020126510014br.gov.bcb.pix0115thalesog@me.com0210Pedido 123520400005303986540510.005802BR5914THALES OGLIARI6015SAO MIGUEL DO O62070503***63040DC6",
        ),
        (
            StaticCodeRequest::new(key("12.ABC.345/01DE-35"), "Loja Exemplo", "São Paulo")
                .with_amount(Centavos::new(4_990))
                .with_txid("PEDIDO12345"),
            "00020126360014br.gov.bcb.pix011412ABC34501DE35520400005303986540549.905802BR5912LOJA EXEMPLO6009SAO PAULO62150511PEDIDO1234563042AA8",
        ),
        (
            StaticCodeRequest::new(
                key(&format!("{}@example.com", "a".repeat(65))),
                "Acme",
                "Brasília",
            ),
            "00020126990014br.gov.bcb.pix0177aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa@example.com5204000053039865802BR5904ACME6008BRASILIA62070503***63040FCA",
        ),
        (
            StaticCodeRequest::new(
                key("123e4567-e12b-12d1-a456-426655440000"),
                "ACME",
                "BRASILIA",
            )
            .with_info("X".repeat(37)),
            "00020126990014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400000237XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX5204000053039865802BR5904ACME6008BRASILIA62070503***6304583B",
        ),
        (
            StaticCodeRequest::new(
                key("123e4567-e12b-12d1-a456-426614174000"),
                "Fulano de Tal",
                "Brasília",
            )
            .with_amount(Centavos::new(1_000)),
            "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426614174000520400005303986540510.005802BR5913FULANO DE TAL6008BRASILIA62070503***630436D9",
        ),
    ];
    for (request, expected) in cases {
        assert_eq!(make_static(&request).unwrap().payload, expected);
    }
}

#[test]
fn refuses_a_message_when_a_77_character_key_fills_the_template() {
    let request = StaticCodeRequest::new(
        key(&format!("{}@example.com", "a".repeat(65))),
        "Acme",
        "Natal",
    )
    .with_info("Oi");
    assert_eq!(
        make_static(&request).unwrap_err(),
        vec![BrCodeError::AdditionalInfoTooLong { len: 2, max: 0 }]
    );
}

#[test]
fn refuses_one_character_more_than_a_random_key_leaves_for_the_message() {
    let request =
        StaticCodeRequest::new(key("123e4567-e12b-12d1-a456-426655440000"), "Acme", "Natal")
            .with_info("X".repeat(38));
    assert_eq!(
        make_static(&request).unwrap_err(),
        vec![BrCodeError::AdditionalInfoTooLong { len: 38, max: 37 }]
    );
}

#[test]
fn writes_the_largest_amount_and_refuses_one_centavo_more() {
    let base = StaticCodeRequest::new(key("12345678909"), "Ana", "Natal");
    let max = make_static(&base.clone().with_amount(Centavos::new(999_999_999_999))).unwrap();
    assert!(max.payload.contains("54139999999999.99"));
    let over = make_static(&base.with_amount(Centavos::new(1_000_000_000_000))).unwrap_err();
    assert_eq!(over, vec![BrCodeError::AmountTooLong { len: 14 }]);
}

#[test]
fn never_writes_a_zero_amount() {
    let request =
        StaticCodeRequest::new(key("12345678909"), "Ana", "Natal").with_amount(Centavos::ZERO);
    assert_eq!(
        make_static(&request).unwrap_err(),
        vec![BrCodeError::AmountZero]
    );
}

#[test]
fn writes_amounts_with_exactly_two_decimals() {
    let made = make_static(
        &StaticCodeRequest::new(key("12345678909"), "Ana", "Natal").with_amount(Centavos::new(198)),
    )
    .unwrap();
    assert!(made.payload.contains("54041.98"), "{}", made.payload);
}

#[test]
fn writes_stars_when_there_is_no_txid_and_the_txid_when_there_is() {
    let base = StaticCodeRequest::new(key("12345678909"), "Ana", "Natal");
    assert!(
        make_static(&base.clone())
            .unwrap()
            .payload
            .contains("62070503***6304")
    );
    assert!(
        make_static(&base.clone().with_txid("   "))
            .unwrap()
            .payload
            .contains("0503***")
    );
    assert!(
        make_static(&base.with_txid("Abc123"))
            .unwrap()
            .payload
            .contains("62100506Abc1236304")
    );
}

#[test]
fn refuses_txids_with_dash_underscore_space_or_accents_and_over_25_characters() {
    for (txid, ch) in [("a-b", '-'), ("a_b", '_'), ("a b", ' '), ("pedidoé", 'é')] {
        assert_eq!(
            check_txid(txid),
            Err(BrCodeError::TxidInvalidCharacter { ch }),
            "{txid}"
        );
    }
    assert_eq!(
        check_txid(&"a".repeat(26)),
        Err(BrCodeError::TxidTooLong { len: 26 })
    );
    assert_eq!(check_txid(&"a".repeat(25)).unwrap().unwrap().len(), 25);
}

#[test]
fn leaves_field_01_out_of_reusable_codes_and_writes_12_for_single_use() {
    let base = StaticCodeRequest::new(key("12345678909"), "Ana", "Natal");
    assert!(
        make_static(&base.clone())
            .unwrap()
            .payload
            .starts_with("00020126")
    );
    assert!(
        make_static(&base.single_use())
            .unwrap()
            .payload
            .starts_with("00020101021226")
    );
}

#[test]
fn reports_every_field_error_at_once() {
    let request = StaticCodeRequest::new(key("12345678909"), "", "😀")
        .with_amount(Centavos::ZERO)
        .with_txid("a-b")
        .with_postal_code("1234");
    let errors = make_static(&request).unwrap_err();
    assert_eq!(
        codes(&errors),
        [
            "merchant-name-missing",
            "merchant-city-unusable",
            "amount-zero",
            "txid-invalid-character",
            "postal-code-invalid"
        ]
    );
    let fields: Vec<Field> = errors.iter().map(BrCodeError::field).collect();
    assert_eq!(
        fields,
        [
            Field::MerchantName,
            Field::MerchantCity,
            Field::TransactionAmount,
            Field::Txid,
            Field::PostalCode
        ]
    );
}

#[test]
fn says_what_it_changed_before_anything_is_printed() {
    let made = make_static(
        &StaticCodeRequest::new(key("12345678909"), "José  & Cia", "São Paulo")
            .with_postal_code("01310-100"),
    )
    .unwrap();
    let said: Vec<String> = made.changes.iter().map(ToString::to_string).collect();
    assert_eq!(
        said,
        [
            "Nome do recebedor: “José  & Cia” será escrito como “JOSE CIA” (letras acentuadas escritas sem acento; caracteres que os bancos não aceitam removidos: “&”; espaços ajustados; letras em maiúsculas).",
            "Cidade: “São Paulo” será escrito como “SAO PAULO” (letras acentuadas escritas sem acento; letras em maiúsculas).",
            "CEP: “01310-100” será escrito como “01310100” (CEP escrito só com números).",
        ]
    );
}

#[test]
fn makes_a_dynamic_code_with_the_location_without_scheme() {
    let made = make_dynamic(&DynamicCodeRequest::new(
        "HTTPS://pix.example.com/qr/v2/abc",
        "Loja",
        "Natal",
    ))
    .unwrap();
    assert!(made.payload.starts_with("000201010212"));
    assert!(made.payload.contains("2525pix.example.com/qr/v2/abc"));
    assert!(made.payload.contains("62070503***"));
    assert!(!made.payload.contains("54"), "no amount field");
    assert_eq!(made.changes[0].reasons, vec![ChangeReason::SchemeRemoved]);
}

#[test]
fn refuses_other_schemes_spaces_and_locations_over_77_characters() {
    assert_eq!(
        check_url("http://x.com/a"),
        Err(BrCodeError::UrlHasScheme {
            scheme: "http://".into()
        })
    );
    assert_eq!(
        check_url("https://ftp://x"),
        Err(BrCodeError::UrlHasScheme {
            scheme: "ftp://".into()
        })
    );
    assert_eq!(
        check_url("x.com/a b"),
        Err(BrCodeError::UrlInvalidCharacter { ch: ' ' })
    );
    assert_eq!(check_url("https://"), Err(BrCodeError::UrlMissing));
    let at_limit = format!("pix.example.com/{}", "a".repeat(61));
    assert_eq!(check_url(&at_limit).unwrap().0.len(), 77);
    assert_eq!(
        check_url(&format!("{at_limit}a")),
        Err(BrCodeError::UrlTooLong { len: 78 })
    );
}

#[test]
fn reports_the_key_rewritten_in_dict_form_from_the_form() {
    let made = make_static_from_form(&StaticCodeForm {
        key: "(11) 91234-5678".into(),
        merchant_name: "ANA".into(),
        merchant_city: "NATAL".into(),
        ..StaticCodeForm::default()
    })
    .unwrap();
    assert_eq!(made.key.unwrap().as_str(), "+5511912345678");
    assert_eq!(made.changes.len(), 1);
    assert_eq!(made.changes[0].reasons, vec![ChangeReason::KeyFormatted]);
}

#[test]
fn refuses_an_unknown_key_kind_from_the_form() {
    let errors = make_static_from_form(&StaticCodeForm {
        key: "12345678909".into(),
        key_kind: "boleto".into(),
        merchant_name: "ANA".into(),
        merchant_city: "NATAL".into(),
        ..StaticCodeForm::default()
    })
    .unwrap_err();
    assert_eq!(codes(&errors), ["key-unknown-kind"]);
}

#[test]
fn checks_the_message_room_against_the_key_in_the_form_preview() {
    let preview = preview_form(&StaticCodeForm {
        key: "123e4567-e12b-12d1-a456-426655440000".into(),
        merchant_name: "ANA".into(),
        merchant_city: "NATAL".into(),
        additional_info: "X".repeat(40),
        ..StaticCodeForm::default()
    });
    assert_eq!(
        preview.errors,
        vec![BrCodeError::AdditionalInfoTooLong { len: 40, max: 37 }]
    );
    assert_eq!(preview.merchant_name.as_deref(), Some("ANA"));
}
