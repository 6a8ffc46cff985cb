//! The authorisation matrix: the `/api` routes × every kind of caller, with the status (and,
//! for refusals, the error code) each must get. One test builds the people once through the API
//! (the owner signs up and invites a manager, an operator and a third person who is then
//! removed, all accepting through the links in their e-mail; a stranger signs up on their own)
//! and then runs every cell.
//!
//! Columns: no token · stranger (an account of their own, no role in the owner's) · owner ·
//! manager · operator · removed member. "Own account" routes (`/api/account/…`, `/api/auth/me`…)
//! act on the caller's own account, so every signed-in column succeeds there; the requests that
//! would change something for good carry a wrong password, so signed-in callers get 400
//! `wrong-password` and nobody without a token learns more than 401 `unauthenticated`.

use super::support::{PNG, Person, invite, qrcode_body, team};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use tests::TestApp;
use tests::browser::{Answer, Browser};

/// What a cell expects: `"200"`, or `"404 not-found"` (status and error code).
type Cell = &'static str;

/// One route with the request it sends and what each caller gets, in column order: no token,
/// stranger, owner, manager, operator, removed member.
struct Row {
    method: Method,
    path: String,
    body: Body,
    expected: [Cell; 6],
}

enum Body {
    None,
    Json(Value),
    /// The refresh call's form, as the dashboard sends it.
    RefreshForm,
    Photo,
}

const CALLERS: [&str; 6] = [
    "no token", "stranger", "owner", "manager", "operator", "removed",
];

fn row(method: Method, path: impl Into<String>, body: Body, expected: [Cell; 6]) -> Row {
    Row {
        method,
        path: path.into(),
        body,
        expected,
    }
}

async fn send(browser: &mut Browser, row: &Row) -> Answer {
    match &row.body {
        Body::None => {
            browser
                .request(row.method.clone(), &row.path, None, None)
                .await
        }
        Body::Json(value) => {
            browser
                .request(
                    row.method.clone(),
                    &row.path,
                    Some("application/json"),
                    Some(value.to_string().into_bytes()),
                )
                .await
        }
        Body::RefreshForm => {
            browser
                .request(
                    row.method.clone(),
                    &row.path,
                    Some("application/x-www-form-urlencoded"),
                    Some(b"grant_type=refresh_token".to_vec()),
                )
                .await
        }
        Body::Photo => {
            browser
                .request(
                    row.method.clone(),
                    &row.path,
                    Some("image/png"),
                    Some(PNG.to_vec()),
                )
                .await
        }
    }
}

/// `None` when the answer is what `cell` says, else what went wrong.
fn mismatch(cell: Cell, answer: &Answer) -> Option<String> {
    let (status, code) = cell.split_once(' ').unwrap_or((cell, ""));
    let status: u16 = status.parse().expect("a status in the table");
    let status_ok = answer.status == StatusCode::from_u16(status).expect("a status");
    let code_ok = code.is_empty() || answer.code() == code;
    (!status_ok || !code_ok).then(|| {
        format!(
            "expected {cell}, got {} {} ({})",
            answer.status.as_u16(),
            answer.code(),
            answer.text.chars().take(200).collect::<String>()
        )
    })
}

