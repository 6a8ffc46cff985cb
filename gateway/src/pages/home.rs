//! The home page `/`.

use std::sync::OnceLock;

use askama::Template;
use axum::extract::State;
use domain::brcode::{StaticCodeRequest, make_static};
use domain::pix_key::PixKey;
use domain::qr::{EcLevel, QrMatrix};

use crate::content::{self, Article, Question};
use crate::error::AppError;
use crate::html::{HtmlTemplate, Meta};
use crate::pages::institutional::faq_json_ld;
use crate::state::AppState;

/// Questions of the FAQ shown on the home page.
const HOME_QUESTIONS: usize = 6;

/// The home page.
#[derive(Template)]
#[template(path = "home.html")]
pub struct HomePage {
    /// Head data.
    pub meta: Meta,
    /// The hero's headline.
    pub headline: String,
    /// The hero's pitch paragraph.
    pub pitch: String,
    /// The rest of the copy, as HTML.
    pub body: String,
    /// The first questions of the FAQ.
    pub faq: &'static [Question],
    /// The newest articles.
    pub latest: &'static [Article],
    /// An example sign's QR code as SVG, made by the same engine as every sign.
    pub example_qr_svg: &'static str,
}

/// `GET /`.
pub async fn home(State(state): State<AppState>) -> Result<HtmlTemplate<HomePage>, AppError> {
    let page = content::page("inicio").ok_or(AppError::NotFound)?;
    let (headline, pitch, rest) = split_hero(&page.markdown);
    let faq = &content::FAQ[..content::FAQ.len().min(HOME_QUESTIONS)];
    let meta = Meta::page(
        &state.site,
        "/",
        page.title.clone(),
        page.description.clone(),
    )
    .with_json_ld(&state.site.organization_json_ld())
    .with_json_ld(&faq_json_ld(faq));
    Ok(HtmlTemplate(HomePage {
        meta,
        headline,
        pitch,
        body: content::render_markdown(rest),
        faq,
        latest: &content::ARTICLES[..content::ARTICLES.len().min(6)],
        example_qr_svg: example_qr_svg(),
    }))
}

/// The key of the home page's example sign: an address of Balcão's own that receives no Pix, so a
/// visitor who scans the example reaches nobody's account.
const EXAMPLE_KEY: &str = "placa.exemplo@balcao.app";

/// The example sign's QR code, made once: the home page shows what the product really makes (a
/// strict static code, level M), not a stock picture.
fn example_qr_svg() -> &'static str {
    static SVG: OnceLock<String> = OnceLock::new();
    SVG.get_or_init(|| {
        let key = PixKey::detect(EXAMPLE_KEY).expect("the example key is an e-mail");
        let request = StaticCodeRequest::new(key, "Padaria da Ana", "São Paulo");
        let made = make_static(&request).expect("the example sign's values are valid");
        QrMatrix::encode(&made.payload, EcLevel::M)
            .expect("a short payload fits a QR code")
            .to_svg()
    })
}

/// The first `## heading` is the hero's headline and the paragraph after it the pitch; the rest
/// of the copy follows the hero.
fn split_hero(markdown: &str) -> (String, String, &str) {
    let trimmed = markdown.trim_start();
    let Some(after_hash) = trimmed.strip_prefix("## ") else {
        return (String::new(), String::new(), markdown);
    };
    let (headline, rest) = after_hash.split_once('\n').unwrap_or((after_hash, ""));
    let rest = rest.trim_start();
    let pitch_end = rest.find("\n\n").unwrap_or(rest.len());
    let (pitch, rest) = rest.split_at(pitch_end);
    (
        headline.trim().to_owned(),
        content::plain_text(pitch),
        rest.trim_start(),
    )
}

#[cfg(test)]
mod tests {
    use super::{example_qr_svg, split_hero};

    #[test]
    fn the_example_sign_is_a_real_code_for_the_example_key() {
        let svg = example_qr_svg();
        assert!(svg.starts_with("<svg"), "{svg}");
        let made = domain::brcode::make_static(&domain::brcode::StaticCodeRequest::new(
            domain::pix_key::PixKey::detect(super::EXAMPLE_KEY).expect("key"),
            "Padaria da Ana",
            "São Paulo",
        ))
        .expect("valid");
        assert!(domain::brcode::parse(&made.payload).is_ok());
        assert!(made.payload.contains("PADARIA DA ANA") && made.payload.contains("SAO PAULO"));
    }

    #[test]
    fn the_first_heading_and_paragraph_become_the_hero() {
        let (headline, pitch, rest) =
            split_hero("## Receba com Pix\nUma **frase**.\n\n## Como funciona\n1. a\n");
        assert_eq!(headline, "Receba com Pix");
        assert_eq!(pitch, "Uma frase.");
        assert!(rest.starts_with("## Como funciona"));
    }
}
