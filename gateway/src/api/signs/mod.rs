//! The signs an account keeps in its dashboard (`/painel/placas`): make one from one of the
//! account's QR codes, list, change, duplicate and delete. A saved sign is only its choices;
//! its files are the sign routes' (`GET /placas/{qrcode_id}.pdf|png|svg?…`, [`crate::signs`]),
//! and each sign answers the three addresses with its choices in the query (`files`).
//!
//! | route | handler | who | answer |
//! |---|---|---|---|
//! | `GET /api/accounts/{accountId}/placas` | [`list`] | owner, manager: every sign; operator: their own | 200 `{signs: [...]}` newest first, at most [`MAX_LISTED`] |
//! | `POST /api/accounts/{accountId}/placas` (`Idempotency-Key` honoured) | [`create`] | every role, from a code they may see | 201 the sign (the first answer again, `Idempotent-Replayed: true`, for a repeated key); 422 `invalid-argument` naming `qrcodeId`, `name`, `template`, `size`, `theme`, `headline` or `footer`; 409 `idempotency-key-reused` |
//! | `GET /api/accounts/{accountId}/placas/{id}` | [`show`] | owner, manager; operator: own sign (another member's → 403) | 200 the sign |
//! | `PATCH /api/accounts/{accountId}/placas/{id}` | [`update`] | as `GET …/{id}` | 200 the sign; absent fields keep their value; 422 as `POST` |
//! | `POST /api/accounts/{accountId}/placas/{id}/duplicar` (`Idempotency-Key` honoured) | [`duplicate`] | as `GET …/{id}` | 201 the copy ("Cópia de …", same code and choices); 409 `idempotency-key-reused` |
//! | `DELETE /api/accounts/{accountId}/placas/{id}` | [`delete`] | as `GET …/{id}` | 204 |
//!
//! The rights are the QR codes' (a sign is a way to print a code): making and changing signs is
//! [`Right::CreateQrCodes`], another member's sign needs [`Right::ViewAllQrCodes`], so an
//! operator works with the signs of their own codes. Anyone outside the account, another
//! account's sign and a deleted sign get 404 `not-found` ([`crate::api::access`]).
//!
//! Read-your-writes as elsewhere: an answer after a command waits for the `signs` read model to
//! reach it, and is built from the command's own values when the read model is late.

pub mod body;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, SecondsFormat, Utc};
use commands::{
    CommandMetadata, CommandService, ExpectedVersion, FeedPosition, IdempotencyKey, PgEventStore,
    RequestDigest,
};
use domain::saved_sign::{
    ChangeSign, DeleteSign, MAX_NAME_CHARS, SaveSign, SavedSign, SavedSignCommand, SignSettings,
};
use domain::sign::SignOptions;
use domain::team::Right;
use projections::signs::{self, SignView};
use serde::Serialize;
use uuid::Uuid;

use self::body::{SignBody, settings_of};
use crate::api::access::{Workspace, projection_error};
use crate::api::json::Json;
use crate::api::qrcodes::manage::code_of;
use crate::auth::accounts::now;
use crate::error::ApiError;
use crate::read_your_writes::wait_for;
use crate::signs::{SignRequest, render};
use crate::state::AppState;

/// The most signs one list answers (the newest).
pub const MAX_LISTED: i64 = 500;

/// The saved-sign aggregate's command service (it holds only the pool and the upcasters).
pub fn service(state: &AppState) -> CommandService<SavedSign> {
    CommandService::new(PgEventStore::new(state.pool.clone()), ())
}

/// The facts of the code a sign prints, for the list.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct SignCodeJson {
    /// Field 59 as written.
    pub merchant_name: String,
    /// The fixed amount, if any.
    pub amount_centavos: Option<i64>,
    /// The code's txid.
    pub txid: String,
    /// The code's description.
    pub description: Option<String>,
    /// Whether the code is archived (it still prints and still takes payments).
    pub archived: bool,
}