#[tokio::test]
async fn every_api_route_answers_each_kind_of_caller_exactly_as_the_contract_says() {
    let app = TestApp::spawn().await;
    let mut people = team(&app).await;
    let owner_id = people.owner.account_id.clone();
    let stranger_id = people.stranger.account_id.clone();
    let account = |rest: &str| Person::in_account(&owner_id, rest);

    // What the rows point at: a code by the owner, one by the operator, a pending invitation.
    let owners_code = people
        .owner
        .post(&account("/qrcodes"), &qrcode_body("Padaria"))
        .await;
    assert_eq!(
        owners_code.status,
        StatusCode::CREATED,
        "{}",
        owners_code.text
    );
    let owners_code = owners_code.json["id"].as_str().expect("id").to_owned();
    let operators_code = people
        .operator
        .post(&account("/qrcodes"), &qrcode_body("Caixa"))
        .await;
    assert_eq!(operators_code.status, StatusCode::CREATED);
    let operators_code = operators_code.json["id"].as_str().expect("id").to_owned();
    let pending = invite(&mut people.owner, "pendente@padaria.test", "operator").await;
    let pending = pending.json["invitationId"]
        .as_str()
        .expect("id")
        .to_owned();
    let owners_sign = people
        .owner
        .post(
            &account("/placas"),
            &json!({"qrcodeId": owners_code, "name": "Balcão", "template": "faixa", "size": "a5",
                    "theme": "azul", "headline": "Pague com Pix", "withLogo": false}),
        )
        .await;
    assert_eq!(
        owners_sign.status,
        StatusCode::CREATED,
        "{}",
        owners_sign.text
    );
    let owners_sign = owners_sign.json["id"].as_str().expect("id").to_owned();
    let nobody_account = "0196a1b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b";
    let wrong_password = "errada-123";

    use Method as M;
    #[rustfmt::skip]
    let rows = vec![
        // Auth (the auth API's own routes): public ones answer everyone alike.
        row(M::GET, "/api/auth/password-policy", Body::None,
            ["200", "200", "200", "200", "200", "200"]),
        row(M::POST, "/api/auth/signup", Body::Json(json!({"email": "", "password": "x", "displayName": "X"})),
            ["422 invalid-argument", "422 invalid-argument", "422 invalid-argument", "422 invalid-argument", "422 invalid-argument", "422 invalid-argument"]),
        row(M::POST, "/api/auth/login", Body::Json(json!({"email": "ninguem@padaria.test", "password": wrong_password})),
            ["401 invalid-credential", "401 invalid-credential", "401 invalid-credential", "401 invalid-credential", "401 invalid-credential", "401 invalid-credential"]),
        row(M::POST, "/api/auth/recover", Body::Json(json!({"email": "ninguem@padaria.test"})),
            ["204", "204", "204", "204", "204", "204"]),
        row(M::POST, "/api/auth/reset", Body::Json(json!({"oobCode": "nao-existe", "newPassword": "nova-senha-1"})),
            ["410 expired-action-code", "410 expired-action-code", "410 expired-action-code", "410 expired-action-code", "410 expired-action-code", "410 expired-action-code"]),
        row(M::POST, "/api/auth/verify-email", Body::Json(json!({"oobCode": "nao-existe"})),
            ["410 expired-action-code", "410 expired-action-code", "410 expired-action-code", "410 expired-action-code", "410 expired-action-code", "410 expired-action-code"]),
        // The refresh cookie (which each browser holds) is what the token call needs.
        row(M::POST, "/api/auth/token", Body::RefreshForm,
            ["401 invalid-credential", "200", "200", "200", "200", "200"]),
        row(M::GET, "/api/auth/me", Body::None,
            ["401 unauthenticated", "200", "200", "200", "200", "200"]),
        row(M::GET, "/api/auth/sessions", Body::None,
            ["401 unauthenticated", "200", "200", "200", "200", "200"]),
        row(M::DELETE, format!("/api/auth/sessions/{nobody_account}"), Body::None,
            ["401 unauthenticated", "404 not-found", "404 not-found", "404 not-found", "404 not-found", "404 not-found"]),
        row(M::POST, "/api/auth/send-verification", Body::None,
            ["401 unauthenticated", "204", "204", "204", "204", "204"]),
        // The BR Code preview is public.
        row(M::GET, "/api/brcode/normalize?name=Ana&city=Natal", Body::None,
            ["200", "200", "200", "200", "200", "200"]),
        // Own account: whoever is signed in acts on their own.
        row(M::GET, "/api/account/settings", Body::None,
            ["401 unauthenticated", "200", "200", "200", "200", "200"]),
        row(M::PATCH, "/api/account/settings", Body::Json(json!({})),
            ["401 unauthenticated", "200", "200", "200", "200", "200"]),
        row(M::PUT, "/api/account/photo", Body::Photo,
            ["401 unauthenticated", "200", "200", "200", "200", "200"]),
        row(M::POST, "/api/account/password", Body::Json(json!({"currentPassword": wrong_password, "newPassword": "nova-senha-1"})),
            ["401 unauthenticated", "400 wrong-password", "400 wrong-password", "400 wrong-password", "400 wrong-password", "400 wrong-password"]),
        row(M::POST, "/api/account/email", Body::Json(json!({"newEmail": "novo@padaria.test", "password": wrong_password})),
            ["401 unauthenticated", "400 wrong-password", "400 wrong-password", "400 wrong-password", "400 wrong-password", "400 wrong-password"]),
        row(M::POST, "/api/account/delete", Body::Json(json!({"password": wrong_password})),
            ["401 unauthenticated", "400 wrong-password", "400 wrong-password", "400 wrong-password", "400 wrong-password", "400 wrong-password"]),
        // Teams.
        row(M::GET, "/api/workspaces", Body::None,
            ["401 unauthenticated", "200", "200", "200", "200", "200"]),
        row(M::POST, "/api/invitations/accept", Body::Json(json!({"code": "nao-existe"})),
            ["401 unauthenticated", "410 expired-action-code", "410 expired-action-code", "410 expired-action-code", "410 expired-action-code", "410 expired-action-code"]),
        row(M::GET, account("/members"), Body::None,
            ["401 unauthenticated", "404 not-found", "200", "403 forbidden", "403 forbidden", "404 not-found"]),
        row(M::POST, account("/members"), Body::Json(json!({"email": "novo@padaria.test", "role": "operator"})),
            ["401 unauthenticated", "404 not-found", "201", "403 forbidden", "403 forbidden", "404 not-found"]),
        row(M::DELETE, account(&format!("/members/{pending}")), Body::None,
            ["401 unauthenticated", "404 not-found", "204", "403 forbidden", "403 forbidden", "404 not-found"]),
        // QR codes.
        row(M::GET, account("/qrcodes"), Body::None,
            ["401 unauthenticated", "404 not-found", "200", "200", "200", "404 not-found"]),
        row(M::POST, account("/qrcodes"), Body::Json(qrcode_body("Balcao")),
            ["401 unauthenticated", "404 not-found", "201", "201", "201", "404 not-found"]),
        row(M::GET, account(&format!("/qrcodes/{owners_code}")), Body::None,
            ["401 unauthenticated", "404 not-found", "200", "200", "403 forbidden", "404 not-found"]),
        row(M::GET, account(&format!("/qrcodes/{operators_code}")), Body::None,
            ["401 unauthenticated", "404 not-found", "200", "200", "200", "404 not-found"]),
        // Payment links: owner and manager (the full matrix: `payment_links`).
        row(M::GET, account("/payment-links"), Body::None,
            ["401 unauthenticated", "404 not-found", "200", "200", "403 forbidden", "404 not-found"]),
        row(M::POST, account(&format!("/payment-links/{nobody_account}/revoke")), Body::Json(json!({})),
            ["401 unauthenticated", "404 not-found", "404 not-found", "404 not-found", "403 forbidden", "404 not-found"]),
        // Bank connections (issue 33): owner and manager; a key that is not the account's is
        // 404 before anything reaches a bank.
        row(M::GET, account("/bank-connections"), Body::None,
            ["401 unauthenticated", "404 not-found", "200", "200", "403 forbidden", "404 not-found"]),
        row(M::GET, account(&format!("/bank-connections/{nobody_account}")), Body::None,
            ["401 unauthenticated", "404 not-found", "404 not-found", "404 not-found", "403 forbidden", "404 not-found"]),
        row(M::PUT, account(&format!("/bank-connections/{nobody_account}")), Body::Json(json!({"bank": "efi"})),
            ["401 unauthenticated", "404 not-found", "404 not-found", "404 not-found", "403 forbidden", "404 not-found"]),
        row(M::POST, account(&format!("/bank-connections/{nobody_account}/test")), Body::Json(json!({})),
            ["401 unauthenticated", "404 not-found", "404 not-found", "404 not-found", "403 forbidden", "404 not-found"]),
        row(M::POST, account(&format!("/bank-connections/{nobody_account}/webhook")), Body::Json(json!({})),
            ["401 unauthenticated", "404 not-found", "404 not-found", "404 not-found", "403 forbidden", "404 not-found"]),
        row(M::DELETE, account(&format!("/bank-connections/{nobody_account}")), Body::None,
            ["401 unauthenticated", "404 not-found", "404 not-found", "404 not-found", "403 forbidden", "404 not-found"]),
        // Refunds through the bank (issue 33): owner and manager; a payment the account does
        // not have is 404 before anything reaches a bank.
        row(M::POST, account("/payments/E00000000202611281200abcdefghijk/refunds"), Body::Json(json!({"amount": "1,00"})),
            ["401 unauthenticated", "404 not-found", "404 not-found", "404 not-found", "403 forbidden", "404 not-found"]),
        // Charges through the bank (issue 33): every role makes them, as codes; a key the account
        // does not have is refused before anything reaches a bank.
        row(M::POST, account("/qrcodes/cobrancas"), Body::Json(json!({"keyId": nobody_account, "amount": "1,00", "expiresInMinutes": 15, "merchantCity": "Recife"})),
            ["401 unauthenticated", "404 not-found", "422 invalid-argument", "422 invalid-argument", "422 invalid-argument", "404 not-found"]),
        // Saved signs: an operator handles only those of their own codes, and is told why (as
        // for codes; the full matrix: `saved_signs`).
        row(M::GET, account("/placas"), Body::None,
            ["401 unauthenticated", "404 not-found", "200", "200", "200", "404 not-found"]),
        row(M::GET, account(&format!("/placas/{owners_sign}")), Body::None,
            ["401 unauthenticated", "404 not-found", "200", "200", "403 forbidden", "404 not-found"]),
        // Someone else's workspace, and one that does not exist, look the same.
        row(M::GET, Person::in_account(&stranger_id, "/qrcodes"), Body::None,
            ["401 unauthenticated", "200", "404 not-found", "404 not-found", "404 not-found", "404 not-found"]),
        row(M::GET, Person::in_account(&stranger_id, "/members"), Body::None,
            ["401 unauthenticated", "200", "404 not-found", "404 not-found", "404 not-found", "404 not-found"]),
        row(M::GET, Person::in_account(nobody_account, "/qrcodes"), Body::None,
            ["401 unauthenticated", "404 not-found", "404 not-found", "404 not-found", "404 not-found", "404 not-found"]),
        row(M::GET, "/api/accounts/nao-e-uuid/qrcodes", Body::None,
            ["401 unauthenticated", "404 not-found", "404 not-found", "404 not-found", "404 not-found", "404 not-found"]),
        // Last, because it signs everyone out.
        row(M::POST, "/api/auth/revoke", Body::Json(json!({"allDevices": false})),
            ["401 unauthenticated", "204", "204", "204", "204", "204"]),
    ];

    let mut nobody = Browser::new(&app);
    let mut failures = Vec::new();
    for row in &rows {
        for (column, cell) in row.expected.iter().enumerate() {
            let browser = match column {
                0 => &mut nobody,
                1 => &mut people.stranger.browser,
                2 => &mut people.owner.browser,
                3 => &mut people.manager.browser,
                4 => &mut people.operator.browser,
                _ => &mut people.removed.browser,
            };
            let answer = send(browser, row).await;
            if let Some(problem) = mismatch(cell, &answer) {
                failures.push(format!(
                    "{} {} × {}: {problem}",
                    row.method, row.path, CALLERS[column]
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cells differ:\n{}",
        failures.len(),
        rows.len() * CALLERS.len(),
        failures.join("\n")
    );
    app.stop().await;
}
