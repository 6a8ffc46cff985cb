//! Refresh tokens and sign-out through HTTP: rotation, reuse ending the whole session, expiry,
//! signing out one device or all, and the session list.

use reqwest::{Method, StatusCode};
use tests::TestApp;
use tests::browser::Browser;

async fn signed_up(app: &TestApp, email: &str) -> Browser {
    let mut browser = Browser::new(app);
    let answer = browser.sign_up(email, "segredo1", "Titular").await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    browser
}

async fn signed_in(app: &TestApp, email: &str) -> Browser {
    let mut browser = Browser::new(app);
    let answer = browser.log_in(email, "segredo1").await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    browser
}

#[tokio::test]
async fn a_refresh_answers_a_new_access_token_and_rotates_the_cookie() {
    let app = TestApp::spawn().await;
    let mut browser = signed_up(&app, "lia@exemplo.com").await;
    let first_cookie = browser.refresh_cookie().unwrap().to_owned();

    // The dashboard sends no bearer token on refresh.
    browser.access_token = None;
    let answer = browser.refresh().await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(answer.json["expiresIn"], 3600);
    assert!(
        answer.json["accessToken"]
            .as_str()
            .is_some_and(|t| !t.is_empty())
    );
    assert!(answer.json.get("user").is_none(), "only the token");
    let new_cookie = browser.refresh_cookie().unwrap().to_owned();
    assert_ne!(new_cookie, first_cookie, "rotated");
    assert!(
        answer
            .refresh_set_cookie()
            .unwrap()
            .ends_with("; HttpOnly; Secure; SameSite=Strict; Path=/api/auth; Max-Age=2592000")
    );
    assert_eq!(answer.header("cache-control"), Some("no-store"));
    assert_eq!(browser.me().await.status, StatusCode::OK);

    // And again, with the successor.
    assert_eq!(browser.refresh().await.status, StatusCode::OK);
    app.stop().await;
}

#[tokio::test]
async fn a_rotated_token_presented_again_ends_the_session_for_everyone_holding_it() {
    let app = TestApp::spawn().await;
    let mut victim = signed_up(&app, "mel@exemplo.com").await;
    let stolen = victim.refresh_cookie().unwrap().to_owned();

    // The thief refreshes first and gets a working successor.
    let mut thief = Browser::new(&app);
    thief.set_refresh_cookie(Some(stolen.clone()));
    assert_eq!(thief.refresh().await.status, StatusCode::OK);
    assert_eq!(thief.me().await.status, StatusCode::OK);

    // Later (past the reuse interval that covers a client's own retries), the victim presents
    // the same rotated token: the whole session ends.
    let db = app.db().await;
    sqlx::query(
        "update refresh_tokens set rotated_at = rotated_at - interval '1 minute'
         where rotated_at is not null",
    )
    .execute(&db)
    .await
    .expect("the rotation is a minute old");
    db.close().await;
    let reuse = victim.refresh().await;
    assert_eq!(reuse.status, StatusCode::UNAUTHORIZED);
    assert_eq!(reuse.code(), "invalid-credential");
    assert!(victim.refresh_cookie().is_none(), "the cookie is cleared");

    let thief_refresh = thief.refresh().await;
    assert_eq!(
        thief_refresh.status,
        StatusCode::UNAUTHORIZED,
        "the successor stops too"
    );
    let thief_call = thief.me().await;
    assert_eq!(
        thief_call.status,
        StatusCode::UNAUTHORIZED,
        "and its access token"
    );
    assert_eq!(thief_call.code(), "unauthenticated");
    assert_eq!(victim.me().await.status, StatusCode::UNAUTHORIZED);

    let db = app.db().await;
    let reason: String = sqlx::query_scalar("select revoked_reason from auth_sessions")
        .fetch_one(&db)
        .await
        .expect("one session");
    assert_eq!(reason, "token_reuse");
    db.close().await;

    // Signing in again works.
    let mut fresh = signed_in(&app, "mel@exemplo.com").await;
    assert_eq!(fresh.me().await.status, StatusCode::OK);
    app.stop().await;
}

