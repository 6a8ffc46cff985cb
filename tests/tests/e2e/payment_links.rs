//! Payment links (issue 10, item 5): `/api/accounts/{accountId}/payment-links` and the page
//! `/pagar?link=…`, which renders only links Balcão signed.

use reqwest::StatusCode;
use serde_json::{Value, json};
use tests::{TestApp, eventually, first_element_text};

use crate::workspace::support::{Person, register_key_as, sign_up, team};

fn link_body() -> Value {
    json!({
        "pixKey": "loja@padaria.test",
        "merchantName": "Padaria São João",
        "merchantCity": "Natal",
        "amount": "45,90",
        "description": "Bolo de aniversário"
    })
}

async fn create(person: &mut Person, body: &Value) -> Value {
    let path = Person::in_account(&person.account_id, "/payment-links");
    let made = person.post(&path, body).await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    made.json
}

/// The path and query of an absolute `/pagar` address.
fn local(url: &str) -> String {
    let at = url.find("/pagar?").expect("a /pagar address");
    url[at..].to_owned()
}

async fn page(app: &TestApp, path: &str) -> (StatusCode, String) {
    let response = app.get(path).await;
    let status = response.status();
    (status, response.text().await.expect("body"))
}

#[tokio::test]
async fn a_link_made_in_the_dashboard_renders_as_a_payer_page_and_is_listed() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let link = create(&mut owner, &link_body()).await;
    assert_eq!(link["status"], "active");
    assert_eq!(link["amountCentavos"], 4590);
    let url = link["url"].as_str().expect("a url");
    let (status, html) = page(&app, &local(url)).await;
    assert_eq!(status, StatusCode::OK, "{html}");
    assert_eq!(
        first_element_text(&html, "h1").as_deref(),
        Some("Pagar PADARIA SAO JOAO")
    );
    assert!(html.contains("R$ 45,90") && html.contains("Copiar código"));
    let payload = first_element_text(&html, "textarea").expect("the copy text");
    let parsed = domain::brcode::validate_strict(&payload).expect("a strictly valid BR Code");
    assert_eq!(
        parsed.code.merchant_name.as_deref(),
        Some("PADARIA SAO JOAO")
    );

    let listed = owner
        .get(&Person::in_account(&owner.account_id, "/payment-links"))
        .await;
    assert_eq!(listed.status, StatusCode::OK);
    assert_eq!(listed.json["paymentLinks"][0]["id"], link["id"]);

    // A link asks for an amount, and a Pix rule broken names its field.
    let mut no_amount = link_body();
    no_amount["amount"] = json!("");
    let path = Person::in_account(&owner.account_id, "/payment-links");
    let refused = owner.post(&path, &no_amount).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(refused.json["error"]["field"], "amount");
    let mut bad_key = link_body();
    bad_key["pixKey"] = json!("123");
    let refused = owner.post(&path, &bad_key).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(refused.json["error"]["field"], "pixKey");
    app.stop().await;
}

#[tokio::test]
async fn a_tampered_or_hand_made_link_is_a_400_page_in_portuguese() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let link = create(&mut owner, &link_body()).await;
    let good = local(link["url"].as_str().expect("a url"));
    let token = good
        .strip_prefix("/pagar?link=")
        .expect("?link=")
        .to_owned();
    let (id, signature) = token.split_once('.').expect("ID.SIGNATURE");
    let other_signature = if let Some(rest) = signature.strip_prefix('A') {
        format!("B{rest}")
    } else {
        format!("A{}", &signature[1..])
    };
    let other_id = "0190f1a2-0000-7000-8000-00000000000a";
    for path in [
        format!("/pagar?link={id}.{other_signature}"),
        format!("/pagar?link={other_id}.{signature}"),
        format!("/pagar?link={}.{signature}", id.to_uppercase()),
        format!("/pagar?link={id}"),
        "/pagar".to_owned(),
        "/pagar?chave=minha@chave.com&valor=10".to_owned(),
    ] {
        let (status, html) = page(&app, &path).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path}");
        assert!(
            html.contains("Link de pagamento inválido"),
            "{path}: {html}"
        );
        assert!(
            !html.contains("loja@padaria.test"),
            "nothing of the link shows"
        );
    }
    app.stop().await;
}

