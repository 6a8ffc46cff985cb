//! What a failed command means to the person who asked, decided once for every edge.
//!
//! A page ([`super::AppError`]) and the JSON API ([`super::ApiError`]) draw the same
//! [`Failure`] differently (an HTML page; a `{"error": …}` body with a stable code), but the
//! status, the pt-BR message and whether the cause is logged come from here, so the two cannot
//! drift (an expired link was once 410 on its page and 400 in the API; a plan's limit reached
//! outside the QR-code workflows was a 402 in the API and a 500 page).

use axum::http::StatusCode;
use domain::refusal::{FieldProblem, Refusal, RefusalKind};

/// A failed command, as the edges answer it. See [`super`] for the table.
#[derive(Debug)]
pub enum Failure {
    /// The thing is not there, or the caller may not know it is: 404, nothing said about what.
    NotFound,
    /// The aggregate (or a workflow) said no: its kind's status, code, message and fields.
    Refused {
        /// The refusal kind's status (`domain::refusal::RefusalKind::http_status`).
        status: StatusCode,
        /// The refusal's stable code.
        code: &'static str,
        /// The refusal's pt-BR message.
        message: String,
        /// The request field at fault, if one.
        field: Option<&'static str>,
        /// Every field problem, when there are several.
        problems: Vec<FieldProblem>,
    },
    /// Another account holds the e-mail address: 409.
    EmailTaken,
    /// Another record holds a unique value the command claims: 409.
    ClaimTaken,
    /// An e-mailed link's code is unknown, used or expired: 410.
    ActionCodeExpired,
    /// A count of QR codes past the plan's limit outside the QR-code workflows (which answer the
    /// refusal naming the plan): 402.
    LimitReached,
    /// An `Idempotency-Key` sent again with other values or first used on another record: 409.
    IdempotencyKeyReused,
    /// Other writers won every retry, or the plan changed under every retry: 409; retrying works.
    Conflict,
    /// A dependency is out of reach or overloaded: 503 with `Retry-After`; the cause is logged.
    Unavailable(anyhow::Error),
    /// A bug or an unexpected failure: 500; the cause is logged.
    Internal(anyhow::Error),
}

impl Failure {
    /// A refusal of any aggregate (`domain::refusal`).
    pub fn refused<R: Refusal + ?Sized>(refusal: &R) -> Failure {
        if refusal.kind() == RefusalKind::NotFound {
            return Failure::NotFound;
        }
        Failure::Refused {
            status: StatusCode::from_u16(refusal.kind().http_status())
                .unwrap_or(StatusCode::UNPROCESSABLE_ENTITY),
            code: refusal.code(),
            message: refusal.to_string(),
            field: refusal.field(),
            problems: refusal.problems(),
        }
    }

