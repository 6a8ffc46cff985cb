//! What happened to a subscription. Past tense, schema version 1; never changed in place.

use cqrs_es::DomainEvent;
use serde::{Deserialize, Serialize};

use super::commands::{ChargeChange, NewCharge};
use super::plans::PlanId;

/// Events of the subscription aggregate, stored as an object with a `type` field plus the
/// variant's fields.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum SubscriptionEvent {
    /// An upgrade was asked for and its first charge made.
    CheckoutStarted(CheckoutStarted),
    /// The charge for the next period was made.
    RenewalChargeIssued(RenewalChargeIssued),
    /// A charge was paid.
    ChargePaid(ChargePaid),
    /// Premium started (first payment, or a payment after it had ended).
    PremiumActivated(PremiumPeriod),
    /// Premium was extended by a renewal paid before the end.
    PremiumRenewed(PremiumPeriod),
    /// The provider reported a change to a charge (overdue, deleted, refunded).
    ChargeChanged(ChargeChanged),
    /// The owner cancelled: Premium stays until the end of the period, then ends.
    CancellationScheduled(CancellationScheduled),
    /// A charge still open was called off (the owner cancelled before paying it).
    ChargeCancelled(ChargeCancelled),
    /// Premium ended (not renewed, cancelled or refunded): the account is on Grátis again.
    SubscriptionExpired(SubscriptionExpired),
}

/// An upgrade began (schema version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckoutStarted {
    /// The account.
    pub account_id: String,
    /// The plan asked for.
    pub plan: PlanId,
    /// Its first charge.
    pub charge: NewCharge,
    /// Who asked.
    pub by: String,
    /// When, RFC 3339.
    pub at: String,
}

/// The renewal charge was made (schema version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RenewalChargeIssued {
    /// The account.
    pub account_id: String,
    /// The plan renewed.
    pub plan: PlanId,
    /// The charge.
    pub charge: NewCharge,
    /// When, RFC 3339.
    pub at: String,
}

/// A charge was paid (schema version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChargePaid {
    /// The account.
    pub account_id: String,
    /// Our charge id.
    pub charge_id: String,
    /// What was paid.
    pub amount_centavos: u64,
    /// When, RFC 3339.
    pub paid_at: String,
}

/// A Premium period (schema version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PremiumPeriod {
    /// The account.
    pub account_id: String,
    /// The plan.
    pub plan: PlanId,
    /// The charge that paid for it.
    pub charge_id: String,
    /// The period's first instant, RFC 3339.
    pub from: String,
    /// The period's end, RFC 3339 (Premium until this instant).
    pub until: String,
}

/// A provider's report about a charge (schema version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChargeChanged {
    /// The account.
    pub account_id: String,
    /// Our charge id.
    pub charge_id: String,
    /// What happened.
    pub change: ChargeChange,
    /// When, RFC 3339.
    pub at: String,
}

/// The owner cancelled (schema version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CancellationScheduled {
    /// The account.
    pub account_id: String,
    /// Who cancelled.
    pub by: String,
    /// When, RFC 3339.
    pub at: String,
    /// When Premium ends, RFC 3339 (the end of the period paid for).
    pub ends_at: String,
}

/// An open charge was called off (schema version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChargeCancelled {
    /// The account.
    pub account_id: String,
    /// Our charge id.
    pub charge_id: String,
    /// When, RFC 3339.
    pub at: String,
}

/// Why Premium ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExpiryReason {
    /// The period ended without a renewal paid.
    NotRenewed,
    /// The owner had cancelled.
    Cancelled,
    /// The payment for the period was refunded.
    Refunded,
}

/// Premium ended; the account is on Grátis, with everything it made kept (schema version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubscriptionExpired {
    /// The account.
    pub account_id: String,
    /// The plan it had.
    pub plan: PlanId,
    /// Why.
    pub reason: ExpiryReason,
    /// When, RFC 3339.
    pub at: String,
}

impl DomainEvent for SubscriptionEvent {
    fn event_type(&self) -> String {
        match self {
            SubscriptionEvent::CheckoutStarted(_) => "CheckoutStarted",
            SubscriptionEvent::RenewalChargeIssued(_) => "RenewalChargeIssued",
            SubscriptionEvent::ChargePaid(_) => "ChargePaid",
            SubscriptionEvent::PremiumActivated(_) => "PremiumActivated",
            SubscriptionEvent::PremiumRenewed(_) => "PremiumRenewed",
            SubscriptionEvent::ChargeChanged(_) => "ChargeChanged",
            SubscriptionEvent::CancellationScheduled(_) => "CancellationScheduled",
            SubscriptionEvent::ChargeCancelled(_) => "ChargeCancelled",
            SubscriptionEvent::SubscriptionExpired(_) => "SubscriptionExpired",
        }
        .to_owned()
    }

    fn event_version(&self) -> String {
        "1".to_owned()
    }
}
