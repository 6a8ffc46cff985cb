//! "Sua placa Pix está pronta": where a visitor lands after `/criar-placa-pix`, and where the
//! private management link brings them back later.
//!
//! | route | answer |
//! |---|---|
//! | `GET /placa-pix-criada` | explains the page and links back to the form |
//! | `GET /placa-pix-criada/{id}` | the sign (QR, "Pix Copia e Cola", downloads, print, payer-page link, management link, "Salvar na minha conta"), for the holder of its management token: `?chave=TOKEN`, or the cookie the form set on creation; anything else is the 404 page |
//! | `POST /placa-pix-criada/{id}/enviar-link` | e-mails the management link to the typed address (`chave`, `email`), then shows the page again saying so |
//!
//! The token is 32 random-looking bytes the visitor holds; the log keeps only its SHA-256
//! (`QrCodeManagementLinkIssued`), checked against the aggregate itself (no read-model lag).
//! It is an HMAC of the form's one-time request id (`pedido`) with a key derived from the server
//! secret, so a double submit, which the idempotency key answers with the first code, also
//! gets the first code's token. The page sends `Referrer-Policy: no-referrer`, so the token in
//! its address never leaves in a `Referer`.

use std::collections::HashMap;
use std::time::Instant;

use askama::Template;
use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use domain::qr::{EcLevel, QrMatrix};
use domain::qrcode::QrCode;
use hmac::{Hmac, Mac};
use projections::qrcodes::QrCodeView;
use serde::Deserialize;
use sha2::Sha256;
use uuid::Uuid;

use crate::assets;
use crate::client_address::ClientAddress;
use crate::error::AppError;
use crate::html::{HtmlTemplate, Meta};
use crate::mail::Email;
use crate::signs::SignRequest;
use crate::state::AppState;
use domain::sign::PaperSize;

/// The cookie that carries a just-made sign's token to its page (scoped to that page's path,
/// gone when the browser closes).
pub const TOKEN_COOKIE: &str = "balcao_placa";
/// Purpose label of the key that derives management tokens from the server secret.
const TOKEN_KEY_PURPOSE: &str = "placa-gestao";

/// A management token for one creation: an HMAC of `request_id` (the form's `pedido`, or a
/// fresh random id when there is none).
pub fn management_token(state: &AppState, request_id: &str) -> String {
    let key = state.auth.tokens.derive(TOKEN_KEY_PURPOSE);
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).expect("HMAC accepts keys of any length");
    mac.update(request_id.as_bytes());
    URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes())
}

/// The `Set-Cookie` that hands a just-made sign's token to its page.
pub fn token_cookie(state: &AppState, qrcode_id: Uuid, token: &str) -> HeaderValue {
    let secure = if state.auth.cookie_secure {
        "; Secure"
    } else {
        ""
    };
    HeaderValue::from_str(&format!(
        "{TOKEN_COOKIE}={token}; HttpOnly{secure}; SameSite=Lax; Path=/placa-pix-criada/{qrcode_id}"
    ))
    .expect("a token is URL-safe base64")
}

fn cookie_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == TOKEN_COOKIE)
        .map(|(_, value)| value.trim().to_owned())
        .filter(|value| !value.is_empty())
}

/// The page of a sign, for the holder of its token.
#[derive(Template)]
#[template(path = "sign_created.html")]
pub struct SignCreatedPage {
    /// Head data.
    pub meta: Meta,
    /// The code's read model.
    pub view: QrCodeView,
    /// "R$ 12,50" or "Valor livre".
    pub amount: String,
    /// The QR code as an SVG element.
    pub qr_svg: String,
    /// Path of the copy-button script.
    pub copy_js: &'static str,
    /// The private management link, absolute.
    pub management_url: String,
    /// The payer page, absolute.
    pub payment_url: String,
    /// The token (for the e-mail form and "Salvar na minha conta").
    pub token: String,
    /// Whether an account already owns the code.
    pub claimed: bool,
    /// After the e-mail form: what happened, in pt-BR.
    pub email_notice: Option<String>,
    /// After the e-mail form: what was wrong with the address.
    pub email_error: Option<String>,
    /// The design chosen in the creator (`?modelo=…&tamanho=…`), carried on by the downloads:
    /// the query string with its `?`, or empty for the defaults.
    pub design_query: String,
    /// The paper size's label, for the PDF link.
    pub size_label: &'static str,
}

/// The bare page: what this address is for.
#[derive(Template)]
#[template(path = "sign_created_bare.html")]
pub struct BarePage {
    /// Head data.
    pub meta: Meta,
}

/// `GET /placa-pix-criada`.
pub async fn bare(State(state): State<AppState>) -> HtmlTemplate<BarePage> {
    HtmlTemplate(BarePage {
        meta: Meta::unindexed(
            Some(&state.site),
            "Placa Pix criada | Balcão",
            "Depois de criar uma placa Pix, é aqui que ela aparece, com QR code, downloads e o link para voltar a ela.",
        ),
    })
}

/// Query of the sign page.
#[derive(Debug, Default, Deserialize)]
pub struct SignQuery {
    /// The management token.
    #[serde(default)]
    pub chave: Option<String>,
}

