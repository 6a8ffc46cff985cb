//! Charges through the connected bank (issue 33, `cob`): `POST …/qrcodes/cobrancas` asks the bank
//! that holds one of the account's keys for an immediate charge and records its dynamic code.
//!
//! | call | who | answer |
//! |---|---|---|
//! | `POST …/qrcodes/cobrancas` `{keyId, amount, description?, expiresInMinutes, merchantName?, merchantCity?}` (`Idempotency-Key` honoured) | every role ([`Right::CreateQrCodes`]) | 201 the code (`chargeExpiresAt` set, `singleUse`); 409 `bank-not-connected` (the key has no connected bank); 422 naming `keyId`, `amount`, `description` or `expiresInMinutes`, or the bank's refusal (`bank-…`, as connecting answers it); 502/504 when the bank failed or did not answer |
//!
//! The bank is asked first and the code recorded after its answer: a charge the bank refused is
//! never shown as a code. The code's id and the charge's txid derive from the `Idempotency-Key`,
//! so a retry (after a lost answer, a crash between the bank's answer and the record, a 5xx)
//! names the same charge: the bank revises it or, refusing a txid it has, is read back
//! (`GET /cob/{txid}`), and the code is recorded once. A charge the bank made whose code was
//! never recorded (the person gave up) expires at the bank unseen; a payment to it would still be
//! recorded (by its txid, unmatched), never lost.
//!
//! Metric: [`CHARGES_TOTAL`] (`balcao_bank_charges_total{outcome}`).
//!
//! Decided from the log: the key's connection comes from its bank-connection stream and the
//! account's sealed credentials, never from a read model.

use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use commands::{CommandError, CommandMetadata, LoadedOrReplayed, RequestDigest};
use domain::bank_connection::BankConnection;
use domain::money::Centavos;
use domain::qrcode::{
    CHARGE_MAX_SECONDS, CHARGE_MIN_SECONDS, ChargeTerms, CreateAccountQrCode, CreateBankCharge,
    DueDateTerms,
};
use domain::team::Right;
use serde::Deserialize;
use uuid::Uuid;

use super::create::WithQr;
use super::due_date::{DueDateBody, ParsedDueDate};
use super::input::{invalid, one_code, shared};
use super::json::{CodeBody, CodeJson, FieldProblem};
use crate::api::access::Workspace;
use crate::api::json::Json;
use crate::bank::{BankError, ChargeRequest, ChargeRequestTerms, DueDateRequest};
use crate::billing::kept_plans::PlanReadings;
use crate::error::ApiError;
use crate::read_your_writes::wait_for;
use crate::state::AppState;

/// Charges asked of banks, by outcome: `created` (the bank answered a location), `refused` (the
/// bank said no: wrong key, scope missing…), `failed` (down, slow, unreadable).
pub const CHARGES_TOTAL: &str = "balcao_bank_charges_total";

/// Namespace of the charge codes' ids derived from idempotency keys (a fixed, random UUID of its
/// own: a charge and a static code sent with the same key are two things).
const CHARGE_ID_NAMESPACE: Uuid = Uuid::from_u128(0x6f2d_91c4_0a5e_4b37_8e16_d3a9_27c5_b480);

/// The longest `solicitacaoPagador` the API Pix takes.
const MAX_PAYER_MESSAGE: usize = domain::qrcode::CHARGE_MESSAGE_MAX_CHARS;

/// `POST` body of a charge.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NewCharge {
    /// The registered key whose connected bank makes the charge.
    #[serde(default)]
    pub key_id: String,
    /// The amount in pt-BR (`"45,90"`).
    #[serde(default)]
    pub amount: String,
    /// What the payer reads in their bank app (`solicitacaoPagador`).
    #[serde(default)]
    pub description: Option<String>,
    /// How long the code may be paid, in minutes (1 to 10080, a week).
    #[serde(default)]
    pub expires_in_minutes: Option<i64>,
    /// The receiver's name in the code; blank: the account's default, else the key's holder.
    #[serde(default)]
    pub merchant_name: String,
    /// The city in the code; blank: the account's default.
    #[serde(default)]
    pub merchant_city: String,
    /// With a `dueDate`, a due-date charge (`cobv`) and its terms; `expiresInMinutes` is then
    /// not read.
    #[serde(flatten)]
    pub due: DueDateBody,
}

