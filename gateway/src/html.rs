//! Rendering askama templates into responses, and what every public page's `<head>` carries.

use askama::Template;
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};

use crate::assets::embedded as assets;

/// Wraps a template so a handler can return it; a render failure becomes a plain 500.
pub struct HtmlTemplate<T>(pub T);

impl<T: Template> IntoResponse for HtmlTemplate<T> {
    fn into_response(self) -> Response {
        match self.0.render() {
            Ok(html) => Html(html).into_response(),
            Err(error) => render_failure(&error),
        }
    }
}

/// The plain 500 of a page whose template failed, carrying the cause for
/// [`crate::telemetry::log_failures`], which logs it once with the request's route.
pub fn render_failure(error: &dyn std::fmt::Display) -> Response {
    let mut response = (
        StatusCode::INTERNAL_SERVER_ERROR,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        "Erro interno do servidor.",
    )
        .into_response();
    response
        .extensions_mut()
        .insert(crate::telemetry::FailureCause(
            format!("template failed to render: {error}").into(),
        ));
    response
}

/// What the layout needs to know about the page: title, description, canonical URL, social cards
/// and structured data.
#[derive(Debug, Clone)]
pub struct Meta {
    /// `<title>`, unique per page.
    pub title: String,
    /// `<meta name="description">`, unique per page.
    pub description: String,
    /// Absolute canonical URL; `None` for pages that should not be indexed.
    pub canonical: Option<String>,
    /// Open Graph type: `website` or `article`.
    pub og_type: &'static str,
    /// JSON-LD documents, already serialised.
    pub json_ld: Vec<String>,
    /// Asks search engines not to index the page.
    pub noindex: bool,
    /// Tag-manager measurement id, when analytics are configured.
    pub analytics_id: Option<String>,
    /// Path of the hashed stylesheet.
    pub css: &'static str,
    /// Path of the hashed script for the consent banner and analytics.
    pub analytics_js: &'static str,
    /// Hashed path of the script that shows "Painel" in the header to a signed-in visitor.
    pub session_js: &'static str,
    /// The site's base URL.
    pub site_url: String,
}

impl Meta {
    /// Meta for an indexable page at `path` (which starts with `/`).
    pub fn page(
        site: &Site,
        path: &str,
        title: impl Into<String>,
        description: impl Into<String>,
    ) -> Self {
        Meta {
            title: title.into(),
            description: description.into(),
            canonical: Some(format!("{}{}", site.url, path)),
            og_type: "website",
            json_ld: Vec::new(),
            noindex: false,
            analytics_id: site.analytics_id.clone(),
            css: assets::stylesheet_path(),
            analytics_js: assets::analytics_script_path(),
            session_js: assets::session_hint_script_path(),
            site_url: site.url.clone(),
        }
    }

    /// Meta for a page search engines should leave out (forms' results, errors, payer pages).
    pub fn unindexed(
        site: Option<&Site>,
        title: impl Into<String>,
        description: impl Into<String>,
    ) -> Self {
        Meta {
            title: title.into(),
            description: description.into(),
            canonical: None,
            og_type: "website",
            json_ld: Vec::new(),
            noindex: true,
            analytics_id: site.and_then(|s| s.analytics_id.clone()),
            css: assets::stylesheet_path(),
            analytics_js: assets::analytics_script_path(),
            session_js: assets::session_hint_script_path(),
            site_url: site.map(|s| s.url.clone()).unwrap_or_default(),
        }
    }

    /// Adds a JSON-LD document, escaped so it cannot close its `<script>` element.
    pub fn with_json_ld(mut self, document: &serde_json::Value) -> Self {
        self.json_ld
            .push(document.to_string().replace("</", "<\\/"));
        self
    }
}

/// Site-wide facts from configuration that pages print.
#[derive(Debug, Clone)]
pub struct Site {
    /// Public base URL without a trailing slash.
    pub url: String,
    /// Contact e-mail for the legal pages.
    pub contact_email: String,
    /// Tag-manager measurement id, when configured.
    pub analytics_id: Option<String>,
    /// Who the privacy policy names as the data controller and its officer.
    pub controller: Controller,
}

/// The data controller (LGPD art. 5, VI) and its data-protection officer (art. 41), as the
/// privacy policy prints them (`BALCAO_CONTROLLER_NAME`, `BALCAO_CONTROLLER_CNPJ`,
/// `BALCAO_DPO_CONTACT`).
#[derive(Debug, Clone)]
pub struct Controller {
    /// The company's legal name.
    pub name: String,
    /// Its CNPJ, formatted (`12.345.678/0001-95`), when configured.
    pub cnpj: Option<String>,
    /// How to reach the data-protection officer.
    pub dpo_contact: String,
}

