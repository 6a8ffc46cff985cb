//! `GET /criar-placa-pix/previa.svg`: the sign creator's live preview.
//!
//! The query carries the creator's fields (`tipo`, `chave`, `nome`, `cidade`, `valor`,
//! `descricao`, `modelo`, `tamanho`, `tema`, `titulo`, `rodape`). The answer is the sign those
//! values make, laid out by the same `domain::sign` source as the files of a created code and
//! written by the same SVG renderer, so the preview is what will print. Nothing is created: the
//! code in the preview is made in memory and thrown away.
//!
//! | status | when |
//! |---|---|
//! | 200 | `image/svg+xml`: the sign; for a blank form (the page's first load), a placeholder card inviting to fill it in |
//! | 422 | `image/svg+xml`: a placeholder card saying, in pt-BR, what is still missing or wrong (an `<img>` shows it) |
//! | 429 | more than [`PER_MINUTE`] previews a minute from one client address |
//! | 503 | every render permit stayed busy for 10 s (the same permits as the files, [`crate::signs::limit`]) |

use std::sync::LazyLock;
use std::time::Instant;

use axum::extract::{Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use domain::brcode::{make_static, preview_form};
use domain::pix_key::{PixKey, PixKeyKind};
use domain::sign::{self, SignContent};
use projections::qrcodes::KeyKind;

use crate::client_address::ClientAddress;
use crate::error::AppError;
use crate::pages::sign_input::SignForm;
use crate::rate_limit::RateLimiter;
use crate::signs::{self, limit, render};
use crate::state::AppState;

/// The preview's route.
pub const PATH: &str = super::sign_input::PREVIEW_PATH;

/// Previews per minute per client address: typing redraws at most every 400 ms, so a person
/// filling the form stays far below it, while a script hammering the renderer does not.
pub const PER_MINUTE: u32 = 120;

/// What the preview of a form with nothing typed says.
pub const BLANK_FORM: &str = "Preencha a chave Pix, o nome e a cidade: a sua placa aparece aqui.";

/// One budget per gateway, in memory, like the other public limits.
static LIMITER: LazyLock<RateLimiter> = LazyLock::new(|| RateLimiter::per_minute(PER_MINUTE));

/// The key as the sign prints it: a CPF partly hidden (the code still carries it whole).
pub fn key_line(key: &PixKey) -> String {
    let kind = match key.kind() {
        PixKeyKind::Cpf => KeyKind::Cpf,
        PixKeyKind::Cnpj => KeyKind::Cnpj,
        PixKeyKind::Email => KeyKind::Email,
        PixKeyKind::Phone => KeyKind::Phone,
        PixKeyKind::Evp => KeyKind::Evp,
    };
    signs::key_line(kind, key.as_str())
}

/// `GET /criar-placa-pix/previa.svg`.
///
/// # Errors
///
/// 429 beyond the per-address budget; 503 when no render permit frees up in time.
pub async fn show(
    State(_state): State<AppState>,
    client: ClientAddress,
    Query(form): Query<SignForm>,
) -> Result<Response, AppError> {
    if let Err(wait) = LIMITER.check(client.0, Instant::now()) {
        return Err(AppError::TooManyRequests {
            retry_after_secs: wait.as_secs().max(1),
        });
    }
    // The page's first load asks for the blank form's preview: an invitation, not an error (a
    // 422 there is a console error in every browser before anyone has typed anything).
    if form.is_blank() {
        return Ok(svg_response(StatusCode::OK, placeholder(BLANK_FORM)));
    }
    let content = match content_of(&form) {
        Ok(content) => content,
        Err(problem) => {
            return Ok(svg_response(
                StatusCode::UNPROCESSABLE_ENTITY,
                placeholder(&problem),
            ));
        }
    };
    let (design, _) = form.design();
    let svg = limit::run(move || {
        let doc = sign::layout(&content, &design.options)
            .map_err(|e| AppError::Internal(anyhow::anyhow!("sign preview layout: {e}")))?;
        render::svg(&doc).map_err(|e| AppError::Internal(anyhow::anyhow!("sign preview: {e}")))
    })
    .await??;
    Ok(svg_response(StatusCode::OK, svg))
}

/// What the sign of these values says, or the first thing to fix, in pt-BR.
fn content_of(form: &SignForm) -> Result<SignContent, String> {
    let preview = preview_form(&form.to_domain());
    if let Some(error) = preview.errors.first() {
        return Err(error.to_string());
    }
    let (design, design_errors) = form.design();
    if let Some((_, message)) = design_errors.summary().first() {
        return Err((*message).to_owned());
    }
    let key = preview.key.clone();
    let request = preview
        .into_request(false)
        .map_err(|errors| errors.first().map(ToString::to_string).unwrap_or_default())?;
    let made = make_static(&request)
        .map_err(|errors| errors.first().map(ToString::to_string).unwrap_or_default())?;
    let mut content = SignContent::new(made.payload, made.merchant_name, made.merchant_city);
    content.amount = request.amount;
    content.description = request.additional_info.clone();
    content.key_line = key.as_ref().map(key_line);
    Ok(signs::with_choices(content, &design))
}

fn svg_response(status: StatusCode, body: String) -> Response {
    let mut response = (status, body).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("image/svg+xml"),
    );
    // The query holds the key: keep the image out of shared caches.
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, max-age=300"),
    );
    response
}

