//! The payer page, `/pagamento/{qrcode_id}`: who receives, how much, the QR code as inline SVG,
//! "Pix Copia e Cola" with a copy button, and how to pay. An archived code's page says in pt-BR
//! that it no longer takes payments, and shows neither the code nor its copy text.

use std::collections::HashMap;
use std::sync::Arc;

use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use domain::qr::{EcLevel, QrMatrix};
use projections::qrcodes::{self, QrCodeView};
use uuid::Uuid;

use crate::assets;
use crate::error::AppError;
use crate::html::{HtmlTemplate, Meta};
use crate::pages::payer_cache::{CachedPage, Marks, Stamp};
use crate::state::AppState;

/// The payer page.
#[derive(Template)]
#[template(path = "payment.html")]
pub struct PaymentPage {
    /// Head data.
    pub meta: Meta,
    /// The QR code's read model.
    pub view: QrCodeView,
    /// "R$ 12,50" or "Valor livre".
    pub amount: String,
    /// The QR code as an SVG element.
    pub qr_svg: String,
    /// Path of the copy-button script.
    pub copy_js: &'static str,
    /// Whether a payment to this code stands ("Pagamento recebido"; never who paid).
    pub paid: bool,
    /// Whether the sandbox's "Simular pagamento" is offered.
    pub simulate: bool,
}

/// The printable sign (placa) for a QR code: the empty layout, the code at level Q, which
/// survives wear, glare and lamination better.
#[derive(Template)]
#[template(path = "sign.html")]
pub struct SignPage {
    /// Head data.
    pub meta: Meta,
    /// The QR code's read model.
    pub view: QrCodeView,
    /// "R$ 12,50" or "Valor livre".
    pub amount: String,
    /// The QR code as an SVG element, level Q.
    pub qr_svg: String,
    /// How to pay, as the sign files print it ([`domain::sign::INSTRUCTION`]).
    pub instruction: &'static str,
    /// "Confira o nome do recebedor antes de confirmar: NOME", as the sign files print it.
    pub anti_fraud: String,
    /// Path of the script behind the print button.
    pub copy_js: &'static str,
    /// The paper (`?tamanho=`, A4 unless a known size is asked for): the print CSS's named
    /// `@page` (`placa-a5` …) and the file downloads follow it.
    pub size: domain::sign::PaperSize,
    /// The query of the file downloads: the paper and whatever else of the design the page was
    /// asked for (`modelo`, `tema`, `titulo`, `rodape`), so the files are the sign chosen.
    pub files_query: String,
}

/// `GET /pagamento/{qrcode_id}/placa[?tamanho=a5]`: the printable sign; the print CSS sets the
/// paper size from `tamanho` (an unknown one prints on A4).
pub async fn sign(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<HtmlTemplate<SignPage>, AppError> {
    let size = query
        .get("tamanho")
        .and_then(|s| s.parse::<domain::sign::PaperSize>().ok())
        .unwrap_or(domain::sign::PaperSize::A4);
    let files_query = match crate::signs::SignRequest::from_query(&query) {
        Ok(design) if !design.query().is_empty() => design.query(),
        _ => format!("?tamanho={}", size.slug()),
    };
    let qrcode_id = Uuid::parse_str(&id).map_err(|_| AppError::NotFound)?;
    let view = state.qrcode(qrcode_id).await?.ok_or(AppError::NotFound)?;
    let qr_svg = render_qr(&view, EcLevel::Q)?;
    let amount = amount_text(&view);
    let meta = Meta::unindexed(
        Some(&state.site),
        format!("Placa Pix de {} | Balcão", view.merchant_name),
        format!(
            "Placa Pix para imprimir: {} · {amount}.",
            view.merchant_name
        ),
    );
    let anti_fraud = domain::sign::anti_fraud_line(&view.merchant_name);
    Ok(HtmlTemplate(SignPage {
        meta,
        view,
        amount,
        qr_svg,
        instruction: domain::sign::INSTRUCTION,
        anti_fraud,
        copy_js: assets::copy_script_path(),
        size,
        files_query,
    }))
}

fn render_qr(view: &QrCodeView, level: EcLevel) -> Result<String, AppError> {
    Ok(QrMatrix::encode(&view.payload, level)
        .map_err(|e| AppError::Internal(anyhow::anyhow!("QR code for {}: {e}", view.qrcode_id)))?
        .to_svg())
}

fn amount_text(view: &QrCodeView) -> String {
    match view.amount_centavos.and_then(|c| u64::try_from(c).ok()) {
        Some(centavos) => domain::money::Centavos::new(centavos).to_string(),
        None => "Valor livre".to_owned(),
    }
}

/// `GET /pagamento/{qrcode_id}`. An id that is not a UUID, or that no code has, is the 404 page.
///
/// A code the projector has not written yet (stopped, behind, NATS down) is drawn from its own
/// stream in the event log ([`AppState::qrcode`]): a payer never meets a 404 for a code that
/// exists, and nothing waits.
///
/// Served from [`crate::pages::payer_cache`]: with no projection moved since the page was stored, no row is
/// read; otherwise the rows are read and the page rendered only if they changed. `ETag` /
/// `If-None-Match` answer 304.
pub async fn show(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: HeaderMap,
) -> Result<Response, AppError> {
    let qrcode_id = Uuid::parse_str(&id).map_err(|_| AppError::NotFound)?;
    // Taken before any row is read: rows read afterwards are at least this recent.
    let watch = state.progress.watch();
    let marks = Marks {
        qrcodes: watch.position(qrcodes::NAME),
        payments: watch.position(projections::payments::NAME),
    };
    let cached = state.payer_pages.get(qrcode_id, marks);
    if let Some(hit) = &cached
        && hit.current
    {
        return Ok(hit.page.respond(&request));
    }
    let view = state.qrcode(qrcode_id).await?.ok_or(AppError::NotFound)?;
    let paid = view.owner_id.is_some()
        && projections::payments::code_was_paid(&state.pool, view.qrcode_id).await?;
    let stamp = Stamp { view, paid };
    if let Some(hit) = cached
        && hit.page.stamp == stamp
    {
        state.payer_pages.confirm(qrcode_id, &stamp, marks);
        return Ok(hit.page.respond(&request));
    }
    let html = render_payment(&state, stamp.view.clone(), paid)?;
    let page = Arc::new(CachedPage::new(stamp, html));
    state.payer_pages.put(qrcode_id, Arc::clone(&page), marks);
    Ok(page.respond(&request))
}

/// The payer page's HTML for `view`.
fn render_payment(state: &AppState, view: QrCodeView, paid: bool) -> Result<String, AppError> {
    // An archived code's page says so and shows no code to pay with.
    let qr_svg = if view.archived_at.is_some() {
        String::new()
    } else {
        render_qr(&view, EcLevel::M)?
    };
    let amount = amount_text(&view);
    let meta = Meta::unindexed(
        Some(&state.site),
        format!("Pagar {} com Pix | Balcão", view.merchant_name),
        format!(
            "Pague {} com Pix: {amount}. Leia o QR code ou use o Pix Copia e Cola.",
            view.merchant_name
        ),
    );
    let simulate = crate::api::payments::sandbox::offered(state, &view);
    PaymentPage {
        meta,
        view,
        amount,
        qr_svg,
        copy_js: assets::copy_script_path(),
        paid,
        simulate,
    }
    .render()
    .map_err(|e| AppError::Internal(anyhow::anyhow!("rendering the payer page: {e}")))
}
