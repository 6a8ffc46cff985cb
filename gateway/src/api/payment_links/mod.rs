//! An account's payment links (`/pagar`): create, list, revoke.
//!
//! | route | who | answer |
//! |---|---|---|
//! | `GET /api/accounts/{accountId}/payment-links` | owner, manager ([`Right::ManagePaymentLinks`]) | 200 `{paymentLinks: [...]}`, newest first, at most [`MAX_LISTED`] |
//! | `POST /api/accounts/{accountId}/payment-links` | owner, manager | 201 the link (with its signed `url`); 422 `invalid-argument` naming `keyId`, `pixKey`, `merchantName`, `merchantCity`, `amount`, `description` or `expiresOn` |
//! | `POST /api/accounts/{accountId}/payment-links/{id}/revoke` | owner, manager | 200 the link, revoked; 409 `payment-link-already-revoked` |
//!
//! An operator gets 403 `forbidden`; anyone outside the account, and a link of another account,
//! 404 `not-found` ([`crate::api::access`]).
//!
//! The key is a registered key of the account (`keyId`; a blank `merchantName` then takes its
//! holder name) or a typed one (`pixKey`). Another account's key, or a removed one, is refused
//! with 422 under `keyId`, as the QR code forms do.
//!
//! `expiresOn` is a date (`AAAA-MM-DD`): the link takes payments through the end of that day in
//! Brasília time (UTC−3), that is until 00:00 of the next day there.

pub mod token;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, FixedOffset, NaiveDate, SecondsFormat, TimeZone, Utc};
use commands::{CommandError, CommandService, ExpectedVersion, PgEventStore};
use domain::brcode::{BrCodeError, Field, StaticCodeForm, preview_form};
use domain::payment_link::{
    CreatePaymentLink, LinkStatus, PaymentLink, PaymentLinkCommand, PaymentLinkError,
    RevokePaymentLink,
};
use domain::team::Right;
use projections::payment_links::{self, PaymentLinkView};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::api::access::{Workspace, projection_error};
use crate::api::json::Json;
use crate::api::qrcodes::input::registered_key;
use crate::auth::accounts::now;
use crate::error::ApiError;
use crate::read_your_writes::wait_for;
use crate::state::AppState;

/// The most links one list answers (the newest).
pub const MAX_LISTED: i64 = 200;

/// The payment-link aggregate's command service (it holds only the pool and the upcasters).
pub fn service(state: &AppState) -> CommandService<PaymentLink> {
    CommandService::new(PgEventStore::new(state.pool.clone()), ())
}

/// `POST` body.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NewPaymentLink {
    /// A registered key of the account; when given, `pixKey` and `keyKind` are not read.
    #[serde(default)]
    pub key_id: Option<String>,
    /// The Pix key as typed; `null` or absent when `keyId` names a registered key (the
    /// dashboard sends `null`, as it does to the QR code endpoints).
    #[serde(default)]
    pub pix_key: Option<String>,
    /// Optional kind of key (`cpf`, `cnpj`, `email`, `telefone`, `aleatoria`).
    #[serde(default)]
    pub key_kind: Option<String>,
    /// The receiver's name as typed.
    #[serde(default)]
    pub merchant_name: String,
    /// The city as typed.
    #[serde(default)]
    pub merchant_city: String,
    /// The amount in pt-BR (`"12,50"`); required.
    #[serde(default)]
    pub amount: String,
    /// A message for the payer.
    #[serde(default)]
    pub description: Option<String>,
    /// Last day the link takes payments (`AAAA-MM-DD`); blank or absent for never.
    #[serde(default)]
    pub expires_on: Option<String>,
}

/// One link as the API shows it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct PaymentLinkJson {
    /// The link's id.
    pub id: String,
    /// The signed `/pagar` address, absolute.
    pub url: String,
    /// The key in DICT form.
    pub pix_key: String,
    /// Field 59 as written.
    pub merchant_name: String,
    /// Field 60 as written.
    pub merchant_city: String,
    /// The amount.
    pub amount_centavos: i64,
    /// The message for the payer.
    pub description: Option<String>,
    /// When it stops taking payments, RFC 3339; `null` for never.
    pub expires_at: Option<String>,
    /// When it was made.
    pub created_at: String,
    /// When it was revoked.
    pub revoked_at: Option<String>,
    /// When it was paid (a payment of it recorded and standing).
    pub paid_at: Option<String>,
    /// `paid` once paid (a link is sold once), else `active`, `expired` or `revoked`, now.
    pub status: &'static str,
}

