//! Signs kept in the dashboard (issue 11, item 5): `/api/accounts/{accountId}/placas` — save a
//! sign from one of the account's codes, list, change, duplicate and delete it, each answering
//! the sign routes' file addresses with its choices.

use reqwest::StatusCode;
use serde_json::{Value, json};
use tests::{TestApp, eventually};

use crate::workspace::support::{PASSWORD, Person, qrcode_body, sign_up, team};

/// Makes a code in `person`'s account (`account`) and returns its id.
async fn make_code(person: &mut Person, account: &str, name: &str) -> String {
    let made = person
        .post(&Person::in_account(account, "/qrcodes"), &qrcode_body(name))
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    made.json["id"].as_str().expect("id").to_owned()
}

fn sign_body(qrcode_id: &str) -> Value {
    json!({
        "qrcodeId": qrcode_id,
        "name": "Balcão da frente",
        "template": "faixa",
        "size": "a5",
        "theme": "azul",
        "headline": "Pague aqui com Pix",
        "footer": "Aberto das 8h às 18h",
        "withLogo": true
    })
}

fn signs(account: &str) -> String {
    Person::in_account(account, "/placas")
}

fn one(account: &str, id: &str, rest: &str) -> String {
    Person::in_account(account, &format!("/placas/{id}{rest}"))
}

async fn save(person: &mut Person, account: &str, body: &Value) -> Value {
    let made = person.post(&signs(account), body).await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    made.json
}

fn ids(list: &Value) -> Vec<String> {
    list["signs"]
        .as_array()
        .expect("signs")
        .iter()
        .map(|s| s["id"].as_str().expect("id").to_owned())
        .collect()
}

#[tokio::test]
async fn an_owner_saves_a_sign_from_a_code_lists_changes_duplicates_and_deletes_it() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let account = owner.account_id.clone();
    let code = make_code(&mut owner, &account, "Padaria São João").await;

    let sign = save(&mut owner, &account, &sign_body(&code)).await;
    let id = sign["id"].as_str().expect("id").to_owned();
    assert_eq!(sign["name"], "Balcão da frente");
    assert_eq!(sign["qrcodeId"], code.as_str());
    assert_eq!(sign["template"], "faixa");
    assert_eq!(sign["code"]["merchantName"], "PADARIA SAO JOAO");
    let pdf = sign["files"]["pdf"].as_str().expect("pdf").to_owned();
    assert!(
        pdf.starts_with(&format!(
            "/placas/{code}.pdf?modelo=faixa&tamanho=a5&tema=azul&titulo="
        )),
        "{pdf}"
    );

    // The sign's address downloads exactly the file it describes.
    let file = app.get(&pdf).await;
    assert_eq!(file.status(), StatusCode::OK);
    assert_eq!(file.headers()["content-type"], "application/pdf");
    assert!(
        file.bytes().await.expect("bytes").starts_with(b"%PDF-"),
        "a PDF"
    );
    let svg = app.get(sign["files"]["svg"].as_str().expect("svg")).await;
    assert_eq!(svg.status(), StatusCode::OK);
    let text = svg.text().await.expect("svg text");
    assert!(text.contains("<svg"), "an SVG");

    // Listed, and read alone.
    let listed = owner.get(&signs(&account)).await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.text);
    assert_eq!(ids(&listed.json), vec![id.clone()]);
    let shown = owner.get(&one(&account, &id, "")).await;
    assert_eq!(shown.json["footer"], "Aberto das 8h às 18h");

    // A change keeps what it does not name; a blank headline goes back to the default.
    let changed = owner
        .patch(
            &one(&account, &id, ""),
            &json!({"theme": "vinho", "headline": "", "withLogo": false}),
        )
        .await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.text);
    assert_eq!(changed.json["theme"], "vinho");
    assert_eq!(changed.json["headline"], Value::Null);
    assert_eq!(changed.json["size"], "a5");
    assert_eq!(changed.json["name"], "Balcão da frente");
    let svg = changed.json["files"]["svg"].as_str().expect("svg");
    assert!(
        svg.contains("tema=vinho") && svg.contains("logo=nao") && !svg.contains("titulo="),
        "{svg}"
    );

    // A duplicate: same code and choices, its own id, a name that says it is a copy.
    let copy = owner
        .post(&one(&account, &id, "/duplicar"), &json!({}))
        .await;
    assert_eq!(copy.status, StatusCode::CREATED, "{}", copy.text);
    let copy_id = copy.json["id"].as_str().expect("id").to_owned();
    assert_ne!(copy_id, id);
    assert_eq!(copy.json["name"], "Cópia de Balcão da frente");
    assert_eq!(copy.json["duplicateOf"], id.as_str());
    assert_eq!(copy.json["theme"], "vinho");
    assert_eq!(copy.json["files"]["pdf"], changed.json["files"]["pdf"]);
    let listed = owner.get(&signs(&account)).await;
    assert_eq!(
        ids(&listed.json),
        vec![copy_id.clone(), id.clone()],
        "newest first"
    );

    // Deleted: gone from the list, 404 after.
    let gone = owner.delete(&one(&account, &id, "")).await;
    assert_eq!(gone.status, StatusCode::NO_CONTENT, "{}", gone.text);
    assert_eq!(ids(&owner.get(&signs(&account)).await.json), vec![copy_id]);
    for answer in [
        owner.get(&one(&account, &id, "")).await,
        owner.delete(&one(&account, &id, "")).await,
        owner
            .patch(&one(&account, &id, ""), &json!({"name": "x"}))
            .await,
    ] {
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{}", answer.text);
    }
    app.stop().await;
}

