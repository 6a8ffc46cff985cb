//! The payment-link page, `/pagar?link=ID.SIGNATURE`: a payer page (name, amount, QR code,
//! "Pix Copia e Cola") for a link an account made in the dashboard.
//!
//! Only links Balcão issued render ([`crate::api::payment_links::token`]): nobody can put their
//! own key on a Balcão page.
//!
//! | request | answer |
//! |---|---|
//! | a link this server signed, active | 200 the payer page, live: it reloads into "pago" when the link is paid while it is open |
//! | a link already paid (whatever its expiry or revocation since) | 200 "Este link já foi pago", without the code: a link is sold once, so every payer sees it paid |
//! | no `link`, a malformed one, a changed id or signature, a made-up one | 400, "Link de pagamento inválido" |
//! | a signed link that does not exist (yet) | 404 |
//! | expired | 410, "Este link de pagamento expirou" |
//! | revoked | 410, "Este link de pagamento foi cancelado" |

use std::collections::HashMap;

use askama::Template;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use domain::payment_link::LinkStatus;
use domain::qr::{EcLevel, QrMatrix};
use projections::payment_links::{self, PaymentLinkView};

use crate::api::payment_links::{brasilia, paid_in_brasilia, status_of, token};
use crate::assets;
use crate::error::AppError;
use crate::html::{ErrorPage, HtmlTemplate, Meta};
use crate::state::AppState;

/// The page.
#[derive(Template)]
#[template(path = "pay_link.html")]
pub struct PayLinkPage {
    /// Head data.
    pub meta: Meta,
    /// The link's read model.
    pub view: PaymentLinkView,
    /// "R$ 12,50".
    pub amount: String,
    /// "Válido até 24/12/2026", when it expires.
    pub validity: Option<String>,
    /// The QR code as an SVG element.
    pub qr_svg: String,
    /// Path of the copy-button script.
    pub copy_js: &'static str,
    /// The name the payer's bank shows: the holder of the account's registered key equal to the
    /// link's key, when it has one.
    pub holder: Option<String>,
    /// The signed link as given (`ID.SIGNATURE`), for the live status and the sandbox's form.
    pub token: String,
    /// When it was paid, in Brasília ("27/11/2026 às 14:05"): the page says so instead of
    /// offering the code.
    pub paid: Option<String>,
    /// Whether the sandbox's "Simular pagamento" is offered.
    pub simulate: bool,
}

fn error_page(
    state: &AppState,
    status: StatusCode,
    heading: &'static str,
    message: &'static str,
) -> Response {
    let page = ErrorPage {
        meta: Meta::unindexed(Some(&state.site), heading, message),
        status: status.as_u16(),
        heading,
        message: message.to_owned(),
    };
    (status, HtmlTemplate(page)).into_response()
}

/// `GET /pagar`.
///
/// # Errors
///
/// As the module table says; a database failure is the 503 or 500 page.
pub async fn show(
    State(state): State<AppState>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Response, AppError> {
    let given = query.get("link").cloned().unwrap_or_default();
    let Some(link_id) = token::verify(&state, &given) else {
        return Ok(error_page(
            &state,
            StatusCode::BAD_REQUEST,
            "Link de pagamento inválido",
            "Este link de pagamento não foi emitido pelo Balcão ou foi alterado. Peça a quem vai receber um link novo, copiado inteiro.",
        ));
    };
    let view = payment_links::find_or_from_log(&state.pool, state.qrcodes.store(), link_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let paid = view.paid_at.map(paid_in_brasilia);
    match status_of(&view, state.clock.now()) {
        // A paid link's page says so, whatever happened to the link since.
        _ if paid.is_some() => {}
        LinkStatus::Active => {}
        LinkStatus::Expired => {
            return Ok(error_page(
                &state,
                StatusCode::GONE,
                "Este link de pagamento expirou",
                "O prazo deste link de pagamento acabou e ele não recebe mais pagamentos. Peça um link novo a quem vai receber.",
            ));
        }
        LinkStatus::Revoked => {
            return Ok(error_page(
                &state,
                StatusCode::GONE,
                "Este link de pagamento foi cancelado",
                "Quem criou este link de pagamento o cancelou, e ele não recebe mais pagamentos. Peça um link novo a quem vai receber.",
            ));
        }
    }
    let qr_svg = QrMatrix::encode(&view.payload, EcLevel::M)
        .map_err(|e| AppError::Internal(anyhow::anyhow!("QR code for link {link_id}: {e}")))?
        .to_svg();
    let amount =
        domain::money::Centavos::new(u64::try_from(view.amount_centavos).unwrap_or(0)).to_string();
    let validity = view.expires_at.map(|at| {
        // The link ends at 00:00 of the next day in Brasília: show the last whole day.
        let last_day = (at - chrono::Duration::seconds(1)).with_timezone(&brasilia());
        format!("Válido até {}", last_day.format("%d/%m/%Y"))
    });
    let holder =
        projections::pix_keys::holder_for(&state.pool, view.owner_id, None, &view.pix_key).await?;
    let meta = Meta::unindexed(
        Some(&state.site),
        format!("Pagar {} com Pix | Balcão", view.merchant_name),
        format!(
            "Pague {} com Pix: {amount}. Leia o QR code ou use o Pix Copia e Cola.",
            view.merchant_name
        ),
    );
    Ok(HtmlTemplate(PayLinkPage {
        meta,
        view,
        amount,
        validity,
        qr_svg,
        copy_js: assets::copy_script_path(),
        holder,
        token: given,
        paid,
        simulate: state.payments.sandbox,
    })
    .into_response())
}
