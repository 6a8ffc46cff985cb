//! Sign-up through HTTP: the answer and its cookie, the verification e-mail and its link, one
//! account per e-mail even under 50 simultaneous sign-ups, and every kind of bad input.

use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::json;
use tests::browser::Browser;
use tests::smtp_sink::query_param;
use tests::{TestApp, allow_writes, eventually, refuse_writes};

const MAIL_WAIT: Duration = Duration::from_secs(10);

#[tokio::test]
async fn a_sign_up_answers_tokens_and_the_user_and_sets_the_refresh_cookie() {
    let app = TestApp::spawn().await;
    let mut browser = Browser::new(&app);

    let answer = browser
        .sign_up("  Ana.Souza@Exemplo.com.br ", "segredo1", "  Ana Souza ")
        .await;

    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(answer.json["expiresIn"], 3600);
    let token = answer.json["accessToken"].as_str().expect("a token");
    assert_eq!(token.split('.').count(), 3, "a JWT");
    let user = &answer.json["user"];
    assert_eq!(user["email"], "ana.souza@exemplo.com.br");
    assert_eq!(user["displayName"], "Ana Souza");
    assert_eq!(user["emailVerified"], false);
    assert_eq!(user["isAnonymous"], false);
    assert_eq!(user["photoURL"], serde_json::Value::Null);
    assert_eq!(user["providerData"][0]["providerId"], "password");
    let uid = user["uid"].as_str().expect("uid");
    assert_eq!(
        uuid::Uuid::parse_str(uid)
            .expect("a UUID")
            .get_version_num(),
        7,
        "account ids are UUID v7"
    );
    assert!(user["creationTime"].as_str().unwrap().ends_with(" GMT"));

    let cookie = answer.refresh_set_cookie().expect("the refresh cookie");
    let token_value = browser.refresh_cookie().expect("kept").to_owned();
    assert_eq!(
        cookie,
        format!(
            "balcao_refresh={token_value}; HttpOnly; Secure; SameSite=Strict; Path=/api/auth; Max-Age=2592000"
        )
    );
    assert_eq!(answer.header("cache-control"), Some("no-store"));

    let me = browser.me().await;
    assert_eq!(me.status, StatusCode::OK, "{}", me.text);
    for field in [
        "uid",
        "email",
        "displayName",
        "emailVerified",
        "creationTime",
    ] {
        assert_eq!(me.json[field], answer.json["user"][field], "{field}");
    }
    assert!(
        me.json["lastSignInTime"]
            .as_str()
            .unwrap()
            .ends_with(" GMT")
    );

    // Nothing personal is stored in the clear in the event log.
    let db = app.db().await;
    let payloads: Vec<String> =
        sqlx::query_scalar("select payload::text from events where stream_type = 'account'")
            .fetch_all(&db)
            .await
            .expect("events");
    assert!(!payloads.is_empty());
    for payload in payloads {
        assert!(!payload.contains("ana.souza") && !payload.contains("Ana Souza"));
    }
    db.close().await;
    app.stop().await;
}

#[tokio::test]
async fn a_sign_up_whose_session_cannot_be_stored_makes_no_account_and_leaves_the_address_free() {
    let app = TestApp::spawn().await;
    let db = app.db().await;
    // Storing this browser's session fails, as a lost connection or a pool timeout between the
    // account and its session would.
    refuse_writes(
        &db,
        "auth_sessions",
        "insert",
        "new.user_agent = 'Navegador Quebrado/1.0'",
    )
    .await;
    let mut broken = Browser::with_user_agent(&app, "Navegador Quebrado/1.0");

    let failed = broken
        .sign_up("bia@exemplo.com.br", "segredo1", "Bia Lima")
        .await;

    assert!(failed.status.is_server_error(), "{}", failed.text);
    assert!(failed.refresh_set_cookie().is_none());
    let left: (i64, i64, i64, i64) = sqlx::query_as(
        "select (select count(*) from events where stream_type = 'account'),
                (select count(*) from unique_claims),
                (select count(*) from account_keys),
                (select count(*) from action_codes)",
    )
    .fetch_one(&db)
    .await
    .expect("counts");
    assert_eq!(left, (0, 0, 0, 0), "no account, claim, key or code is left");

    // The address is free: the same sign-up from a working browser makes the account, signed in.
    allow_writes(&db, "auth_sessions").await;
    let mut browser = Browser::new(&app);
    let answer = browser
        .sign_up("bia@exemplo.com.br", "segredo1", "Bia Lima")
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(browser.me().await.status, StatusCode::OK);
    assert_eq!(browser.refresh().await.status, StatusCode::OK);
    let mail = app
        .mail
        .wait_for("bia@exemplo.com.br", MAIL_WAIT)
        .await
        .expect("the verification e-mail");
    let link = mail.link("/verificar-email").expect("a verification link");
    let code = query_param(&link, "oobCode").expect("its code");
    let verified = browser
        .post_json("/api/auth/verify-email", &json!({ "oobCode": code }))
        .await;
    assert_eq!(verified.status, StatusCode::NO_CONTENT, "{}", verified.text);
    assert_eq!(
        app.mail.messages_to("bia@exemplo.com.br").len(),
        1,
        "the failed sign-up sent nothing"
    );
    db.close().await;
    app.stop().await;
}

