//! Balcão's HTTP gateway (axum) and the roles of the `balcao` binary.
//!
//! [`router`] lists every route; handlers live in [`pages`] (askama pages), [`api`] (the
//! JSON API under `/api`), [`spa`] (the dashboard's built files) and [`ops`] (health, readiness,
//! metrics), [`signs`] (sign files: PDF, PNG, SVG); [`server`] is the connection loop both listeners (public and operations) run. Errors
//! map to HTTP in one place per kind of answer: [`error::AppError`] for pages,
//! [`error::ApiError`] for the API.

pub mod api;
pub mod assets;
pub mod auth;
pub mod bank;
pub mod bank_catch_up;
pub mod bank_certificates;
pub mod bank_refunds;
pub mod billing;
pub mod client_address;
pub mod clock;
pub mod config;
pub mod content;
pub mod error;
pub mod housekeeping;
pub mod html;
pub mod live;
pub mod live_routes;
pub mod mail;
pub mod ops;
pub mod pages;
pub mod payer_cache;
pub mod per_address;
pub mod rate_limit;
pub mod read_your_writes;
pub mod roles;
pub mod router;
pub mod server;
pub mod signs;
pub mod spa;
pub mod state;
pub mod storage;
pub mod telemetry;
pub mod webhook_sender;

pub use router::build_router;