impl Controller {
    /// The controller from configuration: the CNPJ must be a real one (check digits), so a typo
    /// never reaches the legal page. `dpo_contact` falls back to `contact_email`.
    pub fn from_config(
        name: &str,
        cnpj: Option<&str>,
        dpo_contact: Option<&str>,
        contact_email: &str,
    ) -> anyhow::Result<Self> {
        let cnpj = match cnpj.map(str::trim).filter(|c| !c.is_empty()) {
            None => None,
            Some(typed) => Some(
                domain::pix_key::Cnpj::parse(typed)
                    .map_err(|error| anyhow::anyhow!("BALCAO_CONTROLLER_CNPJ {typed:?}: {error}"))?
                    .formatted(),
            ),
        };
        Ok(Controller {
            name: name.trim().to_owned(),
            cnpj,
            dpo_contact: dpo_contact
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .unwrap_or(contact_email)
                .to_owned(),
        })
    }
}

impl Site {
    /// The Organization JSON-LD every page of the site shares.
    pub fn organization_json_ld(&self) -> serde_json::Value {
        serde_json::json!({
            "@context": "https://schema.org",
            "@type": "Organization",
            "name": "Balcão",
            "url": self.url,
            "logo": format!("{}/favicon.svg", self.url),
            "email": self.contact_email,
        })
    }
}

/// The 404 and 500 pages (and the other error statuses), with a pt-BR body and a way back.
#[derive(Template)]
#[template(path = "error.html")]
pub struct ErrorPage {
    /// Head data.
    pub meta: Meta,
    /// The status code shown.
    pub status: u16,
    /// The page heading.
    pub heading: &'static str,
    /// The explanation in pt-BR.
    pub message: String,
}

impl ErrorPage {
    /// The page for an error status. 404 is titled "Page Not Found"; anything unexpected
    /// "Internal Server Error".
    pub fn for_status(status: StatusCode) -> HtmlTemplate<ErrorPage> {
        Self::explaining(status, None)
    }

    /// The page for an error status, with `message` (a refusal's own pt-BR words) in place of the
    /// status's general explanation when given.
    pub fn explaining(status: StatusCode, message: Option<String>) -> HtmlTemplate<ErrorPage> {
        let (title, heading, general) = match status {
            StatusCode::NOT_FOUND => (
                "Page Not Found",
                "Página não encontrada",
                "O endereço que você abriu não existe ou foi removido. Confira o link ou volte para a página inicial.",
            ),
            StatusCode::CONFLICT => (
                "Conflict",
                "Outra alteração chegou ao mesmo tempo",
                "Alguém alterou o mesmo registro enquanto você salvava. Nada foi perdido: confira os dados e tente de novo.",
            ),
            StatusCode::BAD_REQUEST => (
                "Bad Request",
                "Este endereço não está certo",
                "O link que você abriu está incompleto ou foi alterado. Peça um novo link a quem o enviou.",
            ),
            StatusCode::PAYMENT_REQUIRED => (
                "Payment Required",
                "Seu plano não inclui isto",
                "Este recurso faz parte do plano Premium. Veja os planos no painel.",
            ),
            StatusCode::FORBIDDEN => (
                "Forbidden",
                "Você não tem acesso a isto",
                "A sua conta não tem permissão para esta ação. Fale com o proprietário da conta.",
            ),
            StatusCode::GONE => (
                "Gone",
                "Isto não está mais disponível",
                "O que você procura existiu, mas expirou ou foi encerrado.",
            ),
            StatusCode::UNPROCESSABLE_ENTITY => (
                "Unprocessable Content",
                "Não foi possível aceitar estes dados",
                "Algum dado informado não segue as regras do Pix. Confira e tente de novo.",
            ),
            StatusCode::TOO_MANY_REQUESTS => (
                "Too Many Requests",
                "Muitas tentativas seguidas",
                "Você fez muitos pedidos em pouco tempo. Aguarde um minuto e tente de novo.",
            ),
            StatusCode::SERVICE_UNAVAILABLE => (
                "Service Unavailable",
                "Serviço temporariamente indisponível",
                "Estamos com uma instabilidade passageira. Tente de novo em alguns instantes.",
            ),
            _ => (
                "Internal Server Error",
                "Algo deu errado do nosso lado",
                "Não foi possível concluir o seu pedido. Nada foi perdido: tente de novo em alguns instantes.",
            ),
        };
        let message = message.unwrap_or_else(|| general.to_owned());
        HtmlTemplate(ErrorPage {
            meta: Meta::unindexed(None, title, &message),
            status: status.as_u16(),
            heading,
            message,
        })
    }
}

#[cfg(test)]
mod controller_tests {
    use super::Controller;

    #[test]
    fn a_cnpj_with_a_wrong_check_digit_stops_the_server_with_the_variable_named() {
        let error = Controller::from_config("Loja", Some("11222333000182"), None, "a@b.c")
            .expect_err("a wrong check digit");
        assert!(
            error.to_string().contains("BALCAO_CONTROLLER_CNPJ"),
            "{error}"
        );
    }

    #[test]
    fn the_officer_defaults_to_the_contact_address_and_the_cnpj_is_formatted() {
        let controller =
            Controller::from_config("Loja", Some(" 11222333000181 "), Some(""), "a@b.c")
                .expect("a real CNPJ");
        assert_eq!(controller.cnpj.as_deref(), Some("11.222.333/0001-81"));
        assert_eq!(controller.dpo_contact, "a@b.c");
    }
}
