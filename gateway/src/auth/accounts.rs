//! Account administration shared by the API and the `balcao account` command: disabling and
//! enabling an account, and finding one by e-mail.

use commands::claims::{EMAIL_SCOPE, digest, normalise_email};
use commands::{CommandError, CommandMetadata, CommandService};
use domain::account::{Account, AccountCommand, AccountError, DisableAccount, EnableAccount};
use sqlx::PgPool;

use crate::auth::session::{self, EndReason};

/// Why an administrative change did not happen.
#[derive(Debug, thiserror::Error)]
pub enum AdminError {
    /// No open account with that id (or e-mail).
    #[error("conta não encontrada")]
    NotFound,
    /// The account was deleted.
    #[error("a conta foi excluída")]
    Deleted,
    /// PostgreSQL or the command layer failed.
    #[error(transparent)]
    Failed(#[from] anyhow::Error),
}

impl From<CommandError<AccountError>> for AdminError {
    fn from(error: CommandError<AccountError>) -> Self {
        match error {
            CommandError::Rejected(AccountError::NotOpen) => AdminError::NotFound,
            CommandError::Rejected(AccountError::Deleted) => AdminError::Deleted,
            other => AdminError::Failed(anyhow::anyhow!("{other}")),
        }
    }
}

/// The account holding the sign-in e-mail `email` (normalised here), if any.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn find_by_email(pool: &PgPool, email: &str) -> Result<Option<String>, sqlx::Error> {
    commands::claims::owner_of(pool, EMAIL_SCOPE, &digest(&normalise_email(email))).await
}

/// Disables `account_id` (sign-in, refresh and every signed-in call then answer 403
/// `user-disabled`) and ends all its sessions.
///
/// # Errors
///
/// As [`disable`].
pub async fn disable(
    pool: &PgPool,
    accounts: &CommandService<Account>,
    account_id: &str,
) -> Result<(), AdminError> {
    accounts
        .execute(
            account_id,
            AccountCommand::DisableAccount(DisableAccount { at: now() }),
            CommandMetadata::start().by("admin"),
        )
        .await?;
    // After the event, so a sign-in racing with this one either saw the account disabled or
    // gets its new session ended here.
    let ended = session::end_all(pool, account_id, None, EndReason::Disabled)
        .await
        .map_err(anyhow::Error::from)?;
    tracing::info!(account_id, sessions_ended = ended, "account disabled");
    Ok(())
}

/// [`enable`] with an explicit command service (for the command line).
///
/// # Errors
///
/// As [`disable`].
pub async fn enable(
    accounts: &CommandService<Account>,
    account_id: &str,
) -> Result<(), AdminError> {
    accounts
        .execute(
            account_id,
            AccountCommand::EnableAccount(EnableAccount { at: now() }),
            CommandMetadata::start().by("admin"),
        )
        .await?;
    tracing::info!(account_id, "account enabled");
    Ok(())
}

/// Whether `account_id` is disabled now, as its event stream says (not the read model, which
/// may not have seen the disabling yet).
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn is_disabled(
    accounts: &commands::CommandService<domain::account::Account>,
    account_id: &str,
) -> anyhow::Result<bool> {
    let loaded = accounts
        .load(account_id)
        .await
        // Keeps the cause, so that an unavailable database still answers 503.
        .map_err(anyhow::Error::new)?;
    Ok(loaded.aggregate.is_disabled())
}

pub use crate::clock::now;
