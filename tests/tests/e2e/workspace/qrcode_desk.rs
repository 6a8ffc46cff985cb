//! The dashboard's QR codes (issue 10): txids unique per account (a race included), batches all
//! or nothing, search and filters, archive and the payer page, duplicates, registered keys, and
//! who may do what on every new route.

use super::support::{Person, register_key_as, sign_up, team};
use reqwest::StatusCode;
use serde_json::{Value, json};
use tests::TestApp;

fn body(description: &str) -> Value {
    json!({
        "pixKey": "loja@padaria.test",
        "merchantName": "Padaria São João",
        "merchantCity": "São Paulo",
        "amount": "6,50",
        "description": description,
    })
}

/// How many `qrcode` streams the log holds.
async fn qrcode_streams(app: &TestApp) -> i64 {
    sqlx::query_scalar("select count(distinct stream_id) from events where stream_type = 'qrcode'")
        .fetch_one(&app.db().await)
        .await
        .expect("count")
}

#[tokio::test]
async fn a_code_gets_a_generated_txid_or_the_typed_one_and_a_txid_is_never_used_twice_in_an_account()
 {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let path = Person::in_account(&owner.account_id, "/qrcodes");

    let generated = owner.post(&path, &body("Coxinha")).await;
    assert_eq!(generated.status, StatusCode::CREATED, "{}", generated.text);
    // The drawing only when asked for (`?qr=svg`, the screen that shows the code just made).
    assert!(generated.json["qrSvg"].is_null(), "{}", generated.text);
    let drawn = owner
        .post(&format!("{path}?qr=svg"), &body("Pão de queijo"))
        .await;
    assert_eq!(drawn.status, StatusCode::CREATED, "{}", drawn.text);
    let svg = drawn.json["qrSvg"].as_str().unwrap_or_default();
    assert!(svg.starts_with("<svg"), "{svg:.40}");
    let txid = generated.json["txid"].as_str().expect("txid");
    assert_eq!(txid.len(), 16, "{txid}");
    assert!(txid.chars().all(|c| c.is_ascii_alphanumeric()), "{txid}");
    let payload = generated.json["payload"].as_str().expect("payload");
    assert!(payload.contains(&format!("0516{txid}")), "{payload}");
    assert!(!payload.contains("***"), "never *** from the dashboard");

    let mut typed = body("Mesa 1");
    typed["txid"] = json!("MESA01");
    let first = owner.post(&path, &typed).await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text);
    assert_eq!(first.json["txid"], "MESA01");

    // Again, and in another case: refused, with a pt-BR message on the txid.
    for again in ["MESA01", "mesa01"] {
        typed["txid"] = json!(again);
        let refused = owner.post(&path, &typed).await;
        assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.text);
        assert_eq!(refused.code(), "txid-taken");
        assert_eq!(refused.field(), Some("txid"));
        assert!(
            refused
                .message()
                .contains("Já existe um QR code com o txid"),
            "{}",
            refused.message()
        );
    }
    // Bad txids: every problem at once, each on its field.
    let bad = owner
        .post(
            &path,
            &json!({"pixKey": "x", "merchantName": "", "merchantCity": "São Paulo", "amount": "abc", "txid": "mesa-01"}),
        )
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
    let fields: Vec<&str> = bad.json["error"]["problems"]
        .as_array()
        .expect("problems")
        .iter()
        .map(|p| p["field"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(
        fields,
        ["pixKey", "merchantName", "amount", "txid"],
        "{}",
        bad.text
    );

    // Another account may use the same txid.
    let mut other = sign_up(&app, "vizinho@outra.test", "Vizinho").await;
    typed["txid"] = json!("MESA01");
    let elsewhere = other
        .post(&Person::in_account(&other.account_id, "/qrcodes"), &typed)
        .await;
    assert_eq!(elsewhere.status, StatusCode::CREATED, "{}", elsewhere.text);
}

#[tokio::test]
async fn of_twenty_simultaneous_creations_with_one_typed_txid_exactly_one_is_made() {
    let app = TestApp::spawn().await;
    let owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let token = owner.browser.access_token.clone().expect("signed in");
    let url = app.url(&Person::in_account(&owner.account_id, "/qrcodes"));
    let client = app.client();
    let tasks: Vec<_> = (0..20)
        .map(|i| {
            let (client, url, token) = (client.clone(), url.clone(), token.clone());
            let mut request = body(&format!("Caixa {i}"));
            request["txid"] = json!("CAIXA1");
            tokio::spawn(async move {
                client
                    .post(&url)
                    .bearer_auth(token)
                    .json(&request)
                    .send()
                    .await
                    .expect("answer")
                    .status()
            })
        })
        .collect();
    let mut statuses = Vec::new();
    for task in tasks {
        statuses.push(task.await.expect("task"));
    }
    let made = statuses
        .iter()
        .filter(|s| **s == StatusCode::CREATED)
        .count();
    let refused = statuses
        .iter()
        .filter(|s| **s == StatusCode::CONFLICT)
        .count();
    assert_eq!((made, refused), (1, 19), "{statuses:?}");
    assert_eq!(qrcode_streams(&app).await, 1);
}

#[tokio::test]
async fn a_batch_is_made_whole_or_not_at_all() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let batch = Person::in_account(&owner.account_id, "/qrcodes/lote");
    let base =
        json!({"pixKey": "loja@padaria.test", "merchantName": "Padaria", "merchantCity": "Recife"});

    // One bad price on line 3: nothing is made, and the line is named.
    let mut bad = base.clone();
    bad["lines"] = json!("Coxinha;6,50\nPastel;8,00\nSuco;abc\nBolo;12,00");
    let refused = owner.post(&batch, &bad).await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.text
    );
    let problems = refused.json["error"]["problems"]
        .as_array()
        .expect("problems");
    assert_eq!(problems.len(), 1, "{}", refused.text);
    assert_eq!(problems[0]["line"], 3);
    assert!(
        problems[0]["message"]
            .as_str()
            .unwrap_or_default()
            .starts_with("Linha 3:")
    );
    assert_eq!(qrcode_streams(&app).await, 0, "nothing half-made");

    // Over the cap: a pt-BR message, nothing made.
    let mut huge = base.clone();
    huge["prefix"] = json!("MESA");
    huge["count"] = json!(101);
    let too_many = owner.post(&batch, &huge).await;
    assert_eq!(too_many.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        too_many.message().contains("no máximo 100"),
        "{}",
        too_many.text
    );

    // A good list: one code per line, each its own txid, in one transaction.
    let mut good = base.clone();
    good["lines"] = json!("Coxinha;6,50\nPastel;8,00\nSuco\n");
    good["amount"] = json!("5,00");
    let made = owner.post(&batch, &good).await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    let codes = made.json["qrcodes"].as_array().expect("codes").clone();
    let described: Vec<(&str, i64)> = codes
        .iter()
        .map(|c| {
            (
                c["description"].as_str().unwrap_or_default(),
                c["amountCentavos"].as_i64().unwrap_or(0),
            )
        })
        .collect();
    assert_eq!(
        described,
        [("Coxinha", 650), ("Pastel", 800), ("Suco", 500)]
    );
    let txids: std::collections::BTreeSet<&str> =
        codes.iter().filter_map(|c| c["txid"].as_str()).collect();
    assert_eq!(txids.len(), 3);
    let tx_ids: i64 =
        sqlx::query_scalar("select count(distinct tx_id) from events where stream_type = 'qrcode'")
            .fetch_one(&app.db().await)
            .await
            .expect("count");
    assert_eq!(tx_ids, 1, "one transaction");

    // Numbered: MESA01 … MESA20.
    let mut numbered = base.clone();
    numbered["prefix"] = json!("MESA");
    numbered["count"] = json!(20);
    let tables = owner.post(&batch, &numbered).await;
    assert_eq!(tables.status, StatusCode::CREATED, "{}", tables.text);
    let labels: Vec<&str> = tables.json["qrcodes"]
        .as_array()
        .expect("codes")
        .iter()
        .filter_map(|c| c["description"].as_str())
        .collect();
    assert_eq!(labels.len(), 20);
    assert_eq!((labels[0], labels[19]), ("MESA01", "MESA20"));
    assert_eq!(qrcode_streams(&app).await, 23);
}

