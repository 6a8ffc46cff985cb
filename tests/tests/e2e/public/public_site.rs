//! The public site: every page answers in Portuguese with its own title and description, a crawl
//! from the home page finds no broken internal link, and unknown paths get the 404 page.

use std::collections::{BTreeSet, HashMap, VecDeque};

use reqwest::StatusCode;
use tests::{TestApp, first_element_text, internal_links, meta_content};

const ARTICLES: [&str; 24] = [
    "/beneficios-gerador-qrcode-pix",
    "/desvendando-9-duvidas-comuns-pix",
    "/desvendando-potencial-placa-pix",
    "/dicas-essenciais-qrcode-pix",
    "/diferenca-pix-estatico-dinamico",
    "/fazer-qrcode-pix-para-empresas",
    "/ferramenta-gerador-qrcode-pix",
    "/gerar-pix-notebook",
    "/gerenciando-pagamentos-pix",
    "/guia-qrcode-pix-para-impressao",
    "/passo-a-passo-criar-placa-pix",
    "/passo-a-passo-enviar-qrcode-pix",
    "/pix-seguro",
    "/placa-pix-qrcode-solucao-pagamento",
    "/placa-qrcode-pix-aliada",
    "/placa-qrcode-pix-pagamento-moderno",
    "/qrcode-pix-estatico",
    "/qrcode-pix-no-comercio",
    "/qrcode-pix-ponto-de-venda",
    "/razoes-pix-melhor-metodo-pagamento",
    "/reutilizar-pix-estatico",
    "/saiba-o-que-e-qr-code",
    "/ted-doc-pix-diferenca",
    "/vantagens-desvantagens-dinheiro-fisico",
];

const PAGES: [&str; 8] = [
    "/",
    "/blog",
    "/criar-placa-pix",
    "/privacidade",
    "/termos-de-uso",
    "/sobre-nos",
    "/api-pix",
    "/painel/duvidas",
];

#[tokio::test]
async fn every_public_path_answers_200_in_portuguese_with_a_unique_title_and_description() {
    let app = TestApp::spawn().await;
    let client = app.client();
    let mut titles: HashMap<String, &str> = HashMap::new();
    let mut descriptions: HashMap<String, &str> = HashMap::new();
    for path in PAGES.iter().chain(ARTICLES.iter()) {
        let response = client.get(app.url(path)).send().await.expect("request");
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        let html = response.text().await.expect("body");
        assert!(html.contains("<html lang=\"pt-BR\">"), "{path}: pt-BR lang");
        let title = first_element_text(&html, "title").expect("a title");
        let description = meta_content(&html, "description").expect("a description");
        assert!(!title.is_empty() && !description.is_empty(), "{path}");
        assert!(
            html.contains("<link rel=\"canonical\" href=\"http://balcao.test"),
            "{path}: canonical"
        );
        assert!(html.contains("property=\"og:title\""), "{path}: Open Graph");
        assert!(html.contains("application/ld+json"), "{path}: JSON-LD");
        if let Some(other) = titles.insert(title.clone(), path) {
            panic!("{path} and {other} share the title {title:?}");
        }
        if let Some(other) = descriptions.insert(description.clone(), path) {
            panic!("{path} and {other} share the description {description:?}");
        }
    }
    app.stop().await;
}

#[tokio::test]
async fn articles_carry_article_data_and_link_to_the_sign_creator() {
    let app = TestApp::spawn().await;
    for path in ARTICLES {
        let html = app.get_text(path).await;
        assert!(
            html.contains("\"@type\":\"Article\""),
            "{path}: Article JSON-LD"
        );
        assert!(html.contains("min de leitura"), "{path}: reading time");
        assert!(
            html.contains("href=\"/criar-placa-pix\""),
            "{path}: link to the sign creator"
        );
        assert!(!html.contains("PIX"), "{path}: the brand is written Pix");
    }
    app.stop().await;
}

#[tokio::test]
async fn a_crawl_from_the_home_page_finds_no_broken_internal_link() {
    let app = TestApp::spawn().await;
    let client = app.client();
    let mut seen = BTreeSet::from(["/".to_owned()]);
    let mut queue = VecDeque::from(["/".to_owned()]);
    let mut broken = Vec::new();
    while let Some(path) = queue.pop_front() {
        let response = client.get(app.url(&path)).send().await.expect("request");
        // A link to the dashboard is answered, signed out, with a redirect to `/entrar`: not broken
        // as long as where it leads is not.
        if response.status().is_redirection() {
            let location = response
                .headers()
                .get("location")
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
                .to_owned();
            if !location.starts_with('/') || location.starts_with("//") {
                broken.push(format!("{path}: {} to {location:?}", response.status()));
            } else if seen.insert(location.clone()) {
                queue.push_back(location);
            }
            continue;
        }
        if !response.status().is_success() {
            broken.push(format!("{path}: {}", response.status()));
            continue;
        }
        let is_html = response
            .headers()
            .get("content-type")
            .is_some_and(|v| v.to_str().unwrap_or_default().starts_with("text/html"));
        if !is_html {
            continue;
        }
        for link in internal_links(&response.text().await.expect("body")) {
            if seen.insert(link.clone()) {
                queue.push_back(link);
            }
        }
    }
    assert!(broken.is_empty(), "broken links: {broken:#?}");
    for article in ARTICLES {
        assert!(
            seen.contains(article),
            "{article} is reachable from the home page"
        );
    }
    app.stop().await;
}

