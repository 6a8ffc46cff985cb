//! The developer API (issue 36): keys made on the dashboard, shown once, revocable; `/api/v1`
//! reached only with a key, only in its own account, only within its scopes and allowance; what
//! a key makes names it in the log.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use sqlx::PgPool;
use tests::TestApp;
use tests::browser::{Answer, Browser};

use crate::workspace::support::{Person, join, qrcode_body, register_key_as, sign_up};

/// A program calling `/api/v1` with `secret`, as a shop's system would.
fn program(app: &TestApp, secret: &str) -> Browser {
    let mut browser = Browser::with_user_agent(app, "erp-da-padaria/2.1");
    browser.access_token = Some(secret.to_owned());
    browser
}

/// `person` makes a key in their own account with `scopes`; answers the whole answer.
async fn make_key(person: &mut Person, account_id: &str, name: &str, scopes: &[&str]) -> Answer {
    person
        .post(
            &Person::in_account(account_id, "/api-keys"),
            &json!({"name": name, "scopes": scopes}),
        )
        .await
}

async fn secret_of(person: &mut Person, scopes: &[&str]) -> (String, String) {
    let account = person.account_id.clone();
    let made = make_key(person, &account, "ERP", scopes).await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    (
        made.json["id"].as_str().expect("id").to_owned(),
        made.json["secret"].as_str().expect("secret").to_owned(),
    )
}

/// The stable code of an `/api/v1` refusal: the end of its problem's `type`, once the answer is
/// checked to be `application/problem+json` with its status and a pt-BR `detail`.
fn problem_code(answer: &Answer) -> &str {
    assert_eq!(
        answer.header("content-type"),
        Some("application/problem+json"),
        "{}",
        answer.text
    );
    assert_eq!(
        answer.json["status"],
        answer.status.as_u16(),
        "{}",
        answer.text
    );
    assert!(answer.json["detail"].is_string(), "{}", answer.text);
    answer.json["type"]
        .as_str()
        .and_then(|t| t.strip_prefix("https://balcao.app/erros/"))
        .expect("a problem type")
}

fn detail(answer: &Answer) -> &str {
    answer.json["detail"].as_str().unwrap_or_default()
}

fn v1(account_id: &str, rest: &str) -> String {
    format!("/api/v1/accounts/{account_id}{rest}")
}

#[tokio::test]
async fn a_key_is_shown_once_listed_without_its_secret_and_stops_the_moment_it_is_revoked() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona da Padaria").await;
    let account = owner.account_id.clone();
    let made = make_key(&mut owner, &account, " Loja virtual ", &["payments:read"]).await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    let secret = made.json["secret"].as_str().expect("secret").to_owned();
    let key_id = made.json["id"].as_str().expect("id").to_owned();
    assert!(
        secret.starts_with("balcao_") && secret.len() > 40,
        "{secret}"
    );
    assert_eq!(made.json["name"], "Loja virtual");
    assert_eq!(made.json["accountId"], account.as_str());
    assert_eq!(made.json["scopes"], json!(["payments:read"]));

    let listed = owner.get(&Person::in_account(&account, "/api-keys")).await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.text);
    assert!(
        !listed.text.contains(&secret),
        "the list never holds the secret"
    );
    let key = &listed.json["apiKeys"][0];
    assert_eq!(key["id"], key_id.as_str());
    assert_eq!(key["tokenHint"], &secret[..12]);
    assert_eq!(key["lastUsedAt"], Value::Null);
    assert_eq!(listed.json["scopes"].as_array().map(Vec::len), Some(5));

    let mut erp = program(&app, &secret);
    let me = erp.get("/api/v1/key").await;
    assert_eq!(me.status, StatusCode::OK, "{}", me.text);
    assert_eq!(me.json["accountId"], account.as_str());
    assert_eq!(me.json["keyId"], key_id.as_str());
    let listed = owner.get(&Person::in_account(&account, "/api-keys")).await;
    assert!(
        listed.json["apiKeys"][0]["lastUsedAt"].is_string(),
        "its use is shown: {}",
        listed.text
    );

    let path = Person::in_account(&account, &format!("/api-keys/{key_id}"));
    assert_eq!(owner.delete(&path).await.status, StatusCode::NO_CONTENT);
    let refused = erp.get("/api/v1/key").await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED, "{}", refused.text);
    assert_eq!(problem_code(&refused), "unauthenticated");
    assert!(detail(&refused).contains("revogada"), "{}", refused.text);
    assert_eq!(owner.delete(&path).await.status, StatusCode::NOT_FOUND);
    let listed = owner.get(&Person::in_account(&account, "/api-keys")).await;
    assert!(listed.json["apiKeys"][0]["revokedAt"].is_string());
    app.stop().await;
}