fn not_connected() -> ApiError {
    ApiError::new(
        StatusCode::CONFLICT,
        "bank-not-connected",
        "Esta chave Pix não tem banco conectado. Conecte o banco em Chaves → Conectar banco para criar cobranças com validade.",
    )
}

/// The bank's failure as this route answers it: the status connecting answers it with
/// ([`crate::api::bank_connections::bank_status`]), the charge's own words first.
fn bank_failure(error: &BankError) -> ApiError {
    ApiError::new(
        crate::api::bank_connections::bank_status(error),
        error.code(),
        format!("O banco não criou a cobrança. {error}"),
    )
}

/// The values of a charge, checked at the edge: every problem at once.
struct Checked {
    amount: Centavos,
    description: Option<String>,
    terms: Terms,
}

/// Immediate (seconds of validity) or with a due date.
enum Terms {
    Immediate(u32),
    DueDate(ParsedDueDate),
}

fn check(
    body: &NewCharge,
    today: chrono::NaiveDate,
    problems: &mut Vec<FieldProblem>,
) -> Option<Checked> {
    let amount = match Centavos::parse_br(body.amount.trim()) {
        Ok(amount) if amount.get() > 0 => Some(amount),
        Ok(_) => {
            problems.push(FieldProblem::new(
                "amount",
                "Informe um valor maior que zero.".to_owned(),
            ));
            None
        }
        Err(error) => {
            problems.push(FieldProblem::new("amount", error.to_string()));
            None
        }
    };
    let description = body
        .description
        .as_deref()
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(str::to_owned);
    if description
        .as_deref()
        .is_some_and(|d| d.chars().count() > MAX_PAYER_MESSAGE)
    {
        problems.push(FieldProblem::new(
            "description",
            format!("A mensagem para quem paga tem no máximo {MAX_PAYER_MESSAGE} caracteres."),
        ));
    }
    let terms = if super::due_date::asked(&body.due) {
        let amount = amount.map(Centavos::get);
        super::due_date::parse(&body.due, today, amount, problems).map(Terms::DueDate)
    } else {
        let minutes = i64::from(CHARGE_MIN_SECONDS / 60)..=i64::from(CHARGE_MAX_SECONDS / 60);
        match body.expires_in_minutes {
            Some(m) if minutes.contains(&m) => u32::try_from(m * 60).ok().map(Terms::Immediate),
            _ => {
                problems.push(FieldProblem::new(
                    "expiresInMinutes",
                    "A validade da cobrança vai de 1 minuto a 7 dias.".to_owned(),
                ));
                None
            }
        }
    };
    let (Some(amount), Some(terms)) = (amount, terms) else {
        return None;
    };
    problems.is_empty().then_some(Checked {
        amount,
        description,
        terms,
    })
}

