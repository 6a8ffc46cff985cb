//! Making codes: one (`POST …/qrcodes`), a batch (`POST …/qrcodes/lote`), a duplicate
//! (`POST …/qrcodes/{id}/duplicar`), and the check that shows every problem at once
//! (`POST …/qrcodes/conferir`).

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use commands::qrcodes::{self, NewCode};
use commands::{CommandMetadata, RequestDigest};
use domain::brcode::StaticCodeRequest;
use domain::qrcode::CreateAccountQrCode;
use domain::team::Right;
use serde::Serialize;
use uuid::Uuid;

use super::input::{batch_lines, fresh_txid, invalid, one_code, shared};
use super::json::{CodeBody, CodeJson, FieldProblem};
use super::manage::code_of;
use crate::api::access::Workspace;
use crate::api::json::Json;
use crate::billing::kept_plans::PlanReadings;
use crate::error::ApiError;
use crate::read_your_writes::wait_for;
use crate::state::AppState;

/// Namespace of the code ids derived from idempotency keys (a fixed, random UUID; the same as
/// the first dashboard create's, so a key sent before this version names the same code).
const QRCODE_ID_NAMESPACE: Uuid = Uuid::from_u128(0x3c0e_8a51_27b4_4d6f_9a02_5be1_c47d_90a3);

/// Namespace of the batch ids derived from idempotency keys (a fixed, random UUID): a retried
/// batch names the first one's id, so its answer lists the first batch's codes.
const BATCH_ID_NAMESPACE: Uuid = Uuid::from_u128(0x9d41_6e0b_c5a2_4f83_b7e6_02d8_5a1c_3f97);

/// `POST /api/accounts/{accountId}/qrcodes/conferir`: every problem of a creation or a batch at
/// once, and how the name and city will be written. Makes nothing.
///
/// # Errors
///
/// 404/403 as the module table says.
pub async fn check(
    State(state): State<AppState>,
    workspace: Workspace,
    Json(body): Json<CodeBody>,
) -> Result<Json<Checked>, ApiError> {
    workspace.require(Right::CreateQrCodes)?;
    let mut problems = Vec::new();
    let shared = shared(&state, workspace.account_uuid(), &body, &mut problems).await?;
    let is_batch = body.lines.as_deref().is_some_and(|l| !l.trim().is_empty())
        || body.prefix.as_deref().is_some_and(|p| !p.trim().is_empty());
    let preview = if is_batch {
        let lines = batch_lines(&body, &mut problems);
        let mut first = None;
        for line in &lines {
            let amount = line.amount.as_deref().or(body.amount.as_deref());
            let (preview, _) = one_code(
                &shared,
                amount,
                Some(&line.label),
                "A",
                Some(line.number),
                &mut problems,
            );
            first.get_or_insert(preview);
        }
        first
    } else {
        let txid = body.txid.as_deref().unwrap_or_default();
        // A blank txid will be generated: check the rest with a placeholder.
        let txid = if txid.trim().is_empty() { "A" } else { txid };
        let (preview, _) = one_code(
            &shared,
            body.amount.as_deref(),
            body.description.as_deref(),
            txid,
            None,
            &mut problems,
        );
        Some(preview)
    };
    let preview = preview.unwrap_or_default();
    Ok(Json(Checked {
        merchant_name: preview.merchant_name,
        merchant_city: preview.merchant_city,
        pix_key: preview.key.map(|k| k.as_str().to_owned()),
        changes: preview.changes.iter().map(ToString::to_string).collect(),
        problems,
    }))
}

/// What [`check`] answers.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Checked {
    /// Field 59 as it will be written (when the name is usable).
    pub merchant_name: Option<String>,
    /// Field 60 as it will be written (when the city is usable).
    pub merchant_city: Option<String>,
    /// The key in DICT form (when it is valid).
    pub pix_key: Option<String>,
    /// One pt-BR sentence per value written differently from how it was typed.
    pub changes: Vec<String>,
    /// Everything to fix, each naming its field (and line, in a batch).
    pub problems: Vec<FieldProblem>,
}

/// `?qr=svg`: the answer also carries the QR code as SVG (`qrSvg`), for the screen that shows
/// the code just made.
#[derive(Debug, Default, serde::Deserialize)]
pub struct WithQr {
    /// `svg` to get the drawing.
    #[serde(default)]
    pub qr: Option<String>,
}

impl WithQr {
    pub(super) fn wants_svg(&self) -> bool {
        self.qr.as_deref() == Some("svg")
    }
}