#[tokio::test]
async fn a_revoked_link_and_an_expired_one_say_so_with_410() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let link = create(&mut owner, &link_body()).await;
    let id = link["id"].as_str().expect("an id");
    let revoke = Person::in_account(&owner.account_id, &format!("/payment-links/{id}/revoke"));
    let revoked = owner.post(&revoke, &json!({})).await;
    assert_eq!(revoked.status, StatusCode::OK, "{}", revoked.text);
    assert_eq!(revoked.json["status"], "revoked");
    let (status, html) = page(&app, &local(link["url"].as_str().expect("url"))).await;
    assert_eq!(status, StatusCode::GONE);
    assert!(
        html.contains("Este link de pagamento foi cancelado"),
        "{html}"
    );
    let again = owner.post(&revoke, &json!({})).await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert_eq!(again.json["error"]["code"], "payment-link-already-revoked");

    // An expiry in the past is refused when made; one that passed later is a 410: the gateway's
    // clock is moved past it (`gateway::clock`), as the calendar would.
    let mut past = link_body();
    past["expiresOn"] = json!("2020-01-01");
    let path = Person::in_account(&owner.account_id, "/payment-links");
    let refused = owner.post(&path, &past).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(refused.json["error"]["field"], "expiresAt");

    let mut soon = link_body();
    soon["expiresOn"] = json!(days_to_date(today_in_days() + 1));
    let expiring = create(&mut owner, &soon).await;
    assert_eq!(expiring["status"], "active");
    let url = local(expiring["url"].as_str().expect("url"));
    let (status, html) = page(&app, &url).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("Válido até"), "{html}");
    app.settings.clock.advance(chrono::Duration::days(3));
    let (status, html) = page(&app, &url).await;
    assert_eq!(status, StatusCode::GONE);
    assert!(html.contains("Este link de pagamento expirou"), "{html}");
    let listed = owner.get(&path).await;
    let shown = listed.json["paymentLinks"]
        .as_array()
        .expect("links")
        .iter()
        .find(|l| l["id"] == expiring["id"])
        .expect("listed");
    assert_eq!(
        shown["status"], "expired",
        "the dashboard reads the same clock"
    );
    app.stop().await;
}

/// Days since 1970-01-01, today (UTC).
fn today_in_days() -> i64 {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after 1970")
        .as_secs();
    i64::try_from(secs / 86_400).expect("small")
}

/// `AAAA-MM-DD` of a day counted from 1970-01-01 (the civil-from-days algorithm).
fn days_to_date(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[tokio::test]
async fn owner_and_manager_manage_links_an_operator_is_refused_and_outsiders_see_nothing() {
    let app = TestApp::spawn().await;
    let mut team = team(&app).await;
    let account = team.owner.account_id.clone();
    let list = Person::in_account(&account, "/payment-links");
    let link = create(&mut team.owner, &link_body()).await;
    let id = link["id"].as_str().expect("id").to_owned();
    let revoke = Person::in_account(&account, &format!("/payment-links/{id}/revoke"));

    // The manager lists, makes and revokes.
    assert_eq!(team.manager.get(&list).await.status, StatusCode::OK);
    let path = list.clone();
    let by_manager = team.manager.post(&path, &link_body()).await;
    assert_eq!(
        by_manager.status,
        StatusCode::CREATED,
        "{}",
        by_manager.text
    );

    // The operator: 403 on every link route.
    for answer in [
        team.operator.get(&list).await,
        team.operator.post(&list, &link_body()).await,
        team.operator.post(&revoke, &json!({})).await,
    ] {
        assert_eq!(answer.status, StatusCode::FORBIDDEN, "{}", answer.text);
        assert_eq!(answer.json["error"]["code"], "forbidden");
    }
    // A stranger and a removed member: 404, as for an account that does not exist.
    for person in [&mut team.stranger, &mut team.removed] {
        for answer in [
            person.get(&list).await,
            person.post(&list, &link_body()).await,
            person.post(&revoke, &json!({})).await,
        ] {
            assert_eq!(answer.status, StatusCode::NOT_FOUND, "{}", answer.text);
        }
    }
    // Another account's link, through one's own account: 404.
    let theirs = Person::in_account(
        &team.stranger.account_id,
        &format!("/payment-links/{id}/revoke"),
    );
    assert_eq!(
        team.stranger.post(&theirs, &json!({})).await.status,
        StatusCode::NOT_FOUND
    );
    // Without a token: 401.
    let anonymous = app
        .client()
        .get(app.url(&list))
        .send()
        .await
        .expect("answered");
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);

    // The owner revokes; the link is still theirs.
    assert_eq!(
        team.owner.post(&revoke, &json!({})).await.status,
        StatusCode::OK
    );
    app.stop().await;
}

