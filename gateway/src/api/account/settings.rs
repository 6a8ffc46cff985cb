//! `GET/PATCH /api/account/settings`: the signed-in person's own profile.
//!
//! The answer is the `accounts` read model's row (personal fields opened by the projection).
//! A change is sealed with the account's own key ([`commands::vault`]) before it becomes an
//! `UpdateProfile` command, so the event log never holds the plain values; the answer then waits
//! for the read model to apply it, so it shows what was just saved.
//!
//! `PATCH` replaces the fields it names and keeps the others: `null` (or blank) clears
//! `phoneNumber`, `defaultMerchantName` and `defaultMerchantCity`; `displayName` cannot be
//! cleared. Values are checked and written as stored:
//!
//! | field | rule | error (422 `invalid-argument`, `field` = the name) |
//! |---|---|---|
//! | `displayName` | trimmed, 1 to 80 characters | blank, too long, control characters |
//! | `phoneNumber` | Brazilian, 10 or 11 digits after removing the mask, stored `+55DDNNNNNNNNN` | wrong length, unknown DDD, landline/mobile shape |
//! | `defaultMerchantName`, `defaultMerchantCity` | written as a BR Code writes them (upper case, no accents, ≤ 25 / 15) | the BR Code engine's message |

use axum::extract::State;
use domain::account::{AccountCommand, UpdateProfile};
use projections::accounts::AccountView;
use serde::{Deserialize, Deserializer, Serialize};

use super::profile_input::{merchant_city, merchant_name, phone_number};
use crate::api::access::projection_error;
use crate::api::auth::valid_display_name;
use crate::api::caller::Authenticated;
use crate::api::json::Json;
use crate::api::support::{metadata, now};
use crate::error::ApiError;
use crate::read_your_writes::wait_for;
use crate::state::AppState;

/// The settings as the dashboard reads them.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Settings {
    /// The name shown in the dashboard.
    pub display_name: Option<String>,
    /// `+55DDNNNNNNNNN`.
    pub phone_number: Option<String>,
    /// `/fotos/{accountId}?v={etag}`.
    #[serde(rename = "photoURL")]
    pub photo_url: Option<String>,
    /// Receiver name suggested for new QR codes, as a code writes it.
    pub default_merchant_name: Option<String>,
    /// City suggested for new QR codes, as a code writes it.
    pub default_merchant_city: Option<String>,
    /// The sign-in address.
    pub email: String,
    /// Whether it was confirmed.
    pub email_verified: bool,
}

impl From<AccountView> for Settings {
    fn from(view: AccountView) -> Self {
        Settings {
            display_name: view.display_name,
            phone_number: view.phone_number,
            photo_url: view.photo_url,
            default_merchant_name: view.default_merchant_name,
            default_merchant_city: view.default_merchant_city,
            email: view.email.unwrap_or_default(),
            email_verified: view.email_verified,
        }
    }
}

/// `PATCH` body: each field absent (kept), `null` (cleared, where allowed) or a value.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SettingsChanges {
    /// The new name.
    #[serde(default, deserialize_with = "present")]
    pub display_name: Option<Option<String>>,
    /// The phone, masked or not; `null` or blank clears it.
    #[serde(default, deserialize_with = "present")]
    pub phone_number: Option<Option<String>>,
    /// The default receiver name; `null` or blank clears it.
    #[serde(default, deserialize_with = "present")]
    pub default_merchant_name: Option<Option<String>>,
    /// The default city; `null` or blank clears it.
    #[serde(default, deserialize_with = "present")]
    pub default_merchant_city: Option<Option<String>>,
}

/// Tells a field sent as `null` (`Some(None)`) from one not sent (`None`, by `default`).
fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(deserializer).map(Some)
}

/// The caller's own row of the `accounts` read model.
///
/// # Errors
///
/// 404 `not-found` when it is not there (the account was deleted).
pub(crate) async fn own_account(
    state: &AppState,
    caller: &Authenticated,
) -> Result<AccountView, ApiError> {
    projections::accounts::find(&state.pool, caller.account_uuid()?)
        .await
        .map_err(projection_error)?
        .ok_or_else(ApiError::not_found)
}

