//! `POST /webhooks/asaas`: Asaas's payment events for subscription charges.
//!
//! | case | answer |
//! |---|---|
//! | no `BALCAO_ASAAS_WEBHOOK_TOKEN` configured | 404 (the route is off) |
//! | `asaas-access-token` missing or different (compared in constant time) | 401, nothing written |
//! | a body that is not an Asaas event | 400, nothing written |
//! | an event id already handled | 200 `{"result": "duplicate"}`, nothing written |
//! | `PAYMENT_RECEIVED` / `PAYMENT_CONFIRMED` | the charge paid: Premium on, or renewed (200) |
//! | `PAYMENT_OVERDUE`, `PAYMENT_REFUNDED`, `PAYMENT_DELETED` | the charge moves; a refund of the period's payment ends Premium (200) |
//! | a payment whose `externalReference` is not one of our charges | 200 `{"result": "ignored"}`, nothing written (Asaas pauses a queue after 15 non-200 answers) |
//! | any other event | 200 `{"result": "ignored"}` |
//!
//! Deliveries are at least once and may come out of order: the event id is remembered
//! (`billing_webhook_events`) after the command commits, and the aggregate's decisions are
//! idempotent (a payment confirmed twice, an overdue after the payment, record nothing), so a
//! redelivery between the two writes changes nothing either.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use commands::provider_deliveries;
use domain::subscription::ChargeChange;
use serde::Deserialize;
use serde_json::value::RawValue;
use uuid::Uuid;

use crate::api::json::Json;
use crate::billing::asaas::{centavos_from_reais, instant};
use crate::billing::{News, Settled, settle};
use crate::state::AppState;
use crate::telemetry::FailureCause;

/// The provider name under which event ids are remembered.
const PROVIDER: &str = "asaas";

#[derive(Debug, Deserialize)]
struct Envelope<'a> {
    id: String,
    event: String,
    #[serde(default, rename = "dateCreated")]
    date_created: Option<String>,
    #[serde(borrow, default)]
    payment: Option<AsaasPayment<'a>>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct AsaasPayment<'a> {
    id: String,
    #[serde(borrow)]
    value: &'a RawValue,
    #[serde(default)]
    external_reference: Option<String>,
    #[serde(default)]
    client_payment_date: Option<String>,
    #[serde(default)]
    payment_date: Option<String>,
    #[serde(default)]
    confirmed_date: Option<String>,
}

/// Constant-time equality of two byte strings (length is not secret).
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

fn answer(status: StatusCode, result: &str) -> Response {
    (status, Json(serde_json::json!({ "result": result }))).into_response()
}

/// `POST /webhooks/asaas`.
pub async fn deliver(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> Response {
    let Some(expected) = state.billing.webhook_token.as_deref() else {
        return answer(StatusCode::NOT_FOUND, "not-found");
    };
    let given = headers
        .get("asaas-access-token")
        .map(|v| v.as_bytes())
        .unwrap_or_default();
    if !same(given, expected.as_bytes()) {
        return answer(StatusCode::UNAUTHORIZED, "invalid-token");
    }
    // U+0000 cannot be stored: refused like any body that is not Asaas's.
    let Some(envelope) = serde_json::from_slice::<Envelope<'_>>(&body)
        .ok()
        .filter(|_| crate::api::json::nul_field(&body).is_none())
    else {
        return answer(StatusCode::BAD_REQUEST, "invalid-body");
    };
    match provider_deliveries::handled(&state.pool, PROVIDER, &envelope.id).await {
        Ok(true) => return answer(StatusCode::OK, "duplicate"),
        Ok(false) => {}
        Err(error) => return failed(error),
    }
    let news = match envelope.event.as_str() {
        "PAYMENT_RECEIVED" | "PAYMENT_CONFIRMED" => envelope.payment.as_ref().and_then(|p| {
            let amount = centavos_from_reais(p.value.get())?;
            let paid = [&p.client_payment_date, &p.confirmed_date, &p.payment_date]
                .into_iter()
                .flatten()
                .chain(envelope.date_created.as_ref())
                .find_map(|t| instant(t))?;
            Some(News::Paid {
                amount_centavos: amount.get(),
                at: paid.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            })
        }),
        "PAYMENT_OVERDUE" => Some(News::Changed(ChargeChange::Overdue)),
        "PAYMENT_REFUNDED" => Some(News::Changed(ChargeChange::Refunded)),
        "PAYMENT_DELETED" => Some(News::Changed(ChargeChange::Deleted)),
        _ => None,
    };
    let target = envelope.payment.as_ref().and_then(|p| {
        let reference = p.external_reference.as_deref()?;
        let (account, _charge) = reference.split_once(':')?;
        Some((Uuid::parse_str(account).ok()?, p.id.clone()))
    });
    let result = match (news, target) {
        (Some(news), Some((account, payment_id))) => {
            match settle(&state.billing, account, &payment_id, news).await {
                Ok(Settled::Recorded(_)) => "recorded",
                Ok(Settled::UnknownCharge) => {
                    tracing::warn!(event = %envelope.id, payment = %payment_id, "Asaas event for a charge we do not know");
                    "ignored"
                }
                Err(error) => return failed(anyhow::anyhow!("{error}")),
            }
        }
        _ => "ignored",
    };
    if let Err(error) = provider_deliveries::remember(&state.pool, PROVIDER, &envelope.id).await {
        return failed(error);
    }
    answer(StatusCode::OK, result)
}

fn failed(error: impl Into<anyhow::Error>) -> Response {
    let error: anyhow::Error = error.into();
    // Logged once, with the route, by `telemetry::log_failures`.
    let mut response = answer(StatusCode::SERVICE_UNAVAILABLE, "unavailable");
    response.extensions_mut().insert(FailureCause(
        format!("Asaas webhook not handled; Asaas will deliver it again: {error:#}").into(),
    ));
    response
}
