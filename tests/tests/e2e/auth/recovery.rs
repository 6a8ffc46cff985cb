//! Password recovery through HTTP and the SMTP sink: the e-mail goes only to real accounts, the
//! answer is the same either way, and the link sets a new password once, before it expires.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::json;
use tests::TestApp;
use tests::browser::Browser;
use tests::smtp_sink::query_param;

const MAIL_WAIT: Duration = Duration::from_secs(10);

/// Signs up `email` and drops its verification e-mail from the sink's queue.
async fn signed_up(app: &TestApp, email: &str) -> Browser {
    let mut browser = Browser::new(app);
    let answer = browser.sign_up(email, "segredo1", "Titular").await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    app.mail
        .wait_for(email, MAIL_WAIT)
        .await
        .expect("the verification e-mail");
    browser
}

/// Asks for recovery and returns the code from the e-mailed link.
async fn reset_code(app: &TestApp, email: &str) -> String {
    let answer = Browser::new(app)
        .post_json("/api/auth/recover", &json!({ "email": email }))
        .await;
    assert_eq!(answer.status, StatusCode::NO_CONTENT, "{}", answer.text);
    let mail = app
        .mail
        .wait_for(email, MAIL_WAIT)
        .await
        .expect("the recovery e-mail");
    let link = mail.link("/redefinir-senha").expect("a reset link");
    query_param(&link, "oobCode").expect("a code")
}

