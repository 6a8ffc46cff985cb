//! Every payments route × every kind of caller (no token, stranger, owner, manager, operator,
//! removed member), as `workspace::authorization_matrix` does for the older routes. Cells run in
//! table order, row by row and left to right, so a row can rely on the one before (the owner
//! turns the receiver on, so the manager's turn finds it on).

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use tests::TestApp;
use tests::browser::Browser;

use super::support::{code_with_txid, register_key};
use crate::workspace::support::{Person, team};

const CALLERS: [&str; 6] = [
    "no token", "stranger", "owner", "manager", "operator", "removed",
];

#[tokio::test]
async fn every_payments_route_answers_each_kind_of_caller_as_the_contract_says() {
    let app = TestApp::spawn().await;
    let mut people = team(&app).await;
    let account = people.owner.account_id.clone();
    let stranger = people.stranger.account_id.clone();
    let path = |rest: &str| Person::in_account(&account, rest);
    let key = register_key(&mut people.owner).await;
    let owners_code = code_with_txid(&mut people.owner, &account, "dona1").await;
    let operators_code = code_with_txid(&mut people.operator, &account, "caixa1").await;
    let record = async |person: &mut Person, code: &str| {
        let made = person
            .post(
                &path("/payments"),
                &json!({"qrcodeId": code, "amount": "2,00"}),
            )
            .await;
        assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
        made.json["reference"]
            .as_str()
            .expect("reference")
            .to_owned()
    };
    let owners_payment = record(&mut people.owner, &owners_code).await;
    let operators_payment = record(&mut people.operator, &operators_code).await;
    let receiver = path(&format!("/api-pix-receivers/{key}"));
    let no_reason = json!({"reason": ""});

    use Method as M;
    #[rustfmt::skip]
    let rows: Vec<(Method, String, Option<Value>, [&str; 6])> = vec![
        (M::GET, receiver.clone(), None,
            ["401 unauthenticated", "404 not-found", "200", "200", "403 forbidden", "404 not-found"]),
        (M::POST, receiver.clone(), Some(json!({})),
            ["401 unauthenticated", "404 not-found", "201", "409 api-pix-receiver-on", "403 forbidden", "404 not-found"]),
        (M::POST, format!("{receiver}/rotate"), Some(json!({})),
            ["401 unauthenticated", "404 not-found", "200", "200", "403 forbidden", "404 not-found"]),
        (M::DELETE, receiver.clone(), None,
            ["401 unauthenticated", "404 not-found", "204", "404 not-found", "403 forbidden", "404 not-found"]),
        (M::GET, path(&format!("/api-pix-receivers/{}", uuid::Uuid::now_v7())), None,
            ["401 unauthenticated", "404 not-found", "404 not-found", "404 not-found", "403 forbidden", "404 not-found"]),
        (M::GET, path("/payments"), None,
            ["401 unauthenticated", "404 not-found", "200", "200", "200", "404 not-found"]),
        (M::GET, path(&format!("/payments/{owners_payment}")), None,
            ["401 unauthenticated", "404 not-found", "200", "200", "403 forbidden", "404 not-found"]),
        (M::GET, path(&format!("/payments/{operators_payment}")), None,
            ["401 unauthenticated", "404 not-found", "200", "200", "200", "404 not-found"]),
        (M::GET, path("/payments/manual-nao-existe"), None,
            ["401 unauthenticated", "404 not-found", "404 not-found", "404 not-found", "404 not-found", "404 not-found"]),
        (M::POST, path("/payments"), Some(json!({"qrcodeId": owners_code, "amount": "1,00"})),
            ["401 unauthenticated", "404 not-found", "201", "201", "403 forbidden", "404 not-found"]),
        (M::POST, path("/payments"), Some(json!({"qrcodeId": operators_code, "amount": "1,00"})),
            ["401 unauthenticated", "404 not-found", "201", "201", "201", "404 not-found"]),
        (M::POST, path("/payments"), Some(json!({"amount": "1,00"})),
            ["401 unauthenticated", "404 not-found", "201", "201", "403 forbidden", "404 not-found"]),
        (M::POST, path(&format!("/payments/{owners_payment}/void")), Some(no_reason.clone()),
            ["401 unauthenticated", "404 not-found", "422 payment-reason-invalid", "422 payment-reason-invalid", "403 forbidden", "404 not-found"]),
        (M::POST, path(&format!("/payments/{operators_payment}/void")), Some(no_reason.clone()),
            ["401 unauthenticated", "404 not-found", "422 payment-reason-invalid", "422 payment-reason-invalid", "422 payment-reason-invalid", "404 not-found"]),
        (M::GET, path("/daily-totals"), None,
            ["401 unauthenticated", "404 not-found", "200", "200", "200", "404 not-found"]),
        // Issue 15 item 6: the transactions screen.
        (M::GET, path("/payments?de=2026-11-01&ate=2026-11-30&situacao=received"), None,
            ["401 unauthenticated", "404 not-found", "200", "200", "200", "404 not-found"]),
        (M::GET, path("/payments?de=ontem"), None,
            ["401 unauthenticated", "404 not-found", "422 invalid-argument", "422 invalid-argument", "422 invalid-argument", "404 not-found"]),
        (M::GET, path("/payments/summary?de=2026-11-01&ate=2026-11-30"), None,
            ["401 unauthenticated", "404 not-found", "200", "200", "200", "404 not-found"]),
        (M::GET, path("/payments/csv"), None,
            ["401 unauthenticated", "404 not-found", "200", "200", "200", "404 not-found"]),
        (M::GET, path(&format!("/payments/{owners_payment}/history")), None,
            ["401 unauthenticated", "404 not-found", "200", "200", "403 forbidden", "404 not-found"]),
        (M::GET, path(&format!("/payments/{operators_payment}/history")), None,
            ["401 unauthenticated", "404 not-found", "200", "200", "200", "404 not-found"]),
        (M::GET, path("/payments/manual-nao-existe/history"), None,
            ["401 unauthenticated", "404 not-found", "404 not-found", "404 not-found", "404 not-found", "404 not-found"]),
        (M::GET, Person::in_account(&stranger, "/payments/summary"), None,
            ["401 unauthenticated", "200", "404 not-found", "404 not-found", "404 not-found", "404 not-found"]),
        (M::GET, Person::in_account(&stranger, "/payments/csv"), None,
            ["401 unauthenticated", "200", "404 not-found", "404 not-found", "404 not-found", "404 not-found"]),
        (M::GET, Person::in_account(&stranger, "/payments"), None,
            ["401 unauthenticated", "200", "404 not-found", "404 not-found", "404 not-found", "404 not-found"]),
        (M::GET, Person::in_account(&stranger, "/daily-totals"), None,
            ["401 unauthenticated", "200", "404 not-found", "404 not-found", "404 not-found", "404 not-found"]),
    ];

    let mut nobody = Browser::new(&app);
    let mut failures = Vec::new();
    for (method, route, body, expected) in &rows {
        for (column, cell) in expected.iter().enumerate() {
            let browser = match column {
                0 => &mut nobody,
                1 => &mut people.stranger.browser,
                2 => &mut people.owner.browser,
                3 => &mut people.manager.browser,
                4 => &mut people.operator.browser,
                _ => &mut people.removed.browser,
            };
            let answer = browser
                .request(
                    method.clone(),
                    route,
                    body.as_ref().map(|_| "application/json"),
                    body.as_ref().map(|b| b.to_string().into_bytes()),
                )
                .await;
            let (status, code) = cell.split_once(' ').unwrap_or((cell, ""));
            let status_ok = answer.status.as_u16().to_string() == status;
            if !status_ok || (!code.is_empty() && answer.code() != code) {
                failures.push(format!(
                    "{method} {route} × {}: expected {cell}, got {} {} ({})",
                    CALLERS[column],
                    answer.status.as_u16(),
                    answer.code(),
                    answer.text.chars().take(160).collect::<String>()
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} cells differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    app.stop().await;
}
