//! [`AppError`]: what a page handler returns, drawn as the site's error page.
//!
//! | variant | status | body |
//! |---|---|---|
//! | `NotFound` | 404 | the "Page Not Found" page |
//! | `Conflict` | 409 | the error page: someone else changed the same thing at the same time |
//! | `TooManyRequests` | 429 with `Retry-After` | the error page with a pt-BR explanation |
//! | `Refused` | a [`Failure`]'s status (402, 403, 409, 410, 422) | the error page with the failure's pt-BR message |
//! | `Internal` | 500 | the "Internal Server Error" page; the cause goes to the log only |
//! | `Unavailable` | 503 with `Retry-After` | the error page; the cause goes to the log only |
//!
//! Every failed command reaches a page through [`Failure`] (the table in [`super`]).

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::{Failure, UNAVAILABLE_RETRY_AFTER_SECS, failure::message, is_unavailable};
use crate::html::ErrorPage;

/// An error a handler returns.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// The path or the resource does not exist.
    #[error("not found")]
    NotFound,
    /// Concurrent writers won every retry (a command's version conflict).
    #[error("conflict")]
    Conflict,
    /// The client sent too many requests; it may retry after the given seconds.
    #[error("too many requests")]
    TooManyRequests {
        /// Seconds until the client may retry.
        retry_after_secs: u64,
    },
    /// A command was refused by its aggregate (or the store): the status of its
    /// [`RefusalKind`](domain::refusal::RefusalKind) and its pt-BR message.
    #[error("refused ({status}): {message}")]
    Refused {
        /// The refusal's status.
        status: StatusCode,
        /// What the person reads.
        message: String,
    },
    /// A dependency (database, NATS) is not answering.
    #[error("service unavailable: {0:#}")]
    Unavailable(anyhow::Error),
    /// Anything else: a bug or an unexpected failure.
    #[error("internal error: {0:#}")]
    Internal(anyhow::Error),
}