/// `GET /api/account/settings`.
///
/// # Errors
///
/// 401 without a valid token; 404 when the account is gone.
pub async fn show(
    State(state): State<AppState>,
    caller: Authenticated,
) -> Result<Json<Settings>, ApiError> {
    Ok(Json(own_account(&state, &caller).await?.into()))
}

/// `PATCH /api/account/settings`.
///
/// # Errors
///
/// 422 `invalid-argument` per the module table; 401 without a valid token; 404 when the account
/// is gone; 403 `user-disabled` when it is disabled.
pub async fn update(
    State(state): State<AppState>,
    caller: Authenticated,
    Json(changes): Json<SettingsChanges>,
) -> Result<Json<Settings>, ApiError> {
    let current = own_account(&state, &caller).await?;
    let name = match changes.display_name {
        None => current.display_name.clone().unwrap_or_default(),
        Some(typed) => valid_display_name(typed.as_deref().unwrap_or_default())?,
    };
    let phone = match changes.phone_number {
        None => current.phone_number.clone(),
        Some(typed) => phone_number(typed.as_deref().unwrap_or_default())?,
    };
    let merchant = match changes.default_merchant_name {
        None => current.default_merchant_name.clone(),
        Some(typed) => merchant_name(typed.as_deref())?,
    };
    let city = match changes.default_merchant_city {
        None => current.default_merchant_city.clone(),
        Some(typed) => merchant_city(typed.as_deref())?,
    };
    let key = commands::vault::load_key(&state.pool, &caller.account_id)
        .await
        .map_err(|e| ApiError::internal(anyhow::Error::new(e)))?
        .ok_or_else(ApiError::not_found)?;
    let command = AccountCommand::UpdateProfile(UpdateProfile {
        display_name: key.seal(&name),
        phone_number: phone.as_deref().map(|p| key.seal(p)),
        default_merchant_name: merchant.as_deref().map(|m| key.seal(m)),
        default_merchant_city: city.as_deref().map(|c| key.seal(c)),
        at: now(),
    });
    let outcome = state
        .accounts
        .execute(&caller.account_id, command, metadata(&caller.account_id))
        .await
        .map_err(ApiError::from)?;
    let caught_up = wait_for(&state, projections::accounts::NAME, outcome.position).await;
    // Saved: a read that fails now answers from what was saved, never a failure.
    let reread = if caught_up {
        own_account(&state, &caller)
            .await
            .inspect_err(|error| tracing::warn!(%error, "could not read the saved settings; answering from the command"))
            .ok()
    } else {
        None
    };
    let caught_up = reread.is_some();
    let mut settings: Settings = reread.unwrap_or(current).into();
    if !caught_up {
        // The read model is late: answer with what was saved rather than the old values.
        settings.display_name = Some(name);
        settings.phone_number = phone;
        settings.default_merchant_name = merchant;
        settings.default_merchant_city = city;
    }
    Ok(Json(settings))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_absent_field_is_kept_and_a_null_one_cleared() {
        let changes: SettingsChanges =
            serde_json::from_str(r#"{"displayName": "Ana", "phoneNumber": null}"#).unwrap();
        assert_eq!(changes.display_name, Some(Some("Ana".to_owned())));
        assert_eq!(changes.phone_number, Some(None));
        assert_eq!(changes.default_merchant_name, None);
        assert_eq!(changes.default_merchant_city, None);
    }

    #[test]
    fn the_photo_url_is_spelled_as_the_dashboard_reads_it() {
        let settings = Settings {
            display_name: Some("Ana".into()),
            phone_number: None,
            photo_url: Some("/fotos/x?v=1".into()),
            default_merchant_name: None,
            default_merchant_city: None,
            email: "ana@exemplo.com".into(),
            email_verified: true,
        };
        let json = serde_json::to_value(&settings).unwrap();
        assert_eq!(json["photoURL"], "/fotos/x?v=1");
        assert_eq!(json["emailVerified"], true);
        assert!(json["phoneNumber"].is_null());
    }
}
