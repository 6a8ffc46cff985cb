//! The subscription aggregate: `handle` only decides, `apply` only folds.

use chrono::{DateTime, Duration, Months, SecondsFormat, Utc};
use cqrs_es::Aggregate;
use cqrs_es::event_sink::EventSink;
use serde::{Deserialize, Serialize};

use super::commands::{
    CancelSubscription, ChargeChange, ConfirmChargePayment, ExpireSubscription, IssueRenewalCharge,
    NewCharge, RecordChargeChange, SubscriptionCommand, UpgradePlan,
};
use super::events::{
    CancellationScheduled, ChargeCancelled, ChargeChanged, ChargePaid, CheckoutStarted,
    ExpiryReason, PremiumPeriod, RenewalChargeIssued, SubscriptionEvent, SubscriptionExpired,
};
use super::plans::{Period, PlanId};
use super::{RENEWAL_NOTICE_DAYS, STREAM_TYPE, SubscriptionError};

/// Where a charge stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChargeStatus {
    /// Waiting for its Pix.
    Open,
    /// Its due date passed unpaid (still payable while its Pix lasts).
    Overdue,
    /// Paid.
    Paid,
    /// Removed at the provider.
    Deleted,
    /// Paid and then given back.
    Refunded,
    /// Called off by a cancellation before it was paid; deleting it at the provider is still to
    /// be done (then it is `Deleted`).
    Cancelled,
}

/// A charge as a decision needs it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Charge {
    /// Our id.
    pub charge_id: String,
    /// The provider's id.
    pub provider_payment_id: String,
    /// The plan it pays for.
    pub plan: PlanId,
    /// Whether it renews a period (else it starts one).
    pub renewal: bool,
    /// Where it stands.
    pub status: ChargeStatus,
    /// The provider's id of the payer, when it has one.
    #[serde(default)]
    pub customer: Option<String>,
    /// When its Pix stops being payable, RFC 3339 (as the provider said when it was opened).
    #[serde(default)]
    pub expires_at: Option<String>,
}

/// How long a checkout must still be payable to be handed to a second click instead of a new
/// charge: less than this and the payer could not finish paying it.
pub const CHECKOUT_REUSE_MARGIN_MINUTES: i64 = 2;

/// What a decision needs to know of an account's subscription.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Subscription {
    /// The account, once anything happened.
    pub account_id: Option<String>,
    /// The Premium plan of the current (or last) period.
    pub plan: Option<PlanId>,
    /// Whether Premium is on (between activation and expiry).
    pub premium: bool,
    /// The end of the period paid for, RFC 3339.
    pub active_until: Option<String>,
    /// The charge that paid for the current period.
    pub period_charge_id: Option<String>,
    /// Whether the owner cancelled this period.
    pub cancelled: bool,
    /// Every charge, oldest first.
    pub charges: Vec<Charge>,
}

/// The plan a subscription gives at any instant: its Premium plan until the end of the period
/// paid for, Grátis otherwise ([`Subscription::schedule`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlanSchedule {
    /// The Premium plan and the instant its period ends; `None` when Premium is off.
    premium: Option<(PlanId, DateTime<Utc>)>,
}

impl PlanSchedule {
    /// The plan in force at `now` (Grátis from the end of the period on, whether or not
    /// `SubscriptionExpired` was recorded yet).
    pub fn plan_at(&self, now: DateTime<Utc>) -> PlanId {
        match self.premium {
            Some((plan, until)) if now < until => plan,
            _ => PlanId::Gratis,
        }
    }
}

fn instant(text: &str) -> Result<DateTime<Utc>, SubscriptionError> {
    DateTime::parse_from_rfc3339(text)
        .map(|t| t.with_timezone(&Utc))
        .map_err(|_| SubscriptionError::BadInstant)
}

fn text(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Secs, true)
}

/// The end of a period of `plan` that starts at `from`: calendar months, so a month from
/// 31 January is the last day of February (chrono clamps the day).
pub fn period_end(plan: PlanId, from: DateTime<Utc>) -> DateTime<Utc> {
    let months = match plan.plan().period {
        Period::Free => 0,
        Period::Month => 1,
        Period::Year => 12,
    };
    from.checked_add_months(Months::new(months))
        .unwrap_or(DateTime::<Utc>::MAX_UTC)
}

