//! The first public flow, end to end through HTTP over real PostgreSQL and NATS: the visitor's
//! form → CreateQrCode → relay → JetStream → qrcodes projection → the payer page.

use reqwest::StatusCode;
use tests::{TestApp, eventually, first_element_text};

fn form(fields: &[(&str, &str)]) -> Vec<(String, String)> {
    fields
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

fn hidden_value(html: &str, name: &str) -> String {
    let marker = format!("name=\"{name}\" value=\"");
    let start = html.find(&marker).expect("hidden field present") + marker.len();
    let end = start + html[start..].find('"').expect("closing quote");
    html[start..end].to_owned()
}

/// The payer page of the sign a creation redirected to.
fn payer_page(location: &str) -> String {
    let id = location
        .strip_prefix("/placa-pix-criada/")
        .unwrap_or_else(|| panic!("the visitor lands on their sign's page, not {location}"));
    format!("/pagamento/{id}")
}

const PADARIA: [(&str, &str); 5] = [
    ("chave", "loja@example.com"),
    ("nome", "Padaria São João"),
    ("cidade", "São Paulo"),
    ("valor", "12,50"),
    ("descricao", "Pão de queijo"),
];

async fn review(app: &TestApp, fields: &[(&str, &str)]) -> (StatusCode, String) {
    let response = app
        .client()
        .post(app.url("/criar-placa-pix"))
        .form(&form(fields))
        .send()
        .await
        .expect("request");
    let status = response.status();
    (status, response.text().await.expect("body"))
}

async fn confirm(app: &TestApp, fields: &[(&str, &str)], order: &str) -> reqwest::Response {
    let mut all = form(fields);
    all.push(("confirmar".to_owned(), "1".to_owned()));
    all.push(("pedido".to_owned(), order.to_owned()));
    app.client()
        .post(app.url("/criar-placa-pix"))
        .form(&all)
        .send()
        .await
        .expect("request")
}

#[tokio::test]
async fn the_review_shows_the_normalised_name_and_city_before_anything_is_created() {
    let app = TestApp::spawn().await;
    let (status, html) = review(&app, &PADARIA).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("PADARIA SAO JOAO"), "normalised name shown");
    assert!(
        html.contains("“São Paulo” será escrito como “SAO PAULO”"),
        "the change is explained"
    );
    assert!(html.contains("Confirmar e criar QR code"));
    let events: i64 = sqlx::query_scalar("select count(*) from events")
        .fetch_one(
            &sqlx::PgPool::connect(&app.settings.database_url)
                .await
                .expect("db"),
        )
        .await
        .expect("count");
    assert_eq!(events, 0, "reviewing creates nothing");
    app.stop().await;
}

#[tokio::test]
async fn confirming_creates_the_code_and_its_payer_page_shows_it_at_once() {
    let app = TestApp::spawn().await;
    let (_, html) = review(&app, &PADARIA).await;
    let order = hidden_value(&html, "pedido");
    let response = confirm(&app, &PADARIA, &order).await;
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    let location = response.headers()["location"]
        .to_str()
        .expect("ascii")
        .to_owned();
    // The visitor lands on their sign's own page (`/placa-pix-criada/{id}`, see
    // `anonymous_signs`); its payer page is the same id under `/pagamento/`.
    let location = payer_page(&location);

    // Read-your-writes: the redirect happens only once the projection has the code, so the very
    // first request finds it (no retry loop here on purpose).
    let page = app.get(&location).await;
    assert_eq!(page.status(), StatusCode::OK);
    let html = page.text().await.expect("body");
    assert_eq!(
        first_element_text(&html, "h1").as_deref(),
        Some("Pagar PADARIA SAO JOAO")
    );
    assert!(html.contains("R$ 12,50"));
    assert!(html.contains("Pao de queijo"));
    assert!(html.contains("<svg"), "the QR code is inline SVG");
    assert!(html.contains("Pix Copia e Cola"));
    let payload = first_element_text(&html, "textarea").expect("copy-and-paste text");
    let parsed = domain::brcode::validate_strict(&payload).expect("a strictly valid BR Code");
    assert_eq!(
        parsed.code.merchant_name.as_deref(),
        Some("PADARIA SAO JOAO")
    );

    // The printable sign: the designed sign itself (the SVG the file routes draw, the code at
    // level Q as `signs::proof` decodes it), without the site's header and footer.
    let sign_path = format!("{location}/placa");
    assert!(
        html.contains(&format!("href=\"{sign_path}\"")),
        "the payer page links to the sign"
    );
    let sign = app.get(&sign_path).await;
    assert_eq!(sign.status(), StatusCode::OK);
    let sign = sign.text().await.expect("body");
    assert!(
        sign.contains("PADARIA SAO JOAO") && sign.contains("R$ 12,50"),
        "the image's description names it and its amount"
    );
    let drawing = format!("{}.svg", location.replace("/pagamento/", "/placas/"));
    assert!(
        sign.contains(&format!("src=\"{drawing}")) && !sign.contains("site-header"),
        "the designed sign, no site header"
    );
    let file = app.get(&drawing).await;
    assert_eq!(file.status(), StatusCode::OK);
    assert!(file.text().await.expect("body").contains("<svg"));
    app.stop().await;
}

