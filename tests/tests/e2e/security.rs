//! The security review's findings (issue 14, item 7), each proven through HTTP: the client
//! address behind proxies, rate limits on everything that sends e-mail, invitations bound to the
//! invited address, typed names in e-mails, idempotency keys reused with other values, cross-site
//! requests to the cookie calls, and refreshes racing with one cookie.

use crate::auth::rate_limits::assert_limited;
use crate::workspace::support::{
    MAIL_WAIT, Person, accept, invitation_code, invite, mail_with_link, qrcode_body, sign_up,
};
use reqwest::{Method, StatusCode};
use serde_json::json;
use tests::TestApp;
use tests::browser::{Answer, Browser};

#[tokio::test]
async fn forged_x_forwarded_for_entries_left_of_our_proxy_do_not_reset_the_sign_in_limit() {
    let app = TestApp::spawn_with(|settings| {
        settings.trusted_proxies = 1;
        settings.auth.auth_per_minute_per_address = 3;
        settings.auth.auth_per_minute_per_email = 1_000;
    })
    .await;
    let mut attacker = Browser::new(&app);
    // Our proxy appends the address it saw (198.51.100.7); the attacker writes whatever it likes
    // before it, a new value on every attempt.
    for n in 0..3 {
        attacker.set_header("x-forwarded-for", &format!("10.9.8.{n}, 198.51.100.7"));
        let answer = attacker
            .log_in(&format!("alvo{n}@exemplo.com"), "chute123")
            .await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{}", answer.text);
    }
    attacker.set_header("x-forwarded-for", "10.9.8.200, 198.51.100.7");
    assert_limited(&attacker.log_in("alvo9@exemplo.com", "chute123").await);

    // Someone else behind the same proxy is another address.
    let mut neighbour = Browser::new(&app);
    neighbour.set_header("x-forwarded-for", "198.51.100.8");
    let answer = neighbour.log_in("alvo9@exemplo.com", "chute123").await;
    assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{}", answer.text);
    app.stop().await;
}

#[tokio::test]
async fn with_two_trusted_proxies_the_client_is_the_second_entry_from_the_right() {
    let app = TestApp::spawn_with(|settings| {
        settings.trusted_proxies = 2;
        settings.auth.auth_per_minute_per_address = 2;
        settings.auth.auth_per_minute_per_email = 1_000;
    })
    .await;
    let mut attacker = Browser::new(&app);
    for n in 0..2 {
        // The inner proxy's own address (10.0.0.n) changes with the load balancer's choice.
        attacker.set_header(
            "x-forwarded-for",
            &format!("6.6.6.{n}, 198.51.100.7, 10.0.0.{n}"),
        );
        let answer = attacker.log_in("alvo@exemplo.com", "chute123").await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{}", answer.text);
    }
    attacker.set_header("x-forwarded-for", "6.6.6.9, 198.51.100.7, 10.0.0.9");
    assert_limited(&attacker.log_in("alvo@exemplo.com", "chute123").await);
    app.stop().await;
}

#[tokio::test]
async fn one_address_gets_a_few_sign_ups_a_minute() {
    let app = TestApp::spawn_with(|settings| {
        settings.auth.sign_up_per_minute_per_address = 3;
    })
    .await;
    let mut browser = Browser::new(&app);
    for n in 0..3 {
        let answer = browser
            .sign_up(&format!("pessoa{n}@exemplo.com"), "segredo1", "Pessoa")
            .await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    }
    assert_limited(
        &browser
            .sign_up("pessoa9@exemplo.com", "segredo1", "Pessoa")
            .await,
    );
    // Nothing was made for the refused one: no account, no e-mail.
    let db = app.db().await;
    let accounts: i64 =
        sqlx::query_scalar("select count(*) from events where event_type = 'AccountOpened'")
            .fetch_one(&db)
            .await
            .expect("count");
    assert_eq!(accounts, 3);
    db.close().await;
    assert!(
        app.mail
            .wait_for("pessoa9@exemplo.com", std::time::Duration::from_millis(500))
            .await
            .is_none()
    );
    app.stop().await;
}