#[tokio::test]
async fn the_list_searches_filters_pages_and_archives_and_an_archived_codes_page_says_so() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let path = Person::in_account(&owner.account_id, "/qrcodes");
    let mut ids = Vec::new();
    for (description, amount, txid) in [
        ("Coxinha", "6,50", "COX1"),
        ("Pastel de queijo", "8,00", "PAS1"),
        ("Suco de laranja", "6,50", "SUC1"),
    ] {
        let mut request = body(description);
        request["amount"] = json!(amount);
        request["txid"] = json!(txid);
        let made = owner.post(&path, &request).await;
        assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
        ids.push(made.json["id"].as_str().expect("id").to_owned());
    }
    let found = |answer: &tests::browser::Answer| -> Vec<String> {
        answer.json["qrcodes"]
            .as_array()
            .expect("list")
            .iter()
            .filter_map(|c| c["description"].as_str().map(str::to_owned))
            .collect()
    };
    assert_eq!(
        found(&owner.get(&format!("{path}?busca=queijo")).await),
        ["Pastel de queijo"]
    );
    assert_eq!(
        found(&owner.get(&format!("{path}?busca=suc1")).await),
        ["Suco de laranja"]
    );
    assert_eq!(
        found(&owner.get(&format!("{path}?busca=6%2C50")).await),
        ["Suco de laranja", "Coxinha"]
    );
    // Pages of two, by keyset.
    let first = owner.get(&format!("{path}?limite=2")).await;
    assert_eq!(found(&first), ["Suco de laranja", "Pastel de queijo"]);
    let next = first.json["next"].as_str().expect("a next page").to_owned();
    let second = owner.get(&format!("{path}?limite=2&depois={next}")).await;
    assert_eq!(found(&second), ["Coxinha"]);
    assert!(second.json.get("next").is_none());

    // Archive: out of the default list, in the archived one, the payer page says so.
    let coxinha = &ids[0];
    let archived = owner
        .post(&format!("{path}/{coxinha}/arquivar"), &json!({}))
        .await;
    assert_eq!(archived.status, StatusCode::OK, "{}", archived.text);
    assert!(archived.json["archivedAt"].is_string());
    assert_eq!(archived.json["version"], 2);
    let twice = owner
        .post(&format!("{path}/{coxinha}/arquivar"), &json!({}))
        .await;
    assert_eq!(twice.status, StatusCode::CONFLICT);
    assert_eq!(twice.code(), "qrcode-already-archived");
    assert_eq!(
        found(&owner.get(&path).await),
        ["Suco de laranja", "Pastel de queijo"]
    );
    assert_eq!(
        found(&owner.get(&format!("{path}?arquivados=sim")).await),
        ["Coxinha"]
    );
    assert_eq!(
        found(&owner.get(&format!("{path}?arquivados=todos")).await).len(),
        3
    );
    let page = app.get_text(&format!("/pagamento/{coxinha}")).await;
    assert!(
        page.contains("Este QR code não recebe mais pagamentos"),
        "{page}"
    );
    assert!(!page.contains("<svg"), "no QR code to pay with");
    assert!(!page.contains("Copiar código"));

    // Brought back: pays again.
    let back = owner
        .post(&format!("{path}/{coxinha}/desarquivar"), &json!({}))
        .await;
    assert_eq!(back.status, StatusCode::OK, "{}", back.text);
    assert_eq!(back.json["archivedAt"], Value::Null);
    let again = owner
        .post(&format!("{path}/{coxinha}/desarquivar"), &json!({}))
        .await;
    assert_eq!(again.code(), "qrcode-not-archived");
    let page = app.get_text(&format!("/pagamento/{coxinha}")).await;
    assert!(page.contains("<svg"), "the code is back");

    // Duplicate: same values, a new txid.
    let copy = owner
        .post(&format!("{path}/{coxinha}/duplicar"), &json!({}))
        .await;
    assert_eq!(copy.status, StatusCode::CREATED, "{}", copy.text);
    assert_eq!(copy.json["description"], "Coxinha");
    assert_eq!(copy.json["amountCentavos"], 650);
    assert_eq!(copy.json["duplicateOf"], coxinha.as_str());
    assert_ne!(copy.json["txid"], "COX1");
    // The duplicate's screen shows the new code at once: its drawing comes with it.
    let svg = copy.json["qrSvg"].as_str().unwrap_or_default();
    assert!(svg.starts_with("<svg"), "{svg:.40}");
}

