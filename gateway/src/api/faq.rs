//! `GET /api/faq`: the FAQ for the dashboard, which shows it inside its own frame (menu, the
//! signed-in person) instead of sending a signed-in visitor to the public page
//! `/painel/duvidas`. Both render the same file, `gateway/content/paginas/duvidas.md`.

use axum::extract::State;
use serde::Serialize;

use crate::api::json::Json;
use crate::content;
use crate::error::ApiError;
use crate::state::AppState;

/// The FAQ page: its title and its body as HTML.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Faq {
    /// The page's heading.
    pub title: String,
    /// The whole body rendered from Markdown (raw HTML in the source is escaped as text).
    pub body_html: String,
}

/// `GET /api/faq` → `{title, bodyHtml}`; public, like the page it mirrors.
pub async fn faq(State(state): State<AppState>) -> Result<Json<Faq>, ApiError> {
    let page = content::page("duvidas").ok_or_else(ApiError::not_found)?;
    Ok(Json(Faq {
        title: page.title.clone(),
        body_html: page.html(&state.site),
    }))
}
