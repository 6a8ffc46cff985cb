//! Registering, listing, renaming, choosing the default and removing keys, and every kind of bad
//! input.

use reqwest::StatusCode;
use serde_json::{Value, json};
use tests::TestApp;

use crate::workspace::support::{Person, sign_up};

fn keys(person: &Person) -> String {
    Person::in_account(&person.account_id, "/keys")
}

fn key_body(key: &str, holder: &str) -> Value {
    json!({"pixKey": key, "holderName": holder})
}

#[tokio::test]
async fn keys_of_all_five_kinds_are_registered_in_dict_form_and_listed_default_first() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let path = keys(&owner);
    let empty = owner.get(&path).await;
    assert_eq!(empty.status, StatusCode::OK, "{}", empty.text);
    assert_eq!(empty.json, json!({"keys": []}));

    let typed = [
        ("529.982.247-25", None, "cpf", "52998224725"),
        ("12.ABC.345/01DE-35", None, "cnpj", "12ABC34501DE35"),
        ("Loja@Padaria.test", None, "email", "loja@padaria.test"),
        ("11999999975", Some("telefone"), "phone", "+5511999999975"),
        (
            "123E4567-E89B-12D3-A456-426614174000",
            Some("aleatoria"),
            "evp",
            "123e4567-e89b-12d3-a456-426614174000",
        ),
    ];
    let mut made = Vec::new();
    for (key, kind, expected_kind, dict) in typed {
        let mut body = key_body(key, "  Maria   da Silva ");
        if let Some(kind) = kind {
            body["keyKind"] = json!(kind);
        }
        body["label"] = json!(format!("Chave {expected_kind}"));
        let answer = owner.post(&path, &body).await;
        assert_eq!(answer.status, StatusCode::CREATED, "{key}: {}", answer.text);
        assert_eq!(answer.json["kind"], expected_kind);
        assert_eq!(answer.json["pixKey"], dict);
        assert_eq!(answer.json["holderName"], "Maria da Silva");
        assert_eq!(
            answer.json["label"],
            format!("Chave {expected_kind}").as_str()
        );
        assert_eq!(answer.json["removedAt"], Value::Null);
        made.push(answer.json.clone());
    }
    assert_eq!(made[0]["isDefault"], true, "the first key is the default");
    assert!(made[1..].iter().all(|k| k["isDefault"] == false));

    let listed = owner.get(&path).await;
    assert_eq!(listed.status, StatusCode::OK);
    let listed = listed.json["keys"].as_array().expect("keys").clone();
    assert_eq!(listed, made, "the default first, then oldest first");

    // Registering with makeDefault moves the default.
    let answer = owner
        .post(
            &path,
            &json!({"pixKey": "00.038.166/0001-05", "holderName": "Padaria Sol Ltda", "makeDefault": true}),
        )
        .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    assert_eq!(answer.json["isDefault"], true);
    let listed = owner.get(&path).await;
    assert_eq!(listed.json["keys"][0]["pixKey"], "00038166000105");
    assert_eq!(
        listed.json["keys"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|k| k["isDefault"] == true)
            .count(),
        1
    );
    app.stop().await;
}

#[tokio::test]
async fn the_same_key_twice_in_one_account_answers_409_in_portuguese() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let path = keys(&owner);
    let first = owner
        .post(&path, &key_body("(11) 91234-5678", "Maria"))
        .await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text);
    let again = owner
        .post(&path, &key_body("+55 11 91234 5678", "Outra"))
        .await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.text);
    assert_eq!(again.code(), "pix-key-already-registered");
    assert_eq!(again.field(), Some("pixKey"));
    assert_eq!(
        again.message(),
        "Esta chave Pix já está cadastrada nesta conta."
    );
    assert_eq!(
        owner.get(&path).await.json["keys"].as_array().map(Vec::len),
        Some(1)
    );
    app.stop().await;
}

#[tokio::test]
async fn every_bad_input_gets_its_field_and_a_portuguese_message() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let path = keys(&owner);
    let cases = [
        (
            key_body("529.982.247-24", "Maria"),
            "key-cpf-check-digits",
            "pixKey",
        ),
        (key_body("11999999975", "Maria"), "key-ambiguous", "pixKey"),
        (
            key_body("12.ABC.345/01DE-36", "Maria"),
            "key-cnpj-check-digits",
            "pixKey",
        ),
        (key_body("", "Maria"), "key-empty", "pixKey"),
        (
            key_body("loja@padaria.test", "   "),
            "holder-name-missing",
            "holderName",
        ),
        (
            json!({"pixKey": "loja@padaria.test", "keyKind": "boleto", "holderName": "Maria"}),
            "key-unknown-kind",
            "keyKind",
        ),
        (
            json!({"pixKey": "loja@padaria.test", "holderName": "Maria", "label": "x".repeat(41)}),
            "label-too-long",
            "label",
        ),
    ];
    for (body, code, field) in cases {
        let answer = owner.post(&path, &body).await;
        assert_eq!(
            answer.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{body}: {}",
            answer.text
        );
        assert_eq!(answer.code(), code, "{body}");
        assert_eq!(answer.field(), Some(field), "{body}");
        assert!(!answer.message().is_empty());
    }
    assert_eq!(owner.get(&path).await.json, json!({"keys": []}));
    app.stop().await;
}

