//! Opening an account: the workflow behind `POST /api/auth/signup`.
//!
//! The gateway parses the form (a normalised address, a display name, a password the policy
//! accepts, hashed with argon2id) and calls [`open_account`], which writes in one transaction:
//! `AccountOpened` (address and name sealed with the account's new vault key), the claim of the
//! address (so of simultaneous sign-ups with one address exactly one succeeds; the others get
//! [`CommandError::ClaimTaken`] in [`EMAIL_SCOPE`]), the vault key, the first session and the
//! verification link's code. A sign-up that succeeded always answers signed in, and one that
//! failed leaves no account (its address stays free to try again). Only the verification e-mail
//! is the caller's, after the commit, with [`Opened::verification`].

use std::time::Duration;

use domain::account::{Account, AccountCommand, AccountError, OpenAccount};

use crate::action_codes::{ActionCode, Purpose};
use crate::claims::{EMAIL_SCOPE, digest, normalise_email};
use crate::effects::Effects;
use crate::error::CommandError;
use crate::expected_version::ExpectedVersion;
use crate::feed::FeedPosition;
use crate::metadata::CommandMetadata;
use crate::service::CommandService;
use crate::sessions::NewSession;
use crate::vault::AccountKey;

/// How long an address verification link works.
pub const VERIFY_EMAIL_TTL: Duration = Duration::from_secs(3 * 24 * 3600);

/// A sign-up, parsed.
#[derive(Debug, Clone)]
pub struct NewAccount {
    /// The sign-in address, checked at the edge (normalised again here).
    pub email: String,
    /// The name, checked at the edge.
    pub display_name: String,
    /// The password's PHC string (argon2id), never the password.
    pub password_hash: String,
    /// The browser's `User-Agent`, for the session list.
    pub user_agent: Option<String>,
    /// When, RFC 3339.
    pub at: String,
}

/// An account opened, signed in.
#[derive(Debug)]
pub struct Opened {
    /// The new account's id.
    pub account_id: String,
    /// The normalised address.
    pub email: String,
    /// The session the answer carries (its refresh token goes into the cookie).
    pub session: NewSession,
    /// The verification link's code, committed with the account: e-mail it after the commit.
    pub verification: ActionCode,
    /// Where `AccountOpened` is in the feed (read-your-writes).
    pub position: Option<FeedPosition>,
}

/// Whether `email` (normalised here) already has an account: an early, cheap answer that spares
/// a sign-up the password hashing. [`open_account`]'s claim is what decides.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn address_taken(
    accounts: &CommandService<Account>,
    email: &str,
) -> Result<bool, CommandError<AccountError>> {
    Ok(crate::claims::owner_of(
        accounts.store().pool(),
        EMAIL_SCOPE,
        &digest(&normalise_email(email)),
    )
    .await?
    .is_some())
}

/// Opens the account, its first session and its verification code, in one transaction.
///
/// # Errors
///
/// [`CommandError::ClaimTaken`] in [`EMAIL_SCOPE`] when the address has an account; storage
/// failures (nothing was written then).
pub async fn open_account(
    accounts: &CommandService<Account>,
    new: NewAccount,
) -> Result<Opened, CommandError<AccountError>> {
    let email = normalise_email(&new.email);
    let account_id = uuid::Uuid::now_v7().to_string();
    let key = AccountKey::generate(&account_id);
    let command = AccountCommand::OpenAccount(OpenAccount {
        account_id: account_id.clone(),
        email: key.seal(&email),
        display_name: key.seal(&new.display_name),
        password_hash: new.password_hash,
        at: new.at,
    });
    let session = NewSession::generate(&account_id, new.user_agent.as_deref());
    let verification = ActionCode::generate();
    let effects = Effects::new()
        .claim(EMAIL_SCOPE, digest(&email), &account_id)
        .store_key(&key)
        .start_session(&session)
        .issue_action_code(
            &verification,
            Purpose::VerifyEmail,
            serde_json::json!({}),
            VERIFY_EMAIL_TTL,
        );
    let outcome = accounts
        .execute_with(
            &account_id,
            command,
            ExpectedVersion::NoStream,
            CommandMetadata::start().by(account_id.clone()),
            &effects,
        )
        .await?;
    tracing::info!(%account_id, "account opened");
    Ok(Opened {
        account_id,
        email,
        session,
        verification,
        position: outcome.position,
    })
}