#[tokio::test]
async fn the_verification_email_arrives_and_its_link_verifies_the_address_once() {
    let app = TestApp::spawn().await;
    let mut browser = Browser::new(&app);
    let answer = browser.sign_up("bia@exemplo.com", "segredo1", "Bia").await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);

    let mail = app
        .mail
        .wait_for("bia@exemplo.com", MAIL_WAIT)
        .await
        .expect("the verification e-mail");
    assert_eq!(mail.subject, "Confirme seu e-mail no Balcão");
    assert_eq!(mail.from_header, "Balcão <nao-responda@balcao.app>");
    // The name typed at sign-up is shown as quoted data (whoever signed up typed the address
    // too), never as the message's own words.
    assert!(mail.text.contains("com o nome “Bia”"), "{}", mail.text);
    assert!(
        mail.html
            .as_deref()
            .unwrap_or_default()
            .contains("lang=\"pt-BR\"")
    );
    let link = mail.link("/verificar-email").expect("a verification link");
    assert!(
        link.starts_with("http://balcao.test/verificar-email?oobCode="),
        "{link}"
    );
    let code = query_param(&link, "oobCode").expect("the code");

    let mut stranger = Browser::new(&app);
    let verified = stranger
        .post_json("/api/auth/verify-email", &json!({ "oobCode": code }))
        .await;
    assert_eq!(verified.status, StatusCode::NO_CONTENT, "{}", verified.text);

    let again = stranger
        .post_json("/api/auth/verify-email", &json!({ "oobCode": code }))
        .await;
    assert_eq!(again.status, StatusCode::GONE);
    assert_eq!(again.code(), "expired-action-code");

    // The read model follows: poll briefly, as the dashboard refetches.
    eventually("/me to show the address verified", async || {
        let me = browser.me().await;
        (me.json["emailVerified"] == true).then_some(())
    })
    .await;
    app.stop().await;
}

#[tokio::test]
async fn a_signed_in_person_can_ask_for_another_verification_email() {
    let app = TestApp::spawn().await;
    let mut browser = Browser::new(&app);
    browser
        .sign_up("caio@exemplo.com", "segredo1", "Caio")
        .await;
    app.mail
        .wait_for("caio@exemplo.com", MAIL_WAIT)
        .await
        .expect("the first e-mail");

    let sent = browser
        .request(Method::POST, "/api/auth/send-verification", None, None)
        .await;
    assert_eq!(sent.status, StatusCode::NO_CONTENT, "{}", sent.text);
    let second = app
        .mail
        .wait_for("caio@exemplo.com", MAIL_WAIT)
        .await
        .expect("a second e-mail");
    let code = query_param(&second.link("/verificar-email").unwrap(), "oobCode").unwrap();
    let verified = browser
        .post_json("/api/auth/verify-email", &json!({ "oobCode": code }))
        .await;
    assert_eq!(verified.status, StatusCode::NO_CONTENT);

    let mut anonymous = Browser::new(&app);
    let refused = anonymous
        .request(Method::POST, "/api/auth/send-verification", None, None)
        .await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED);
    assert_eq!(refused.code(), "unauthenticated");
    app.stop().await;
}

#[tokio::test]
async fn fifty_simultaneous_sign_ups_with_one_email_make_exactly_one_account() {
    let app = TestApp::spawn().await;
    let attempts = (0..50).map(|i| {
        let mut browser = Browser::new(&app);
        async move {
            browser
                .sign_up("disputado@exemplo.com", "segredo1", &format!("Pessoa {i}"))
                .await
        }
    });
    let answers = futures::future::join_all(attempts).await;

    let created: Vec<_> = answers
        .iter()
        .filter(|a| a.status == StatusCode::OK)
        .collect();
    let refused: Vec<_> = answers
        .iter()
        .filter(|a| a.status == StatusCode::CONFLICT && a.code() == "email-already-in-use")
        .collect();
    assert_eq!(created.len(), 1, "exactly one sign-up wins");
    assert_eq!(
        refused.len(),
        49,
        "every other one is told the e-mail is taken"
    );
    for answer in &refused {
        assert_eq!(answer.message(), "Já existe uma conta com este e-mail.");
        assert_eq!(answer.field(), Some("email"));
    }

    let db = app.db().await;
    let opened: i64 = sqlx::query_scalar(
        "select count(*) from events where stream_type = 'account' and event_type = 'AccountOpened'",
    )
    .fetch_one(&db)
    .await
    .expect("count");
    let keys: i64 = sqlx::query_scalar("select count(*) from account_keys")
        .fetch_one(&db)
        .await
        .expect("count");
    assert_eq!(
        (opened, keys),
        (1, 1),
        "nothing is left behind by the losers"
    );
    db.close().await;
    app.stop().await;
}