/// `POST /api/accounts/{accountId}/qrcodes/cobrancas`.
///
/// # Errors
///
/// As the module table says.
pub async fn create(
    State(state): State<AppState>,
    workspace: Workspace,
    Query(with_qr): Query<WithQr>,
    headers: HeaderMap,
    Json(body): Json<NewCharge>,
) -> Result<Response, ApiError> {
    workspace.require(Right::CreateQrCodes)?;
    let mut problems = Vec::new();
    // The name and city the account's settings suggest, where the request leaves them blank (as
    // the dashboard's code form starts with them).
    let defaults = projections::accounts::find(&state.pool, workspace.account_uuid())
        .await
        .map_err(crate::api::access::projection_error)?;
    let or_default = |typed: &str, default: Option<String>| {
        if typed.trim().is_empty() {
            default.unwrap_or_default()
        } else {
            typed.to_owned()
        }
    };
    let (default_name, default_city) = defaults
        .map(|a| (a.default_merchant_name, a.default_merchant_city))
        .unwrap_or_default();
    let code_body = CodeBody {
        key_id: Some(body.key_id.clone()),
        merchant_name: or_default(&body.merchant_name, default_name),
        merchant_city: or_default(&body.merchant_city, default_city),
        ..CodeBody::default()
    };
    let shared = shared(&state, workspace.account_uuid(), &code_body, &mut problems).await?;
    let today = state
        .clock
        .now()
        .with_timezone(&crate::api::payment_links::brasilia())
        .date_naive();
    let checked = check(&body, today, &mut problems);
    // The receiver's name and city, the key: as a static code checks them (the amount too).
    let amount_text = checked
        .as_ref()
        .map(|c| c.amount.to_emv().replace('.', ","));
    let (_, request) = one_code(
        &shared,
        amount_text.as_deref(),
        None,
        "A",
        None,
        &mut problems,
    );
    let (Some(checked), Some(mut request), true) = (checked, request, problems.is_empty()) else {
        return Ok(invalid(&problems));
    };
    let Some(key_id) = shared.key_id else {
        return Ok(invalid(&problems));
    };
    let account = workspace.account_uuid();
    let connected = connection(&state, account, key_id).await?;
    let credentials = commands::bank_credentials::load_opened(&state.pool, account, key_id)
        .await
        .map_err(|error| {
            ApiError::internal(anyhow::anyhow!("opening bank credentials: {error}"))
        })?;
    let (Some(pix_key), Some(credentials)) = (connected, credentials) else {
        return Err(not_connected());
    };
    let key = crate::api::idempotency::key(&workspace, &headers, "painel-cobranca")?;
    let qrcode_id = crate::api::idempotency::id_for(&CHARGE_ID_NAMESPACE, key.as_ref());
    let txid = qrcode_id.simple().to_string();
    let requested_at = crate::auth::accounts::now();
    request.txid = Some(txid.clone());
    request.additional_info = checked.description.clone();
    let digest = RequestDigest::of(
        format!(
            "charge\n{key_id}\n{}\n{}\n{}",
            checked.amount.get(),
            terms_text(&checked.terms),
            checked.description.as_deref().unwrap_or_default()
        )
        .as_bytes(),
    );
    let metadata = {
        let metadata = CommandMetadata::start().by(workspace.caller_id().to_owned());
        match &key {
            Some(key) => metadata
                .with_idempotency_key(key.clone())
                .with_request_digest(digest),
            None => metadata,
        }
    };
    // A repeat of a recorded charge is answered from the record, without calling the bank; the
    // key sent before with other values is refused before the bank hears of it.
    match state
        .qrcodes
        .load_unless_recorded(&qrcode_id.to_string(), &metadata)
        .await
    {
        Ok(LoadedOrReplayed::Loaded(_)) => {}
        Ok(LoadedOrReplayed::Replayed(_)) => {
            let view = state
                .qrcode(qrcode_id)
                .await
                .map_err(crate::api::access::projection_error)?
                .ok_or_else(|| {
                    ApiError::internal(anyhow::anyhow!("a recorded charge has no code"))
                })?;
            return answered(&state, view, with_qr.wants_svg(), true);
        }
        Err(
            CommandError::IdempotencyKeyConflict { .. } | CommandError::IdempotencyKeyReused { .. },
        ) => {
            return Err(ApiError::from(CommandError::Rejected(
                domain::qrcode::QrCodeError::IdempotencyKeyReused,
            )));
        }
        Err(other) => return Err(ApiError::from(other)),
    }
    // Sealed before the bank hears of it: nothing that can fail here comes after the bank's yes.
    let terms = sealed_terms(&state, workspace.account_id(), &checked.terms).await?;
    let client = crate::bank::client_for(&state.payments.banks, &state.clock, &credentials)
        .map_err(|error| bank_failure(&error))?;
    let report = client
        .put_charge(&ChargeRequest {
            txid: &txid,
            chave: &pix_key,
            amount: checked.amount,
            terms: bank_terms(&checked.terms),
            payer_message: checked.description.as_deref(),
        })
        .await
        .map_err(|error| {
            let failure = bank_failure(&error);
            let outcome = if failure.status() == StatusCode::UNPROCESSABLE_ENTITY {
                "refused"
            } else {
                "failed"
            };
            metrics::counter!(CHARGES_TOTAL, "outcome" => outcome).increment(1);
            failure
        })?;
    metrics::counter!(CHARGES_TOTAL, "outcome" => "created").increment(1);
    let charge = CreateBankCharge {
        create: CreateAccountQrCode {
            qrcode_id: qrcode_id.to_string(),
            owner_id: workspace.account_id().to_owned(),
            created_by: workspace.caller_id().to_owned(),
            key_id: Some(key_id.to_string()),
            batch_id: None,
            duplicate_of: None,
            request,
            requested_at,
        },
        location: report.location,
        terms,
    };
    let turn = crate::billing::usage::turn(account).await?;
    let created = record(&state, &workspace, charge, metadata).await?;
    drop(turn);
    wait_for(&state, projections::qrcodes::NAME, created.position).await;
    let view = state
        .qrcode(qrcode_id)
        .await
        .map_err(crate::api::access::projection_error)?
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("a recorded charge has no code")))?;
    answered(&state, view, with_qr.wants_svg(), created.replayed)
}

