//! Printable Pix signs as files: one layout (`domain::sign`) rendered to PDF, PNG or SVG.
//!
//! | route | answers |
//! |---|---|
//! | `GET /placas/{qrcode_id}.pdf` | vector PDF, the page the paper size, font embedded (`application/pdf`) |
//! | `GET /placas/{qrcode_id}.png` | PNG at `dpi` (72–600, default 300) with its dpi recorded (`image/png`) |
//! | `GET /placas/{qrcode_id}.svg` | SVG in millimetres, text as paths (`image/svg+xml`) |
//! | `GET /placas/lote/{batch_id}.pdf` | one PDF page per code of a batch, same query ([`batch`]) |
//!
//! Query: `modelo` (`classico` default, `faixa`, `moldura`, `minimalista`, `codigo` for the
//! bare code), `tamanho` (`a4` default — `quadrado` for `codigo` —, `a5`, `a6`, `10x15`,
//! `display-de-mesa`, `adesivos`, `quadrado`), `tema` (`verde`, `azul`, `grafite`, `vinho`),
//! `titulo` (≤ 40 characters), `rodape` (≤ 80), `dpi` (PNG only), `logo=nao` to leave the
//! account's logo out.
//!
//! The sign of an account's code carries the account's logo ([`crate::api::sign_logo`]) when
//! it has one and its plan allows it (Premium: `logo_on_signs`); a code made without an
//! account never has one.
//!
//! | status | when |
//! |---|---|
//! | 200 | the file, with `Content-Disposition: attachment; filename="placa-pix-loja-da-ana-a4.pdf"`, `ETag`, `Cache-Control` |
//! | 304 | `If-None-Match` matches the `ETag` (the code's payload and every option) |
//! | 400 | an unknown `modelo`, `tamanho` or `tema`, a `dpi` out of range, a title or footer too long: a pt-BR page saying which |
//! | 404 | no such code, or an extension other than the three |
//! | 4xx/5xx of the storage catalogue | the logo could not be read ([`crate::storage::StorageError`]): a pt-BR page with its message |
//! | 503 | every render permit stayed busy for 10 s (see [`limit`]) |

pub mod batch;
pub mod limit;
#[cfg(test)]
mod proof;
pub mod render;

use std::collections::HashMap;

use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use domain::money::Centavos;
use domain::sign::{
    self, PaperSize, SignContent, SignDocument, SignError, SignOptions, Template as SignTemplate,
    Theme,
};
use projections::qrcodes::{KeyKind, QrCodeView};
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::error::AppError;
use crate::html::{HtmlTemplate, Meta};
use crate::state::AppState;

/// Hex SHA-256 of a sign's management token (the secret an anonymous sign's maker keeps): what
/// the log keeps and what a claim presents.
pub fn management_token_digest(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Bumped whenever the layout or the renderers change what a file looks like, so cached
/// copies are not served for a new design.
const RENDER_VERSION: &str = "placa-v3";

/// The three file formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Vector PDF.
    Pdf,
    /// PNG raster at a dpi.
    Png,
    /// SVG, text as paths.
    Svg,
}

impl Format {
    fn parse(extension: &str) -> Option<Self> {
        match extension {
            "pdf" => Some(Format::Pdf),
            "png" => Some(Format::Png),
            "svg" => Some(Format::Svg),
            _ => None,
        }
    }

    fn extension(self) -> &'static str {
        match self {
            Format::Pdf => "pdf",
            Format::Png => "png",
            Format::Svg => "svg",
        }
    }

    fn content_type(self) -> &'static str {
        match self {
            Format::Pdf => "application/pdf",
            Format::Png => "image/png",
            Format::Svg => "image/svg+xml",
        }
    }
}

/// The buyer's choices from the query string, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignRequest {
    /// Template, size and theme.
    pub options: SignOptions,
    /// PNG resolution.
    pub dpi: u32,
    /// The headline, when not the default.
    pub headline: Option<String>,
    /// The footer.
    pub footer: Option<String>,
    /// Whether the account's logo may be drawn (`logo=nao` says no).
    pub with_logo: bool,
}

