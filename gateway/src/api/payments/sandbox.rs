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
    // Before the payment is written: the page the payer returns to hears of what came after.
    let before = state.progress.watch().position(projections::payments::NAME);
    let back = format!(
        "/pagamento/{qrcode_id}?desde={}",
        crate::live::event_id(before)
    );
    Ok(pay(
        &state,
        account_id,
        &view.pix_key,
        delivery_for(&view),
        &back,
    )
    .await)
}

/// Hands `body` to the bank's receiver as a delivery to `pix_key` of `account_id`, waits until
/// the payments read model has it, and sends the payer `back` (303); a refusal is the receiver's.
async fn pay(
    state: &AppState,
    account_id: Uuid,
    pix_key: &str,
    body: serde_json::Value,
    back: &str,
) -> Response {
    let target = Target {
        account_id,
        pix_key: pix_key.to_owned(),
        actor: "sandbox".to_owned(),
    };
    let body = body.to_string();
    match receive(state, &target, body.as_bytes(), PaymentSource::Sandbox).await {
        Ok(accepted) => {
            crate::read_your_writes::wait_for(
                state,
                projections::payments::NAME,
                accepted.recorded.position,
            )
            .await;
            (StatusCode::SEE_OTHER, [(header::LOCATION, back.to_owned())]).into_response()
        }
        Err(refused) => refusal(refused),
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
    let view =
        projections::payment_links::find_or_from_log(&state.pool, state.qrcodes.store(), link_id)
            .await?
            .ok_or(AppError::NotFound)?;
    let body = delivery(&view.txid, Some(view.amount_centavos), &view.pix_key);
    let back = format!("/pagar?link={token}");
    Ok(pay(&state, view.owner_id, &view.pix_key, body, &back).await)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The simulation hands its bytes to the bank's receiver, whose parser decides: what it writes
    /// for a code is a delivery the parser takes, and a txid the API Pix would refuse (a code can
    /// never have one: txids are checked when codes are made) is refused by that same parser,
    /// naming the field, before anything is written.
    #[test]
    fn a_simulated_delivery_is_parsed_by_the_receivers_own_rules() {
        let now = Utc::now();
        let body = delivery("PEDIDO0001", Some(1_250), "loja@padaria.test").to_string();
        let entries =
            domain::payment::api_pix::parse_delivery(body.as_bytes(), now).expect("accepted");
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].amount, Centavos::new(1_250));
        assert_eq!(entries[0].txid.as_deref(), Some("PEDIDO0001"));

        let free = delivery("PEDIDO0002", None, "loja@padaria.test").to_string();
        let entries = domain::payment::api_pix::parse_delivery(free.as_bytes(), now).expect("ok");
        assert_eq!(
            entries[0].amount,
            Centavos::new(100),
            "R$ 1,00 when the payer types it"
        );

        let broken = delivery("tem-hifen", Some(1_250), "loja@padaria.test").to_string();
        let problems = domain::payment::api_pix::parse_delivery(broken.as_bytes(), now)
            .expect_err("a txid with a hyphen is refused");
        assert!(
            problems.iter().any(|p| p.path.ends_with("txid")),
            "{problems:?}"
        );
    }
}