#[tokio::test]
async fn unknown_paths_answer_404_with_the_page_not_found_page() {
    let app = TestApp::spawn().await;
    for path in ["/nao-existe", "/a/b/c", "/static/nada.css"] {
        let response = app.get(path).await;
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{path}");
        let html = response.text().await.expect("body");
        assert!(html.contains("<title>Page Not Found</title>"), "{path}");
        assert!(
            html.contains("Voltar para a página inicial"),
            "{path}: a way back"
        );
    }
    app.stop().await;
}

#[tokio::test]
async fn the_sitemap_lists_every_article_and_robots_points_to_it() {
    let app = TestApp::spawn().await;
    let sitemap = app.get_text("/sitemap.xml").await;
    for path in ARTICLES.iter().chain(PAGES.iter()) {
        assert!(
            sitemap.contains(&format!("<loc>http://balcao.test{path}</loc>")),
            "{path} in the sitemap"
        );
    }
    let robots = app.get_text("/robots.txt").await;
    assert!(robots.contains("Sitemap: http://balcao.test/sitemap.xml"));
    assert!(robots.contains("Disallow: /pagamento/"));
    app.stop().await;
}

#[tokio::test]
async fn static_assets_have_hashed_names_long_caching_and_compression() {
    let app = TestApp::spawn().await;
    let home = app.get_text("/").await;
    let css = internal_links(&home)
        .into_iter()
        .find(|l| l.starts_with("/static/site.") && l.ends_with(".css"))
        .expect("a hashed stylesheet");
    let response = app
        .client()
        .get(app.url(&css))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );
    assert_eq!(response.headers()["content-encoding"], "gzip");
    app.stop().await;
}

#[tokio::test]
async fn analytics_are_off_by_default_and_load_only_through_the_consent_script_when_configured() {
    let off = TestApp::spawn().await;
    let html = off.get_text("/").await;
    assert!(
        !html.contains("googletagmanager"),
        "nothing loads by default"
    );
    assert!(!html.contains("consentimento"));
    off.stop().await;

    let on = TestApp::spawn_with(|s| s.analytics_id = Some("G-TESTE123".to_owned())).await;
    let html = on.get_text("/").await;
    assert!(html.contains("data-measurement-id=\"G-TESTE123\""));
    assert!(
        !html.contains("googletagmanager"),
        "the tag manager is not in the page: the script adds it after consent"
    );
    on.stop().await;
}

#[tokio::test]
async fn pages_carry_security_headers() {
    let app = TestApp::spawn().await;
    for path in ["/", "/criar-placa-pix", "/nao-existe"] {
        let response = app.get(path).await;
        let headers = response.headers();
        assert_eq!(headers["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(headers["x-frame-options"], "DENY", "{path}");
        let csp = headers["content-security-policy"].to_str().expect("ascii");
        assert!(
            csp.contains("default-src 'self'") && csp.contains("frame-ancestors 'none'"),
            "{path}"
        );
    }
    app.stop().await;
}

#[tokio::test]
async fn the_privacy_policy_names_the_controller_its_cnpj_and_the_officer_from_configuration() {
    let app = TestApp::spawn_with(|settings| {
        settings.controller_name = "Balcão Tecnologia Ltda.".to_owned();
        settings.controller_cnpj = Some("11222333000181".to_owned());
        settings.dpo_contact = Some("encarregado@balcao.example".to_owned());
    })
    .await;
    let page = app.get_text("/privacidade").await;
    assert!(
        page.contains("Balcão Tecnologia Ltda., inscrito no CNPJ 11.222.333/0001-81"),
        "the controller and its CNPJ"
    );
    assert!(page.contains("encarregado@balcao.example"), "the officer");
}

#[tokio::test]
async fn without_configuration_the_privacy_policy_names_balcao_and_the_contact_address_for_the_officer()
 {
    let app = TestApp::spawn().await;
    let page = app.get_text("/privacidade").await;
    assert!(!page.contains("{{"), "no placeholder left");
    assert!(page.contains("O encarregado pelo tratamento de dados pessoais"));
    assert!(!page.contains("inscrito no CNPJ"), "no CNPJ was configured");
}
