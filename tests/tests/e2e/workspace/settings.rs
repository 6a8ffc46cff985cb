//! The signed-in person's own account through HTTP: settings, the BR Code preview, the photo,
//! the password and the sign-in e-mail, with every kind of bad input.

use super::support::{JPEG, PASSWORD, PNG, WEBP, mail_with_link, sign_up};
use reqwest::{Method, StatusCode};
use serde_json::json;
use tests::browser::Browser;
use tests::smtp_sink::query_param;
use tests::{TestApp, eventually};

#[tokio::test]
async fn saved_settings_read_back_with_the_phone_in_international_form_and_the_defaults_as_a_code_writes_them()
 {
    let app = TestApp::spawn().await;
    let mut ana = sign_up(&app, "ana@padaria.test", "Ana Souza").await;

    let before = ana.get("/api/account/settings").await;
    assert_eq!(before.status, StatusCode::OK, "{}", before.text);
    assert_eq!(
        before.json,
        json!({
            "displayName": "Ana Souza",
            "phoneNumber": null,
            "photoURL": null,
            "defaultMerchantName": null,
            "defaultMerchantCity": null,
            "email": "ana@padaria.test",
            "emailVerified": false
        })
    );

    let saved = ana
        .patch(
            "/api/account/settings",
            &json!({
                "displayName": "  Ana Maria Souza ",
                "phoneNumber": "(11) 91234-5678",
                "defaultMerchantName": "Padaria São João",
                "defaultMerchantCity": "São Paulo"
            }),
        )
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);
    assert_eq!(saved.json["displayName"], "Ana Maria Souza");
    assert_eq!(saved.json["phoneNumber"], "+5511912345678");
    assert_eq!(saved.json["defaultMerchantName"], "PADARIA SAO JOAO");
    assert_eq!(saved.json["defaultMerchantCity"], "SAO PAULO");
    assert_eq!(saved.header("cache-control"), Some("no-store"));

    // Read-your-writes: the next read shows the same.
    let after = ana.get("/api/account/settings").await;
    assert_eq!(after.json, saved.json);
    let me = ana.browser.me().await;
    assert_eq!(me.json["displayName"], "Ana Maria Souza");
    assert_eq!(me.json["phoneNumber"], "+5511912345678");

    // A landline, and the defaults cleared with null.
    let cleared = ana
        .patch(
            "/api/account/settings",
            &json!({"phoneNumber": "61 3456-7890", "defaultMerchantName": null, "defaultMerchantCity": ""}),
        )
        .await;
    assert_eq!(cleared.status, StatusCode::OK, "{}", cleared.text);
    assert_eq!(
        cleared.json["displayName"], "Ana Maria Souza",
        "absent: kept"
    );
    assert_eq!(cleared.json["phoneNumber"], "+556134567890");
    assert_eq!(cleared.json["defaultMerchantName"], serde_json::Value::Null);
    assert_eq!(cleared.json["defaultMerchantCity"], serde_json::Value::Null);

    // The log holds the profile only sealed.
    let db = app.db().await;
    let payloads: Vec<String> = sqlx::query_scalar(
        "select payload::text from events where stream_type = 'account' and event_type = 'ProfileUpdated'",
    )
    .fetch_all(&db)
    .await
    .expect("events");
    assert_eq!(payloads.len(), 2);
    for payload in payloads {
        for plain in ["Ana Maria", "912345678", "34567890", "PADARIA"] {
            assert!(!payload.contains(plain), "{plain} in {payload}");
        }
    }
    db.close().await;
    app.stop().await;
}

