//! An account's QR codes through HTTP: made by its team, listed by role, read one by one, and
//! every kind of bad input.

use super::support::{Person, join, qrcode_body, sign_up};
use reqwest::StatusCode;
use serde_json::json;
use tests::TestApp;

#[tokio::test]
async fn a_code_made_in_an_account_is_listed_read_and_paid_on_its_page() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let path = Person::in_account(&owner.account_id, "/qrcodes");

    let empty = owner.get(&path).await;
    assert_eq!(empty.status, StatusCode::OK, "{}", empty.text);
    assert_eq!(empty.json, json!({"qrcodes": []}));

    let made = owner.post(&path, &qrcode_body("Padaria São João")).await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    let code = made.json.clone();
    let id = code["id"].as_str().expect("id").to_owned();
    assert_eq!(code["pixKey"], "loja@padaria.test");
    assert_eq!(code["merchantName"], "PADARIA SAO JOAO");
    assert_eq!(code["merchantCity"], "SAO PAULO");
    assert_eq!(code["amountCentavos"], 1250);
    assert_eq!(code["description"], "Pao de queijo");
    assert_eq!(code["createdBy"], owner.account_id.as_str());
    assert_eq!(
        code["paymentUrl"],
        format!("http://balcao.test/pagamento/{id}").as_str()
    );
    let payload = code["payload"].as_str().expect("payload");
    assert!(payload.starts_with("000201"), "{payload}");
    assert!(payload.contains("PADARIA SAO JOAO"));
    assert!(code["createdAt"].is_string());

    let listed = owner.get(&path).await;
    assert_eq!(listed.json, json!({"qrcodes": [code]}));
    let one = owner.get(&format!("{path}/{id}")).await;
    assert_eq!(one.status, StatusCode::OK);
    assert_eq!(one.json, code);

    let page = app.get(&format!("/pagamento/{id}")).await;
    assert_eq!(page.status(), StatusCode::OK);
    assert!(
        page.text()
            .await
            .expect("html")
            .contains("PADARIA SAO JOAO")
    );

    // Without an amount, the payer types it.
    let open = owner
        .post(
            &path,
            &json!({"pixKey": "+55 11 91234-5678", "merchantName": "Ana", "merchantCity": "Natal"}),
        )
        .await;
    assert_eq!(open.status, StatusCode::CREATED, "{}", open.text);
    assert_eq!(open.json["amountCentavos"], serde_json::Value::Null);
    assert_eq!(open.json["pixKey"], "+5511912345678");
    let listed = owner.get(&path).await;
    assert_eq!(
        listed.json["qrcodes"][0]["id"], open.json["id"],
        "newest first"
    );
    app.stop().await;
}

#[tokio::test]
async fn an_operator_sees_only_the_codes_they_made_and_a_manager_sees_all() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let (mut caixa, _) = join(&app, &mut owner, "caixa@padaria.test", "Caixa", "operator").await;
    let (mut gerente, _) = join(
        &app,
        &mut owner,
        "gerente@padaria.test",
        "Gerente",
        "manager",
    )
    .await;
    let path = Person::in_account(&owner.account_id, "/qrcodes");

    let owners = owner.post(&path, &qrcode_body("Padaria")).await;
    let owners_id = owners.json["id"].as_str().expect("id").to_owned();
    let operators = caixa.post(&path, &qrcode_body("Caixa Um")).await;
    assert_eq!(operators.status, StatusCode::CREATED, "{}", operators.text);
    assert_eq!(operators.json["createdBy"], caixa.account_id.as_str());
    let operators_id = operators.json["id"].as_str().expect("id").to_owned();

    let ids = |answer: &tests::browser::Answer| -> Vec<String> {
        answer.json["qrcodes"]
            .as_array()
            .expect("list")
            .iter()
            .map(|c| c["id"].as_str().expect("id").to_owned())
            .collect()
    };
    assert_eq!(ids(&caixa.get(&path).await), vec![operators_id.clone()]);
    assert_eq!(
        ids(&gerente.get(&path).await),
        vec![operators_id.clone(), owners_id.clone()]
    );
    assert_eq!(ids(&owner.get(&path).await).len(), 2);

    let forbidden = caixa.get(&format!("{path}/{owners_id}")).await;
    assert_eq!(
        forbidden.status,
        StatusCode::FORBIDDEN,
        "{}",
        forbidden.text
    );
    assert_eq!(forbidden.code(), "forbidden");
    assert!(
        forbidden.message().starts_with("Como operador"),
        "{}",
        forbidden.message()
    );
    assert_eq!(
        caixa.get(&format!("{path}/{operators_id}")).await.status,
        StatusCode::OK
    );
    assert_eq!(
        gerente.get(&format!("{path}/{operators_id}")).await.status,
        StatusCode::OK
    );
    // The code belongs to the account: its own creator sees it in the owner's workspace only.
    let own_path = Person::in_account(&caixa.account_id, &format!("/qrcodes/{operators_id}"));
    assert_eq!(caixa.get(&own_path).await.status, StatusCode::NOT_FOUND);
    app.stop().await;
}

