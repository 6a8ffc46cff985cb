//! Deleting an account through HTTP: the password is asked again; afterwards the account's
//! sealed fields can never be opened (its key is gone), nothing of it is left beside the log or
//! in the read models, its teams lose it, its address can sign up again, and the QR codes it
//! made stay payable.

use super::support::{PASSWORD, PNG, Person, invite, join, qrcode_body, sign_up};
use reqwest::StatusCode;
use serde_json::json;
use tests::browser::Browser;
use tests::{TestApp, allow_writes, refuse_writes};

async fn count(db: &sqlx::PgPool, sql: &str, account_id: &str) -> i64 {
    sqlx::query_scalar(sqlx::AssertSqlSafe(sql.to_owned()))
        .bind(account_id)
        .fetch_one(db)
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

#[tokio::test]
async fn a_deleted_account_leaves_only_unreadable_sealed_fields_and_its_address_signs_up_again() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona Maria Souza").await;
    let id = owner.account_id.clone();
    let saved = owner
        .patch(
            "/api/account/settings",
            &json!({"phoneNumber": "(11) 91234-5678", "defaultMerchantName": "Padaria da Dona"}),
        )
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);
    assert_eq!(
        owner.put_photo("image/png", PNG.to_vec()).await.status,
        StatusCode::OK
    );
    let (mut gerente, _) = join(
        &app,
        &mut owner,
        "gerente@padaria.test",
        "Gerente",
        "manager",
    )
    .await;
    assert_eq!(
        invite(&mut owner, "pendente@padaria.test", "operator")
            .await
            .status,
        StatusCode::CREATED
    );
    let qrcodes = Person::in_account(&id, "/qrcodes");
    let made = owner.post(&qrcodes, &qrcode_body("Padaria")).await;
    let qrcode_id = made.json["id"].as_str().expect("id").to_owned();
    let mut phone = Browser::new(&app);
    assert_eq!(
        phone.log_in("dona@padaria.test", PASSWORD).await.status,
        StatusCode::OK
    );

    let refused = owner
        .post("/api/account/delete", &json!({"password": "errada-1"}))
        .await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{}", refused.text);
    assert_eq!(refused.code(), "wrong-password");
    assert_eq!(refused.field(), Some("password"));
    let missing = owner.post("/api/account/delete", &json!({})).await;
    assert_eq!(missing.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        owner.get("/api/account/settings").await.status,
        StatusCode::OK
    );

    let deleted = owner
        .post("/api/account/delete", &json!({"password": PASSWORD}))
        .await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT, "{}", deleted.text);
    let cookie = deleted.refresh_set_cookie().expect("the cookie is cleared");
    assert!(cookie.contains("Max-Age=0"), "{cookie}");

    // Every session ended at once, on every device.
    assert_eq!(owner.browser.me().await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(phone.me().await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(phone.refresh().await.status, StatusCode::UNAUTHORIZED);

    let db = app.db().await;
    // The key is gone: nothing sealed for this account can be opened again.
    assert_eq!(
        count(
            &db,
            "select count(*) from account_keys where account_id = $1",
            &id
        )
        .await,
        0
    );
    // So are the keys of the invitations it sent (the manager's and the pending one): the
    // addresses it invited cannot be opened either.
    assert_eq!(
        count(
            &db,
            "select count(*) from account_keys where account_id like $1",
            "invitation:%"
        )
        .await,
        0
    );
    for table in ["account_photos", "action_codes", "auth_sessions"] {
        let sql = format!("select count(*) from {table} where account_id = $1");
        assert_eq!(count(&db, &sql, &id).await, 0, "{table}");
    }
    assert_eq!(
        count(
            &db,
            "select count(*) from unique_claims where owner = $1",
            &id
        )
        .await,
        0,
        "its address and its team's invitations are released"
    );
    assert_eq!(
        count(
            &db,
            "select count(*) from accounts where account_id = $1::uuid",
            &id
        )
        .await,
        0
    );
    assert_eq!(
        count(
            &db,
            "select count(*) from account_members where account_id = $1::uuid or member_account_id = $1::uuid",
            &id
        )
        .await,
        0
    );
    // The log keeps the account's events, and no plain personal value is in any of them.
    assert!(
        count(&db, "select count(*) from events where stream_id = $1", &id).await > 5,
        "the history stays"
    );
    let payloads: Vec<String> = sqlx::query_scalar("select payload::text from events")
        .fetch_all(&db)
        .await
        .expect("events");
    for payload in &payloads {
        for plain in [
            "dona@padaria.test",
            "Dona Maria",
            "912345678",
            "PADARIA DA DONA",
            "pendente@padaria.test",
            "gerente@padaria.test",
        ] {
            assert!(!payload.contains(plain), "{plain} in {payload}");
        }
    }
    db.close().await;

    assert_eq!(
        app.get(&format!("/fotos/{id}")).await.status(),
        StatusCode::NOT_FOUND
    );
    let workspaces = gerente.get("/api/workspaces").await;
    assert_eq!(
        workspaces.json["workspaces"].as_array().map(Vec::len),
        Some(1),
        "the team is gone for its members: {}",
        workspaces.text
    );
    let gone = gerente.get(&qrcodes).await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND);

    // The QR codes stay payable.
    assert_eq!(
        app.get(&format!("/pagamento/{qrcode_id}")).await.status(),
        StatusCode::OK
    );

    // The address is free again: a new, different account.
    let again = sign_up(&app, "dona@padaria.test", "Dona de Novo").await;
    assert_ne!(again.account_id, id);
    app.stop().await;
}