/// The three files of a sign: the sign routes' addresses with its choices in the query.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct SignFiles {
    /// Vector PDF.
    pub pdf: String,
    /// PNG at 300 dpi.
    pub png: String,
    /// SVG.
    pub svg: String,
}

/// One saved sign as the API shows it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct SignJson {
    /// The sign's id.
    pub id: String,
    /// What the owner calls it.
    pub name: String,
    /// The QR code it prints.
    pub qrcode_id: String,
    /// Template slug.
    pub template: String,
    /// Paper size slug.
    pub size: String,
    /// Theme slug.
    pub theme: String,
    /// The headline; `null` for the default.
    pub headline: Option<String>,
    /// The footer.
    pub footer: Option<String>,
    /// Whether the account's logo is drawn.
    pub with_logo: bool,
    /// The sign it was copied from.
    pub duplicate_of: Option<String>,
    /// The person who saved it.
    pub created_by: String,
    /// When it was saved.
    pub created_at: String,
    /// When it last changed.
    pub updated_at: String,
    /// The code's facts; `null` while the code's read model is behind.
    pub code: Option<SignCodeJson>,
    /// Where to download it.
    pub files: SignFiles,
}

/// The list.
#[derive(Debug, Serialize)]
pub struct SignList {
    /// Newest first.
    pub signs: Vec<SignJson>,
}

fn rfc3339(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// The file addresses of a sign of `qrcode_id` with `settings`.
fn files(qrcode_id: Uuid, settings: &SignSettings) -> SignFiles {
    let request = SignRequest {
        options: SignOptions {
            template: settings.template,
            size: settings.size,
            theme: settings.theme,
        },
        // The sign routes' default, the resolution for print.
        dpi: render::DEFAULT_DPI,
        headline: settings.headline.clone(),
        footer: settings.footer.clone(),
        with_logo: settings.with_logo,
    };
    let query = request.query();
    SignFiles {
        pdf: format!("/placas/{qrcode_id}.pdf{query}"),
        png: format!("/placas/{qrcode_id}.png{query}"),
        svg: format!("/placas/{qrcode_id}.svg{query}"),
    }
}

/// The facts of a row's code, when the code's row was there.
fn code_of_view(view: &SignView) -> Option<SignCodeJson> {
    match (&view.code_merchant_name, &view.code_txid) {
        (Some(merchant_name), Some(txid)) => Some(SignCodeJson {
            merchant_name: merchant_name.clone(),
            amount_centavos: view.code_amount_centavos,
            txid: txid.clone(),
            description: view.code_description.clone(),
            archived: view.code_archived,
        }),
        _ => None,
    }
}

fn to_json(view: SignView) -> Result<SignJson, ApiError> {
    let settings = settings_of(&view)?;
    let code = code_of_view(&view);
    Ok(SignJson {
        id: view.sign_id.to_string(),
        name: view.name,
        qrcode_id: view.qrcode_id.to_string(),
        template: view.template,
        size: view.size,
        theme: view.theme,
        headline: view.headline,
        footer: view.footer,
        with_logo: view.with_logo,
        duplicate_of: view.duplicate_of.map(|d| d.to_string()),
        created_by: view.created_by,
        created_at: rfc3339(view.created_at),
        updated_at: rfc3339(view.updated_at),
        code,
        files: files(view.qrcode_id, &settings),
    })
}

/// `GET /api/accounts/{accountId}/placas`.
///
/// # Errors
///
/// As the module table says.
pub async fn list(
    State(state): State<AppState>,
    workspace: Workspace,
) -> Result<Json<SignList>, ApiError> {
    workspace.require(Right::ViewOwnQrCodes)?;
    let created_by = (!workspace.can(Right::ViewAllQrCodes)).then(|| workspace.caller_id());
    let views = signs::list_by_owner(
        &state.pool,
        workspace.account_uuid(),
        created_by,
        MAX_LISTED,
    )
    .await
    .map_err(projection_error)?;
    let signs = views
        .into_iter()
        .map(to_json)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Json(SignList { signs }))
}

