//! Payments typed in by hand: the owner or a manager for any code, an operator for their own;
//! voiding; and a bank's later report of the same payment.

use reqwest::StatusCode;
use serde_json::json;
use tests::TestApp;

use super::support::{
    CODE_TXID, code_with_txid, delivery, post_delivery, register_key, spec_example, turn_on,
    wait_for_payments,
};
use crate::workspace::support::{Person, team};

#[tokio::test]
async fn people_record_and_void_by_hand_within_their_role_and_the_bank_confirms_a_typed_payment() {
    let app = TestApp::spawn().await;
    let db = app.db().await;
    let mut people = team(&app).await;
    let account = people.owner.account_id.clone();
    let path = |rest: &str| Person::in_account(&account, rest);
    let owners_code = code_with_txid(&mut people.owner, &account, CODE_TXID).await;
    let operators_code = code_with_txid(&mut people.operator, &account, "caixa1").await;

    // The operator records on their own code; not on the owner's.
    let own = people
        .operator
        .post(
            &path("/payments"),
            &json!({"qrcodeId": operators_code, "amount": "12,50", "note": "pago no balcão"}),
        )
        .await;
    assert_eq!(own.status, StatusCode::CREATED, "{}", own.text);
    assert_eq!(own.json["amountCentavos"], 1_250);
    assert_eq!(own.json["source"], "manual");
    assert!(
        own.json.get("payer").is_none(),
        "operators never see who paid"
    );
    let others = people
        .operator
        .post(
            &path("/payments"),
            &json!({"qrcodeId": owners_code, "amount": "5"}),
        )
        .await;
    assert_eq!(others.status, StatusCode::FORBIDDEN, "{}", others.text);
    let bad = people
        .manager
        .post(
            &path("/payments"),
            &json!({"qrcodeId": owners_code, "amount": "1,234"}),
        )
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
    assert_eq!(bad.field(), Some("amount"));

    // The manager types in pixWebhook1's payment (with its end-to-end id) before the bank says so.
    let typed = people
        .manager
        .post(
            &path("/payments"),
            &json!({"qrcodeId": owners_code, "amount": "100,00", "paidAt": "2020-09-09T20:14:00Z",
                    "endToEndId": "E12345678202009091221kkkkkkkkkkk"}),
        )
        .await;
    assert_eq!(typed.status, StatusCode::CREATED, "{}", typed.text);
    let again = people
        .owner
        .post(
            &path("/payments"),
            &json!({"amount": "100,00", "endToEndId": "E12345678202009091221kkkkkkkkkkk"}),
        )
        .await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.text);
    assert_eq!(again.code(), "payment-already-recorded");

    // The owner voids the operator's typed payment; voiding twice is refused.
    let reference = own.json["reference"]
        .as_str()
        .expect("reference")
        .to_owned();
    let voided = people
        .owner
        .post(
            &path(&format!("/payments/{reference}/void")),
            &json!({"reason": "digitado errado"}),
        )
        .await;
    assert_eq!(voided.status, StatusCode::OK, "{}", voided.text);
    assert_eq!(voided.json["status"], "voided");
    let twice = people
        .owner
        .post(
            &path(&format!("/payments/{reference}/void")),
            &json!({"reason": "de novo"}),
        )
        .await;
    assert_eq!(twice.code(), "payment-already-voided");

    // The bank reports pixWebhook1: one payment, the bank's amount, no longer voidable.
    let key_id = register_key(&db, &account).await;
    let url = turn_on(&mut people.owner, key_id).await;
    let (status, answer) = post_delivery(
        &app,
        &url,
        delivery(vec![spec_example("pixWebhook1")]),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    wait_for_payments(&db, 2).await;
    let confirmed = tests::eventually("the bank's confirmation", async || {
        let answer = people
            .owner
            .get(&path("/payments/E12345678202009091221kkkkkkkkkkk"))
            .await;
        (answer.json["confirmedBy"] == "api-pix").then_some(answer)
    })
    .await;
    assert_eq!(confirmed.json["amountCentavos"], 11_000);
    assert_eq!(confirmed.json["source"], "manual");
    let refused = people
        .owner
        .post(
            &path("/payments/E12345678202009091221kkkkkkkkkkk/void"),
            &json!({"reason": "x"}),
        )
        .await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    assert_eq!(refused.code(), "payment-not-manual");

    // Totals: the voided one counts for nothing; the confirmed one at the bank's amount.
    let totals = people.owner.get(&path("/daily-totals")).await;
    assert_eq!(totals.json["total"]["payments"], 1, "{}", totals.text);
    assert_eq!(totals.json["total"]["receivedCentavos"], 11_000);
    let operators = people.operator.get(&path("/daily-totals")).await;
    assert_eq!(operators.json["total"]["payments"], 0, "{}", operators.text);
    let operators_list = people.operator.get(&path("/payments")).await;
    assert_eq!(
        operators_list.json["payments"].as_array().map(Vec::len),
        Some(1),
        "only their code's"
    );
    app.stop().await;
}
