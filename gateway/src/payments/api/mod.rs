//! The payments API under `/api/accounts/{accountId}/…` ([`receivers`], [`records`]).

pub mod receivers;
pub mod records;

use axum::Router;
use axum::routing::{get, post};
use commands::CommandError;
use domain::refusal::Refusal;

use crate::api::error::ApiError;
use crate::state::AppState;

/// The payment routes, relative to `/api`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/accounts/{accountId}/api-pix-receivers/{keyId}",
            get(receivers::show)
                .post(receivers::turn_on)
                .delete(receivers::turn_off),
        )
        .route(
            "/accounts/{accountId}/api-pix-receivers/{keyId}/rotate",
            post(receivers::rotate),
        )
        .route(
            "/accounts/{accountId}/payments",
            get(records::list).post(records::record),
        )
        .route(
            "/accounts/{accountId}/payments/{reference}",
            get(records::show),
        )
        .route(
            "/accounts/{accountId}/payments/{reference}/void",
            post(records::void),
        )
        .route("/accounts/{accountId}/daily-totals", get(records::totals))
}

/// A Payment command's failure: the refusal's kind decides the status (`domain::refusal`), the
/// rest reads as everywhere in the API.
pub(crate) fn payment_failure<E: Refusal + std::error::Error + Send + Sync + 'static>(
    error: CommandError<E>,
) -> ApiError {
    match error {
        CommandError::Rejected(refusal) => {
            let status = axum::http::StatusCode::from_u16(refusal.kind().http_status())
                .unwrap_or(axum::http::StatusCode::UNPROCESSABLE_ENTITY);
            let api = ApiError::new(status, refusal.code(), refusal.to_string());
            match refusal.field() {
                Some(field) => api.with_field(field),
                None => api,
            }
        }
        CommandError::Conflict { .. } => ApiError::conflict(),
        other if other.status_code() == 503 => ApiError::unavailable(anyhow::Error::new(other)),
        other => ApiError::internal(anyhow::Error::new(other)),
    }
}
