//! Teams through HTTP: invitations by e-mail, accepting them, the workspace list, removing
//! members, and every kind of bad input.

use super::support::{
    Person, accept, invitation_code, invite, join, mail_with_link, qrcode_body, rejoin, sign_up,
};
use gateway::roles::{self, AccountAction};
use reqwest::StatusCode;
use serde_json::json;
use tests::{TestApp, allow_writes, eventually, refuse_writes};

#[tokio::test]
async fn an_emailed_invitation_makes_the_invitee_a_member_with_the_role_offered() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona Maria").await;

    let invited = invite(&mut owner, "  Gerente@Padaria.test ", "manager").await;
    assert_eq!(invited.status, StatusCode::CREATED, "{}", invited.text);
    assert_eq!(invited.json["email"], "gerente@padaria.test");
    assert_eq!(invited.json["role"], "manager");
    assert_eq!(invited.json["status"], "invited");
    assert_eq!(invited.json["joinedAt"], serde_json::Value::Null);
    let invitation_id = invited.json["invitationId"]
        .as_str()
        .expect("id")
        .to_owned();

    let members_path = Person::in_account(&owner.account_id, "/members");
    let listed = owner.get(&members_path).await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.text);
    assert_eq!(listed.json["members"], json!([invited.json]));

    let (mail, link) = mail_with_link(&app, "gerente@padaria.test", "/painel/convite").await;
    // The inviter's typed name stays out of the subject, and is quoted data in the body.
    assert_eq!(mail.subject, "Você recebeu um convite para o Balcão");
    assert!(mail.text.contains("“Dona Maria”"), "{}", mail.text);
    assert!(mail.text.contains("gerente"), "{}", mail.text);
    assert!(
        link.starts_with("http://balcao.test/painel/convite?codigo="),
        "{link}"
    );
    let code = tests::smtp_sink::query_param(&link, "codigo").expect("code");

    let mut gerente = sign_up(&app, "gerente@padaria.test", "Gerente").await;
    let accepted = accept(&mut gerente, &code).await;
    assert_eq!(accepted.status, StatusCode::OK, "{}", accepted.text);
    assert_eq!(
        accepted.json,
        json!({"accountId": owner.account_id, "role": "manager"})
    );

    let workspaces = gerente.get("/api/workspaces").await;
    assert_eq!(workspaces.status, StatusCode::OK, "{}", workspaces.text);
    assert_eq!(
        workspaces.json,
        json!({"workspaces": [
            {"accountId": gerente.account_id, "displayName": "Gerente", "role": "owner",
             "defaultMerchantName": null, "defaultMerchantCity": null},
            {"accountId": owner.account_id, "displayName": "Dona Maria", "role": "manager",
             "defaultMerchantName": null, "defaultMerchantCity": null}
        ]})
    );
    let own = owner.get("/api/workspaces").await;
    assert_eq!(own.json["workspaces"].as_array().map(Vec::len), Some(1));

    let listed = owner.get(&members_path).await;
    let member = &listed.json["members"][0];
    assert_eq!(member["invitationId"], invitation_id.as_str());
    assert_eq!(member["status"], "active");
    assert!(member["joinedAt"].is_string(), "{member}");

    // The invited address is in the log only sealed.
    let db = app.db().await;
    let leaked: i64 = sqlx::query_scalar(
        "select count(*) from events where payload::text ilike '%gerente@padaria%'",
    )
    .fetch_one(&db)
    .await
    .expect("count");
    assert_eq!(leaked, 0);
    db.close().await;
    app.stop().await;
}