#[tokio::test]
async fn a_sign_with_a_value_the_printer_cannot_take_is_refused_in_portuguese_under_its_field() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let mut other = sign_up(&app, "vizinho@outra.test", "Vizinho").await;
    let account = owner.account_id.clone();
    let code = make_code(&mut owner, &account, "Padaria").await;
    let other_account = other.account_id.clone();
    let theirs = make_code(&mut other, &other_account, "Vizinho").await;

    let cases: Vec<(Value, &str, &str)> = vec![
        (json!({"name": "  "}), "name", "Dê um nome à placa"),
        (
            json!({"size": "carta"}),
            "size",
            "O tamanho \"carta\" não existe",
        ),
        (
            json!({"template": "neon"}),
            "template",
            "O modelo \"neon\" não existe",
        ),
        (
            json!({"theme": "rosa"}),
            "theme",
            "O tema \"rosa\" não existe",
        ),
        (
            json!({"headline": "x".repeat(41)}),
            "headline",
            "O título pode ter até 40 caracteres.",
        ),
        (
            json!({"footer": "x".repeat(81)}),
            "footer",
            "O rodapé pode ter até 80 caracteres.",
        ),
        (
            json!({"qrcodeId": theirs}),
            "qrcodeId",
            "Escolha um dos QR codes desta conta",
        ),
        (
            json!({"qrcodeId": "nao-e-um-id"}),
            "qrcodeId",
            "Escolha um dos QR codes desta conta",
        ),
    ];
    for (change, field, message) in cases {
        let mut body = sign_body(&code);
        for (key, value) in change.as_object().expect("object") {
            body[key] = value.clone();
        }
        let refused = owner.post(&signs(&account), &body).await;
        assert_eq!(
            refused.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{field}: {}",
            refused.text
        );
        assert_eq!(refused.field(), Some(field), "{}", refused.text);
        assert!(
            refused.json["error"]["message"]
                .as_str()
                .is_some_and(|m| m.contains(message)),
            "{field}: {}",
            refused.text
        );
    }
    assert!(
        ids(&owner.get(&signs(&account)).await.json).is_empty(),
        "nothing saved"
    );
    app.stop().await;
}