/// The terms as the digest of an idempotent request reads them.
fn terms_text(terms: &Terms) -> String {
    match terms {
        Terms::Immediate(seconds) => format!("cob {seconds}"),
        Terms::DueDate(due) => format!("cobv {due:?}"),
    }
}

/// The terms as the bank takes them.
fn bank_terms(terms: &Terms) -> ChargeRequestTerms<'_> {
    match terms {
        Terms::Immediate(seconds) => ChargeRequestTerms::Immediate {
            expires_in_seconds: *seconds,
        },
        Terms::DueDate(due) => ChargeRequestTerms::DueDate(DueDateRequest {
            due_date: &due.due_date,
            days_after_due: due.days_after_due,
            debtor_name: &due.debtor_name,
            debtor_document: &due.debtor_document,
            fine: due.fine,
            interest: due.interest,
            discount: due.discount.as_ref(),
            abatement: due.abatement,
        }),
    }
}

/// The terms as the event keeps them: the debtor sealed with the account's key.
async fn sealed_terms(
    state: &AppState,
    account_id: &str,
    terms: &Terms,
) -> Result<ChargeTerms, ApiError> {
    Ok(match terms {
        Terms::Immediate(expires_in_seconds) => ChargeTerms::Immediate {
            expires_in_seconds: *expires_in_seconds,
        },
        Terms::DueDate(due) => {
            let key = commands::vault::load_key(&state.pool, account_id)
                .await
                .map_err(|error| ApiError::internal(anyhow::Error::new(error)))?
                .ok_or_else(|| ApiError::internal(anyhow::anyhow!("the account has no key")))?;
            ChargeTerms::DueDate(DueDateTerms {
                due_date: due.due_date.clone(),
                days_after_due: due.days_after_due,
                debtor_name: key.seal(&due.debtor_name),
                debtor_document: key.seal(&due.debtor_document),
                fine: due.fine,
                interest: due.interest,
                discount: due.discount.clone(),
                abatement: due.abatement,
            })
        }
    })
}

/// The key's Pix key while its bank connection stands, from the connection's stream.
async fn connection(
    state: &AppState,
    account: Uuid,
    key_id: Uuid,
) -> Result<Option<String>, ApiError> {
    let loaded = crate::api::bank_connections::service(state)
        .load(&key_id.to_string())
        .await
        .map_err(ApiError::from)?;
    let BankConnection { connected, .. } = loaded.aggregate;
    Ok(connected
        .filter(|c| c.account_id == account.to_string())
        .map(|c| c.pix_key))
}

/// Records the charge with the plan as kept (read again when the subscription moved).
async fn record(
    state: &AppState,
    workspace: &Workspace,
    charge: CreateBankCharge,
    metadata: CommandMetadata,
) -> Result<commands::qrcodes::Created, ApiError> {
    let mut plans = PlanReadings::new(&state.billing, workspace.account_uuid());
    loop {
        let plan = plans.next().await?;
        let made = commands::qrcodes::record_bank_charge(
            &state.qrcodes,
            charge.clone(),
            plan,
            metadata.clone(),
        )
        .await;
        if let Some(created) = plans.settle(made)? {
            return Ok(created);
        }
    }
}

fn answered(
    state: &AppState,
    view: projections::qrcodes::QrCodeView,
    svg: bool,
    replayed: bool,
) -> Result<Response, ApiError> {
    let mut json = CodeJson::from_view(state, view);
    if svg {
        json.qr_svg = super::json::qr_svg(&json.payload);
    }
    let mut response = (StatusCode::CREATED, Json(json)).into_response();
    crate::api::idempotency::mark_replayed(&mut response, replayed);
    Ok(response)
}
