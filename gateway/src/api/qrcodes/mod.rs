//! An account's QR codes: `GET/POST /api/accounts/{accountId}/qrcodes` and
//! `GET /api/accounts/{accountId}/qrcodes/{id}`.
//!
//! Codes are made exactly as the public sign form makes them: the form's raw values go through
//! the BR Code engine's [`preview_form`] (key detection, name and city normalisation, amount in
//! pt-BR), then `CreateQrCode` on the existing QR-code aggregate with `owner_id` = the account
//! and `created_by` = the signed-in caller, and the answer waits for the `qrcodes` read model.
//!
//! | call | who | answer |
//! |---|---|---|
//! | list | owner, manager: every code of the account; operator: the codes they made | 200 `{qrcodes: [...]}`, newest first, at most [`MAX_LISTED`] |
//! | create | every role ([`Right::CreateQrCodes`]) | 201 the code; 422 `invalid-argument` naming `pixKey`, `merchantName`, `merchantCity`, `amount` or `description` with the engine's pt-BR message |
//! | read one | owner, manager: any code of the account; operator: their own (another member's → 403 `forbidden`) | 200 the code; a code of another account, or none → 404 `not-found` |
//!
//! `POST` takes an optional `Idempotency-Key` header: repeating it (a double click, a retry
//! after a lost answer) returns the first code instead of making another, with
//! `Idempotent-Replayed: true`. The key is recorded with a digest of the request
//! ([`request_digest`]), so the same key with other values answers 409
//! `idempotency-key-reused` rather than the first code.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, SecondsFormat, Utc};
use commands::{CommandError, ExpectedVersion, IdempotencyKey, RequestDigest};
use domain::brcode::{
    BrCodeError, Field, StaticCodeForm, StaticCodeRequest, make_static, preview_form,
};
use domain::qrcode::{CreateQrCode, QrCodeCommand, QrCodeError};
use domain::team::Right;
use projections::qrcodes::QrCodeView;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::api::access::{Workspace, projection_error};
use crate::api::error::ApiError;
use crate::api::json::Json;
use crate::api::support::{metadata, now};
use crate::read_your_writes::wait_for;
use crate::state::AppState;

/// The most codes one list answers (the newest).
pub const MAX_LISTED: i64 = 200;

/// Namespace of the QR-code ids derived from idempotency keys (a fixed, random UUID; not the
/// sign form's, so the two can never name the same stream).
const QRCODE_ID_NAMESPACE: Uuid = Uuid::from_u128(0x3c0e_8a51_27b4_4d6f_9a02_5be1_c47d_90a3);

/// `POST` body: the form's values as typed.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NewQrCode {
    /// The Pix key as typed (CPF, CNPJ, e-mail, phone or random key).
    #[serde(default)]
    pub pix_key: String,
    /// Optional kind of key (`cpf`, `cnpj`, `email`, `telefone`, `aleatoria`); detected when
    /// blank (needed only for an 11-digit number that is both a valid CPF and a mobile).
    #[serde(default)]
    pub key_kind: Option<String>,
    /// The receiver's name as typed.
    #[serde(default)]
    pub merchant_name: String,
    /// The city as typed.
    #[serde(default)]
    pub merchant_city: String,
    /// The amount in pt-BR (`"12,50"`); blank or absent lets the payer type it.
    #[serde(default)]
    pub amount: Option<String>,
    /// A message for the payer.
    #[serde(default)]
    pub description: Option<String>,
}

impl NewQrCode {
    fn to_form(&self) -> StaticCodeForm {
        StaticCodeForm {
            key: self.pix_key.trim().to_owned(),
            key_kind: self.key_kind.clone().unwrap_or_default(),
            merchant_name: self.merchant_name.clone(),
            merchant_city: self.merchant_city.clone(),
            amount: self.amount.clone().unwrap_or_default(),
            additional_info: self.description.clone().unwrap_or_default(),
            ..StaticCodeForm::default()
        }
    }
}

/// One QR code as the API shows it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct QrCodeJson {
    /// The code's id.
    pub id: String,
    /// The key in DICT form, as written in the code.
    pub pix_key: String,
    /// Field 59 as written.
    pub merchant_name: String,
    /// Field 60 as written.
    pub merchant_city: String,
    /// The fixed amount, or `null` when the payer types it.
    pub amount_centavos: Option<i64>,
    /// The message for the payer.
    pub description: Option<String>,
    /// The BR Code ("Pix Copia e Cola").
    pub payload: String,
    /// When it was made, RFC 3339.
    pub created_at: String,
    /// The account of the person who made it (`null` for codes made before teams existed).
    pub created_by: Option<String>,
    /// The payer page, absolute (to share or print).
    pub payment_url: String,
}

/// The list.
#[derive(Debug, Serialize)]
pub struct QrCodeList {
    /// Newest first.
    pub qrcodes: Vec<QrCodeJson>,
}

