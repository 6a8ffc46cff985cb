//! The JSON API's one error type, [`ApiError`], and its mapping to HTTP.
//!
//! Every error under `/api` has the same body, whatever produced it (a handler, an extractor, the
//! body limit, the timeout, an unknown path):
//!
//! ```json
//! {"error": {"code": "invalid-argument", "message": "Informe um e-mail válido.", "field": "email"}}
//! ```
//!
//! `code` is stable kebab-case for programs; `message` is pt-BR for people (the dashboard shows
//! the message of a 4xx whose code it does not know as it is); `field` names the request field at
//! fault, when there is one.
//!
//! When several fields are wrong at once (a QR code whose key, name and amount all break a Pix
//! rule; a batch with bad lines), the error also lists every problem, the first being the one
//! `message` and `field` name:
//!
//! ```json
//! {"error": {"code": "invalid-argument", "message": "Informe a chave Pix.", "field": "pixKey",
//!   "problems": [{"field": "pixKey", "message": "Informe a chave Pix."},
//!                {"field": "amount", "line": 3, "message": "Valor inválido."}]}}
//! ```
//!
//! `problems[].field` is a request field, `problems[].line` the 1-based line of a batch when the
//! problem is about one, `problems[].message` pt-BR. `problems` is absent when there is only
//! what `field` and `message` say. It is produced generically: from a refusal's
//! `domain::refusal::Refusal::problems`, or from the problems a handler's parsing collected
//! ([`ApiError::invalid_fields`]).
//!
//! An error may also carry `details`, an object with what the client needs to put the request
//! right ([`ApiError::with_details`]); today only `statement-unknown-csv-layout`, with the first
//! rows of the file (`details.amostra`) for the owner to name its columns.
//!
//! | code | status | when |
//! |---|---|---|
//! | `invalid-json` | 400 | the body is not JSON (or not the form the call takes) |
//! | `invalid-text` | 400 | a string of the body holds U+0000, which cannot be stored (`field` says which; `crate::api::json`) |
//! | `invalid-credential` | 401 | sign-in with an unknown e-mail **or** a wrong password (the same answer for both, so the API never tells whether an e-mail has an account); a refused refresh token |
//! | `wrong-password` | 400 | the current password given to confirm a change is wrong (signed-in calls only; not 401, which means a bad token) |
//! | `user-not-found` | — | never sent by sign-in (see `invalid-credential`); kept in the list because the dashboard reads it like `invalid-credential` |
//! | `unauthenticated` | 401 | no bearer token, or a bad, expired or revoked one (with `WWW-Authenticate: Bearer`) |
//! | `user-disabled` | 403 | the account is disabled |
//! | `forbidden` | 403 | signed in, but the role does not allow it |
//! | `not-found` | 404 | no such resource (or one the caller may not know exists), or no such API path |
//! | `method-not-allowed` | 405 | the path exists, the method does not |
//! | `timeout` | 408 | the call took longer than 30 s |
//! | `email-already-in-use` | 409 | another account has that e-mail |
//! | `conflict` | 409 | other writers kept changing the same record; retrying works |
//! | `expired-action-code` | 410 | an e-mailed link's code is unknown, used or expired (as its page answers) |
//! | `plan-limit-reached` | 402 | the account's plan does not allow it (an eleventh key on Grátis, the month's QR codes used up, …): the message names the limit and offers Premium; nothing was made. Every limited action answers this one status (`domain::subscription::limits`, decided by each limited command, the logo through `crate::billing::allow_logo`); of requests racing at the limit exactly one passes. A request whose mistake is the caller's own (an owner inviting herself) gets that answer first, whatever the plan |
//! | `payload-too-large` | 413 | the body is over the limit |
//! | `unsupported-media-type` | 415 | the body is not `application/json` (or the type the call takes) |
//! | `weak-password` | 422 | the new password breaks the password policy (the message lists what is missing) |
//! | `invalid-argument` | 422 | a field is missing, has the wrong type or an invalid value (`field` says which; `problems` lists every one when several are wrong) |
//! | an aggregate's own code (e.g. `invitation-not-pending`) | 422 | a business rule refused the command; the message is the domain's pt-BR text |
//! | `too-many-requests` | 429 | rate limited; `Retry-After` gives the seconds to wait |
//! | `internal` | 500 | a bug or an unexpected failure; the cause goes to the log only |
//! | `unavailable` | 503 | PostgreSQL (or another dependency) is not answering, or no pooled connection was free in time (never 500, whoever built the error); `Retry-After` gives the seconds to wait; the cause goes to the log only |
//!
//! Other modules may add codes with [`ApiError::new`]; they document theirs next to the handler.
//! Nothing internal reaches the client: the cause travels in the response's extensions and is
//! logged once, with the method and route, by [`crate::telemetry::log_failures`].

