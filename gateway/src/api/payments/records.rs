//! An account's payments: read one, record by hand, void; and the daily totals. (The filtered,
//! paged list is [`super::search`].)
//!
//! | call | who | answer |
//! |---|---|---|
//! | `GET …/payments/{reference}` | as the list (an operator asking for another's → 403 `forbidden`) | 200 the payment (for owner and manager with `refundViaBank`: whether it can be refunded from its detail, a bank having reported it and its key having a connected bank); 404 `not-found` |
//! | `POST …/payments` `{qrcodeId?, amount, paidAt?, note?, endToEndId?}` (`Idempotency-Key` honoured) | owner, manager: any code or none; operator: only a code they made | 201 the payment (the first answer again, `Idempotent-Replayed: true`, for a repeated key); 422 naming `amount` (more than zero, at most R$ 9.999.999.999,99), `paidAt` (from 2020-11-03, the start of Pix, to now: `domain::payment::bounds`), `endToEndId`, `note` or `qrcodeId`; 409 `payment-already-recorded`, `idempotency-key-reused` |
//! | `POST …/payments/{reference}/void` `{reason}` | as recording, for the payment's code | 200 the payment; 409 `payment-not-manual` (a bank reported it), `payment-already-voided`; 422 `payment-reason-invalid` |
//! | `GET …/daily-totals?de=&ate=&qrcode=` | as the list | 200 `{days: [{day, payments, receivedCentavos, refundedCentavos}], total}` (São Paulo days) |
//!
//! The payer's name, document and free text are in the answer only for roles that see every
//! transaction ([`Right::ViewAllTransactions`]: owner, manager); an operator sees that a code was
//! paid, and how much, not who paid.

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, NaiveDate, SecondsFormat, Utc};
use commands::RequestDigest;
use domain::money::Centavos;
use domain::payment::{PaymentCommand, VoidPayment, bounds};
use domain::team::Right;
use projections::payments::{Filter, PaymentView};
use projections::qrcodes::QrCodeView;
use serde::Deserialize;
use serde_json::json;
use uuid::Uuid;

use crate::api::access::{Workspace, projection_error};
use crate::api::json::Json;
use crate::api::support::metadata;
use crate::error::ApiError;
use crate::read_your_writes::wait_for;
use crate::state::AppState;

/// The list's and the totals' query.
#[derive(Debug, Default, Deserialize)]
pub struct Period {
    /// First São Paulo day, `AAAA-MM-DD`.
    #[serde(default)]
    pub de: Option<String>,
    /// Last São Paulo day, `AAAA-MM-DD`.
    #[serde(default)]
    pub ate: Option<String>,
    /// Only this code.
    #[serde(default)]
    pub qrcode: Option<String>,
}

fn day(text: Option<&String>, field: &'static str) -> Result<Option<NaiveDate>, ApiError> {
    text.filter(|t| !t.is_empty())
        .map(|t| {
            NaiveDate::parse_from_str(t, "%Y-%m-%d").map_err(|_| {
                ApiError::invalid_argument(field, "Use uma data no formato AAAA-MM-DD.")
            })
        })
        .transpose()
}

pub(crate) fn filter(workspace: &Workspace, period: &Period) -> Result<Filter, ApiError> {
    workspace.require(Right::ViewOwnTransactions)?;
    Ok(Filter {
        created_by: (!workspace.can(Right::ViewAllTransactions))
            .then(|| workspace.caller_id().to_owned()),
        qrcode_id: match period.qrcode.as_deref().filter(|q| !q.is_empty()) {
            Some(q) => {
                Some(Uuid::parse_str(q).map_err(|_| {
                    ApiError::invalid_argument("qrcode", "Este QR code não existe.")
                })?)
            }
            None => None,
        },
        from: day(period.de.as_ref(), "de")?,
        to: day(period.ate.as_ref(), "ate")?,
    })
}