#[tokio::test]
async fn a_code_is_made_from_a_registered_key_and_another_accounts_key_is_refused() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let mut other = sign_up(&app, "vizinho@outra.test", "Vizinho").await;
    // Each registers a key through the keys API, as a person does.
    let mine = register_key_as(&mut owner, "dona@padaria.test", "Maria da Padaria").await;
    let theirs = register_key_as(&mut other, "vizinho@outra.test", "Maria da Padaria").await;
    let path = Person::in_account(&owner.account_id, "/qrcodes");
    let made = owner
        .post(
            &path,
            &json!({"keyId": mine, "merchantName": "", "merchantCity": "Recife"}),
        )
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    assert_eq!(made.json["pixKey"], "dona@padaria.test");
    assert_eq!(made.json["keyId"], mine.as_str());
    assert_eq!(
        made.json["merchantName"], "MARIA DA PADARIA",
        "the holder's name"
    );
    let filtered = owner.get(&format!("{path}?chave={mine}")).await;
    assert_eq!(filtered.json["qrcodes"].as_array().map(Vec::len), Some(1));

    let refused = owner
        .post(
            &path,
            &json!({"keyId": theirs, "merchantName": "Ana", "merchantCity": "Recife"}),
        )
        .await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.text
    );
    assert_eq!(refused.field(), Some("keyId"));
}