/// The list.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PaymentLinkList {
    /// Newest first.
    pub payment_links: Vec<PaymentLinkJson>,
}

fn rfc3339(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// The status of a row at `now`, by the aggregate's own rule.
pub fn status_of(view: &PaymentLinkView, now: DateTime<Utc>) -> LinkStatus {
    let expiry = view.expires_at.map(rfc3339);
    LinkStatus::at(view.revoked_at.is_some(), expiry.as_deref(), now)
}

fn status_name(status: LinkStatus) -> &'static str {
    match status {
        LinkStatus::Active => "active",
        LinkStatus::Expired => "expired",
        LinkStatus::Revoked => "revoked",
    }
}

fn to_json(state: &AppState, view: PaymentLinkView) -> PaymentLinkJson {
    // A link is sold once: paid is what matters about it, whatever happened to it since.
    let status = if view.paid_at.is_some() {
        "paid"
    } else {
        status_name(status_of(&view, state.clock.now()))
    };
    PaymentLinkJson {
        id: view.link_id.to_string(),
        url: token::url(state, view.link_id),
        pix_key: view.pix_key,
        merchant_name: view.merchant_name,
        merchant_city: view.merchant_city,
        amount_centavos: view.amount_centavos,
        description: view.description,
        expires_at: view.expires_at.map(rfc3339),
        created_at: rfc3339(view.created_at),
        revoked_at: view.revoked_at.map(rfc3339),
        paid_at: view.paid_at.map(rfc3339),
        status,
    }
}

/// `GET /api/accounts/{accountId}/payment-links`.
///
/// # Errors
///
/// As the module table says.
pub async fn list(
    State(state): State<AppState>,
    workspace: Workspace,
) -> Result<Json<PaymentLinkList>, ApiError> {
    workspace.require(Right::ManagePaymentLinks)?;
    let views = payment_links::list_by_owner(&state.pool, workspace.account_uuid(), MAX_LISTED)
        .await
        .map_err(projection_error)?;
    Ok(Json(PaymentLinkList {
        payment_links: views.into_iter().map(|v| to_json(&state, v)).collect(),
    }))
}

/// Brasília's offset (UTC−3, no daylight saving since 2019): where a link's days begin and end,
/// and how its page tells the time it was paid.
pub(crate) fn brasilia() -> FixedOffset {
    FixedOffset::west_opt(3 * 3600).expect("UTC−3 is a valid offset")
}

/// When something was paid, as a payer page says it: "27/11/2026 às 09:21", Brasília time.
pub(crate) fn paid_in_brasilia(at: DateTime<Utc>) -> String {
    at.with_timezone(&brasilia())
        .format("%d/%m/%Y às %H:%M")
        .to_string()
}

/// The end of `day` in Brasília (00:00 of the next day at UTC−3), RFC 3339.
pub(crate) fn end_of_day_in_brasilia(day: &str) -> Result<String, ApiError> {
    let bad = || {
        ApiError::invalid_argument(
            "expiresOn",
            "Informe a validade como uma data (dia, mês e ano).",
        )
    };
    let date = NaiveDate::parse_from_str(day.trim(), "%Y-%m-%d").map_err(|_| bad())?;
    let next = date.succ_opt().ok_or_else(bad)?;
    let brasilia = brasilia();
    let at = brasilia
        .from_local_datetime(&next.and_hms_opt(0, 0, 0).ok_or_else(bad)?)
        .single()
        .ok_or_else(bad)?;
    Ok(at.to_rfc3339_opts(SecondsFormat::Secs, true))
}

/// The request field a BR Code error is about.
fn field_of(error: &BrCodeError) -> &'static str {
    match error.field() {
        Field::PixKey => "pixKey",
        Field::MerchantName => "merchantName",
        Field::MerchantCity => "merchantCity",
        Field::TransactionAmount => "amount",
        Field::AdditionalInfo => "description",
        _ => "pixKey",
    }
}

