//! Refunds through the bank (issue 33, "devolução"): the owner or a manager pays (part of) a Pix
//! back to its payer from the payment's detail, and Balcão asks the bank that holds the
//! payment's key, through its API Pix.
//!
//! | call | who | answer |
//! |---|---|---|
//! | `POST …/payments/{reference}/refunds` `{amount, description?}` (`Idempotency-Key` honoured) | owner, manager ([`Right::ViewAllTransactions`]) | 201 the payment with `refund: {id, status, problem?}` once the bank answered (`EM_PROCESSAMENTO`, `DEVOLVIDO`, `NAO_REALIZADO`, or `RECUSADA` with its reason), 202 when it could not be reached yet (`SOLICITADA`: sent again in the background); 404 `not-found`; 409 `bank-not-connected` (the payment's key has no connected bank), `payment-refund-needs-bank`, `payment-fully-refunded`, `idempotency-key-reused`; 422 naming `amount` (`payment-refund-over-left` says what is left) or `description` |
//!
//! Everything is decided on the write side: whether the payment exists, was reported by a bank
//! and has enough left comes from its own stream (`Payment::refundable`), never from the read
//! model; which bank holds it, from the key's bank connection stream. The request is recorded
//! (`PaymentRefundRequested`, with its `bank_refunds` row) before the bank is called, so a crash
//! or a slow bank never loses it: [`crate::bank_refunds`] sends it and follows it.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use chrono::Utc;
use commands::bank_refunds::FollowedRefund;
use commands::{Effects, ExpectedVersion, RequestDigest};
use domain::money::Centavos;
use domain::payment::{Payment, PaymentCommand, RequestRefund};
use domain::team::Right;
use serde::Deserialize;
use serde_json::json;
use uuid::Uuid;

use super::records::answer;
use crate::api::access::Workspace;
use crate::api::json::Json;
use crate::api::support::metadata;
use crate::bank_refunds::{Attempt, attempt, connection_for};
use crate::error::ApiError;
use crate::state::AppState;

/// `POST` body of a refund.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NewRefund {
    /// The amount in pt-BR (`"12,50"`).
    #[serde(default)]
    pub amount: String,
    /// What the payer reads in their bank app.
    #[serde(default)]
    pub description: Option<String>,
}

/// Namespace of refund ids derived from idempotency keys (a fixed, random UUID of its own).
const REFUND_ID_NAMESPACE: Uuid = Uuid::from_u128(0x3b8e_2f41_9c07_4d6a_a1e5_70c4_d2b9_8f16);

/// How long the request's row waits before the background follow-up may take it: the
/// handler's own attempt (at most the bank timeout, twice) comes first.
const HANDLER_HEAD_START: chrono::Duration = chrono::Duration::minutes(2);

fn not_connected() -> ApiError {
    ApiError::new(
        StatusCode::CONFLICT,
        "bank-not-connected",
        "A chave Pix que recebeu este pagamento não tem banco conectado. Conecte o banco em Chaves → Conectar banco, ou devolva pelo app do banco.",
    )
}

/// `POST /api/accounts/{accountId}/payments/{reference}/refunds`.
///
/// # Errors
///
/// As the module table says; once the request is recorded, never an error.
pub async fn request(
    State(state): State<AppState>,
    workspace: Workspace,
    headers: HeaderMap,
    Path((_, reference)): Path<(String, String)>,
    Json(body): Json<NewRefund>,
) -> Result<Response, ApiError> {
    workspace.require(Right::ViewAllTransactions)?;
    let amount = Centavos::parse_br(&body.amount)
        .map_err(|error| ApiError::invalid_argument("amount", error.to_string()))?;
    let description = body
        .description
        .as_deref()
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(str::to_owned);
    let stream = domain::payment::stream_id(workspace.account_id(), &reference);
    let payment: Payment = state
        .payments
        .commands
        .store()
        .load::<Payment>(&stream)
        .await
        .map_err(ApiError::from)?
        .aggregate;
    if payment.account_id.is_none() {
        return Err(ApiError::not_found());
    }
    let key_id = match payment.pix_key.as_deref() {
        Some(pix_key) => connection_for(&state, workspace.account_uuid(), pix_key)
            .await
            .map_err(ApiError::unavailable)?
            .ok_or_else(not_connected)?,
        None => return Err(not_connected()),
    };
    let key = crate::api::idempotency::key(&workspace, &headers, "painel-devolucao")?;
    let mut metadata = metadata(workspace.caller_id());
    if let Some(key) = &key {
        let asked = format!("{reference}\n{}\n{description:?}", amount.get());
        metadata = metadata
            .with_idempotency_key(key.clone())
            .with_request_digest(RequestDigest::of(asked.as_bytes()));
    }
    let refund_id = crate::api::idempotency::id_for(&REFUND_ID_NAMESPACE, key.as_ref())
        .simple()
        .to_string();
    let followed = FollowedRefund {
        account_id: workspace.account_uuid(),
        reference: reference.clone(),
        refund_id: refund_id.clone(),
        key_id,
        amount_centavos: i64::try_from(amount.get()).unwrap_or(i64::MAX),
        description: description.clone(),
        failures: 0,
        last_problem: None,
    };
    let command = PaymentCommand::RequestRefund(RequestRefund {
        account_id: workspace.account_id().to_owned(),
        refund_id: refund_id.clone(),
        amount,
        description,
        requested_by: workspace.caller_id().to_owned(),
        requested_at: crate::auth::accounts::now(),
    });
    let effects = Effects::new().follow_refund(followed.clone(), Utc::now() + HANDLER_HEAD_START);
    let outcome = state
        .payments
        .commands
        .execute_with(&stream, command, ExpectedVersion::Any, metadata, &effects)
        .await
        .map_err(ApiError::from)?;
    // Recorded: from here on the answer says how far the bank got, never that it failed.
    let first = !outcome.event_ids.is_empty();
    let tried = match attempt(&state, &followed, first).await {
        Ok(tried) => tried,
        Err(error) => {
            tracing::warn!(%error, "a refund's first attempt failed; the follow-up tries again");
            Attempt::Failed {
                problem: "internal".to_owned(),
            }
        }
    };
    let position = match &tried {
        Attempt::Tracked {
            position: Some(after),
            ..
        }
        | Attempt::Refused {
            position: Some(after),
            ..
        } => Some(*after),
        _ => outcome.position,
    };
    let mut json = answer(&state, &workspace, &reference, position).await;
    let (status, refund) = match &tried {
        Attempt::Tracked { .. } | Attempt::Done => {
            let shown = json["refunds"]
                .as_array()
                .and_then(|all| all.iter().find(|r| r["id"] == refund_id.as_str()))
                .map(|r| r["status"].clone())
                .unwrap_or(serde_json::Value::Null);
            (
                StatusCode::CREATED,
                json!({"id": refund_id, "status": shown}),
            )
        }
        Attempt::Refused { reason, .. } => (
            StatusCode::CREATED,
            json!({"id": refund_id, "status": projections::payments::REFUND_REFUSED, "reason": reason}),
        ),
        Attempt::Failed { problem } => (
            StatusCode::ACCEPTED,
            json!({"id": refund_id, "status": projections::payments::REFUND_REQUESTED, "problem": problem}),
        ),
        Attempt::Busy => (
            StatusCode::ACCEPTED,
            json!({"id": refund_id, "status": projections::payments::REFUND_REQUESTED}),
        ),
    };
    json["refund"] = refund;
    let mut response = (status, Json(json)).into_response();
    crate::api::idempotency::mark_replayed(&mut response, outcome.replayed);
    Ok(response)
}