#[tokio::test]
async fn owner_and_manager_manage_every_sign_an_operator_their_own_and_outsiders_see_nothing() {
    let app = TestApp::spawn().await;
    let mut team = team(&app).await;
    let account = team.owner.account_id.clone();
    let owners_code = make_code(&mut team.owner, &account, "Padaria").await;
    let owners = save(&mut team.owner, &account, &sign_body(&owners_code)).await;
    let owners_id = owners["id"].as_str().expect("id").to_owned();

    // The manager sees, changes and copies the owner's sign, and saves one of their own.
    let managers_view = team.manager.get(&signs(&account)).await;
    assert_eq!(ids(&managers_view.json), vec![owners_id.clone()]);
    let renamed = team
        .manager
        .patch(&one(&account, &owners_id, ""), &json!({"name": "Vitrine"}))
        .await;
    assert_eq!(renamed.status, StatusCode::OK, "{}", renamed.text);
    let copy = team
        .manager
        .post(&one(&account, &owners_id, "/duplicar"), &json!({}))
        .await;
    assert_eq!(copy.status, StatusCode::CREATED, "{}", copy.text);

    // The operator makes a sign of their own code and sees only it.
    let operators_code = make_code(&mut team.operator, &account, "Caixa Um").await;
    let operators = save(&mut team.operator, &account, &sign_body(&operators_code)).await;
    let operators_id = operators["id"].as_str().expect("id").to_owned();
    let seen = team.operator.get(&signs(&account)).await;
    assert_eq!(seen.status, StatusCode::OK, "{}", seen.text);
    assert_eq!(ids(&seen.json), vec![operators_id.clone()]);
    let own = team
        .operator
        .patch(&one(&account, &operators_id, ""), &json!({"size": "a6"}))
        .await;
    assert_eq!(own.status, StatusCode::OK, "{}", own.text);
    // …but not the owner's sign, nor a sign of the owner's code: 403, saying why.
    for answer in [
        team.operator.get(&one(&account, &owners_id, "")).await,
        team.operator
            .patch(&one(&account, &owners_id, ""), &json!({"name": "x"}))
            .await,
        team.operator
            .post(&one(&account, &owners_id, "/duplicar"), &json!({}))
            .await,
        team.operator.delete(&one(&account, &owners_id, "")).await,
        team.operator
            .post(&signs(&account), &sign_body(&owners_code))
            .await,
    ] {
        assert_eq!(answer.status, StatusCode::FORBIDDEN, "{}", answer.text);
        assert_eq!(answer.json["error"]["code"], "forbidden");
    }
    // The owner sees everyone's.
    assert_eq!(ids(&team.owner.get(&signs(&account)).await.json).len(), 3);

    // A stranger and a removed member: 404 everywhere, as for an account that does not exist.
    for person in [&mut team.stranger, &mut team.removed] {
        for answer in [
            person.get(&signs(&account)).await,
            person
                .post(&signs(&account), &sign_body(&owners_code))
                .await,
            person.get(&one(&account, &owners_id, "")).await,
            person
                .patch(&one(&account, &owners_id, ""), &json!({"name": "x"}))
                .await,
            person
                .post(&one(&account, &owners_id, "/duplicar"), &json!({}))
                .await,
            person.delete(&one(&account, &owners_id, "")).await,
        ] {
            assert_eq!(answer.status, StatusCode::NOT_FOUND, "{}", answer.text);
        }
    }
    // Another account's sign, through one's own account: 404, and still there for its owner.
    let stranger_account = team.stranger.account_id.clone();
    for answer in [
        team.stranger
            .get(&one(&stranger_account, &owners_id, ""))
            .await,
        team.stranger
            .delete(&one(&stranger_account, &owners_id, ""))
            .await,
        team.stranger
            .post(&one(&stranger_account, &owners_id, "/duplicar"), &json!({}))
            .await,
    ] {
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{}", answer.text);
    }
    // Without a token: 401.
    let anonymous = app.get(&signs(&account)).await;
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);

    // The owner deletes the operator's sign.
    let gone = team.owner.delete(&one(&account, &operators_id, "")).await;
    assert_eq!(gone.status, StatusCode::NO_CONTENT, "{}", gone.text);
    assert!(ids(&team.operator.get(&signs(&account)).await.json).is_empty());
    app.stop().await;
}