fn invalid(errors: &[BrCodeError]) -> ApiError {
    match errors.first() {
        Some(first) => ApiError::invalid_argument(field_of(first), first.to_string()),
        None => ApiError::internal(anyhow::anyhow!("the engine refused without saying why")),
    }
}

/// A refused or failed command: the engine's Pix problems under their field, anything else
/// through the API's one mapping (`From<CommandError<E: Refusal>>`).
fn failure(error: CommandError<PaymentLinkError>) -> ApiError {
    match error {
        CommandError::Rejected(PaymentLinkError::Invalid(errors)) => invalid(&errors),
        other => ApiError::from(other),
    }
}

/// Namespace of the link ids derived from idempotency keys (a fixed, random UUID of its own).
const LINK_ID_NAMESPACE: Uuid = Uuid::from_u128(0x5b8e_2c47_91d3_4f0a_a6e5_3d17_c09b_82f4);

/// A txid for the link's code: `LINK` and 21 hex digits of its id (the random end of a v7
/// UUID), so a payment's txid names the link it came through.
fn txid_for(link_id: Uuid) -> String {
    let hex = link_id.simple().to_string().to_uppercase();
    format!("LINK{}", &hex[hex.len() - 21..])
}

/// The key, its kind and the receiver's name of `body`: a registered key's (its holder name when
/// the name is blank), or as typed.
async fn chosen_key(
    state: &AppState,
    workspace: &Workspace,
    body: &NewPaymentLink,
) -> Result<(String, String, String), ApiError> {
    let Some(text) = body
        .key_id
        .as_deref()
        .map(str::trim)
        .filter(|k| !k.is_empty())
    else {
        return Ok((
            body.pix_key
                .as_deref()
                .unwrap_or_default()
                .trim()
                .to_owned(),
            body.key_kind.clone().unwrap_or_default(),
            body.merchant_name.clone(),
        ));
    };
    let registered = match Uuid::parse_str(text) {
        Ok(id) => {
            registered_key(
                &state.pool,
                state.qrcodes.store(),
                workspace.account_uuid(),
                id,
            )
            .await?
        }
        Err(_) => None,
    };
    let key = registered.ok_or_else(|| {
        ApiError::invalid_argument(
            "keyId",
            "Esta chave Pix não está cadastrada nesta conta (ou foi removida). Escolha outra ou digite a chave.",
        )
    })?;
    let name = match key.holder_name {
        Some(holder) if body.merchant_name.trim().is_empty() => holder,
        _ => body.merchant_name.clone(),
    };
    Ok((key.pix_key, key.key_kind, name))
}