use std::borrow::Cow;

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use domain::refusal::FieldProblem;
use serde::Serialize;

use super::failure::{Failure, message};

/// An error a JSON API handler returns; see the module documentation for the table of codes.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    code: &'static str,
    message: Cow<'static, str>,
    field: Option<String>,
    problems: Vec<FieldProblem>,
    // Boxed: rarely there, and every handler's `Result` carries the error's size.
    details: Option<Box<serde_json::Value>>,
    // Seconds; a `u32` (136 years) keeps the error within clippy's size for a `Result`'s `Err`.
    retry_after_secs: Option<u32>,
    cause: Option<anyhow::Error>,
}

/// The body of every API error.
#[derive(Debug, Serialize)]
struct Envelope<'a> {
    error: Body<'a>,
}

#[derive(Debug, Serialize)]
struct Body<'a> {
    code: &'a str,
    message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    field: Option<&'a str>,
    #[serde(skip_serializing_if = "<[FieldProblem]>::is_empty")]
    problems: &'a [FieldProblem],
    #[serde(skip_serializing_if = "Option::is_none")]
    details: Option<&'a serde_json::Value>,
}

impl ApiError {
    /// An error with any status, code and pt-BR message (for codes owned by other modules).
    pub fn new(
        status: StatusCode,
        code: &'static str,
        message: impl Into<Cow<'static, str>>,
    ) -> Self {
        ApiError {
            status,
            code,
            message: message.into(),
            field: None,
            problems: Vec::new(),
            details: None,
            retry_after_secs: None,
            cause: None,
        }
    }

    /// What the client needs to put the request right (`error.details`), e.g. the first rows
    /// of a CSV whose columns the owner must name.
    #[must_use]
    pub fn with_details(mut self, details: serde_json::Value) -> Self {
        self.details = Some(Box::new(details));
        self
    }

