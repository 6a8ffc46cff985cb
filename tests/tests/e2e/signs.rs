//! `/placas/{qrcode_id}.pdf|.png|.svg`: the sign files through HTTP, for a code made by the
//! visitor's form.

use reqwest::StatusCode;
use reqwest::header::{CACHE_CONTROL, CONTENT_DISPOSITION, CONTENT_TYPE, ETAG, IF_NONE_MATCH};
use tests::TestApp;

const LOJA: [(&str, &str); 4] = [
    ("chave", "loja@example.com"),
    ("nome", "Loja da Ana"),
    ("cidade", "Natal"),
    ("valor", "15,00"),
];

/// Makes a code through the public form (review, then confirm) and returns its id.
async fn make_code(app: &TestApp) -> String {
    let fields: Vec<(String, String)> = LOJA
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    let review = app
        .client()
        .post(app.url("/criar-placa-pix"))
        .form(&fields)
        .send()
        .await
        .expect("review")
        .text()
        .await
        .expect("body");
    let marker = "name=\"pedido\" value=\"";
    let start = review.find(marker).expect("order field") + marker.len();
    let order = &review[start..start + review[start..].find('"').expect("quote")];
    let mut confirm = fields.clone();
    confirm.push(("confirmar".to_owned(), "1".to_owned()));
    confirm.push(("pedido".to_owned(), order.to_owned()));
    let response = app
        .client()
        .post(app.url("/criar-placa-pix"))
        .form(&confirm)
        .send()
        .await
        .expect("confirm");
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    let location = response.headers()["location"].to_str().expect("ascii");
    // The form lands on the visitor's own sign page; the code's id is the path's last part.
    let id = location
        .trim_start_matches("/placa-pix-criada/")
        .trim_start_matches("/pagamento/")
        .split(['/', '?'])
        .next()
        .expect("id")
        .to_owned();
    // Under load the form may redirect before the read model has the code; the payer page
    // waits for it, so once it answers, `/placas` finds the code.
    tests::eventually("the payer page of the new code", async || {
        (app.get(&format!("/pagamento/{id}")).await.status() == StatusCode::OK).then_some(())
    })
    .await;
    id
}

#[tokio::test]
async fn each_format_has_its_content_type_a_readable_file_name_and_an_etag() {
    let app = TestApp::spawn().await;
    let id = make_code(&app).await;
    for (ext, content_type, magic) in [
        ("pdf", "application/pdf", &b"%PDF-"[..]),
        ("png", "image/png", &b"\x89PNG"[..]),
        ("svg", "image/svg+xml", &b"<svg"[..]),
    ] {
        let query = if ext == "png" {
            "?tamanho=a6&dpi=100"
        } else {
            "?tamanho=a6"
        };
        let response = app.get(&format!("/placas/{id}.{ext}{query}")).await;
        assert_eq!(response.status(), StatusCode::OK, "{ext}");
        let headers = response.headers().clone();
        assert_eq!(headers[CONTENT_TYPE], content_type);
        assert_eq!(
            headers[CONTENT_DISPOSITION],
            format!("attachment; filename=\"placa-pix-loja-da-ana-a6.{ext}\"").as_str()
        );
        assert!(
            headers[CACHE_CONTROL]
                .to_str()
                .expect("ascii")
                .contains("max-age")
        );
        let etag = headers[ETAG].to_str().expect("ascii").to_owned();
        assert!(etag.starts_with('"') && etag.ends_with('"'));
        let body = response.bytes().await.expect("body");
        assert!(body.starts_with(magic), "{ext} starts with its magic bytes");
    }
    let bare = app
        .get(&format!("/placas/{id}.png?modelo=codigo&dpi=72"))
        .await;
    assert_eq!(bare.status(), StatusCode::OK);
    assert_eq!(
        bare.headers()[CONTENT_DISPOSITION],
        "attachment; filename=\"qrcode-pix-loja-da-ana-quadrado.png\""
    );
    app.stop().await;
}

#[tokio::test]
async fn the_same_etag_answers_304_and_another_option_changes_it() {
    let app = TestApp::spawn().await;
    let id = make_code(&app).await;
    let path = format!("/placas/{id}.svg?modelo=faixa&tamanho=a5&tema=azul");
    let first = app.get(&path).await;
    assert_eq!(first.status(), StatusCode::OK);
    let etag = first.headers()[ETAG].to_str().expect("ascii").to_owned();

    let again = app
        .client()
        .get(app.url(&path))
        .header(IF_NONE_MATCH, &etag)
        .send()
        .await
        .expect("request");
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    assert_eq!(again.headers()[ETAG], etag.as_str());
    assert!(again.bytes().await.expect("body").is_empty());

    let other = app
        .client()
        .get(app.url(&format!(
            "/placas/{id}.svg?modelo=faixa&tamanho=a5&tema=vinho"
        )))
        .header(IF_NONE_MATCH, &etag)
        .send()
        .await
        .expect("request");
    assert_eq!(
        other.status(),
        StatusCode::OK,
        "another theme is another file"
    );
    assert_ne!(other.headers()[ETAG], etag.as_str());
    app.stop().await;
}

