//! The sandbox: "Simular pagamento" on a payer page sends a synthetic API Pix delivery through
//! the real receiver.

use reqwest::StatusCode;
use tests::TestApp;

use super::support::{code_with_txid, wait_for_payments};
use crate::workspace::support::sign_up;

#[tokio::test]
async fn simulate_payment_goes_through_the_receiver_and_sends_the_payer_back_to_hear_of_it() {
    let app = TestApp::spawn_with(|s| s.payments.sandbox_payments = true).await;
    let db = app.db().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona da Padaria").await;
    let account = owner.account_id.clone();
    let code = code_with_txid(&mut owner, &account, "placa0001").await;
    let page = app.get_text(&format!("/pagamento/{code}")).await;
    assert!(page.contains("Simular pagamento"), "the button is offered");
    assert!(!page.contains("Pagamento recebido"));

    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    let simulated = client
        .post(app.url(&format!("/pagamento/{code}/simular-pagamento")))
        .send()
        .await
        .expect("answer");
    assert_eq!(simulated.status(), StatusCode::SEE_OTHER);
    // Back to the payer page, whose live stream hears of the payments after `desde`
    // (`payments::payer_page` follows it).
    let back = simulated.headers()["location"].to_str().expect("ascii");
    assert!(
        back.starts_with(&format!("/pagamento/{code}?desde=")),
        "{back}"
    );
    wait_for_payments(&db, 1).await;
    let (source, actor, amount): (String, String, i64) = sqlx::query_as(
        "select p.source, e.metadata->>'actor', p.amount_centavos
           from payments p join events e on e.stream_type = 'payment' and e.event_type = 'PaymentRecorded'",
    )
    .fetch_one(&db)
    .await
    .expect("one payment");
    assert_eq!(
        (source.as_str(), actor.as_str(), amount),
        ("sandbox", "sandbox", 1_250)
    );
    let page = app.get_text(back).await;
    assert!(
        !page.contains("Pagamento simulado no Balcão"),
        "never who paid or what they wrote"
    );
    app.stop().await;
}

#[tokio::test]
async fn without_the_sandbox_there_is_no_button_and_no_simulation() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona da Padaria").await;
    let account = owner.account_id.clone();
    let code = code_with_txid(&mut owner, &account, "placa0001").await;
    let page = app.get_text(&format!("/pagamento/{code}")).await;
    assert!(!page.contains("Simular pagamento"));
    let answer = app
        .client()
        .post(app.url(&format!("/pagamento/{code}/simular-pagamento")))
        .send()
        .await
        .expect("answer");
    assert_eq!(answer.status(), StatusCode::NOT_FOUND);
    app.stop().await;
}