    /// Names the request field at fault.
    #[must_use]
    pub fn with_field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }

    /// Lists every field problem (`error.problems`); the first names `field` and gives the
    /// message, unless they were set already.
    #[must_use]
    pub fn with_problems(mut self, problems: Vec<FieldProblem>) -> Self {
        if let Some(first) = problems.first() {
            if self.field.is_none() {
                self.field = Some(first.field.to_owned());
            }
            self.message = Cow::Owned(first.message.clone());
        }
        self.problems = problems;
        self
    }

    /// 422 `invalid-argument` with every problem a handler's parsing collected (the first names
    /// `field` and gives the message).
    pub fn invalid_fields(problems: Vec<FieldProblem>) -> Self {
        Self::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid-argument",
            "Confira os dados informados.",
        )
        .with_problems(problems)
    }

    /// 400 `invalid-json`: the body could not be read as the call's format.
    pub fn invalid_json(message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "invalid-json", message)
    }

    /// 401 `invalid-credential`: unknown e-mail or wrong password (never says which), or a
    /// refused refresh token.
    pub fn invalid_credential() -> Self {
        Self::new(
            StatusCode::UNAUTHORIZED,
            "invalid-credential",
            "E-mail ou senha incorretos.",
        )
    }

    /// 401 `invalid-credential` for a refresh token that is missing, unknown, expired or ended.
    pub fn session_expired() -> Self {
        Self::new(
            StatusCode::UNAUTHORIZED,
            "invalid-credential",
            "Sua sessão expirou. Entre novamente.",
        )
    }

    /// 400 `wrong-password`: the current password confirming a change is wrong. Not 401: the
    /// caller's token is fine, and a 401 would make the dashboard refresh its session.
    pub fn wrong_password() -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            "wrong-password",
            "A senha atual está incorreta.",
        )
        .with_field("password")
    }

    /// 401 `unauthenticated`: no valid bearer token.
    pub fn unauthenticated() -> Self {
        Self::new(
            StatusCode::UNAUTHORIZED,
            "unauthenticated",
            "Entre na sua conta para continuar.",
        )
    }

    /// 403 `user-disabled`.
    pub fn user_disabled() -> Self {
        Self::new(
            StatusCode::FORBIDDEN,
            "user-disabled",
            "Esta conta foi desativada. Fale com o suporte do Balcão.",
        )
    }

    /// 403 `forbidden`.
    pub fn forbidden() -> Self {
        Self::new(
            StatusCode::FORBIDDEN,
            "forbidden",
            "Você não tem permissão para fazer isso nesta conta.",
        )
    }

    /// 404 `not-found`.
    pub fn not_found() -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            "not-found",
            "Não encontramos o que você procurou.",
        )
    }

    /// 405 `method-not-allowed`.
    pub fn method_not_allowed() -> Self {
        Self::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "method-not-allowed",
            "Este endereço não aceita esse método.",
        )
    }

    /// 408 `timeout`.
    pub fn timeout() -> Self {
        Self::new(
            StatusCode::REQUEST_TIMEOUT,
            "timeout",
            "O pedido demorou demais para ser concluído. Tente de novo em alguns instantes.",
        )
    }

    /// 409 `conflict`: other changes to the same thing kept arriving at the same time.
    pub fn conflict() -> Self {
        Self::new(StatusCode::CONFLICT, "conflict", message::CONFLICT)
    }

    /// 409 `email-already-in-use`.
    pub fn email_already_in_use() -> Self {
        Self::new(
            StatusCode::CONFLICT,
            "email-already-in-use",
            message::EMAIL_TAKEN,
        )
        .with_field("email")
    }

    /// 410 `expired-action-code`: the link is unknown, already used or expired (the same status
    /// the link's page answers, `crate::error::AppError`).
    pub fn expired_action_code() -> Self {
        Self::new(
            StatusCode::GONE,
            "expired-action-code",
            message::ACTION_CODE_EXPIRED,
        )
    }

    /// 413 `payload-too-large`.
    pub fn payload_too_large() -> Self {
        Self::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload-too-large",
            "O pedido é grande demais.",
        )
    }

    /// 415 `unsupported-media-type`: the body is not JSON.
    pub fn unsupported_media_type() -> Self {
        Self::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported-media-type",
            "Envie os dados como JSON (Content-Type: application/json).",
        )
    }

    /// 422 `weak-password`, with the policy's pt-BR message.
    pub fn weak_password(message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, "weak-password", message)
    }

    /// 422 `invalid-argument` on `field`.
    pub fn invalid_argument(
        field: impl Into<String>,
        message: impl Into<Cow<'static, str>>,
    ) -> Self {
        Self::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid-argument",
            message,
        )
        .with_field(field)
    }

    /// 429 `too-many-requests`; `Retry-After` says when to try again (at least one second).
    pub fn too_many_requests(retry_after_secs: u64) -> Self {
        let mut error = Self::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too-many-requests",
            "Muitas tentativas seguidas. Aguarde um pouco e tente de novo.",
        );
        error.retry_after_secs = Some(u32::try_from(retry_after_secs.max(1)).unwrap_or(u32::MAX));
        error
    }

    /// 500 `internal`; `cause` is logged, never sent. A cause that only says a dependency is
    /// out of reach (`super::is_unavailable`: an exhausted pool, say) is 503
    /// `unavailable` instead.
    pub fn internal(cause: impl Into<anyhow::Error>) -> Self {
        let cause = cause.into();
        if super::is_unavailable(&cause) {
            return Self::unavailable(cause);
        }
        let mut error = Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "Algo deu errado do nosso lado. Nada foi perdido: tente de novo em alguns instantes.",
        );
        error.cause = Some(cause);
        error
    }

    /// 503 `unavailable`; `cause` is logged, never sent.
    pub fn unavailable(cause: impl Into<anyhow::Error>) -> Self {
        let mut error = Self::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "unavailable",
            "Estamos com uma instabilidade passageira. Tente de novo em alguns instantes.",
        );
        error.retry_after_secs =
            Some(u32::try_from(super::UNAVAILABLE_RETRY_AFTER_SECS).unwrap_or(u32::MAX));
        error.cause = Some(cause.into());
        error
    }

    /// The HTTP status.
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// The stable code.
    pub fn code(&self) -> &'static str {
        self.code
    }

    /// The pt-BR message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The field at fault, if any.
    pub fn field(&self) -> Option<&str> {
        self.field.as_deref()
    }

    /// Every field problem, when several were found at once.
    pub fn problems(&self) -> &[FieldProblem] {
        &self.problems
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({}): {}", self.code, self.status, self.message)
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(error: sqlx::Error) -> Self {
        // `internal` answers 503 for what is worth retrying (`super::is_unavailable`).
        ApiError::internal(error)
    }
}