impl Subscription {
    /// The plan in force at `now`: Premium while the period paid for lasts, else Grátis
    /// (whether or not `SubscriptionExpired` was recorded yet).
    pub fn plan_at(&self, now: DateTime<Utc>) -> PlanId {
        self.schedule().plan_at(now)
    }

    /// What [`plan_at`](Self::plan_at) needs, small and `Copy`: what a process keeps of the
    /// subscription to answer the plan without loading its stream again.
    pub fn schedule(&self) -> PlanSchedule {
        PlanSchedule {
            premium: match (&self.plan, &self.active_until) {
                (Some(plan), Some(until)) if self.premium => {
                    instant(until).ok().map(|until| (*plan, until))
                }
                _ => None,
            },
        }
    }

    fn account(&self) -> String {
        self.account_id.clone().unwrap_or_default()
    }

    fn until(&self) -> Option<DateTime<Utc>> {
        self.active_until.as_deref().and_then(|t| instant(t).ok())
    }

    /// The end of the period when Premium is on at `at`.
    fn premium_until(&self, at: DateTime<Utc>) -> Option<DateTime<Utc>> {
        self.until().filter(|until| self.premium && at < *until)
    }

    /// The first charge of `plan` still waiting for its Pix with at least
    /// [`CHECKOUT_REUSE_MARGIN_MINUTES`] left at `at`: what a second click on "Assinar" (another
    /// tab, a retried request) is answered with, instead of a second charge at the provider.
    pub fn open_checkout(&self, plan: PlanId, at: DateTime<Utc>) -> Option<&Charge> {
        let payable_from = at + Duration::minutes(CHECKOUT_REUSE_MARGIN_MINUTES);
        self.charges.iter().find(|c| {
            !c.renewal
                && c.plan == plan
                && c.status == ChargeStatus::Open
                && c.expires_at
                    .as_deref()
                    .and_then(|t| instant(t).ok())
                    .is_some_and(|expires| expires > payable_from)
        })
    }

    fn charge(&self, provider_payment_id: &str) -> Result<&Charge, SubscriptionError> {
        self.charges
            .iter()
            .find(|c| c.provider_payment_id == provider_payment_id)
            .ok_or(SubscriptionError::UnknownCharge)
    }

    fn decide(
        &self,
        command: SubscriptionCommand,
    ) -> Result<Vec<SubscriptionEvent>, SubscriptionError> {
        match command {
            SubscriptionCommand::UpgradePlan(upgrade) => self.upgrade(upgrade),
            SubscriptionCommand::IssueRenewalCharge(renewal) => self.renew(renewal),
            SubscriptionCommand::ConfirmChargePayment(paid) => self.confirm(paid),
            SubscriptionCommand::RecordChargeChange(change) => self.change(change),
            SubscriptionCommand::CancelSubscription(cancel) => self.cancel(cancel),
            SubscriptionCommand::ExpireSubscription(expire) => self.expire(expire),
        }
    }

    fn upgrade(&self, upgrade: UpgradePlan) -> Result<Vec<SubscriptionEvent>, SubscriptionError> {
        check_charge(upgrade.plan, &upgrade.charge)?;
        let at = instant(&upgrade.at)?;
        if let Some(until) = self.premium_until(at) {
            return Err(SubscriptionError::AlreadyPremium { until: text(until) });
        }
        // One payable checkout per plan: two at once would be two charges for one purchase
        // (two tabs, a double click racing past the gateway's own look at this stream).
        if let Some(open) = self.open_checkout(upgrade.plan, at) {
            return Err(SubscriptionError::CheckoutAlreadyOpen {
                charge_id: open.charge_id.clone(),
            });
        }
        Ok(vec![SubscriptionEvent::CheckoutStarted(CheckoutStarted {
            account_id: upgrade.account_id,
            plan: upgrade.plan,
            charge: upgrade.charge,
            by: upgrade.by,
            at: upgrade.at,
        })])
    }

    fn renew(
        &self,
        renewal: IssueRenewalCharge,
    ) -> Result<Vec<SubscriptionEvent>, SubscriptionError> {
        let at = instant(&renewal.at)?;
        let (Some(until), Some(plan)) = (self.premium_until(at), self.plan) else {
            return Err(SubscriptionError::NotPremium);
        };
        if self.cancelled {
            return Err(SubscriptionError::AlreadyCancelled);
        }
        if self.open_renewal().is_some() {
            return Err(SubscriptionError::RenewalAlreadyIssued);
        }
        if at < until - Duration::days(RENEWAL_NOTICE_DAYS) {
            return Err(SubscriptionError::TooEarlyToRenew);
        }
        check_charge(plan, &renewal.charge)?;
        Ok(vec![SubscriptionEvent::RenewalChargeIssued(
            RenewalChargeIssued {
                account_id: self.account(),
                plan,
                charge: renewal.charge,
                at: renewal.at,
            },
        )])
    }

