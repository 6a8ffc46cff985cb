//! A visitor's sign (issue 10, item 4): `/criar-placa-pix` → `/placa-pix-criada/{id}`, the
//! private management link (by cookie, by `?chave=`, by e-mail), and "Salvar na minha conta"
//! (`POST /api/accounts/{accountId}/qrcodes/{id}/claim`).

use reqwest::StatusCode;
use serde_json::json;
use tests::smtp_sink::query_param;
use tests::{TestApp, eventually, first_element_text};

use crate::workspace::support::{MAIL_WAIT, Person, sign_up};

const PADARIA: [(&str, &str); 5] = [
    ("chave", "loja@example.com"),
    ("nome", "Padaria São João"),
    ("cidade", "São Paulo"),
    ("valor", "12,50"),
    ("descricao", "Pão de queijo"),
];

/// A sign made through the public form: its id, its page's path and the cookie the form set.
struct Made {
    id: String,
    location: String,
    cookie: String,
}

async fn make_sign(app: &TestApp, order: &str) -> Made {
    let mut form: Vec<(&str, &str)> = PADARIA.to_vec();
    form.push(("confirmar", "1"));
    form.push(("pedido", order));
    let response = app
        .client()
        .post(app.url("/criar-placa-pix"))
        .form(&form)
        .send()
        .await
        .expect("answered");
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    let location = response.headers()["location"]
        .to_str()
        .expect("ASCII")
        .to_owned();
    let id = location
        .strip_prefix("/placa-pix-criada/")
        .unwrap_or_else(|| panic!("lands on the sign's page, not {location}"))
        .split('?')
        .next()
        .expect("an id")
        .to_owned();
    let set_cookie = response.headers()["set-cookie"]
        .to_str()
        .expect("ASCII")
        .to_owned();
    assert!(set_cookie.contains("HttpOnly"), "{set_cookie}");
    assert!(
        set_cookie.contains(&format!("Path=/placa-pix-criada/{id}")),
        "{set_cookie}"
    );
    let cookie = set_cookie.split(';').next().expect("name=value").to_owned();
    Made {
        id,
        location,
        cookie,
    }
}

async fn page(app: &TestApp, path: &str, cookie: Option<&str>) -> (StatusCode, String) {
    let mut request = app.client().get(app.url(path));
    if let Some(cookie) = cookie {
        request = request.header("cookie", cookie);
    }
    let response = request.send().await.expect("answered");
    let status = response.status();
    (status, response.text().await.expect("body"))
}

/// The management link shown on the page.
fn management_link(html: &str) -> String {
    let marker = "id=\"link-gestao\" type=\"text\" readonly value=\"";
    let start = html.find(marker).expect("the management link is shown") + marker.len();
    let end = start + html[start..].find('"').expect("closing quote");
    html[start..end].replace("&amp;", "&")
}