impl From<anyhow::Error> for ApiError {
    fn from(error: anyhow::Error) -> Self {
        ApiError::internal(error)
    }
}

/// A failed command as the API answers it: the status and message of [`Failure`] (the table in
/// [`super`]) with the API's code.
impl From<Failure> for ApiError {
    fn from(failure: Failure) -> Self {
        let status = failure.status();
        match failure {
            Failure::NotFound => ApiError::not_found(),
            Failure::Refused {
                code,
                message,
                field,
                problems,
                ..
            } => {
                let mut error = ApiError::new(status, code, message);
                error.field = field.map(str::to_owned);
                if problems.is_empty() {
                    error
                } else {
                    error.with_problems(problems)
                }
            }
            Failure::EmailTaken => ApiError::email_already_in_use(),
            Failure::ClaimTaken => ApiError::new(status, "already-in-use", message::CLAIM_TAKEN),
            Failure::ActionCodeExpired => ApiError::expired_action_code(),
            Failure::LimitReached => {
                ApiError::new(status, "plan-limit-reached", message::LIMIT_REACHED)
            }
            Failure::IdempotencyKeyReused => ApiError::new(
                status,
                "idempotency-key-reused",
                message::IDEMPOTENCY_KEY_REUSED,
            ),
            Failure::Conflict => ApiError::conflict(),
            Failure::Unavailable(cause) => ApiError::unavailable(cause),
            Failure::Internal(cause) => ApiError::internal(cause),
        }
    }
}

/// A spent rate-limit budget (`crate::rate_limit`): 429 `too-many-requests` with `Retry-After`.
impl From<crate::rate_limit::Throttled> for ApiError {
    fn from(throttled: crate::rate_limit::Throttled) -> Self {
        ApiError::too_many_requests(throttled.retry_after_secs())
    }
}

/// A refused or failed storage call (`crate::storage`): its own status and code (the table on
/// [`crate::storage::StorageError`]).
impl From<crate::storage::StorageError> for ApiError {
    fn from(error: crate::storage::StorageError) -> Self {
        ApiError::new(error.status(), error.code(), error.to_string())
    }
}

