//! The blog: its index at `/blog` and one page per article at `/{slug}`.

use askama::Template;
use axum::extract::{Path, State};

use crate::content::{self, Article};
use crate::error::AppError;
use crate::html::{HtmlTemplate, Meta};
use crate::state::AppState;

/// One article's page.
#[derive(Template)]
#[template(path = "article.html")]
pub struct ArticlePage {
    /// Head data.
    pub meta: Meta,
    /// The article.
    pub article: &'static Article,
    /// Related articles that exist.
    pub related: Vec<&'static Article>,
}

/// The list of every article.
#[derive(Template)]
#[template(path = "blog.html")]
pub struct BlogPage {
    /// Head data.
    pub meta: Meta,
    /// Every article, newest first.
    pub articles: &'static [Article],
}

/// `GET /blog`.
pub async fn blog(State(state): State<AppState>) -> HtmlTemplate<BlogPage> {
    let meta = Meta::page(
        &state.site,
        "/blog",
        "Artigos sobre Pix, QR code e placas Pix | Balcão",
        "Guias práticos sobre Pix para o seu negócio: como criar, imprimir e usar QR codes e placas Pix com segurança.",
    )
    .with_json_ld(&state.site.organization_json_ld());
    HtmlTemplate(BlogPage {
        meta,
        articles: &content::ARTICLES,
    })
}

/// `GET /{slug}` for an article; any other single-segment path is the 404 page.
pub async fn article(
    State(state): State<AppState>,
    Path(slug): Path<String>,
) -> Result<HtmlTemplate<ArticlePage>, AppError> {
    let article = content::article(&slug).ok_or(AppError::NotFound)?;
    let path = format!("/{}", article.slug);
    let json_ld = serde_json::json!({
        "@context": "https://schema.org",
        "@type": "Article",
        "headline": article.title,
        "description": article.description,
        "datePublished": article.date,
        "inLanguage": "pt-BR",
        "mainEntityOfPage": format!("{}{}", state.site.url, path),
        "author": {"@type": "Organization", "name": "Balcão"},
        "publisher": {"@type": "Organization", "name": "Balcão", "url": state.site.url},
    });
    let mut meta = Meta::page(
        &state.site,
        &path,
        format!("{} | Balcão", article.title),
        article.description.clone(),
    )
    .with_json_ld(&json_ld);
    meta.og_type = "article";
    let related = article
        .related
        .iter()
        .filter_map(|s| content::article(s))
        .collect();
    Ok(HtmlTemplate(ArticlePage {
        meta,
        article,
        related,
    }))
}