fn rfc3339(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

pub(crate) fn to_json(workspace: &Workspace, view: &PaymentView) -> serde_json::Value {
    let mut json = json!({
        "reference": view.reference,
        "endToEndId": view.end_to_end_id,
        "amountCentavos": view.amount_centavos,
        "refundedCentavos": view.refunded_centavos,
        "paidAt": rfc3339(view.paid_at),
        "day": view.paid_on.to_string(),
        "txid": view.txid,
        "qrcodeId": view.qrcode_id,
        "paymentLinkId": view.payment_link_id,
        "code": match (view.qrcode_id, view.payment_link_id) {
            (Some(_), _) => "QR code",
            (None, Some(_)) => "link de pagamento",
            (None, None) => "sem QR code",
        },
        "source": view.source,
        "confirmedBy": view.confirmed_by,
        "status": view.status,
        "note": view.note,
        "recordedBy": view.recorded_by,
        "voidReason": view.void_reason,
        "recordedAt": rfc3339(view.recorded_at),
        "refunds": view.refunds,
    });
    if workspace.can(Right::ViewAllTransactions) {
        json["payer"] = json!({
            "name": view.payer_name,
            "document": view.payer_document,
            "info": view.payer_info,
        });
    }
    json
}

/// The payment `reference` of the account, if the caller may see it.
pub(super) async fn visible(
    state: &AppState,
    workspace: &Workspace,
    reference: &str,
) -> Result<PaymentView, ApiError> {
    workspace.require(Right::ViewOwnTransactions)?;
    let view = projections::payments::find(&state.pool, workspace.account_uuid(), reference)
        .await
        .map_err(projection_error)?
        .ok_or_else(ApiError::not_found)?;
    if !workspace.can(Right::ViewAllTransactions) {
        let code = match view.qrcode_id {
            Some(id) => code_of(state, workspace, id).await?,
            None => None,
        };
        own_code(workspace, code.as_ref())?;
    }
    Ok(view)
}

/// `GET /api/accounts/{accountId}/payments/{reference}`.
///
/// # Errors
///
/// As the module table says.
pub async fn show(
    State(state): State<AppState>,
    workspace: Workspace,
    Path((_, reference)): Path<(String, String)>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let view = visible(&state, &workspace, &reference).await?;
    let mut json = to_json(&workspace, &view);
    if workspace.can(Right::ViewAllTransactions) {
        json["refundViaBank"] =
            serde_json::Value::Bool(refund_via_bank(&state, &workspace, &view).await?);
    }
    Ok(Json(json))
}

/// Whether the payment can be refunded from its detail: a bank reported it, and the key that
/// received it has a connected bank (`crate::api::payments::refunds` decides again, from the
/// log, when asked).
async fn refund_via_bank(
    state: &AppState,
    workspace: &Workspace,
    view: &PaymentView,
) -> Result<bool, ApiError> {
    let reported_by_bank = |source: &str| ["api-pix", "api-pix-consulta"].contains(&source);
    let by_bank = reported_by_bank(&view.source)
        || view.confirmed_by.as_deref().is_some_and(reported_by_bank);
    let Some(pix_key) = view.pix_key.as_deref().filter(|_| by_bank) else {
        return Ok(false);
    };
    Ok(
        crate::bank_refunds::connection_for(state, workspace.account_uuid(), pix_key)
            .await
            .map_err(ApiError::unavailable)?
            .is_some(),
    )
}

/// The account's code `id`, if it exists.
async fn code_of(
    state: &AppState,
    workspace: &Workspace,
    id: Uuid,
) -> Result<Option<QrCodeView>, ApiError> {
    Ok(state
        .qrcode(id)
        .await
        .map_err(projection_error)?
        .filter(|c| c.owner_id == Some(workspace.account_uuid())))
}

/// Operators act only on payments to codes they made.
fn own_code(workspace: &Workspace, code: Option<&QrCodeView>) -> Result<(), ApiError> {
    if workspace.can(Right::ViewAllTransactions) {
        return Ok(());
    }
    workspace.require(Right::ViewOwnTransactions)?;
    match code {
        Some(code) if code.created_by.as_deref() == Some(workspace.caller_id()) => Ok(()),
        _ => Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "forbidden",
            "Como operador, você só pode ver e registrar pagamentos dos QR codes que você criou.",
        )),
    }
}