#[tokio::test]
async fn an_email_differing_only_in_case_or_spaces_is_the_same_email() {
    let app = TestApp::spawn().await;
    let first = Browser::new(&app)
        .sign_up("Duda@Exemplo.com", "segredo1", "Duda")
        .await;
    assert_eq!(first.status, StatusCode::OK);
    let second = Browser::new(&app)
        .sign_up(" duda@exemplo.COM ", "segredo2", "Outra Duda")
        .await;
    assert_eq!(second.status, StatusCode::CONFLICT);
    assert_eq!(second.code(), "email-already-in-use");
    app.stop().await;
}

#[tokio::test]
async fn bad_sign_up_requests_get_portuguese_errors_naming_the_field() {
    let app = TestApp::spawn().await;
    let mut browser = Browser::new(&app);
    let raw = |body: &'static str| Some(body.as_bytes().to_vec());

    let malformed = browser
        .request(
            Method::POST,
            "/api/auth/signup",
            Some("application/json"),
            raw("{\"email\": "),
        )
        .await;
    assert_eq!(malformed.status, StatusCode::BAD_REQUEST);
    assert_eq!(malformed.code(), "invalid-json");
    assert!(!malformed.message().is_empty());

    let not_json = browser
        .request(
            Method::POST,
            "/api/auth/signup",
            Some("text/plain"),
            raw("{}"),
        )
        .await;
    assert_eq!(not_json.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert_eq!(not_json.code(), "unsupported-media-type");

    let missing = browser
        .post_json(
            "/api/auth/signup",
            &json!({"email": "e@exemplo.com", "password": "segredo1"}),
        )
        .await;
    assert_eq!(missing.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(missing.code(), "invalid-argument");
    assert_eq!(missing.field(), Some("displayName"));
    assert_eq!(missing.message(), "Informe o campo displayName.");

    let wrong_type = browser
        .post_json(
            "/api/auth/signup",
            &json!({"email": 42, "password": "segredo1", "displayName": "E"}),
        )
        .await;
    assert_eq!(wrong_type.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(wrong_type.field(), Some("email"));

    let bad_email = browser.sign_up("e@exemplo", "segredo1", "E").await;
    assert_eq!(bad_email.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(bad_email.code(), "invalid-argument");
    assert_eq!(bad_email.field(), Some("email"));
    assert!(bad_email.message().contains("e-mail válido"));

    let blank_name = browser.sign_up("e@exemplo.com", "segredo1", "   ").await;
    assert_eq!(blank_name.field(), Some("displayName"));

    let weak = browser.sign_up("e@exemplo.com", "12345", "E").await;
    assert_eq!(weak.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(weak.code(), "weak-password");
    assert_eq!(
        weak.message(),
        "A senha precisa ter pelo menos 6 caracteres."
    );

    let huge = format!(
        "{{\"email\":\"e@exemplo.com\",\"password\":\"segredo1\",\"displayName\":\"{}\"}}",
        "a".repeat(64 * 1024)
    );
    let too_large = browser
        .request(
            Method::POST,
            "/api/auth/signup",
            Some("application/json"),
            Some(huge.into_bytes()),
        )
        .await;
    assert_eq!(too_large.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(too_large.code(), "payload-too-large");

    // None of them made an account or sent mail.
    let db = app.db().await;
    let accounts: i64 = sqlx::query_scalar("select count(*) from account_keys")
        .fetch_one(&db)
        .await
        .expect("count");
    assert_eq!(accounts, 0);
    db.close().await;
    assert!(app.mail.messages().is_empty());
    app.stop().await;
}

#[tokio::test]
async fn the_password_policy_comes_from_configuration_and_is_enforced() {
    let app = TestApp::spawn_with(|settings| {
        settings.auth.password_min_length = 8;
        settings.auth.password_require_uppercase = true;
        settings.auth.password_require_numeric = true;
        settings.auth.password_require_non_alphanumeric = true;
    })
    .await;
    let mut browser = Browser::new(&app);

    let policy = browser.get("/api/auth/password-policy").await;
    assert_eq!(policy.status, StatusCode::OK);
    assert_eq!(
        policy.json,
        json!({
            "minLength": 8,
            "requireLowercase": false,
            "requireUppercase": true,
            "requireNumeric": true,
            "requireNonAlphanumeric": true
        })
    );

    let weak = browser.sign_up("f@exemplo.com", "senha", "F").await;
    assert_eq!(weak.code(), "weak-password");
    assert_eq!(
        weak.message(),
        "A senha precisa ter pelo menos 8 caracteres, uma letra maiúscula, um número e um símbolo ou espaço."
    );
    let strong = browser.sign_up("f@exemplo.com", "Minha senha 1", "F").await;
    assert_eq!(strong.status, StatusCode::OK, "{}", strong.text);
    app.stop().await;
}
