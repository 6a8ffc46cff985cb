//! Moving an account to a new sign-in e-mail: `request_email_change` (what the settings
//! endpoint calls) sends a link to the new address, and opening it through
//! `POST /api/auth/verify-email` switches the account, verified, and frees the old address.

use std::time::Duration;

use gateway::api::auth::request_email_change;
use gateway::state::AppState;
use reqwest::StatusCode;
use serde_json::json;
use tests::browser::Browser;
use tests::smtp_sink::query_param;
use tests::{TestApp, eventually};

const MAIL_WAIT: Duration = Duration::from_secs(10);

async fn state(app: &TestApp) -> AppState {
    gateway::roles::app_state(&app.settings, app.db().await, None)
        .await
        .expect("the gateway's state")
}

async fn signed_up(app: &TestApp, email: &str) -> (Browser, String) {
    let mut browser = Browser::new(app);
    let answer = browser.sign_up(email, "segredo1", "Ana").await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let uid = answer.json["user"]["uid"].as_str().unwrap().to_owned();
    (browser, uid)
}

async fn change_code(app: &TestApp, to: &str) -> String {
    let mail = app
        .mail
        .wait_for(to, MAIL_WAIT)
        .await
        .expect("the confirmation e-mail");
    assert_eq!(mail.subject, "Confirme seu novo e-mail no Balcão");
    // The account's name appears as quoted data, never as the message's own words.
    assert!(mail.text.contains("com o nome “Ana”"), "{}", mail.text);
    let link = mail.link("/verificar-email").expect("a link");
    query_param(&link, "oobCode").expect("a code")
}

#[tokio::test]
async fn the_link_sent_to_the_new_address_moves_the_account_there_verified() {
    let app = TestApp::spawn().await;
    let (mut browser, uid) = signed_up(&app, "antigo@exemplo.com").await;
    let state = state(&app).await;

    request_email_change(&state, &uid, " Novo@Exemplo.com ", "Ana")
        .await
        .expect("requested");
    let code = change_code(&app, "novo@exemplo.com").await;

    // Until the link is opened, nothing changes.
    assert_eq!(
        Browser::new(&app)
            .log_in("antigo@exemplo.com", "segredo1")
            .await
            .status,
        StatusCode::OK
    );

    let confirmed = Browser::new(&app)
        .post_json("/api/auth/verify-email", &json!({ "oobCode": code }))
        .await;
    assert_eq!(
        confirmed.status,
        StatusCode::NO_CONTENT,
        "{}",
        confirmed.text
    );

    let me = eventually("/me to show the new address verified", async || {
        let me = browser.me().await;
        (me.json["email"] == "novo@exemplo.com" && me.json["emailVerified"] == true).then_some(me)
    })
    .await;
    assert_eq!(me.json["email"], "novo@exemplo.com");
    assert_eq!(me.json["emailVerified"], true);

    let mut other = Browser::new(&app);
    assert_eq!(
        other.log_in("novo@exemplo.com", "segredo1").await.status,
        StatusCode::OK
    );
    assert_eq!(
        other.log_in("antigo@exemplo.com", "segredo1").await.code(),
        "invalid-credential"
    );
    // The old address is free for someone else.
    assert_eq!(
        Browser::new(&app)
            .sign_up("antigo@exemplo.com", "segredo1", "Outra")
            .await
            .status,
        StatusCode::OK
    );

    let reused = other
        .post_json("/api/auth/verify-email", &json!({ "oobCode": code }))
        .await;
    assert_eq!(reused.code(), "expired-action-code");
    app.stop().await;
}

#[tokio::test]
async fn an_address_taken_by_another_account_cannot_be_requested_or_confirmed() {
    let app = TestApp::spawn().await;
    let (_, uid) = signed_up(&app, "eu@exemplo.com").await;
    signed_up(&app, "ocupado@exemplo.com").await;
    let state = state(&app).await;

    let taken = request_email_change(&state, &uid, "ocupado@exemplo.com", "Ana")
        .await
        .expect_err("taken");
    assert_eq!(taken.code(), "email-already-in-use");
    let own = request_email_change(&state, &uid, "EU@exemplo.com", "Ana")
        .await
        .expect_err("the current one");
    assert_eq!(own.code(), "invalid-argument");

    // Free when asked, taken before the link is opened.
    request_email_change(&state, &uid, "disputa@exemplo.com", "Ana")
        .await
        .expect("requested");
    let code = change_code(&app, "disputa@exemplo.com").await;
    signed_up(&app, "disputa@exemplo.com").await;
    let answer = Browser::new(&app)
        .post_json("/api/auth/verify-email", &json!({ "oobCode": code }))
        .await;
    assert_eq!(answer.status, StatusCode::CONFLICT);
    assert_eq!(answer.code(), "email-already-in-use");
    assert_eq!(
        Browser::new(&app)
            .log_in("eu@exemplo.com", "segredo1")
            .await
            .status,
        StatusCode::OK,
        "the account keeps its address"
    );
    app.stop().await;
}