#[tokio::test]
async fn verification_emails_are_limited_per_client_address_as_well_as_per_account() {
    let app = TestApp::spawn_with(|settings| {
        settings.auth.auth_per_minute_per_address = 3;
        settings.auth.auth_per_minute_per_email = 1_000;
    })
    .await;
    let mut first = sign_up(&app, "primeira@exemplo.com", "Primeira").await;
    let mut second = sign_up(&app, "segunda@exemplo.com", "Segunda").await;
    for _ in 0..3 {
        let sent = first
            .browser
            .request(Method::POST, "/api/auth/send-verification", None, None)
            .await;
        assert_eq!(sent.status, StatusCode::NO_CONTENT, "{}", sent.text);
    }
    // Another account from the same address: the address's budget is spent.
    assert_limited(
        &second
            .browser
            .request(Method::POST, "/api/auth/send-verification", None, None)
            .await,
    );
    app.stop().await;
}

#[tokio::test]
async fn invitations_are_limited_per_account_and_per_client_address() {
    let app = TestApp::spawn_with(|settings| {
        settings.auth.invitations_per_minute_per_account = 2;
        settings.auth.auth_per_minute_per_address = 4;
    })
    .await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    for n in 0..2 {
        let invited = invite(&mut owner, &format!("p{n}@alvo.test"), "operator").await;
        assert_eq!(invited.status, StatusCode::CREATED, "{}", invited.text);
    }
    assert_limited(&invite(&mut owner, "p9@alvo.test", "operator").await);

    // A second account from the same address has its own account budget, but the address has
    // one attempt left (two invitations and one refusal were taken from its four).
    let mut other = sign_up(&app, "outra@loja.test", "Outra").await;
    let invited = invite(&mut other, "q0@alvo.test", "operator").await;
    assert_eq!(invited.status, StatusCode::CREATED, "{}", invited.text);
    assert_limited(&invite(&mut other, "q1@alvo.test", "operator").await);

    let members = owner
        .get(&Person::in_account(&owner.account_id, "/members"))
        .await;
    assert_eq!(members.json["members"].as_array().map(Vec::len), Some(2));
    app.stop().await;
}

#[tokio::test]
async fn an_invitation_is_accepted_only_by_the_account_of_the_invited_address() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let invited = invite(&mut owner, "Caixa@Padaria.test", "manager").await;
    assert_eq!(invited.status, StatusCode::CREATED, "{}", invited.text);
    let code = invitation_code(&app, "caixa@padaria.test").await;

    // Someone else who got hold of the link, signed in to their own account.
    let mut holder = sign_up(&app, "curioso@outra.test", "Curioso").await;
    let refused = accept(&mut holder, &code).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.text);
    assert_eq!(refused.code(), "invitation-for-another-email");
    assert_eq!(
        refused.message(),
        "Este convite foi enviado para outro e-mail. Saia desta conta e abra o link de novo para entrar, ou criar uma conta, com o e-mail que recebeu o convite."
    );
    let workspaces = holder.get("/api/workspaces").await;
    assert_eq!(
        workspaces.json["workspaces"].as_array().map(Vec::len),
        Some(1),
        "the holder joined nothing"
    );

    // The refusal did not spend the code: the invitee signs up from the link and accepts. The
    // code went only to that address, so accepting also verifies it.
    let mut invitee = sign_up(&app, "caixa@padaria.test", "Caixa").await;
    let before = invitee.browser.me().await;
    assert_eq!(before.json["emailVerified"], false, "{}", before.text);
    let accepted = accept(&mut invitee, &code).await;
    assert_eq!(accepted.status, StatusCode::OK, "{}", accepted.text);
    assert_eq!(
        accepted.json,
        json!({"accountId": owner.account_id, "role": "manager"})
    );
    let after = invitee.browser.me().await;
    assert_eq!(after.json["emailVerified"], true, "{}", after.text);
    app.stop().await;
}