#[tokio::test]
async fn an_invitation_link_works_once() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    assert_eq!(
        invite(&mut owner, "caixa@padaria.test", "operator")
            .await
            .status,
        StatusCode::CREATED
    );
    let code = invitation_code(&app, "caixa@padaria.test").await;
    let mut caixa = sign_up(&app, "caixa@padaria.test", "Caixa").await;
    let mut other = sign_up(&app, "outra@padaria.test", "Outra").await;

    assert_eq!(accept(&mut caixa, &code).await.status, StatusCode::OK);
    for person in [&mut caixa, &mut other] {
        let again = accept(person, &code).await;
        assert_eq!(again.status, StatusCode::GONE, "{}", again.text);
        assert_eq!(again.code(), "expired-action-code");
    }
    let workspaces = other.get("/api/workspaces").await;
    assert_eq!(
        workspaces.json["workspaces"].as_array().map(Vec::len),
        Some(1)
    );
    app.stop().await;
}

#[tokio::test]
async fn an_invitation_link_says_as_what_to_anyone_holding_it_and_who_invites_only_to_the_invited_address()
 {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Padaria da Dona").await;
    assert_eq!(
        invite(&mut owner, "caixa@padaria.test", "operator")
            .await
            .status,
        StatusCode::CREATED
    );
    let code = invitation_code(&app, "caixa@padaria.test").await;
    let check = json!({ "code": code });

    // A visitor holding the code (the invitee before signing in, or anyone the link reached):
    // there is an invitation, and its role, but not who sent it.
    let mut visitor = tests::browser::Browser::new(&app);
    let offer = visitor.post_json("/api/invitations/check", &check).await;
    assert_eq!(offer.status, StatusCode::OK, "{}", offer.text);
    assert_eq!(offer.json, json!({"displayName": null, "role": "operator"}));
    assert!(!offer.text.contains("Padaria"), "{}", offer.text);

    // A stranger signed in with another address learns no more.
    let mut stranger = sign_up(&app, "estranha@outra.test", "Estranha").await;
    let offer = stranger
        .browser
        .post_json("/api/invitations/check", &check)
        .await;
    assert_eq!(offer.status, StatusCode::OK, "{}", offer.text);
    assert_eq!(offer.json, json!({"displayName": null, "role": "operator"}));

    // The invited address, signed in, is told who invites.
    let mut caixa = sign_up(&app, "caixa@padaria.test", "Caixa").await;
    let offer = caixa
        .browser
        .post_json("/api/invitations/check", &check)
        .await;
    assert_eq!(offer.status, StatusCode::OK, "{}", offer.text);
    assert_eq!(
        offer.json,
        json!({"displayName": "Padaria da Dona", "role": "operator"})
    );

    assert_eq!(
        accept(&mut caixa, &code).await.status,
        StatusCode::OK,
        "the checks spent nothing"
    );
    let used = visitor.post_json("/api/invitations/check", &check).await;
    assert_eq!(used.status, StatusCode::GONE);
    assert_eq!(used.code(), "expired-action-code");
    app.stop().await;
}

#[tokio::test]
async fn an_invitation_whose_link_cannot_be_stored_is_not_made_and_can_be_sent_again() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let db = app.db().await;
    // Storing the link's code fails, as a lost connection or a pool timeout between the
    // invitation and its code would.
    refuse_writes(&db, "action_codes", "insert", "new.purpose = 'invitation'").await;

    let failed = invite(&mut owner, "caixa@padaria.test", "operator").await;

    assert!(failed.status.is_server_error(), "{}", failed.text);
    let left: (i64, i64, i64) = sqlx::query_as(
        "select (select count(*) from events where event_type = 'MemberInvited'),
                (select count(*) from unique_claims where scope like 'invite:%'),
                (select count(*) from account_keys where account_id like 'invitation:%')",
    )
    .fetch_one(&db)
    .await
    .expect("counts");
    assert_eq!(left, (0, 0, 0), "no invitation, claim or key is left");

    // Nothing was made, so the address is not "already invited": the invitation goes again, and
    // its e-mailed link works.
    allow_writes(&db, "action_codes").await;
    let invited = invite(&mut owner, "caixa@padaria.test", "operator").await;
    assert_eq!(invited.status, StatusCode::CREATED, "{}", invited.text);
    let code = invitation_code(&app, "caixa@padaria.test").await;
    let mut caixa = sign_up(&app, "caixa@padaria.test", "Caixa").await;
    let accepted = accept(&mut caixa, &code).await;
    assert_eq!(accepted.status, StatusCode::OK, "{}", accepted.text);
    assert_eq!(accepted.json["role"], "operator");
    let invitations = app
        .mail
        .messages_to("caixa@padaria.test")
        .into_iter()
        .filter(|mail| mail.link("/painel/convite").is_some())
        .count();
    assert_eq!(invitations, 1, "the failed invitation sent nothing");
    db.close().await;
    app.stop().await;
}

