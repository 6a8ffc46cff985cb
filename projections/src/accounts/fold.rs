//! The `accounts` projection: folds Account events into `accounts` and `account_members`.

use std::collections::HashMap;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use commands::Upcasters;
use commands::feed::StoredEvent;
use commands::vault::{AccountKey, VaultError, load_key};
use domain::account::AccountEvent;
use domain::sealed::Sealed;
use serde::de::DeserializeOwned;
use sqlx::{AssertSqlSafe, PgConnection};
use uuid::Uuid;

use super::{ACCOUNTS_TABLE, MEMBERS_TABLE, NAME, STREAM_TYPE};
use crate::projection::{ApplyError, Projection, TableSet};

/// The `accounts` projection (tables `accounts` and `account_members`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Accounts;

/// The physical names of the two tables being written.
struct Tables {
    accounts: String,
    members: String,
}

#[async_trait]
impl Projection for Accounts {
    fn name(&self) -> &'static str {
        NAME
    }

    fn streams(&self) -> Option<&'static [&'static str]> {
        Some(&[STREAM_TYPE])
    }

    fn tables(&self) -> &'static [&'static str] {
        &[ACCOUNTS_TABLE, MEMBERS_TABLE]
    }

    async fn apply_batch(
        &self,
        conn: &mut PgConnection,
        target: &TableSet,
        upcasters: &Upcasters,
        events: &[StoredEvent],
    ) -> Result<(), ApplyError> {
        let tables = Tables {
            accounts: target.table(ACCOUNTS_TABLE),
            members: target.table(MEMBERS_TABLE),
        };
        // Accounts are few per batch and their events many: load each key once per batch.
        let mut keys = Keys::default();
        for event in events {
            if event.stream_type != STREAM_TYPE {
                continue;
            }
            if let Some(decoded) = decode(upcasters, event)? {
                fold(conn, &tables, &mut keys, event, decoded).await?;
            }
        }
        Ok(())
    }
}

/// The Account event in `event`, or `None` for an event type this read model does not use.
fn decode(upcasters: &Upcasters, event: &StoredEvent) -> Result<Option<AccountEvent>, ApplyError> {
    /// Reads a known event type's payload (upcast already), refusing any schema version but the
    /// current one.
    fn read<T: DeserializeOwned>(event: &StoredEvent, current: i32) -> Result<T, ApplyError> {
        if event.schema_version != current {
            return Err(rejected(
                event,
                format!(
                    "unknown schema version {} of {}",
                    event.schema_version, event.event_type
                ),
            ));
        }
        // The stored payload also holds the `type` tag; the variant structs ignore it.
        event.payload.deserialize::<T>().map_err(|error| {
            rejected(
                event,
                format!(
                    "payload of {} v{current} does not deserialise: {error}",
                    event.event_type
                ),
            )
        })
    }
    let current = upcasters.current_version(&event.event_type);
    let decoded = match event.event_type.as_str() {
        "AccountOpened" => AccountEvent::AccountOpened(read(event, current)?),
        "EmailVerified" => AccountEvent::EmailVerified(read(event, current)?),
        "PasswordChanged" => AccountEvent::PasswordChanged(read(event, current)?),
        "ProfileUpdated" => AccountEvent::ProfileUpdated(read(event, current)?),
        "PhotoChanged" => AccountEvent::PhotoChanged(read(event, current)?),
        "EmailChanged" => AccountEvent::EmailChanged(read(event, current)?),
        "AccountDisabled" => AccountEvent::AccountDisabled(read(event, current)?),
        "AccountEnabled" => AccountEvent::AccountEnabled(read(event, current)?),
        "AccountDeleted" => AccountEvent::AccountDeleted(read(event, current)?),
        "MemberInvited" => AccountEvent::MemberInvited(read(event, current)?),
        "MemberJoined" => AccountEvent::MemberJoined(read(event, current)?),
        "MemberRemoved" => AccountEvent::MemberRemoved(read(event, current)?),
        // A type added later that this read model has no use for.
        _ => return Ok(None),
    };
    Ok(Some(decoded))
}

