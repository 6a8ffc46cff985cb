//! Plans and billing: the provider port and its two adapters, the plan in force for an
//! account, the limits guard every limited handler calls, and settling a provider's news.
//!
//! - [`provider`]: the port; [`sandbox`] (default without an Asaas key) and [`asaas`].
//! - [`usage`]: what an account has, for the plan page (loaded from the same aggregates the
//!   commands decide on), and the in-process queue of an account's QR-code creations.
//! - [`allow_logo`]: the plan check of the one feature that counts nothing (the logo on signs);
//!   the counted limits are decided by their commands.
//! - [`kept_plans`]: the plans of accounts making QR codes, kept between requests and checked
//!   by the creation's own count.
//! - [`settle`]: a payment (or an overdue, refund, deletion) reported by the provider's webhook
//!   or by the sandbox's "Simular pagamento", as a command on the account's subscription.

pub mod asaas;
pub mod kept_plans;
pub mod provider;
pub mod renewals;
pub mod sandbox;
pub mod usage;

use chrono::Utc;
use commands::{CommandError, CommandOutcome, CommandService, PgEventStore};
use domain::subscription::limits::{self, LimitedAction, Usage};
use domain::subscription::plans::PlanId;
use domain::subscription::{
    ChargeChange, ConfirmChargePayment, RecordChargeChange, Subscription, SubscriptionCommand,
    SubscriptionError,
};
use sqlx::PgPool;
use uuid::Uuid;

use crate::config::BillingSettings;

use self::asaas::{Asaas, AsaasConfig};
use self::provider::{ChargeRequest, OpenedCharge, ProviderError, Withdrawal};

/// Why billing could not answer. The edges answer it (`crate::error`): a plan's limit as the
/// domain's refusal (402), the rest as 503 when PostgreSQL is out of reach and 500 otherwise.
#[derive(Debug, thiserror::Error)]
pub enum BillingError {
    /// The account's plan does not allow it.
    #[error("{0}")]
    PlanLimit(domain::subscription::limits::PlanLimitReached),
    /// The account's QR-code creations in this process stayed queued longer than
    /// [`usage::HOLD_PATIENCE`].
    #[error("the account's QR-code creations stayed queued for {0:?}")]
    Busy(std::time::Duration),
    /// The account's subscription or usage could not be read.
    #[error("reading the account's plan or usage failed: {0:#}")]
    Unreadable(anyhow::Error),
}

impl BillingError {
    /// A failed read, its cause kept (the edges look into it for a transient storage error).
    pub fn unreadable(cause: impl Into<anyhow::Error>) -> BillingError {
        BillingError::Unreadable(cause.into())
    }
}

/// Who takes the payments.
#[derive(Debug, Clone)]
pub enum Provider {
    /// The built-in sandbox ("Simular pagamento").
    Sandbox,
    /// Asaas API v3.
    Asaas(Asaas),
    /// Neither: no Asaas key and the sandbox off. Upgrades answer 503.
    Off,
}

impl Provider {
    /// `sandbox`, `asaas` or `off`, as charges record it.
    pub fn name(&self) -> &'static str {
        match self {
            Provider::Sandbox => "sandbox",
            Provider::Asaas(_) => "asaas",
            Provider::Off => "off",
        }
    }

    /// Opens a charge.
    ///
    /// # Errors
    ///
    /// As [`ProviderError`] says; `Off` answers [`ProviderError::Unavailable`].
    pub async fn open(&self, request: &ChargeRequest) -> Result<OpenedCharge, ProviderError> {
        match self {
            Provider::Sandbox => sandbox::open(request),
            Provider::Asaas(asaas) => asaas.open(request).await,
            Provider::Off => Err(ProviderError::Unavailable(
                "nenhum provedor de pagamentos configurado".to_owned(),
            )),
        }
    }

    /// Deletes a charge so nobody can pay it (or learns it was paid first).
    ///
    /// # Errors
    ///
    /// As [`ProviderError`] says; `Off` answers [`ProviderError::Unavailable`].
    pub async fn delete(&self, provider_payment_id: &str) -> Result<Withdrawal, ProviderError> {
        match self {
            Provider::Sandbox => Ok(sandbox::delete(provider_payment_id)),
            Provider::Asaas(asaas) => asaas.delete(provider_payment_id).await,
            Provider::Off => Err(ProviderError::Unavailable(
                "nenhum provedor de pagamentos configurado".to_owned(),
            )),
        }
    }
}

