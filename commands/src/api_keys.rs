//! Developer API keys (`api_keys`, from `migrations/0039_api_keys.sql`: side state beside the
//! log, as API Pix receivers are).
//!
//! Making, listing and revoking a key are decided here, each in one statement or transaction;
//! the gateway parses the request ([`domain::api_key::NewApiKey`]), checks the person's right and
//! answers. Only the SHA-256 of a key's secret is stored, so the secret is shown once. A key is
//! found by that digest on every call of the developer API ([`by_token`]), which also says
//! whether its account is still open.

use chrono::{DateTime, Utc};
use domain::api_key::{NewApiKey, Scope};
use domain::refusal::{Refusal, RefusalKind};
use sqlx::PgPool;
use uuid::Uuid;

use crate::error::CommandError;

/// Keys an account may hold unrevoked at once: enough for every system a shop runs, and a bound
/// on what one account stores and lists.
pub const MAX_LIVE_KEYS: i64 = 25;

/// Why a key command is refused. Messages are pt-BR, for the keys screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ApiKeyError {
    /// No unrevoked key with that id in the account (404).
    #[error("Chave de API não encontrada.")]
    NotFound,
    /// The account already holds [`MAX_LIVE_KEYS`] unrevoked keys (409).
    #[error(
        "Esta conta já tem 25 chaves de API ativas. Revogue uma que não use mais para criar outra."
    )]
    TooMany,
}

impl Refusal for ApiKeyError {
    fn code(&self) -> &'static str {
        match self {
            ApiKeyError::NotFound => "not-found",
            ApiKeyError::TooMany => "api-keys-too-many",
        }
    }

    fn kind(&self) -> RefusalKind {
        match self {
            ApiKeyError::NotFound => RefusalKind::NotFound,
            ApiKeyError::TooMany => RefusalKind::Conflict,
        }
    }
}

/// What making a key needs besides the checked request.
#[derive(Debug, Clone)]
pub struct Create<'a> {
    /// The account the key acts for.
    pub account_id: Uuid,
    /// The key as asked for, every rule checked.
    pub key: &'a NewApiKey,
    /// SHA-256 of the secret.
    pub token_digest: &'a [u8],
    /// The secret's first characters, shown in the list.
    pub token_hint: &'a str,
    /// Who made it (a person's account id).
    pub by: &'a str,
}

/// A key as the keys screen lists it (never its secret).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiKeyView {
    /// The key's id (the `api-key:{id}` its events' metadata name).
    pub key_id: Uuid,
    /// The name the owner gave it.
    pub name: String,
    /// What it may do.
    pub scopes: Vec<Scope>,
    /// The secret's first characters.
    pub token_hint: String,
    /// Who made it.
    pub created_by: String,
    /// When.
    pub created_at: DateTime<Utc>,
    /// When it stops working by itself, if ever.
    pub expires_at: Option<DateTime<Utc>>,
    /// When it was revoked, if it was.
    pub revoked_at: Option<DateTime<Utc>>,
    /// When it was last used (to the minute), if ever.
    pub last_used_at: Option<DateTime<Utc>>,
}

#[derive(sqlx::FromRow)]
struct ViewRow {
    key_id: Uuid,
    name: String,
    scopes: Vec<String>,
    token_hint: String,
    created_by: String,
    created_at: DateTime<Utc>,
    expires_at: Option<DateTime<Utc>>,
    revoked_at: Option<DateTime<Utc>>,
    last_used_at: Option<DateTime<Utc>>,
}

fn scopes_of(stored: &[String]) -> Vec<Scope> {
    // Every stored spelling came from `NewApiKey`; one a later version dropped grants nothing.
    stored.iter().filter_map(|s| Scope::parse(s)).collect()
}

