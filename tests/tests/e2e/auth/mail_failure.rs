//! A mail server that does not answer never turns into an error for the person: sign-up still
//! signs in, recovery still answers 204, and the failure is counted for the operators.

use reqwest::StatusCode;
use serde_json::json;
use tests::browser::Browser;
use tests::{TestApp, eventually};

#[tokio::test]
async fn an_unreachable_mail_server_is_logged_and_counted_not_shown() {
    // Port 9 (discard) on loopback: nothing listens there, the connection is refused.
    let app = TestApp::spawn_with(|settings| {
        settings.mail.mail_url = "smtp://127.0.0.1:9".to_owned();
    })
    .await;
    let mut browser = Browser::new(&app);
    let signed_up = browser.sign_up("tui@exemplo.com", "segredo1", "Tui").await;
    assert_eq!(signed_up.status, StatusCode::OK, "{}", signed_up.text);

    let recovered = browser
        .post_json("/api/auth/recover", &json!({ "email": "tui@exemplo.com" }))
        .await;
    assert_eq!(recovered.status, StatusCode::NO_CONTENT);

    eventually("both failures to be counted in /metrics", async || {
        let metrics = app.metrics().await;
        let counted = |kind: &str| {
            metrics.lines().any(|line| {
                line.starts_with("balcao_mail_total")
                    && line.contains(&format!("kind=\"{kind}\""))
                    && line.contains("outcome=\"failed\"")
            })
        };
        (counted("reset_password") && counted("verify_email")).then_some(())
    })
    .await;
    app.stop().await;
}
