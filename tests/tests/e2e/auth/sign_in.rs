//! Sign-in through HTTP: the answer, what it never reveals, disabled accounts, bad input.

use gateway::roles::{self, AccountAction};
use reqwest::{Method, StatusCode};
use serde_json::json;
use tests::browser::Browser;
use tests::{TestApp, eventually};

async fn account(app: &TestApp, email: &str, password: &str) -> Browser {
    let mut browser = Browser::new(app);
    let answer = browser.sign_up(email, password, "Titular").await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    browser
}

#[tokio::test]
async fn signing_in_answers_tokens_the_user_and_a_new_session_cookie() {
    let app = TestApp::spawn().await;
    let first_device = account(&app, "gil@exemplo.com", "segredo1").await;

    let mut second_device = Browser::new(&app);
    let answer = second_device.log_in("  GIL@exemplo.com", "segredo1").await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(answer.json["expiresIn"], 3600);
    assert_eq!(answer.json["user"]["email"], "gil@exemplo.com");
    assert_eq!(answer.json["user"]["displayName"], "Titular");
    assert!(answer.json["accessToken"].as_str().is_some());
    assert!(second_device.refresh_cookie().is_some());
    assert_ne!(
        second_device.refresh_cookie(),
        first_device.refresh_cookie()
    );

    let sessions = second_device.get("/api/auth/sessions").await;
    assert_eq!(sessions.status, StatusCode::OK);
    let list = sessions.json["sessions"].as_array().expect("a list");
    assert_eq!(list.len(), 2, "one session per device");
    assert_eq!(list[0]["current"], true, "newest first, and it is this one");
    assert_eq!(list[1]["current"], false);
    assert_eq!(
        list[0]["userAgent"],
        "Mozilla/5.0 (X11; Linux x86_64) Teste/1.0"
    );
    app.stop().await;
}

#[tokio::test]
async fn an_unknown_email_and_a_wrong_password_get_the_very_same_answer() {
    let app = TestApp::spawn().await;
    account(&app, "hana@exemplo.com", "segredo1").await;
    let mut browser = Browser::new(&app);

    let wrong_password = browser.log_in("hana@exemplo.com", "errada1").await;
    let unknown = browser.log_in("ninguem@exemplo.com", "errada1").await;

    for answer in [&wrong_password, &unknown] {
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
        assert_eq!(answer.code(), "invalid-credential");
        assert!(answer.refresh_set_cookie().is_none());
    }
    assert_eq!(wrong_password.json, unknown.json, "same code and message");
    assert_eq!(unknown.message(), "E-mail ou senha incorretos.");
    // Both run one argon2id check with the same parameters (see the gateway's
    // `the_check_for_an_unknown_email_does_the_same_work_as_a_real_one`); timing is not asserted
    // here because a loaded machine makes timed tests flaky.
    app.stop().await;
}

