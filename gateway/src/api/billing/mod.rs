//! Plans and the account's subscription: see the plans, upgrade (a Pix charge through the
//! billing provider), follow the charge, cancel; the provider's webhook is in [`webhook`].
//!
//! | route | who | answer |
//! |---|---|---|
//! | `GET /api/plans` | anyone | 200 `{plans: [...]}`: id, name, `priceCentavos`, period, limits |
//! | `GET /api/accounts/{accountId}/subscription` | owner ([`Right::ManageSettings`]) | 200 the plan in force, the period, usage against each limit, the charges |
//! | `POST /api/accounts/{accountId}/subscription/upgrade` | owner | 201 `{chargeId, checkoutUrl}` (200 with the open charge when one of that plan is still payable, or with the first answer of a repeated `Idempotency-Key`, marked `Idempotent-Replayed: true`; 409 `idempotency-key-reused` for the key with other values); 422 `invalid-argument` naming `plan`, `payerName` or `document`; 409 `already-premium`; 503 `unavailable` when no provider is configured or it does not answer |
//! | `GET /api/accounts/{accountId}/subscription/charges/{chargeId}` | owner | 200 the charge: Pix code and its QR (SVG), status, expiry, and the plan in force |
//! | `POST /api/accounts/{accountId}/subscription/charges/{chargeId}/simulate` | owner, sandbox provider only (404 otherwise) | 200 the charge, paid ("Simular pagamento") |
//! | `POST /api/accounts/{accountId}/subscription/cancel` | owner | 200 the subscription, ending at the end of the period (its open renewal charge deleted at the provider, or left to the sweep when the provider does not answer; `notice` when the renewal had been paid first and Premium runs to the end of that period); 409 `not-premium`, `subscription-already-cancelled` |
//! | `GET /api/accounts/{accountId}/subscription/charges/{chargeId}/events` | owner | server-sent events `cobranca` `{status}` (`crate::live`) |
//!
//! Managers and operators get 403 `forbidden`; anyone outside the account 404 `not-found`.

pub mod webhook;

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Duration, Utc};
use commands::{CommandError, LoadedOrReplayed, RequestDigest};
use domain::money::Centavos;
use domain::pix_key::{PixKey, PixKeyKind};
use domain::subscription::limits::Usage;
use domain::subscription::plans::{Limits, PLANS, Plan, PlanId};
use domain::subscription::{
    CancelSubscription, ChargeStatus, NewCharge, SubscriptionCommand, SubscriptionError,
    UpgradePlan,
};
use domain::team::Right;
use projections::subscriptions::{self, ChargeView};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::api::access::{Workspace, projection_error};
use crate::api::json::Json;
use crate::api::qrcodes::json::{qr_svg, rfc3339};
use crate::auth::accounts::now;
use crate::billing::provider::{ChargeRequest, Payer, ProviderError};
use crate::billing::{
    News, Provider, Settled, Withdrawn, settle, subscription_of, usage, withdraw,
};
use crate::error::ApiError;
use crate::read_your_writes::wait_for;
use crate::state::AppState;

/// The most charges the subscription shows.
pub const MAX_CHARGES: i64 = 24;

/// A plan as the API shows it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlanJson {
    id: &'static str,
    name: &'static str,
    price_centavos: u64,
    /// `free`, `month` or `year`.
    period: &'static str,
    limits: Limits,
}

fn plan_json(plan: &Plan) -> PlanJson {
    PlanJson {
        id: plan.id.as_str(),
        name: plan.name,
        price_centavos: plan.price.get(),
        period: match plan.period {
            domain::subscription::plans::Period::Free => "free",
            domain::subscription::plans::Period::Month => "month",
            domain::subscription::plans::Period::Year => "year",
        },
        limits: plan.limits,
    }
}

/// `GET /api/plans`.
pub async fn plans() -> Json<serde_json::Value> {
    Json(serde_json::json!({ "plans": PLANS.iter().map(plan_json).collect::<Vec<_>>() }))
}

/// A charge as the API shows it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ChargeJson {
    id: String,
    plan: String,
    renewal: bool,
    amount_centavos: i64,
    provider: String,
    /// `open`, `overdue`, `paid`, `deleted`, `refunded` or `cancelled`.
    status: String,
    /// Whether its Pix can no longer be paid (expired, or closed).
    expired: bool,
    pix_payload: String,
    qr_svg: Option<String>,
    expires_at: String,
    created_at: String,
    paid_at: Option<String>,
    period_until: Option<String>,
    checkout_url: String,
}