/// `POST` body of a manual record.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NewPayment {
    /// The code paid, if any.
    #[serde(default)]
    pub qrcode_id: Option<String>,
    /// The amount in pt-BR (`"12,50"`).
    #[serde(default)]
    pub amount: String,
    /// When it was paid, RFC 3339; now when absent.
    #[serde(default)]
    pub paid_at: Option<String>,
    /// A note.
    #[serde(default)]
    pub note: Option<String>,
    /// The Pix end-to-end id shown in the bank's receipt, if known.
    #[serde(default)]
    pub end_to_end_id: Option<String>,
}

/// Namespace of the manual references derived from idempotency keys (a fixed, random UUID of
/// its own).
const MANUAL_ID_NAMESPACE: Uuid = Uuid::from_u128(0x7d2f_41c6_0b9e_4a57_8e13_c6a0_5f92_d4b8);

/// `POST /api/accounts/{accountId}/payments`.
///
/// # Errors
///
/// As the module table says.
pub async fn record(
    State(state): State<AppState>,
    workspace: Workspace,
    headers: HeaderMap,
    Json(body): Json<NewPayment>,
) -> Result<Response, ApiError> {
    workspace.require(Right::ViewOwnTransactions)?;
    let code = match body.qrcode_id.as_deref().filter(|q| !q.is_empty()) {
        Some(text) => {
            let id = Uuid::parse_str(text)
                .map_err(|_| ApiError::invalid_argument("qrcodeId", "Este QR code não existe."))?;
            Some(code_of(&state, &workspace, id).await?.ok_or_else(|| {
                ApiError::invalid_argument("qrcodeId", "Este QR code não existe.")
            })?)
        }
        None => None,
    };
    own_code(&workspace, code.as_ref())?;
    let amount = Centavos::parse_br(&body.amount)
        .map_err(|error| error.to_string())
        .and_then(|amount| bounds::amount(amount).map_err(|fault| fault.to_string()))
        .map_err(|message| ApiError::invalid_argument("amount", message))?;
    let now = Utc::now();
    let typed_at = body.paid_at.as_deref().filter(|p| !p.is_empty());
    let paid_at = match typed_at {
        Some(text) => {
            let at = DateTime::parse_from_rfc3339(text)
                .map_err(|_| ApiError::invalid_argument("paidAt", "Informe data e hora válidas."))?
                .with_timezone(&Utc);
            bounds::paid_at(&at, now)
                .map_err(|fault| ApiError::invalid_argument("paidAt", fault.to_string()))?;
            at
        }
        None => now,
    };
    let end_to_end_id = match body
        .end_to_end_id
        .as_deref()
        .map(str::trim)
        .filter(|e| !e.is_empty())
    {
        Some(e2e) if e2e.len() == 32 && e2e.bytes().all(|b| b.is_ascii_alphanumeric()) => {
            Some(e2e.to_owned())
        }
        Some(_) => {
            return Err(ApiError::invalid_argument(
                "endToEndId",
                "O identificador do Pix (E2E) tem 32 letras e números, como aparece no comprovante.",
            ));
        }
        None => None,
    };
    let key = crate::api::idempotency::key(&workspace, &headers, "painel-pagamento")?;
    let mut metadata = metadata(workspace.caller_id());
    if let Some(key) = &key {
        // What was asked, as parsed: "now" is the same request whenever it is retried.
        let asked = format!(
            "{:?}\n{}\n{:?}\n{:?}\n{:?}",
            code.as_ref().map(|c| c.qrcode_id),
            amount.get(),
            typed_at.map(|_| rfc3339(paid_at)),
            end_to_end_id,
            body.note,
        );
        metadata = metadata
            .with_idempotency_key(key.clone())
            .with_request_digest(RequestDigest::of(asked.as_bytes()));
    }
    let manual = commands::payments::ManualPayment {
        account_id: workspace.account_id().to_owned(),
        end_to_end_id,
        manual_id: crate::api::idempotency::id_for(&MANUAL_ID_NAMESPACE, key.as_ref()),
        amount,
        paid_at: rfc3339(paid_at),
        qrcode: code.as_ref().map(|c| {
            (
                c.qrcode_id.hyphenated().to_string(),
                Some(c.txid.clone()).filter(|t| t != "***"),
            )
        }),
        note: body.note,
        recorded_by: workspace.caller_id().to_owned(),
        recorded_at: crate::auth::accounts::now(),
    };
    let recorded =
        commands::payments::record_manual(&state.payments.commands, manual, metadata).await?;
    let (reference, position) = (recorded.reference, recorded.position);
    let json = answer(&state, &workspace, &reference, position).await;
    let mut response = (StatusCode::CREATED, Json(json)).into_response();
    crate::api::idempotency::mark_replayed(&mut response, recorded.replayed);
    Ok(response)
}