/// `POST /api/accounts/{accountId}/qrcodes`: one code, from a registered key or a typed one,
/// with a txid typed or generated.
///
/// # Errors
///
/// As the module table says.
pub async fn create(
    State(state): State<AppState>,
    workspace: Workspace,
    Query(with_qr): Query<WithQr>,
    headers: HeaderMap,
    Json(body): Json<CodeBody>,
) -> Result<Response, ApiError> {
    workspace.require(Right::CreateQrCodes)?;
    let mut problems = Vec::new();
    let shared = shared(&state, workspace.account_uuid(), &body, &mut problems).await?;
    let typed_txid = body
        .txid
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_owned);
    let txid = typed_txid.clone().unwrap_or_else(fresh_txid);
    let (_, request) = one_code(
        &shared,
        body.amount.as_deref(),
        body.description.as_deref(),
        &txid,
        None,
        &mut problems,
    );
    let Some(mut request) = request.filter(|_| problems.is_empty()) else {
        return Ok(invalid(&problems));
    };
    // The aggregate decides whether it may be (an amount and its own txid).
    request.single_use = body.single_use;
    let key = crate::api::idempotency::key(&workspace, &headers, "painel-qrcode")?;
    let qrcode_id = crate::api::idempotency::id_for(&QRCODE_ID_NAMESPACE, key.as_ref());
    let requested_at = crate::auth::accounts::now();
    let create = CreateAccountQrCode {
        qrcode_id: qrcode_id.to_string(),
        owner_id: workspace.account_id().to_owned(),
        created_by: workspace.caller_id().to_owned(),
        key_id: shared.key_id.map(|k| k.to_string()),
        batch_id: None,
        duplicate_of: None,
        request,
        requested_at: requested_at.clone(),
    };
    let metadata = |request: &StaticCodeRequest| {
        let metadata = CommandMetadata::start().by(workspace.caller_id().to_owned());
        match &key {
            Some(key) => metadata
                .with_idempotency_key(key.clone())
                .with_request_digest(request_digest(request, typed_txid.is_some(), shared.key_id)),
            None => metadata,
        }
    };
    let turn = crate::billing::usage::turn(workspace.account_uuid()).await?;
    // Issue 12: the plan's QR codes per month, counted and checked by the command itself.
    let created = make_code(&state, &workspace, create, typed_txid.is_some(), metadata).await?;
    // Counted: the account's next creation in this process may go (the turn is not kept while
    // the read model catches up).
    drop(turn);
    let json = answer(
        &state,
        &workspace,
        qrcode_id,
        &created,
        &shared,
        &requested_at,
        with_qr.wants_svg(),
    )
    .await?;
    let mut response = (StatusCode::CREATED, Json(json)).into_response();
    crate::api::idempotency::mark_replayed(&mut response, created.replayed);
    Ok(response)
}

/// Makes one code in the workspace's account with the account's plan as kept
/// ([`PlanReadings`]: read again when the subscription changed under it).
async fn make_code(
    state: &AppState,
    workspace: &Workspace,
    create: CreateAccountQrCode,
    txid_typed: bool,
    metadata: impl Fn(&StaticCodeRequest) -> CommandMetadata,
) -> Result<qrcodes::Created, ApiError> {
    let mut plans = PlanReadings::new(&state.billing, workspace.account_uuid());
    loop {
        let code = NewCode {
            create: create.clone(),
            txid_typed,
            plan: plans.next().await?,
        };
        let made = qrcodes::create(&state.qrcodes, code, &metadata).await;
        if let Some(created) = plans.settle(made)? {
            return Ok(created);
        }
    }
}