#[tokio::test]
async fn bad_settings_are_refused_on_their_field_and_change_nothing() {
    let app = TestApp::spawn().await;
    let mut ana = sign_up(&app, "ana@padaria.test", "Ana").await;
    let cases = [
        (json!({"displayName": "   "}), "displayName"),
        (json!({"displayName": null}), "displayName"),
        (json!({"displayName": "a".repeat(81)}), "displayName"),
        (json!({"displayName": 12}), "displayName"),
        (json!({"phoneNumber": "1234"}), "phoneNumber"),
        (json!({"phoneNumber": "(20) 3456-7890"}), "phoneNumber"),
        (json!({"phoneNumber": "(11) 81234-5678"}), "phoneNumber"),
        (json!({"phoneNumber": "+1 415 555 0100"}), "phoneNumber"),
        (json!({"phoneNumber": "11 91234-567x"}), "phoneNumber"),
        (
            json!({"defaultMerchantName": "Mercearia e Padaria Boa Esperança"}),
            "defaultMerchantName",
        ),
        (
            json!({"defaultMerchantCity": "Vila Bela da Santíssima Trindade"}),
            "defaultMerchantCity",
        ),
        (
            json!({"defaultMerchantCity": "😀😀"}),
            "defaultMerchantCity",
        ),
    ];
    for (body, field) in cases {
        let answer = ana.patch("/api/account/settings", &body).await;
        assert_eq!(
            answer.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{body}: {}",
            answer.text
        );
        assert_eq!(answer.code(), "invalid-argument", "{body}");
        assert_eq!(answer.field(), Some(field), "{body}");
        assert!(!answer.message().is_empty());
    }
    let not_json = ana
        .browser
        .request(
            Method::PATCH,
            "/api/account/settings",
            Some("text/plain"),
            Some(b"displayName=Ana".to_vec()),
        )
        .await;
    assert_eq!(not_json.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let broken = ana
        .browser
        .request(
            Method::PATCH,
            "/api/account/settings",
            Some("application/json"),
            Some(b"{\"displayName\": ".to_vec()),
        )
        .await;
    assert_eq!(broken.status, StatusCode::BAD_REQUEST);
    assert_eq!(broken.code(), "invalid-json");

    let unchanged = ana.get("/api/account/settings").await;
    assert_eq!(unchanged.json["displayName"], "Ana");
    assert_eq!(unchanged.json["phoneNumber"], serde_json::Value::Null);

    let mut nobody = Browser::new(&app);
    for (method, path) in [
        (Method::GET, "/api/account/settings"),
        (Method::PATCH, "/api/account/settings"),
    ] {
        let answer = nobody
            .request(method, path, Some("application/json"), Some(b"{}".to_vec()))
            .await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{path}");
        assert_eq!(answer.code(), "unauthenticated");
    }
    app.stop().await;
}

#[tokio::test]
async fn the_brcode_preview_is_public_and_explains_every_change() {
    let app = TestApp::spawn().await;
    let mut visitor = Browser::new(&app);

    let answer = visitor
        .get("/api/brcode/normalize?name=Padaria%20S%C3%A3o%20Jo%C3%A3o&city=Bel%C3%A9m")
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(answer.json["name"], "PADARIA SAO JOAO");
    assert_eq!(answer.json["city"], "BELEM");
    let changes: Vec<&str> = answer.json["changes"]
        .as_array()
        .expect("changes")
        .iter()
        .map(|c| c.as_str().expect("a sentence"))
        .collect();
    assert_eq!(changes.len(), 2);
    assert!(
        changes[1].contains("“Belém” será escrito como “BELEM”"),
        "{changes:?}"
    );

    let unchanged = visitor
        .get("/api/brcode/normalize?name=ANA&city=NATAL")
        .await;
    assert_eq!(unchanged.json["changes"], json!([]));

    for (query, field) in [
        ("name=&city=Natal", "name"),
        ("city=Natal", "name"),
        ("name=Ana", "city"),
        (
            "name=Mercearia%20e%20Padaria%20Boa%20Esperan%C3%A7a&city=Natal",
            "name",
        ),
        (
            "name=Ana&city=Vila%20Bela%20da%20Sant%C3%ADssima%20Trindade",
            "city",
        ),
        ("name=%F0%9F%98%80&city=Natal", "name"),
    ] {
        let answer = visitor.get(&format!("/api/brcode/normalize?{query}")).await;
        assert_eq!(
            answer.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{query}: {}",
            answer.text
        );
        assert_eq!(answer.code(), "invalid-argument", "{query}");
        assert_eq!(answer.field(), Some(field), "{query}");
    }
    app.stop().await;
}

#[tokio::test]
async fn a_photo_is_stored_served_with_its_own_type_and_named_in_the_settings() {
    let app = TestApp::spawn().await;
    let mut ana = sign_up(&app, "ana@padaria.test", "Ana").await;

    let none = app.get(&format!("/fotos/{}", ana.account_id)).await;
    assert_eq!(none.status(), StatusCode::NOT_FOUND, "no photo yet");

    let uploaded = ana.put_photo("image/png", PNG.to_vec()).await;
    assert_eq!(uploaded.status, StatusCode::OK, "{}", uploaded.text);
    let url = uploaded.json["photoURL"]
        .as_str()
        .expect("photoURL")
        .to_owned();
    let prefix = format!("/fotos/{}?v=", ana.account_id);
    assert!(url.starts_with(&prefix), "{url}");
    let etag = url[prefix.len()..].to_owned();
    assert_eq!(etag.len(), 64, "the SHA-256 of the bytes");

    let settings = ana.get("/api/account/settings").await;
    assert_eq!(settings.json["photoURL"], url.as_str());
    assert_eq!(ana.browser.me().await.json["photoURL"], url.as_str());

    let served = app.get(&url).await;
    assert_eq!(served.status(), StatusCode::OK);
    let headers = served.headers().clone();
    assert_eq!(headers["content-type"], "image/png");
    assert_eq!(headers["x-content-type-options"], "nosniff");
    assert_eq!(headers["cache-control"], "private, no-cache");
    assert_eq!(headers["etag"], format!("\"{etag}\"").as_str());
    assert_eq!(served.bytes().await.expect("bytes").as_ref(), PNG);

    let revalidated = app
        .client()
        .get(app.url(&url))
        .header("if-none-match", format!("\"{etag}\""))
        .send()
        .await
        .expect("answer");
    assert_eq!(revalidated.status(), StatusCode::NOT_MODIFIED);

    // A new photo of another type gets a new URL and is served with its own type.
    for (content_type, bytes) in [("image/jpeg", JPEG), ("image/webp", WEBP)] {
        let replaced = ana.put_photo(content_type, bytes.to_vec()).await;
        assert_eq!(replaced.status, StatusCode::OK, "{}", replaced.text);
        let new_url = replaced.json["photoURL"].as_str().expect("photoURL");
        assert_ne!(new_url, url);
        let served = app.get(new_url).await;
        assert_eq!(served.headers()["content-type"], content_type);
        assert_eq!(served.bytes().await.expect("bytes").as_ref(), bytes);
    }
    app.stop().await;
}

#[tokio::test]
async fn photos_of_another_type_than_declared_or_over_one_mebibyte_are_refused() {
    let app = TestApp::spawn().await;
    let mut ana = sign_up(&app, "ana@padaria.test", "Ana").await;
    let svg = b"<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>".to_vec();
    for (content_type, bytes) in [
        ("image/gif", b"GIF89a\x01\0\x01\0".to_vec()),
        ("image/svg+xml", svg.clone()),
        ("image/png", svg),
        ("image/png", JPEG.to_vec()),
        ("image/jpeg", PNG.to_vec()),
        ("image/webp", b"RIFF\x1a\0\0\0WAVEfmt ".to_vec()),
        ("image/png", Vec::new()),
        ("text/html", b"<html></html>".to_vec()),
        ("application/json", b"{}".to_vec()),
    ] {
        let answer = ana.put_photo(content_type, bytes).await;
        assert_eq!(
            answer.status,
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "{content_type}: {}",
            answer.text
        );
        assert_eq!(answer.code(), "unsupported-photo-type", "{content_type}");
    }

    let mut largest = PNG.to_vec();
    largest.resize(1024 * 1024, 0);
    let mut too_large = largest.clone();
    too_large.push(0);
    let refused = ana.put_photo("image/png", too_large).await;
    assert_eq!(
        refused.status,
        StatusCode::PAYLOAD_TOO_LARGE,
        "{}",
        refused.text
    );
    assert_eq!(refused.code(), "photo-too-large");
    assert!(refused.message().contains("1 MB"), "{}", refused.message());
    let far_too_large = ana
        .put_photo("image/jpeg", vec![0xFF; 5 * 1024 * 1024])
        .await;
    assert_eq!(far_too_large.status, StatusCode::PAYLOAD_TOO_LARGE);

    assert_eq!(
        ana.get("/api/account/settings").await.json["photoURL"],
        serde_json::Value::Null,
        "nothing refused was stored"
    );
    let accepted = ana.put_photo("image/png", largest).await;
    assert_eq!(accepted.status, StatusCode::OK, "exactly 1 MiB is accepted");

    let mut nobody = Browser::new(&app);
    let answer = nobody
        .request(
            Method::PUT,
            "/api/account/photo",
            Some("image/png"),
            Some(PNG.to_vec()),
        )
        .await;
    assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
    for path in [
        "/fotos/nao-e-uuid",
        "/fotos/0196a1b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b",
    ] {
        assert_eq!(
            app.get(path).await.status(),
            StatusCode::NOT_FOUND,
            "{path}"
        );
    }
    app.stop().await;
}

#[tokio::test]
async fn a_new_password_keeps_this_session_and_ends_every_other() {
    let app = TestApp::spawn().await;
    let mut ana = sign_up(&app, "ana@padaria.test", "Ana").await;
    let mut phone = Browser::new(&app);
    assert_eq!(
        phone.log_in("ana@padaria.test", PASSWORD).await.status,
        StatusCode::OK
    );

    let wrong = ana
        .post(
            "/api/account/password",
            &json!({"currentPassword": "errada-1", "newPassword": "nova-senha-2"}),
        )
        .await;
    assert_eq!(wrong.status, StatusCode::BAD_REQUEST, "{}", wrong.text);
    assert_eq!(wrong.code(), "wrong-password");
    assert_eq!(wrong.field(), Some("currentPassword"));

    let weak = ana
        .post(
            "/api/account/password",
            &json!({"currentPassword": PASSWORD, "newPassword": "abc"}),
        )
        .await;
    assert_eq!(weak.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(weak.code(), "weak-password");
    assert_eq!(weak.field(), Some("newPassword"));
    assert!(weak.message().contains('6'), "{}", weak.message());

    let missing = ana
        .post(
            "/api/account/password",
            &json!({"newPassword": "nova-senha-2"}),
        )
        .await;
    assert_eq!(missing.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(missing.field(), Some("currentPassword"));
    assert_eq!(
        phone.me().await.status,
        StatusCode::OK,
        "nothing changed yet"
    );

    let changed = ana
        .post(
            "/api/account/password",
            &json!({"currentPassword": PASSWORD, "newPassword": "nova-senha-2"}),
        )
        .await;
    assert_eq!(changed.status, StatusCode::NO_CONTENT, "{}", changed.text);
    assert_eq!(
        ana.browser.me().await.status,
        StatusCode::OK,
        "this session stays"
    );
    assert_eq!(
        phone.me().await.status,
        StatusCode::UNAUTHORIZED,
        "the other ended"
    );
    assert_eq!(phone.refresh().await.status, StatusCode::UNAUTHORIZED);

    let mut again = Browser::new(&app);
    let old = again.log_in("ana@padaria.test", PASSWORD).await;
    assert_eq!(old.status, StatusCode::UNAUTHORIZED);
    assert_eq!(old.code(), "invalid-credential");
    let new = again.log_in("ana@padaria.test", "nova-senha-2").await;
    assert_eq!(new.status, StatusCode::OK);
    app.stop().await;
}

#[tokio::test]
async fn a_new_address_is_confirmed_by_a_link_sent_to_it_and_then_signs_in() {
    let app = TestApp::spawn().await;
    let mut ana = sign_up(&app, "ana@padaria.test", "Ana").await;
    sign_up(&app, "bia@padaria.test", "Bia").await;

    for (body, status, code, field) in [
        (
            json!({"newEmail": "ana.nova@padaria.test", "password": "errada-1"}),
            StatusCode::BAD_REQUEST,
            "wrong-password",
            "password",
        ),
        (
            json!({"newEmail": "nao-e-email", "password": PASSWORD}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid-argument",
            "newEmail",
        ),
        (
            json!({"newEmail": " BIA@padaria.test ", "password": PASSWORD}),
            StatusCode::CONFLICT,
            "email-already-in-use",
            "newEmail",
        ),
        (
            json!({"newEmail": "Ana@Padaria.test", "password": PASSWORD}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid-argument",
            "newEmail",
        ),
        (
            json!({"password": PASSWORD}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid-argument",
            "newEmail",
        ),
    ] {
        let answer = ana.post("/api/account/email", &body).await;
        assert_eq!(answer.status, status, "{body}: {}", answer.text);
        assert_eq!(answer.code(), code, "{body}");
        assert_eq!(answer.field(), Some(field), "{body}");
    }

    let asked = ana
        .post(
            "/api/account/email",
            &json!({"newEmail": "Ana.Nova@padaria.test", "password": PASSWORD}),
        )
        .await;
    assert_eq!(asked.status, StatusCode::NO_CONTENT, "{}", asked.text);
    assert_eq!(
        ana.get("/api/account/settings").await.json["email"],
        "ana@padaria.test",
        "nothing changes before the link is opened"
    );
    let (mail, link) = mail_with_link(&app, "ana.nova@padaria.test", "/verificar-email").await;
    assert!(mail.subject.contains("novo e-mail"), "{}", mail.subject);
    let code = query_param(&link, "oobCode").expect("?oobCode=");
    let verified = ana
        .browser
        .post_json("/api/auth/verify-email", &json!({ "oobCode": code }))
        .await;
    assert_eq!(verified.status, StatusCode::NO_CONTENT, "{}", verified.text);

    // `verify-email` (the auth API's) answers before the read model has its two commands (the
    // move, then the verification); give the read model a moment.
    let settings = eventually(
        "the settings to show the new address verified",
        async || {
            let settings = ana.get("/api/account/settings").await;
            (settings.json["email"] == "ana.nova@padaria.test"
                && settings.json["emailVerified"] == true)
                .then_some(settings)
        },
    )
    .await;
    assert_eq!(settings.json["email"], "ana.nova@padaria.test");
    assert_eq!(settings.json["emailVerified"], true);
    let mut elsewhere = Browser::new(&app);
    assert_eq!(
        elsewhere
            .log_in("ana.nova@padaria.test", PASSWORD)
            .await
            .status,
        StatusCode::OK
    );
    assert_eq!(
        elsewhere.log_in("ana@padaria.test", PASSWORD).await.status,
        StatusCode::UNAUTHORIZED,
        "the old address no longer signs in"
    );
    app.stop().await;
}
