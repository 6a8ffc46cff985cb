//! The projections Balcão runs, by name: what the projector starts and replay rebuilds.

use std::sync::Arc;

use crate::projection::Projection;
use crate::{
    accounts, event_counts, payment_links, payments, pix_keys, qrcodes, signs, statement_imports,
    subscriptions,
};

/// Every projection Balcão runs, in a stable order.
pub fn all() -> Vec<Arc<dyn Projection>> {
    vec![
        Arc::new(qrcodes::QrCodes),
        Arc::new(event_counts::EventCounts),
        Arc::new(accounts::Accounts),
        // Payments (issue 15).
        Arc::new(payments::Payments),
        // Payment links (`/pagar`), issue 10.
        Arc::new(payment_links::PaymentLinks),
        // Issue 10: each account's registered Pix keys.
        Arc::new(pix_keys::PixKeys),
        // Issue 12: plans and billing.
        Arc::new(subscriptions::Subscriptions),
        // Issue 11: the signs an account keeps in its dashboard.
        Arc::new(signs::Signs),
        // Issue 35: bank statement imports.
        Arc::new(statement_imports::StatementImports),
    ]
}

/// The projection registered under `name`, if any.
pub fn by_name(name: &str) -> Option<Arc<dyn Projection>> {
    all().into_iter().find(|p| p.name() == name)
}