#[tokio::test]
async fn a_payer_page_without_an_amount_says_valor_livre() {
    let app = TestApp::spawn().await;
    let fields = [
        ("chave", "+5511912345678"),
        ("tipo", "telefone"),
        ("nome", "Ana"),
        ("cidade", "Natal"),
    ];
    let response = confirm(&app, &fields, "8d3f0c7e-0a4e-4d1b-9c55-0b7f1e2d3c4a").await;
    let location = response.headers()["location"]
        .to_str()
        .expect("ascii")
        .to_owned();
    let html = app.get_text(&payer_page(&location)).await;
    assert!(html.contains("Valor livre"), "{html}");
    app.stop().await;
}

#[tokio::test]
async fn bad_input_renders_the_form_again_with_a_portuguese_message_per_field() {
    let app = TestApp::spawn().await;
    let fields = [
        ("tipo", "cpf"),
        ("chave", "123.456.789-00"),
        ("nome", "Comercio de Alimentos Naturais Ltda"),
        ("cidade", ""),
        ("valor", "0,00"),
    ];
    let (status, html) = review(&app, &fields).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    for id in ["chave-erro", "nome-erro", "cidade-erro", "valor-erro"] {
        assert!(html.contains(&format!("id=\"{id}\"")), "a message for {id}");
    }
    assert!(html.contains("25"), "the name limit is named");
    assert!(
        html.contains("value=\"Comercio de Alimentos Naturais Ltda\""),
        "typed values are kept"
    );
    app.stop().await;
}

#[tokio::test]
async fn submitting_the_same_confirmation_twice_makes_one_code() {
    let app = TestApp::spawn().await;
    let order = "3b0c9a54-5b0e-4c8e-9e8f-6a7b8c9d0e1f";
    let first = confirm(&app, &PADARIA, order).await;
    let second = confirm(&app, &PADARIA, order).await;
    assert_eq!(first.headers()["location"], second.headers()["location"]);
    let pool = sqlx::PgPool::connect(&app.settings.database_url)
        .await
        .expect("db");
    // One code: one stream, written once (its creation and its management link, in one command).
    let (streams, commands): (i64, i64) =
        sqlx::query_as("select count(distinct stream_id), count(distinct tx_id::text) from events")
            .fetch_one(&pool)
            .await
            .expect("count");
    assert_eq!((streams, commands), (1, 1));
    let created: i64 =
        sqlx::query_scalar("select count(*) from events where event_type = 'QrCodeCreated'")
            .fetch_one(&pool)
            .await
            .expect("count");
    assert_eq!(created, 1);
    pool.close().await;
    app.stop().await;
}

#[tokio::test]
async fn an_unknown_payer_page_is_the_404_page() {
    let app = TestApp::spawn().await;
    for path in [
        "/pagamento/0a6b5c1e-6a1f-4c55-9d0e-2d3a4b5c6d7e",
        "/pagamento/nao-e-um-id",
    ] {
        let response = app.get(path).await;
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{path}");
        let html = response.text().await.expect("body");
        assert!(html.contains("<title>Page Not Found</title>"), "{path}");
        assert!(html.contains("Página não encontrada"));
    }
    app.stop().await;
}

#[tokio::test]
async fn public_creation_is_rate_limited_per_client_address() {
    let app = TestApp::spawn_with(|s| s.create_per_minute = 2).await;
    let orders = [
        "11111111-1111-4111-8111-111111111111",
        "22222222-2222-4222-8222-222222222222",
        "33333333-3333-4333-8333-333333333333",
    ];
    assert_eq!(
        confirm(&app, &PADARIA, orders[0]).await.status(),
        StatusCode::SEE_OTHER
    );
    assert_eq!(
        confirm(&app, &PADARIA, orders[1]).await.status(),
        StatusCode::SEE_OTHER
    );
    let refused = confirm(&app, &PADARIA, orders[2]).await;
    assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(refused.headers().contains_key("retry-after"));
    assert!(
        refused
            .text()
            .await
            .expect("body")
            .contains("Muitas tentativas")
    );
    app.stop().await;
}

#[tokio::test]
async fn health_readiness_and_metrics_answer() {
    let app = TestApp::spawn().await;
    let client = app.client();
    assert_eq!(
        client
            .get(app.url("/healthz"))
            .send()
            .await
            .expect("healthz")
            .status(),
        StatusCode::OK
    );
    // Readiness may take a moment while NATS connects; it must come within a bounded wait.
    eventually("/readyz to answer 200", async || {
        let ready = client
            .get(app.url("/readyz"))
            .send()
            .await
            .expect("readyz")
            .status();
        (ready == StatusCode::OK).then_some(())
    })
    .await;
    confirm(&app, &PADARIA, "44444444-4444-4444-8444-444444444444").await;
    let metrics = app.metrics().await;
    for name in [
        "balcao_commands_total",
        "balcao_command_duration_seconds",
        "balcao_oldest_transaction_age_seconds",
    ] {
        assert!(metrics.contains(name), "{name} in /metrics");
    }
    app.stop().await;
}