/// `POST /api/accounts/{accountId}/payment-links`.
///
/// # Errors
///
/// As the module table says.
pub async fn create(
    State(state): State<AppState>,
    workspace: Workspace,
    headers: HeaderMap,
    Json(body): Json<NewPaymentLink>,
) -> Result<Response, ApiError> {
    workspace.require(Right::ManagePaymentLinks)?;
    let idempotency = crate::api::idempotency::key(&workspace, &headers, "painel-link")?;
    if body.amount.trim().is_empty() {
        return Err(ApiError::invalid_argument(
            "amount",
            "Informe o valor a cobrar.",
        ));
    }
    let (key, key_kind, merchant_name) = chosen_key(&state, &workspace, &body).await?;
    let form = StaticCodeForm {
        key,
        key_kind,
        merchant_name,
        merchant_city: body.merchant_city.clone(),
        amount: body.amount.clone(),
        additional_info: body.description.clone().unwrap_or_default(),
        ..StaticCodeForm::default()
    };
    let mut request = preview_form(&form)
        .into_request(false)
        .map_err(|errors| invalid(&errors))?;
    let expires_at = match body.expires_on.as_deref().map(str::trim) {
        Some(day) if !day.is_empty() => Some(end_of_day_in_brasilia(day)?),
        _ => None,
    };
    let mut metadata = commands::CommandMetadata::start().by(workspace.caller_id().to_owned());
    if let Some(key) = idempotency.clone() {
        // What was asked, as parsed (before the link's own txid is set).
        let asked = format!("{request:?}\n{expires_at:?}");
        metadata = metadata
            .with_idempotency_key(key)
            .with_request_digest(commands::RequestDigest::of(asked.as_bytes()));
    }
    let link_id = crate::api::idempotency::id_for(&LINK_ID_NAMESPACE, idempotency.as_ref());
    let txid = txid_for(link_id);
    // The link's txid is claimed in the account's txid scope with the command: a bank reports a
    // payment by txid only, and the intake finds the link from this claim, in its own
    // transaction, whatever the read models say.
    let effects = commands::Effects::new().claim(
        commands::claims::txid_scope(workspace.account_id()),
        commands::qrcodes::txid_claim(&txid),
        commands::claims::link_claim_owner(&link_id.to_string()),
    );
    request.txid = Some(txid);
    let command = PaymentLinkCommand::CreatePaymentLink(CreatePaymentLink {
        link_id: link_id.to_string(),
        owner_id: workspace.account_id().to_owned(),
        created_by: workspace.caller_id().to_owned(),
        request,
        expires_at,
        requested_at: now(),
    });
    let outcome = service(&state)
        .execute_with(
            &link_id.to_string(),
            command,
            ExpectedVersion::NoStream,
            metadata,
            &effects,
        )
        .await
        .map_err(failure)?;
    let mut response = (
        StatusCode::CREATED,
        Json(answer(&state, link_id, outcome.position).await),
    )
        .into_response();
    crate::api::idempotency::mark_replayed(&mut response, outcome.replayed);
    Ok(response)
}

/// The link after a command: the read model once it has caught up, else its stream in the log.
async fn answer(
    state: &AppState,
    link_id: Uuid,
    position: Option<commands::FeedPosition>,
) -> serde_json::Value {
    // Waited for, so the dashboard's list shows the link next; the answer is drawn from the
    // link's stream, what the command decided, so a read model still behind (a revocation not
    // projected yet) never answers the state before the command.
    wait_for(state, payment_links::NAME, position).await;
    if let Ok(Some(view)) =
        payment_links::from_log(&state.pool, state.qrcodes.store(), link_id).await
    {
        return serde_json::to_value(to_json(state, view)).unwrap_or_default();
    }
    // The command committed, and reading it back failed: the id and the address are enough
    // for the dashboard, which refreshes its list.
    serde_json::json!({ "id": link_id.to_string(), "url": token::url(state, link_id) })
}

/// `POST /api/accounts/{accountId}/payment-links/{id}/revoke`.
///
/// # Errors
///
/// As the module table says.
pub async fn revoke(
    State(state): State<AppState>,
    workspace: Workspace,
    Path((_, id)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    workspace.require(Right::ManagePaymentLinks)?;
    let link_id = Uuid::parse_str(&id).map_err(|_| ApiError::not_found())?;
    // Another account's link is not there for this caller.
    payment_links::find_or_from_log(&state.pool, state.qrcodes.store(), link_id)
        .await
        .map_err(projection_error)?
        .filter(|view| view.owner_id == workspace.account_uuid())
        .ok_or_else(ApiError::not_found)?;
    let command = PaymentLinkCommand::RevokePaymentLink(RevokePaymentLink {
        revoked_by: workspace.caller_id().to_owned(),
        requested_at: now(),
    });
    let outcome = service(&state)
        .execute(
            &link_id.to_string(),
            command,
            commands::CommandMetadata::start().by(workspace.caller_id().to_owned()),
        )
        .await
        .map_err(failure)?;
    Ok(Json(answer(&state, link_id, outcome.position).await).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_day_ends_at_midnight_in_brasilia() {
        assert_eq!(
            end_of_day_in_brasilia("2026-12-24").expect("a date"),
            "2026-12-25T00:00:00-03:00"
        );
        assert!(end_of_day_in_brasilia("24/12/2026").is_err());
    }

    #[test]
    fn a_links_txid_is_within_the_pix_limit_and_alphanumeric() {
        let txid = txid_for(Uuid::now_v7());
        assert_eq!(txid.len(), 25);
        assert!(txid.chars().all(|c| c.is_ascii_alphanumeric()));
    }
}
