//! `/api/auth/*`: sign-up, sign-in, tokens, sign-out, the current user, sessions, and the
//! e-mailed links (verification, recovery, new e-mail).
//!
//! | call | answer |
//! |---|---|
//! | `GET /api/auth/password-policy` | `{minLength, requireLowercase, requireUppercase, requireNumeric, requireNonAlphanumeric}` |
//! | `POST /api/auth/signup {email, password, displayName}` | `{accessToken, expiresIn, user}` + refresh cookie; `email-already-in-use`, `weak-password`, `invalid-argument`, `too-many-requests` (per client address and per e-mail) |
//! | `POST /api/auth/login {email, password}` | same shape; `invalid-credential` (unknown e-mail and wrong password alike), `user-disabled`, `too-many-requests` |
//! | `POST /api/auth/token` (form `grant_type=refresh_token`, cookie) | `{accessToken, expiresIn}` + the next refresh cookie (the same one again for a retry within the reuse interval); 401 `invalid-credential`, 403 `user-disabled` |
//! | `POST /api/auth/revoke {allDevices}` (bearer or cookie) | 204, cookie cleared; 401 `unauthenticated` when neither identifies a session |
//! | `GET /api/auth/me` (bearer) | the user; 401, 403 `user-disabled` |
//! | `POST /api/auth/recover {email}` | 204 always (the e-mail goes only to an existing account); `too-many-requests` |
//! | `POST /api/auth/reset {oobCode, newPassword}` | 204, every session ended; `expired-action-code`, `weak-password` |
//! | `POST /api/auth/reset/check {oobCode}` | 204 while the link works (the code is not spent); `expired-action-code` |
//! | `POST /api/auth/verify-email {oobCode}` | 204; `expired-action-code`; `email-already-in-use` (a new address taken meanwhile) |
//! | `POST /api/auth/send-verification` (bearer) | 204; `too-many-requests` (per client address and per account) |
//! | `GET /api/auth/sessions` (bearer) | `{sessions: [{id, createdAt, lastUsedAt, userAgent, current}]}` |
//! | `DELETE /api/auth/sessions/{id}` (bearer) | 204; 404 `not-found` |
//!
//! `signup`, `login`, `token` and `revoke` (the calls that set or read the refresh cookie) refuse
//! cross-site requests with 403 `cross-site-request` ([`crate::api::same_origin`]).

pub(crate) mod links;
pub(crate) mod me;
pub(crate) mod sign_in;
pub(crate) mod tokens;

use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Utc};
use projections::accounts::AccountView;
use serde::Serialize;

pub use links::{
    CHANGE_EMAIL_TTL, RESET_PASSWORD_TTL, VERIFY_EMAIL_TTL, mail_verification_link,
    request_email_change, send_verification_email,
};

use crate::api::json::Json;
use crate::auth::cookie::session_cookies;
use crate::auth::now_secs;
use crate::auth::session::NewSession;
use crate::auth::token::ACCESS_TOKEN_TTL;
use crate::error::ApiError;
use crate::state::AppState;

/// One sign-in method of the account (always the password, today).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ProviderInfo {
    /// `password`.
    pub provider_id: &'static str,
    /// The e-mail (the provider's id for the user).
    pub uid: String,
    /// The e-mail.
    pub email: String,
    /// The display name.
    pub display_name: Option<String>,
}

/// The signed-in account as `/api/auth/me`, sign-in and sign-up show it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct UserView {
    /// The account id.
    pub uid: String,
    /// The sign-in e-mail.
    pub email: String,
    /// Whether the e-mail was verified.
    pub email_verified: bool,
    /// The name shown in the dashboard.
    pub display_name: Option<String>,
    /// The profile photo's URL.
    #[serde(rename = "photoURL")]
    pub photo_url: Option<String>,
    /// The phone, `+55DDNNNNNNNNN`.
    pub phone_number: Option<String>,
    /// Always `false`: there are no anonymous accounts.
    pub is_anonymous: bool,
    /// Sign-in methods.
    pub provider_data: Vec<ProviderInfo>,
    /// When the account was opened (HTTP date, e.g. `Mon, 02 Nov 2026 12:00:00 GMT`).
    pub creation_time: String,
    /// When the account last signed in (the newest session's start), same format.
    pub last_sign_in_time: String,
}