fn charge_json(view: ChargeView) -> ChargeJson {
    let payable = matches!(view.status.as_str(), "open" | "overdue");
    let expired = !payable || view.expires_at <= Utc::now();
    ChargeJson {
        id: view.charge_id.to_string(),
        checkout_url: format!("/pagar_asaas?cobranca={}", view.charge_id),
        plan: view.plan,
        renewal: view.renewal,
        amount_centavos: view.amount_centavos,
        provider: view.provider,
        // The QR is drawn only while it can be paid.
        qr_svg: if payable && !expired {
            qr_svg(&view.pix_payload)
        } else {
            None
        },
        pix_payload: view.pix_payload,
        status: view.status,
        expired,
        expires_at: rfc3339(view.expires_at),
        created_at: rfc3339(view.created_at),
        paid_at: view.paid_at.map(rfc3339),
        period_until: view.period_until.map(rfc3339),
    }
}

/// The account's subscription.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SubscriptionJson {
    /// The plan in force now.
    plan: PlanJson,
    /// `gratis`, `checkout`, `active`, `cancelling` or `expired`.
    status: String,
    /// The end of the period paid for (Premium until then).
    active_until: Option<String>,
    /// From when the renewal charge is made (when Premium is on and not cancelled).
    renewal_from: Option<String>,
    /// Usage against each limit of the plan in force.
    usage: UsageJson,
    /// Whether "Simular pagamento" is offered (the sandbox provider).
    sandbox: bool,
    /// Newest first.
    charges: Vec<ChargeJson>,
    /// Something the owner should know about what was just done (pt-BR), e.g. a cancellation
    /// whose renewal had already been paid.
    #[serde(skip_serializing_if = "Option::is_none")]
    notice: Option<String>,
}

/// What the account has.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UsageJson {
    pix_keys: u32,
    qrcodes_this_month: u32,
    extra_accounts: u32,
    api_pix_endpoints: u32,
}

fn usage_json(usage: Usage) -> UsageJson {
    UsageJson {
        pix_keys: usage.pix_keys,
        qrcodes_this_month: usage.qrcodes_this_month,
        extra_accounts: usage.extra_accounts,
        api_pix_endpoints: usage.api_pix_endpoints,
    }
}

async fn subscription_json(
    state: &AppState,
    workspace: &Workspace,
) -> Result<SubscriptionJson, ApiError> {
    let subscription = subscription_of(&state.billing, workspace.account_id()).await?;
    let now = Utc::now();
    let plan = subscription.plan_at(now);
    let until = subscription
        .active_until
        .as_deref()
        .and_then(|t| DateTime::parse_from_rfc3339(t).ok())
        .map(|t| t.with_timezone(&Utc));
    let status = if plan.is_premium() {
        if subscription.cancelled {
            "cancelling"
        } else {
            "active"
        }
    } else if subscription.charges.is_empty() {
        "gratis"
    } else if subscription.premium || subscription.active_until.is_some() {
        "expired"
    } else {
        "checkout"
    };
    let charges = subscriptions::charges_of(&state.pool, workspace.account_uuid(), MAX_CHARGES)
        .await
        .map_err(projection_error)?;
    Ok(SubscriptionJson {
        plan: plan_json(plan.plan()),
        status: status.to_owned(),
        active_until: if plan.is_premium() {
            until.map(rfc3339)
        } else {
            None
        },
        renewal_from: match until {
            Some(until) if plan.is_premium() && !subscription.cancelled => Some(rfc3339(
                until - Duration::days(domain::subscription::RENEWAL_NOTICE_DAYS),
            )),
            _ => None,
        },
        usage: usage_json(
            usage::all(
                state.accounts.store(),
                &state.pool,
                workspace.account_uuid(),
            )
            .await?,
        ),
        sandbox: matches!(state.billing.provider, Provider::Sandbox),
        charges: charges.into_iter().map(charge_json).collect(),
        notice: None,
    })
}

/// `GET /api/accounts/{accountId}/subscription`.
///
/// # Errors
///
/// As the module table says.
pub async fn show(
    State(state): State<AppState>,
    workspace: Workspace,
) -> Result<Json<SubscriptionJson>, ApiError> {
    workspace.require(Right::ManageSettings)?;
    Ok(Json(subscription_json(&state, &workspace).await?))
}

/// `POST …/subscription/upgrade` body.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UpgradeBody {
    /// `premium-mensal` or `premium-anual`.
    #[serde(default)]
    pub plan: String,
    /// The name on the charge.
    #[serde(default)]
    pub payer_name: String,
    /// CPF or CNPJ, as typed.
    #[serde(default)]
    pub document: String,
}

