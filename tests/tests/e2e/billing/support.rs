//! What the billing tests share: a sandbox app, an upgrade paid with "Simular pagamento".

use reqwest::StatusCode;
use serde_json::{Value, json};
use tests::TestApp;

use crate::workspace::support::Person;

/// A valid CPF (check digits hold), for the payer.
pub const CPF: &str = "529.982.247-25";

/// An app whose billing provider is the built-in sandbox (no Asaas key, sandbox on).
pub async fn sandbox_app() -> TestApp {
    TestApp::spawn_with(|settings| settings.payments.sandbox_payments = true).await
}

/// The account's subscription path.
pub fn subscription(owner: &Person, rest: &str) -> String {
    Person::in_account(&owner.account_id, &format!("/subscription{rest}"))
}

/// `owner` asks for `plan`; answers the charge id.
pub async fn upgrade(owner: &mut Person, plan: &str) -> String {
    let path = subscription(owner, "/upgrade");
    let answer = owner
        .post(
            &path,
            &json!({"plan": plan, "payerName": "Dona da Padaria", "document": CPF}),
        )
        .await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    answer.json["chargeId"]
        .as_str()
        .expect("chargeId")
        .to_owned()
}

/// `owner` upgrades to Premium mensal and pays in the sandbox; answers the subscription.
pub async fn go_premium(owner: &mut Person) -> Value {
    let charge = upgrade(owner, "premium-mensal").await;
    let paid = owner
        .post(
            &subscription(owner, &format!("/charges/{charge}/simulate")),
            &json!({}),
        )
        .await;
    assert_eq!(paid.status, StatusCode::OK, "{}", paid.text);
    assert_eq!(paid.json["charge"]["status"], "paid", "{}", paid.text);
    let now = owner.get(&subscription(owner, "")).await;
    assert_eq!(now.json["plan"]["id"], "premium-mensal", "{}", now.text);
    now.json
}

/// Asserts a 402 naming the limit and offering Premium.
pub fn assert_plan_limit(answer: &tests::browser::Answer, words: &str) {
    assert_eq!(
        answer.status,
        StatusCode::PAYMENT_REQUIRED,
        "{}",
        answer.text
    );
    assert_eq!(answer.code(), "plan-limit-reached", "{}", answer.text);
    let message = answer.message();
    assert!(message.contains(words), "{message}");
    assert!(message.contains("Premium"), "{message}");
}