/// An HTTP date (`Mon, 02 Nov 2026 12:00:00 GMT`), the format the dashboard's user type uses.
pub fn http_date(at: DateTime<Utc>) -> String {
    at.format("%a, %d %b %Y %H:%M:%S GMT").to_string()
}

impl UserView {
    /// The view of a read-model row, signed in last at `last_sign_in`.
    pub fn from_row(row: &AccountView, last_sign_in: Option<DateTime<Utc>>) -> Self {
        let email = row.email.clone().unwrap_or_default();
        UserView::new(
            row.account_id.to_string(),
            email,
            row.email_verified,
            row.display_name.clone(),
            row.created_at,
            last_sign_in.unwrap_or(row.updated_at),
        )
        .with_profile(row.photo_url.clone(), row.phone_number.clone())
    }

    /// A view built from known values (when the read model has not caught up yet).
    pub fn new(
        uid: String,
        email: String,
        email_verified: bool,
        display_name: Option<String>,
        created_at: DateTime<Utc>,
        last_sign_in: DateTime<Utc>,
    ) -> Self {
        UserView {
            provider_data: vec![ProviderInfo {
                provider_id: "password",
                uid: email.clone(),
                email: email.clone(),
                display_name: display_name.clone(),
            }],
            uid,
            email,
            email_verified,
            display_name,
            photo_url: None,
            phone_number: None,
            is_anonymous: false,
            creation_time: http_date(created_at),
            last_sign_in_time: http_date(last_sign_in),
        }
    }

    fn with_profile(mut self, photo_url: Option<String>, phone_number: Option<String>) -> Self {
        self.photo_url = photo_url;
        self.phone_number = phone_number;
        self
    }
}

/// `{accessToken, expiresIn}`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct TokenAnswer {
    access_token: String,
    expires_in: u64,
}

/// `{accessToken, expiresIn, user}`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct SignInAnswer {
    access_token: String,
    expires_in: u64,
    user: UserView,
}

fn access_token(state: &AppState, account_id: &str, session: &NewSession) -> String {
    state
        .auth
        .tokens
        .issue(account_id, session.session_id, now_secs())
}

/// The answer to a successful sign-up or sign-in: tokens, the user and the refresh cookie.
fn signed_in(state: &AppState, account_id: &str, session: &NewSession, user: UserView) -> Response {
    let answer = SignInAnswer {
        access_token: access_token(state, account_id, session),
        expires_in: ACCESS_TOKEN_TTL.as_secs(),
        user,
    };
    (
        session_cookies(&session.refresh_token, state.auth.cookie_secure),
        Json(answer),
    )
        .into_response()
}

/// The first 200 characters of the `User-Agent`, for the session list.
fn user_agent(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::USER_AGENT)
        .and_then(|v: &HeaderValue| v.to_str().ok())
        .filter(|v| !v.trim().is_empty())
}

/// The account's read-model row, if it has one.
async fn account_row(state: &AppState, account_id: &str) -> Result<Option<AccountView>, ApiError> {
    let Ok(id) = uuid::Uuid::parse_str(account_id) else {
        return Ok(None);
    };
    projections::accounts::find(&state.pool, id)
        .await
        .map_err(|e| ApiError::internal(anyhow::Error::new(e)))
}

/// The longest e-mail address accepted (RFC 5321's path limit).
const MAX_EMAIL_CHARS: usize = 254;

