//! Every keys route × every kind of caller: the owner and a manager manage keys, an operator
//! only lists and reads them (to make codes), a removed member and a stranger get 404, as does
//! another account's key named under one's own account.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use tests::TestApp;
use tests::browser::Answer;

use crate::workspace::support::{Person, team};

/// Callers in column order.
const CALLERS: [&str; 6] = [
    "no token", "stranger", "owner", "manager", "operator", "removed",
];

struct Route {
    method: Method,
    path: String,
    /// The body for caller `column` (a register needs a key of its own per caller).
    body: fn(usize) -> Option<Value>,
    expected: [&'static str; 6],
}

fn none(_: usize) -> Option<Value> {
    None
}

fn new_key(column: usize) -> Option<Value> {
    Some(json!({"pixKey": format!("caixa{column}@padaria.test"), "holderName": "Padaria"}))
}

fn names(_: usize) -> Option<Value> {
    Some(json!({"holderName": "Padaria Sol", "label": "Balcão"}))
}

fn empty(_: usize) -> Option<Value> {
    Some(json!({}))
}

fn matches(cell: &str, answer: &Answer) -> bool {
    let (status, code) = cell.split_once(' ').unwrap_or((cell, ""));
    answer.status.as_u16() == status.parse::<u16>().expect("status")
        && (code.is_empty() || answer.code() == code)
}

#[tokio::test]
async fn every_keys_route_answers_each_kind_of_caller_as_the_contract_says() {
    let app = TestApp::spawn().await;
    let mut people = team(&app).await;
    let owner_id = people.owner.account_id.clone();
    let stranger_id = people.stranger.account_id.clone();
    let keys = |rest: &str| Person::in_account(&owner_id, &format!("/keys{rest}"));

    // What the rows point at: two keys of the owner's (one is removed by the matrix), and one
    // of the stranger's own account.
    let made = people
        .owner
        .post(
            &keys(""),
            &json!({"pixKey": "loja@padaria.test", "holderName": "Padaria"}),
        )
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    let key = made.json["id"].as_str().expect("id").to_owned();
    let doomed = people
        .owner
        .post(
            &keys(""),
            &json!({"pixKey": "52998224725", "holderName": "Padaria"}),
        )
        .await;
    let doomed = doomed.json["id"].as_str().expect("id").to_owned();
    let strangers = people
        .stranger
        .post(
            &Person::in_account(&stranger_id, "/keys"),
            &json!({"pixKey": "vizinho@outra.test", "holderName": "Vizinho"}),
        )
        .await;
    assert_eq!(strangers.status, StatusCode::CREATED, "{}", strangers.text);
    let strangers_key = strangers.json["id"].as_str().expect("id").to_owned();
    let nobody_key = "0196a1b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b";

    use Method as M;
    #[rustfmt::skip]
    let routes = vec![
        Route { method: M::GET, path: keys(""), body: none,
            expected: ["401 unauthenticated", "404 not-found", "200", "200", "200", "404 not-found"] },
        Route { method: M::POST, path: keys(""), body: new_key,
            expected: ["401 unauthenticated", "404 not-found", "201", "201", "403 forbidden", "404 not-found"] },
        Route { method: M::GET, path: keys(&format!("/{key}")), body: none,
            expected: ["401 unauthenticated", "404 not-found", "200", "200", "200", "404 not-found"] },
        Route { method: M::PATCH, path: keys(&format!("/{key}")), body: names,
            expected: ["401 unauthenticated", "404 not-found", "200", "200", "403 forbidden", "404 not-found"] },
        Route { method: M::POST, path: keys(&format!("/{key}/default")), body: empty,
            expected: ["401 unauthenticated", "404 not-found", "200", "200", "403 forbidden", "404 not-found"] },
        Route { method: M::DELETE, path: keys(&format!("/{doomed}")), body: none,
            expected: ["401 unauthenticated", "404 not-found", "204", "204", "403 forbidden", "404 not-found"] },
        // Another account's key named under the owner's account, and a key that does not exist.
        Route { method: M::GET, path: keys(&format!("/{strangers_key}")), body: none,
            expected: ["401 unauthenticated", "404 not-found", "404 not-found", "404 not-found", "404 not-found", "404 not-found"] },
        Route { method: M::PATCH, path: keys(&format!("/{strangers_key}")), body: names,
            expected: ["401 unauthenticated", "404 not-found", "404 not-found", "404 not-found", "403 forbidden", "404 not-found"] },
        Route { method: M::POST, path: keys(&format!("/{strangers_key}/default")), body: empty,
            expected: ["401 unauthenticated", "404 not-found", "404 not-found", "404 not-found", "403 forbidden", "404 not-found"] },
        Route { method: M::DELETE, path: keys(&format!("/{strangers_key}")), body: none,
            expected: ["401 unauthenticated", "404 not-found", "404 not-found", "404 not-found", "403 forbidden", "404 not-found"] },
        Route { method: M::DELETE, path: keys(&format!("/{nobody_key}")), body: none,
            expected: ["401 unauthenticated", "404 not-found", "404 not-found", "404 not-found", "403 forbidden", "404 not-found"] },
        Route { method: M::GET, path: keys("/nao-e-uuid"), body: none,
            expected: ["401 unauthenticated", "404 not-found", "404 not-found", "404 not-found", "404 not-found", "404 not-found"] },
        // The stranger's own keys are theirs alone.
        Route { method: M::GET, path: Person::in_account(&stranger_id, "/keys"), body: none,
            expected: ["401 unauthenticated", "200", "404 not-found", "404 not-found", "404 not-found", "404 not-found"] },
    ];

    let mut nobody = tests::browser::Browser::new(&app);
    let mut failures = Vec::new();
    for route in &routes {
        for (column, cell) in route.expected.iter().enumerate() {
            let browser = match column {
                0 => &mut nobody,
                1 => &mut people.stranger.browser,
                2 => &mut people.owner.browser,
                3 => &mut people.manager.browser,
                4 => &mut people.operator.browser,
                _ => &mut people.removed.browser,
            };
            let body = (route.body)(column);
            let answer = browser
                .request(
                    route.method.clone(),
                    &route.path,
                    body.as_ref().map(|_| "application/json"),
                    body.map(|b| b.to_string().into_bytes()),
                )
                .await;
            if !matches(cell, &answer) {
                failures.push(format!(
                    "{} {} × {}: expected {cell}, got {} {} ({})",
                    route.method,
                    route.path,
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

    // Nothing the refused callers sent was registered: the owner's ring holds the owner's key,
    // the manager's, and nothing of the operator's.
    let listed = people.owner.get(&keys("")).await;
    let mut registered: Vec<String> = listed.json["keys"]
        .as_array()
        .expect("keys")
        .iter()
        .map(|k| k["pixKey"].as_str().unwrap_or_default().to_owned())
        .collect();
    registered.sort();
    assert_eq!(
        registered,
        vec![
            "caixa2@padaria.test",
            "caixa3@padaria.test",
            "loja@padaria.test"
        ]
    );
    app.stop().await;
}