/// The CPF or CNPJ typed, as digits, when its check digits hold.
fn document(typed: &str) -> Result<String, ApiError> {
    let digits: String = typed.chars().filter(char::is_ascii_digit).collect();
    let kind = match digits.len() {
        11 => PixKeyKind::Cpf,
        14 => PixKeyKind::Cnpj,
        _ => {
            return Err(ApiError::invalid_argument(
                "document",
                "Informe o CPF (11 dígitos) ou o CNPJ (14 dígitos) de quem paga.",
            ));
        }
    };
    PixKey::parse_as(kind, &digits)
        .map(|_| digits)
        .map_err(|_| ApiError::invalid_argument("document", "Este CPF ou CNPJ não é válido."))
}

fn provider_failure(error: ProviderError) -> ApiError {
    match error {
        ProviderError::Refused(message) => ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "provider-refused",
            format!("O provedor de pagamentos recusou a cobrança: {message}"),
        ),
        other => ApiError::unavailable(anyhow::anyhow!(other.to_string())),
    }
}

/// Namespace of the charge ids derived from idempotency keys (a fixed, random UUID of
/// Balcão's own): a retried upgrade names the charge its first attempt opened.
const CHARGE_ID_NAMESPACE: Uuid = Uuid::from_u128(0x3b8e_0c57_91d4_4f2a_a6e1_58c2_d07f_9e34);

/// The answer naming a checkout: 201 for the one just opened, 200 for one opened before.
fn checkout(status: StatusCode, charge_id: &str, replayed: bool) -> Response {
    let mut response = (
        status,
        Json(serde_json::json!({
            "chargeId": charge_id,
            "checkoutUrl": format!("/pagar_asaas?cobranca={charge_id}"),
        })),
    )
        .into_response();
    crate::api::idempotency::mark_replayed(&mut response, replayed);
    response
}

/// Deletes at the provider a charge that lost to another request for the same purchase, so
/// nobody can pay twice; nobody was shown its code, so a failure here costs nothing but a
/// stray charge at the provider (logged to be removed by hand).
async fn withdraw_stray(state: &AppState, provider_payment_id: &str) {
    if let Err(error) = state.billing.provider.delete(provider_payment_id).await {
        tracing::warn!(
            provider_payment_id,
            %error,
            "could not delete a duplicate upgrade charge at the provider; delete it there"
        );
    }
}