#[tokio::test]
async fn an_inviters_typed_name_never_reaches_the_subject_and_is_quoted_data_in_the_body() {
    let app = TestApp::spawn().await;
    let phishing = "Banco Central: sua conta será bloqueada, acesse golpe.example";
    let mut owner = sign_up(&app, "dona@padaria.test", phishing).await;
    let invited = invite(&mut owner, "alvo@vitima.test", "operator").await;
    assert_eq!(invited.status, StatusCode::CREATED, "{}", invited.text);

    let (mail, _) = mail_with_link(&app, "alvo@vitima.test", "/painel/convite").await;
    assert_eq!(mail.subject, "Você recebeu um convite para o Balcão");
    assert!(
        mail.text
            .contains("(informado por ela): “Banco Central: sua conta será bloqueada,…”"),
        "{}",
        mail.text
    );
    assert!(!mail.text.contains("golpe.example"), "{}", mail.text);

    // The verification e-mail of a sign-up (address and name typed by whoever signed up) too.
    let verify = app
        .mail
        .wait_for("dona@padaria.test", MAIL_WAIT)
        .await
        .expect("the verification e-mail");
    assert_eq!(verify.subject, "Confirme seu e-mail no Balcão");
    assert!(!verify.text.contains("golpe.example"), "{}", verify.text);
    assert!(
        verify.text.contains("com o nome “Banco Central"),
        "{}",
        verify.text
    );
    app.stop().await;
}

/// `POST path` with `body` as `person`, under `Idempotency-Key: key`.
async fn create_keyed(
    person: &mut Person,
    path: &str,
    key: &str,
    body: serde_json::Value,
) -> Answer {
    person.browser.set_header("idempotency-key", key);
    person.post(path, &body).await
}

#[tokio::test]
async fn an_idempotency_key_sent_again_with_other_values_answers_409_and_makes_nothing() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let path = Person::in_account(&owner.account_id, "/qrcodes");
    let first = create_keyed(&mut owner, &path, "pedido-1", qrcode_body("Padaria")).await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text);
    // The same request again (the amount spelt differently is the same request).
    let mut same = qrcode_body("Padaria");
    same["amount"] = json!("12,5");
    let again = create_keyed(&mut owner, &path, "pedido-1", same).await;
    assert_eq!(again.status, StatusCode::CREATED, "{}", again.text);
    assert_eq!(again.header("idempotent-replayed"), Some("true"));
    assert_eq!(again.json["id"], first.json["id"]);

    let mut other = qrcode_body("Padaria");
    other["amount"] = json!("99,90");
    let reused = create_keyed(&mut owner, &path, "pedido-1", other).await;
    assert_eq!(reused.status, StatusCode::CONFLICT, "{}", reused.text);
    assert_eq!(reused.code(), "idempotency-key-reused");
    assert_eq!(
        reused.message(),
        "Este Idempotency-Key já foi usado com outros dados. Use uma chave nova para um QR code diferente."
    );

    let listed = owner.get(&path).await;
    assert_eq!(listed.json["qrcodes"].as_array().map(Vec::len), Some(1));
    app.stop().await;
}

/// What names the thing an answer made: its `id`, or a payment's `reference`.
fn made_id(answer: &Answer) -> serde_json::Value {
    let id = &answer.json["id"];
    if id.is_null() {
        answer.json["reference"].clone()
    } else {
        id.clone()
    }
}

