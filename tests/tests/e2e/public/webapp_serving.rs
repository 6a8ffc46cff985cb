//! The gateway serves the built dashboard: its pages get `index.html` (`no-cache`, the app's own
//! content security policy), its hashed assets are cached for good, the build manifest never,
//! and a server without a build says so in pt-BR instead of failing. The dashboard (`/painel/*`)
//! is the app only for a browser with the signed-in hint cookie: anyone else is sent to `/entrar`.

use reqwest::StatusCode;
use tests::{FIXTURE_BUILD_ID, TestApp};

const APP_PAGES: [&str; 9] = [
    "/entrar",
    "/criar-conta",
    "/recuperar-senha",
    "/redefinir-senha?oobCode=abc",
    "/verificar-email?oobCode=abc",
    "/painel",
    "/painel/boas-vindas",
    "/painel/qrcodes",
    "/painel/convite?codigo=xyz",
];

/// The cookie every session sets beside the refresh cookie (`auth::cookie::SIGNED_IN_HINT_COOKIE`).
const SIGNED_IN_HINT: &str = "balcao_painel=1";

/// `GET path` as a browser holding a session does: with the signed-in hint cookie.
async fn get_signed_in(app: &TestApp, path: &str) -> reqwest::Response {
    app.client()
        .get(app.url(path))
        .header("cookie", SIGNED_IN_HINT)
        .send()
        .await
        .expect("the server answers")
}

fn header<'a>(response: &'a reqwest::Response, name: &str) -> &'a str {
    response
        .headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
}

#[tokio::test]
async fn the_apps_pages_get_index_html_revalidated_on_every_visit() {
    let app = TestApp::spawn().await;
    for path in APP_PAGES {
        let response = get_signed_in(&app, path).await;
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        assert_eq!(header(&response, "cache-control"), "no-cache", "{path}");
        assert_eq!(
            header(&response, "content-type"),
            "text/html; charset=utf-8",
            "{path}"
        );
        let csp = header(&response, "content-security-policy").to_owned();
        assert!(csp.contains("script-src 'self';"), "{path}: {csp}");
        assert!(!csp.contains("unsafe-inline"), "{path}: {csp}");
        assert!(
            !csp.contains("googletagmanager"),
            "{path}: the app loads no tag manager"
        );
        assert_eq!(header(&response, "x-frame-options"), "DENY");
        let html = response.text().await.expect("body");
        assert!(html.contains("/painel/assets/index-abc123.js"), "{path}");
    }
    app.stop().await;
}

/// Issue 32: an address under `/painel/` that is no screen of the app gets the app (which shows its
/// "page not found") with a 404 status, never a 200 nor a 304.
#[tokio::test]
async fn an_address_that_is_no_screen_of_the_dashboard_answers_404_with_the_app() {
    let app = TestApp::spawn().await;
    for path in [
        "/painel/uma-tela-que-nao-existe",
        "/painel/qrcodes/123/editar",
    ] {
        let response = get_signed_in(&app, path).await;
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{path}");
        assert_eq!(
            header(&response, "content-type"),
            "text/html; charset=utf-8",
            "{path}"
        );
        let html = response.text().await.expect("body");
        assert!(html.contains("/painel/assets/index-abc123.js"), "{path}");
    }
    app.stop().await;
}

#[tokio::test]
async fn a_visitor_without_a_session_is_sent_to_sign_in_and_brought_back_after() {
    let app = TestApp::spawn().await;
    for (path, to) in [
        ("/painel", "/entrar"),
        ("/painel/", "/entrar"),
        ("/painel/qrcodes", "/entrar?continuar=%2Fpainel%2Fqrcodes"),
        (
            "/painel/convite?codigo=xyz",
            "/entrar?continuar=%2Fpainel%2Fconvite%3Fcodigo%3Dxyz",
        ),
    ] {
        let response = app.get(path).await;
        assert_eq!(response.status(), StatusCode::SEE_OTHER, "{path}");
        assert_eq!(header(&response, "location"), to, "{path}");
        assert_eq!(header(&response, "cache-control"), "no-store", "{path}");
        assert_eq!(header(&response, "vary"), "cookie", "{path}");
    }
    // An empty hint is what signing out leaves behind: no session.
    let ended = app
        .client()
        .get(app.url("/painel/chaves"))
        .header("cookie", "balcao_painel=")
        .send()
        .await
        .expect("answer");
    assert_eq!(ended.status(), StatusCode::SEE_OTHER);
    // With the hint the app is served, and caches keep the two answers apart.
    let shell = get_signed_in(&app, "/painel/qrcodes").await;
    assert_eq!(shell.status(), StatusCode::OK);
    assert_eq!(header(&shell, "vary"), "cookie");
    // The page shown once an account is deleted comes after the session ended.
    let deleted = app.get("/painel/conta-excluida").await;
    assert_eq!(deleted.status(), StatusCode::OK);
    // The sign-in pages and the server-side FAQ need no session.
    for open in ["/entrar", "/criar-conta", "/painel/duvidas"] {
        assert_eq!(app.get(open).await.status(), StatusCode::OK, "{open}");
    }
    // Nothing of the dashboard reaches a crawler, so robots.txt need not hide it.
    let robots = app.get_text("/robots.txt").await;
    assert!(!robots.contains("Disallow: /painel"), "{robots}");
    app.stop().await;
}

