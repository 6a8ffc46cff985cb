//! `/entrar` and `/criar-conta` while accounts are being built: an honest page that says so and
//! points to what works today, instead of a form that cannot work.

use askama::Template;
use axum::extract::State;

use crate::html::{HtmlTemplate, Meta};
use crate::state::AppState;

/// The "not built yet" page.
#[derive(Template)]
#[template(path = "coming_soon.html")]
pub struct ComingSoonPage {
    /// Head data.
    pub meta: Meta,
    /// The `<h1>`.
    pub heading: &'static str,
    /// What cannot be done yet, completing "não é possível …".
    pub action: &'static str,
}

/// `GET /entrar`.
pub async fn login(State(state): State<AppState>) -> HtmlTemplate<ComingSoonPage> {
    HtmlTemplate(ComingSoonPage {
        meta: Meta::unindexed(
            Some(&state.site),
            "Entrar | Balcão",
            "Entre na sua conta do Balcão para administrar chaves, QR codes e vendas.",
        ),
        heading: "Entrar",
        action: "entrar em uma conta",
    })
}

/// `GET /criar-conta`.
pub async fn sign_up(State(state): State<AppState>) -> HtmlTemplate<ComingSoonPage> {
    HtmlTemplate(ComingSoonPage {
        meta: Meta::unindexed(
            Some(&state.site),
            "Criar conta | Balcão",
            "Crie sua conta no Balcão para administrar chaves Pix, QR codes, vendas e contas extras.",
        ),
        heading: "Criar conta",
        action: "criar uma conta",
    })
}