#[tokio::test]
async fn a_new_key_without_a_name_or_with_unknown_scopes_or_a_past_expiry_is_refused_naming_each_field()
 {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona da Padaria").await;
    let path = Person::in_account(&owner.account_id, "/api-keys");
    let refused = owner
        .post(
            &path,
            &json!({"name": "", "scopes": ["tudo"], "expiresOn": "2020-01-01"}),
        )
        .await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.text
    );
    let fields: Vec<&str> = refused.json["error"]["problems"]
        .as_array()
        .expect("problems")
        .iter()
        .filter_map(|p| p["field"].as_str())
        .collect();
    assert_eq!(fields, ["name", "scopes", "expiresOn"]);
    let bad_date = owner
        .post(
            &path,
            &json!({"name": "ERP", "scopes": ["payments:read"], "expiresOn": "amanhã"}),
        )
        .await;
    assert_eq!(bad_date.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(bad_date.field(), Some("expiresOn"));
    let listed = owner.get(&path).await;
    assert_eq!(listed.json["apiKeys"], json!([]), "nothing was made");
    app.stop().await;
}

#[tokio::test]
async fn managers_make_keys_operators_cannot_and_no_key_reaches_the_dashboards_routes() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona da Padaria").await;
    let account = owner.account_id.clone();
    let (mut manager, _) = join(
        &app,
        &mut owner,
        "gerente@padaria.test",
        "Gerente",
        "manager",
    )
    .await;
    let (mut operator, _) = join(&app, &mut owner, "caixa@padaria.test", "Caixa", "operator").await;
    let by_manager = make_key(&mut manager, &account, "PDV", &["qrcodes:write"]).await;
    assert_eq!(
        by_manager.status,
        StatusCode::CREATED,
        "{}",
        by_manager.text
    );
    let by_operator = make_key(&mut operator, &account, "PDV", &["qrcodes:write"]).await;
    assert_eq!(by_operator.status, StatusCode::FORBIDDEN);
    assert_eq!(by_operator.code(), "forbidden");
    let secret = by_manager.json["secret"].as_str().expect("secret");

    // A key is no session: the dashboard's own routes refuse it, key routes included.
    let mut erp = program(&app, secret);
    for path in [
        Person::in_account(&account, "/qrcodes"),
        Person::in_account(&account, "/api-keys"),
        "/api/auth/me".to_owned(),
    ] {
        let refused = erp.get(&path).await;
        assert_eq!(
            refused.status,
            StatusCode::UNAUTHORIZED,
            "{path}: {}",
            refused.text
        );
    }
    // And a session is no key.
    let refused = owner.get("/api/v1/key").await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED, "{}", refused.text);
    assert_eq!(problem_code(&refused), "unauthenticated");
    assert!(
        detail(&refused).contains("chave de API"),
        "{}",
        refused.text
    );
    let unknown = program(&app, "balcao_nao-existe").get("/api/v1/key").await;
    assert_eq!(unknown.status, StatusCode::UNAUTHORIZED);
    app.stop().await;
}