#[tokio::test]
async fn a_code_of_another_account_or_none_at_all_is_not_found() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let mut other = sign_up(&app, "outra@loja.test", "Outra").await;
    let others = Person::in_account(&other.account_id, "/qrcodes");
    let made = other.post(&others, &qrcode_body("Loja")).await;
    let id = made.json["id"].as_str().expect("id").to_owned();

    let path = Person::in_account(&owner.account_id, "/qrcodes");
    for missing in [
        id.as_str(),
        "0196a1b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b",
        "nao-e-uuid",
    ] {
        let answer = owner.get(&format!("{path}/{missing}")).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{missing}");
        assert_eq!(answer.code(), "not-found");
    }
    let listed = owner.get(&path).await;
    assert_eq!(listed.json, json!({"qrcodes": []}));
    app.stop().await;
}

#[tokio::test]
async fn bad_code_values_are_refused_on_their_field_with_the_engines_message() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let path = Person::in_account(&owner.account_id, "/qrcodes");
    let with = |field: &str, value: serde_json::Value| {
        let mut body = qrcode_body("Padaria");
        body[field] = value;
        body
    };
    for (body, field) in [
        (with("pixKey", json!("")), "pixKey"),
        (with("pixKey", json!("123.456.789-00")), "pixKey"),
        (with("pixKey", json!("11999999975")), "pixKey"),
        (with("merchantName", json!("")), "merchantName"),
        (
            with("merchantName", json!("Mercearia e Padaria Boa Esperança")),
            "merchantName",
        ),
        (with("merchantCity", json!("  ")), "merchantCity"),
        (with("amount", json!("doze reais")), "amount"),
        (with("amount", json!("0,00")), "amount"),
        (with("description", json!("x".repeat(100))), "description"),
        (with("merchantName", json!(12)), "merchantName"),
    ] {
        let answer = owner.post(&path, &body).await;
        assert_eq!(
            answer.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{body}: {}",
            answer.text
        );
        assert_eq!(answer.code(), "invalid-argument", "{body}");
        assert_eq!(answer.field(), Some(field), "{body}");
        assert!(!answer.message().is_empty());
    }
    // An 11-digit number that is both a CPF and a mobile is made once its kind is named.
    let mut named = with("pixKey", json!("11999999975"));
    named["keyKind"] = json!("cpf");
    let named = owner.post(&path, &named).await;
    assert_eq!(named.status, StatusCode::CREATED, "{}", named.text);
    assert_eq!(
        owner.get(&path).await.json["qrcodes"]
            .as_array()
            .map(Vec::len),
        Some(1),
        "nothing refused was made"
    );
    app.stop().await;
}

#[tokio::test]
async fn a_repeated_idempotency_key_answers_the_first_code_and_makes_no_other() {
    let app = TestApp::spawn().await;
    let owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let path = Person::in_account(&owner.account_id, "/qrcodes");
    let token = owner.browser.access_token.clone().expect("signed in");
    let send = |key: &'static str| {
        app.client()
            .post(app.url(&path))
            .bearer_auth(&token)
            .header("idempotency-key", key)
            .json(&qrcode_body("Padaria"))
            .send()
    };
    let first = send("pedido-1").await.expect("answer");
    assert_eq!(first.status(), StatusCode::CREATED);
    let first: serde_json::Value = first.json().await.expect("json");
    let again = send("pedido-1").await.expect("answer");
    assert_eq!(again.status(), StatusCode::CREATED);
    assert_eq!(again.headers()["idempotent-replayed"], "true");
    let again: serde_json::Value = again.json().await.expect("json");
    assert_eq!(again["id"], first["id"]);
    let bad = send("pedido 3").await.expect("answer");
    assert_eq!(bad.status(), StatusCode::BAD_REQUEST);
    let bad: serde_json::Value = bad.json().await.expect("json");
    assert_eq!(bad["error"]["code"], "invalid-idempotency-key");
    let other = send("pedido-2").await.expect("answer");
    let other: serde_json::Value = other.json().await.expect("json");
    assert_ne!(other["id"], first["id"]);

    let listed: serde_json::Value = app
        .client()
        .get(app.url(&path))
        .bearer_auth(&token)
        .send()
        .await
        .expect("answer")
        .json()
        .await
        .expect("json");
    assert_eq!(listed["qrcodes"].as_array().map(Vec::len), Some(2));
    app.stop().await;
}
