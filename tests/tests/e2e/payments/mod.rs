//! Payments (issue 15): the API Pix receiver, manual records and voids, the sandbox, the
//! `payments` and `daily_totals` read models, and who may do what.

mod authorization;
mod hostile;
mod intake;
pub(crate) mod live;
mod manual;
mod payer_page;
mod payer_page_cache;
mod receiver;
mod replay;
mod sandbox;
mod single_use;
mod statement;
mod statement_api;
mod statement_background;
mod summary;
mod summary_by_day;
pub(crate) mod support;
mod transactions;