#[tokio::test]
async fn every_call_that_creates_answers_a_repeated_key_with_the_first_answer_and_refuses_other_values()
 {
    let app = TestApp::spawn().await;
    let db = app.db().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let account = owner.account_id.clone();
    let at = |rest: &str| Person::in_account(&account, rest);
    // Two codes and two signs to copy, made without a key.
    let mut made = Vec::new();
    for (path, body) in [
        (at("/qrcodes"), qrcode_body("Padaria")),
        (at("/qrcodes"), qrcode_body("Confeitaria")),
    ] {
        let answer = owner.post(&path, &body).await;
        assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
        made.push(answer.json["id"].as_str().expect("id").to_owned());
    }
    let sign_body = |code: &str| {
        json!({"qrcodeId": code, "name": "Balcão", "template": "faixa", "size": "a5",
               "theme": "azul", "headline": "Pague aqui com Pix", "footer": "Aberto", "withLogo": false})
    };
    for code in made.clone() {
        let answer = owner.post(&at("/placas"), &sign_body(&code)).await;
        assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
        made.push(answer.json["id"].as_str().expect("id").to_owned());
    }
    let [code_a, code_b, sign_a, sign_b] = made.as_slice() else {
        panic!("two codes and two signs");
    };
    let link = |amount: &str| {
        json!({"pixKey": "loja@padaria.test", "merchantName": "Padaria", "merchantCity": "Natal",
               "amount": amount, "description": "Bolo"})
    };
    let mut other_code = qrcode_body("Padaria");
    other_code["amount"] = json!("99,90");
    // What is made, the call and its body, and the same key with other values.
    let calls = [
        (
            "um QR code",
            at("/qrcodes"),
            qrcode_body("Padaria"),
            at("/qrcodes"),
            other_code,
        ),
        (
            "a cópia de um QR code",
            at(&format!("/qrcodes/{code_a}/duplicar")),
            json!({}),
            at(&format!("/qrcodes/{code_b}/duplicar")),
            json!({}),
        ),
        (
            "uma chave Pix",
            at("/keys"),
            json!({"pixKey": "loja@padaria.test", "holderName": "Padaria"}),
            at("/keys"),
            json!({"pixKey": "caixa@padaria.test", "holderName": "Padaria"}),
        ),
        (
            "um pagamento à mão",
            at("/payments"),
            json!({"amount": "5,00"}),
            at("/payments"),
            json!({"amount": "6,00"}),
        ),
        (
            "um link de pagamento",
            at("/payment-links"),
            link("45,90"),
            at("/payment-links"),
            link("46,00"),
        ),
        (
            "uma placa",
            at("/placas"),
            sign_body(code_a),
            at("/placas"),
            sign_body(code_b),
        ),
        (
            "a cópia de uma placa",
            at(&format!("/placas/{sign_a}/duplicar")),
            json!({}),
            at(&format!("/placas/{sign_b}/duplicar")),
            json!({}),
        ),
    ];
    let events = async || -> i64 {
        sqlx::query_scalar("select count(*) from events")
            .fetch_one(&db)
            .await
            .expect("count")
    };
    for (n, (what, path, body, other_path, other_body)) in calls.into_iter().enumerate() {
        owner
            .browser
            .set_header("idempotency-key", &format!("pedido-{n}"));
        let first = owner.post(&path, &body).await;
        assert_eq!(first.status, StatusCode::CREATED, "{what}: {}", first.text);
        let written = events().await;
        let again = owner.post(&path, &body).await;
        assert_eq!(again.status, StatusCode::CREATED, "{what}: {}", again.text);
        assert_eq!(again.header("idempotent-replayed"), Some("true"), "{what}");
        assert_eq!(made_id(&again), made_id(&first), "{what}");
        let reused = owner.post(&other_path, &other_body).await;
        assert_eq!(
            reused.status,
            StatusCode::CONFLICT,
            "{what}: {}",
            reused.text
        );
        assert_eq!(reused.code(), "idempotency-key-reused", "{what}");
        assert_eq!(events().await, written, "{what}: nothing more was written");
    }
    app.stop().await;
}