    /// Whether a renewal charge is waiting to be paid.
    pub fn has_open_renewal(&self) -> bool {
        self.open_renewal().is_some()
    }

    /// The provider's customer of the newest charge that has one (renewals charge it again).
    pub fn customer(&self) -> Option<&str> {
        self.charges
            .iter()
            .rev()
            .find_map(|c| c.customer.as_deref())
    }

    fn open_renewal(&self) -> Option<&Charge> {
        self.charges
            .iter()
            .find(|c| c.renewal && matches!(c.status, ChargeStatus::Open | ChargeStatus::Overdue))
    }

    fn confirm(
        &self,
        paid: ConfirmChargePayment,
    ) -> Result<Vec<SubscriptionEvent>, SubscriptionError> {
        let charge = self.charge(&paid.provider_payment_id)?;
        // Paid already (a provider repeating itself), or given back before its payment was
        // reported (deliveries out of order): nothing more to record.
        if matches!(charge.status, ChargeStatus::Paid | ChargeStatus::Refunded) {
            return Ok(vec![]);
        }
        let paid_at = instant(&paid.paid_at)?;
        let account_id = self.account();
        // Money that arrived is honoured even for a charge deleted or called off meanwhile: the
        // payer gets the period they paid for. A renewal paid before the end extends the
        // period from its end; paid late, a new period starts when it was paid.
        let (from, renewed) = match self.premium_until(paid_at) {
            Some(until) => (until, true),
            None => (paid_at, false),
        };
        let period = PremiumPeriod {
            account_id: account_id.clone(),
            plan: charge.plan,
            charge_id: charge.charge_id.clone(),
            from: text(from),
            until: text(period_end(charge.plan, from)),
        };
        Ok(vec![
            SubscriptionEvent::ChargePaid(ChargePaid {
                account_id,
                charge_id: charge.charge_id.clone(),
                amount_centavos: paid.amount_centavos,
                paid_at: paid.paid_at,
            }),
            if renewed {
                SubscriptionEvent::PremiumRenewed(period)
            } else {
                SubscriptionEvent::PremiumActivated(period)
            },
        ])
    }

    fn change(
        &self,
        change: RecordChargeChange,
    ) -> Result<Vec<SubscriptionEvent>, SubscriptionError> {
        let charge = self.charge(&change.provider_payment_id)?;
        let at = instant(&change.at)?;
        let relevant = match change.change {
            ChargeChange::Overdue => charge.status == ChargeStatus::Open,
            // A charge called off by a cancellation is deleted at the provider afterwards.
            ChargeChange::Deleted => matches!(
                charge.status,
                ChargeStatus::Open | ChargeStatus::Overdue | ChargeStatus::Cancelled
            ),
            ChargeChange::Refunded => charge.status != ChargeStatus::Refunded,
        };
        if !relevant {
            return Ok(vec![]);
        }
        let mut events = vec![SubscriptionEvent::ChargeChanged(ChargeChanged {
            account_id: self.account(),
            charge_id: charge.charge_id.clone(),
            change: change.change,
            at: change.at.clone(),
        })];
        let funds_this_period = self.period_charge_id.as_deref() == Some(&charge.charge_id);
        if change.change == ChargeChange::Refunded
            && funds_this_period
            && self.premium_until(at).is_some()
            && let Some(plan) = self.plan
        {
            events.push(SubscriptionEvent::SubscriptionExpired(
                SubscriptionExpired {
                    account_id: self.account(),
                    plan,
                    reason: ExpiryReason::Refunded,
                    at: change.at,
                },
            ));
        }
        Ok(events)
    }