/// The sign `id` of the workspace's account, if the caller may see it.
///
/// # Errors
///
/// 404 `not-found` when it is not a sign of this account (or was deleted); 403 `forbidden`
/// when it is another member's and the caller may see only their own.
async fn sign_of(state: &AppState, workspace: &Workspace, id: &str) -> Result<SignView, ApiError> {
    let sign_id = Uuid::parse_str(id).map_err(|_| ApiError::not_found())?;
    let view = signs::find(&state.pool, sign_id)
        .await
        .map_err(projection_error)?
        .filter(|view| view.owner_id == workspace.account_uuid())
        .ok_or_else(ApiError::not_found)?;
    if view.created_by != workspace.caller_id() {
        workspace.require(Right::ViewAllQrCodes)?;
    }
    Ok(view)
}

/// `GET /api/accounts/{accountId}/placas/{id}`.
///
/// # Errors
///
/// 404 `not-found` for a sign that is not the account's (or was deleted); 403 `forbidden` for
/// another member's sign when the caller may see only their own.
pub async fn show(
    State(state): State<AppState>,
    workspace: Workspace,
    Path((_, id)): Path<(String, String)>,
) -> Result<Json<SignJson>, ApiError> {
    workspace.require(Right::ViewOwnQrCodes)?;
    let view = sign_of(&state, &workspace, &id).await?;
    Ok(Json(to_json(view)?))
}

/// The sign after a command: the read model once it has caught up, else `fallback`, built
/// from the command's own values.
async fn answer(
    state: &AppState,
    sign_id: Uuid,
    position: Option<FeedPosition>,
    fallback: SignJson,
) -> SignJson {
    if wait_for(state, signs::NAME, position).await
        && let Ok(Some(view)) = signs::find(&state.pool, sign_id).await
        && let Ok(json) = to_json(view)
    {
        return json;
    }
    fallback
}

/// What a sign will look like once the read model has it, from a command's values and the
/// code's facts the handler already read.
fn late_json(
    sign_id: Uuid,
    (qrcode_id, code): (Uuid, Option<SignCodeJson>),
    settings: &SignSettings,
    created_by: &str,
    duplicate_of: Option<Uuid>,
    at: &str,
) -> SignJson {
    let blank = |text: &Option<String>| {
        text.as_deref()
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(str::to_owned)
    };
    // The read model shows instants to the millisecond; so does the answer that stands for it.
    let at = DateTime::parse_from_rfc3339(at)
        .map(|t| rfc3339(t.with_timezone(&Utc)))
        .unwrap_or_else(|_| at.to_owned());
    let mut trimmed = settings.clone();
    trimmed.headline = blank(&settings.headline);
    trimmed.footer = blank(&settings.footer);
    SignJson {
        id: sign_id.to_string(),
        name: settings.name.trim().to_owned(),
        qrcode_id: qrcode_id.to_string(),
        template: settings.template.slug().to_owned(),
        size: settings.size.slug().to_owned(),
        theme: settings.theme.slug().to_owned(),
        headline: trimmed.headline.clone(),
        footer: trimmed.footer.clone(),
        with_logo: settings.with_logo,
        duplicate_of: duplicate_of.map(|d| d.to_string()),
        created_by: created_by.to_owned(),
        created_at: at.clone(),
        updated_at: at,
        code,
        files: files(qrcode_id, &trimmed),
    }
}

