//! What an account has, counted from the read models, for the plan's limits.
//!
//! Only the count the action needs is read. Counts come from read models, which trail the log
//! by milliseconds: two creations racing at the very limit can both pass (see
//! `docs/ARCHITECTURE.md`, "Plans and billing").

use domain::subscription::limits::{LimitedAction, Usage};
use sqlx::PgPool;
use uuid::Uuid;

use crate::api::error::ApiError;

fn count(value: i64) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

/// The usage `action` is checked against.
///
/// # Errors
///
/// 503/500 when PostgreSQL fails.
pub async fn of(pool: &PgPool, account: Uuid, action: LimitedAction) -> Result<Usage, ApiError> {
    let mut usage = Usage::default();
    let failed = |e: sqlx::Error| ApiError::unavailable(anyhow::anyhow!(e));
    match action {
        LimitedAction::RegisterPixKey => {
            let n: i64 = sqlx::query_scalar(
                "select count(*) from pix_keys where account_id = $1 and removed_at is null",
            )
            .bind(account)
            .fetch_one(pool)
            .await
            .map_err(failed)?;
            usage.pix_keys = count(n);
        }
        LimitedAction::CreateQrCodes(_) => {
            // The calendar month in São Paulo, where the shops are.
            let n: i64 = sqlx::query_scalar(
                "select count(*) from qrcodes
                  where owner_id = $1
                    and created_at >= date_trunc('month', now() at time zone 'America/Sao_Paulo')
                                      at time zone 'America/Sao_Paulo'",
            )
            .bind(account)
            .fetch_one(pool)
            .await
            .map_err(failed)?;
            usage.qrcodes_this_month = count(n);
        }
        LimitedAction::InviteMember => {
            let n: i64 = sqlx::query_scalar(
                "select count(*) from account_members
                  where account_id = $1 and status in ('invited', 'active')",
            )
            .bind(account)
            .fetch_one(pool)
            .await
            .map_err(failed)?;
            usage.extra_accounts = count(n);
        }
        LimitedAction::TurnOnApiPixEndpoint => {
            let n: i64 = sqlx::query_scalar(
                "select count(*) from api_pix_receivers
                  where account_id = $1 and revoked_at is null",
            )
            .bind(account)
            .fetch_one(pool)
            .await
            .map_err(failed)?;
            usage.api_pix_endpoints = count(n);
        }
        LimitedAction::LogoOnSign | LimitedAction::ExportCsv => {}
    }
    Ok(usage)
}

/// Whether the key `key_id` already has a live API Pix receiver (turning it on again is a
/// conflict, not a new endpoint).
///
/// # Errors
///
/// 503/500 when PostgreSQL fails.
pub async fn receiver_on(pool: &PgPool, key_id: Uuid) -> Result<bool, ApiError> {
    sqlx::query_scalar(
        "select exists (select 1 from api_pix_receivers where key_id = $1 and revoked_at is null)",
    )
    .bind(key_id)
    .fetch_one(pool)
    .await
    .map_err(|e| ApiError::unavailable(anyhow::anyhow!(e)))
}

/// Everything at once, for the subscription page's "usage against each limit".
///
/// # Errors
///
/// 503/500 when PostgreSQL fails.
pub async fn all(pool: &PgPool, account: Uuid) -> Result<Usage, ApiError> {
    let keys = of(pool, account, LimitedAction::RegisterPixKey).await?;
    let codes = of(pool, account, LimitedAction::CreateQrCodes(0)).await?;
    let team = of(pool, account, LimitedAction::InviteMember).await?;
    let endpoints = of(pool, account, LimitedAction::TurnOnApiPixEndpoint).await?;
    Ok(Usage {
        pix_keys: keys.pix_keys,
        qrcodes_this_month: codes.qrcodes_this_month,
        extra_accounts: team.extra_accounts,
        api_pix_endpoints: endpoints.api_pix_endpoints,
    })
}