/// Billing's refusals and failures (`crate::billing`): a plan's limit is its refusal (402
/// `plan-limit-reached`); a queue that did not move is 503; an unreadable plan 503 or 500.
impl From<crate::billing::BillingError> for ApiError {
    fn from(error: crate::billing::BillingError) -> Self {
        use crate::billing::BillingError;
        match error {
            BillingError::PlanLimit(refused) => ApiError::refused(&refused),
            busy @ BillingError::Busy(_) => ApiError::unavailable(busy),
            BillingError::Unreadable(cause) => ApiError::internal(cause),
        }
    }
}

/// A refused or failed command, for any handler that runs one (through [`Failure`]).
impl<E: domain::refusal::Refusal> From<commands::CommandError<E>> for ApiError {
    fn from(error: commands::CommandError<E>) -> Self {
        ApiError::from(Failure::from(error))
    }
}

impl ApiError {
    /// A refusal as the API answers it (through [`Failure::refused`]).
    pub fn refused<R: domain::refusal::Refusal + ?Sized>(refusal: &R) -> Self {
        ApiError::from(Failure::refused(refusal))
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = Envelope {
            error: Body {
                code: self.code,
                message: &self.message,
                field: self.field.as_deref(),
                problems: &self.problems,
                details: self.details.as_deref(),
            },
        };
        let mut response = (self.status, Json(body)).into_response();
        let headers = response.headers_mut();
        if let Some(seconds) = self.retry_after_secs {
            headers.insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        if self.status == StatusCode::UNAUTHORIZED {
            headers.insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        // Logged once, with the request, by `telemetry::log_failures`.
        if let Some(cause) = &self.cause {
            response
                .extensions_mut()
                .insert(crate::telemetry::FailureCause::of(cause));
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn account_refusals_read_as_the_api_documents_them() {
        use commands::CommandError;
        use domain::account::AccountError;
        let cases = [
            (AccountError::Deleted, 404, "not-found"),
            (AccountError::Disabled, 403, "user-disabled"),
            (
                AccountError::InvitationNotPending,
                410,
                "expired-action-code",
            ),
            (AccountError::CannotInviteSelf, 422, "cannot-invite-self"),
            (AccountError::AlreadyMember, 409, "already-member"),
            (AccountError::RoleNotInvitable, 422, "invalid-argument"),
            (AccountError::OwnAddressInvited, 422, "cannot-invite-self"),
            (AccountError::AlreadyInvited, 409, "member-already-invited"),
            (
                AccountError::InvitationForAnotherEmail,
                403,
                "invitation-for-another-email",
            ),
            (AccountError::TeamDisabled, 403, "account-disabled"),
        ];
        for (rejected, status, code) in cases {
            let error = ApiError::from(CommandError::Rejected(rejected));
            assert_eq!(error.status().as_u16(), status, "{rejected:?}");
            assert_eq!(error.code(), code, "{rejected:?}");
        }
        let role = ApiError::from(CommandError::Rejected(AccountError::RoleNotInvitable));
        assert_eq!(role.field.as_deref(), Some("role"));
        let error = ApiError::from(CommandError::<AccountError>::ActionCodeExpired);
        assert_eq!(error.code(), "expired-action-code");
        let error = ApiError::from(CommandError::<AccountError>::Storage(
            sqlx::Error::PoolTimedOut,
        ));
        assert_eq!(error.status(), StatusCode::SERVICE_UNAVAILABLE);
        let error = ApiError::from(CommandError::<AccountError>::Conflict {
            stream_type: "account".into(),
            stream_id: "a".into(),
            attempts: 4,
        });
        assert_eq!(error.code(), "conflict");
    }

    async fn json(response: Response) -> serde_json::Value {
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
            .await
            .expect("body");
        serde_json::from_slice(&bytes).expect("JSON")
    }

    #[tokio::test]
    async fn an_error_is_the_envelope_with_code_message_and_field() {
        let response =
            ApiError::invalid_argument("email", "Informe um e-mail válido.").into_response();
        assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(response.headers()[header::CONTENT_TYPE], "application/json");
        assert_eq!(
            json(response).await,
            serde_json::json!({"error": {
                "code": "invalid-argument",
                "message": "Informe um e-mail válido.",
                "field": "email"
            }})
        );
    }

    #[tokio::test]
    async fn a_refusal_with_several_field_problems_lists_every_one_after_the_first() {
        use domain::brcode::{StaticCodeForm, preview_form};
        use domain::qrcode::QrCodeError;
        let form = StaticCodeForm {
            key: String::new(),
            key_kind: "email".to_owned(),
            merchant_name: "Padaria".to_owned(),
            merchant_city: "Recife".to_owned(),
            amount: "doze".to_owned(),
            txid: "TX1".to_owned(),
            ..StaticCodeForm::default()
        };
        let errors = preview_form(&form)
            .into_request(false)
            .expect_err("a key and an amount are wrong");
        assert!(errors.len() >= 2, "{errors:?}");
        let error = ApiError::from(commands::CommandError::Rejected(QrCodeError::Invalid(
            errors.clone(),
        )));
        assert_eq!(error.problems().len(), errors.len());
        let body = json(error.into_response()).await;
        let problems = body["error"]["problems"].as_array().expect("a list");
        let fields: Vec<_> = problems.iter().map(|p| p["field"].clone()).collect();
        assert!(fields.contains(&serde_json::json!("pixKey")), "{body}");
        assert!(fields.contains(&serde_json::json!("amount")), "{body}");
        assert_eq!(body["error"]["code"], "invalid-argument");
        assert_eq!(body["error"]["field"], problems[0]["field"]);
        assert_eq!(body["error"]["message"], problems[0]["message"]);
        assert_eq!(problems[0]["message"], errors[0].to_string());
    }

    #[tokio::test]
    async fn an_unexpected_failure_leaks_nothing() {
        let response =
            ApiError::internal(anyhow::anyhow!("connection to 10.0.0.7 refused: secret"))
                .into_response();
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let body = json(response).await.to_string();
        assert!(body.contains("\"code\":\"internal\""));
        assert!(!body.contains("10.0.0.7") && !body.contains("secret"));
        assert!(!body.contains("field"), "no field on a general error");
    }

    #[tokio::test]
    async fn a_rate_limit_says_when_to_come_back_and_a_401_names_the_scheme() {
        let limited = ApiError::too_many_requests(0).into_response();
        assert_eq!(limited.status(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(limited.headers()[header::RETRY_AFTER], "1");
        let unauthenticated = ApiError::unauthenticated().into_response();
        assert_eq!(
            unauthenticated.headers()[header::WWW_AUTHENTICATE],
            "Bearer"
        );
    }

    #[tokio::test]
    async fn an_exhausted_pool_is_a_503_with_retry_after_and_never_a_500() {
        for error in [
            ApiError::from(sqlx::Error::PoolTimedOut),
            ApiError::internal(anyhow::Error::new(sqlx::Error::PoolTimedOut)),
            ApiError::internal(anyhow::Error::new(projections::Error::Database(
                sqlx::Error::PoolTimedOut,
            ))),
        ] {
            let response = error.into_response();
            assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
            assert_eq!(response.headers()[header::RETRY_AFTER], "2");
            let body = json(response).await;
            assert_eq!(body["error"]["code"], "unavailable");
            assert_eq!(
                body["error"]["message"],
                "Estamos com uma instabilidade passageira. Tente de novo em alguns instantes."
            );
        }
    }

    #[test]
    fn sign_in_failures_read_the_same_whatever_the_cause() {
        let unknown = ApiError::invalid_credential();
        assert_eq!(unknown.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(unknown.code(), "invalid-credential");
        assert_eq!(ApiError::user_disabled().status(), StatusCode::FORBIDDEN);
        assert_eq!(
            ApiError::email_already_in_use().status(),
            StatusCode::CONFLICT
        );
        assert_eq!(ApiError::expired_action_code().status(), StatusCode::GONE);
        assert_eq!(
            ApiError::weak_password("x").status(),
            StatusCode::UNPROCESSABLE_ENTITY
        );
    }
}
