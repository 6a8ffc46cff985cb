//! The payer page, `/pagamento/{qrcode_id}`: who receives, how much, the QR code as inline SVG,
//! "Pix Copia e Cola" with a copy button, and how to pay. An archived code's page says in pt-BR
//! that it no longer takes payments, and shows neither the code nor its copy text.
//!
//! A reusable code is a sign many people pay: the page always opens ready to pay, and "Pagamento
//! recebido" appears only on a page that was open when a payment to the code arrived (its live
//! stream, [`crate::live`]). A single-use code is made for one sale: once a payment of it stands
//! ([`QrCodeView::paid_at`]), its page says "Este QR code já foi pago" (when, in Brasília, and
//! how much) to every visitor, with neither the code nor its copy text, and a page left open
//! reloads into it when the payment arrives. The dynamic code of a connected bank's charge
//! (`cob`) is single-use and has a validity: its page says until when it may be paid and counts
//! down, and once past it says the charge expired and shows no code (the bank refuses it). The name it asks the payer to check is the one the payer's bank
//! shows, the key holder's ([`crate::signs::holder_of`]), not the code's merchant name.

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
use crate::payer_cache::{CachedPage, Marks, Stamp};
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
    /// The name the payer's bank shows (the key holder's), when known.
    pub holder: Option<String>,
    /// Whether the sandbox's "Simular pagamento" is offered.
    pub simulate: bool,
    /// When a single-use code was paid, in Brasília ("27/11/2026 às 14:05"): the page says so
    /// instead of offering the code.
    pub paid: Option<String>,
    /// A bank charge's validity: until when, in Brasília, and the seconds the page's script
    /// counts down.
    pub valid_until: Option<ValidUntil>,
    /// A bank charge past its validity, unpaid: the page says so and offers no code (the bank
    /// refuses it).
    pub expired: bool,
    /// A due-date charge's terms in pt-BR sentences (the due date first); `None` otherwise.
    pub due: Option<DueLines>,
}

/// What a due-date charge's page says of its terms.
pub struct DueLines {
    /// "10/12/2026".
    pub due_date: String,
    /// One sentence per term (discount, abatement, fine and interest).
    pub terms: Vec<String>,
}

/// A due-date charge's terms as the payer reads them, modality by modality (the API Pix's
/// domain tables).
fn due_lines(due: &projections::qrcodes::ChargeDue) -> DueLines {
    let day = |d: chrono::NaiveDate| d.format("%d/%m/%Y").to_string();
    let percent = |h: i64| format!("{},{:02}%", h / 100, h % 100);
    let money = |c: i64| domain::money::Centavos::new(u64::try_from(c).unwrap_or(0)).to_string();
    let money_or_percent = |percentage: bool, value: i64| {
        if percentage {
            percent(value)
        } else {
            money(value)
        }
    };
    let mut terms = Vec::new();
    if let Some(discount) = &due.discount {
        let percentage = matches!(discount.modality, 2 | 5 | 6);
        for date in &discount.dates {
            terms.push(format!(
                "Pagando até {}, desconto de {}.",
                day(date.until),
                money_or_percent(percentage, date.value)
            ));
        }
        if let Some(value) = discount.value {
            let days = if matches!(discount.modality, 4 | 6) {
                "útil"
            } else {
                "corrido"
            };
            terms.push(format!(
                "Desconto de {} por dia {days} de antecipação.",
                money_or_percent(percentage, value)
            ));
        }
    }
    if let Some(abatement) = due.abatement {
        terms.push(format!(
            "Abatimento de {} sobre o valor.",
            money_or_percent(abatement.modality == 2, abatement.value)
        ));
    }
    let fine = due
        .fine
        .map(|f| format!("multa de {}", money_or_percent(f.modality == 2, f.value)));
    let interest = due.interest.map(|i| {
        let value = money_or_percent(!matches!(i.modality, 1 | 5), i.value);
        let per = match i.modality {
            1 | 2 => "ao dia",
            3 | 7 => "ao mês",
            4 | 8 => "ao ano",
            _ => "por dia útil",
        };
        let business = if matches!(i.modality, 7 | 8) {
            " (dias úteis)"
        } else {
            ""
        };
        format!("juros de {value} {per}{business}")
    });
    match (fine, interest) {
        (Some(fine), Some(interest)) => {
            terms.push(format!("Depois do vencimento, {fine} e {interest}."));
        }
        (Some(one), None) | (None, Some(one)) => {
            terms.push(format!("Depois do vencimento, {one}."));
        }
        (None, None) => {}
    }
    DueLines {
        due_date: day(due.due_date),
        terms,
    }
}

