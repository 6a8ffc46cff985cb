//! Who may do what in an account: the one place the workspace API decides access.
//!
//! Every `/api/accounts/{accountId}/…` handler takes a [`Workspace`] (an extractor) and calls
//! [`Workspace::require`] with the [`Right`] it needs, before doing anything else:
//!
//! 1. no valid bearer token → 401 `unauthenticated` (the [`Authenticated`] extractor's answer);
//! 2. `{accountId}` is not the caller's own account and not one they are an **active** member
//!    of (a pending or removed invitation gives nothing), or no such account exists, or it was
//!    deleted → 404 `not-found`. The same answer for all of these, so the API never reveals
//!    whether someone else's account exists;
//! 3. the account is disabled → 403 `account-disabled` for everyone in its team, its owner
//!    included: a disabled account keeps its data but nothing may be done in it (the Account
//!    aggregate refuses every command but enabling and deleting). Only people who already hold a
//!    role there learn it is disabled;
//! 4. the caller's role lacks the right → 403 `forbidden`, with a pt-BR message naming what the
//!    role cannot do ([`Role::can`] is the table; see `domain::team`).
//!
//! Under `/api/v1` the caller is a developer API key instead ([`crate::api::v1`], whose layer
//! found it): a key is admitted to its own account only (any other is 404, as for a stranger),
//! and [`Workspace::require`] asks for the scope a right maps to
//! ([`domain::api_key::Scope::for_right`]) instead of a role; what it does is recorded as done by
//! `api-key:{keyId}` ([`Workspace::caller_id`]).
//!
//! The role is read from the `accounts` read model (the rule of
//! [`projections::accounts::role_in`], read with the session in one statement): the owner of an
//! open account, or an active member. When the read model has no role for the caller, the
//! account's own stream decides by the same rule (`access_from_log`), so an account opened or
//! joined a moment ago is never a 404 while its projection lags. Removing a member, deleting an
//! account and disabling one take effect on the next request once the projection has applied
//! them (the handlers that make those changes wait for it).

use axum::extract::{FromRequestParts, RawPathParams};
use axum::http::StatusCode;
use axum::http::request::Parts;
use domain::api_key::Scope;
use domain::team::{Right, Role};
use uuid::Uuid;

use crate::api::caller::Authenticated;
use crate::api::v1::KeyCaller;
use crate::error::ApiError;
use crate::state::AppState;
use projections::accounts::Access;

/// The path segment naming the account (`/api/accounts/{accountId}/…`).
pub const ACCOUNT_ID_SEGMENT: &str = "accountId";

/// The caller, the account they are acting in, and what they may do there.
#[derive(Debug, Clone)]
pub struct Workspace {
    account_id: String,
    account: Uuid,
    caller_id: String,
    acting: Acting,
}

/// Who acts in a workspace: a signed-in person with their role, or a developer API key with its
/// scopes (`/api/v1`, [`crate::api::v1`]).
#[derive(Debug, Clone)]
enum Acting {
    Person(Role),
    Key(Vec<Scope>),
}

impl Workspace {
    /// The workspace, when `access` (the caller's, to `account`) admits the caller.
    fn admit(
        account: Uuid,
        caller: Authenticated,
        access: Option<Access>,
    ) -> Result<Workspace, ApiError> {
        let access = access.ok_or_else(ApiError::not_found)?;
        if access.disabled {
            return Err(account_disabled());
        }
        Ok(Workspace {
            account_id: account.hyphenated().to_string(),
            account,
            caller_id: caller.account_id,
            acting: Acting::Person(access.role),
        })
    }

    /// The workspace of `account` for the API key `key`: 404 when the key is another account's
    /// (the same answer as for a person who is no member of it).
    fn for_key(account: Uuid, key: &KeyCaller) -> Result<Workspace, ApiError> {
        if key.account_id != account {
            return Err(ApiError::not_found());
        }
        Ok(Workspace {
            account_id: account.hyphenated().to_string(),
            account,
            caller_id: key.actor(),
            acting: Acting::Key(key.scopes.clone()),
        })
    }

    /// The account acted in (canonical UUID text).
    pub fn account_id(&self) -> &str {
        &self.account_id
    }

    /// The account acted in, as the read models key it.
    pub fn account_uuid(&self) -> Uuid {
        self.account
    }

    /// Who acts, as what they make and the events' metadata record it: the signed-in person's
    /// account id, or `api-key:{keyId}` for a developer API key (a key acts for the account,
    /// never for a person, and its events name it).
    pub fn caller_id(&self) -> &str {
        &self.caller_id
    }

    /// Whether the caller may do what `right` allows: their role's rights, or, for an API key,
    /// the scope the right maps to ([`Scope::for_right`]).
    pub fn can(&self, right: Right) -> bool {
        match &self.acting {
            Acting::Person(role) => role.can(right),
            Acting::Key(scopes) => Scope::for_right(right).is_some_and(|s| s.granted_by(scopes)),
        }
    }

    /// Goes on only when the caller may do what `right` allows.
    ///
    /// # Errors
    ///
    /// 403 `forbidden`, saying in pt-BR what the role (or the key) cannot do.
    pub fn require(&self, right: Right) -> Result<(), ApiError> {
        if self.can(right) {
            return Ok(());
        }
        Err(match &self.acting {
            Acting::Person(role) => forbidden(*role, right),
            Acting::Key(_) => key_forbidden(right),
        })
    }
}