/// The code just made, from the command's own values: the engine is deterministic, so they are
/// what the read model shows (`e2e lagging_read_models` compares the two), and reading the row
/// back cost every creation a statement. It waits for the read model all the same, so that the
/// caller's next read finds the code. An answer replayed for a repeated idempotency key is the
/// first request's code, made at its time and maybe with another generated txid: that one is
/// read from the read model once it has caught up. The QR code's SVG is drawn only when `svg`
/// (the caller asked for it).
async fn answer(
    state: &AppState,
    workspace: &Workspace,
    qrcode_id: Uuid,
    created: &qrcodes::Created,
    shared: &super::input::Shared,
    requested_at: &str,
    svg: bool,
) -> Result<CodeJson, ApiError> {
    let request = &created.request;
    if wait_for(state, projections::qrcodes::NAME, created.position).await
        && created.replayed
        && let Ok(Some(view)) = projections::qrcodes::find(&state.pool, qrcode_id).await
    {
        let mut json = CodeJson::from_view(state, view);
        json.qr_svg = if svg {
            super::json::qr_svg(&json.payload)
        } else {
            None
        };
        return Ok(json);
    }
    let made = domain::brcode::make_static(request)
        .map_err(|_| ApiError::internal(anyhow::anyhow!("a code made once no longer makes")))?;
    let id = qrcode_id.to_string();
    let qr_svg = if svg {
        super::json::qr_svg(&made.payload)
    } else {
        None
    };
    Ok(CodeJson {
        payment_url: super::json::payment_url(state, &id),
        id,
        key_kind: request.key.kind().as_str(),
        pix_key: request.key.as_str().to_owned(),
        key_id: shared.key_id.map(|k| k.to_string()),
        merchant_name: made.merchant_name,
        merchant_city: made.merchant_city,
        amount_centavos: made
            .amount
            .map(|a| i64::try_from(a.get()).unwrap_or(i64::MAX)),
        description: made.additional_info,
        txid: made.txid,
        payload: made.payload,
        // In the read model's form (the event carries the command's time as it was written).
        created_at: chrono::DateTime::parse_from_rfc3339(requested_at).map_or_else(
            |_| requested_at.to_owned(),
            |at| super::json::rfc3339(at.with_timezone(&chrono::Utc)),
        ),
        created_by: Some(workspace.caller_id().to_owned()),
        batch_id: None,
        duplicate_of: None,
        archived_at: None,
        version: 1,
        single_use: request.single_use,
        paid_at: None,
        charge_expires_at: None,
        qr_svg,
    })
}

/// What a create asks for, as parsed (a generated txid counts as "generated", so a retry that
/// draws another one is the same request).
fn request_digest(
    request: &StaticCodeRequest,
    typed_txid: bool,
    key_id: Option<Uuid>,
) -> RequestDigest {
    RequestDigest::of(request_values(request, typed_txid, key_id).as_bytes())
}

/// What a batch asks for: every line's code as parsed, in line order (each txid generated).
fn batch_digest(codes: &[CreateAccountQrCode], key_id: Option<Uuid>) -> RequestDigest {
    let values: Vec<String> = codes
        .iter()
        .map(|code| request_values(&code.request, false, key_id))
        .collect();
    RequestDigest::of(values.join("\n--\n").as_bytes())
}

/// The values of one code's request that make it the request it is, one per line.
fn request_values(request: &StaticCodeRequest, typed_txid: bool, key_id: Option<Uuid>) -> String {
    let txid = if typed_txid {
        request.txid.clone()
    } else {
        Some("(gerado)".to_owned())
    };
    format!(
        "{}\n{}\n{}\n{:?}\n{:?}\n{:?}\n{:?}\n{}\n{:?}",
        request.key.as_str(),
        request.merchant_name,
        request.merchant_city,
        request.amount.map(|a| a.get()),
        txid,
        request.additional_info,
        request.postal_code,
        request.single_use,
        key_id,
    )
}

/// What a batch answers.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BatchJson {
    /// The id the batch's codes share.
    pub batch_id: String,
    /// The codes, in the order of the lines.
    pub qrcodes: Vec<CodeJson>,
}