impl SignRequest {
    /// Reads `modelo`, `tamanho`, `tema`, `dpi`, `titulo` and `rodape`; the error is the pt-BR
    /// sentence for the 400 page.
    pub fn from_query(query: &HashMap<String, String>) -> Result<Self, String> {
        let get = |name: &str| query.get(name).map(|v| v.trim()).filter(|v| !v.is_empty());
        let template = match get("modelo") {
            Some(value) => value.parse::<SignTemplate>().map_err(|e| e.to_string())?,
            None => SignTemplate::Classic,
        };
        let size = match get("tamanho") {
            Some(value) => value.parse::<PaperSize>().map_err(|e| e.to_string())?,
            None if template == SignTemplate::CodeOnly => PaperSize::Square,
            None => PaperSize::A4,
        };
        let theme = match get("tema") {
            Some(value) => value.parse::<Theme>().map_err(|e| e.to_string())?,
            None => Theme::default(),
        };
        let dpi = match get("dpi") {
            Some(value) => value
                .parse::<u32>()
                .ok()
                .filter(|dpi| (render::MIN_DPI..=render::MAX_DPI).contains(dpi))
                .ok_or_else(|| {
                    format!(
                        "A resolução (dpi) deve ser um número inteiro entre {} e {}; para imprimir, use 300.",
                        render::MIN_DPI,
                        render::MAX_DPI
                    )
                })?,
            None => render::DEFAULT_DPI,
        };
        let headline = get("titulo").map(str::to_owned);
        if headline
            .as_deref()
            .is_some_and(|h| h.chars().count() > sign::MAX_HEADLINE_CHARS)
        {
            return Err(SignError::HeadlineTooLong.to_string());
        }
        let footer = get("rodape").map(str::to_owned);
        if footer
            .as_deref()
            .is_some_and(|f| f.chars().count() > sign::MAX_FOOTER_CHARS)
        {
            return Err(SignError::FooterTooLong.to_string());
        }
        let with_logo = !matches!(get("logo"), Some("nao" | "não" | "0" | "false"));
        Ok(Self {
            options: SignOptions {
                template,
                size,
                theme,
            },
            dpi,
            headline,
            footer,
            with_logo,
        })
    }
}

impl SignRequest {
    /// The query string (with its `?`) that asks the file routes for these choices, naming
    /// only what differs from the defaults; empty when nothing does.
    pub fn query(&self) -> String {
        let defaults = SignOptions::default();
        let mut query = url::form_urlencoded::Serializer::new(String::new());
        if self.options.template != defaults.template {
            query.append_pair("modelo", self.options.template.slug());
        }
        // The size a query without `tamanho` gets depends on the template (`from_query`).
        let default_size = if self.options.template == SignTemplate::CodeOnly {
            PaperSize::Square
        } else {
            defaults.size
        };
        if self.options.size != default_size {
            query.append_pair("tamanho", self.options.size.slug());
        }
        if self.options.theme != defaults.theme {
            query.append_pair("tema", self.options.theme.slug());
        }
        if let Some(headline) = &self.headline {
            query.append_pair("titulo", headline);
        }
        if let Some(footer) = &self.footer {
            query.append_pair("rodape", footer);
        }
        if !self.with_logo {
            query.append_pair("logo", "nao");
        }
        let query = query.finish();
        if query.is_empty() {
            query
        } else {
            format!("?{query}")
        }
    }
}

/// What the sign of `view` says, with the buyer's headline and footer; `holder` is the name the
/// payer's bank shows ([`holder_of`]).
pub fn content_for(
    view: &QrCodeView,
    holder: Option<String>,
    request: &SignRequest,
) -> SignContent {
    let mut content = SignContent::new(&view.payload, &view.merchant_name, &view.merchant_city);
    content.holder = holder;
    content.amount = view
        .amount_centavos
        .and_then(|c| u64::try_from(c).ok())
        .map(Centavos::new);
    content.description = view.description.clone().filter(|d| !d.trim().is_empty());
    content.key_line = Some(key_line(view.key_kind, &view.pix_key));
    with_choices(content, request)
}