fn rfc3339(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

fn to_json(state: &AppState, view: QrCodeView) -> QrCodeJson {
    let id = view.qrcode_id.to_string();
    QrCodeJson {
        payment_url: format!("{}/pagamento/{id}", state.site.url.trim_end_matches('/')),
        id,
        pix_key: view.pix_key,
        merchant_name: view.merchant_name,
        merchant_city: view.merchant_city,
        amount_centavos: view.amount_centavos,
        description: view.description,
        payload: view.payload,
        created_at: rfc3339(view.created_at),
        created_by: view.created_by,
    }
}

/// `GET /api/accounts/{accountId}/qrcodes`.
///
/// # Errors
///
/// As the module table says.
pub async fn list(
    State(state): State<AppState>,
    workspace: Workspace,
) -> Result<Json<QrCodeList>, ApiError> {
    workspace.require(Right::ViewOwnQrCodes)?;
    let owner = workspace.account_uuid();
    // Without the right to see everyone's codes, only one's own are listed.
    let creator = (!workspace.can(Right::ViewAllQrCodes)).then(|| workspace.caller_id());
    let views = projections::qrcodes::list_by_owner(&state.pool, owner, creator, MAX_LISTED)
        .await
        .map_err(projection_error)?;
    Ok(Json(QrCodeList {
        qrcodes: views.into_iter().map(|v| to_json(&state, v)).collect(),
    }))
}

/// `GET /api/accounts/{accountId}/qrcodes/{id}`.
///
/// # Errors
///
/// As the module table says.
pub async fn show(
    State(state): State<AppState>,
    workspace: Workspace,
    Path((_, qrcode_id)): Path<(String, String)>,
) -> Result<Json<QrCodeJson>, ApiError> {
    workspace.require(Right::ViewOwnQrCodes)?;
    let owner = workspace.account_uuid();
    let Ok(qrcode_id) = Uuid::parse_str(&qrcode_id) else {
        return Err(ApiError::not_found());
    };
    let view = projections::qrcodes::find(&state.pool, qrcode_id)
        .await
        .map_err(projection_error)?
        .filter(|view| view.owner_id == Some(owner))
        .ok_or_else(ApiError::not_found)?;
    if view.created_by.as_deref() != Some(workspace.caller_id()) {
        workspace.require(Right::ViewAllQrCodes)?;
    }
    Ok(Json(to_json(&state, view)))
}

/// `POST /api/accounts/{accountId}/qrcodes`.
///
/// # Errors
///
/// As the module table says; 409 `idempotency-key-reused` when an `Idempotency-Key` was
/// already used with other values.
pub async fn create(
    State(state): State<AppState>,
    workspace: Workspace,
    headers: HeaderMap,
    Json(body): Json<NewQrCode>,
) -> Result<Response, ApiError> {
    workspace.require(Right::CreateQrCodes)?;
    let preview = preview_form(&body.to_form());
    let request = preview
        .into_request(false)
        .map_err(|errors| invalid(&errors))?;
    let mut metadata = metadata(workspace.caller_id());
    let qrcode_id = match idempotency_key(&workspace, &headers)? {
        Some(key) => {
            let id = Uuid::new_v5(&QRCODE_ID_NAMESPACE, key.as_str().as_bytes());
            metadata = metadata
                .with_idempotency_key(key)
                .with_request_digest(request_digest(&request));
            id
        }
        None => Uuid::now_v7(),
    };
    let requested_at = now();
    let command = QrCodeCommand::CreateQrCode(CreateQrCode {
        qrcode_id: qrcode_id.to_string(),
        owner_id: Some(workspace.account_id().to_owned()),
        created_by: Some(workspace.caller_id().to_owned()),
        request: request.clone(),
        requested_at: requested_at.clone(),
    });
    let outcome = state
        .qrcodes
        .execute_expecting(
            &qrcode_id.to_string(),
            command,
            ExpectedVersion::NoStream,
            metadata,
        )
        .await
        .map_err(qrcode_failure)?;
    // The code is made: from here on nothing may answer a failure (the caller would retry and,
    // without an Idempotency-Key, make it twice). The read model is the answer when it has
    // caught up; otherwise the command's own result is.
    let stored = if wait_for(&state, projections::qrcodes::NAME, outcome.position).await {
        projections::qrcodes::find(&state.pool, qrcode_id)
            .await
            .inspect_err(|error| {
                tracing::warn!(%error, %qrcode_id, "could not read the code just made; answering from the command");
            })
            .ok()
            .flatten()
    } else {
        None
    };
    let json = match stored {
        Some(view) => to_json(&state, view),
        None => made_json(&state, &workspace, qrcode_id, &request, requested_at)?,
    };
    let mut response = (StatusCode::CREATED, Json(json)).into_response();
    if outcome.replayed {
        response
            .headers_mut()
            .insert("idempotent-replayed", HeaderValue::from_static("true"));
    }
    Ok(response)
}

/// The code as the command made it, for when the read model is late: the same engine the
/// aggregate used, which is deterministic, so it is exactly what the read model will show.
fn made_json(
    state: &AppState,
    workspace: &Workspace,
    qrcode_id: Uuid,
    request: &domain::brcode::StaticCodeRequest,
    requested_at: String,
) -> Result<QrCodeJson, ApiError> {
    let made = make_static(request).map_err(|errors| invalid(&errors))?;
    Ok(QrCodeJson {
        payment_url: format!(
            "{}/pagamento/{qrcode_id}",
            state.site.url.trim_end_matches('/')
        ),
        id: qrcode_id.to_string(),
        pix_key: request.key.as_str().to_owned(),
        merchant_name: made.merchant_name,
        merchant_city: made.merchant_city,
        amount_centavos: made
            .amount
            .map(|a| i64::try_from(a.get()).unwrap_or(i64::MAX)),
        description: made.additional_info,
        payload: made.payload,
        // In the read model's form (the event carries the command's time as it was written).
        created_at: DateTime::parse_from_rfc3339(&requested_at)
            .map_or(requested_at, |at| rfc3339(at.with_timezone(&Utc))),
        created_by: Some(workspace.caller_id().to_owned()),
    })
}

/// The command's idempotency key from the `Idempotency-Key` header, scoped to the account and
/// the caller (so two people's keys never collide).
fn idempotency_key(
    workspace: &Workspace,
    headers: &HeaderMap,
) -> Result<Option<IdempotencyKey>, ApiError> {
    let Some(value) = headers.get("idempotency-key") else {
        return Ok(None);
    };
    let bad = || {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid-idempotency-key",
            "O cabeçalho Idempotency-Key deve ter de 1 a 100 caracteres visíveis.",
        )
    };
    let text = value.to_str().map_err(|_| bad())?.trim();
    if text.is_empty() || text.len() > 100 {
        return Err(bad());
    }
    let scoped = format!(
        "painel-qrcode:{}:{}:{text}",
        workspace.account_id(),
        workspace.caller_id()
    );
    IdempotencyKey::parse(&scoped).map(Some).map_err(|_| bad())
}