/// The payment as the read model shows it once caught up, else just its reference (the command
/// committed: never answer a failure now).
pub(super) async fn answer(
    state: &AppState,
    workspace: &Workspace,
    reference: &str,
    position: Option<commands::FeedPosition>,
) -> serde_json::Value {
    if wait_for(state, projections::payments::NAME, position).await
        && let Ok(Some(view)) =
            projections::payments::find(&state.pool, workspace.account_uuid(), reference).await
    {
        return to_json(workspace, &view);
    }
    json!({"reference": reference})
}

/// `POST` body of a void.
#[derive(Debug, Default, Deserialize)]
pub struct Void {
    /// Why.
    #[serde(default)]
    pub reason: String,
}

/// `POST /api/accounts/{accountId}/payments/{reference}/void`.
///
/// # Errors
///
/// As the module table says.
pub async fn void(
    State(state): State<AppState>,
    workspace: Workspace,
    Path((_, reference)): Path<(String, String)>,
    Json(body): Json<Void>,
) -> Result<Json<serde_json::Value>, ApiError> {
    // Whether the payment exists is the command's to say, from the payment's own stream (the
    // stream id names the account, and the aggregate refuses an unrecorded payment with 404):
    // a payment recorded a moment ago can be voided while the read model lags. Only an
    // operator's "own codes" rule needs the read model's row, for the payment's code.
    workspace.require(Right::ViewOwnTransactions)?;
    if !workspace.can(Right::ViewAllTransactions) {
        visible(&state, &workspace, &reference).await?;
    }
    let command = PaymentCommand::VoidPayment(VoidPayment {
        reason: body.reason,
        voided_by: workspace.caller_id().to_owned(),
        voided_at: crate::auth::accounts::now(),
    });
    let stream = domain::payment::stream_id(workspace.account_id(), &reference);
    let outcome = state
        .payments
        .commands
        .execute(&stream, command, metadata(workspace.caller_id()))
        .await
        .map_err(ApiError::from)?;
    Ok(Json(
        answer(&state, &workspace, &reference, outcome.position).await,
    ))
}

/// `GET /api/accounts/{accountId}/daily-totals`.
///
/// # Errors
///
/// As the module table says.
pub async fn totals(
    State(state): State<AppState>,
    workspace: Workspace,
    Query(period): Query<Period>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let filter = filter(&workspace, &period)?;
    let days = projections::payments::totals(&state.pool, workspace.account_uuid(), &filter)
        .await
        .map_err(projection_error)?;
    let (mut payments, mut received, mut refunded) = (0_i64, 0_i64, 0_i64);
    let days: Vec<_> = days
        .iter()
        .map(|d| {
            payments += d.payments;
            received += d.received_centavos;
            refunded += d.refunded_centavos;
            json!({"day": d.day.to_string(), "payments": d.payments,
                   "receivedCentavos": d.received_centavos, "refundedCentavos": d.refunded_centavos})
        })
        .collect();
    Ok(Json(json!({
        "days": days,
        "total": {"payments": payments, "receivedCentavos": received, "refundedCentavos": refunded},
    })))
}
