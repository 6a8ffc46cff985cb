//! The payer page is served from memory while its code stays as it was, and changes as soon as
//! the code is archived (`gateway::payer_cache`); a payment does not change it.

use reqwest::StatusCode;
use reqwest::header::{CONTENT_ENCODING, ETAG, IF_NONE_MATCH, VARY};
use serde_json::json;
use tests::TestApp;

use super::support::{code_with_txid, wait_for_payments};
use crate::workspace::support::{Person, sign_up};

/// How the gateway says it served a payer page (`gateway::pages::payment::SERVED_HEADER`).
const SERVED: &str = "x-balcao-pagina";

/// The payer page of `code`: its header saying how it was served, and its HTML.
async fn payer_page(app: &TestApp, code: &str) -> (String, String) {
    let response = app.get(&format!("/pagamento/{code}")).await;
    let how = response
        .headers()
        .get(SERVED)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    (how, response.text().await.expect("a page"))
}

#[tokio::test]
async fn a_payer_page_is_served_from_memory_until_its_code_is_archived() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona da Padaria").await;
    let account = owner.account_id.clone();
    let code = code_with_txid(&mut owner, &account, "placa0001").await;
    let (how, first) = payer_page(&app, &code).await;
    assert!(first.contains("Copiar código"), "{first}");
    assert_eq!(how, "nova", "the first page is rendered");

    let (how, again) = payer_page(&app, &code).await;
    assert_eq!(how, "memoria", "no row was read: the page came from memory");
    assert_eq!(again, first);

    let archived = owner
        .post(
            &Person::in_account(&account, &format!("/qrcodes/{code}/arquivar")),
            &json!({}),
        )
        .await;
    assert_eq!(archived.status, StatusCode::OK, "{}", archived.text);
    let (how, page) = payer_page(&app, &code).await;
    assert!(
        page.contains("Este QR code não recebe mais pagamentos"),
        "the archive is seen at once by whoever archived: {page}"
    );
    assert!(!page.contains("Copiar código"));
    assert_eq!(how, "nova", "rendered from the rows again");
    app.stop().await;
}

#[tokio::test]
async fn a_payment_leaves_the_payer_page_as_it_was_ready_for_the_next_customer() {
    let app = TestApp::spawn_with(|s| s.payments.sandbox_payments = true).await;
    let db = app.db().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona da Padaria").await;
    let account = owner.account_id.clone();
    let code = code_with_txid(&mut owner, &account, "placa0001").await;
    let ready = r#"<p class="paid-status" role="status" hidden></p>"#;
    let before = app.get_text(&format!("/pagamento/{code}")).await;
    assert!(before.contains(ready), "{before}");

    let simulated = app
        .client()
        .post(app.url(&format!("/pagamento/{code}/simular-pagamento")))
        .send()
        .await
        .expect("answer");
    assert_eq!(simulated.status(), StatusCode::SEE_OTHER);
    wait_for_payments(&db, 1).await;
    // A sign is paid by many people: the page is not about payments, so it is the same page,
    // ready to pay; the payer hears of theirs on its stream (`payments::payer_page`).
    assert_eq!(app.get_text(&format!("/pagamento/{code}")).await, before);
    app.stop().await;
}

#[tokio::test]
async fn a_payer_page_asked_again_with_its_etag_is_answered_304_until_it_changes() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona da Padaria").await;
    let account = owner.account_id.clone();
    let code = code_with_txid(&mut owner, &account, "placa0001").await;
    let path = format!("/pagamento/{code}");
    let first = app.get(&path).await;
    assert_eq!(first.status(), StatusCode::OK);
    let etag = first.headers()[ETAG].clone();
    assert_eq!(first.headers()[VARY], "accept-encoding");

    let again = app
        .client()
        .get(app.url(&path))
        .header(IF_NONE_MATCH, etag.clone())
        .send()
        .await
        .expect("answer");
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    assert_eq!(again.headers()[ETAG], etag);
    assert!(again.text().await.expect("body").is_empty());

    let compressed = app
        .client()
        .get(app.url(&path))
        .header("accept-encoding", "br")
        .send()
        .await
        .expect("answer");
    assert_eq!(compressed.headers()[CONTENT_ENCODING], "br");
    assert_eq!(compressed.headers()[ETAG], etag, "one version, one tag");

    let archived = owner
        .post(
            &Person::in_account(&account, &format!("/qrcodes/{code}/arquivar")),
            &json!({}),
        )
        .await;
    assert_eq!(archived.status, StatusCode::OK, "{}", archived.text);
    let changed = app
        .client()
        .get(app.url(&path))
        .header(IF_NONE_MATCH, etag.clone())
        .send()
        .await
        .expect("answer");
    assert_eq!(changed.status(), StatusCode::OK, "the archived page is new");
    assert_ne!(changed.headers()[ETAG], etag);
    app.stop().await;
}