#[tokio::test]
async fn every_new_route_answers_owner_manager_operator_and_stranger_as_the_contract_says() {
    let app = TestApp::spawn().await;
    let mut people = team(&app).await;
    let account = people.owner.account_id.clone();
    let path = |rest: &str| Person::in_account(&account, rest);
    let make = async |person: &mut Person, txid: &str| {
        let mut request = body("Matriz");
        request["txid"] = json!(txid);
        let made = person.post(&path("/qrcodes"), &request).await;
        assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
        made.json["id"].as_str().expect("id").to_owned()
    };
    let owners = make(&mut people.owner, "DONA1").await;
    let operators = make(&mut people.operator, "CAIXA1").await;
    let batch = json!({"pixKey": "loja@padaria.test", "merchantName": "P", "merchantCity": "Recife", "prefix": "M", "count": 2});

    // (method, path, body, [stranger, owner, manager, operator])
    let rows: Vec<(&str, String, Value, [u16; 4])> = vec![
        (
            "POST",
            path("/qrcodes/conferir"),
            body("x"),
            [404, 200, 200, 200],
        ),
        ("POST", path("/qrcodes/lote"), batch, [404, 201, 201, 201]),
        (
            "GET",
            path("/qrcodes?busca=Matriz"),
            Value::Null,
            [404, 200, 200, 200],
        ),
        (
            "GET",
            path(&format!("/qrcodes/{owners}")),
            Value::Null,
            [404, 200, 200, 403],
        ),
        (
            "GET",
            path(&format!("/qrcodes/{operators}")),
            Value::Null,
            [404, 200, 200, 200],
        ),
        (
            "POST",
            path(&format!("/qrcodes/{owners}/duplicar")),
            json!({}),
            [404, 201, 201, 403],
        ),
        (
            "POST",
            path(&format!("/qrcodes/{operators}/duplicar")),
            json!({}),
            [404, 201, 201, 201],
        ),
        (
            "POST",
            path(&format!("/qrcodes/{owners}/arquivar")),
            json!({}),
            [404, 200, 409, 403],
        ),
        (
            "POST",
            path(&format!("/qrcodes/{owners}/desarquivar")),
            json!({}),
            [404, 200, 409, 403],
        ),
        (
            "POST",
            path(&format!("/qrcodes/{operators}/arquivar")),
            json!({}),
            [404, 200, 409, 409],
        ),
    ];
    for (method, url, request, expected) in rows {
        for (who, status) in ["stranger", "owner", "manager", "operator"]
            .into_iter()
            .zip(expected)
        {
            let person = match who {
                "stranger" => &mut people.stranger,
                "owner" => &mut people.owner,
                "manager" => &mut people.manager,
                _ => &mut people.operator,
            };
            let answer = if method == "GET" {
                person.get(&url).await
            } else {
                person.post(&url, &request).await
            };
            assert_eq!(
                answer.status.as_u16(),
                status,
                "{who} {method} {url}: {}",
                answer.text
            );
        }
    }
    // The operator's list holds only their own codes (theirs, their duplicate, their batch).
    let listed = people
        .operator
        .get(&path("/qrcodes?arquivados=todos"))
        .await;
    let creators: std::collections::BTreeSet<String> = listed.json["qrcodes"]
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|c| c["createdBy"].as_str().map(str::to_owned))
        .collect();
    assert_eq!(
        creators.into_iter().collect::<Vec<_>>(),
        [people.operator.account_id.clone()]
    );
}