/// Makes a key; answers its id.
///
/// # Errors
///
/// [`ApiKeyError::TooMany`], or a storage failure (nothing written).
pub async fn create(pool: &PgPool, create: Create<'_>) -> Result<Uuid, CommandError<ApiKeyError>> {
    let mut tx = pool.begin().await?;
    // Two requests racing for the last free place are ordered; the second counts the first.
    sqlx::query(
        "select pg_advisory_xact_lock(hashtextextended('balcao.api-keys.' || $1::text, 0))",
    )
    .bind(create.account_id)
    .execute(&mut *tx)
    .await?;
    let live: i64 = sqlx::query_scalar(
        "select count(*) from api_keys where account_id = $1 and revoked_at is null",
    )
    .bind(create.account_id)
    .fetch_one(&mut *tx)
    .await?;
    if live >= MAX_LIVE_KEYS {
        return Err(CommandError::Rejected(ApiKeyError::TooMany));
    }
    let key_id = Uuid::now_v7();
    let scopes: Vec<&str> = create.key.scopes.iter().map(|s| s.as_str()).collect();
    sqlx::query(
        "insert into api_keys (key_id, account_id, name, scopes, token_digest, token_hint,
                               created_by, expires_at)
         values ($1, $2, $3, $4, $5, $6, $7, to_timestamp($8::bigint))",
    )
    .bind(key_id)
    .bind(create.account_id)
    .bind(&create.key.name)
    .bind(&scopes)
    .bind(create.token_digest)
    .bind(create.token_hint)
    .bind(create.by)
    .bind(create.key.expires_at)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(key_id)
}

/// The account's keys, unrevoked first, newest first within each; at most 100.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn list(pool: &PgPool, account_id: Uuid) -> Result<Vec<ApiKeyView>, sqlx::Error> {
    let rows: Vec<ViewRow> = sqlx::query_as(
        "select key_id, name, scopes, token_hint, created_by, created_at, expires_at, revoked_at,
                last_used_at
           from api_keys
          where account_id = $1
          order by revoked_at is not null, created_at desc
          limit 100",
    )
    .bind(account_id)
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|row| ApiKeyView {
            key_id: row.key_id,
            name: row.name,
            scopes: scopes_of(&row.scopes),
            token_hint: row.token_hint,
            created_by: row.created_by,
            created_at: row.created_at,
            expires_at: row.expires_at,
            revoked_at: row.revoked_at,
            last_used_at: row.last_used_at,
        })
        .collect())
}

/// Revokes the account's key `key_id`: it stops working at once.
///
/// # Errors
///
/// [`ApiKeyError::NotFound`] when the account has no such unrevoked key, or a storage failure.
pub async fn revoke(
    pool: &PgPool,
    account_id: Uuid,
    key_id: Uuid,
) -> Result<(), CommandError<ApiKeyError>> {
    let updated = sqlx::query(
        "update api_keys set revoked_at = now()
          where key_id = $1 and account_id = $2 and revoked_at is null",
    )
    .bind(key_id)
    .bind(account_id)
    .execute(pool)
    .await?;
    if updated.rows_affected() == 0 {
        return Err(CommandError::Rejected(ApiKeyError::NotFound));
    }
    Ok(())
}

/// A key presented to the developer API, as found by its digest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PresentedKey {
    /// The key.
    pub key_id: Uuid,
    /// The account it acts for.
    pub account_id: Uuid,
    /// What it may do.
    pub scopes: Vec<Scope>,
    /// Whether it works now: not revoked, not expired, and its account exists.
    pub usable: bool,
    /// Whether its account is disabled (nothing may be done in it).
    pub account_disabled: bool,
}

/// The key whose secret hashes to `token_digest`, if any, noting its use (at most once a minute
/// per key, so a busy integration does not write a row per call).
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn by_token(
    pool: &PgPool,
    token_digest: &[u8],
) -> Result<Option<PresentedKey>, sqlx::Error> {
    let row: Option<PresentedRow> = sqlx::query_as(
        "with found as (
             select k.key_id, k.account_id, k.scopes,
                    k.revoked_at is null and (k.expires_at is null or k.expires_at > now())
                        as live,
                    a.disabled
               from api_keys k
               left join accounts a on a.account_id = k.account_id
              where k.token_digest = $1),
         touched as (
             update api_keys k set last_used_at = date_trunc('minute', now())
               from found f
              where k.key_id = f.key_id and f.live
                and (k.last_used_at is null or k.last_used_at < date_trunc('minute', now())))
         select key_id, account_id, scopes, live, disabled from found",
    )
    .bind(token_digest)
    .fetch_optional(pool)
    .await?;
    Ok(row.map(|row| PresentedKey {
        key_id: row.key_id,
        account_id: row.account_id,
        scopes: scopes_of(&row.scopes),
        usable: row.live && row.disabled.is_some(),
        account_disabled: row.disabled.unwrap_or(false),
    }))
}

#[derive(sqlx::FromRow)]
struct PresentedRow {
    key_id: Uuid,
    account_id: Uuid,
    scopes: Vec<String>,
    /// Neither revoked nor expired.
    live: bool,
    /// The account's flag; null when the account has no row (deleted).
    disabled: Option<bool>,
}