#[tokio::test]
async fn an_address_is_invited_once_per_team_and_never_the_owners_own() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    assert_eq!(
        invite(&mut owner, "caixa@padaria.test", "operator")
            .await
            .status,
        StatusCode::CREATED
    );

    let twice = invite(&mut owner, "CAIXA@padaria.test ", "manager").await;
    assert_eq!(twice.status, StatusCode::CONFLICT, "{}", twice.text);
    assert_eq!(twice.code(), "member-already-invited");
    assert_eq!(twice.field(), Some("email"));

    let myself = invite(&mut owner, "Dona@Padaria.test", "manager").await;
    assert_eq!(
        myself.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        myself.text
    );
    assert_eq!(myself.code(), "cannot-invite-self");

    // Another team may invite the same address.
    let mut other = sign_up(&app, "outra@loja.test", "Outra").await;
    assert_eq!(
        invite(&mut other, "caixa@padaria.test", "manager")
            .await
            .status,
        StatusCode::CREATED
    );

    let path = Person::in_account(&owner.account_id, "/members");
    for (body, field) in [
        (json!({"email": "x@padaria.test", "role": "owner"}), "role"),
        (json!({"email": "x@padaria.test", "role": "admin"}), "role"),
        (json!({"email": "x@padaria.test"}), "role"),
        (json!({"email": "não é e-mail", "role": "manager"}), "email"),
        (json!({"email": "", "role": "manager"}), "email"),
        (json!({"role": "manager"}), "email"),
        (json!({"email": 7, "role": "manager"}), "email"),
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
    }
    let listed = owner.get(&path).await;
    assert_eq!(listed.json["members"].as_array().map(Vec::len), Some(1));
    app.stop().await;
}

#[tokio::test]
async fn a_cancelled_invitation_kills_its_link_and_frees_the_address() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let invited = invite(&mut owner, "caixa@padaria.test", "operator").await;
    let invitation_id = invited.json["invitationId"]
        .as_str()
        .expect("id")
        .to_owned();
    let code = invitation_code(&app, "caixa@padaria.test").await;

    let path = Person::in_account(&owner.account_id, &format!("/members/{invitation_id}"));
    let cancelled = owner.delete(&path).await;
    assert_eq!(
        cancelled.status,
        StatusCode::NO_CONTENT,
        "{}",
        cancelled.text
    );
    assert_eq!(
        owner.delete(&path).await.status,
        StatusCode::NO_CONTENT,
        "removing twice changes nothing"
    );
    let members = Person::in_account(&owner.account_id, "/members");
    assert_eq!(owner.get(&members).await.json["members"], json!([]));

    let mut caixa = sign_up(&app, "caixa@padaria.test", "Caixa").await;
    let late = accept(&mut caixa, &code).await;
    assert_eq!(late.status, StatusCode::GONE, "{}", late.text);
    assert_eq!(late.code(), "expired-action-code");

    let again = invite(&mut owner, "caixa@padaria.test", "manager").await;
    assert_eq!(again.status, StatusCode::CREATED, "{}", again.text);

    for unknown in ["nao-existe", "0196a1b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b"] {
        let path = Person::in_account(&owner.account_id, &format!("/members/{unknown}"));
        let answer = owner.delete(&path).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{unknown}");
        assert_eq!(answer.code(), "not-found");
    }
    app.stop().await;
}