/// `POST /api/accounts/{accountId}/qrcodes/lote`: one code per line, all in one command (one
/// transaction), or none.
///
/// With an `Idempotency-Key` the batch is one idempotent unit: the same key with the same lines
/// answers the first batch again (`Idempotent-Replayed: true`) and makes, claims and counts
/// nothing, also after a crash that lost the first answer (the key is recorded in the batch's
/// own transaction); the same key with other lines is 409 `idempotency-key-reused`.
///
/// # Errors
///
/// As the module table says.
pub async fn batch(
    State(state): State<AppState>,
    workspace: Workspace,
    headers: HeaderMap,
    Json(body): Json<CodeBody>,
) -> Result<Response, ApiError> {
    workspace.require(Right::CreateQrCodes)?;
    let key = crate::api::idempotency::key(&workspace, &headers, "painel-qrcode-lote")?;
    let mut problems = Vec::new();
    let shared = shared(&state, workspace.account_uuid(), &body, &mut problems).await?;
    let lines = batch_lines(&body, &mut problems);
    let batch_id = crate::api::idempotency::id_for(&BATCH_ID_NAMESPACE, key.as_ref());
    let requested_at = crate::auth::accounts::now();
    let mut codes = Vec::with_capacity(lines.len());
    let mut txids = Vec::with_capacity(lines.len());
    for line in &lines {
        let amount = line.amount.as_deref().or(body.amount.as_deref());
        let txid = fresh_txid();
        let (_, request) = one_code(
            &shared,
            amount,
            Some(&line.label),
            &txid,
            Some(line.number),
            &mut problems,
        );
        let Some(mut request) = request else { continue };
        if body.single_use && request.amount.is_none() {
            // Every line at once, as the form shows them (the aggregate refuses it too).
            problems.push(FieldProblem {
                field: "amount",
                line: Some(line.number),
                message: format!(
                    "Linha {}: {}",
                    line.number,
                    domain::qrcode::QrCodeError::SingleUseWithoutAmount
                ),
            });
            continue;
        }
        request.single_use = body.single_use;
        txids.push(txid);
        codes.push(CreateAccountQrCode {
            qrcode_id: Uuid::now_v7().to_string(),
            owner_id: workspace.account_id().to_owned(),
            created_by: workspace.caller_id().to_owned(),
            key_id: shared.key_id.map(|k| k.to_string()),
            batch_id: Some(batch_id.to_string()),
            duplicate_of: None,
            request,
            requested_at: requested_at.clone(),
        });
    }
    if !problems.is_empty() {
        return Ok(invalid(&problems));
    }
    let mut metadata = CommandMetadata::start().by(workspace.caller_id().to_owned());
    if let Some(key) = &key {
        metadata = metadata
            .with_idempotency_key(key.clone())
            .with_request_digest(batch_digest(&codes, shared.key_id));
    }
    // Issue 12: the plan's QR codes per month, for the whole batch (all or nothing), counted
    // and checked by the command itself.
    let turn = crate::billing::usage::turn(workspace.account_uuid()).await?;
    let mut plans = PlanReadings::new(&state.billing, workspace.account_uuid());
    let outcome = loop {
        let made = qrcodes::create_batch(
            &state.qrcodes,
            codes.clone(),
            plans.next().await?,
            metadata.clone(),
        )
        .await;
        if let Some(outcome) = plans.settle(made)? {
            break outcome;
        }
    };
    // Counted: the account's next creation in this process may go (the turn is not kept while
    // the read model catches up).
    drop(turn);
    let mut made = Vec::new();
    if wait_for(&state, projections::qrcodes::NAME, outcome.position).await {
        let query = projections::qrcodes::Search {
            batch_id: Some(batch_id),
            limit: i64::try_from(domain::qrcode::batch::MAX_BATCH).unwrap_or(100),
            ..projections::qrcodes::Search::default()
        };
        match projections::qrcodes::search(&state.pool, workspace.account_uuid(), &query).await {
            Ok(mut views) => {
                // Newest first from the list; the batch reads in line order (ids are v7, made
                // in line order).
                views.sort_by_key(|v| v.qrcode_id);
                made = views
                    .into_iter()
                    .map(|v| CodeJson::from_view(&state, v))
                    .collect();
            }
            Err(error) => tracing::warn!(%error, %batch_id, "could not read the batch just made"),
        }
    }
    if made.len() != outcome.outcomes.len() && outcome.replayed {
        // A repeat's codes are the first batch's, made with other txids: read them from their
        // own streams while the read model is late.
        made = replayed_codes(&state, &outcome).await?;
    } else if made.len() != outcome.outcomes.len() {
        // The read model is late: answer with ids and txids, the links work once it catches up.
        made = outcome
            .outcomes
            .iter()
            .zip(&txids)
            .map(|(made, txid)| late_code(&state, &made.stream_id, txid, batch_id, body.single_use))
            .collect();
    }
    let mut response = (
        StatusCode::CREATED,
        Json(BatchJson {
            batch_id: batch_id.to_string(),
            qrcodes: made,
        }),
    )
        .into_response();
    crate::api::idempotency::mark_replayed(&mut response, outcome.replayed);
    Ok(response)
}

/// The codes of a batch made by an earlier request with the same key, each from the read model
/// or its own stream ([`AppState::qrcode`]), in line order.
async fn replayed_codes(
    state: &AppState,
    outcome: &commands::BatchOutcome,
) -> Result<Vec<CodeJson>, ApiError> {
    let mut codes = Vec::with_capacity(outcome.outcomes.len());
    for made in &outcome.outcomes {
        let id = Uuid::parse_str(&made.stream_id)
            .map_err(|_| ApiError::internal(anyhow::anyhow!("a batch code's id is no uuid")))?;
        let view = state
            .qrcode(id)
            .await
            .map_err(|error| ApiError::internal(anyhow::anyhow!("{error}")))?
            .ok_or_else(|| ApiError::internal(anyhow::anyhow!("a batch code is not in the log")))?;
        codes.push(CodeJson::from_view(state, view));
    }
    Ok(codes)
}