impl FromRequestParts<AppState> for Workspace {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let account_id = RawPathParams::from_request_parts(parts, state)
            .await
            .ok()
            .and_then(|params| {
                params
                    .iter()
                    .find(|(name, _)| *name == ACCOUNT_ID_SEGMENT)
                    .map(|(_, value)| value.to_owned())
            });
        // Account ids are UUIDs; a path naming anything else is 404, once the caller is known
        // (authentication first: without a valid token the answer is 401 whatever the path).
        let account = account_id.and_then(|id| Uuid::parse_str(&id).ok());
        // `/api/v1`: the key was checked by its layer ([`crate::api::v1::authenticate`]).
        if let Some(key) = parts.extensions.get::<KeyCaller>() {
            return Workspace::for_key(account.ok_or_else(ApiError::not_found)?, key);
        }
        let Some(account) = account else {
            Authenticated::from_request_parts(parts, state).await?;
            return Err(ApiError::not_found());
        };
        let (caller, mut access) =
            crate::api::caller::authenticate_in(parts, state, account).await?;
        if access.is_none() {
            access = access_from_log(state, account, &caller.account_id).await?;
        }
        Workspace::admit(account, caller, access)
    }
}

/// `caller`'s access to `account` as the account's own stream says it, for a request the
/// `accounts` read model has no role for: the log is the authority and the read model only lags
/// it, so a just-opened account's first request, or a just-joined member's, is not a 404 while
/// the projector is stopped or behind. Strangers get `None` here too, from the log.
async fn access_from_log(
    state: &AppState,
    account: Uuid,
    caller: &str,
) -> Result<Option<Access>, ApiError> {
    let loaded = state
        .accounts
        .load(&account.hyphenated().to_string())
        .await
        .map_err(ApiError::from)?;
    let aggregate = loaded.aggregate;
    if !aggregate.is_open() {
        return Ok(None);
    }
    let role = if aggregate.account_id() == Some(caller) {
        Some(Role::Owner)
    } else {
        aggregate.active_member(caller).map(|member| member.role)
    };
    Ok(role.map(|role| Access {
        role,
        disabled: aggregate.is_disabled(),
    }))
}

/// 403 `account-disabled`: the account exists, the caller belongs to it, and it is disabled.
pub fn account_disabled() -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        "account-disabled",
        "Esta conta está desativada: nada pode ser feito nela até que seja reativada.",
    )
}

/// 403 `forbidden` for `role` lacking `right`.
pub fn forbidden(role: Role, right: Right) -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        "forbidden",
        format!(
            "Como {}, você não pode {} nesta conta.",
            role.label().to_lowercase(),
            what(right)
        ),
    )
}

/// 403 `forbidden` for an API key lacking `right`: the scope it needs, or that no key may.
pub fn key_forbidden(right: Right) -> ApiError {
    let message = match Scope::for_right(right) {
        Some(scope) => format!(
            "Esta chave de API não tem a permissão {} ({}).",
            scope.as_str(),
            scope.label()
        ),
        None => format!("Chaves de API não podem {} nesta conta.", what(right)),
    };
    ApiError::new(StatusCode::FORBIDDEN, "forbidden", message)
}

/// What a right allows, as the end of "você não pode …".
fn what(right: Right) -> &'static str {
    match right {
        Right::ManageKeys => "cadastrar, alterar nem remover chaves Pix",
        Right::CreateQrCodes => "criar QR codes",
        Right::ViewAllQrCodes => "ver os QR codes criados por outras pessoas",
        Right::ViewOwnQrCodes => "ver QR codes",
        Right::ViewAllTransactions => "ver as transações de outras pessoas",
        Right::ViewOwnTransactions => "ver transações",
        Right::ManageMembers => "convidar nem remover pessoas da equipe",
        Right::ManageSettings => "mudar as configurações",
        Right::ManagePaymentLinks => "criar nem cancelar links de pagamento",
        Right::ManageApiKeys => "criar nem revogar chaves de API",
        Right::ManageWebhooks => "cadastrar nem remover endereços de webhook",
    }
}

/// A read-model query failure: 503 when PostgreSQL is unreachable, 500 otherwise.
pub(crate) fn projection_error(error: projections::Error) -> ApiError {
    match error {
        projections::Error::Database(error) => ApiError::from(error),
        other => ApiError::internal(anyhow::Error::new(other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_names_the_role_and_what_it_cannot_do() {
        let error = forbidden(Role::Manager, Right::ManageMembers);
        assert_eq!(error.status(), StatusCode::FORBIDDEN);
        assert_eq!(error.code(), "forbidden");
        assert_eq!(
            error.message(),
            "Como gerente, você não pode convidar nem remover pessoas da equipe nesta conta."
        );
        let error = forbidden(Role::Operator, Right::ViewAllQrCodes);
        assert_eq!(
            error.message(),
            "Como operador, você não pode ver os QR codes criados por outras pessoas nesta conta."
        );
    }

    #[test]
    fn every_right_has_words() {
        for right in Right::ALL {
            assert!(!what(right).is_empty());
        }
    }
}