#[tokio::test]
async fn index_html_answers_304_when_the_browser_has_the_same_version() {
    let app = TestApp::spawn().await;
    let first = get_signed_in(&app, "/painel").await;
    let etag = header(&first, "etag").to_owned();
    assert!(etag.starts_with('"'), "{etag}");
    let again = app
        .client()
        .get(app.url("/painel/chaves"))
        .header("cookie", SIGNED_IN_HINT)
        .header("if-none-match", &etag)
        .send()
        .await
        .expect("answer");
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    assert_eq!(header(&again, "cache-control"), "no-cache");
    app.stop().await;
}

#[tokio::test]
async fn hashed_assets_are_cached_for_a_year_and_the_manifest_never() {
    let app = TestApp::spawn().await;
    let script = app.get("/painel/assets/index-abc123.js").await;
    assert_eq!(script.status(), StatusCode::OK);
    assert_eq!(
        header(&script, "cache-control"),
        "public, max-age=31536000, immutable"
    );
    assert_eq!(
        header(&script, "content-type"),
        "text/javascript; charset=utf-8"
    );
    let style = app.get("/painel/assets/index-def456.css").await;
    assert_eq!(header(&style, "content-type"), "text/css; charset=utf-8");

    let manifest = app.get("/builds/latest.json").await;
    assert_eq!(manifest.status(), StatusCode::OK);
    assert_eq!(header(&manifest, "cache-control"), "no-store");
    assert_eq!(header(&manifest, "content-type"), "application/json");
    let body: serde_json::Value = manifest.json().await.expect("JSON");
    assert_eq!(body["buildId"], FIXTURE_BUILD_ID);

    for missing in [
        "/painel/assets/nao-existe.js",
        "/painel/assets/..%2Findex.html",
        "/painel/assets/..%2F..%2FCargo.toml",
    ] {
        let response = app.get(missing).await;
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{missing}");
    }
    app.stop().await;
}

#[tokio::test]
async fn the_faq_and_the_old_index_stay_server_side() {
    let app = TestApp::spawn().await;
    let faq = app.get_text("/painel/duvidas").await;
    assert!(!faq.contains("index-abc123.js"), "the FAQ is not the app");
    assert!(faq.contains("<html lang=\"pt-BR\">"));
    let old = app.get("/painel/index_old").await;
    assert_eq!(old.status(), StatusCode::MOVED_PERMANENTLY);
    assert_eq!(header(&old, "location"), "/painel");
    // The public site keeps its own policy (the tag manager after consent).
    let home = app.get("/").await;
    assert!(header(&home, "content-security-policy").contains("googletagmanager"));
    app.stop().await;
}

#[tokio::test]
async fn the_dashboard_reads_the_same_faq_as_json() {
    let app = TestApp::spawn().await;
    let response = app.get("/api/faq").await;
    assert_eq!(response.status(), StatusCode::OK);
    let faq: serde_json::Value = response.json().await.expect("JSON");
    assert_eq!(faq["title"], "Perguntas frequentes sobre o Balcão e o Pix");
    let body = faq["bodyHtml"].as_str().expect("the body");
    assert!(body.contains("<h2>O que é o Balcão?</h2>"), "{body}");
    // The same words the server-rendered page shows.
    let page = app.get_text("/painel/duvidas").await;
    assert!(page.contains("O que é o Balcão?"));
    app.stop().await;
}

#[tokio::test]
async fn api_paths_always_answer_json_and_are_never_cached() {
    let app = TestApp::spawn().await;
    for path in ["/api", "/api/", "/api/nada", "/api/auth/nada/mais"] {
        let response = app.get(path).await;
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{path}");
        assert_eq!(header(&response, "cache-control"), "no-store", "{path}");
        let body: serde_json::Value = response.json().await.expect("JSON");
        assert_eq!(body["error"]["code"], "not-found", "{path}");
        assert_eq!(
            body["error"]["message"],
            "Não encontramos o que você procurou."
        );
    }
    app.stop().await;
}

#[tokio::test]
async fn without_a_build_the_apps_pages_say_so_in_portuguese() {
    let app = TestApp::spawn_with(|settings| {
        settings.webapp_dir = std::env::temp_dir().join("balcao-painel-que-nao-existe");
    })
    .await;
    for path in ["/entrar", "/painel", "/painel/chaves"] {
        let response = get_signed_in(&app, path).await;
        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE, "{path}");
        assert_eq!(header(&response, "cache-control"), "no-store");
        let html = response.text().await.expect("body");
        assert!(html.contains("<html lang=\"pt-BR\">"), "{path}");
        assert!(
            html.contains("O painel ainda não está disponível"),
            "{path}"
        );
        assert!(html.contains("ainda não foi construído"), "{path}");
    }
    let manifest = app.get("/builds/latest.json").await;
    assert_eq!(manifest.status(), StatusCode::SERVICE_UNAVAILABLE);
    let body: serde_json::Value = manifest.json().await.expect("JSON");
    assert_eq!(body["error"]["code"], "webapp-not-built");
    assert_eq!(
        app.get("/painel/assets/index-abc123.js").await.status(),
        StatusCode::NOT_FOUND
    );
    // The rest of the site is unaffected.
    assert_eq!(app.get("/").await.status(), StatusCode::OK);
    app.stop().await;
}
