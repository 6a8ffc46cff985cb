//! `POST /pagamento/{id}/simular-pagamento` (and `POST /pagar/simular-pagamento?link=…` for a
//! payment link): the sandbox's "Simular pagamento".
//!
//! Only with `BALCAO_SANDBOX_PAYMENTS` on (404 otherwise), and only for a code of an account
//! with its own txid (the API Pix notifies only Pix with a txid). It writes an API Pix delivery
//! as a bank would (one entry: a fresh `endToEndId`, the code's `txid`, its amount or R$ 1,00
//! when the payer types it, its key, now) and hands the bytes to the very receiver the bank's
//! webhook uses ([`super::receiver::receive`], same validation), with source `sandbox`; then it
//! sends the payer back to the payer page (303) with `?desde=` the `payments` position heard
//! before the simulation, so that page's live stream confirms this payment (a page opening
//! anew starts ready to pay: a sign is paid by many people).

use std::collections::HashMap;

use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use chrono::{SecondsFormat, Utc};
use domain::money::Centavos;
use domain::payment::PaymentSource;
use projections::qrcodes::QrCodeView;
use uuid::Uuid;

use super::receiver::{Target, receive};
use super::webhook::refusal;
use crate::error::AppError;
use crate::state::AppState;

/// Whether the payer page of `view` offers "Simular pagamento".
pub fn offered(state: &AppState, view: &QrCodeView) -> bool {
    state.payments.sandbox && view.owner_id.is_some() && view.txid != "***"
}

/// A made-up end-to-end id in the SPI's shape: `E`, an 8-digit ISPB (`00000000`: none), the
/// minute (`yyyyMMddHHmm`), and 11 random letters and digits: 32 characters.
fn end_to_end_id() -> String {
    let random = Uuid::new_v4().simple().to_string();
    format!(
        "E00000000{}{}",
        Utc::now().format("%Y%m%d%H%M"),
        random.get(..11).unwrap_or("00000000000")
    )
}

/// The delivery a bank would send for one payment of `view`.
pub fn delivery_for(view: &QrCodeView) -> serde_json::Value {
    delivery(&view.txid, view.amount_centavos, &view.pix_key)
}

/// One entry paying `txid` to `pix_key`: `amount_centavos`, or R$ 1,00 when the payer types it.
fn delivery(txid: &str, amount_centavos: Option<i64>, pix_key: &str) -> serde_json::Value {
    let amount = amount_centavos
        .and_then(|c| u64::try_from(c).ok())
        .map_or(Centavos::new(100), Centavos::new);
    serde_json::json!({"pix": [{
        "endToEndId": end_to_end_id(),
        "txid": txid,
        "valor": amount.to_emv(),
        "chave": pix_key,
        "horario": Utc::now().to_rfc3339_opts(SecondsFormat::Millis, true),
        "infoPagador": "Pagamento simulado no Balcão",
    }]})
}

/// `POST /pagamento/{id}/simular-pagamento`.
///
/// # Errors
///
/// The 404 page when the sandbox is off or the code offers no simulation.
pub async fn simulate(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, AppError> {
    let qrcode_id = Uuid::parse_str(&id).map_err(|_| AppError::NotFound)?;
    let view = state.qrcode(qrcode_id).await?.ok_or(AppError::NotFound)?;
    if !offered(&state, &view) {
        return Err(AppError::NotFound);
    }
    let Some(account_id) = view.owner_id else {
        return Err(AppError::NotFound);
    };
    let body = delivery_for(&view).to_string();
    // Before the payment is written: the page the payer returns to hears of what came after.
    let before = state.progress.watch().position(projections::payments::NAME);
    let target = Target {
        account_id,
        pix_key: view.pix_key.clone(),
        actor: "sandbox".to_owned(),
    };
    match receive(&state, &target, body.as_bytes(), PaymentSource::Sandbox).await {
        Ok(accepted) => {
            let wait = crate::read_your_writes::wait_for(
                &state,
                projections::payments::NAME,
                accepted.recorded.position,
            );
            wait.await;
            Ok((
                StatusCode::SEE_OTHER,
                [(
                    header::LOCATION,
                    format!(
                        "/pagamento/{qrcode_id}?desde={}",
                        crate::live::event_id(before)
                    ),
                )],
            )
                .into_response())
        }
        Err(refused) => Ok(refusal(refused)),
    }
}

/// `POST /pagar/simular-pagamento?link=…`: "Simular pagamento" on a payment link's page, as on
/// the payer page; the payer goes back to the link's page (303), which then says "pago" to
/// everyone (a link is sold once).
///
/// # Errors
///
/// The 404 page when the sandbox is off, or the link is not this server's or does not exist.
pub async fn simulate_link(
    State(state): State<AppState>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Response, AppError> {
    if !state.payments.sandbox {
        return Err(AppError::NotFound);
    }
    let token = query.get("link").ok_or(AppError::NotFound)?;
    let link_id =
        crate::api::payment_links::token::verify(&state, token).ok_or(AppError::NotFound)?;
    let view = projections::payment_links::find(&state.pool, link_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let body = delivery(&view.txid, Some(view.amount_centavos), &view.pix_key).to_string();
    let target = Target {
        account_id: view.owner_id,
        pix_key: view.pix_key.clone(),
        actor: "sandbox".to_owned(),
    };
    match receive(&state, &target, body.as_bytes(), PaymentSource::Sandbox).await {
        Ok(accepted) => {
            crate::read_your_writes::wait_for(
                &state,
                projections::payments::NAME,
                accepted.recorded.position,
            )
            .await;
            Ok((
                StatusCode::SEE_OTHER,
                [(header::LOCATION, format!("/pagar?link={token}"))],
            )
                .into_response())
        }
        Err(refused) => Ok(refusal(refused)),
    }
}