#[tokio::test]
async fn unknown_options_get_a_portuguese_400_page() {
    let app = TestApp::spawn().await;
    let id = make_code(&app).await;
    for (query, expected) in [
        ("modelo=neon", "O modelo &#34;neon&#34; não existe"),
        ("tamanho=a3", "O tamanho &#34;a3&#34; não existe"),
        ("tema=rosa", "O tema &#34;rosa&#34; não existe"),
        ("dpi=5000", "entre 72 e 600"),
        ("dpi=alto", "entre 72 e 600"),
    ] {
        let response = app.get(&format!("/placas/{id}.png?{query}")).await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{query}");
        assert!(
            response.headers()[CONTENT_TYPE]
                .to_str()
                .expect("ascii")
                .starts_with("text/html")
        );
        let html = response.text().await.expect("body");
        assert!(html.contains("lang=\"pt-BR\""));
        assert!(html.contains("Não dá para gerar esta placa"), "{html}");
        assert!(html.contains(expected), "{query}: {html}");
    }
    app.stop().await;
}

#[tokio::test]
async fn an_unknown_code_or_format_is_404() {
    let app = TestApp::spawn().await;
    let id = make_code(&app).await;
    for path in [
        "/placas/00000000-0000-7000-8000-000000000000.pdf".to_owned(),
        "/placas/nao-e-um-id.png".to_owned(),
        format!("/placas/{id}.gif"),
        format!("/placas/{id}"),
    ] {
        let response = app.get(&path).await;
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{path}");
    }
    app.stop().await;
}

#[tokio::test]
async fn the_print_page_tells_the_payer_how_to_pay_once_and_as_the_files_do() {
    // Given a code
    let app = TestApp::spawn().await;
    let id = make_code(&app).await;

    // When its print page is opened
    let html = app.get_text(&format!("/pagamento/{id}/placa")).await;

    // Then it carries the files' instruction and their anti-fraud line, which for a visitor's
    // code (no registered key holder) says which name the bank shows instead of the code's own
    assert!(html.contains(domain::sign::INSTRUCTION), "{html}");
    assert!(
        html.contains(&domain::sign::anti_fraud_line(None)),
        "{html}"
    );
    assert_eq!(html.matches("confira no app").count(), 1, "{html}");
    assert!(!html.contains("antes de confirmar: LOJA DA ANA"), "{html}");
    app.stop().await;
}

#[tokio::test]
async fn the_print_page_shows_and_prints_the_very_sign_its_pdf_is_made_of() {
    // Given a code
    let app = TestApp::spawn().await;
    let id = make_code(&app).await;

    // When its print page is asked for a design
    let design = "tamanho=a5&modelo=faixa&tema=vinho&rodape=Aberto%20das%208h%20%C3%A0s%2018h";
    let html = app
        .get_text(&format!("/pagamento/{id}/placa?{design}"))
        .await;

    // Then what it shows (and prints) is the sign file of that design, the PDF's layout, as SVG
    let query = "?modelo=faixa&tamanho=a5&tema=vinho&rodape=Aberto+das+8h+%C3%A0s+18h";
    let image = format!(
        "<img src=\"/placas/{id}.svg{}\"",
        query.replace('&', "&#38;")
    );
    assert!(html.contains(&image), "{html}");
    assert!(
        html.contains(&format!(
            "/placas/{id}.pdf{}\"",
            query.replace('&', "&#38;")
        )),
        "the PDF offered is the same design: {html}"
    );
    let svg = app.get(&format!("/placas/{id}.svg{query}")).await;
    assert_eq!(svg.status(), StatusCode::OK);
    assert_eq!(svg.headers()[CONTENT_TYPE], "image/svg+xml");
    // and its description (what a screen reader says) has the sign's every line
    for line in [
        "LOJA DA ANA, NATAL",
        "R$ 15,00",
        "Chave e-mail: loja@example.com",
        "Aberto das 8h às 18h",
    ] {
        assert!(html.contains(line), "{line} in {html}");
    }
    app.stop().await;
}

#[tokio::test]
async fn the_print_page_prints_on_the_paper_it_is_asked_for() {
    let app = TestApp::spawn().await;
    let id = make_code(&app).await;
    let html = app
        .get_text(&format!("/pagamento/{id}/placa?tamanho=a5"))
        .await;
    assert!(html.contains("class=\"placa placa-a5\""), "{html}");
    assert!(html.contains(&format!("/placas/{id}.pdf?tamanho=a5")));
    let start = html.find("/static/site.").expect("stylesheet link");
    let css_path = &html[start..start + html[start..].find('"').expect("quote")];
    let css = app.get_text(css_path).await;
    assert!(css.contains("@page placa-a5 { size: A5;"));
    let unknown = app
        .get_text(&format!("/pagamento/{id}/placa?tamanho=a9"))
        .await;
    assert!(
        unknown.contains("class=\"placa placa-a4\""),
        "an unknown size prints on A4"
    );
    app.stop().await;
}
