//! Plans and the subscription aggregate: an account on Grátis upgrades to Premium by paying a
//! Pix charge; the period it paid for ends on a date; a renewal charge is made in the last
//! [`RENEWAL_NOTICE_DAYS`] days; a renewal not paid by the end sends the account back to Grátis
//! (its data kept, the limits applying to new actions only); a cancellation takes effect at the
//! end of the period.
//!
//! ```text
//! UpgradePlan ─▶ CheckoutStarted ─(paid)─▶ ChargePaid + PremiumActivated (until D)
//!   IssueRenewalCharge (D − 7 days ≤ now) ─▶ RenewalChargeIssued
//!     ─(paid before D)─▶ ChargePaid + PremiumRenewed (until D + period)
//!     ─(paid after D)──▶ ChargePaid + PremiumActivated (from the payment)
//!   ExpireSubscription (now ≥ D) ─▶ SubscriptionExpired (back to Grátis)
//!   CancelSubscription ─▶ CancellationScheduled (+ ChargeCancelled for an open renewal)
//! ```
//!
//! The stream id is the account id. The plans and their limits are configuration
//! ([`plans`]); [`limits::check`] decides every limited action.

mod aggregate;
mod commands;
mod error;
mod events;
pub mod limits;
pub mod plans;
#[cfg(test)]
mod tests;

pub use aggregate::{
    CHECKOUT_REUSE_MARGIN_MINUTES, Charge, ChargeStatus, PlanSchedule, Subscription, period_end,
};
pub use commands::{
    CancelSubscription, ChargeChange, ConfirmChargePayment, ExpireSubscription, IssueRenewalCharge,
    NewCharge, RecordChargeChange, SubscriptionCommand, UpgradePlan,
};
pub use error::SubscriptionError;
pub use events::{
    CancellationScheduled, ChargeCancelled, ChargeChanged, ChargePaid, CheckoutStarted,
    ExpiryReason, PremiumPeriod, RenewalChargeIssued, SubscriptionEvent, SubscriptionExpired,
};

/// The aggregate type, used as the stream type in the event log.
pub const STREAM_TYPE: &str = "subscription";

/// How many days before the end of a period its renewal charge is made.
pub const RENEWAL_NOTICE_DAYS: i64 = 7;
