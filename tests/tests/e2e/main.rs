//! Balcão's end-to-end tests, through HTTP over real PostgreSQL, NATS and an SMTP sink: one test
//! binary (one link, one process) with a module per resource, as the URLs are grouped.
//!
//! Every test starts its own [`tests::TestApp`] (fresh database, stream and mail sink), which is
//! removed again when the test ends, passes or panics.

mod anonymous_signs;
mod auth;
mod bank;
mod bank_simulator;
mod billing;
mod developer_api;
mod housekeeping;
mod keys;
mod lagging_read_models;
mod ops;
mod payment_links;
mod payments;
mod public;
mod saved_signs;
mod security;
mod sign_logo;
mod signs;
mod test_app;
mod webhooks;
mod workspace;
