//! Issue 32, items 1 and 2: a sign is paid by many people, so its payer page opens ready to pay
//! for every customer and confirms a payment only to the page that was open when it arrived; and
//! the name the page asks the payer to check is the one their bank shows, the key holder's.

use reqwest::StatusCode;
use serde_json::json;
use tests::TestApp;

use super::live::Stream;
use super::support::wait_for_payments;
use crate::workspace::support::{Person, register_key_as, sign_up};

/// The status line of a page that says nothing yet (no payment seen while it was open).
const READY: &str = r#"<p class="paid-status" role="status" hidden></p>"#;

/// A code of R$ 12,50 named "Loja da Bia", made with the registered key `key_id`.
async fn code_of_key(person: &mut Person, key_id: &str) -> String {
    let path = Person::in_account(&person.account_id, "/qrcodes");
    let made = person
        .post(
            &path,
            &json!({"keyId": key_id, "merchantName": "Loja da Bia", "merchantCity": "Recife",
                    "amount": "12,50"}),
        )
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    made.json["id"].as_str().expect("id").to_owned()
}

#[tokio::test]
async fn a_paid_sign_opens_ready_to_pay_for_the_next_customer_and_confirms_only_to_the_one_who_paid()
 {
    // Given a sign of an account, in the sandbox
    let app = TestApp::spawn_with(|s| s.payments.sandbox_payments = true).await;
    let db = app.db().await;
    let mut owner = sign_up(&app, "bia@loja.test", "Beatriz Lima").await;
    let key = register_key_as(&mut owner, "bia@loja.test", "Beatriz Lima").await;
    let code = code_of_key(&mut owner, &key).await;
    let page = format!("/pagamento/{code}");
    assert!(app.get_text(&page).await.contains(READY));
    // and a customer's page open at it
    let mut open = Stream::open(&app, &format!("{page}/eventos"), None, None).await;
    let opening = open
        .next_event("pagamento")
        .await
        .expect("the first answer");
    assert_eq!(opening.json(), json!({"pago": false}));

    // When a customer pays ("Simular pagamento")
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    let simulated = client
        .post(app.url(&format!("{page}/simular-pagamento")))
        .send()
        .await
        .expect("answer");
    assert_eq!(simulated.status(), StatusCode::SEE_OTHER);
    wait_for_payments(&db, 1).await;
    let back = simulated.headers()["location"]
        .to_str()
        .expect("ascii")
        .to_owned();

    // Then the page that was open hears of it
    let paid = open.next_event("pagamento").await.expect("paid");
    assert_eq!(paid.json(), json!({"pago": true}));
    // and so does the page the payer is sent back to, which says after what it listens
    let desde = back
        .strip_prefix(&format!("{page}?desde="))
        .unwrap_or_else(|| panic!("{back} is the payer page with ?desde="));
    let mut returned =
        Stream::open(&app, &format!("{page}/eventos?desde={desde}"), None, None).await;
    let confirmed = returned.next_event("pagamento").await.expect("paid");
    assert_eq!(confirmed.json(), json!({"pago": true}));

    // But the next customer, who opens the page afterwards, sees it ready to pay
    let later = app.get_text(&page).await;
    assert!(later.contains(READY), "{later}");
    assert!(!later.contains("Pagamento recebido"), "{later}");
    assert!(later.contains("Copiar código"));
    let mut next = Stream::open(&app, &format!("{page}/eventos"), None, None).await;
    let first = next
        .next_event("pagamento")
        .await
        .expect("the first answer");
    assert_eq!(first.json(), json!({"pago": false}));
    app.stop().await;
}

#[tokio::test]
async fn the_payer_page_and_the_sign_ask_to_check_the_key_holder_the_bank_shows() {
    // Given a code named "LOJA DA BIA" made with a key registered to Beatriz Lima
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "bia@loja.test", "Beatriz Lima").await;
    let key = register_key_as(&mut owner, "bia@loja.test", "Beatriz Lima").await;
    let code = code_of_key(&mut owner, &key).await;

    // When a payer opens its page and its print page
    let page = app.get_text(&format!("/pagamento/{code}")).await;
    let print = app.get_text(&format!("/pagamento/{code}/placa")).await;

    // Then both name the holder, the name the payer's bank shows, and not the code's name
    assert!(
        page.contains("Confira se o app mostra <strong>Beatriz Lima</strong> como quem recebe"),
        "{page}"
    );
    assert!(page.contains("<dt>Nome no app do banco</dt><dd>Beatriz Lima</dd>"));
    assert!(
        !page.contains("Confira se o nome de quem recebe é"),
        "{page}"
    );
    assert!(
        print.contains(&domain::sign::anti_fraud_line(Some("Beatriz Lima"))),
        "{print}"
    );
    assert!(
        !print.contains("antes de confirmar: LOJA DA BIA"),
        "{print}"
    );

    // And when the holder's name is corrected, the page (served from memory) follows at once
    let renamed = owner
        .patch(
            &Person::in_account(&owner.account_id, &format!("/keys/{key}")),
            &json!({"holderName": "Beatriz Lima Souza"}),
        )
        .await;
    assert_eq!(renamed.status, StatusCode::OK, "{}", renamed.text);
    tests::eventually("the page names the corrected holder", async || {
        app.get_text(&format!("/pagamento/{code}"))
            .await
            .contains("<strong>Beatriz Lima Souza</strong>")
            .then_some(())
    })
    .await;
    app.stop().await;
}