/// Until when a bank charge's code is offered.
pub struct ValidUntil {
    /// "27/11/2026 às 14:05" (Brasília).
    pub text: String,
    /// Seconds left at rendering, by the server's clock (rounded up): the page's script counts
    /// down from them, so a payer's phone with a wrong clock still shows the right minutes.
    pub seconds_left: i64,
}

/// The printable sign (placa) for a QR code: the designed sign itself (the SVG of
/// `/placas/{id}.svg`, the same layout as the PDF with the same choices), shown on screen and
/// printed alone on a sheet of the chosen paper.
#[derive(Template)]
#[template(path = "sign.html")]
pub struct SignPage {
    /// Head data.
    pub meta: Meta,
    /// The QR code's read model.
    pub view: QrCodeView,
    /// Everything the sign says, in print order: the image's text for screen readers.
    pub description: String,
    /// Path of the script behind the print button.
    pub copy_js: &'static str,
    /// The paper: the print CSS's named `@page` (`placa-a5` …).
    pub size: domain::sign::PaperSize,
    /// The query of the image and the file downloads: the paper and whatever else of the design
    /// the page was asked for (`modelo`, `tema`, `titulo`, `rodape`), so both are the sign chosen.
    pub files_query: String,
}

/// `GET /pagamento/{qrcode_id}/placa[?tamanho=a5&modelo=…]`: the printable sign. Choices the
/// file routes would refuse are dropped (the page then shows the default design on the paper
/// asked for, A4 when that is unknown too).
pub async fn sign(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<HtmlTemplate<SignPage>, AppError> {
    let size = query
        .get("tamanho")
        .and_then(|s| s.parse::<domain::sign::PaperSize>().ok())
        .unwrap_or(domain::sign::PaperSize::A4);
    let design = crate::signs::SignRequest::from_query(&query).unwrap_or_else(|_| {
        let paper = HashMap::from([("tamanho".to_owned(), size.slug().to_owned())]);
        crate::signs::SignRequest::from_query(&paper).expect("a known paper size is a design")
    });
    let files_query = design.query();
    let size = design.options.size;
    let qrcode_id = Uuid::parse_str(&id).map_err(|_| AppError::NotFound)?;
    let view = state.qrcode(qrcode_id).await?.ok_or(AppError::NotFound)?;
    let holder = crate::signs::holder_of(&state, &view).await?;
    let content = crate::signs::content_for(&view, holder, &design);
    let amount = amount_text(&view);
    let meta = Meta::unindexed(
        Some(&state.site),
        format!("Placa Pix de {} | Balcão", view.merchant_name),
        format!(
            "Placa Pix para imprimir: {} · {amount}.",
            view.merchant_name
        ),
    );
    Ok(HtmlTemplate(SignPage {
        meta,
        view,
        description: sign_description(&content, &amount),
        copy_js: assets::copy_script_path(),
        size,
        files_query,
    }))
}

/// What a sign says, in the order it prints it, as one text.
fn sign_description(content: &domain::sign::SignContent, amount: &str) -> String {
    let mut lines = vec![
        format!("Placa Pix: {}", content.headline),
        format!("{}, {}", content.name, content.city),
        amount.to_owned(),
    ];
    lines.extend(content.description.clone());
    lines.extend(content.key_line.clone());
    lines.push(domain::sign::anti_fraud_line(content.holder.as_deref()));
    lines.push(domain::sign::INSTRUCTION.to_owned());
    lines.extend(content.footer.clone());
    lines
        .iter()
        .map(|line| line.trim_end_matches('.'))
        .collect::<Vec<_>>()
        .join(". ")
        + "."
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
/// Served from [`crate::payer_cache`]: with no projection moved since the page was stored, no row is
/// read; otherwise the rows are read and the page rendered only if they changed. `ETag` /
/// `If-None-Match` answer 304. [`SERVED_HEADER`] says which of the three answered.
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
        pix_keys: watch.position(projections::pix_keys::NAME),
        payments: watch.position(projections::payments::NAME),
    };
    let cached = state.payer_pages.get(qrcode_id, marks);
    if let Some(hit) = &cached
        && hit.current
    {
        return Ok(served(hit.page.respond(&request), "memoria"));
    }
    let view = state.qrcode(qrcode_id).await?.ok_or(AppError::NotFound)?;
    let holder = crate::signs::holder_of(&state, &view).await?;
    if view.charge_expires_at.is_some() {
        // A bank charge's page is one payer's and turns with the clock (its validity): rendered
        // on every request, never stored.
        let html = render_payment(&state, view.clone(), holder.clone())?;
        let page = CachedPage::new(Stamp { view, holder }, html);
        return Ok(served(page.respond(&request), "nova"));
    }
    let stamp = Stamp { view, holder };
    if let Some(hit) = cached
        && hit.page.stamp == stamp
    {
        state.payer_pages.confirm(qrcode_id, &stamp, marks);
        return Ok(served(hit.page.respond(&request), "conferida"));
    }
    let html = render_payment(&state, stamp.view.clone(), stamp.holder.clone())?;
    let page = Arc::new(CachedPage::new(stamp, html));
    state.payer_pages.put(qrcode_id, Arc::clone(&page), marks);
    Ok(served(page.respond(&request), "nova"))
}