/// The name the payer's bank app shows for `view`: the holder of the account's registered key
/// the code was made with (or of the registered key equal to its typed key); `None` for a
/// visitor's code and a key the account never registered. The code's own merchant name (field
/// 59) is not it: payers' apps show the DICT holder's name.
///
/// # Errors
///
/// 503 when PostgreSQL fails.
pub async fn holder_of(state: &AppState, view: &QrCodeView) -> Result<Option<String>, AppError> {
    let Some(owner) = view.owner_id else {
        return Ok(None);
    };
    Ok(projections::pix_keys::holder_for(&state.pool, owner, view.key_id, &view.pix_key).await?)
}

/// `content` with the buyer's headline and footer.
pub fn with_choices(mut content: SignContent, request: &SignRequest) -> SignContent {
    if let Some(headline) = &request.headline {
        content.headline = headline.clone();
    }
    content.footer = request.footer.clone();
    content
}

/// The key as printed: its type, and for a CPF only the middle digits (the code still
/// carries the whole key; a public sign need not show a person's CPF).
pub fn key_line(kind: KeyKind, key: &str) -> String {
    match kind {
        KeyKind::Cpf if key.len() == 11 && key.is_ascii() => {
            format!("Chave CPF: ***.{}.{}-**", &key[3..6], &key[6..9])
        }
        KeyKind::Cpf => "Chave CPF".to_owned(),
        KeyKind::Cnpj => format!("Chave CNPJ: {key}"),
        KeyKind::Email => format!("Chave e-mail: {key}"),
        KeyKind::Phone => format!("Chave celular: {key}"),
        KeyKind::Evp => format!("Chave aleatória: {key}"),
    }
}

/// `placa-pix-loja-da-ana-a4.pdf`, or `qrcode-pix-loja-da-ana.png` for the bare code.
pub fn file_name(name: &str, options: &SignOptions, format: Format) -> String {
    let mut slug = String::with_capacity(name.len());
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            slug.push(c);
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    let slug = slug.trim_end_matches('-');
    let slug = if slug.is_empty() { "recebedor" } else { slug };
    let ext = format.extension();
    if options.template == SignTemplate::CodeOnly {
        format!("qrcode-pix-{slug}-{}.{ext}", options.size.slug())
    } else {
        format!("placa-pix-{slug}-{}.{ext}", options.size.slug())
    }
}

/// The entity tag: the render version, the format, every option and every fact printed.
pub fn etag(content: &SignContent, request: &SignRequest, format: Format) -> String {
    let mut hash = Sha256::new();
    let dpi = if format == Format::Png {
        request.dpi.to_string()
    } else {
        String::new()
    };
    let amount = content
        .amount
        .map(|a| a.get().to_string())
        .unwrap_or_default();
    for part in [
        RENDER_VERSION,
        format.extension(),
        request.options.template.slug(),
        request.options.size.slug(),
        request.options.theme.slug(),
        &dpi,
        &content.payload,
        &content.name,
        &content.city,
        content.holder.as_deref().unwrap_or(""),
        &amount,
        content.description.as_deref().unwrap_or(""),
        content.key_line.as_deref().unwrap_or(""),
        &content.headline,
        content.footer.as_deref().unwrap_or(""),
    ] {
        hash.update(part.as_bytes());
        hash.update([0]);
    }
    if let Some(logo) = &content.logo {
        hash.update(logo.bytes());
    }
    quoted_tag(hash)
}

fn matches_etag(headers: &HeaderMap, etag: &str) -> bool {
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|v| v.trim().trim_start_matches("W/"))
        .any(|v| v == etag || v == "*")
}

/// The pt-BR 400 page for options the server does not know.
#[derive(Template)]
#[template(path = "sign_error.html")]
pub struct BadOptionsPage {
    /// Head data.
    pub meta: Meta,
    /// What was wrong, and what is accepted.
    pub message: String,
}

fn bad_options(message: String) -> Response {
    let page = HtmlTemplate(BadOptionsPage {
        meta: Meta::unindexed(None, "Bad Request", &message),
        message,
    });
    let mut response = page.into_response();
    *response.status_mut() = StatusCode::BAD_REQUEST;
    response
}

