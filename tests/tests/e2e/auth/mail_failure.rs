//! A mail server that does not answer never turns into an error for the person: sign-up still
//! signs in, recovery still answers 204, and the failure is counted for the operators.

use reqwest::StatusCode;
use serde_json::json;
use tests::TestApp;
use tests::browser::Browser;

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

    let mut counted = false;
    for _ in 0..100 {
        let metrics = app.metrics().await;
        counted = metrics.lines().any(|line| {
            line.starts_with("balcao_mail_total")
                && line.contains("kind=\"reset_password\"")
                && line.contains("outcome=\"failed\"")
        }) && metrics.lines().any(|line| {
            line.starts_with("balcao_mail_total")
                && line.contains("kind=\"verify_email\"")
                && line.contains("outcome=\"failed\"")
        });
        if counted {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(counted, "both failures are counted in /metrics");
    app.stop().await;
}