/// What the billing routes share.
pub struct Billing {
    /// Runs the subscription aggregate's commands.
    pub commands: CommandService<Subscription>,
    /// Who takes the payments.
    pub provider: Provider,
    /// The `asaas-access-token` every Asaas webhook delivery must carry (unset: the webhook
    /// answers 404).
    pub webhook_token: Option<String>,
    /// The plans kept for QR-code creations ([`kept_plans`]).
    pub plans: kept_plans::KeptPlans,
}

impl Billing {
    /// From the settings: Asaas when its key is set, else the sandbox when
    /// `BALCAO_SANDBOX_PAYMENTS` is on, else off.
    ///
    /// # Errors
    ///
    /// When the HTTP client cannot be built.
    pub fn new(settings: &BillingSettings, sandbox: bool, pool: &PgPool) -> anyhow::Result<Self> {
        let provider = match settings.asaas_api_key.as_deref().filter(|k| !k.is_empty()) {
            Some(key) => Provider::Asaas(Asaas::new(AsaasConfig {
                base_url: settings.asaas_base_url.clone(),
                api_key: key.to_owned(),
                user_agent: settings.asaas_user_agent.clone(),
                timeout: std::time::Duration::from_millis(settings.asaas_timeout_ms),
                attempts: settings.asaas_attempts,
                backoff: std::time::Duration::from_millis(200),
            })?),
            None if sandbox => Provider::Sandbox,
            None => Provider::Off,
        };
        Ok(Billing {
            commands: CommandService::new(PgEventStore::new(pool.clone()), ()),
            provider,
            webhook_token: settings
                .asaas_webhook_token
                .clone()
                .filter(|t| !t.is_empty()),
            plans: kept_plans::KeptPlans::default(),
        })
    }
}

/// The account's subscription as its log says (authoritative, not the read model).
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn subscription_of(
    billing: &Billing,
    account_id: &str,
) -> Result<Subscription, CommandError<SubscriptionError>> {
    billing
        .commands
        .load(account_id)
        .await
        .map(|loaded| loaded.aggregate)
}

/// The plan in force now.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn plan_of(
    billing: &Billing,
    account_id: &str,
) -> Result<PlanId, CommandError<SubscriptionError>> {
    Ok(subscription_of(billing, account_id)
        .await?
        .plan_at(Utc::now()))
}

/// Goes on only when the account's plan includes the logo on signs:
/// [`BillingError::PlanLimit`] otherwise (402 `plan-limit-reached` at the edges, with the
/// domain's message offering Premium). Actions the
/// plan counts are decided by their commands, which count what the account has in the same
/// transaction or aggregate: QR codes ([`commands::qrcode_usage`]; the handlers pass the plan
/// through [`kept_plans::PlanReadings`]), Pix keys, invitations and API Pix receivers (the
/// handlers pass [`plan_of`]); so two requests racing for the last place let exactly one through.
///
/// # Errors
///
/// [`BillingError::PlanLimit`] as said; [`BillingError::Unreadable`] when PostgreSQL fails.
pub async fn allow_logo(billing: &Billing, account_id: &str) -> Result<(), BillingError> {
    let plan = plan_of(billing, account_id)
        .await
        .map_err(BillingError::unreadable)?;
    // A feature counts nothing: the usage is not read (with a counted action this check would
    // pass on an empty usage, which is why only the feature is offered here).
    limits::check(plan, LimitedAction::LogoOnSign, Usage::default())
        .map_err(BillingError::PlanLimit)
}

/// The first São Paulo day of payment history the account's plan shows (`history_days`):
/// `Some(today − days)` on Grátis, `None` (everything) on Premium. Older payments are kept, and
/// appear again with Premium: the limit applies to what is shown, never to what is stored.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn history_from(
    billing: &Billing,
    account_id: &str,
) -> Result<Option<chrono::NaiveDate>, CommandError<SubscriptionError>> {
    let plan = plan_of(billing, account_id).await?;
    Ok(plan
        .plan()
        .limits
        .history_days
        .map(|days| history_start(Utc::now(), days)))
}