/// A batch's code when the read model has not caught up: what the command fixed.
fn late_code(state: &AppState, id: &str, txid: &str, batch_id: Uuid, single_use: bool) -> CodeJson {
    CodeJson {
        payment_url: super::json::payment_url(state, id),
        id: id.to_owned(),
        key_kind: "",
        pix_key: String::new(),
        key_id: None,
        merchant_name: String::new(),
        merchant_city: String::new(),
        amount_centavos: None,
        description: None,
        txid: txid.to_owned(),
        payload: String::new(),
        created_at: super::json::rfc3339(chrono::Utc::now()),
        created_by: None,
        batch_id: Some(batch_id.to_string()),
        duplicate_of: None,
        archived_at: None,
        version: 1,
        single_use,
        paid_at: None,
        charge_expires_at: None,
        qr_svg: None,
    }
}

/// `POST /api/accounts/{accountId}/qrcodes/{id}/duplicar`: a new code with the same key,
/// receiver, amount and description, and a new txid. With an `Idempotency-Key`, a retry answers
/// the first copy; the same key on another code is 409 `idempotency-key-reused`.
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
    let key = crate::api::idempotency::key(&workspace, &headers, "painel-qrcode-copia")?;
    let original = code_of(&state, &workspace, &id).await?;
    let key_kind = original.key_kind.as_str();
    let form = domain::brcode::StaticCodeForm {
        key: original.pix_key.clone(),
        key_kind: key_kind.to_owned(),
        merchant_name: original.merchant_name.clone(),
        merchant_city: original.merchant_city.clone(),
        ..domain::brcode::StaticCodeForm::default()
    };
    let shared = super::input::Shared {
        key_id: original.key_id,
        form,
    };
    let amount = original
        .amount_centavos
        .and_then(|c| u64::try_from(c).ok())
        .map(|c| domain::money::Centavos::new(c).to_string());
    let mut problems = Vec::new();
    let txid = fresh_txid();
    let (_, request) = one_code(
        &shared,
        amount.as_deref(),
        original.description.as_deref(),
        &txid,
        None,
        &mut problems,
    );
    let Some(mut request) = request.filter(|_| problems.is_empty()) else {
        return Ok(invalid(&problems));
    };
    // A copy of a code for one sale is for another sale: single-use too, and unpaid.
    request.single_use = original.single_use;
    let qrcode_id = crate::api::idempotency::id_for(&QRCODE_ID_NAMESPACE, key.as_ref());
    let requested_at = crate::auth::accounts::now();
    let create = CreateAccountQrCode {
        qrcode_id: qrcode_id.to_string(),
        owner_id: workspace.account_id().to_owned(),
        created_by: workspace.caller_id().to_owned(),
        key_id: original.key_id.map(|k| k.to_string()),
        batch_id: None,
        duplicate_of: Some(original.qrcode_id.to_string()),
        request,
        requested_at: requested_at.clone(),
    };
    let turn = crate::billing::usage::turn(workspace.account_uuid()).await?;
    // Issue 12: the plan's QR codes per month, counted and checked by the command itself.
    // The request is the code copied: its values and the drawn txid are the copy's own.
    let copied = RequestDigest::of(original.qrcode_id.as_bytes());
    let created = make_code(&state, &workspace, create, false, |_| {
        let metadata = CommandMetadata::start().by(workspace.caller_id().to_owned());
        match &key {
            Some(key) => metadata
                .with_idempotency_key(key.clone())
                .with_request_digest(copied),
            None => metadata,
        }
    })
    .await?;
    // Counted: the account's next creation in this process may go (the turn is not kept while
    // the read model catches up).
    drop(turn);
    let mut json = answer(
        &state,
        &workspace,
        qrcode_id,
        &created,
        &shared,
        &requested_at,
        true,
    )
    .await?;
    json.duplicate_of = Some(original.qrcode_id.to_string());
    let mut response = (StatusCode::CREATED, Json(json)).into_response();
    crate::api::idempotency::mark_replayed(&mut response, created.replayed);
    Ok(response)
}