#[tokio::test]
async fn a_visitors_sign_lands_on_its_own_page_with_the_qr_the_copy_text_downloads_and_links() {
    let app = TestApp::spawn().await;
    let made = make_sign(&app, "4b1f6a0e-8c1d-4d7e-9a3b-5c2e1f0a9b8c").await;
    let (status, html) = page(&app, &made.location, Some(&made.cookie)).await;
    assert_eq!(status, StatusCode::OK, "{html}");
    assert_eq!(
        first_element_text(&html, "h1").as_deref(),
        Some("Sua placa Pix está pronta")
    );
    assert!(html.contains("<svg"), "the QR code");
    assert!(html.contains("Copiar código") && html.contains("Pix Copia e Cola"));
    let payload = first_element_text(&html, "textarea").expect("the copy text");
    domain::brcode::validate_strict(&payload).expect("a strictly valid BR Code");
    for download in ["pdf", "png", "svg"] {
        assert!(
            html.contains(&format!("href=\"/placas/{}.{download}\"", made.id)),
            "{download} download"
        );
    }
    assert!(
        html.contains(&format!("href=\"/pagamento/{}/placa\"", made.id)),
        "print"
    );
    assert!(
        html.contains(&format!("/pagamento/{}", made.id)),
        "payer page"
    );
    let link = management_link(&html);
    assert!(
        link.contains(&format!("/placa-pix-criada/{}?chave=", made.id)),
        "{link}"
    );
    assert!(html.contains("Salvar na minha conta"));

    // The bare address explains and links back to the form.
    let (status, bare) = page(&app, "/placa-pix-criada", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(bare.contains("href=\"/criar-placa-pix\""), "{bare}");

    // A double submit of the same confirmation lands on the same sign with the same token.
    let again = make_sign(&app, "4b1f6a0e-8c1d-4d7e-9a3b-5c2e1f0a9b8c").await;
    assert_eq!(again.id, made.id);
    assert_eq!(again.cookie, made.cookie);
    app.stop().await;
}

#[tokio::test]
async fn the_management_link_opens_the_sign_and_a_wrong_or_missing_one_is_a_404() {
    let app = TestApp::spawn().await;
    let made = make_sign(&app, "0d5a2c7b-3e4f-4a1b-8c9d-7e6f5a4b3c2d").await;
    let (_, html) = page(&app, &made.location, Some(&made.cookie)).await;
    let link = management_link(&html);
    let token = query_param(&link, "chave").expect("?chave=");
    let path = format!("/placa-pix-criada/{}?chave={token}", made.id);

    let (status, later) = page(&app, &path, None).await;
    assert_eq!(status, StatusCode::OK, "the link alone, in another browser");
    assert!(later.contains("Sua placa Pix está pronta"));

    let mut wrong = token.clone();
    wrong.replace_range(0..1, if wrong.starts_with('A') { "B" } else { "A" });
    for path in [
        format!("/placa-pix-criada/{}?chave={wrong}", made.id),
        format!("/placa-pix-criada/{}", made.id),
        format!("/placa-pix-criada/{}?chave=", made.id),
        format!("/placa-pix-criada/7f3e2d1c-0b9a-4876-9543-210fedcba987?chave={token}"),
        "/placa-pix-criada/nao-e-um-id".to_owned(),
    ] {
        let (status, _) = page(&app, &path, None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
    }
    app.stop().await;
}

#[tokio::test]
async fn the_management_link_is_emailed_to_the_address_the_visitor_types() {
    let app = TestApp::spawn().await;
    let made = make_sign(&app, "9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b").await;
    let (_, html) = page(&app, &made.location, Some(&made.cookie)).await;
    let token = query_param(&management_link(&html), "chave").expect("?chave=");
    let send = |email: &'static str, token: String| {
        let app = &app;
        let id = made.id.clone();
        async move {
            app.client()
                .post(app.url(&format!("/placa-pix-criada/{id}/enviar-link")))
                .form(&[("chave", token.as_str()), ("email", email)])
                .send()
                .await
                .expect("answered")
        }
    };
    let refused = send("sem-arroba", token.clone()).await;
    assert_eq!(refused.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        refused
            .text()
            .await
            .expect("body")
            .contains("Digite um e-mail válido")
    );
    let stranger = send("visitante@example.com", "token-inventado".to_owned()).await;
    assert_eq!(
        stranger.status(),
        StatusCode::NOT_FOUND,
        "a wrong token sends nothing"
    );

    let sent = send("visitante@example.com", token).await;
    assert_eq!(sent.status(), StatusCode::OK);
    assert!(
        sent.text()
            .await
            .expect("body")
            .contains("Enviamos o link para visitante@example.com")
    );
    let mail = app
        .mail
        .wait_for("visitante@example.com", MAIL_WAIT)
        .await
        .expect("the e-mail arrives");
    let link = mail
        .link("/placa-pix-criada/")
        .expect("the management link");
    let path = link
        .find("/placa-pix-criada/")
        .map(|at| link[at..].to_owned())
        .expect("a path");
    let (status, _) = page(&app, &path, None).await;
    assert_eq!(status, StatusCode::OK, "the e-mailed link opens the sign");
    app.stop().await;
}

#[tokio::test]
async fn a_sign_claimed_after_sign_up_is_listed_in_the_account_once_and_only_with_its_token() {
    let app = TestApp::spawn().await;
    let made = make_sign(&app, "2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f").await;
    let (_, html) = page(&app, &made.location, Some(&made.cookie)).await;
    let token = query_param(&management_link(&html), "chave").expect("?chave=");

    let mut ana = sign_up(&app, "ana@padaria.test", "Ana").await;
    let claim_path = Person::in_account(&ana.account_id, &format!("/qrcodes/{}/claim", made.id));
    let wrong = ana.post(&claim_path, &json!({ "token": "outro" })).await;
    assert_eq!(wrong.status, StatusCode::NOT_FOUND, "{}", wrong.text);

    let claimed = ana.post(&claim_path, &json!({ "token": token })).await;
    assert_eq!(claimed.status, StatusCode::OK, "{}", claimed.text);
    assert_eq!(claimed.json["id"], made.id.as_str());

    let listed = ana
        .get(&Person::in_account(&ana.account_id, "/qrcodes"))
        .await;
    let codes = listed.json["qrcodes"].as_array().expect("a list").clone();
    let code = codes
        .iter()
        .find(|c| c["id"] == made.id.as_str())
        .unwrap_or_else(|| panic!("the claimed code is listed: {codes:?}"));
    assert_eq!(code["createdBy"], ana.account_id.as_str());
    assert_eq!(code["merchantName"], "PADARIA SAO JOAO");
    // It counts in her plan's codes of the month, as the codes she makes.
    let subscription = ana
        .get(&Person::in_account(&ana.account_id, "/subscription"))
        .await;
    assert_eq!(
        subscription.json["usage"]["qrcodesThisMonth"], 1,
        "{}",
        subscription.text
    );

    let twice = ana.post(&claim_path, &json!({ "token": token })).await;
    assert_eq!(twice.status, StatusCode::CONFLICT, "{}", twice.text);
    assert_eq!(twice.json["error"]["code"], "qrcode-already-claimed");

    let mut bia = sign_up(&app, "bia@vizinha.test", "Bia").await;
    let path = Person::in_account(&bia.account_id, &format!("/qrcodes/{}/claim", made.id));
    let late = bia.post(&path, &json!({ "token": token })).await;
    assert_eq!(late.status, StatusCode::CONFLICT, "a code is claimed once");
    let theirs = bia
        .get(&Person::in_account(&bia.account_id, "/qrcodes"))
        .await;
    assert_eq!(theirs.json["qrcodes"], json!([]));

    // Claiming into an account one has no role in is refused like any other account route.
    let intruder = bia.post(&claim_path, &json!({ "token": token })).await;
    assert_eq!(intruder.status, StatusCode::NOT_FOUND);

    // The page still opens with its link, and says it is saved.
    let (status, html) = page(
        &app,
        &format!("/placa-pix-criada/{}?chave={token}", made.id),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("já está salva em uma conta"), "{html}");
    app.stop().await;
}

#[tokio::test]
async fn replaying_the_qrcodes_read_model_keeps_claimed_codes_in_their_account() {
    let app = TestApp::spawn().await;
    let kept = make_sign(&app, "5f4e3d2c-1b0a-4987-8654-3210fedcba98").await;
    let claimed = make_sign(&app, "6a5b4c3d-2e1f-4a09-b8c7-d6e5f4a3b2c1").await;
    let (_, html) = page(&app, &claimed.location, Some(&claimed.cookie)).await;
    let token = query_param(&management_link(&html), "chave").expect("?chave=");
    let mut ana = sign_up(&app, "ana@padaria.test", "Ana").await;
    let path = Person::in_account(&ana.account_id, &format!("/qrcodes/{}/claim", claimed.id));
    assert_eq!(
        ana.post(&path, &json!({ "token": token })).await.status,
        StatusCode::OK
    );

    let db = app.db().await;
    let rows = || async {
        sqlx::query_scalar::<_, String>(
            "select (qrcode_id, owner_id, created_by, payload, event_id, tx_id, global_position)::text
               from qrcodes order by qrcode_id",
        )
        .fetch_all(&db)
        .await
        .expect("qrcodes")
    };
    let live = eventually("the claim is projected", async || {
        let rows = rows().await;
        rows.iter()
            .any(|r| r.contains(&ana.account_id))
            .then_some(rows)
    })
    .await;
    assert_eq!(live.len(), 2);
    assert!(
        live.iter()
            .any(|r| r.starts_with(&format!("({},,", kept.id))),
        "{live:?}"
    );
    gateway::roles::replay(&app.settings, &["qrcodes".to_owned()], false)
        .await
        .expect("replay");
    assert_eq!(rows().await, live, "replay equals live");
    app.stop().await;
}