/// Applies one Account event to the tables.
async fn fold(
    conn: &mut PgConnection,
    tables: &Tables,
    keys: &mut Keys,
    event: &StoredEvent,
    change: AccountEvent,
) -> Result<(), ApplyError> {
    let owner = change.account_id().to_owned();
    let account_id = uuid(event, &owner)?;
    let at = timestamp(event, change.at())?;
    let version = event.stream_version;
    let a = &tables.accounts;
    let m = &tables.members;
    match change {
        AccountEvent::AccountOpened(opened) => {
            let email = keys.open(conn, event, &owner, Some(&opened.email)).await?;
            let name = keys
                .open(conn, event, &owner, Some(&opened.display_name))
                .await?;
            sqlx::query(AssertSqlSafe(format!(
                "insert into {a} (account_id, email, email_verified, display_name, phone_number,
                                  photo_url, default_merchant_name, default_merchant_city,
                                  disabled, created_at, updated_at, version)
                 values ($1, $2, false, $3, null, null, null, null, false, $4, $4, $5)"
            )))
            .bind(account_id)
            .bind(email)
            .bind(name)
            .bind(at)
            .bind(version)
            .execute(&mut *conn)
            .await?;
        }
        AccountEvent::EmailVerified(_) => {
            touch(conn, a, "email_verified = true", account_id, at, version).await?;
        }
        // The hash is not part of the read model; the row still moves to the new version.
        AccountEvent::PasswordChanged(_) => touch(conn, a, "", account_id, at, version).await?,
        AccountEvent::ProfileUpdated(updated) => {
            let name = keys
                .open(conn, event, &owner, Some(&updated.display_name))
                .await?;
            let phone = keys
                .open(conn, event, &owner, updated.phone_number.as_ref())
                .await?;
            let merchant_name = keys
                .open(conn, event, &owner, updated.default_merchant_name.as_ref())
                .await?;
            let merchant_city = keys
                .open(conn, event, &owner, updated.default_merchant_city.as_ref())
                .await?;
            sqlx::query(AssertSqlSafe(format!(
                "update {a} set display_name = $4, phone_number = $5, default_merchant_name = $6,
                                default_merchant_city = $7, updated_at = $2, version = $3
                  where account_id = $1"
            )))
            .bind(account_id)
            .bind(at)
            .bind(version)
            .bind(name)
            .bind(phone)
            .bind(merchant_name)
            .bind(merchant_city)
            .execute(&mut *conn)
            .await?;
        }
        AccountEvent::PhotoChanged(changed) => {
            sqlx::query(AssertSqlSafe(format!(
                "update {a} set photo_url = $4, updated_at = $2, version = $3
                  where account_id = $1"
            )))
            .bind(account_id)
            .bind(at)
            .bind(version)
            .bind(changed.photo_url)
            .execute(&mut *conn)
            .await?;
        }
        AccountEvent::EmailChanged(changed) => {
            let email = keys.open(conn, event, &owner, Some(&changed.email)).await?;
            sqlx::query(AssertSqlSafe(format!(
                "update {a} set email = $4, email_verified = false, updated_at = $2, version = $3
                  where account_id = $1"
            )))
            .bind(account_id)
            .bind(at)
            .bind(version)
            .bind(email)
            .execute(&mut *conn)
            .await?;
        }
        AccountEvent::AccountDisabled(_) => {
            touch(conn, a, "disabled = true", account_id, at, version).await?;
        }
        AccountEvent::AccountEnabled(_) => {
            touch(conn, a, "disabled = false", account_id, at, version).await?;
        }
        AccountEvent::AccountDeleted(_) => {
            sqlx::query(AssertSqlSafe(format!(
                "delete from {a} where account_id = $1"
            )))
            .bind(account_id)
            .execute(&mut *conn)
            .await?;
            // Its own team, and its places in other accounts' teams.
            sqlx::query(AssertSqlSafe(format!(
                "delete from {m} where account_id = $1 or member_account_id = $1"
            )))
            .bind(account_id)
            .execute(&mut *conn)
            .await?;
            keys.forget(&owner);
        }
        AccountEvent::MemberInvited(invited) => {
            // Sealed with the invitation's own key (shredded when the invitation ends).
            let key_id = commands::vault::invitation_key_id(&invited.invitation_id);
            let email = keys
                .open(conn, event, &key_id, Some(&invited.email))
                .await?;
            // An `owner` role breaks the table's check constraint: the runtime parks the event.
            sqlx::query(AssertSqlSafe(format!(
                "insert into {m} (account_id, invitation_id, email, role, status,
                                  member_account_id, invited_at, joined_at)
                 values ($1, $2, $3, $4, 'invited', null, $5, null)"
            )))
            .bind(account_id)
            .bind(invited.invitation_id)
            .bind(email)
            .bind(invited.role.as_str())
            .bind(at)
            .execute(&mut *conn)
            .await?;
            touch(conn, a, "", account_id, at, version).await?;
        }
        AccountEvent::MemberJoined(joined) => {
            let member_account_id = uuid(event, &joined.member_account_id)?;
            sqlx::query(AssertSqlSafe(format!(
                "update {m} set status = 'active', member_account_id = $3, joined_at = $4
                  where account_id = $1 and invitation_id = $2"
            )))
            .bind(account_id)
            .bind(joined.invitation_id)
            .bind(member_account_id)
            .bind(at)
            .execute(&mut *conn)
            .await?;
            touch(conn, a, "", account_id, at, version).await?;
        }
        AccountEvent::MemberRemoved(removed) => {
            sqlx::query(AssertSqlSafe(format!(
                "delete from {m} where account_id = $1 and invitation_id = $2"
            )))
            .bind(account_id)
            .bind(removed.invitation_id)
            .execute(&mut *conn)
            .await?;
            touch(conn, a, "", account_id, at, version).await?;
        }
    }
    Ok(())
}