    fn cancel(
        &self,
        cancel: CancelSubscription,
    ) -> Result<Vec<SubscriptionEvent>, SubscriptionError> {
        let at = instant(&cancel.at)?;
        let Some(until) = self.premium_until(at) else {
            return Err(SubscriptionError::NotPremium);
        };
        if self.cancelled {
            return Err(SubscriptionError::AlreadyCancelled);
        }
        let mut events = vec![SubscriptionEvent::CancellationScheduled(
            CancellationScheduled {
                account_id: self.account(),
                by: cancel.by,
                at: cancel.at.clone(),
                ends_at: text(until),
            },
        )];
        if let Some(open) = self.open_renewal() {
            events.push(SubscriptionEvent::ChargeCancelled(ChargeCancelled {
                account_id: self.account(),
                charge_id: open.charge_id.clone(),
                at: cancel.at,
            }));
        }
        Ok(events)
    }

    fn expire(
        &self,
        expire: ExpireSubscription,
    ) -> Result<Vec<SubscriptionEvent>, SubscriptionError> {
        let at = instant(&expire.at)?;
        let (true, Some(until), Some(plan)) = (self.premium, self.until(), self.plan) else {
            return Err(SubscriptionError::NotPremium);
        };
        if at < until {
            return Err(SubscriptionError::NotYetEnded);
        }
        Ok(vec![SubscriptionEvent::SubscriptionExpired(
            SubscriptionExpired {
                account_id: self.account(),
                plan,
                reason: if self.cancelled {
                    ExpiryReason::Cancelled
                } else {
                    ExpiryReason::NotRenewed
                },
                at: expire.at,
            },
        )])
    }

    fn set_status(&mut self, charge_id: &str, status: ChargeStatus) {
        if let Some(charge) = self.charges.iter_mut().find(|c| c.charge_id == charge_id) {
            charge.status = status;
        }
    }

    fn push(&mut self, charge: NewCharge, plan: PlanId, renewal: bool) {
        self.charges.push(Charge {
            charge_id: charge.charge_id,
            provider_payment_id: charge.provider_payment_id,
            plan,
            renewal,
            status: ChargeStatus::Open,
            customer: charge.customer,
            expires_at: Some(charge.expires_at),
        });
    }
}

/// A charge must cost exactly what its plan costs, and be for a paid plan.
fn check_charge(plan: PlanId, charge: &NewCharge) -> Result<(), SubscriptionError> {
    if !plan.is_premium() {
        return Err(SubscriptionError::NotAPaidPlan);
    }
    if charge.amount_centavos != plan.plan().price.get() {
        return Err(SubscriptionError::WrongAmount);
    }
    Ok(())
}

impl Aggregate for Subscription {
    const TYPE: &'static str = STREAM_TYPE;
    type Command = SubscriptionCommand;
    type Event = SubscriptionEvent;
    type Error = SubscriptionError;
    type Services = ();

    async fn handle(
        &mut self,
        command: Self::Command,
        _services: &Self::Services,
        sink: &EventSink<Self>,
    ) -> Result<(), Self::Error> {
        for event in self.decide(command)? {
            sink.write(event, self).await;
        }
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        match event {
            SubscriptionEvent::CheckoutStarted(started) => {
                self.account_id = Some(started.account_id);
                self.push(started.charge, started.plan, false);
            }
            SubscriptionEvent::RenewalChargeIssued(issued) => {
                self.push(issued.charge, issued.plan, true);
            }
            SubscriptionEvent::ChargePaid(paid) => {
                self.set_status(&paid.charge_id, ChargeStatus::Paid);
            }
            SubscriptionEvent::PremiumActivated(period) => {
                self.premium = true;
                self.cancelled = false;
                self.plan = Some(period.plan);
                self.active_until = Some(period.until);
                self.period_charge_id = Some(period.charge_id);
            }
            SubscriptionEvent::PremiumRenewed(period) => {
                self.premium = true;
                self.plan = Some(period.plan);
                self.active_until = Some(period.until);
                self.period_charge_id = Some(period.charge_id);
            }
            SubscriptionEvent::ChargeChanged(changed) => {
                let status = match changed.change {
                    ChargeChange::Overdue => ChargeStatus::Overdue,
                    ChargeChange::Deleted => ChargeStatus::Deleted,
                    ChargeChange::Refunded => ChargeStatus::Refunded,
                };
                self.set_status(&changed.charge_id, status);
            }
            SubscriptionEvent::CancellationScheduled(_) => self.cancelled = true,
            SubscriptionEvent::ChargeCancelled(called_off) => {
                self.set_status(&called_off.charge_id, ChargeStatus::Cancelled);
            }
            SubscriptionEvent::SubscriptionExpired(_) => {
                self.premium = false;
                self.cancelled = false;
            }
        }
    }
}