/// The header saying how a payer page was served, as a cache's `X-Cache` does: `memoria` (no
/// row read), `conferida` (rows read, unchanged, the stored page) or `nova` (rendered now). It
/// tells an operator with `curl -I` whether the cache works, and a test which path answered.
pub const SERVED_HEADER: &str = "x-balcao-pagina";

fn served(mut response: Response, how: &'static str) -> Response {
    response.headers_mut().insert(
        axum::http::HeaderName::from_static(SERVED_HEADER),
        axum::http::HeaderValue::from_static(how),
    );
    response
}

/// The payer page's HTML for `view`.
fn render_payment(
    state: &AppState,
    view: QrCodeView,
    holder: Option<String>,
) -> Result<String, AppError> {
    let paid = view
        .paid_at
        .map(crate::api::payment_links::paid_in_brasilia);
    let now = state.clock.now();
    let expired = paid.is_none() && view.charge_expires_at.is_some_and(|at| at <= now);
    let valid_until = view.charge_expires_at.map(|at| ValidUntil {
        text: crate::api::payment_links::paid_in_brasilia(at),
        seconds_left: ((at - now).num_milliseconds().max(0) + 999) / 1000,
    });
    // A paid single-use code's page, an archived code's page and an expired charge's page say
    // so and show no code to pay with.
    let qr_svg = if paid.is_some() || view.archived_at.is_some() || expired {
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
    let due = view.charge_due.as_ref().map(due_lines);
    PaymentPage {
        meta,
        view,
        amount,
        qr_svg,
        copy_js: assets::copy_script_path(),
        holder,
        simulate,
        paid,
        valid_until,
        expired,
        due,
    }
    .render()
    .map_err(|e| AppError::Internal(anyhow::anyhow!("rendering the payer page: {e}")))
}

#[cfg(test)]
mod tests {
    use chrono::NaiveDate;
    use projections::qrcodes::{ChargeAdjustment, ChargeDue};

    use super::due_lines;

    fn with_interest(modality: u8) -> ChargeDue {
        ChargeDue {
            due_date: NaiveDate::from_ymd_opt(2026, 12, 10).expect("a day"),
            days_after_due: 30,
            fine: None,
            interest: Some(ChargeAdjustment {
                modality,
                value: 150,
            }),
            discount: None,
            abatement: None,
        }
    }

    #[test]
    fn every_interest_modality_of_the_spec_is_told_to_the_payer_in_its_own_words() {
        let told: Vec<String> = (1..=8)
            .map(|modality| due_lines(&with_interest(modality)).terms.join(" "))
            .collect();
        assert_eq!(
            told,
            [
                "Depois do vencimento, juros de R$ 1,50 ao dia.",
                "Depois do vencimento, juros de 1,50% ao dia.",
                "Depois do vencimento, juros de 1,50% ao mês.",
                "Depois do vencimento, juros de 1,50% ao ano.",
                "Depois do vencimento, juros de R$ 1,50 por dia útil.",
                "Depois do vencimento, juros de 1,50% por dia útil.",
                "Depois do vencimento, juros de 1,50% ao mês (dias úteis).",
                "Depois do vencimento, juros de 1,50% ao ano (dias úteis).",
            ]
        );
        assert_eq!(due_lines(&with_interest(3)).due_date, "10/12/2026");
    }
}