/// Appends a new sign and answers 201 with it.
async fn save(
    state: &AppState,
    workspace: &Workspace,
    (qrcode_id, code): (Uuid, Option<SignCodeJson>),
    duplicate_of: Option<Uuid>,
    settings: SignSettings,
    key: Option<IdempotencyKey>,
) -> Result<Response, ApiError> {
    let sign_id = crate::api::idempotency::id_for(&SIGN_ID_NAMESPACE, key.as_ref());
    let mut metadata = CommandMetadata::start().by(workspace.caller_id().to_owned());
    if let Some(key) = key {
        let asked = format!("{qrcode_id}\n{duplicate_of:?}\n{settings:?}");
        metadata = metadata
            .with_idempotency_key(key)
            .with_request_digest(RequestDigest::of(asked.as_bytes()));
    }
    let requested_at = now();
    let command = SavedSignCommand::SaveSign(SaveSign {
        sign_id: sign_id.to_string(),
        owner_id: workspace.account_id().to_owned(),
        created_by: workspace.caller_id().to_owned(),
        qrcode_id: qrcode_id.to_string(),
        duplicate_of: duplicate_of.map(|d| d.to_string()),
        settings: settings.clone(),
        requested_at: requested_at.clone(),
    });
    let outcome = service(state)
        .execute_expecting(
            &sign_id.to_string(),
            command,
            ExpectedVersion::NoStream,
            metadata,
        )
        .await
        .map_err(ApiError::from)?;
    let fallback = late_json(
        sign_id,
        (qrcode_id, code),
        &settings,
        workspace.caller_id(),
        duplicate_of,
        &requested_at,
    );
    let json = answer(state, sign_id, outcome.position, fallback).await;
    let mut response = (StatusCode::CREATED, Json(json)).into_response();
    crate::api::idempotency::mark_replayed(&mut response, outcome.replayed);
    Ok(response)
}

/// Namespace of the sign ids derived from idempotency keys (a fixed, random UUID of its own).
const SIGN_ID_NAMESPACE: Uuid = Uuid::from_u128(0x0c6b_93e1_5a7d_4e28_b4f0_e2d9_7a15_36c8);

/// `POST /api/accounts/{accountId}/placas`.
///
/// # Errors
///
/// As the module table says.
pub async fn create(
    State(state): State<AppState>,
    workspace: Workspace,
    headers: HeaderMap,
    Json(body): Json<SignBody>,
) -> Result<Response, ApiError> {
    workspace.require(Right::CreateQrCodes)?;
    let key = crate::api::idempotency::key(&workspace, &headers, "painel-placa")?;
    let not_ours = || {
        ApiError::invalid_argument(
            "qrcodeId",
            "Escolha um dos QR codes desta conta para a placa.",
        )
    };
    let id = body
        .qrcode_id
        .as_deref()
        .map(str::trim)
        .filter(|id| !id.is_empty())
        .ok_or_else(not_ours)?;
    // Another account's code, or none, is not there for this caller: the field is at fault.
    let code = code_of(&state, &workspace, id)
        .await
        .map_err(|error| match error.status() {
            StatusCode::NOT_FOUND => not_ours(),
            _ => error,
        })?;
    let settings = body.new_settings()?;
    let facts = SignCodeJson {
        merchant_name: code.merchant_name,
        amount_centavos: code.amount_centavos,
        txid: code.txid,
        description: code.description,
        archived: code.archived_at.is_some(),
    };
    save(
        &state,
        &workspace,
        (code.qrcode_id, Some(facts)),
        None,
        settings,
        key,
    )
    .await
}

/// `PATCH /api/accounts/{accountId}/placas/{id}`.
///
/// # Errors
///
/// As the module table says.
pub async fn update(
    State(state): State<AppState>,
    workspace: Workspace,
    Path((_, id)): Path<(String, String)>,
    Json(body): Json<SignBody>,
) -> Result<Json<SignJson>, ApiError> {
    workspace.require(Right::CreateQrCodes)?;
    let view = sign_of(&state, &workspace, &id).await?;
    let settings = body.changed_settings(&view)?;
    let requested_at = now();
    let command = SavedSignCommand::ChangeSign(ChangeSign {
        changed_by: workspace.caller_id().to_owned(),
        settings: settings.clone(),
        requested_at: requested_at.clone(),
    });
    let outcome = service(&state)
        .execute_expecting(
            &view.sign_id.to_string(),
            command,
            ExpectedVersion::Any,
            CommandMetadata::start().by(workspace.caller_id().to_owned()),
        )
        .await
        .map_err(ApiError::from)?;
    let mut fallback = late_json(
        view.sign_id,
        (view.qrcode_id, code_of_view(&view)),
        &settings,
        &view.created_by,
        view.duplicate_of,
        &requested_at,
    );
    fallback.created_at = rfc3339(view.created_at);
    Ok(Json(
        answer(&state, view.sign_id, outcome.position, fallback).await,
    ))
}