#[tokio::test]
async fn a_deletion_whose_clean_up_fails_leaves_the_account_whole_and_can_be_asked_again() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let id = owner.account_id.clone();
    assert_eq!(
        owner.put_photo("image/png", PNG.to_vec()).await.status,
        StatusCode::OK
    );
    let db = app.db().await;
    // Deleting the sessions fails, as a lost connection or a pool timeout after the account's
    // deletion would.
    refuse_writes(&db, "auth_sessions", "delete", "true").await;

    let failed = owner
        .post("/api/account/delete", &json!({"password": PASSWORD}))
        .await;

    assert!(failed.status.is_server_error(), "{}", failed.text);
    // The account is whole: not deleted, its key, address, photo and sessions all there.
    let deletions =
        "select count(*) from events where stream_id = $1 and event_type = 'AccountDeleted'";
    assert_eq!(count(&db, deletions, &id).await, 0);
    for sql in [
        "select count(*) from account_keys where account_id = $1",
        "select count(*) from unique_claims where owner = $1",
        "select count(*) from account_photos where account_id = $1",
    ] {
        assert_eq!(count(&db, sql, &id).await, 1, "{sql}");
    }
    assert_eq!(
        owner.get("/api/account/settings").await.status,
        StatusCode::OK
    );
    assert_eq!(owner.browser.refresh().await.status, StatusCode::OK);

    // Asked again once the database works, it deletes everything.
    allow_writes(&db, "auth_sessions").await;
    let deleted = owner
        .post("/api/account/delete", &json!({"password": PASSWORD}))
        .await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT, "{}", deleted.text);
    assert_eq!(count(&db, deletions, &id).await, 1);
    for table in ["account_photos", "action_codes", "auth_sessions"] {
        let sql = format!("select count(*) from {table} where account_id = $1");
        assert_eq!(count(&db, &sql, &id).await, 0, "{table}");
    }
    assert_eq!(owner.browser.me().await.status, StatusCode::UNAUTHORIZED);
    db.close().await;
    app.stop().await;
}

#[tokio::test]
async fn a_member_who_deletes_their_account_leaves_the_team_and_may_be_invited_again() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let (mut caixa, _) = join(&app, &mut owner, "caixa@padaria.test", "Caixa", "operator").await;
    let members = Person::in_account(&owner.account_id, "/members");
    assert_eq!(
        owner.get(&members).await.json["members"]
            .as_array()
            .map(Vec::len),
        Some(1)
    );

    let db = app.db().await;
    let invitation_keys = "select count(*) from account_keys where account_id like $1";
    assert_eq!(
        count(&db, invitation_keys, "invitation:%").await,
        1,
        "the invitee's address is sealed with the invitation's own key"
    );

    let deleted = caixa
        .post("/api/account/delete", &json!({"password": PASSWORD}))
        .await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT, "{}", deleted.text);

    assert_eq!(owner.get(&members).await.json["members"], json!([]));
    assert_eq!(
        count(&db, invitation_keys, "invitation:%").await,
        0,
        "leaving the team shredded it: the address is unreadable in the owner's log too"
    );
    let invited = invite(&mut owner, "caixa@padaria.test", "operator").await;
    assert_eq!(invited.status, StatusCode::CREATED, "{}", invited.text);
    app.stop().await;
}

#[tokio::test]
async fn deleting_needs_a_signed_in_caller() {
    let app = TestApp::spawn().await;
    let mut nobody = Browser::new(&app);
    let answer = nobody
        .post_json("/api/account/delete", &json!({"password": PASSWORD}))
        .await;
    assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
    assert_eq!(answer.code(), "unauthenticated");
    app.stop().await;
}