/// What a create asks for, as the BR Code engine parsed it (so `12,50` and `12,5` are the same
/// request): recorded with the idempotency key, compared on a repeat.
fn request_digest(request: &StaticCodeRequest) -> RequestDigest {
    let values = format!(
        "{}\n{}\n{}\n{:?}\n{:?}\n{:?}\n{:?}\n{}",
        request.key.as_str(),
        request.merchant_name,
        request.merchant_city,
        request.amount.map(|a| a.get()),
        request.txid,
        request.additional_info,
        request.postal_code,
        request.single_use,
    );
    RequestDigest::of(values.as_bytes())
}

/// 409 `idempotency-key-reused`.
fn idempotency_key_reused() -> ApiError {
    ApiError::new(
        StatusCode::CONFLICT,
        "idempotency-key-reused",
        "Este Idempotency-Key já foi usado com outros dados. Use uma chave nova para um QR code diferente.",
    )
}

/// The request field a BR Code error is about.
fn field_of(error: &BrCodeError) -> Option<&'static str> {
    match error.field() {
        Field::PixKey => Some("pixKey"),
        Field::MerchantName => Some("merchantName"),
        Field::MerchantCity => Some("merchantCity"),
        Field::TransactionAmount => Some("amount"),
        Field::AdditionalInfo => Some("description"),
        _ => None,
    }
}

/// 422 `invalid-argument` for the first problem, naming its field (the engine reports every
/// problem in form order; the dashboard shows one at a time).
fn invalid(errors: &[BrCodeError]) -> ApiError {
    let Some(first) = errors.first() else {
        return ApiError::internal(anyhow::anyhow!(
            "the BR Code engine refused without saying why"
        ));
    };
    match field_of(first) {
        Some(field) => ApiError::invalid_argument(field, first.to_string()),
        None => ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid-argument",
            first.to_string(),
        ),
    }
}

fn qrcode_failure(error: CommandError<QrCodeError>) -> ApiError {
    match error {
        CommandError::Rejected(QrCodeError::Invalid(errors)) => invalid(&errors),
        CommandError::IdempotencyKeyConflict { .. } => idempotency_key_reused(),
        CommandError::Rejected(QrCodeError::AlreadyCreated)
        | CommandError::IdempotencyKeyReused { .. }
        | CommandError::Conflict { .. } => ApiError::conflict(),
        other if other.status_code() == 503 => ApiError::unavailable(anyhow::Error::new(other)),
        other => ApiError::internal(anyhow::Error::new(other)),
    }
}