#[tokio::test]
async fn replaying_payment_links_gives_the_live_rows() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let first = create(&mut owner, &link_body()).await;
    let mut later = link_body();
    later["expiresOn"] = json!("2099-12-31");
    create(&mut owner, &later).await;
    let id = first["id"].as_str().expect("id");
    let revoke = Person::in_account(&owner.account_id, &format!("/payment-links/{id}/revoke"));
    assert_eq!(owner.post(&revoke, &json!({})).await.status, StatusCode::OK);

    let db = app.db().await;
    let rows = || async {
        sqlx::query_scalar::<_, String>("select (p.*)::text from payment_links p order by link_id")
            .fetch_all(&db)
            .await
            .expect("payment_links")
    };
    let live = eventually("the revocation is projected", async || {
        let rows = rows().await;
        let revoked: i64 =
            sqlx::query_scalar("select count(*) from payment_links where revoked_at is not null")
                .fetch_one(&db)
                .await
                .expect("count");
        (rows.len() == 2 && revoked == 1).then_some(rows)
    })
    .await;
    gateway::roles::replay(&app.settings, &["payment_links".to_owned()], false)
        .await
        .expect("replay");
    assert_eq!(rows().await, live, "replay equals live");
    app.stop().await;
}

/// The dashboard sends exactly this: the chosen key's id, `pixKey: null` and the holder's name.
#[tokio::test]
async fn a_link_is_made_from_a_registered_key_when_the_dashboard_sends_a_null_typed_key() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "bia@loja.test", "Bia").await;
    let key = register_key_as(&mut owner, "bia@loja.test", "Beatriz Lima").await;
    let made = create(
        &mut owner,
        &json!({"keyId": key, "pixKey": null, "merchantName": "Beatriz Lima",
                "merchantCity": "Natal", "amount": "45,90", "description": null,
                "expiresOn": null}),
    )
    .await;
    assert_eq!(made["pixKey"], "bia@loja.test", "the registered key");
    assert_eq!(made["amountCentavos"], 4590);
    app.stop().await;
}

#[tokio::test]
async fn a_link_is_made_from_a_registered_key_with_its_holder_name_and_no_other_accounts_key_is_taken()
 {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let mut other = sign_up(&app, "vizinho@outra.test", "Vizinho").await;
    let mine = register_key_as(&mut owner, "caixa@padaria.test", "Maria da Padaria").await;
    let spare = register_key_as(&mut owner, "52998224725", "Maria da Padaria").await;
    let theirs = register_key_as(&mut other, "vizinho@outra.test", "Vizinho").await;

    let body = |key: &str| {
        json!({"keyId": key, "merchantName": "", "merchantCity": "Natal", "amount": "45,90",
               "description": "Bolo"})
    };
    let made = create(&mut owner, &body(&mine)).await;
    assert_eq!(made["pixKey"], "caixa@padaria.test", "the registered key");
    assert_eq!(
        made["merchantName"], "MARIA DA PADARIA",
        "its holder's name"
    );
    let (status, html) = page(&app, &local(made["url"].as_str().expect("url"))).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("caixa@padaria.test"), "{html}");

    // Another account's key, a removed key, an id that is no key: 422 under `keyId`, nothing made.
    let removed = owner
        .delete(&Person::in_account(
            &owner.account_id,
            &format!("/keys/{spare}"),
        ))
        .await;
    assert_eq!(removed.status, StatusCode::NO_CONTENT, "{}", removed.text);
    let links = Person::in_account(&owner.account_id, "/payment-links");
    for key in [theirs.as_str(), spare.as_str(), "nao-e-chave"] {
        let refused = owner.post(&links, &body(key)).await;
        assert_eq!(
            refused.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{key}: {}",
            refused.text
        );
        assert_eq!(refused.field(), Some("keyId"));
        assert!(
            refused.json["error"]["message"]
                .as_str()
                .is_some_and(|m| m.contains("não está cadastrada nesta conta")),
            "{}",
            refused.text
        );
    }
    let listed = owner.get(&links).await;
    assert_eq!(
        listed.json["paymentLinks"].as_array().map(Vec::len),
        Some(1)
    );
    app.stop().await;
}