/// The name of a copy of the sign named `name`, within [`MAX_NAME_CHARS`].
fn copy_name(name: &str) -> String {
    format!("Cópia de {name}")
        .chars()
        .take(MAX_NAME_CHARS)
        .collect()
}

/// `POST /api/accounts/{accountId}/placas/{id}/duplicar`.
///
/// # Errors
///
/// As the module table says.
pub async fn duplicate(
    State(state): State<AppState>,
    workspace: Workspace,
    Path((_, id)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    workspace.require(Right::CreateQrCodes)?;
    let key = crate::api::idempotency::key(&workspace, &headers, "painel-placa-copia")?;
    let original = sign_of(&state, &workspace, &id).await?;
    let mut settings = settings_of(&original)?;
    settings.name = copy_name(&original.name);
    save(
        &state,
        &workspace,
        (original.qrcode_id, code_of_view(&original)),
        Some(original.sign_id),
        settings,
        key,
    )
    .await
}

/// `DELETE /api/accounts/{accountId}/placas/{id}`.
///
/// # Errors
///
/// As the module table says.
pub async fn delete(
    State(state): State<AppState>,
    workspace: Workspace,
    Path((_, id)): Path<(String, String)>,
) -> Result<StatusCode, ApiError> {
    workspace.require(Right::CreateQrCodes)?;
    let view = sign_of(&state, &workspace, &id).await?;
    let command = SavedSignCommand::DeleteSign(DeleteSign {
        deleted_by: workspace.caller_id().to_owned(),
        requested_at: now(),
    });
    let outcome = service(&state)
        .execute_expecting(
            &view.sign_id.to_string(),
            command,
            ExpectedVersion::Any,
            CommandMetadata::start().by(workspace.caller_id().to_owned()),
        )
        .await
        .map_err(ApiError::from)?;
    // The list the dashboard reads next should no longer have it; the deletion stands either way.
    wait_for(&state, signs::NAME, outcome.position).await;
    Ok(StatusCode::NO_CONTENT)
}

#[cfg(test)]
mod tests {
    use domain::sign::{PaperSize, Template, Theme};

    use super::*;

    #[test]
    fn a_copys_name_says_what_it_copies_and_stays_within_the_limit() {
        assert_eq!(copy_name("Caixa"), "Cópia de Caixa");
        assert_eq!(copy_name(&"é".repeat(60)).chars().count(), MAX_NAME_CHARS);
    }

    #[test]
    fn a_signs_files_carry_its_choices_in_the_sign_routes_query() {
        let id = Uuid::parse_str("0190f1a2-0000-7000-8000-0000000000d1").expect("uuid");
        let settings = SignSettings {
            name: "Caixa".to_owned(),
            template: Template::Band,
            size: PaperSize::A5,
            theme: Theme::Blue,
            headline: Some("Pague aqui".to_owned()),
            footer: None,
            with_logo: false,
        };
        let files = files(id, &settings);
        assert_eq!(
            files.pdf,
            format!(
                "/placas/{id}.pdf?modelo=faixa&tamanho=a5&tema=azul&titulo=Pague+aqui&logo=nao"
            )
        );
        assert!(files.png.starts_with(&format!("/placas/{id}.png?")));
        let plain = SignSettings {
            template: Template::Classic,
            size: PaperSize::A4,
            theme: Theme::Green,
            headline: None,
            with_logo: true,
            ..settings
        };
        assert_eq!(files_of(id, &plain), format!("/placas/{id}.svg"));
    }

    fn files_of(id: Uuid, settings: &SignSettings) -> String {
        files(id, settings).svg
    }
}