#[tokio::test]
async fn replaying_signs_gives_the_live_rows() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let account = owner.account_id.clone();
    let code = make_code(&mut owner, &account, "Padaria").await;
    let first = save(&mut owner, &account, &sign_body(&code)).await;
    let id = first["id"].as_str().expect("id").to_owned();
    let second = save(&mut owner, &account, &sign_body(&code)).await;
    let changed = owner
        .patch(&one(&account, &id, ""), &json!({"footer": "Só Pix"}))
        .await;
    assert_eq!(changed.status, StatusCode::OK);
    let third = owner
        .post(&one(&account, &id, "/duplicar"), &json!({}))
        .await;
    assert_eq!(third.status, StatusCode::CREATED);
    let gone = owner
        .delete(&one(&account, second["id"].as_str().expect("id"), ""))
        .await;
    assert_eq!(gone.status, StatusCode::NO_CONTENT);

    let db = app.db().await;
    let rows = || async {
        sqlx::query_scalar::<_, String>("select (s.*)::text from signs s order by sign_id")
            .fetch_all(&db)
            .await
            .expect("signs")
    };
    let live = eventually("every change is projected", async || {
        let rows = rows().await;
        (rows.len() == 2 && rows.iter().any(|r| r.contains("Só Pix"))).then_some(rows)
    })
    .await;
    gateway::roles::replay(&app.settings, &["signs".to_owned()], false)
        .await
        .expect("replay");
    assert_eq!(rows().await, live, "replay equals live");
    app.stop().await;
}

#[tokio::test]
async fn with_the_projector_stopped_a_saved_sign_is_answered_from_the_command_as_the_list_later_shows_it()
 {
    use gateway::roles::Roles;
    use std::time::Duration;
    let app = TestApp::spawn_roles(
        Roles {
            serve: true,
            relay: true,
            ..Roles::default()
        },
        |settings| {
            settings.read_your_writes_ms = 3_000;
            settings.read_your_writes_stall_ms = 250;
        },
    )
    .await;
    let project = Roles {
        project: true,
        ..Roles::default()
    };
    let projector = app.start_roles(project.clone()).await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let account = owner.account_id.clone();
    // The account and the code need their read models (the sign is made from a code the
    // gateway finds), then the projector goes away.
    let code = tests::eventually_within(
        Duration::from_secs(30),
        "the account's read model",
        async || {
            let made = owner
                .post(
                    &Person::in_account(&account, "/qrcodes"),
                    &qrcode_body("Padaria"),
                )
                .await;
            (made.status == StatusCode::CREATED)
                .then(|| made.json["id"].as_str().expect("id").to_owned())
        },
    )
    .await;
    tests::eventually_within(
        Duration::from_secs(30),
        "the code's read model",
        async || {
            let shown = owner
                .get(&Person::in_account(&account, &format!("/qrcodes/{code}")))
                .await;
            (shown.status == StatusCode::OK).then_some(())
        },
    )
    .await;
    projector.stop().await.expect("the projector stops cleanly");

    let answered = save(&mut owner, &account, &sign_body(&code)).await;
    assert_eq!(
        answered["code"]["merchantName"], "PADARIA",
        "the code's facts, from the handler"
    );
    assert!(
        ids(&owner.get(&signs(&account)).await.json).is_empty(),
        "not projected yet"
    );

    let projector = app.start_roles(project).await;
    let listed =
        tests::eventually_within(Duration::from_secs(60), "the sign projected", async || {
            let listed = owner.get(&signs(&account)).await;
            listed.json["signs"]
                .as_array()
                .and_then(|s| s.first().cloned())
        })
        .await;
    assert_eq!(
        listed, answered,
        "the answer was exactly what the read model shows"
    );
    projector.stop().await.expect("the projector stops cleanly");
    app.stop().await;
}

#[tokio::test]
async fn a_deleted_account_keeps_no_signs_live_or_after_a_replay() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let mut other = sign_up(&app, "vizinho@outra.test", "Vizinho").await;
    let account = owner.account_id.clone();
    let code = make_code(&mut owner, &account, "Padaria").await;
    save(&mut owner, &account, &sign_body(&code)).await;
    let other_account = other.account_id.clone();
    let theirs = make_code(&mut other, &other_account, "Vizinho").await;
    save(&mut other, &other_account, &sign_body(&theirs)).await;

    let deleted = owner
        .post("/api/account/delete", &json!({"password": PASSWORD}))
        .await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT, "{}", deleted.text);
    let db = app.db().await;
    let owners = || async {
        sqlx::query_scalar::<_, String>("select owner_id::text from signs order by owner_id")
            .fetch_all(&db)
            .await
            .expect("signs")
    };
    eventually("the deleted account's signs are gone", async || {
        (owners().await == vec![other_account.clone()]).then_some(())
    })
    .await;
    gateway::roles::replay(&app.settings, &["signs".to_owned()], false)
        .await
        .expect("replay");
    assert_eq!(owners().await, vec![other_account], "replay agrees");
    app.stop().await;
}