#[tokio::test]
async fn a_disabled_account_cannot_sign_in_refresh_or_call_and_can_be_enabled_again() {
    let app = TestApp::spawn().await;
    let mut device = account(&app, "ivo@exemplo.com", "segredo1").await;
    let old_cookie = device.refresh_cookie().map(ToOwned::to_owned);

    let account_id = roles::account(&app.settings, AccountAction::Disable, "IVO@exemplo.com")
        .await
        .expect("disabled");
    let me = device.me().await;
    assert_eq!(me.status, StatusCode::FORBIDDEN);
    assert_eq!(me.code(), "user-disabled");
    let refreshed = device.refresh().await;
    assert_eq!(refreshed.status, StatusCode::FORBIDDEN);
    assert_eq!(refreshed.code(), "user-disabled");
    assert!(
        device.refresh_cookie().is_none(),
        "the refused cookie is cleared"
    );

    let mut browser = Browser::new(&app);
    let right_password = browser.log_in("ivo@exemplo.com", "segredo1").await;
    assert_eq!(right_password.status, StatusCode::FORBIDDEN);
    assert_eq!(right_password.code(), "user-disabled");
    assert!(right_password.message().contains("desativada"));
    // Without the right password the account's state is not revealed.
    let wrong_password = browser.log_in("ivo@exemplo.com", "errada1").await;
    assert_eq!(wrong_password.code(), "invalid-credential");

    let enabled_id = roles::account(&app.settings, AccountAction::Enable, "ivo@exemplo.com")
        .await
        .expect("enabled");
    assert_eq!(enabled_id, account_id);
    let again = browser.log_in("ivo@exemplo.com", "segredo1").await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text);
    // The read model catches up with the enabling.
    let me = eventually("/me to answer after the enabling", async || {
        let me = browser.me().await;
        (me.status == StatusCode::OK).then_some(me)
    })
    .await;
    assert_eq!(me.status, StatusCode::OK, "{}", me.text);
    // The sessions the disabling ended stay ended, now as ordinary ended sessions.
    device.set_refresh_cookie(old_cookie);
    let stale = device.refresh().await;
    assert_eq!(stale.status, StatusCode::UNAUTHORIZED);
    assert_eq!(stale.code(), "invalid-credential");
    app.stop().await;
}

#[tokio::test]
async fn disabling_an_unknown_email_is_an_error_naming_it() {
    let app = TestApp::spawn().await;
    let error = roles::account(&app.settings, AccountAction::Disable, "nao@existe.com")
        .await
        .expect_err("no such account");
    assert!(error.to_string().contains("nao@existe.com"), "{error}");
    app.stop().await;
}

#[tokio::test]
async fn bad_sign_in_requests_are_refused_before_any_lookup() {
    let app = TestApp::spawn().await;
    let mut browser = Browser::new(&app);

    let missing = browser
        .post_json("/api/auth/login", &json!({"email": "a@exemplo.com"}))
        .await;
    assert_eq!(missing.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(missing.field(), Some("password"));

    let wrong_type = browser
        .post_json(
            "/api/auth/login",
            &json!({"email": "a@exemplo.com", "password": true}),
        )
        .await;
    assert_eq!(wrong_type.field(), Some("password"));

    let bad_email = browser.log_in("não é e-mail", "segredo1").await;
    assert_eq!(bad_email.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(bad_email.field(), Some("email"));

    let malformed = browser
        .request(
            Method::POST,
            "/api/auth/login",
            Some("application/json"),
            Some(b"[\"a@exemplo.com\", \"segredo1\"]".to_vec()),
        )
        .await;
    assert_eq!(malformed.status, StatusCode::BAD_REQUEST);
    assert_eq!(malformed.code(), "invalid-json");

    let get = browser.get("/api/auth/login").await;
    assert_eq!(get.status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(get.code(), "method-not-allowed");

    let unknown = browser.get("/api/auth/nada").await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    assert_eq!(unknown.code(), "not-found");
    app.stop().await;
}

#[tokio::test]
async fn a_missing_forged_or_garbage_bearer_token_is_401_unauthenticated() {
    let app = TestApp::spawn().await;
    let mut owner = account(&app, "jo@exemplo.com", "segredo1").await;
    let real = owner.access_token.clone().expect("a token");

    let mut browser = Browser::new(&app);
    let none = browser.me().await;
    assert_eq!(none.status, StatusCode::UNAUTHORIZED);
    assert_eq!(none.code(), "unauthenticated");
    assert_eq!(none.header("www-authenticate"), Some("Bearer"));

    // Same claims, another signature.
    let mut parts: Vec<&str> = real.split('.').collect();
    let forged_signature = "A".repeat(parts[2].len());
    parts[2] = &forged_signature;
    for token in [parts.join("."), "lixo".to_owned(), String::new()] {
        browser.access_token = Some(token.clone());
        let answer = browser.me().await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{token:?}");
        assert_eq!(answer.code(), "unauthenticated");
    }
    assert_eq!(owner.me().await.status, StatusCode::OK);
    app.stop().await;
}