/// The first São Paulo day of a window of `days` days ending today (São Paulo: UTC−3, no
/// daylight saving since 2019).
pub fn history_start(now: chrono::DateTime<Utc>, days: u32) -> chrono::NaiveDate {
    let today = (now - chrono::Duration::hours(3)).date_naive();
    today - chrono::Days::new(u64::from(days))
}

/// Narrows `search` to the days the plan shows: its `de` moves up to `from` when earlier (or
/// unset).
pub fn within_history(
    search: &mut projections::payments::search::Search,
    from: Option<chrono::NaiveDate>,
) {
    if let Some(from) = from {
        search.from = Some(search.from.map_or(from, |asked| asked.max(from)));
    }
}

/// What a provider reported about a charge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum News {
    /// Paid: this amount, at this instant (RFC 3339).
    Paid {
        /// The amount.
        amount_centavos: u64,
        /// When.
        at: String,
    },
    /// Something else.
    Changed(ChargeChange),
}

/// The result of settling a provider's report.
#[derive(Debug)]
pub enum Settled {
    /// Recorded (possibly nothing new, when it repeated what was known).
    Recorded(CommandOutcome),
    /// No charge of ours has that id: nothing written.
    UnknownCharge,
}

/// Records `news` about the charge `provider_payment_id` of `account_id`.
///
/// # Errors
///
/// When the command fails for another reason than an unknown charge.
pub async fn settle(
    billing: &Billing,
    account_id: Uuid,
    provider_payment_id: &str,
    news: News,
) -> Result<Settled, CommandError<SubscriptionError>> {
    let command = match news {
        News::Paid {
            amount_centavos,
            at,
        } => SubscriptionCommand::ConfirmChargePayment(ConfirmChargePayment {
            provider_payment_id: provider_payment_id.to_owned(),
            amount_centavos,
            paid_at: at,
        }),
        News::Changed(change) => SubscriptionCommand::RecordChargeChange(RecordChargeChange {
            provider_payment_id: provider_payment_id.to_owned(),
            change,
            at: crate::clock::now(),
        }),
    };
    match billing
        .commands
        .execute(
            &account_id.to_string(),
            command,
            commands::CommandMetadata::start(),
        )
        .await
    {
        Ok(outcome) => Ok(Settled::Recorded(outcome)),
        Err(CommandError::Rejected(SubscriptionError::UnknownCharge)) => Ok(Settled::UnknownCharge),
        Err(other) => Err(other),
    }
}

/// What became of a charge called off by a cancellation.
#[derive(Debug)]
pub enum Withdrawn {
    /// Deleted at the provider, and recorded (`ChargeChanged` deleted).
    Deleted(Settled),
    /// Paid before the deletion reached the provider: recorded as paid, so the period it paid
    /// for is honoured and the cancellation applies at that period's end.
    AlreadyPaid(Settled),
}

/// Deletes at the provider the charge `provider_payment_id` of `account_id` that a cancellation
/// called off (status `cancelled`), and records what became of it. The cancellation itself is
/// recorded before this is called, so a failure here loses nothing: the charge stays `cancelled`
/// and the renewals sweep ([`renewals::sweep_once`]) calls this again on each pass until it is
/// `deleted` or `paid`.
///
/// # Errors
///
/// The provider's failure (not answering in time after its retries, or refusing), or the
/// command's.
pub async fn withdraw(
    billing: &Billing,
    account_id: Uuid,
    provider_payment_id: &str,
) -> anyhow::Result<Withdrawn> {
    match billing.provider.delete(provider_payment_id).await? {
        Withdrawal::Deleted => Ok(Withdrawn::Deleted(
            settle(
                billing,
                account_id,
                provider_payment_id,
                News::Changed(ChargeChange::Deleted),
            )
            .await
            .map_err(|e| anyhow::anyhow!("{e}"))?,
        )),
        Withdrawal::AlreadyPaid { amount, paid_at } => Ok(Withdrawn::AlreadyPaid(
            settle(
                billing,
                account_id,
                provider_payment_id,
                News::Paid {
                    amount_centavos: amount.get(),
                    at: paid_at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
                },
            )
            .await
            .map_err(|e| anyhow::anyhow!("{e}"))?,
        )),
    }
}
