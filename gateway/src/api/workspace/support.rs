//! What the workspace handlers share: command failures as API errors, the command metadata and
//! the clock.

use axum::http::StatusCode;
use commands::{CommandError, CommandMetadata};
use domain::account::AccountError;

use crate::api::error::ApiError;

/// The `at` of every command (the domain reads no clock): the one clock the auth API uses too,
/// so every event's time has the same form.
pub(crate) use crate::auth::accounts::now;

/// Metadata of a command asked for by `caller` (an account id).
pub(crate) fn metadata(caller: &str) -> CommandMetadata {
    CommandMetadata::start().by(caller.to_owned())
}

/// An Account command's failure as the workspace API answers it: the team's refusals get the
/// codes the dashboard knows, everything else reads as everywhere in the API
/// (`From<CommandError<AccountError>> for ApiError`).
///
/// | failure | answer |
/// |---|---|
/// | an invitation that does not exist | 404 `not-found` |
/// | an invitation already accepted or cancelled | 400 `expired-action-code` (the link is dead) |
/// | accepting while already in the team | 409 `already-member` |
/// | inviting as owner | 422 `invalid-argument` on `role` |
/// | accepting one's own invitation | 422 `cannot-invite-self` (the aggregate's code) |
/// | the account deleted or never opened | 404 `not-found` |
/// | the account disabled | 403 `user-disabled` |
/// | a used, expired or foreign action code | 400 `expired-action-code` |
/// | other writers won every retry | 409 `conflict` |
pub(crate) fn account_failure(error: CommandError<AccountError>) -> ApiError {
    match error {
        CommandError::Rejected(AccountError::InvitationNotFound) => ApiError::not_found(),
        CommandError::Rejected(AccountError::InvitationNotPending) => {
            ApiError::expired_action_code()
        }
        CommandError::Rejected(refusal @ AccountError::AlreadyMember) => {
            ApiError::new(StatusCode::CONFLICT, "already-member", refusal.to_string())
        }
        CommandError::Rejected(refusal @ AccountError::RoleNotInvitable) => {
            ApiError::invalid_argument("role", refusal.to_string())
        }
        other => ApiError::from(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn account_refusals_read_as_the_api_documents_them() {
        let cases = [
            (AccountError::Deleted, 404, "not-found"),
            (AccountError::Disabled, 403, "user-disabled"),
            (
                AccountError::InvitationNotPending,
                400,
                "expired-action-code",
            ),
            (AccountError::CannotInviteSelf, 422, "cannot-invite-self"),
            (AccountError::AlreadyMember, 409, "already-member"),
            (AccountError::RoleNotInvitable, 422, "invalid-argument"),
        ];
        for (rejected, status, code) in cases {
            let error = account_failure(CommandError::Rejected(rejected));
            assert_eq!(error.status().as_u16(), status, "{rejected:?}");
            assert_eq!(error.code(), code, "{rejected:?}");
        }
        let error = account_failure(CommandError::ActionCodeExpired);
        assert_eq!(error.code(), "expired-action-code");
        let error = account_failure(CommandError::Storage(sqlx::Error::PoolTimedOut));
        assert_eq!(error.status(), StatusCode::SERVICE_UNAVAILABLE);
        let error = account_failure(CommandError::Conflict {
            stream_type: "account".into(),
            stream_id: "a".into(),
            attempts: 4,
        });
        assert_eq!(error.code(), "conflict");
    }
}
