//! Payments typed in by hand: the owner or a manager for any code, an operator for their own;
//! voiding; and a bank's later report of the same payment.

use reqwest::StatusCode;
use serde_json::json;
use tests::TestApp;

use super::support::{
    CODE_TXID, code_with_txid, delivery, payment_events, post_delivery, register_key, spec_example,
    turn_on, wait_for_payments,
};
use crate::workspace::support::{Person, sign_up, team};

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
            &json!({"qrcodeId": owners_code, "amount": "100,00", "paidAt": "2026-09-09T20:14:00Z",
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
    let key_id = register_key(&mut people.owner).await;
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

#[tokio::test]
async fn a_payment_sent_again_with_its_idempotency_key_is_recorded_once_and_other_values_are_409() {
    let app = TestApp::spawn().await;
    let db = app.db().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let path = Person::in_account(&owner.account_id, "/payments");
    owner.browser.set_header("idempotency-key", "balcao-1");
    let first = owner
        .post(&path, &json!({"amount": "5,00", "note": "mesa 3"}))
        .await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text);
    // The same request, the amount spelt another way: the first answer again.
    let again = owner
        .post(&path, &json!({"amount": "5", "note": "mesa 3"}))
        .await;
    assert_eq!(again.status, StatusCode::CREATED, "{}", again.text);
    assert_eq!(again.header("idempotent-replayed"), Some("true"));
    assert_eq!(again.json["reference"], first.json["reference"]);
    for other in [
        json!({"amount": "6,00", "note": "mesa 3"}),
        json!({"amount": "5,00", "note": "mesa 4"}),
        json!({"amount": "5,00", "note": "mesa 3", "endToEndId": "E12345678202611271221kkkkkkkkkkk"}),
    ] {
        let refused = owner.post(&path, &other).await;
        assert_eq!(
            refused.status,
            StatusCode::CONFLICT,
            "{other}: {}",
            refused.text
        );
        assert_eq!(refused.code(), "idempotency-key-reused");
    }
    // With an end-to-end id, the key holds too.
    owner.browser.set_header("idempotency-key", "balcao-2");
    let typed = json!({"amount": "7,00", "endToEndId": "E12345678202611271221aaaaaaaaaaa"});
    let with_e2e = owner.post(&path, &typed).await;
    assert_eq!(with_e2e.status, StatusCode::CREATED, "{}", with_e2e.text);
    let retried = owner.post(&path, &typed).await;
    assert_eq!(retried.status, StatusCode::CREATED, "{}", retried.text);
    assert_eq!(retried.header("idempotent-replayed"), Some("true"));
    let other_e2e = owner
        .post(
            &path,
            &json!({"amount": "7,00", "endToEndId": "E12345678202611271221bbbbbbbbbbb"}),
        )
        .await;
    assert_eq!(other_e2e.status, StatusCode::CONFLICT, "{}", other_e2e.text);
    assert_eq!(other_e2e.code(), "idempotency-key-reused");

    assert_eq!(
        payment_events(&db).await,
        2,
        "two payments, whatever was retried"
    );
    wait_for_payments(&db, 2).await;
    app.stop().await;
}

#[tokio::test]
async fn a_payment_of_nothing_or_too_much_or_dated_before_pix_or_ahead_of_the_clock_is_refused_by_field()
 {
    let app = TestApp::spawn().await;
    let db = app.db().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let path = Person::in_account(&owner.account_id, "/payments");
    let before_pix = "A data não pode ser anterior a 03/11/2020, quando o Pix começou.";
    for (body, field, message) in [
        (
            json!({"amount": "0,00"}),
            "amount",
            "O valor deve ser maior que zero.",
        ),
        (
            json!({"amount": "10.000.000.000,00"}),
            "amount",
            "O valor pode ser de no máximo R$ 9.999.999.999,99.",
        ),
        (
            json!({"amount": "184467440737095516,15"}),
            "amount",
            "O valor pode ser de no máximo R$ 9.999.999.999,99.",
        ),
        (
            json!({"amount": "5", "paidAt": "0000-01-01T00:00:00Z"}),
            "paidAt",
            before_pix,
        ),
        (
            json!({"amount": "5", "paidAt": "2020-11-02T23:59:00-03:00"}),
            "paidAt",
            before_pix,
        ),
        (
            json!({"amount": "5", "paidAt": "9999-12-31T23:59:59Z"}),
            "paidAt",
            "A data não pode estar no futuro.",
        ),
    ] {
        let refused = owner.post(&path, &body).await;
        assert_eq!(
            refused.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{body}: {}",
            refused.text
        );
        assert_eq!(refused.field(), Some(field), "{body}");
        assert_eq!(refused.message(), message, "{body}");
    }
    // U+0000 cannot be stored: refused by the API's JSON reader, naming the field.
    let nul = owner
        .post(&path, &json!({"amount": "5", "note": "mesa\u{0}3"}))
        .await;
    assert_eq!(nul.status, StatusCode::BAD_REQUEST, "{}", nul.text);
    assert_eq!(nul.code(), "invalid-text");
    assert_eq!(nul.field(), Some("note"));
    assert_eq!(payment_events(&db).await, 0, "nothing was recorded");

    // The first day of Pix, in São Paulo, is fine.
    let first_day = owner
        .post(
            &path,
            &json!({"amount": "5", "paidAt": "2020-11-03T00:00:00-03:00"}),
        )
        .await;
    assert_eq!(first_day.status, StatusCode::CREATED, "{}", first_day.text);
    app.stop().await;
}