#[tokio::test]
async fn the_recovery_link_sets_a_new_password_and_ends_every_session() {
    let app = TestApp::spawn().await;
    let mut signed_in = signed_up(&app, "ana@exemplo.com").await;

    let answer = Browser::new(&app)
        .post_json(
            "/api/auth/recover",
            &json!({ "email": " ANA@exemplo.com " }),
        )
        .await;
    assert_eq!(answer.status, StatusCode::NO_CONTENT);
    assert!(answer.text.is_empty());
    let mail = app
        .mail
        .wait_for("ana@exemplo.com", MAIL_WAIT)
        .await
        .expect("the recovery e-mail");
    assert_eq!(mail.subject, "Redefina sua senha do Balcão");
    assert!(mail.text.contains("1 hora"), "{}", mail.text);
    let link = mail.link("/redefinir-senha").expect("a reset link");
    assert!(link.starts_with("http://balcao.test/redefinir-senha?oobCode="));
    let code = query_param(&link, "oobCode").unwrap();

    let mut browser = Browser::new(&app);
    let reset = browser
        .post_json(
            "/api/auth/reset",
            &json!({ "oobCode": code, "newPassword": "nova senha 2" }),
        )
        .await;
    assert_eq!(reset.status, StatusCode::NO_CONTENT, "{}", reset.text);

    assert_eq!(signed_in.me().await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(signed_in.refresh().await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        browser.log_in("ana@exemplo.com", "segredo1").await.code(),
        "invalid-credential"
    );
    assert_eq!(
        browser
            .log_in("ana@exemplo.com", "nova senha 2")
            .await
            .status,
        StatusCode::OK
    );

    let reused = browser
        .post_json(
            "/api/auth/reset",
            &json!({ "oobCode": code, "newPassword": "outra senha 3" }),
        )
        .await;
    assert_eq!(reused.status, StatusCode::GONE);
    assert_eq!(reused.code(), "expired-action-code");
    assert_eq!(
        browser
            .log_in("ana@exemplo.com", "nova senha 2")
            .await
            .status,
        StatusCode::OK,
        "the reused link changed nothing"
    );
    app.stop().await;
}

#[tokio::test]
async fn recovering_an_unknown_email_answers_the_same_and_sends_nothing() {
    let app = TestApp::spawn().await;
    signed_up(&app, "bia@exemplo.com").await;
    let mut browser = Browser::new(&app);

    let known = browser
        .post_json("/api/auth/recover", &json!({ "email": "bia@exemplo.com" }))
        .await;
    let unknown = browser
        .post_json(
            "/api/auth/recover",
            &json!({ "email": "ninguem@exemplo.com" }),
        )
        .await;
    assert_eq!(known.status, StatusCode::NO_CONTENT);
    assert_eq!(unknown.status, StatusCode::NO_CONTENT);
    assert_eq!(known.text, unknown.text);

    assert!(
        app.mail
            .wait_for("bia@exemplo.com", MAIL_WAIT)
            .await
            .is_some()
    );
    assert!(
        app.mail
            .wait_for("ninguem@exemplo.com", Duration::from_secs(1))
            .await
            .is_none(),
        "no e-mail to an address without an account"
    );
    app.stop().await;
}

#[tokio::test]
async fn checking_a_recovery_link_says_whether_it_works_without_using_it() {
    let app = TestApp::spawn().await;
    signed_up(&app, "bia@exemplo.com").await;
    let code = reset_code(&app, "bia@exemplo.com").await;
    let mut browser = Browser::new(&app);

    for _ in 0..2 {
        let check = browser
            .post_json("/api/auth/reset/check", &json!({ "oobCode": code }))
            .await;
        assert_eq!(check.status, StatusCode::NO_CONTENT, "{}", check.text);
    }
    let reset = browser
        .post_json(
            "/api/auth/reset",
            &json!({ "oobCode": code, "newPassword": "nova senha 2" }),
        )
        .await;
    assert_eq!(
        reset.status,
        StatusCode::NO_CONTENT,
        "the check spent nothing"
    );

    let used = browser
        .post_json("/api/auth/reset/check", &json!({ "oobCode": code }))
        .await;
    assert_eq!(used.status, StatusCode::GONE);
    assert_eq!(used.code(), "expired-action-code");
    assert_eq!(
        used.message(),
        "Este link expirou ou já foi usado. Peça um novo."
    );
    let invented = browser
        .post_json("/api/auth/reset/check", &json!({ "oobCode": "inventado" }))
        .await;
    assert_eq!(invented.code(), "expired-action-code");
    let missing = browser.post_json("/api/auth/reset/check", &json!({})).await;
    assert_eq!(missing.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(missing.field(), Some("oobCode"));
    app.stop().await;
}

#[tokio::test]
async fn an_expired_recovery_link_is_refused() {
    let app = TestApp::spawn().await;
    signed_up(&app, "caio@exemplo.com").await;
    let code = reset_code(&app, "caio@exemplo.com").await;
    let db = app.db().await;
    sqlx::query("update action_codes set expires_at = now() - interval '1 second' where purpose = 'reset_password'")
        .execute(&db)
        .await
        .expect("expired");
    db.close().await;

    let mut browser = Browser::new(&app);
    let answer = browser
        .post_json(
            "/api/auth/reset",
            &json!({ "oobCode": code, "newPassword": "nova senha 2" }),
        )
        .await;
    assert_eq!(answer.status, StatusCode::GONE);
    assert_eq!(answer.code(), "expired-action-code");
    assert_eq!(
        answer.message(),
        "Este link expirou ou já foi usado. Peça um novo."
    );
    assert_eq!(
        browser.log_in("caio@exemplo.com", "segredo1").await.status,
        StatusCode::OK,
        "the password did not change"
    );
    app.stop().await;
}

#[tokio::test]
async fn a_weak_new_password_is_refused_and_the_link_still_works_afterwards() {
    let app = TestApp::spawn().await;
    signed_up(&app, "duda@exemplo.com").await;
    let code = reset_code(&app, "duda@exemplo.com").await;
    let mut browser = Browser::new(&app);

    let weak = browser
        .post_json(
            "/api/auth/reset",
            &json!({ "oobCode": code, "newPassword": "123" }),
        )
        .await;
    assert_eq!(weak.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(weak.code(), "weak-password");
    assert_eq!(weak.field(), Some("newPassword"));

    let strong = browser
        .post_json(
            "/api/auth/reset",
            &json!({ "oobCode": code, "newPassword": "bem melhor 9" }),
        )
        .await;
    assert_eq!(strong.status, StatusCode::NO_CONTENT);
    app.stop().await;
}

#[tokio::test]
async fn links_only_work_for_their_own_purpose_and_bad_requests_name_the_field() {
    let app = TestApp::spawn().await;
    signed_up(&app, "eva@exemplo.com").await;
    let code = reset_code(&app, "eva@exemplo.com").await;
    let mut browser = Browser::new(&app);

    let as_verification = browser
        .post_json("/api/auth/verify-email", &json!({ "oobCode": code }))
        .await;
    assert_eq!(as_verification.code(), "expired-action-code");

    let invented = browser
        .post_json(
            "/api/auth/reset",
            &json!({ "oobCode": "inventado", "newPassword": "nova senha 2" }),
        )
        .await;
    assert_eq!(invented.code(), "expired-action-code");

    let missing = browser
        .post_json("/api/auth/reset", &json!({ "newPassword": "nova senha 2" }))
        .await;
    assert_eq!(missing.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(missing.field(), Some("oobCode"));

    let bad_email = browser
        .post_json("/api/auth/recover", &json!({ "email": "eva" }))
        .await;
    assert_eq!(bad_email.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(bad_email.field(), Some("email"));

    let missing_code = browser
        .post_json("/api/auth/verify-email", &json!({}))
        .await;
    assert_eq!(missing_code.field(), Some("oobCode"));
    app.stop().await;
}

#[tokio::test]
async fn a_disabled_account_gets_no_recovery_email() {
    let app = TestApp::spawn().await;
    signed_up(&app, "fabi@exemplo.com").await;
    gateway::roles::account(
        &app.settings,
        gateway::roles::AccountAction::Disable,
        "fabi@exemplo.com",
    )
    .await
    .expect("disabled");
    let answer = Browser::new(&app)
        .post_json("/api/auth/recover", &json!({ "email": "fabi@exemplo.com" }))
        .await;
    assert_eq!(answer.status, StatusCode::NO_CONTENT);
    assert!(
        app.mail
            .wait_for("fabi@exemplo.com", Duration::from_secs(1))
            .await
            .is_none()
    );
    app.stop().await;
}