/// `POST /api/accounts/{accountId}/subscription/upgrade`.
///
/// One purchase opens one charge at the provider however often it is asked for. The
/// subscription's own stream decides, never a read model: a request whose `Idempotency-Key`
/// was recorded is answered its first charge (`Idempotent-Replayed: true`; 409
/// `idempotency-key-reused` with other values) without calling the provider; a checkout of the
/// plan still payable is answered 200 (a second click, another tab); and when two requests
/// race past that look, the aggregate accepts one ([`SubscriptionError::CheckoutAlreadyOpen`]
/// for the other), whose provider charge is then deleted and the winner's answered.
///
/// # Errors
///
/// As the module table says.
pub async fn upgrade(
    State(state): State<AppState>,
    workspace: Workspace,
    headers: HeaderMap,
    Json(body): Json<UpgradeBody>,
) -> Result<Response, ApiError> {
    workspace.require(Right::ManageSettings)?;
    let plan = PlanId::parse(body.plan.trim())
        .filter(|p| p.is_premium())
        .ok_or_else(|| {
            ApiError::invalid_argument("plan", "Escolha o Premium mensal ou o Premium anual.")
        })?;
    let payer_name = body.payer_name.trim();
    if payer_name.chars().count() < 3 {
        return Err(ApiError::invalid_argument(
            "payerName",
            "Informe o nome de quem paga.",
        ));
    }
    let document = document(&body.document)?;
    if matches!(state.billing.provider, Provider::Off) {
        return Err(ApiError::unavailable(anyhow::anyhow!(
            "no billing provider: set BALCAO_ASAAS_API_KEY or BALCAO_SANDBOX_PAYMENTS"
        )));
    }
    let key = crate::api::idempotency::key(&workspace, &headers, "painel-assinatura")?;
    let mut metadata = commands::CommandMetadata::start().by(workspace.caller_id().to_owned());
    if let Some(key) = &key {
        let asked = format!("{}\n{payer_name}\n{document}", plan.as_str());
        metadata = metadata
            .with_idempotency_key(key.clone())
            .with_request_digest(RequestDigest::of(asked.as_bytes()));
    }
    let charge_id = crate::api::idempotency::id_for(&CHARGE_ID_NAMESPACE, key.as_ref());
    let subscription = match state
        .billing
        .commands
        .load_unless_recorded(workspace.account_id(), &metadata)
        .await
        .map_err(ApiError::from)?
    {
        LoadedOrReplayed::Replayed(_) => {
            return Ok(checkout(StatusCode::OK, &charge_id.to_string(), true));
        }
        LoadedOrReplayed::Loaded(loaded) => loaded.aggregate,
    };
    // The aggregate would refuse an account already Premium; asking before the provider
    // keeps a charge from being opened for nothing.
    if let Some(until) = subscription
        .active_until
        .clone()
        .filter(|_| subscription.plan_at(Utc::now()).is_premium())
    {
        return Err(ApiError::from(CommandError::Rejected(
            SubscriptionError::AlreadyPremium { until },
        )));
    }
    if let Some(open) = subscription.open_checkout(plan, Utc::now()) {
        return Ok(checkout(StatusCode::OK, &open.charge_id, false));
    }
    let price: Centavos = plan.plan().price;
    let request = ChargeRequest {
        charge_id: charge_id.to_string(),
        account_id: workspace.account_id().to_owned(),
        amount: price,
        description: format!("Balcão {}", plan.plan().name),
        due_date: (Utc::now() - Duration::hours(3)).date_naive(),
        payer: Some(Payer {
            name: payer_name.to_owned(),
            document,
            email: None,
        }),
        customer: None,
    };
    let opened = state
        .billing
        .provider
        .open(&request)
        .await
        .map_err(provider_failure)?;
    let provider_payment_id = opened.provider_payment_id.clone();
    let command = SubscriptionCommand::UpgradePlan(UpgradePlan {
        account_id: workspace.account_id().to_owned(),
        plan,
        charge: NewCharge {
            charge_id: charge_id.to_string(),
            provider: state.billing.provider.name().to_owned(),
            provider_payment_id: opened.provider_payment_id,
            amount_centavos: price.get(),
            pix_payload: opened.pix_payload,
            expires_at: rfc3339(opened.expires_at),
            customer: opened.customer,
        },
        by: workspace.caller_id().to_owned(),
        at: now(),
    });
    let executed = state
        .billing
        .commands
        .execute(workspace.account_id(), command, metadata)
        .await;
    match executed {
        Ok(outcome) if outcome.replayed => {
            // The same key's other request recorded its charge first: that is the one to pay.
            withdraw_stray(&state, &provider_payment_id).await;
            Ok(checkout(StatusCode::OK, &charge_id.to_string(), true))
        }
        Ok(outcome) => {
            wait_for(&state, subscriptions::NAME, outcome.position).await;
            Ok(checkout(StatusCode::CREATED, &charge_id.to_string(), false))
        }
        Err(CommandError::Rejected(SubscriptionError::CheckoutAlreadyOpen { charge_id })) => {
            withdraw_stray(&state, &provider_payment_id).await;
            Ok(checkout(StatusCode::OK, &charge_id, false))
        }
        Err(error @ CommandError::Rejected(_)) => {
            withdraw_stray(&state, &provider_payment_id).await;
            Err(ApiError::from(error))
        }
        // Anything else may have committed unseen (a connection lost after `commit`): the
        // charge stays at the provider, where a recorded checkout needs it.
        Err(error) => Err(ApiError::from(error)),
    }
}

/// The account's charge `id`, or 404.
async fn own_charge(
    state: &AppState,
    workspace: &Workspace,
    id: &str,
) -> Result<ChargeView, ApiError> {
    let charge_id = Uuid::parse_str(id).map_err(|_| ApiError::not_found())?;
    subscriptions::charge(&state.pool, charge_id)
        .await
        .map_err(projection_error)?
        .filter(|c| c.account_id == workspace.account_uuid())
        .ok_or_else(ApiError::not_found)
}

/// A charge and the plan in force.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ChargeAnswer {
    charge: ChargeJson,
    /// The plan in force now.
    plan: PlanJson,
    /// Whether "Simular pagamento" is offered.
    sandbox: bool,
}

async fn charge_answer(
    state: &AppState,
    workspace: &Workspace,
    view: ChargeView,
) -> Result<ChargeAnswer, ApiError> {
    let plan = crate::billing::plan_of(&state.billing, workspace.account_id()).await?;
    Ok(ChargeAnswer {
        charge: charge_json(view),
        plan: plan_json(plan.plan()),
        sandbox: matches!(state.billing.provider, Provider::Sandbox),
    })
}