/// A grey card the size of an A5 sheet that says what the preview still needs.
fn placeholder(problem: &str) -> String {
    let mut lines = vec!["Prévia da placa".to_owned()];
    lines.extend(wrap(problem, 34));
    let mut text = String::new();
    for (n, line) in lines.iter().enumerate() {
        let (size, weight) = if n == 0 { (9, 700) } else { (6, 400) };
        let y = 70 + n * 10;
        text.push_str(&format!(
            r#"<text x="74" y="{y}" text-anchor="middle" font-family="DejaVu Sans, Arial, sans-serif" font-size="{size}" font-weight="{weight}" fill="{fill}">{}</text>"#,
            escape(line),
            fill = if n == 0 { "#2b2b2b" } else { "#555" },
        ));
    }
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="148mm" height="210mm" viewBox="0 0 148 210"><rect x="1" y="1" width="146" height="208" rx="4" fill="#f4f6f5" stroke="#9aa5a3" stroke-width="1" stroke-dasharray="4 3"/>{text}</svg>"##
    )
}

/// Splits `text` into lines of at most about `width` characters, at spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_owned()),
        }
    }
    lines
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filled() -> SignForm {
        SignForm {
            chave: "123e4567-e12b-12d1-a456-426655440000".to_owned(),
            nome: "Padaria São João".to_owned(),
            cidade: "São Paulo".to_owned(),
            valor: "12,50".to_owned(),
            titulo: "Pix aqui".to_owned(),
            rodape: "Aberto das 7h às 19h".to_owned(),
            ..SignForm::default()
        }
    }

    #[test]
    fn the_preview_prints_the_code_the_form_would_make_with_the_chosen_headline_and_footer() {
        let content = content_of(&filled()).expect("content");
        assert_eq!(content.name, "PADARIA SAO JOAO");
        assert_eq!(content.city, "SAO PAULO");
        assert_eq!(content.headline, "Pix aqui");
        assert_eq!(content.footer.as_deref(), Some("Aberto das 7h às 19h"));
        let strict = domain::brcode::validate_strict(&content.payload);
        assert!(strict.is_ok(), "{strict:?}");
    }

    #[test]
    fn a_blank_form_is_the_creators_first_state_while_a_half_filled_one_still_says_what_is_missing()
    {
        assert!(SignForm::default().is_blank());
        let design_only = SignForm {
            titulo: "Pix aqui".to_owned(),
            modelo: "faixa".to_owned(),
            ..SignForm::default()
        };
        assert!(design_only.is_blank());
        let half = SignForm {
            chave: "  (81) 98765-4321 ".to_owned(),
            ..SignForm::default()
        };
        assert!(!half.is_blank());
        assert!(content_of(&half).is_err());
    }

    #[test]
    fn a_cpf_key_is_previewed_partly_hidden() {
        let form = SignForm {
            chave: "123.456.789-09".to_owned(),
            ..filled()
        };
        let content = content_of(&form).expect("content");
        assert_eq!(
            content.key_line.as_deref(),
            Some("Chave CPF: ***.456.789-**")
        );
        assert!(
            content.payload.contains("12345678909"),
            "the code carries it whole"
        );
    }

    #[test]
    fn missing_fields_and_a_long_headline_are_said_in_portuguese() {
        let empty = content_of(&SignForm::default()).expect_err("refused");
        assert!(empty.contains("chave"), "{empty}");
        let long = SignForm {
            titulo: "x".repeat(41),
            ..filled()
        };
        assert_eq!(
            content_of(&long).expect_err("refused"),
            "O título pode ter até 40 caracteres."
        );
    }

    #[test]
    fn the_placeholder_escapes_what_it_repeats() {
        let svg = placeholder("Nome <b>&</b>");
        assert!(svg.contains("Nome &lt;b&gt;&amp;&lt;/b&gt;"), "{svg}");
    }
}
