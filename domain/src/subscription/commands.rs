//! What can be asked of an account's subscription. Instants are RFC 3339 (the domain reads no
//! clock); charges are made at the provider before the command, which records them.

use serde::{Deserialize, Serialize};

use super::plans::PlanId;

/// A charge the billing provider made: a dynamic Pix for one plan payment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewCharge {
    /// Our id for it (a UUID), sent to the provider as its external reference.
    pub charge_id: String,
    /// `sandbox` or `asaas`.
    pub provider: String,
    /// The provider's id (Asaas: `pay_…`).
    pub provider_payment_id: String,
    /// What it charges.
    pub amount_centavos: u64,
    /// The Pix "copia e cola", already checked by the engine.
    pub pix_payload: String,
    /// When the Pix stops being payable, RFC 3339.
    pub expires_at: String,
    /// The provider's id of the payer (Asaas `cus_…`), so a renewal is charged to the same
    /// customer; `None` for the sandbox.
    #[serde(default)]
    pub customer: Option<String>,
}

/// Commands of the subscription aggregate (one stream per account).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SubscriptionCommand {
    /// Start paying for a Premium plan: record its first charge.
    UpgradePlan(UpgradePlan),
    /// Record the charge for the next period, shortly before the current one ends.
    IssueRenewalCharge(IssueRenewalCharge),
    /// The provider says a charge was paid.
    ConfirmChargePayment(ConfirmChargePayment),
    /// The provider says something else happened to a charge.
    RecordChargeChange(RecordChargeChange),
    /// Stop at the end of the period paid for.
    CancelSubscription(CancelSubscription),
    /// The period paid for is over: back to Grátis.
    ExpireSubscription(ExpireSubscription),
}

/// Start paying for `plan`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UpgradePlan {
    /// The account (the stream id).
    pub account_id: String,
    /// A Premium plan.
    pub plan: PlanId,
    /// The charge the provider made for it.
    pub charge: NewCharge,
    /// The person asking.
    pub by: String,
    /// When, RFC 3339.
    pub at: String,
}

/// Issue the renewal charge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IssueRenewalCharge {
    /// The charge the provider made for the next period.
    pub charge: NewCharge,
    /// When, RFC 3339.
    pub at: String,
}

/// A charge was paid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfirmChargePayment {
    /// The provider's id of the charge.
    pub provider_payment_id: String,
    /// What was paid.
    pub amount_centavos: u64,
    /// When, RFC 3339.
    pub paid_at: String,
}

/// What else a provider reports about a charge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChargeChange {
    /// Its due date passed unpaid.
    Overdue,
    /// It was removed at the provider.
    Deleted,
    /// Its money went back to the payer.
    Refunded,
}

/// Something else happened to a charge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordChargeChange {
    /// The provider's id of the charge.
    pub provider_payment_id: String,
    /// What happened.
    pub change: ChargeChange,
    /// When, RFC 3339.
    pub at: String,
}

/// Cancel at the end of the period paid for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CancelSubscription {
    /// The person asking.
    pub by: String,
    /// When, RFC 3339.
    pub at: String,
}

/// Mark the end of a period that was not renewed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpireSubscription {
    /// When, RFC 3339 (at or after the end of the period).
    pub at: String,
}