/// `GET /api/accounts/{accountId}/subscription/charges/{chargeId}`.
///
/// # Errors
///
/// As the module table says.
pub async fn charge(
    State(state): State<AppState>,
    workspace: Workspace,
    Path((_, id)): Path<(String, String)>,
) -> Result<Json<ChargeAnswer>, ApiError> {
    workspace.require(Right::ManageSettings)?;
    let view = own_charge(&state, &workspace, &id).await?;
    Ok(Json(charge_answer(&state, &workspace, view).await?))
}

/// `POST /api/accounts/{accountId}/subscription/charges/{chargeId}/simulate`: the sandbox's
/// "Simular pagamento", through the same [`settle`] an Asaas payment takes.
///
/// # Errors
///
/// As the module table says.
pub async fn simulate(
    State(state): State<AppState>,
    workspace: Workspace,
    Path((_, id)): Path<(String, String)>,
) -> Result<Json<ChargeAnswer>, ApiError> {
    workspace.require(Right::ManageSettings)?;
    let view = own_charge(&state, &workspace, &id).await?;
    if !matches!(state.billing.provider, Provider::Sandbox) || view.provider != "sandbox" {
        return Err(ApiError::not_found());
    }
    let news = News::Paid {
        amount_centavos: u64::try_from(view.amount_centavos).unwrap_or_default(),
        at: now(),
    };
    let settled = settle(
        &state.billing,
        workspace.account_uuid(),
        &view.provider_payment_id,
        news,
    )
    .await
    .map_err(ApiError::from)?;
    if let Settled::Recorded(outcome) = settled {
        wait_for(&state, subscriptions::NAME, outcome.position).await;
    }
    let view = own_charge(&state, &workspace, &id).await?;
    Ok(Json(charge_answer(&state, &workspace, view).await?))
}

/// `POST /api/accounts/{accountId}/subscription/cancel`.
///
/// The cancellation is recorded first (with the open renewal charge called off); then that
/// charge is deleted at the provider so nobody can pay it (`DELETE /v3/payments/{id}` at Asaas).
/// When the provider does not answer, the answer is still 200: the charge stays `cancelled` and
/// the renewals sweep deletes it on its next pass. When it was paid first, the payment is recorded
/// (the period it paid for is honoured), the cancellation applies at that period's end, and
/// `notice` says so.
///
/// # Errors
///
/// As the module table says.
pub async fn cancel(
    State(state): State<AppState>,
    workspace: Workspace,
) -> Result<Json<SubscriptionJson>, ApiError> {
    workspace.require(Right::ManageSettings)?;
    let command = SubscriptionCommand::CancelSubscription(CancelSubscription {
        by: workspace.caller_id().to_owned(),
        at: now(),
    });
    let mut outcome = state
        .billing
        .commands
        .execute(
            workspace.account_id(),
            command,
            commands::CommandMetadata::start().by(workspace.caller_id().to_owned()),
        )
        .await
        .map_err(ApiError::from)?;
    let mut notice = None;
    let called_off: Vec<String> = subscription_of(&state.billing, workspace.account_id())
        .await?
        .charges
        .into_iter()
        .filter(|c| c.status == ChargeStatus::Cancelled)
        .map(|c| c.provider_payment_id)
        .collect();
    for payment in called_off {
        match withdraw(&state.billing, workspace.account_uuid(), &payment).await {
            Ok(Withdrawn::Deleted(settled)) => {
                if let Settled::Recorded(recorded) = settled {
                    outcome = recorded;
                }
            }
            Ok(Withdrawn::AlreadyPaid(settled)) => {
                if let Settled::Recorded(recorded) = settled {
                    outcome = recorded;
                }
                let until = subscription_of(&state.billing, workspace.account_id())
                    .await?
                    .active_until
                    .as_deref()
                    .and_then(|t| DateTime::parse_from_rfc3339(t).ok())
                    // São Paulo's date (UTC−3, no daylight saving since 2019).
                    .map(|t| {
                        (t.with_timezone(&Utc) - Duration::hours(3))
                            .format("%d/%m/%Y")
                            .to_string()
                    });
                notice = Some(format!(
                    "A renovação já tinha sido paga antes do cancelamento: o Premium continua até {} e termina nessa data, sem nova cobrança.",
                    until.unwrap_or_else(|| "o fim do período pago".to_owned())
                ));
            }
            Err(error) => tracing::warn!(
                %error,
                account = workspace.account_id(),
                "the renewal charge was not deleted at the provider; the sweep tries again"
            ),
        }
    }
    wait_for(&state, subscriptions::NAME, outcome.position).await;
    let mut answer = subscription_json(&state, &workspace).await?;
    answer.notice = notice;
    Ok(Json(answer))
}
