//! Sign-in and recovery are rate limited per client address and per e-mail, and re-entering the
//! password on a signed-in device per account: 429 `too-many-requests` with `Retry-After`.

use reqwest::StatusCode;
use serde_json::json;
use tests::TestApp;
use tests::browser::{Answer, Browser};

/// A 429 `too-many-requests` with its pt-BR message and a `Retry-After` of at most a minute.
pub(crate) fn assert_limited(answer: &Answer) {
    assert_eq!(
        answer.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        answer.text
    );
    assert_eq!(answer.code(), "too-many-requests");
    assert_eq!(
        answer.message(),
        "Muitas tentativas seguidas. Aguarde um pouco e tente de novo."
    );
    let wait: u64 = answer
        .header("retry-after")
        .expect("Retry-After")
        .parse()
        .expect("seconds");
    assert!((1..=60).contains(&wait), "{wait}");
}

#[tokio::test]
async fn one_address_gets_a_few_sign_ins_a_minute_whatever_the_emails() {
    let app = TestApp::spawn_with(|settings| {
        settings.auth.auth_per_minute_per_address = 3;
        settings.auth.auth_per_minute_per_email = 100;
    })
    .await;
    let mut owner = Browser::new(&app);
    assert_eq!(
        owner
            .sign_up("gil@exemplo.com", "segredo1", "Gil")
            .await
            .status,
        StatusCode::OK,
        "sign-up is not limited by these budgets"
    );

    let mut browser = Browser::new(&app);
    for n in 0..3 {
        let answer = browser
            .log_in(&format!("tentativa{n}@exemplo.com"), "errada1")
            .await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
    }
    assert_limited(&browser.log_in("outra@exemplo.com", "errada1").await);
    // The right password does not get around it.
    assert_limited(&browser.log_in("gil@exemplo.com", "segredo1").await);

    // Recovery has its own budget, limited the same way.
    for n in 0..3 {
        let answer = browser
            .post_json(
                "/api/auth/recover",
                &json!({ "email": format!("r{n}@exemplo.com") }),
            )
            .await;
        assert_eq!(answer.status, StatusCode::NO_CONTENT);
    }
    assert_limited(
        &browser
            .post_json("/api/auth/recover", &json!({ "email": "gil@exemplo.com" }))
            .await,
    );
    app.stop().await;
}

#[tokio::test]
async fn one_email_gets_a_few_attempts_a_minute_from_any_number_of_addresses() {
    let app = TestApp::spawn_with(|settings| {
        settings.trust_forwarded_for = true;
        settings.auth.auth_per_minute_per_address = 100;
        settings.auth.auth_per_minute_per_email = 2;
    })
    .await;
    let mut attacker = Browser::new(&app);
    for n in 1..=2 {
        attacker.set_header("x-forwarded-for", &format!("198.51.100.{n}"));
        let answer = attacker.log_in("alvo@exemplo.com", "chute123").await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
    }
    attacker.set_header("x-forwarded-for", "198.51.100.3");
    assert_limited(&attacker.log_in("ALVO@exemplo.com ", "chute123").await);
    // Other e-mails from the same address are fine.
    let other = attacker.log_in("outro@exemplo.com", "chute123").await;
    assert_eq!(other.status, StatusCode::UNAUTHORIZED);

    for n in 1..=2 {
        attacker.set_header("x-forwarded-for", &format!("203.0.113.{n}"));
        let answer = attacker
            .post_json("/api/auth/recover", &json!({ "email": "alvo@exemplo.com" }))
            .await;
        assert_eq!(answer.status, StatusCode::NO_CONTENT);
    }
    attacker.set_header("x-forwarded-for", "203.0.113.9");
    assert_limited(
        &attacker
            .post_json("/api/auth/recover", &json!({ "email": "alvo@exemplo.com" }))
            .await,
    );
    app.stop().await;
}

#[tokio::test]
async fn re_entering_the_password_on_a_signed_in_device_is_limited_per_account() {
    let app = TestApp::spawn_with(|settings| {
        settings.auth.auth_per_minute_per_email = 3;
    })
    .await;
    let mut browser = Browser::new(&app);
    let signed_up = browser.sign_up("lia@exemplo.com", "segredo1", "Lia").await;
    assert_eq!(signed_up.status, StatusCode::OK, "{}", signed_up.text);

    for _ in 0..3 {
        let answer = browser
            .post_json("/api/account/delete", &json!({"password": "chute-errado"}))
            .await;
        assert_eq!(answer.code(), "wrong-password", "{}", answer.text);
    }
    // A stolen unlocked phone cannot go on guessing, not even with the right password.
    assert_limited(
        &browser
            .post_json("/api/account/delete", &json!({"password": "segredo1"}))
            .await,
    );
    assert_limited(
        &browser
            .post_json(
                "/api/account/password",
                &json!({"currentPassword": "segredo1", "newPassword": "outra-senha-1"}),
            )
            .await,
    );
    app.stop().await;
}
