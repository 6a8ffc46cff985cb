//! The live routes (listed in [`crate::router`]): the edge of [`crate::live`].
//!
//! | route | who | events |
//! |---|---|---|
//! | `GET /pagamento/{id}/eventos` | anyone with the payer page | `pagamento` `{"pago": false}` on connect (the code ready to pay), `{"pago": true}` when a payment to the code arrives; a resumed stream: `{"pago": true}` if one arrived after its last id, else nothing |
//! | `GET /pagar/eventos?link=…` | anyone with the payment link's page | as the payer page, for the link's payments (a link is sold once: its page reloads into "pago") |
//! | `GET /api/accounts/{accountId}/events` | bearer token; every role (operators: their own codes) | `pagamento` `{reference, qrcodeId, amountCentavos, status, source, paidAt}` per change; `resync` after a gap too large to replay |
//! | `GET /api/accounts/{accountId}/subscription/charges/{chargeId}/events` | bearer token; the owner | `cobranca` `{status}`: the charge as it stands on connect, then each change (the checkout, `/pagar_asaas`) |
//!
//! All take the last id seen as `Last-Event-ID` (or `?desde=`), and answer 503 with
//! `Retry-After` and `Connection: close` when every place is taken, or every place for the
//! client's address; an unknown code is 404, an account the caller has no role in is 404 (as
//! every account route).

use std::collections::HashMap;

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use commands::FeedPosition;
use domain::team::Right;
use uuid::Uuid;

use crate::api::access::Workspace;
use crate::client_address::ClientAddress;
use crate::error::ApiError;
use crate::error::AppError;
use crate::live::stream::{Audience, Paying, open, parse_event_id};
use crate::state::AppState;

/// Seconds a refused client is asked to wait.
const RETRY_AFTER_SECS: &str = "5";

/// The last id the client saw: the `Last-Event-ID` header (a browser's own reconnect), else
/// `?desde=` (a page opening the stream anew). A malformed one counts as none.
fn resume_after(headers: &HeaderMap, query: &HashMap<String, String>) -> Option<FeedPosition> {
    headers
        .get("last-event-id")
        .and_then(|value| value.to_str().ok())
        .or_else(|| query.get("desde").map(String::as_str))
        .and_then(parse_event_id)
}

/// `response` as a refusal: 503, `Retry-After`, and the connection closed after it, so a
/// client retrying in a loop holds no idle connection between its tries.
fn busy(mut response: Response) -> Response {
    *response.status_mut() = StatusCode::SERVICE_UNAVAILABLE;
    let headers = response.headers_mut();
    headers.insert(
        header::RETRY_AFTER,
        HeaderValue::from_static(RETRY_AFTER_SECS),
    );
    headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

/// `GET /pagamento/{qrcode_id}/eventos`: whether a payment to the code arrived while the page
/// was open, live. Carries nothing about the payment or the payer.
///
/// # Errors
///
/// 404 page for an unknown code; 503 when the read model cannot be read.
pub async fn payer(
    State(state): State<AppState>,
    ClientAddress(address): ClientAddress,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    let qrcode_id = Uuid::parse_str(&id).map_err(|_| AppError::NotFound)?;
    let view = state.qrcode(qrcode_id).await?.ok_or(AppError::NotFound)?;
    let audience = Audience::Payer {
        paying: Paying::Code(qrcode_id),
        owner_id: view.owner_id,
    };
    Ok(open_for_payer(&state, audience, address, resume_after(&headers, &query)).await)
}

/// A payer page's stream, or the 503 saying everyone's places are taken.
async fn open_for_payer(
    state: &AppState,
    audience: Audience,
    address: std::net::IpAddr,
    resume: Option<FeedPosition>,
) -> Response {
    match open(&state.live, audience, address, resume).await {
        Some(response) => response,
        None => busy(
            "Muitas pessoas acompanhando agora; tentando de novo em instantes.".into_response(),
        ),
    }
}

/// `GET /pagar/eventos?link=…`: whether the payment link was paid while its page was open.
/// Carries nothing about the payment or the payer.
///
/// # Errors
///
/// The 404 page for a link that is not this server's or does not exist (yet); 503 when the read
/// model cannot be read.
pub async fn link_payer(
    State(state): State<AppState>,
    ClientAddress(address): ClientAddress,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    let link_id = query
        .get("link")
        .and_then(|t| crate::api::payment_links::token::verify(&state, t))
        .ok_or(AppError::NotFound)?;
    let view =
        projections::payment_links::find_or_from_log(&state.pool, state.qrcodes.store(), link_id)
            .await?
            .ok_or(AppError::NotFound)?;
    let audience = Audience::Payer {
        paying: Paying::Link(link_id),
        owner_id: Some(view.owner_id),
    };
    Ok(open_for_payer(&state, audience, address, resume_after(&headers, &query)).await)
}

/// `GET /api/accounts/{accountId}/events`: the account's payments as they change.
///
/// # Errors
///
/// 401, 404, 403 as every account route ([`Workspace`]).
pub async fn account(
    State(state): State<AppState>,
    workspace: Workspace,
    ClientAddress(address): ClientAddress,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    workspace.require(Right::ViewOwnTransactions)?;
    let audience = Audience::Account {
        account_id: workspace.account_uuid(),
        only_codes_by: (!workspace.can(Right::ViewAllTransactions))
            .then(|| workspace.caller_id().to_owned()),
    };
    let resume = resume_after(&headers, &query);
    match open(&state.live, audience, address, resume).await {
        Some(response) => Ok(response),
        None => Ok(busy(
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "live-updates-full",
                "Muitas conexões ao vivo abertas agora; o painel tenta de novo em instantes.",
            )
            .into_response(),
        )),
    }
}

/// `GET /api/accounts/{accountId}/subscription/charges/{chargeId}/events`: where the checkout's
/// charge stands, live (`open`, `paid`, `overdue`, `deleted`, `refunded`, `cancelled`).
///
/// # Errors
///
/// 401, 404, 403 as every account route ([`Workspace`]); 404 for a charge not of this account;
/// 503 when the read model cannot be read.
pub async fn charge(
    State(state): State<AppState>,
    workspace: Workspace,
    ClientAddress(address): ClientAddress,
    Path((_, id)): Path<(String, String)>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    workspace.require(Right::ManageSettings)?;
    let charge_id = Uuid::parse_str(&id).map_err(|_| ApiError::not_found())?;
    let view = projections::subscriptions::charge(&state.pool, charge_id)
        .await
        .map_err(crate::api::access::projection_error)?
        .filter(|c| c.account_id == workspace.account_uuid())
        .ok_or_else(ApiError::not_found)?;
    match crate::live::charges::open(&state.live, view, address, resume_after(&headers, &query))
        .await
    {
        Some(response) => Ok(response),
        None => Ok(busy(
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "live-updates-full",
                "Muitas conexões ao vivo abertas agora; a página tenta de novo em instantes.",
            )
            .into_response(),
        )),
    }
}
