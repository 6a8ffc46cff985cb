//! `/api/account` and `/api/workspaces`: settings, teams, QR codes, deletion, and who may do what.

mod authorization_matrix;
mod code_downloads;
mod deletion;
mod qrcode_desk;
mod qrcodes;
mod settings;
pub(crate) mod support;
mod team;