#[tokio::test]
async fn rename_default_and_remove_and_codes_made_with_a_removed_key_keep_working() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let path = keys(&owner);
    let first = owner
        .post(&path, &key_body("loja@padaria.test", "Maria"))
        .await;
    let first_id = first.json["id"].as_str().expect("id").to_owned();
    let second = owner
        .post(&path, &key_body("529.982.247-25", "Maria"))
        .await;
    let second_id = second.json["id"].as_str().expect("id").to_owned();

    let renamed = owner
        .patch(
            &format!("{path}/{second_id}"),
            &json!({"holderName": "Maria S.", "label": "Caixa 2"}),
        )
        .await;
    assert_eq!(renamed.status, StatusCode::OK, "{}", renamed.text);
    assert_eq!(renamed.json["holderName"], "Maria S.");
    assert_eq!(renamed.json["label"], "Caixa 2");
    assert_eq!(renamed.json["pixKey"], "52998224725");

    let chosen = owner
        .post(&format!("{path}/{second_id}/default"), &json!({}))
        .await;
    assert_eq!(chosen.status, StatusCode::OK, "{}", chosen.text);
    assert_eq!(chosen.json["isDefault"], true);
    let listed = owner.get(&path).await;
    assert_eq!(listed.json["keys"][0]["id"], second_id.as_str());
    assert_eq!(listed.json["keys"][1]["isDefault"], false);

    // A code made with the key, then the key removed: the code and its page stay.
    let code = owner
        .post(
            &Person::in_account(&owner.account_id, "/qrcodes"),
            &json!({"pixKey": "52998224725", "merchantName": "Maria", "merchantCity": "Natal"}),
        )
        .await;
    assert_eq!(code.status, StatusCode::CREATED, "{}", code.text);
    let code_id = code.json["id"].as_str().expect("id").to_owned();

    let removed = owner.delete(&format!("{path}/{second_id}")).await;
    assert_eq!(removed.status, StatusCode::NO_CONTENT, "{}", removed.text);
    let again = owner.delete(&format!("{path}/{second_id}")).await;
    assert_eq!(
        again.status,
        StatusCode::NO_CONTENT,
        "removing twice is harmless"
    );
    let listed = owner.get(&path).await;
    assert_eq!(listed.json["keys"].as_array().map(Vec::len), Some(1));
    assert_eq!(listed.json["keys"][0]["id"], first_id.as_str());
    assert_eq!(
        listed.json["keys"][0]["isDefault"], true,
        "the default moved back"
    );
    let kept = owner.get(&format!("{path}/{second_id}")).await;
    assert_eq!(kept.status, StatusCode::OK, "{}", kept.text);
    assert!(kept.json["removedAt"].is_string(), "{}", kept.json);
    assert_eq!(kept.json["pixKey"], "52998224725");

    let gone = owner
        .patch(&format!("{path}/{second_id}"), &json!({"holderName": "X"}))
        .await;
    assert_eq!(gone.status, StatusCode::GONE, "{}", gone.text);
    assert_eq!(gone.code(), "pix-key-removed");

    let page = app.get(&format!("/pagamento/{code_id}")).await;
    assert_eq!(page.status(), StatusCode::OK);
    let listed_code = owner
        .get(&Person::in_account(
            &owner.account_id,
            &format!("/qrcodes/{code_id}"),
        ))
        .await;
    assert_eq!(listed_code.status, StatusCode::OK);
    assert_eq!(listed_code.json["pixKey"], "52998224725");

    // The same key can be registered again, under a new id.
    let back = owner.post(&path, &key_body("52998224725", "Maria")).await;
    assert_eq!(back.status, StatusCode::CREATED, "{}", back.text);
    assert_ne!(back.json["id"], second_id.as_str());
    app.stop().await;
}

#[tokio::test]
async fn a_retried_registration_with_its_idempotency_key_answers_the_same_key() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let path = keys(&owner);
    owner.browser.set_header("idempotency-key", "cadastro-1");
    let first = owner
        .post(&path, &key_body("loja@padaria.test", "Maria"))
        .await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text);
    let again = owner
        .post(&path, &key_body("loja@padaria.test", "Maria"))
        .await;
    assert_eq!(again.status, StatusCode::CREATED, "{}", again.text);
    assert_eq!(again.header("idempotent-replayed"), Some("true"));
    assert_eq!(again.json["id"], first.json["id"]);
    let other = owner
        .post(&path, &key_body("outra@padaria.test", "Maria"))
        .await;
    assert_eq!(other.status, StatusCode::CONFLICT, "{}", other.text);
    assert_eq!(other.code(), "idempotency-key-reused");
    app.stop().await;
}