/// Moves the account's row to `version` (and `updated_at` to `at`), also setting `extra` (a
/// fixed SQL assignment list from this module, or empty).
async fn touch(
    conn: &mut PgConnection,
    accounts: &str,
    extra: &str,
    account_id: Uuid,
    at: DateTime<Utc>,
    version: i64,
) -> Result<(), ApplyError> {
    let extra = if extra.is_empty() {
        String::new()
    } else {
        format!("{extra}, ")
    };
    sqlx::query(AssertSqlSafe(format!(
        "update {accounts} set {extra}updated_at = $2, version = $3 where account_id = $1"
    )))
    .bind(account_id)
    .bind(at)
    .bind(version)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Account keys loaded during one batch (`None`: the account has no key, it was shredded).
#[derive(Default)]
struct Keys {
    loaded: HashMap<String, Option<AccountKey>>,
}

impl Keys {
    /// Opens `sealed` with `account_id`'s key. `None` when there is nothing to open, the key is
    /// gone, or the value does not open with it (logged: that is not supposed to happen).
    async fn open(
        &mut self,
        conn: &mut PgConnection,
        event: &StoredEvent,
        account_id: &str,
        sealed: Option<&Sealed>,
    ) -> Result<Option<String>, ApplyError> {
        let Some(sealed) = sealed else {
            return Ok(None);
        };
        if !self.loaded.contains_key(account_id) {
            let key = load_key(&mut *conn, account_id)
                .await
                .map_err(|error| match error {
                    VaultError::Storage(error) => ApplyError::Database(error),
                    other => rejected(event, format!("the account's key: {other}")),
                })?;
            self.loaded.insert(account_id.to_owned(), key);
        }
        let Some(Some(key)) = self.loaded.get(account_id) else {
            return Ok(None);
        };
        match key.open(sealed) {
            Ok(plain) => Ok(Some(plain)),
            Err(error) => {
                tracing::warn!(
                    projection = NAME,
                    event_id = %event.event_id,
                    %error,
                    "a sealed field does not open with its account's key; stored as null"
                );
                Ok(None)
            }
        }
    }

    /// Drops a key from the cache once its account is deleted (its row is gone with it).
    fn forget(&mut self, account_id: &str) {
        self.loaded.remove(account_id);
    }
}

fn uuid(event: &StoredEvent, text: &str) -> Result<Uuid, ApplyError> {
    Uuid::parse_str(text)
        .map_err(|error| rejected(event, format!("account id {text:?} is not a UUID: {error}")))
}

fn timestamp(event: &StoredEvent, text: &str) -> Result<DateTime<Utc>, ApplyError> {
    DateTime::parse_from_rfc3339(text)
        .map(|at| at.with_timezone(&Utc))
        .map_err(|error| rejected(event, format!("`at` {text:?} is not RFC 3339: {error}")))
}

fn rejected(event: &StoredEvent, reason: String) -> ApplyError {
    ApplyError::Rejected {
        event_id: event.event_id,
        reason,
    }
}
