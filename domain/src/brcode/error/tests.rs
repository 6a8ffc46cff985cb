//! The engine's messages as a shop owner reads them.

use super::*;

#[test]
fn says_the_name_limit_in_words_a_shop_owner_understands() {
    assert_eq!(
        BrCodeError::MerchantNameTooLong { len: 31 }.to_string(),
        "O nome do recebedor tem 31 caracteres; o limite do Pix é 25."
    );
}

#[test]
fn explains_when_a_key_leaves_no_room_for_a_message() {
    let msg = BrCodeError::AdditionalInfoTooLong { len: 10, max: 0 }.to_string();
    assert!(msg.contains("não cabe nenhuma mensagem"), "{msg}");
    let msg = BrCodeError::AdditionalInfoTooLong { len: 40, max: 37 }.to_string();
    assert!(msg.contains("no máximo 37"), "{msg}");
}

#[test]
fn passes_key_and_amount_codes_through_and_files_them_under_their_fields() {
    let key = BrCodeError::from(PixKeyError::CpfCheckDigits);
    assert_eq!(
        (key.code(), key.field()),
        ("key-cpf-check-digits", Field::PixKey)
    );
    let amount = BrCodeError::from(MoneyError::Negative);
    assert_eq!(
        (amount.code(), amount.field()),
        ("amount-negative", Field::TransactionAmount)
    );
}

#[test]
fn names_the_field_and_the_character_outside_the_alphabet() {
    let e = BrCodeError::CharacterOutsideAlphabet {
        path: Some("60".into()),
        field: Field::MerchantCity,
        ch: 'ó',
        at: 120,
    };
    assert_eq!(
        e.to_string(),
        "O campo 60 (Cidade) tem o caractere “ó”; fora do campo 64, o BR Code só aceita caracteres ASCII imprimíveis (letras sem acento, números, espaço e símbolos como . - / :)."
    );
    assert_eq!(
        (e.code(), e.field()),
        ("character-outside-alphabet", Field::MerchantCity)
    );
    let unnamed = BrCodeError::CharacterOutsideAlphabet {
        path: Some("27-01".into()),
        field: Field::Payload,
        ch: '\t',
        at: 80,
    };
    assert!(
        unnamed
            .to_string()
            .starts_with("O campo 27-01 tem o caractere invisível U+0009;"),
        "{unnamed}"
    );
    let lost = BrCodeError::CharacterOutsideAlphabet {
        path: None,
        field: Field::Payload,
        ch: 'á',
        at: 170,
    };
    assert!(
        lost.to_string()
            .starts_with("O código tem o caractere “á” na posição 170;"),
        "{lost}"
    );
}

#[test]
fn names_the_key_no_dict_kind_can_hold() {
    let colon = BrCodeError::KeyInvalid {
        found: "08074883:00196".into(),
        ch: Some(':'),
    };
    assert_eq!(
        colon.to_string(),
        "A chave Pix “08074883:00196” tem o caractere “:”, que nenhuma chave do DICT aceita; o banco do pagador não vai encontrá-la."
    );
    assert_eq!(
        (colon.code(), colon.field()),
        ("key-invalid", Field::PixKey)
    );
    let shape = BrCodeError::KeyInvalid {
        found: "43214833".into(),
        ch: None,
    };
    assert_eq!(
        shape.to_string(),
        "A chave Pix “43214833” não é CPF, CNPJ, e-mail, celular nem chave aleatória; o banco do pagador não vai encontrá-la."
    );
}

#[test]
fn shows_the_dict_form_of_a_near_miss_or_why_the_dict_refuses_it() {
    let phone = Warning::KeyNotCanonical {
        found: "71996074734".into(),
        dict_form: Ok("+5571996074734".into()),
    };
    assert_eq!(
        phone.to_string(),
        "A chave “71996074734” não está no formato do DICT, que a escreve “+5571996074734”; alguns bancos não a encontram assim."
    );
    let cpf = Warning::KeyNotCanonical {
        found: "11111111111".into(),
        dict_form: Err(PixKeyError::NotCpfNorPhone("11111111111".into())),
    };
    assert_eq!(
        cpf.to_string(),
        "A chave “11111111111” não está no formato do DICT: “11111111111” não é um CPF válido nem um celular com DDD. O pagamento pode falhar."
    );
}
