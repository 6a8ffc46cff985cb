//! `GET /api/accounts/{accountId}/payments/{reference}/history`: the payment's whole audit
//! trail, read from the event log itself (`PgEventStore::read_stream`, upcast like every other
//! reader), never from the read model: each event with what happened, when Balcão recorded it,
//! from which source, by whom, and the correlation and causation ids its command carried.
//!
//! Who may read it is who may read the payment (operators: payments to their own codes). The
//! payer's sealed fields are never in it; "by whom" names a person of the account by the name
//! they gave (`accounts` read model), the bank's receiver by its id, the sandbox as such.

use std::collections::HashMap;

use axum::extract::{Path, State};
use chrono::SecondsFormat;
use domain::payment::{PaymentEvent, STREAM_TYPE};
use serde_json::{Value, json};
use uuid::Uuid;

use super::records::visible;
use crate::api::access::{Workspace, projection_error};
use crate::api::json::Json;
use crate::error::ApiError;
use crate::state::AppState;

/// `GET /api/accounts/{accountId}/payments/{reference}/history`: `{events: [...]}`, oldest
/// first.
///
/// # Errors
///
/// 404 `not-found` for a payment the account does not have; 403 `forbidden` for an operator
/// asking about another person's code; 503 when PostgreSQL fails.
pub async fn history(
    State(state): State<AppState>,
    workspace: Workspace,
    Path((_, reference)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    visible(&state, &workspace, &reference).await?;
    let stream = domain::payment::stream_id(workspace.account_id(), &reference);
    let events = state
        .payments
        .commands
        .store()
        .read_stream(STREAM_TYPE, &stream)
        .await
        .map_err(ApiError::unavailable)?;
    let mut names: HashMap<Uuid, Option<String>> = HashMap::new();
    let mut entries = Vec::with_capacity(events.len());
    for event in events {
        let metadata = event.metadata.to_value();
        let text = |key: &str| metadata.get(key).and_then(Value::as_str).map(str::to_owned);
        let decoded: Option<PaymentEvent> = event.payload.deserialize().ok();
        let mut entry = json!({
            "eventId": event.event_id,
            "version": event.stream_version,
            "type": event.event_type,
            "at": event.recorded_at.to_rfc3339_opts(SecondsFormat::Millis, true),
            "correlationId": text("correlation_id"),
            "causationId": text("causation_id"),
            "requestId": text("request_id"),
        });
        let mut person = None;
        match &decoded {
            Some(PaymentEvent::PaymentRecorded(e)) => {
                entry["source"] = json!(e.source.as_str());
                entry["amountCentavos"] = json!(e.amount_centavos);
                entry["paidAt"] = json!(e.paid_at);
                entry["txid"] = json!(e.txid);
                entry["note"] = json!(e.note);
                if let Some(origin) = &e.statement {
                    entry["statement"] = json!({
                        "arquivo": origin.file_name,
                        "linha": origin.line,
                        "importacao": origin.import_id,
                    });
                }
                person.clone_from(&e.recorded_by);
            }
            Some(PaymentEvent::PaymentConfirmed(e)) => {
                entry["source"] = json!(e.source.as_str());
                entry["amountCentavos"] = json!(e.amount_centavos);
                entry["paidAt"] = json!(e.paid_at);
                if let Some(e2e) = &e.end_to_end_id {
                    entry["endToEndId"] = json!(e2e);
                }
            }
            Some(PaymentEvent::PaymentRefunded(e)) => {
                entry["source"] = json!(e.source.as_str());
                entry["refund"] = json!({
                    "id": e.refund_id,
                    "amountCentavos": e.amount_centavos,
                    "status": e.status.as_str(),
                    "reason": e.reason,
                });
            }
            Some(PaymentEvent::PaymentRefundRequested(e)) => {
                entry["refund"] = json!({
                    "id": e.refund_id,
                    "amountCentavos": e.amount_centavos,
                    "description": e.description,
                });
                person = Some(e.requested_by.clone());
            }
            Some(PaymentEvent::PaymentRefundRefused(e)) => {
                entry["refund"] = json!({"id": e.refund_id});
                entry["reason"] = json!(e.reason);
            }
            Some(PaymentEvent::PaymentVoided(e)) => {
                entry["source"] = json!("manual");
                entry["reason"] = json!(e.reason);
                person = Some(e.voided_by.clone());
            }
            None => {}
        }
        let actor = text("actor").or(person);
        entry["by"] = by(&state, &mut names, actor.as_deref()).await?;
        entries.push(entry);
    }
    Ok(Json(json!({ "events": entries })))
}

/// Who acted, as the panel names them: `{kind, name?, id?}`.
async fn by(
    state: &AppState,
    names: &mut HashMap<Uuid, Option<String>>,
    actor: Option<&str>,
) -> Result<Value, ApiError> {
    let Some(actor) = actor else {
        return Ok(json!({"kind": "unknown"}));
    };
    if actor == "sandbox" {
        return Ok(json!({"kind": "sandbox"}));
    }
    if let Some(receiver) = actor.strip_prefix("api-pix:") {
        return Ok(json!({"kind": "bank", "id": receiver}));
    }
    let Ok(person) = Uuid::parse_str(actor) else {
        return Ok(json!({"kind": "system", "id": actor}));
    };
    let name = match names.get(&person) {
        Some(known) => known.clone(),
        None => {
            let found = projections::accounts::find(&state.pool, person)
                .await
                .map_err(projection_error)?
                .and_then(|account| account.display_name);
            names.insert(person, found.clone());
            found
        }
    };
    Ok(json!({"kind": "person", "id": person, "name": name}))
}
