//! Institutional pages written in Markdown: privacy, terms of use, about us, the API page and the FAQ.

use askama::Template;
use axum::extract::State;

use crate::content;
use crate::error::AppError;
use crate::html::{HtmlTemplate, Meta};
use crate::state::AppState;

/// A page rendered from `gateway/content/paginas/{name}.md`.
#[derive(Template)]
#[template(path = "page.html")]
pub struct MarkdownPage {
    /// Head data.
    pub meta: Meta,
    /// The `<h1>`.
    pub heading: String,
    /// Last update in pt-BR prose, or empty.
    pub updated: String,
    /// The body as HTML.
    pub body: String,
}

fn render(
    state: &AppState,
    name: &str,
    path: &str,
) -> Result<HtmlTemplate<MarkdownPage>, AppError> {
    let page = content::page(name).ok_or(AppError::NotFound)?;
    let meta = Meta::page(
        &state.site,
        path,
        format!("{} | Balcão", page.title),
        page.description.clone(),
    )
    .with_json_ld(&state.site.organization_json_ld());
    Ok(HtmlTemplate(MarkdownPage {
        meta,
        heading: page.title.clone(),
        updated: page.date_pt_br(),
        body: page.html(&state.site),
    }))
}

/// `GET /privacidade`.
pub async fn privacy(
    State(state): State<AppState>,
) -> Result<HtmlTemplate<MarkdownPage>, AppError> {
    render(&state, "privacidade", "/privacidade")
}

/// `GET /termos-de-uso`.
pub async fn terms(State(state): State<AppState>) -> Result<HtmlTemplate<MarkdownPage>, AppError> {
    render(&state, "termos-de-uso", "/termos-de-uso")
}

/// `GET /sobre-nos`.
pub async fn about(State(state): State<AppState>) -> Result<HtmlTemplate<MarkdownPage>, AppError> {
    render(&state, "sobre-nos", "/sobre-nos")
}

/// `GET /api-pix`.
pub async fn api_pix(
    State(state): State<AppState>,
) -> Result<HtmlTemplate<MarkdownPage>, AppError> {
    render(&state, "api-pix", "/api-pix")
}

/// `GET /painel/duvidas`: the whole FAQ, with FAQPage structured data.
pub async fn faq(State(state): State<AppState>) -> Result<HtmlTemplate<MarkdownPage>, AppError> {
    let mut page = render(&state, "duvidas", "/painel/duvidas")?;
    page.0.meta = page.0.meta.with_json_ld(&faq_json_ld(&content::FAQ));
    Ok(page)
}

/// FAQPage structured data for a list of questions.
pub fn faq_json_ld(questions: &[content::Question]) -> serde_json::Value {
    serde_json::json!({
        "@context": "https://schema.org",
        "@type": "FAQPage",
        "mainEntity": questions.iter().map(|q| serde_json::json!({
            "@type": "Question",
            "name": q.question,
            "acceptedAnswer": {"@type": "Answer", "text": q.answer_text},
        })).collect::<Vec<_>>(),
    })
}