/// `GET /placa-pix-criada/{id}`. The design the creator chose (`modelo`, `tamanho`, `tema`,
/// `titulo`, `rodape`) comes in the query; a choice the file routes would refuse falls back to
/// the defaults, so the page never links to a 400.
///
/// # Errors
///
/// The 404 page for an unknown id or a token that is not this code's.
pub async fn show(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<SignQuery>,
    Query(all): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    let token = query.chave.clone().or_else(|| cookie_token(&headers));
    let mut page = load(&state, &id, token).await?;
    let design = SignRequest::from_query(&all)
        .or_else(|_| SignRequest::from_query(&HashMap::new()))
        .map_err(|e| AppError::Internal(anyhow::anyhow!("default sign options: {e}")))?;
    page.design_query = design.query();
    page.size_label = design.options.size.label();
    Ok(respond(StatusCode::OK, page))
}

/// The e-mail form.
#[derive(Debug, Default, Deserialize)]
pub struct EmailForm {
    /// The management token (hidden field).
    #[serde(default)]
    pub chave: String,
    /// Where to send the link.
    #[serde(default)]
    pub email: String,
}

/// `POST /placa-pix-criada/{id}/enviar-link`.
///
/// # Errors
///
/// The 400 page for a token holding U+0000 (no token holds one: the form was not the page's);
/// the 404 page for a wrong token; 429 beyond the per-address budget. An address holding a
/// control character (U+0000 included) is the form again, 422, with the field's message.
pub async fn send_link(
    State(state): State<AppState>,
    Path(id): Path<String>,
    client: ClientAddress,
    Form(form): Form<EmailForm>,
) -> Result<Response, AppError> {
    if domain::text::storable(&form.chave).is_err() {
        return Err(AppError::Refused {
            status: StatusCode::BAD_REQUEST,
            message: crate::pages::sign_input::NUL_IN_FORM.to_owned(),
        });
    }
    let mut page = load(&state, &id, Some(form.chave.clone())).await?;
    let address = form.email.trim().to_lowercase();
    if !plausible_email(&address) {
        page.email_error = Some("Digite um e-mail válido, como nome@exemplo.com.".to_owned());
        return Ok(respond(StatusCode::UNPROCESSABLE_ENTITY, page));
    }
    // The same budget as making signs: the form is public, and each send is one e-mail.
    if let Err(wait) = state.create_limiter.check(client.0, Instant::now()) {
        return Err(AppError::TooManyRequests {
            retry_after_secs: wait.as_secs().max(1),
        });
    }
    state
        .mailer
        .send_in_background(Email::sign_management_link(&address, &page.management_url));
    page.email_notice = Some(format!(
        "Enviamos o link para {address}. Se não chegar em alguns minutos, confira a caixa de spam."
    ));
    Ok(respond(StatusCode::OK, page))
}

fn plausible_email(address: &str) -> bool {
    let Some((local, domain)) = address.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && address.len() <= 254
        && !address.chars().any(|c| c.is_whitespace() || c.is_control())
}

fn respond(status: StatusCode, page: SignCreatedPage) -> Response {
    let mut response = (status, HtmlTemplate(page)).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

async fn load(
    state: &AppState,
    id: &str,
    token: Option<String>,
) -> Result<SignCreatedPage, AppError> {
    let qrcode_id = Uuid::parse_str(id).map_err(|_| AppError::NotFound)?;
    let token = token
        .filter(|t| !t.is_empty() && t.len() <= 128)
        .ok_or(AppError::NotFound)?;
    let loaded = state
        .qrcodes
        .load(&qrcode_id.to_string())
        .await
        // A pool that timed out under load is a 503 (retry), not a 500.
        .map_err(AppError::from)?;
    let code: QrCode = loaded.aggregate;
    let Some(digest) = code.management_digest.as_deref() else {
        return Err(AppError::NotFound);
    };
    if !same(digest, &crate::signs::management_token_digest(&token)) {
        return Err(AppError::NotFound);
    }
    // The row, or the code's own stream while the projector has not written it.
    let view = state.qrcode(qrcode_id).await?.ok_or(AppError::NotFound)?;
    let qr_svg = QrMatrix::encode(&view.payload, EcLevel::M)
        .map_err(|e| AppError::Internal(anyhow::anyhow!("QR code for {qrcode_id}: {e}")))?
        .to_svg();
    let amount = match view.amount_centavos.and_then(|c| u64::try_from(c).ok()) {
        Some(centavos) => domain::money::Centavos::new(centavos).to_string(),
        None => "Valor livre".to_owned(),
    };
    let site = state.site.url.trim_end_matches('/');
    Ok(SignCreatedPage {
        meta: Meta::unindexed(
            Some(&state.site),
            "Sua placa Pix está pronta | Balcão",
            "Sua placa Pix: QR code, Pix Copia e Cola, downloads e impressão.",
        ),
        management_url: format!("{site}/placa-pix-criada/{qrcode_id}?chave={token}"),
        payment_url: format!("{site}/pagamento/{qrcode_id}"),
        claimed: code.owner_id.is_some(),
        view,
        amount,
        qr_svg,
        copy_js: assets::copy_script_path(),
        token,
        email_notice: None,
        email_error: None,
        design_query: String::new(),
        size_label: PaperSize::A4.label(),
    })
}

/// Compares two digests without stopping at the first difference.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}
