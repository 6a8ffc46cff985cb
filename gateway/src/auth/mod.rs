//! Identity: password hashing ([`password`]), access tokens ([`token`]), sessions and refresh
//! tokens ([`session`]), the refresh cookie ([`cookie`]), the rate limits of identity actions
//! and account administration ([`accounts`]). Nothing here knows HTTP's answers.
//!
//! The HTTP side is in the API: the endpoints in [`crate::api::auth`], the extractor that
//! tells handlers who is calling ([`crate::api::caller::Authenticated`]) and the cross-site check
//! on the calls that use the refresh cookie ([`crate::api::same_origin`]).

pub mod accounts;
pub mod cookie;
pub mod password;
pub mod session;
pub mod token;

use std::net::IpAddr;
use std::time::{Duration, Instant};

use domain::account::password_policy::PasswordPolicy;
use sqlx::PgPool;

use crate::config::AuthSettings;
use crate::rate_limit::{RateLimiter, Throttled};
use password::Passwords;
use token::TokenKeys;

/// The `server_secrets` row holding the generated access-token key.
const TOKEN_KEY_SECRET: &str = "access_token_hs256";

/// Everything identity needs at run time; part of [`crate::state::AppState`].
#[derive(Debug)]
pub struct Auth {
    /// Signs and checks access tokens.
    pub tokens: TokenKeys,
    /// Hashes and verifies passwords.
    pub passwords: Passwords,
    /// What a new password must satisfy.
    pub policy: PasswordPolicy,
    /// Whether the refresh cookie is marked `Secure`.
    pub cookie_secure: bool,
    /// Sign-in, recovery, sign-up, verification and invitation rate limits.
    pub limits: AuthLimits,
    /// How long a just-rotated refresh token still answers with the same successor.
    pub refresh_reuse_interval: Duration,
}

impl Auth {
    /// Identity for `settings`, signing with `tokens`.
    pub fn new(settings: &AuthSettings, tokens: TokenKeys) -> Self {
        Auth {
            tokens,
            passwords: Passwords::new(),
            policy: settings.password_policy(),
            cookie_secure: settings.cookie_secure,
            limits: AuthLimits::new(
                settings.auth_per_minute_per_address,
                settings.auth_per_minute_per_email,
            )
            .with_sign_ups_per_address(settings.sign_up_per_minute_per_address)
            .with_invitations_per_account(settings.invitations_per_minute_per_account),
            refresh_reuse_interval: Duration::from_secs(settings.refresh_reuse_interval_secs),
        }
    }
}

/// An action limited per client address and per e-mail (or account).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LimitedAction {
    /// `POST /api/auth/login`.
    SignIn,
    /// `POST /api/auth/recover`.
    Recover,
    /// `POST /api/auth/signup`: per client address with its own budget
    /// (`BALCAO_SIGN_UP_PER_MINUTE_PER_ADDRESS`), and per e-mail.
    SignUp,
    /// `POST /api/auth/send-verification`: per client address and per account.
    SendVerification,
    /// `POST /api/accounts/{id}/members` (each sends an e-mail to any address): per client
    /// address, and per inviting account with its own budget
    /// (`BALCAO_INVITATIONS_PER_MINUTE_PER_ACCOUNT`).
    Invite,
    /// Re-entering the password to change the password or e-mail or to delete the account
    /// (limited per account, keyed by its id in the per-e-mail budget), so a borrowed signed-in
    /// device cannot be used to guess the password.
    ConfirmPassword,
}

/// Per-address and per-e-mail budgets, kept apart per action so that a few failed sign-ins do
/// not also block the recovery e-mail. Sign-ups have a budget per address of their own, and
/// invitations one per account.
#[derive(Debug)]
pub struct AuthLimits {
    per_address: RateLimiter<(LimitedAction, IpAddr)>,
    per_email: RateLimiter<(LimitedAction, String)>,
    sign_ups_per_address: RateLimiter<(LimitedAction, IpAddr)>,
    invitations_per_account: RateLimiter<(LimitedAction, String)>,
}

impl AuthLimits {
    /// `per_address` and `per_email` attempts per minute, for each action (sign-ups per address
    /// and invitations per account too, until set apart).
    pub fn new(per_address: u32, per_email: u32) -> Self {
        AuthLimits {
            per_address: RateLimiter::per_minute(per_address),
            per_email: RateLimiter::per_minute(per_email),
            sign_ups_per_address: RateLimiter::per_minute(per_address),
            invitations_per_account: RateLimiter::per_minute(per_email),
        }
    }

    /// Allows `per_minute` sign-ups per client address.
    #[must_use]
    pub fn with_sign_ups_per_address(mut self, per_minute: u32) -> Self {
        self.sign_ups_per_address = RateLimiter::per_minute(per_minute);
        self
    }