/// A link is sold once (issue 32, item 1): the bank's report of a payment with the link's txid is
/// matched to the link from its txid claim, and from then on the link's page says "já foi pago"
/// to every payer, without the code, and the dashboard lists it as paid; a replay keeps it.
#[tokio::test]
async fn a_paid_link_says_so_to_every_payer_without_the_code_and_is_listed_as_paid() {
    use crate::payments::support::{delivery, post_delivery, register_key, turn_on};

    let app = TestApp::spawn().await;
    let db = app.db().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let key_id = register_key(&mut owner).await;
    let receiver = turn_on(&mut owner, key_id).await;
    let link = create(&mut owner, &link_body()).await;
    let path = local(link["url"].as_str().expect("a url"));
    let (status, html) = page(&app, &path).await;
    assert_eq!(status, StatusCode::OK, "{html}");
    assert!(html.contains("data-live=\"/pagar/eventos?link="), "{html}");
    let payload = first_element_text(&html, "textarea").expect("the copy text");
    let code = domain::brcode::validate_strict(&payload).expect("a BR Code");
    let txid = code
        .code
        .txid()
        .expect("a link's code has its txid")
        .to_owned();

    let (status, answer) = post_delivery(
        &app,
        &receiver,
        delivery(vec![json!({
            "endToEndId": "E87654321202611271221000000000L1",
            "txid": txid,
            "valor": "45.90",
            "horario": "2026-11-27T12:21:00Z",
        })]),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let named: Option<String> = sqlx::query_scalar(
        "select payload->>'payment_link_id' from events where event_type = 'PaymentRecorded'",
    )
    .fetch_one(&db)
    .await
    .expect("the payment is in the log");
    assert_eq!(
        named.as_deref(),
        link["id"].as_str(),
        "matched from the claim"
    );

    let html = eventually("the link's page says it was paid", async || {
        let (status, html) = page(&app, &path).await;
        (status == StatusCode::OK && html.contains("Este link já foi pago")).then_some(html)
    })
    .await;
    assert!(!html.contains("<textarea"), "no code to pay again: {html}");
    assert!(
        html.contains("R$ 45,90") && html.contains("27/11/2026 às 09:21"),
        "{html}"
    );
    assert!(!html.contains("data-live"), "{html}");

    let listed = owner
        .get(&Person::in_account(&owner.account_id, "/payment-links"))
        .await;
    assert_eq!(listed.json["paymentLinks"][0]["status"], "paid");
    assert_eq!(
        listed.json["paymentLinks"][0]["paidAt"],
        "2026-11-27T12:21:00.000Z"
    );

    // Revoked afterwards, it still says paid: that is what a payer holding it must know.
    let id = link["id"].as_str().expect("id");
    let revoke = Person::in_account(&owner.account_id, &format!("/payment-links/{id}/revoke"));
    assert_eq!(owner.post(&revoke, &json!({})).await.status, StatusCode::OK);
    let (status, html) = page(&app, &path).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("Este link já foi pago"), "{html}");

    let rows = || async {
        sqlx::query_scalar::<_, String>(
            "select (reference, payment_link_id)::text from payments order by reference",
        )
        .fetch_all(&db)
        .await
        .expect("payments")
    };
    let live = rows().await;
    assert!(live[0].contains(id), "{live:?}");
    gateway::roles::replay(&app.settings, &["payments".to_owned()], false)
        .await
        .expect("replay");
    assert_eq!(rows().await, live, "replay keeps the link");
    app.stop().await;
}

