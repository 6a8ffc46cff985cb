//! The payment-link aggregate: a link to a Balcão payer page (`/pagar`) for one key, one amount
//! and one description, made by an account and revocable.
//!
//! The BR Code is made once, by the strict engine, when the link is created, and travels in the
//! event: the page that shows it never recomputes it. A link can carry an expiry; after it, or
//! after `RevokePaymentLink`, the page says the link no longer takes payments
//! ([`PaymentLink::status_at`]).

mod aggregate;
mod commands;
mod error;
mod events;

pub use aggregate::{LinkStatus, PaymentLink};
pub use commands::{CreatePaymentLink, PaymentLinkCommand, RevokePaymentLink};
pub use error::PaymentLinkError;
pub use events::{PaymentLinkCreated, PaymentLinkEvent, PaymentLinkRevoked};

/// The aggregate type, used as the stream type in the event log.
pub const STREAM_TYPE: &str = "payment_link";