    /// Allows `per_minute` invitations per inviting account.
    #[must_use]
    pub fn with_invitations_per_account(mut self, per_minute: u32) -> Self {
        self.invitations_per_account = RateLimiter::per_minute(per_minute);
        self
    }

    fn address_budget(&self, action: LimitedAction) -> &RateLimiter<(LimitedAction, IpAddr)> {
        match action {
            LimitedAction::SignUp => &self.sign_ups_per_address,
            _ => &self.per_address,
        }
    }

    fn key_budget(&self, action: LimitedAction) -> &RateLimiter<(LimitedAction, String)> {
        match action {
            LimitedAction::Invite => &self.invitations_per_account,
            _ => &self.per_email,
        }
    }

    /// Takes one attempt of `action` from `address`'s budget and then from the e-mail's
    /// (`email_digest`, the SHA-256 of the normalised address, so no plain address is kept; for
    /// per-account actions, the digest of the account id).
    ///
    /// # Errors
    ///
    /// [`Throttled`] (429 `too-many-requests` with `Retry-After` at the edges) when either
    /// budget is spent. A refusal by address does not spend the e-mail's budget.
    pub fn check(
        &self,
        action: LimitedAction,
        address: Option<IpAddr>,
        email_digest: Option<&str>,
    ) -> Result<(), Throttled> {
        let now = Instant::now();
        let too_many = |retry_after: std::time::Duration| Throttled { retry_after };
        if let Some(address) = address {
            self.address_budget(action)
                .check((action, address), now)
                .map_err(too_many)?;
        }
        if let Some(digest) = email_digest {
            self.key_budget(action)
                .check((action, digest.to_owned()), now)
                .map_err(too_many)?;
        }
        Ok(())
    }
}

/// The access-token keys: from `configured` (`BALCAO_TOKEN_SECRET`), or the key generated once
/// into `server_secrets`, so every gateway of a cluster signs with the same one and tokens
/// survive restarts.
///
/// # Errors
///
/// When the configured secret is shorter than 32 bytes, or PostgreSQL fails.
pub async fn token_keys(pool: &PgPool, configured: Option<&str>) -> anyhow::Result<TokenKeys> {
    if let Some(secret) = configured.filter(|s| !s.is_empty()) {
        return TokenKeys::new(secret.as_bytes())
            .map_err(|e| anyhow::anyhow!("BALCAO_TOKEN_SECRET: {e}"));
    }
    let fresh = token::random_bytes::<32>();
    let stored = commands::secrets::get_or_store(pool, TOKEN_KEY_SECRET, &fresh).await?;
    TokenKeys::new(&stored)
}

/// Seconds since the Unix epoch, now.
pub fn now_secs() -> i64 {
    chrono::Utc::now().timestamp()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_over_its_budget_is_refused_with_a_wait_and_keeps_the_emails_budget() {
        let limits = AuthLimits::new(2, 3);
        let address = Some(IpAddr::from([192, 0, 2, 1]));
        for _ in 0..2 {
            limits
                .check(LimitedAction::SignIn, address, Some("d1"))
                .expect("allowed");
        }
        let refused = limits
            .check(LimitedAction::SignIn, address, Some("d1"))
            .expect_err("over the address budget");
        assert!(
            refused.retry_after > std::time::Duration::ZERO,
            "{refused:?}"
        );
        // Recovery has its own budget.
        limits
            .check(LimitedAction::Recover, address, Some("d1"))
            .expect("allowed");
        // The e-mail's budget was spent twice, not three times: one attempt is left from
        // another address, then the e-mail's budget refuses.
        let elsewhere = Some(IpAddr::from([192, 0, 2, 2]));
        limits
            .check(LimitedAction::SignIn, elsewhere, Some("d1"))
            .expect("allowed");
        assert!(
            limits
                .check(LimitedAction::SignIn, elsewhere, Some("d1"))
                .is_err()
        );
        let third = Some(IpAddr::from([192, 0, 2, 3]));
        limits
            .check(LimitedAction::SignIn, third, Some("d2"))
            .expect("another e-mail");
    }

    #[test]
    fn sign_ups_and_invitations_have_budgets_of_their_own() {
        let limits = AuthLimits::new(100, 100)
            .with_sign_ups_per_address(1)
            .with_invitations_per_account(2);
        let address = Some(IpAddr::from([192, 0, 2, 1]));
        limits
            .check(LimitedAction::SignUp, address, Some("e1"))
            .expect("allowed");
        assert!(
            limits
                .check(LimitedAction::SignUp, address, Some("e2"))
                .is_err()
        );
        for _ in 0..2 {
            limits
                .check(LimitedAction::Invite, address, Some("owner"))
                .expect("allowed");
        }
        assert!(
            limits
                .check(LimitedAction::Invite, address, Some("owner"))
                .is_err()
        );
        // Sign-in from the same address is untouched.
        limits
            .check(LimitedAction::SignIn, address, Some("e1"))
            .expect("allowed");
    }
}