/// The sandbox's "Simular pagamento" on a link's page pays the link as a bank would, and the
/// payer comes back to the page, paid.
#[tokio::test]
async fn the_sandbox_pays_a_link_and_its_page_comes_back_paid() {
    use crate::payments::support::register_key;

    let app = TestApp::spawn_with(|settings| settings.payments.sandbox_payments = true).await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    register_key(&mut owner).await;
    let link = create(&mut owner, &link_body()).await;
    let path = local(link["url"].as_str().expect("a url"));
    let (_, html) = page(&app, &path).await;
    assert!(html.contains("Simular pagamento"), "{html}");
    let token = path.trim_start_matches("/pagar?link=");
    let response = app
        .client()
        .post(app.url(&format!("/pagar/simular-pagamento?link={token}")))
        .send()
        .await
        .expect("the gateway answers");
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert_eq!(
        response.headers()["location"].to_str().expect("text"),
        path.as_str()
    );
    let (status, html) = page(&app, &path).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("Este link já foi pago"), "{html}");
    app.stop().await;
}

/// A link's payment is not "sem QR code": the transactions screen, its filter and its CSV name
/// the link it paid.
#[tokio::test]
async fn a_links_payment_is_named_by_its_link_in_the_transactions_list_filter_and_csv() {
    use crate::payments::support::register_key;

    let app = TestApp::spawn_with(|settings| settings.payments.sandbox_payments = true).await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    register_key(&mut owner).await;
    let link = create(&mut owner, &link_body()).await;
    let token = local(link["url"].as_str().expect("a url")).replace("/pagar?link=", "");
    let paid = app
        .client()
        .post(app.url(&format!("/pagar/simular-pagamento?link={token}")))
        .send()
        .await
        .expect("the gateway answers");
    assert_eq!(paid.status(), StatusCode::SEE_OTHER);
    let payments = Person::in_account(&owner.account_id, "/payments");
    let by_hand = owner.post(&payments, &json!({"amount": "7,00"})).await;
    assert_eq!(by_hand.status, StatusCode::CREATED, "{}", by_hand.text);

    let links = eventually("the link's payment is listed", async || {
        let listed = owner.get(&format!("{payments}?qrcode=links")).await;
        (listed.json["payments"].as_array().map(Vec::len) == Some(1)).then_some(listed)
    })
    .await;
    let row = &links.json["payments"][0];
    assert_eq!(row["amountCentavos"], 4_590);
    assert_eq!(row["paymentLinkId"], link["id"]);
    // As the link keeps it: in the characters a BR Code may carry.
    assert_eq!(row["linkDescription"], "Bolo de aniversario");
    assert_eq!(row["code"], "link de pagamento");

    let without = owner.get(&format!("{payments}?qrcode=sem")).await;
    let amounts: Vec<&Value> = without.json["payments"]
        .as_array()
        .expect("payments")
        .iter()
        .map(|p| &p["amountCentavos"])
        .collect();
    assert_eq!(
        amounts,
        [&json!(700)],
        "only the payment typed by hand has no code nor link"
    );
    let found = owner.get(&format!("{payments}?busca=anivers")).await;
    assert_eq!(
        found.json["payments"][0]["amountCentavos"], 4_590,
        "{}",
        found.text
    );

    let csv = owner.get(&format!("{payments}/csv")).await;
    assert_eq!(csv.status, StatusCode::OK);
    assert!(
        csv.text.contains("Link de pagamento: Bolo de aniversario"),
        "{}",
        csv.text
    );
    app.stop().await;
}