/// The ids of a batch's answer, in line order.
fn batch_ids(answer: &Answer) -> Vec<String> {
    answer.json["qrcodes"]
        .as_array()
        .map(|codes| {
            codes
                .iter()
                .filter_map(|c| c["id"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test]
async fn a_batch_sent_again_with_its_key_is_made_once_and_the_key_with_other_lines_is_refused() {
    let app = TestApp::spawn().await;
    let db = app.db().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let path = Person::in_account(&owner.account_id, "/qrcodes/lote");
    let body = json!({"pixKey": "loja@padaria.test", "merchantName": "Padaria",
                      "merchantCity": "Recife", "lines": "Coxinha;6,50\nPastel;8,00\nSuco;5,00"});
    let first = create_keyed(&mut owner, &path, "lote-1", body.clone()).await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text);
    assert_eq!(first.header("idempotent-replayed"), None);
    let made = batch_ids(&first);
    assert_eq!(made.len(), 3, "{}", first.text);
    let events = async || -> i64 {
        sqlx::query_scalar("select count(*) from events")
            .fetch_one(&db)
            .await
            .expect("count")
    };
    let written = events().await;

    // The same lines again under the same key (a retry after a lost answer): the first batch.
    let again = create_keyed(&mut owner, &path, "lote-1", body.clone()).await;
    assert_eq!(again.status, StatusCode::CREATED, "{}", again.text);
    assert_eq!(again.header("idempotent-replayed"), Some("true"));
    assert_eq!(again.json["batchId"], first.json["batchId"]);
    assert_eq!(batch_ids(&again), made, "the same codes, in line order");
    let txids = |answer: &Answer| -> Vec<serde_json::Value> {
        answer.json["qrcodes"]
            .as_array()
            .map(|codes| codes.iter().map(|c| c["txid"].clone()).collect())
            .unwrap_or_default()
    };
    assert_eq!(txids(&again), txids(&first), "the first batch's txids");

    // Other lines under the same key: refused as every creating call refuses it, nothing made.
    let mut other = body.clone();
    other["lines"] = json!("Coxinha;6,50\nPastel;9,00");
    let reused = create_keyed(&mut owner, &path, "lote-1", other).await;
    assert_eq!(reused.status, StatusCode::CONFLICT, "{}", reused.text);
    assert_eq!(reused.code(), "idempotency-key-reused");
    assert_eq!(
        reused.message(),
        "Este Idempotency-Key já foi usado com outros dados. Use uma chave nova para um QR code diferente."
    );
    assert_eq!(events().await, written, "nothing more was written");

    // The list shows one batch of three codes.
    let codes = Person::in_account(&owner.account_id, "/qrcodes");
    let listed = owner.get(&codes).await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.text);
    assert_eq!(
        listed.json["qrcodes"].as_array().map(Vec::len),
        Some(3),
        "{}",
        listed.text
    );
    let batch_id = first.json["batchId"].as_str().expect("batchId");
    let in_batch = owner.get(&format!("{codes}?lote={batch_id}")).await;
    assert_eq!(in_batch.json["qrcodes"].as_array().map(Vec::len), Some(3));

    // Another key is another batch.
    let second = create_keyed(&mut owner, &path, "lote-2", body).await;
    assert_eq!(second.status, StatusCode::CREATED, "{}", second.text);
    assert_ne!(second.json["batchId"], first.json["batchId"]);
    let listed = owner.get(&codes).await;
    assert_eq!(listed.json["qrcodes"].as_array().map(Vec::len), Some(6));
    app.stop().await;
}

#[tokio::test]
async fn cross_site_requests_to_the_cookie_calls_are_refused_and_sign_no_one_out() {
    let app = TestApp::spawn().await;
    let mut victim = Browser::new(&app);
    let signed = victim.sign_up("mel@exemplo.com", "segredo1", "Mel").await;
    assert_eq!(signed.status, StatusCode::OK, "{}", signed.text);
    let cookie = victim.refresh_cookie().expect("a cookie").to_owned();

    for (name, value) in [
        ("sec-fetch-site", "cross-site"),
        ("sec-fetch-site", "same-site"),
        ("origin", "https://golpe.example"),
        ("origin", "null"),
    ] {
        let mut forged = Browser::new(&app);
        forged.set_refresh_cookie(Some(cookie.clone()));
        forged.set_header(name, value);
        for answer in [forged.refresh().await, forged.revoke(true).await] {
            assert_eq!(answer.status, StatusCode::FORBIDDEN, "{name}: {value}");
            assert_eq!(answer.code(), "cross-site-request");
            assert_eq!(
                answer.message(),
                "Pedido recusado porque veio de outro site. Abra o Balcão diretamente e tente de novo."
            );
            assert!(answer.refresh_set_cookie().is_none(), "the cookie is kept");
        }
        let login = forged.log_in("mel@exemplo.com", "segredo1").await;
        assert_eq!(login.code(), "cross-site-request", "{name}: {value}");
    }
    // Nothing happened to the session: the cookie still refreshes, from the site itself.
    victim.set_header("sec-fetch-site", "same-origin");
    victim.set_header("origin", "http://balcao.test");
    let answer = victim.refresh().await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);

    // Without fetch metadata, an Origin naming the site or the host asked is the site.
    let mut same_host = Browser::new(&app);
    same_host.set_header("origin", &app.base_url);
    let answer = same_host.log_in("mel@exemplo.com", "segredo1").await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    // And a client that is no browser sends neither header.
    let mut script = Browser::new(&app);
    let answer = script.log_in("mel@exemplo.com", "segredo1").await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(script.refresh().await.status, StatusCode::OK);
    app.stop().await;
}

#[tokio::test]
async fn eight_simultaneous_refreshes_with_one_cookie_leave_the_session_alive() {
    let app = TestApp::spawn().await;
    let mut first = Browser::new(&app);
    let signed = first.sign_up("ana@exemplo.com", "segredo1", "Ana").await;
    assert_eq!(signed.status, StatusCode::OK, "{}", signed.text);
    let cookie = first.refresh_cookie().expect("a cookie").to_owned();

    let tabs = (0..8).map(|_| {
        let mut tab = Browser::new(&app);
        tab.set_refresh_cookie(Some(cookie.clone()));
        tokio::spawn(async move {
            let answer = tab.refresh().await;
            (answer, tab)
        })
    });
    let mut successors = Vec::new();
    let mut tabs_after = Vec::new();
    for joined in futures::future::join_all(tabs).await {
        let (answer, tab) = joined.expect("the task finishes");
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
        successors.push(tab.refresh_cookie().expect("a successor").to_owned());
        tabs_after.push(tab);
    }
    successors.dedup();
    assert_eq!(successors.len(), 1, "every tab got the same successor");
    assert_ne!(successors[0], cookie);

    for tab in &mut tabs_after {
        assert_eq!(tab.me().await.status, StatusCode::OK);
    }
    // The successor rotates as usual, and the session was never ended.
    assert_eq!(tabs_after[0].refresh().await.status, StatusCode::OK);
    let db = app.db().await;
    let ended: i64 =
        sqlx::query_scalar("select count(*) from auth_sessions where revoked_at is not null")
            .fetch_one(&db)
            .await
            .expect("count");
    assert_eq!(ended, 0);
    db.close().await;
    app.stop().await;
}

#[tokio::test]
async fn a_retry_within_the_reuse_interval_gets_the_same_successor_and_a_later_one_ends_the_session()
 {
    let app = TestApp::spawn().await;
    let mut browser = Browser::new(&app);
    let signed = browser.sign_up("bia@exemplo.com", "segredo1", "Bia").await;
    assert_eq!(signed.status, StatusCode::OK, "{}", signed.text);
    let old = browser.refresh_cookie().expect("a cookie").to_owned();

    assert_eq!(browser.refresh().await.status, StatusCode::OK);
    let successor = browser.refresh_cookie().expect("a successor").to_owned();
    // The answer was lost: the client retries with the old cookie.
    browser.set_refresh_cookie(Some(old.clone()));
    let retry = browser.refresh().await;
    assert_eq!(retry.status, StatusCode::OK, "{}", retry.text);
    assert_eq!(browser.refresh_cookie(), Some(successor.as_str()));

    // Past the interval, the old token is a stolen copy: the family ends.
    let db = app.db().await;
    sqlx::query(
        "update refresh_tokens set rotated_at = rotated_at - interval '1 minute'
         where rotated_at is not null",
    )
    .execute(&db)
    .await
    .expect("aged");
    let mut thief = Browser::new(&app);
    thief.set_refresh_cookie(Some(old));
    let reuse = thief.refresh().await;
    assert_eq!(reuse.status, StatusCode::UNAUTHORIZED, "{}", reuse.text);
    assert_eq!(browser.refresh().await.status, StatusCode::UNAUTHORIZED);
    let reason: String = sqlx::query_scalar("select revoked_reason from auth_sessions")
        .fetch_one(&db)
        .await
        .expect("one session");
    assert_eq!(reason, "token_reuse");
    db.close().await;
    app.stop().await;
}