#[tokio::test]
async fn each_route_answers_only_the_scope_it_needs_and_a_key_reaches_only_its_own_account() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona da Padaria").await;
    let account = owner.account_id.clone();
    register_key_as(&mut owner, "loja@padaria.test", "Padaria").await;
    let mut stranger = sign_up(&app, "vizinho@outra.test", "Vizinho").await;
    let (_, strangers_secret) = secret_of(&mut stranger, &SCOPES).await;
    // (method, path, scope that opens it)
    let routes: [(Method, String, &str); 9] = [
        (Method::GET, v1(&account, "/qrcodes"), "qrcodes:read"),
        (Method::POST, v1(&account, "/qrcodes"), "qrcodes:write"),
        (Method::GET, v1(&account, "/payments"), "payments:read"),
        (
            Method::GET,
            v1(&account, "/payments/summary"),
            "payments:read",
        ),
        (Method::GET, v1(&account, "/payments/csv"), "payments:read"),
        (Method::GET, v1(&account, "/daily-totals"), "payments:read"),
        (
            Method::GET,
            v1(&account, "/payment-links"),
            "payment-links:write",
        ),
        (
            Method::GET,
            v1(&account, "/qrcodes/nao-existe"),
            "qrcodes:read",
        ),
        (
            Method::GET,
            v1(&account, "/payments/nao-existe"),
            "payments:read",
        ),
    ];
    for held in SCOPES {
        let (_, secret) = secret_of(&mut owner, &[held]).await;
        let mut erp = program(&app, &secret);
        for (method, path, needs) in &routes {
            let answer = call(&mut erp, method.clone(), path).await;
            let opens = *needs == held || (*needs == "qrcodes:read" && held == "qrcodes:write");
            if opens {
                assert!(
                    answer.status.is_success() || answer.status == StatusCode::NOT_FOUND,
                    "{held} × {method} {path}: {} {}",
                    answer.status,
                    answer.text
                );
                if path.ends_with("nao-existe") {
                    assert_eq!(problem_code(&answer), "not-found", "{held} × {path}");
                }
            } else {
                assert_eq!(
                    answer.status,
                    StatusCode::FORBIDDEN,
                    "{held} × {method} {path}: {}",
                    answer.text
                );
                assert_eq!(problem_code(&answer), "forbidden");
                assert!(detail(&answer).contains(needs), "{}", answer.text);
            }
        }
    }
    // Every scope, but another account's key: the owner's account does not exist for it.
    let mut stranger_erp = program(&app, &strangers_secret);
    for (method, path, _) in &routes {
        let answer = call(&mut stranger_erp, method.clone(), path).await;
        assert_eq!(
            answer.status,
            StatusCode::NOT_FOUND,
            "{path}: {}",
            answer.text
        );
        assert_eq!(problem_code(&answer), "not-found");
    }
    app.stop().await;
}

/// Every scope by name, as a program asks for them.
const SCOPES: [&str; 5] = [
    "qrcodes:read",
    "qrcodes:write",
    "payments:read",
    "payment-links:write",
    "webhooks:write",
];

async fn call(erp: &mut Browser, method: Method, path: &str) -> Answer {
    if method == Method::POST {
        erp.post_json(path, &qrcode_body("Padaria")).await
    } else {
        erp.request(method, path, None, None).await
    }
}

async fn actors_of_code(db: &PgPool, qrcode_id: &str) -> Vec<String> {
    sqlx::query_scalar(
        "select metadata->>'actor' from events where stream_id = $1 order by stream_version",
    )
    .bind(qrcode_id)
    .fetch_all(db)
    .await
    .expect("the log reads")
}

