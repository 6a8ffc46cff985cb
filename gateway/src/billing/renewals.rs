//! The renewal and expiry sweep: every [`EVERY`], for each Premium period ending within
//! [`domain::subscription::RENEWAL_NOTICE_DAYS`], open the renewal charge at
//! the provider and record it (`IssueRenewalCharge`); for each period already over, record
//! `ExpireSubscription` (back to Grátis); and delete at the provider every renewal charge a
//! cancellation called off whose deletion did not go through yet (status `cancelled`). The plan in force is decided by the date whatever this
//! sweep has done ([`Subscription::plan_at`](domain::subscription::Subscription::plan_at)), so a
//! late sweep never lets Premium outlive its period.

use std::time::Duration;

use chrono::{DateTime, Utc};
use commands::CommandMetadata;
use domain::subscription::{
    ExpireSubscription, IssueRenewalCharge, NewCharge, RENEWAL_NOTICE_DAYS, SubscriptionCommand,
};
use projections::CancellationToken;
use sqlx::PgPool;
use uuid::Uuid;

use super::Billing;
use super::provider::ChargeRequest;

/// How often the sweep runs.
pub const EVERY: Duration = Duration::from_secs(10 * 60);

/// What one pass did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Swept {
    /// Renewal charges opened.
    pub renewals: usize,
    /// Periods ended.
    pub expired: usize,
    /// Charges called off by a cancellation now deleted at the provider (or found paid).
    pub withdrawn: usize,
}

fn instant(text: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(text)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

/// One pass at `now` over at most 100 subscriptions.
///
/// # Errors
///
/// When PostgreSQL fails; a provider failure for one account is logged and the pass goes on.
pub async fn sweep_once(
    pool: &PgPool,
    billing: &Billing,
    now: DateTime<Utc>,
) -> anyhow::Result<Swept> {
    let mut swept = Swept::default();
    // Renewal charges a cancellation called off whose deletion at the provider failed (or was
    // never tried): delete them now. The next pass tries again what fails again.
    for charge in projections::subscriptions::charges_to_delete(pool, 100).await? {
        match super::withdraw(billing, charge.account_id, &charge.provider_payment_id).await {
            Ok(_) => swept.withdrawn += 1,
            Err(error) => tracing::warn!(
                %error,
                account = %charge.account_id,
                "a cancelled charge was not deleted at the provider; the next pass tries again"
            ),
        }
    }
    let horizon = now + chrono::Duration::days(RENEWAL_NOTICE_DAYS);
    for view in projections::subscriptions::due(pool, horizon, 100).await? {
        let account = view.account_id.to_string();
        let subscription = billing
            .commands
            .load(&account)
            .await
            .map_err(|e| anyhow::anyhow!("{e}"))?
            .aggregate;
        let (Some(until), Some(plan)) = (
            subscription.active_until.as_deref().and_then(instant),
            subscription.plan,
        ) else {
            continue;
        };
        if !subscription.premium {
            continue;
        }
        let at = now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        if now >= until {
            let command = SubscriptionCommand::ExpireSubscription(ExpireSubscription { at });
            billing
                .commands
                .execute(&account, command, CommandMetadata::start())
                .await
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            swept.expired += 1;
            continue;
        }
        if subscription.cancelled || subscription.has_open_renewal() {
            continue;
        }
        let charge_id = Uuid::now_v7();
        let request = ChargeRequest {
            charge_id: charge_id.to_string(),
            account_id: account.clone(),
            amount: plan.plan().price,
            description: format!("Balcão {} (renovação)", plan.plan().name),
            due_date: (until - chrono::Duration::hours(3)).date_naive(),
            payer: None,
            customer: subscription.customer().map(str::to_owned),
        };
        let opened = match billing.provider.open(&request).await {
            Ok(opened) => opened,
            Err(error) => {
                tracing::warn!(%error, %account, "renewal charge not opened; the next pass tries again");
                continue;
            }
        };
        let command = SubscriptionCommand::IssueRenewalCharge(IssueRenewalCharge {
            charge: NewCharge {
                charge_id: charge_id.to_string(),
                provider: billing.provider.name().to_owned(),
                provider_payment_id: opened.provider_payment_id,
                amount_centavos: plan.plan().price.get(),
                pix_payload: opened.pix_payload,
                expires_at: opened
                    .expires_at
                    .to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
                customer: opened.customer,
            },
            at,
        });
        billing
            .commands
            .execute(&account, command, CommandMetadata::start())
            .await
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        swept.renewals += 1;
    }
    Ok(swept)
}

/// Sweeps every [`EVERY`] until `token` is cancelled; a failed pass is logged and tried again.
pub async fn run(pool: PgPool, billing: Billing, token: CancellationToken) {
    let mut ticks = tokio::time::interval(EVERY);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            () = token.cancelled() => return,
            _ = ticks.tick() => {}
        }
        match sweep_once(&pool, &billing, Utc::now()).await {
            Ok(swept) => tracing::debug!(?swept, "billing sweep done"),
            Err(error) => tracing::warn!(%error, "billing sweep failed; trying again later"),
        }
    }
}