/// Lays the sign out and renders it in `format`.
pub fn render_file(
    content: &SignContent,
    request: &SignRequest,
    format: Format,
) -> Result<Vec<u8>, AppError> {
    let doc: SignDocument = sign::layout(content, &request.options)
        .map_err(|e| AppError::Internal(anyhow::anyhow!("sign layout: {e}")))?;
    let bytes = match format {
        Format::Pdf => render::pdf(std::slice::from_ref(&doc)),
        Format::Png => render::png(&doc, request.dpi),
        Format::Svg => render::svg(&doc).map(String::into_bytes),
    };
    bytes.map_err(|e| AppError::Internal(anyhow::anyhow!("sign render: {e}")))
}

/// The logo of `owner` when its plan prints logos and it has one.
///
/// # Errors
///
/// The storage catalogue's status and pt-BR message; 503 when PostgreSQL fails.
pub async fn account_logo(
    state: &AppState,
    owner: Uuid,
) -> Result<Option<domain::sign::logo::Logo>, AppError> {
    let plan = crate::billing::plan_of(&state.billing, &owner.hyphenated().to_string()).await?;
    let allowed = domain::subscription::limits::check(
        plan,
        domain::subscription::limits::LimitedAction::LogoOnSign,
        domain::subscription::limits::Usage::default(),
    )
    .is_ok();
    if !allowed {
        return Ok(None);
    }
    match crate::storage::logos::current(&state.storage, owner).await {
        Ok(found) => Ok(found.map(|stored| stored.logo)),
        Err(error) => Err(AppError::Refused {
            status: error.status(),
            message: error.to_string(),
        }),
    }
}

/// `GET /placas/{qrcode_id}.{pdf,png,svg}`.
pub async fn download(
    State(state): State<AppState>,
    Path(file): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    let (id, extension) = file.rsplit_once('.').ok_or(AppError::NotFound)?;
    let format = Format::parse(extension).ok_or(AppError::NotFound)?;
    let qrcode_id = Uuid::parse_str(id).map_err(|_| AppError::NotFound)?;
    let view = state.qrcode(qrcode_id).await?.ok_or(AppError::NotFound)?;
    let request = match SignRequest::from_query(&query) {
        Ok(request) => request,
        Err(message) => return Ok(bad_options(message)),
    };
    let holder = holder_of(&state, &view).await?;
    let mut content = content_for(&view, holder, &request);
    if request.with_logo
        && request.options.template != SignTemplate::CodeOnly
        && let Some(owner) = view.owner_id
    {
        content.logo = account_logo(&state, owner).await?;
    }
    let etag = etag(&content, &request, format);
    let name = file_name(&view.merchant_name, &request.options, format);
    file_answer(
        &headers,
        &etag,
        &name,
        format,
        "public, max-age=600",
        move || render_file(&content, &request, format),
    )
    .await
}

/// The answer of a sign file route: 304 when `If-None-Match` holds `etag`, otherwise the file
/// `render` makes (off the runtime, within the render permits) as an attachment named `name`;
/// both with the `ETag` and `cache_control`.
async fn file_answer<F>(
    request_headers: &HeaderMap,
    etag: &str,
    name: &str,
    format: Format,
    cache_control: &'static str,
    render: F,
) -> Result<Response, AppError>
where
    F: FnOnce() -> Result<Vec<u8>, AppError> + Send + 'static,
{
    let mut response = if matches_etag(request_headers, etag) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let bytes = limit::run(render).await??;
        let mut response = bytes.into_response();
        response.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static(format.content_type()),
        );
        if let Ok(value) = HeaderValue::from_str(&format!("attachment; filename=\"{name}\"")) {
            response
                .headers_mut()
                .insert(header::CONTENT_DISPOSITION, value);
        }
        response
    };
    let headers = response.headers_mut();
    if let Ok(value) = HeaderValue::from_str(etag) {
        headers.insert(header::ETAG, value);
    }
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(cache_control),
    );
    Ok(response)
}