#[tokio::test]
async fn a_code_made_with_a_key_names_the_key_in_the_log_and_its_idempotency_key_makes_it_once() {
    let app = TestApp::spawn().await;
    let db = app.db().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona da Padaria").await;
    let account = owner.account_id.clone();
    register_key_as(&mut owner, "loja@padaria.test", "Padaria").await;
    let (key_id, secret) = secret_of(&mut owner, &["qrcodes:write"]).await;
    let mut erp = program(&app, &secret);
    erp.set_header("idempotency-key", "pedido-1234");
    let made = erp
        .post_json(&v1(&account, "/qrcodes"), &qrcode_body("Padaria"))
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    let again = erp
        .post_json(&v1(&account, "/qrcodes"), &qrcode_body("Padaria"))
        .await;
    assert_eq!(again.status, StatusCode::CREATED, "{}", again.text);
    let id = made.json["id"].as_str().expect("id");
    assert_eq!(again.json["id"], id, "the same request makes one code");
    let mut other = qrcode_body("Padaria");
    other["amount"] = json!("13,00");
    let clash = erp.post_json(&v1(&account, "/qrcodes"), &other).await;
    assert_eq!(
        clash.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        clash.text
    );
    assert_eq!(problem_code(&clash), "idempotency-key-reused");
    assert_eq!(
        actors_of_code(&db, id).await,
        vec![format!("api-key:{key_id}")]
    );
    // A code the Pix rules refuse names every field at fault, as the API Pix's problems do.
    erp.set_header("idempotency-key", "pedido-1235");
    let refused = erp
        .post_json(
            &v1(&account, "/qrcodes"),
            &json!({"pixKey": "", "merchantName": "", "merchantCity": "São Paulo", "amount": "abc"}),
        )
        .await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.text
    );
    assert_eq!(problem_code(&refused), "invalid-argument");
    let fields: Vec<&str> = refused.json["violacoes"]
        .as_array()
        .expect("violacoes")
        .iter()
        .filter_map(|v| v["propriedade"].as_str())
        .collect();
    assert!(
        fields.contains(&"pixKey") && fields.contains(&"amount"),
        "{}",
        refused.text
    );
    // The owner sees it in the dashboard like any other code, and the key reads it back.
    erp.remove_header("idempotency-key");
    let read = erp.get(&v1(&account, &format!("/qrcodes/{id}"))).await;
    assert_eq!(read.status, StatusCode::OK, "{}", read.text);
    let listed = owner.get(&Person::in_account(&account, "/qrcodes")).await;
    assert!(listed.text.contains(id), "{}", listed.text);
    app.stop().await;
}

#[tokio::test]
async fn a_key_over_its_allowance_is_told_to_wait_and_every_answer_says_what_is_left() {
    let app = TestApp::spawn_with(|settings| settings.api_key_per_minute = 3).await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona da Padaria").await;
    let (_, first) = secret_of(&mut owner, &["payments:read"]).await;
    let (_, second) = secret_of(&mut owner, &["payments:read"]).await;
    let mut erp = program(&app, &first);
    for left in ["2", "1", "0"] {
        let answer = erp.get("/api/v1/key").await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
        assert_eq!(answer.header("ratelimit-limit"), Some("3"));
        assert_eq!(answer.header("ratelimit-remaining"), Some(left));
        assert!(answer.header("ratelimit-reset").is_some());
    }
    let refused = erp.get("/api/v1/key").await;
    assert_eq!(
        refused.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        refused.text
    );
    assert_eq!(problem_code(&refused), "too-many-requests");
    let wait: u64 = refused
        .header("retry-after")
        .and_then(|s| s.parse().ok())
        .expect("Retry-After");
    assert!((1..=20).contains(&wait), "{wait}");
    assert_eq!(refused.header("ratelimit-remaining"), Some("0"));
    // Another key of the same account has its own allowance.
    let other = program(&app, &second).get("/api/v1/key").await;
    assert_eq!(other.status, StatusCode::OK, "{}", other.text);
    app.stop().await;
}

#[tokio::test]
async fn a_key_past_its_expiry_is_refused() {
    let app = TestApp::spawn().await;
    let db = app.db().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona da Padaria").await;
    let path = Person::in_account(&owner.account_id, "/api-keys");
    let tomorrow = (chrono::Utc::now() + chrono::Duration::days(2))
        .format("%Y-%m-%d")
        .to_string();
    let made = owner
        .post(
            &path,
            &json!({"name": "Teste", "scopes": ["payments:read"], "expiresOn": tomorrow}),
        )
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    assert!(
        made.json["expiresAt"]
            .as_str()
            .is_some_and(|at| at.ends_with("T03:00:00.000Z"))
    );
    let mut erp = program(&app, made.json["secret"].as_str().expect("secret"));
    assert_eq!(erp.get("/api/v1/key").await.status, StatusCode::OK);
    // Time passes: the key's expiry is now behind us (side state, not a read model).
    sqlx::query("update api_keys set expires_at = now() - interval '1 second'")
        .execute(&db)
        .await
        .expect("the clock moves");
    let refused = erp.get("/api/v1/key").await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED, "{}", refused.text);
    app.stop().await;
}