impl AppError {
    /// The HTTP status this error maps to.
    pub fn status(&self) -> StatusCode {
        match self {
            AppError::NotFound => StatusCode::NOT_FOUND,
            AppError::Conflict => StatusCode::CONFLICT,
            AppError::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            AppError::Refused { status, .. } => *status,
            AppError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            AppError::Internal(cause) if is_unavailable(cause) => StatusCode::SERVICE_UNAVAILABLE,
            AppError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl From<sqlx::Error> for AppError {
    fn from(error: sqlx::Error) -> Self {
        if commands::storage_error_is_transient(&error) {
            AppError::Unavailable(error.into())
        } else {
            AppError::Internal(error.into())
        }
    }
}

impl From<projections::Error> for AppError {
    fn from(error: projections::Error) -> Self {
        match error {
            projections::Error::Database(error) => AppError::from(error),
            other => AppError::Internal(other.into()),
        }
    }
}

impl From<anyhow::Error> for AppError {
    fn from(error: anyhow::Error) -> Self {
        AppError::Internal(error)
    }
}

/// A failed command as a page draws it: the plain 404 page for what is not there, the failure's
/// own message with its status for the rest (the table in [`super`]).
impl From<Failure> for AppError {
    fn from(failure: Failure) -> Self {
        let status = failure.status();
        let refused = |message: &str| AppError::Refused {
            status,
            message: message.to_owned(),
        };
        match failure {
            Failure::NotFound => AppError::NotFound,
            Failure::Refused { message, .. } => AppError::Refused { status, message },
            Failure::EmailTaken => refused(message::EMAIL_TAKEN),
            Failure::ClaimTaken => refused(message::CLAIM_TAKEN),
            Failure::ActionCodeExpired => refused(message::ACTION_CODE_EXPIRED),
            Failure::LimitReached => refused(message::LIMIT_REACHED),
            Failure::IdempotencyKeyReused => refused(message::IDEMPOTENCY_KEY_REUSED),
            Failure::Conflict => AppError::Conflict,
            Failure::Unavailable(cause) => AppError::Unavailable(cause),
            Failure::Internal(cause) => AppError::Internal(cause),
        }
    }
}

impl<E: domain::refusal::Refusal> From<commands::CommandError<E>> for AppError {
    fn from(error: commands::CommandError<E>) -> Self {
        AppError::from(Failure::from(error))
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let status = self.status();
        let cause = match &self {
            AppError::Internal(cause) | AppError::Unavailable(cause) => {
                Some(crate::telemetry::FailureCause::of(cause))
            }
            AppError::NotFound
            | AppError::Conflict
            | AppError::TooManyRequests { .. }
            | AppError::Refused { .. } => None,
        };
        let message = match &self {
            AppError::Refused { message, .. } => Some(message.clone()),
            _ => None,
        };
        let mut response = ErrorPage::explaining(status, message).into_response();
        *response.status_mut() = status;
        let retry_after = match self {
            AppError::TooManyRequests { retry_after_secs } => Some(retry_after_secs),
            _ if status == StatusCode::SERVICE_UNAVAILABLE => Some(UNAVAILABLE_RETRY_AFTER_SECS),
            _ => None,
        };
        if let Some(seconds) = retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        if let Some(cause) = cause {
            response.extensions_mut().insert(cause);
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn body(response: Response) -> String {
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
            .await
            .expect("body");
        String::from_utf8(bytes.to_vec()).expect("utf-8")
    }

    #[tokio::test]
    async fn an_unexpected_failure_is_the_internal_server_error_page_and_leaks_nothing() {
        let error = AppError::Internal(anyhow::anyhow!(
            "connection to 10.0.0.7 refused: secret-detail"
        ));
        let response = error.into_response();
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let html = body(response).await;
        assert!(html.contains("<title>Internal Server Error</title>"));
        assert!(html.contains("lang=\"pt-BR\""));
        assert!(
            !html.contains("secret-detail") && !html.contains("10.0.0.7"),
            "nothing internal leaks"
        );
    }

    #[tokio::test]
    async fn an_exhausted_pool_is_a_503_with_retry_after_even_when_wrapped_as_internal() {
        for error in [
            AppError::from(sqlx::Error::PoolTimedOut),
            AppError::from(projections::Error::Database(sqlx::Error::PoolTimedOut)),
            AppError::Internal(anyhow::Error::new(projections::Error::Database(
                sqlx::Error::PoolTimedOut,
            ))),
            AppError::Internal(
                anyhow::Error::new(sqlx::Error::PoolTimedOut).context("reading the read model"),
            ),
            // An aggregate's load (the sign's page loads the code to check its token).
            AppError::from(
                commands::CommandError::<domain::qrcode::QrCodeError>::Storage(
                    sqlx::Error::PoolTimedOut,
                ),
            ),
            AppError::Internal(anyhow::Error::new(commands::CommandError::<
                domain::account::AccountError,
            >::Storage(
                sqlx::Error::PoolTimedOut
            ))),
        ] {
            let response = error.into_response();
            assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
            assert_eq!(response.headers()[header::RETRY_AFTER], "2");
            let html = body(response).await;
            assert!(
                html.contains("Serviço temporariamente indisponível"),
                "{html}"
            );
        }
        let bug = AppError::Internal(anyhow::anyhow!("a bug")).into_response();
        assert_eq!(bug.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert!(bug.headers().get(header::RETRY_AFTER).is_none());
    }

    #[tokio::test]
    async fn the_status_comes_from_the_error() {
        let unavailable = AppError::Unavailable(anyhow::anyhow!("pool timed out")).into_response();
        assert_eq!(unavailable.status(), StatusCode::SERVICE_UNAVAILABLE);
        let limited = AppError::TooManyRequests {
            retry_after_secs: 7,
        }
        .into_response();
        assert_eq!(limited.status(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(limited.headers()[header::RETRY_AFTER], "7");
        assert_eq!(
            AppError::Conflict.into_response().status(),
            StatusCode::CONFLICT
        );
        let missing = AppError::NotFound.into_response();
        assert_eq!(missing.status(), StatusCode::NOT_FOUND);
        assert!(
            body(missing)
                .await
                .contains("<title>Page Not Found</title>")
        );
    }
}
