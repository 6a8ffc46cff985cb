//! The gateway's errors and their one mapping to HTTP.
//!
//! Two renderings of the same decisions: [`AppError`] draws a page (askama, pt-BR), [`ApiError`]
//! the JSON API's `{"error": {code, message, field, problems}}` (its own table of codes in
//! [`api`]). Whatever fails under them is classified once, by [`Failure`]:
//!
//! | what failed | status | message (pt-BR, the same on a page and in the API) | API code |
//! |---|---|---|---|
//! | a refusal of kind not-found | 404 | none: the plain "not found" answer | `not-found` |
//! | any other refusal (`domain::refusal`) | its kind's status: 402, 403, 409, 410, 422 | the refusal's own | the refusal's code, `field`, `problems` |
//! | the e-mail claimed by another account | 409 | [`failure::message::EMAIL_TAKEN`] | `email-already-in-use` |
//! | another unique value claimed | 409 | [`failure::message::CLAIM_TAKEN`] | `already-in-use` |
//! | a used, expired or foreign action code | 410 | [`failure::message::ACTION_CODE_EXPIRED`] | `expired-action-code` |
//! | a QR-code count past the plan, outside the QR-code workflows | 402 | [`failure::message::LIMIT_REACHED`] | `plan-limit-reached` |
//! | an `Idempotency-Key` sent again with other values | 409 | [`failure::message::IDEMPOTENCY_KEY_REUSED`] | `idempotency-key-reused` |
//! | other writers won every retry; the plan changed under every retry | 409 | [`failure::message::CONFLICT`] | `conflict` |
//! | a storage failure worth retrying ([`commands::storage_error_is_transient`]) | 503 + `Retry-After` | "try again shortly" | `unavailable` |
//! | anything else | 500 | "we broke; nothing was lost" | `internal` |
//!
//! The services below the edges return errors of their own ([`crate::billing::BillingError`],
//! [`crate::storage::StorageError`], [`crate::rate_limit::Throttled`]); each has one `From`
//! here, next to the edge it is answered by, so no service knows HTTP's shapes.
//!
//! A database that is out of reach, a pool with no connection free in time, or a database that
//! says it is overloaded or going away is 503 wherever it surfaces, even wrapped in an internal
//! error: it says "try again shortly", never "we broke" (see [`is_unavailable`]). Nothing internal
//! reaches the client: the cause travels in the response's extensions and is logged once, with
//! the method and route, by [`crate::telemetry::log_failures`].

pub mod api;
pub mod failure;
mod page;

#[cfg(test)]
mod logged_once;

pub use api::ApiError;
pub use failure::Failure;
pub use page::AppError;

/// Seconds a 503 asks the client to wait before trying again.
pub const UNAVAILABLE_RETRY_AFTER_SECS: u64 = 2;

/// Whether `error` (or anything in its chain of causes) says a dependency is out of reach
/// rather than broken: PostgreSQL unreachable, or no pooled connection free in time.
pub fn is_unavailable(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<sqlx::Error>()
            .is_some_and(commands::storage_error_is_transient)
    })
}