/// An entity tag from a finished hash: its first 16 bytes in hex, quoted.
fn quoted_tag(hash: Sha256) -> String {
    let digest = hash.finalize();
    let hex: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
    format!("\"{hex}\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn no_options_is_a_classic_green_a4_at_300_dpi() {
        let request = SignRequest::from_query(&HashMap::new()).expect("defaults");
        assert_eq!(request.options, SignOptions::default());
        assert_eq!(request.dpi, 300);
    }

    #[test]
    fn the_bare_code_defaults_to_the_square_page() {
        let request = SignRequest::from_query(&query(&[("modelo", "codigo")])).expect("ok");
        assert_eq!(request.options.size, PaperSize::Square);
    }

    #[test]
    fn unknown_options_and_dpi_out_of_range_are_explained_in_portuguese() {
        for (pairs, expected) in [
            (vec![("modelo", "neon")], "O modelo \"neon\" não existe"),
            (vec![("tamanho", "a3")], "O tamanho \"a3\" não existe"),
            (vec![("tema", "rosa")], "O tema \"rosa\" não existe"),
            (vec![("dpi", "1200")], "entre 72 e 600"),
            (vec![("dpi", "abc")], "entre 72 e 600"),
        ] {
            let message = SignRequest::from_query(&query(&pairs)).expect_err("refused");
            assert!(message.contains(expected), "{message}");
        }
    }

    #[test]
    fn the_file_name_is_readable() {
        let options = SignOptions::default();
        assert_eq!(
            file_name("LOJA DA ANA", &options, Format::Pdf),
            "placa-pix-loja-da-ana-a4.pdf"
        );
        let bare = SignOptions {
            template: SignTemplate::CodeOnly,
            size: PaperSize::Square,
            ..options
        };
        assert_eq!(
            file_name("JOSE & FILHOS LTDA.", &bare, Format::Png),
            "qrcode-pix-jose-filhos-ltda-quadrado.png"
        );
    }

    #[test]
    fn the_query_names_only_the_choices_that_differ_from_the_defaults() {
        let defaults = SignRequest::from_query(&HashMap::new()).expect("ok");
        assert_eq!(defaults.query(), "");
        let chosen = SignRequest::from_query(&query(&[
            ("modelo", "faixa"),
            ("tamanho", "a5"),
            ("titulo", "Pix & cartão"),
        ]))
        .expect("ok");
        assert_eq!(
            chosen.query(),
            "?modelo=faixa&tamanho=a5&titulo=Pix+%26+cart%C3%A3o"
        );
        let mut map = HashMap::new();
        for pair in chosen.query().trim_start_matches('?').split('&') {
            let (k, v) = pair.split_once('=').expect("pair");
            let v = url::form_urlencoded::parse(format!("x={v}").as_bytes())
                .next()
                .expect("value")
                .1
                .into_owned();
            map.insert(k.to_owned(), v);
        }
        assert_eq!(SignRequest::from_query(&map).expect("ok"), chosen);
        // The bare code's default paper is the square: an A4 bare code must say so.
        let bare_a4 = SignRequest::from_query(&query(&[("modelo", "codigo"), ("tamanho", "a4")]))
            .expect("ok");
        assert_eq!(bare_a4.query(), "?modelo=codigo&tamanho=a4");
        let bare = SignRequest::from_query(&query(&[("modelo", "codigo")])).expect("ok");
        assert_eq!(bare.query(), "?modelo=codigo");
    }

    #[test]
    fn a_cpf_key_is_printed_partly_hidden() {
        assert_eq!(
            key_line(KeyKind::Cpf, "12345678909"),
            "Chave CPF: ***.456.789-**"
        );
    }

    #[test]
    fn the_etag_changes_with_any_option_and_matches_its_own_header() {
        let content = SignContent::new("000201", "ANA", "RIO");
        let a4 = SignRequest::from_query(&HashMap::new()).expect("ok");
        let a5 = SignRequest::from_query(&query(&[("tamanho", "a5")])).expect("ok");
        let tag = etag(&content, &a4, Format::Pdf);
        assert_ne!(tag, etag(&content, &a5, Format::Pdf));
        assert_ne!(tag, etag(&content, &a4, Format::Png));
        let mut headers = HeaderMap::new();
        headers.insert(
            header::IF_NONE_MATCH,
            HeaderValue::from_str(&format!("\"x\", W/{tag}")).expect("header"),
        );
        assert!(matches_etag(&headers, &tag));
        assert!(!matches_etag(&HeaderMap::new(), &tag));
    }
}
