//! The projections' integration tests in one binary (one link instead of one per file), over
//! real PostgreSQL and NATS JetStream: each test makes its own database and stream (`support::TestEnv`).

mod accounts;
mod exactly_once;
mod held_batches;
mod narrowed_events;
mod pix_keys;
mod poison;
mod qrcode_archive;
mod qrcode_creators;
mod qrcode_single_use;
mod read_your_writes;
mod relay;
mod relay_lag_plan;
mod replay;
mod subscriptions;
mod support;
mod upcasting;