#[tokio::test]
async fn an_expired_refresh_token_is_refused_and_cleared() {
    let app = TestApp::spawn().await;
    let mut browser = signed_up(&app, "noa@exemplo.com").await;
    let db = app.db().await;
    sqlx::query("update refresh_tokens set expires_at = now() - interval '1 second'")
        .execute(&db)
        .await
        .expect("expired");
    db.close().await;

    let answer = browser.refresh().await;
    assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
    assert_eq!(answer.code(), "invalid-credential");
    assert_eq!(answer.message(), "Sua sessão expirou. Entre novamente.");
    assert_eq!(
        answer.refresh_set_cookie(),
        Some("balcao_refresh=; HttpOnly; Secure; SameSite=Strict; Path=/api/auth; Max-Age=0")
    );
    app.stop().await;
}

#[tokio::test]
async fn a_refresh_without_a_cookie_or_with_the_wrong_form_is_refused() {
    let app = TestApp::spawn().await;
    let mut browser = Browser::new(&app);

    let no_cookie = browser.refresh().await;
    assert_eq!(no_cookie.status, StatusCode::UNAUTHORIZED);
    assert_eq!(no_cookie.code(), "invalid-credential");

    browser.set_refresh_cookie(Some("inventado".to_owned()));
    let unknown = browser.refresh().await;
    assert_eq!(unknown.status, StatusCode::UNAUTHORIZED);

    let wrong_grant = browser
        .request(
            Method::POST,
            "/api/auth/token",
            Some("application/x-www-form-urlencoded"),
            Some(b"grant_type=password".to_vec()),
        )
        .await;
    assert_eq!(wrong_grant.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(wrong_grant.field(), Some("grant_type"));

    let json = browser
        .request(
            Method::POST,
            "/api/auth/token",
            Some("application/json"),
            Some(b"{\"grant_type\":\"refresh_token\"}".to_vec()),
        )
        .await;
    assert_eq!(json.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert_eq!(json.code(), "unsupported-media-type");
    app.stop().await;
}

#[tokio::test]
async fn signing_out_this_device_leaves_the_others_signed_in() {
    let app = TestApp::spawn().await;
    let mut phone = signed_up(&app, "olga@exemplo.com").await;
    let mut laptop = signed_in(&app, "olga@exemplo.com").await;

    let answer = phone.revoke(false).await;
    assert_eq!(answer.status, StatusCode::NO_CONTENT, "{}", answer.text);
    assert!(answer.refresh_set_cookie().unwrap().contains("Max-Age=0"));
    assert!(phone.refresh_cookie().is_none());
    assert_eq!(phone.me().await.status, StatusCode::UNAUTHORIZED);

    assert_eq!(laptop.me().await.status, StatusCode::OK);
    assert_eq!(laptop.refresh().await.status, StatusCode::OK);

    // Signing out again is "already signed out".
    let again = phone.revoke(false).await;
    assert_eq!(again.status, StatusCode::UNAUTHORIZED);
    app.stop().await;
}

#[tokio::test]
async fn signing_out_of_all_devices_ends_every_session_of_the_account() {
    let app = TestApp::spawn().await;
    let mut phone = signed_up(&app, "pia@exemplo.com").await;
    let mut laptop = signed_in(&app, "pia@exemplo.com").await;
    let mut other_account = signed_up(&app, "outra@exemplo.com").await;

    assert_eq!(laptop.revoke(true).await.status, StatusCode::NO_CONTENT);
    assert_eq!(phone.me().await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(phone.refresh().await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(laptop.me().await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        other_account.me().await.status,
        StatusCode::OK,
        "other accounts untouched"
    );
    app.stop().await;
}

#[tokio::test]
async fn sign_out_works_with_the_cookie_alone_and_with_the_token_alone() {
    let app = TestApp::spawn().await;

    let mut expired_token = signed_up(&app, "rui@exemplo.com").await;
    expired_token.access_token = Some("expirado".to_owned());
    let by_cookie = expired_token
        .request(Method::POST, "/api/auth/revoke", None, None)
        .await;
    assert_eq!(
        by_cookie.status,
        StatusCode::NO_CONTENT,
        "{}",
        by_cookie.text
    );

    let mut token_only = signed_in(&app, "rui@exemplo.com").await;
    token_only.set_refresh_cookie(None);
    assert_eq!(
        token_only.revoke(false).await.status,
        StatusCode::NO_CONTENT
    );
    assert_eq!(token_only.me().await.status, StatusCode::UNAUTHORIZED);

    let mut nobody = Browser::new(&app);
    let refused = nobody.revoke(true).await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED);
    assert_eq!(refused.code(), "unauthenticated");
    app.stop().await;
}

#[tokio::test]
async fn a_session_can_be_ended_from_the_list_of_sessions() {
    let app = TestApp::spawn().await;
    let mut phone = signed_up(&app, "sol@exemplo.com").await;
    let mut laptop = signed_in(&app, "sol@exemplo.com").await;
    let mut intruder = signed_up(&app, "intruso@exemplo.com").await;

    let list = laptop.get("/api/auth/sessions").await;
    let sessions = list.json["sessions"].as_array().unwrap().clone();
    assert_eq!(sessions.len(), 2);
    let phone_session = sessions.iter().find(|s| s["current"] == false).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    for field in ["createdAt", "lastUsedAt"] {
        assert!(sessions[0][field].as_str().is_some(), "{field}");
    }

    // Another account cannot end it.
    let foreign = intruder
        .delete(&format!("/api/auth/sessions/{phone_session}"))
        .await;
    assert_eq!(foreign.status, StatusCode::NOT_FOUND);
    assert_eq!(foreign.code(), "not-found");
    assert_eq!(phone.me().await.status, StatusCode::OK);

    let ended = laptop
        .delete(&format!("/api/auth/sessions/{phone_session}"))
        .await;
    assert_eq!(ended.status, StatusCode::NO_CONTENT);
    assert_eq!(phone.me().await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(phone.refresh().await.status, StatusCode::UNAUTHORIZED);
    let left = laptop.get("/api/auth/sessions").await;
    assert_eq!(left.json["sessions"].as_array().unwrap().len(), 1);

    let bad_id = laptop.delete("/api/auth/sessions/nao-e-uuid").await;
    assert_eq!(bad_id.status, StatusCode::NOT_FOUND);
    app.stop().await;
}

/// The workspace routes check the session and the caller's access in one query: each way a
/// session can end is answered there exactly as on `/api/auth/me`, a use is still noted in the
/// session list, and a path that names no account is 404 only to a caller with a valid token.
#[tokio::test]
async fn a_workspace_route_answers_an_ended_session_as_the_rest_of_the_api_does() {
    let app = TestApp::spawn().await;
    let mut phone = Browser::new(&app);
    let signed_up = phone.sign_up("rui@exemplo.com", "segredo1", "Rui").await;
    let account = signed_up.json["user"]["uid"].as_str().unwrap().to_owned();
    let mut laptop = signed_in(&app, "rui@exemplo.com").await;
    let qrcodes = format!("/api/accounts/{account}/qrcodes");
    assert_eq!(phone.get(&qrcodes).await.status, StatusCode::OK);

    // A use more than five minutes after the last one is noted, as on every route.
    let db = app.db().await;
    sqlx::query("update auth_sessions set last_used_at = now() - interval '1 hour'")
        .execute(&db)
        .await
        .unwrap();
    assert_eq!(phone.get(&qrcodes).await.status, StatusCode::OK);
    let recent: i64 = sqlx::query_scalar(
        "select count(*) from auth_sessions where last_used_at > now() - interval '1 minute'",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    assert_eq!(recent, 1, "the phone's session only");

    // Not an account id: 404 with a valid token, 401 without one.
    let not_an_id = phone.get("/api/accounts/nao-e-conta/qrcodes").await;
    assert_eq!(not_an_id.status, StatusCode::NOT_FOUND);
    let token = phone.access_token.take();
    assert_eq!(phone.get(&qrcodes).await.status, StatusCode::UNAUTHORIZED);
    let no_token = phone.get("/api/accounts/nao-e-conta/qrcodes").await;
    assert_eq!(no_token.status, StatusCode::UNAUTHORIZED);
    phone.access_token = token;

    // Signed out: 401 at once, though the access token has not expired.
    assert_eq!(phone.revoke(false).await.status, StatusCode::NO_CONTENT);
    let ended = phone.get(&qrcodes).await;
    assert_eq!(ended.status, StatusCode::UNAUTHORIZED);
    assert_eq!(ended.code(), "unauthenticated");

    // Ended by disabling the account: 403 `user-disabled` while it stays disabled.
    gateway::roles::account(
        &app.settings,
        gateway::roles::AccountAction::Disable,
        "rui@exemplo.com",
    )
    .await
    .expect("disabled");
    let disabled = laptop.get(&qrcodes).await;
    assert_eq!(disabled.status, StatusCode::FORBIDDEN);
    assert_eq!(disabled.code(), "user-disabled");
    app.stop().await;
}
