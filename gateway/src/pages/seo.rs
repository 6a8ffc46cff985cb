//! `sitemap.xml` and `robots.txt`.

use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;

use crate::content;
use crate::state::AppState;

/// Public, indexable paths that are not articles.
pub const STATIC_PATHS: [&str; 8] = [
    "/",
    "/criar-placa-pix",
    "/blog",
    "/sobre-nos",
    "/privacidade",
    "/termos-de-uso",
    "/api-pix",
    "/painel/duvidas",
];

/// `GET /sitemap.xml`: every indexable page.
pub async fn sitemap(State(state): State<AppState>) -> impl IntoResponse {
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for path in STATIC_PATHS {
        xml.push_str(&format!(
            "  <url><loc>{}{path}</loc></url>\n",
            state.site.url
        ));
    }
    for article in content::ARTICLES.iter() {
        xml.push_str(&format!(
            "  <url><loc>{}/{}</loc><lastmod>{}</lastmod></url>\n",
            state.site.url, article.slug, article.date
        ));
    }
    xml.push_str("</urlset>\n");
    (
        [(header::CONTENT_TYPE, "application/xml; charset=utf-8")],
        xml,
    )
}

/// `GET /robots.txt`: everything public may be crawled; payer pages and the API not. The dashboard
/// is not listed: without a session `/painel/*` answers a redirect to `/entrar`
/// (`spa::panel_gate`), so a crawler finds nothing there but the sign-in page.
pub async fn robots(State(state): State<AppState>) -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        format!(
            "User-agent: *\nAllow: /\nDisallow: /pagamento/\nDisallow: /api/\n\nSitemap: {}/sitemap.xml\n",
            state.site.url
        ),
    )
}
