//! `/api/auth`: signing up, in and out, tokens, recovery, e-mail changes and their limits.

mod change_email;
mod mail_failure;
pub(crate) mod rate_limits;
mod recovery;
mod sign_in;
mod sign_up;
mod tokens;