#[tokio::test]
async fn another_accounts_code_or_key_is_not_found_on_every_route_and_no_token_or_removed_member_gets_in()
 {
    let app = TestApp::spawn().await;
    let mut people = team(&app).await;
    let account = people.owner.account_id.clone();
    let stranger = people.stranger.account_id.clone();
    let owners = people
        .owner
        .post(&Person::in_account(&account, "/qrcodes"), &body("Dona"))
        .await;
    assert_eq!(owners.status, StatusCode::CREATED, "{}", owners.text);
    let owners = owners.json["id"].as_str().expect("id").to_owned();
    let strangers_key = people
        .stranger
        .post(
            &Person::in_account(&stranger, "/keys"),
            &json!({"pixKey": "vizinho@outra.test", "holderName": "Vizinho"}),
        )
        .await;
    assert_eq!(
        strangers_key.status,
        StatusCode::CREATED,
        "{}",
        strangers_key.text
    );
    let strangers_key = strangers_key.json["id"].as_str().expect("id").to_owned();

    // The owner's code named under the stranger's own account: there is no such code there.
    for (method, rest) in [
        ("GET", format!("/qrcodes/{owners}")),
        ("POST", format!("/qrcodes/{owners}/arquivar")),
        ("POST", format!("/qrcodes/{owners}/desarquivar")),
        ("POST", format!("/qrcodes/{owners}/duplicar")),
    ] {
        let path = Person::in_account(&stranger, &rest);
        let answer = if method == "GET" {
            people.stranger.get(&path).await
        } else {
            people.stranger.post(&path, &json!({})).await
        };
        assert_eq!(
            answer.status,
            StatusCode::NOT_FOUND,
            "{method} {path}: {}",
            answer.text
        );
        assert_eq!(answer.code(), "not-found");
    }

    // The stranger's key named in the owner's account, by the owner: refused under keyId for a
    // code, a batch and a check alike, and nothing made.
    let with_key = json!({"keyId": strangers_key, "merchantName": "Dona", "merchantCity": "Recife",
                         "prefix": "M", "count": 2});
    for rest in ["/qrcodes", "/qrcodes/lote"] {
        let refused = people
            .owner
            .post(&Person::in_account(&account, rest), &with_key)
            .await;
        assert_eq!(
            refused.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{rest}: {}",
            refused.text
        );
        assert_eq!(refused.field(), Some("keyId"));
    }
    let checked = people
        .owner
        .post(
            &Person::in_account(&account, "/qrcodes/conferir"),
            &with_key,
        )
        .await;
    assert_eq!(
        checked.json["problems"][0]["field"], "keyId",
        "{}",
        checked.text
    );
    let listed = people
        .owner
        .get(&Person::in_account(&account, "/qrcodes?arquivados=todos"))
        .await;
    assert_eq!(listed.json["qrcodes"].as_array().map(Vec::len), Some(1));

    // A removed member gets 404 and no token 401 on every route of the desk.
    let routes = [
        ("GET", "/qrcodes".to_owned()),
        ("POST", "/qrcodes".to_owned()),
        ("POST", "/qrcodes/conferir".to_owned()),
        ("POST", "/qrcodes/lote".to_owned()),
        ("GET", format!("/qrcodes/{owners}")),
        ("POST", format!("/qrcodes/{owners}/arquivar")),
        ("POST", format!("/qrcodes/{owners}/desarquivar")),
        ("POST", format!("/qrcodes/{owners}/duplicar")),
    ];
    for (method, rest) in routes {
        let path = Person::in_account(&account, &rest);
        let answer = if method == "GET" {
            people.removed.get(&path).await
        } else {
            people.removed.post(&path, &body("Antigo")).await
        };
        assert_eq!(
            answer.status,
            StatusCode::NOT_FOUND,
            "removed {method} {path}: {}",
            answer.text
        );
        let anonymous = if method == "GET" {
            app.client().get(app.url(&path)).send().await
        } else {
            app.client()
                .post(app.url(&path))
                .json(&body("x"))
                .send()
                .await
        }
        .expect("answered");
        assert_eq!(
            anonymous.status(),
            StatusCode::UNAUTHORIZED,
            "no token {method} {path}"
        );
    }
    app.stop().await;
}