/// `raw` trimmed and lower-cased if it looks like an address mail can be sent to.
///
/// # Errors
///
/// 422 `invalid-argument` on `field` otherwise.
pub fn valid_email(raw: &str, field: &str) -> Result<String, ApiError> {
    let email = commands::claims::normalise_email(raw);
    let invalid =
        || ApiError::invalid_argument(field, "Informe um e-mail válido, como nome@exemplo.com.br.");
    if email.is_empty() {
        return Err(ApiError::invalid_argument(field, "Informe o e-mail."));
    }
    if email.chars().count() > MAX_EMAIL_CHARS {
        return Err(invalid());
    }
    let Some((local, domain)) = email.split_once('@') else {
        return Err(invalid());
    };
    let domain_ok = domain.contains('.')
        && domain.split('.').all(|label| {
            !label.is_empty()
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label.chars().all(|c| c.is_alphanumeric() || c == '-')
        });
    let local_ok = !local.is_empty()
        && local.len() <= 64
        && !local.starts_with('.')
        && !local.ends_with('.')
        && !local.contains("..")
        && local
            .chars()
            .all(|c| c.is_alphanumeric() || "!#$%&'*+-/=?^_`{|}~.".contains(c));
    if !domain_ok || !local_ok || email.parse::<lettre::Address>().is_err() {
        return Err(invalid());
    }
    Ok(email)
}

/// The longest display name accepted, in characters.
const MAX_DISPLAY_NAME_CHARS: usize = 80;

/// `raw` trimmed, if it is a usable name.
///
/// # Errors
///
/// 422 `invalid-argument` on `displayName`.
pub fn valid_display_name(raw: &str) -> Result<String, ApiError> {
    let name = raw.trim();
    if name.is_empty() {
        return Err(ApiError::invalid_argument(
            "displayName",
            "Informe seu nome.",
        ));
    }
    if name.chars().count() > MAX_DISPLAY_NAME_CHARS {
        return Err(ApiError::invalid_argument(
            "displayName",
            format!("O nome pode ter no máximo {MAX_DISPLAY_NAME_CHARS} caracteres."),
        ));
    }
    if name.chars().any(char::is_control) {
        return Err(ApiError::invalid_argument(
            "displayName",
            "O nome não pode ter quebras de linha nem caracteres de controle.",
        ));
    }
    Ok(name.to_owned())
}

/// Checks `password` against the configured policy.
///
/// # Errors
///
/// 422 `weak-password` (on `field`) with a message listing everything missing.
pub fn check_password(state: &AppState, password: &str, field: &str) -> Result<(), ApiError> {
    state.auth.policy.check(password).map_err(|broken| {
        ApiError::weak_password(domain::account::password_policy::explain(&broken))
            .with_field(field)
    })
}

/// A link to `path` on the public site with the code in `param`.
fn link(state: &AppState, path: &str, param: &str, code: &str) -> String {
    let mut url = format!("{}{path}?{param}=", state.site.url);
    url.extend(percent_encoding::utf8_percent_encode(
        code,
        percent_encoding::NON_ALPHANUMERIC,
    ));
    url
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_normalised_and_odd_ones_refused() {
        assert_eq!(
            valid_email("  Ana.Souza@Exemplo.COM.br ", "email").unwrap(),
            "ana.souza@exemplo.com.br"
        );
        assert_eq!(
            valid_email("joão@empresa.com", "email").unwrap(),
            "joão@empresa.com"
        );
        for bad in [
            "",
            "ana",
            "ana@",
            "@x.com",
            "ana@x",
            "a b@x.com",
            "ana@@x.com",
            "ana@x..com",
            ".ana@x.com",
            "ana@-x.com",
        ] {
            let error = valid_email(bad, "email").expect_err(bad);
            assert_eq!(error.code(), "invalid-argument", "{bad:?}");
            assert_eq!(error.field(), Some("email"));
        }
    }

    #[test]
    fn names_are_trimmed_bounded_and_single_line() {
        assert_eq!(valid_display_name("  Ana  ").unwrap(), "Ana");
        assert!(valid_display_name("   ").is_err());
        assert!(valid_display_name(&"a".repeat(81)).is_err());
        assert!(valid_display_name("Ana\nSouza").is_err());
    }

    #[test]
    fn dates_are_http_dates_in_gmt() {
        let at = DateTime::parse_from_rfc3339("2026-11-02T12:00:00Z")
            .unwrap()
            .with_timezone(&Utc);
        assert_eq!(http_date(at), "Mon, 02 Nov 2026 12:00:00 GMT");
    }
}