#[tokio::test]
async fn a_removed_member_loses_the_workspace_at_once() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let (mut caixa, invitation_id) =
        join(&app, &mut owner, "caixa@padaria.test", "Caixa", "operator").await;
    let qrcodes = Person::in_account(&owner.account_id, "/qrcodes");
    assert_eq!(caixa.get(&qrcodes).await.status, StatusCode::OK);

    let path = Person::in_account(&owner.account_id, &format!("/members/{invitation_id}"));
    assert_eq!(owner.delete(&path).await.status, StatusCode::NO_CONTENT);

    let refused = caixa.get(&qrcodes).await;
    assert_eq!(refused.status, StatusCode::NOT_FOUND, "{}", refused.text);
    assert_eq!(refused.code(), "not-found");
    let workspaces = caixa.get("/api/workspaces").await;
    assert_eq!(
        workspaces.json["workspaces"].as_array().map(Vec::len),
        Some(1)
    );

    // The address can be invited again, and accepting brings the person back.
    let again = rejoin(&app, &mut owner, &mut caixa, "manager").await;
    assert_ne!(again, invitation_id);
    assert_eq!(caixa.get(&qrcodes).await.status, StatusCode::OK);
    app.stop().await;
}

#[tokio::test]
async fn accepting_needs_a_live_code_and_not_ones_own_team() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    invite(&mut owner, "caixa@padaria.test", "operator").await;
    let code = invitation_code(&app, "caixa@padaria.test").await;

    let own = accept(&mut owner, &code).await;
    assert_eq!(own.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", own.text);
    assert_eq!(own.code(), "cannot-invite-self");

    for bad in ["", "nao-existe", "x".repeat(300).as_str()] {
        let answer = accept(&mut owner, bad).await;
        assert_eq!(answer.status, StatusCode::GONE, "{bad:?}");
        assert_eq!(answer.code(), "expired-action-code");
    }
    let missing = owner.post("/api/invitations/accept", &json!({})).await;
    assert_eq!(missing.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(missing.field(), Some("code"));

    // The code was not spent by the refusals: the invitee can still use it.
    let mut caixa = sign_up(&app, "caixa@padaria.test", "Caixa").await;
    assert_eq!(accept(&mut caixa, &code).await.status, StatusCode::OK);
    app.stop().await;
}

#[tokio::test]
async fn a_disabled_account_closes_its_workspace_to_its_team_until_enabled_again() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let (mut gerente, _) = join(
        &app,
        &mut owner,
        "gerente@padaria.test",
        "Gerente",
        "manager",
    )
    .await;
    let qrcodes = Person::in_account(&owner.account_id, "/qrcodes");
    assert_eq!(gerente.get(&qrcodes).await.status, StatusCode::OK);

    roles::account(&app.settings, AccountAction::Disable, "dona@padaria.test")
        .await
        .expect("disabled");
    // The command line does not wait for the read model; the gateway reads it.
    let refused = answers(&mut gerente, &qrcodes, StatusCode::FORBIDDEN).await;
    assert_eq!(refused.code(), "account-disabled", "{}", refused.text);
    let made = gerente.post(&qrcodes, &qrcode_body("Padaria")).await;
    assert_eq!(made.status, StatusCode::FORBIDDEN);
    assert_eq!(made.code(), "account-disabled");
    // The member's own account is not affected.
    let own = Person::in_account(&gerente.account_id, "/qrcodes");
    assert_eq!(gerente.get(&own).await.status, StatusCode::OK);

    roles::account(&app.settings, AccountAction::Enable, "dona@padaria.test")
        .await
        .expect("enabled");
    answers(&mut gerente, &qrcodes, StatusCode::OK).await;
    app.stop().await;
}

/// `GET path` as `person` until it answers `status` (for a few seconds at most).
async fn answers(person: &mut Person, path: &str, status: StatusCode) -> tests::browser::Answer {
    eventually(&format!("{path} to answer {status}"), async || {
        let answer = person.get(path).await;
        (answer.status == status).then_some(answer)
    })
    .await
}
