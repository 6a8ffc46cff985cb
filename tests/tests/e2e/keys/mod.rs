//! `/api/accounts/{accountId}/keys`: an account's Pix keys through HTTP (issue 10), who may do
//! what with them, and the workspace a creation is aimed at.

mod authorization;
mod registering;
mod workspace;