    /// The status every edge answers.
    pub fn status(&self) -> StatusCode {
        match self {
            Failure::NotFound => StatusCode::NOT_FOUND,
            Failure::Refused { status, .. } => *status,
            Failure::EmailTaken
            | Failure::ClaimTaken
            | Failure::IdempotencyKeyReused
            | Failure::Conflict => StatusCode::CONFLICT,
            Failure::ActionCodeExpired => StatusCode::GONE,
            Failure::LimitReached => StatusCode::PAYMENT_REQUIRED,
            Failure::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            Failure::Internal(cause) if super::is_unavailable(cause) => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            Failure::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

/// Messages shared by the edges (the API's table in [`super::api`] names their codes).
pub mod message {
    /// A link's code unknown, used or expired.
    pub const ACTION_CODE_EXPIRED: &str = "Este link expirou ou já foi usado. Peça um novo.";
    /// Other writers kept changing the same record.
    pub const CONFLICT: &str =
        "Outra alteração chegou ao mesmo tempo. Nada foi perdido: tente de novo.";
    /// The e-mail address belongs to another account.
    pub const EMAIL_TAKEN: &str = "Já existe uma conta com este e-mail.";
    /// Another record holds the value.
    pub const CLAIM_TAKEN: &str = "Este valor já está em uso.";
    /// The month's QR codes are used up (outside the workflows that name the plan).
    pub const LIMIT_REACHED: &str = "O limite de QR codes do seu plano neste mês foi atingido.";
    /// An idempotency key sent again with other values.
    pub const IDEMPOTENCY_KEY_REUSED: &str =
        "Esta chave de idempotência já foi usada com outros dados.";
}

/// The one mapping of a refused or failed command (see [`super`]'s table).
impl<E: Refusal> From<commands::CommandError<E>> for Failure {
    fn from(error: commands::CommandError<E>) -> Self {
        use commands::CommandError;
        match error {
            CommandError::Rejected(refusal) => Failure::refused(&refusal),
            CommandError::ClaimTaken { scope } if scope == commands::claims::EMAIL_SCOPE => {
                Failure::EmailTaken
            }
            CommandError::ClaimTaken { .. } => Failure::ClaimTaken,
            CommandError::ActionCodeExpired => Failure::ActionCodeExpired,
            CommandError::LimitReached { .. } => Failure::LimitReached,
            // Keys are scoped to the call, the account and the caller (`crate::api::idempotency`):
            // one first used on another record was sent with other values (another end-to-end
            // id), the same mistake as other values on the same record.
            CommandError::IdempotencyKeyConflict { .. }
            | CommandError::IdempotencyKeyReused { .. } => Failure::IdempotencyKeyReused,
            CommandError::Conflict { .. } | CommandError::PlanChanged => Failure::Conflict,
            other if other.is_transient() => Failure::Unavailable(anyhow::anyhow!("{other}")),
            other => Failure::Internal(anyhow::anyhow!("{other}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use axum::response::IntoResponse;
    use commands::CommandError;
    use domain::account::AccountError;

    use super::super::{ApiError, AppError};

    fn every_failure() -> Vec<CommandError<AccountError>> {
        vec![
            CommandError::Rejected(AccountError::Deleted),
            CommandError::Rejected(AccountError::Disabled),
            CommandError::Rejected(AccountError::InvitationNotPending),
            CommandError::Rejected(AccountError::RoleNotInvitable),
            CommandError::Rejected(AccountError::AlreadyMember),
            CommandError::ClaimTaken {
                scope: commands::claims::EMAIL_SCOPE.to_owned(),
            },
            CommandError::ClaimTaken {
                scope: "txid:conta".to_owned(),
            },
            CommandError::ActionCodeExpired,
            CommandError::LimitReached { had: 30 },
            CommandError::IdempotencyKeyConflict { key: "k".into() },
            CommandError::IdempotencyKeyReused {
                key: "k".into(),
                stream_type: "payment".into(),
                stream_id: "p".into(),
            },
            CommandError::PlanChanged,
            CommandError::Conflict {
                stream_type: "account".into(),
                stream_id: "a".into(),
                attempts: 4,
            },
            CommandError::Storage(sqlx::Error::PoolTimedOut),
            CommandError::Storage(sqlx::Error::RowNotFound),
        ]
    }

    #[test]
    fn a_page_and_the_api_answer_every_failed_command_with_the_same_status() {
        for (page, api) in every_failure().into_iter().zip(every_failure()) {
            let shown = format!("{page:?}");
            let page = AppError::from(page).into_response().status();
            let api = ApiError::from(api).into_response().status();
            assert_eq!(page, api, "{shown}");
        }
    }

    #[test]
    fn a_plan_limit_reached_outside_the_qr_code_workflows_is_a_402_page_not_a_500() {
        let page = AppError::from(CommandError::<AccountError>::LimitReached { had: 30 });
        assert_eq!(page.status().as_u16(), 402);
    }

    #[test]
    fn a_refusal_keeps_the_domains_own_code_and_message_in_the_api() {
        let api = ApiError::from(CommandError::Rejected(AccountError::Disabled));
        assert_eq!(api.status().as_u16(), 403);
        assert_eq!(api.code(), "user-disabled");
        assert_eq!(api.message(), AccountError::Disabled.to_string());
    }
}
