//! What an account has, counted for the plan's page, and the in-process queue of an account's
//! QR-code creations.
//!
//! Every limit is decided by the command that makes the thing, in its own transaction or from
//! its own aggregate (issue 34): QR codes by their month's count ([`commands::qrcode_usage`]),
//! Pix keys by the key ring's active keys, the team by the account's members and open
//! invitations, API Pix receivers by their count under the account's lock
//! ([`commands::api_pix_receivers`]). [`all`] reads the same counts for the plan page: the
//! aggregates loaded from the log, so the page agrees with what the next command will decide.
//! QR-code creations of one account queue in memory first ([`turn`]), so waiters neither poll
//! PostgreSQL nor hold a connection while the count's row lock orders them.

use std::sync::{Arc, LazyLock};
use std::time::Duration;

use domain::account::Account;
use domain::key_ring::PixKeyRing;
use domain::subscription::limits::Usage;
use uuid::Uuid;

use super::BillingError;

/// Longest a QR-code creation waits for another of the same account to finish.
pub const HOLD_PATIENCE: Duration = Duration::from_secs(10);
/// How many in-process queues the accounts are spread over.
const STRIPES: usize = 256;

/// The in-process queue of `account`'s QR-code creations. Two accounts may share one (a
/// collision only orders them one after the other in this process); none is ever removed.
fn stripe(account: Uuid) -> Arc<tokio::sync::Mutex<()>> {
    static QUEUES: LazyLock<Vec<Arc<tokio::sync::Mutex<()>>>> = LazyLock::new(|| {
        (0..STRIPES)
            .map(|_| Arc::new(tokio::sync::Mutex::new(())))
            .collect()
    });
    // The low bits of a v4 or v7 id are random.
    let index = usize::try_from(account.as_u128() % STRIPES as u128).unwrap_or(0);
    QUEUES[index].clone()
}

/// `account`'s turn among this process's QR-code creations of the account (keep it until the
/// command is written): the others wait in memory, holding no database connection, at most
/// [`HOLD_PATIENCE`].
///
/// # Errors
///
/// 503 when the turn does not come that soon.
pub async fn turn(account: Uuid) -> Result<tokio::sync::OwnedMutexGuard<()>, BillingError> {
    tokio::time::timeout(HOLD_PATIENCE, stripe(account).lock_owned())
        .await
        .map_err(|_| BillingError::Busy(HOLD_PATIENCE))
}

/// Everything at once, for the subscription page's "usage against each limit".
///
/// # Errors
///
/// 503/500 when PostgreSQL fails.
pub async fn all(
    store: &commands::PgEventStore,
    pool: &sqlx::PgPool,
    account: Uuid,
) -> Result<Usage, BillingError> {
    let stream = account.to_string();
    let ring = store
        .load::<PixKeyRing>(&stream)
        .await
        .map_err(BillingError::unreadable)?;
    let team = store
        .load::<Account>(&stream)
        .await
        .map_err(BillingError::unreadable)?;
    let failed = BillingError::unreadable;
    Ok(Usage {
        pix_keys: ring.aggregate.active_count(),
        qrcodes_this_month: commands::qrcode_usage::this_month(pool, account)
            .await
            .map_err(failed)?,
        extra_accounts: team.aggregate.team_size(),
        api_pix_endpoints: commands::api_pix_receivers::live_count(pool, account)
            .await
            .map_err(failed)?,
    })
}
