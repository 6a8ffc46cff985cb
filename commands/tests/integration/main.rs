//! The command side's integration tests in one binary (one link instead of one per file), over
//! real PostgreSQL: each test makes its own database (`common::TestDb`) and drops it at the end.

mod action_codes;
mod command_service;
mod common;
mod effects;
mod event_store;
mod feed;
mod guard_rails;
mod ledger_aggregate;
mod qrcode_usage;
mod statement_import;
mod upcasting;
mod vault;
mod workflows;
