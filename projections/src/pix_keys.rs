//! Read model `pix_keys`: every Pix key an account registered, with its key, holder name and label
//! readable; removed keys keep their row with `removed_at` set.
//!
//! Built from the key ring's events (stream type `pix_keys`, upcast to their current schema
//! versions by the runtime; the table comes from `migrations/0007_pix_keys.sql` only) and from
//! `AccountDeleted` (stream type `account`), which deletes the account's rows. The sealed values
//! are opened with the account's key (`commands::vault::load_key`) inside the projection's own
//! transaction; a key that is gone (the account was deleted: crypto-shredding) leaves them null,
//! on replay too, before `AccountDeleted` deletes the rows again.
//!
//! The gateway reads it with [`list_active`], [`find`], [`find_active_by_key`] and
//! [`holder_for`]; what decides with a registered key reads [`find_or_from_log`], which falls
//! back on the key ring's stream while the read model lags.

use std::collections::HashMap;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use commands::Upcasters;
use commands::feed::StoredEvent;
use commands::vault::{AccountKey, VaultError, load_key};
use domain::key_ring::KeyRingEvent;
use domain::sealed::Sealed;
use serde::de::DeserializeOwned;
use sqlx::{AssertSqlSafe, PgConnection, PgExecutor};
use uuid::Uuid;

use crate::error::Error;
use crate::projection::{ApplyError, Projection, TableSet};

/// The projection's name (durable consumer, checkpoint key).
pub const NAME: &str = "pix_keys";
/// The live table.
pub const TABLE: &str = "pix_keys";
/// Stream type of the key ring.
pub const STREAM_TYPE: &str = domain::key_ring::STREAM_TYPE;

/// One registered key as the gateway shows it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct PixKeyView {
    /// The key's id.
    pub key_id: Uuid,
    /// The account it belongs to.
    pub account_id: Uuid,
    /// `cpf`, `cnpj`, `email`, `phone` or `evp`.
    pub key_kind: String,
    /// The key in DICT form; `None` when it cannot be opened.
    pub pix_key: Option<String>,
    /// The label, if any.
    pub label: Option<String>,
    /// The holder's name as the bank shows it; `None` when it cannot be opened.
    pub holder_name: Option<String>,
    /// Whether it is the account's default key.
    pub is_default: bool,
    /// Who registered it.
    pub created_by: Option<Uuid>,
    /// When it was registered.
    pub created_at: DateTime<Utc>,
    /// When it was renamed last (or registered).
    pub updated_at: DateTime<Utc>,
    /// When it was removed.
    pub removed_at: Option<DateTime<Utc>>,
}

const COLUMNS: &str = "key_id, account_id, key_kind, pix_key, label, holder_name, is_default,
                       created_by, created_at, updated_at, removed_at";

/// The account's active keys: the default first, then oldest first.
pub async fn list_active<'e>(
    executor: impl PgExecutor<'e>,
    account_id: Uuid,
) -> Result<Vec<PixKeyView>, Error> {
    Ok(sqlx::query_as(AssertSqlSafe(format!(
        "select {COLUMNS} from pix_keys
          where account_id = $1 and removed_at is null
          order by is_default desc, created_at, key_id"
    )))
    .bind(account_id)
    .fetch_all(executor)
    .await?)
}

/// The key `key_id` of account `account_id`, removed or not; `None` when the account has no
/// such key (another account's key included).
pub async fn find<'e>(
    executor: impl PgExecutor<'e>,
    account_id: Uuid,
    key_id: Uuid,
) -> Result<Option<PixKeyView>, Error> {
    Ok(sqlx::query_as(AssertSqlSafe(format!(
        "select {COLUMNS} from pix_keys where key_id = $1 and account_id = $2"
    )))
    .bind(key_id)
    .bind(account_id)
    .fetch_optional(executor)
    .await?)
}

/// The key `key_id` of account `account_id` from the read model or, when the read model does
/// not have it yet (its projector stopped or behind), from the account's key ring in the event
/// log, opened with the account's key as the projection opens it. What a request decides with a
/// registered key (a QR code, a payment link, a receiver) must find a key registered a moment
/// ago: the key ring's command has committed it, whatever the projector's lag.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn find_or_from_log(
    pool: &sqlx::PgPool,
    store: &commands::PgEventStore,
    account_id: Uuid,
    key_id: Uuid,
) -> Result<Option<PixKeyView>, Error> {
    if let Some(view) = find(pool, account_id, key_id).await? {
        return Ok(Some(view));
    }
    let account = account_id.hyphenated().to_string();
    let events = store.read_stream(STREAM_TYPE, &account).await?;
    let key = match load_key(pool, &account).await {
        Ok(key) => key,
        Err(VaultError::Storage(error)) => return Err(error.into()),
        // A key that cannot be read opens nothing, as in the projection.
        Err(_) => None,
    };
    let open = |sealed: Option<&Sealed>| {
        sealed.and_then(|sealed| key.as_ref().and_then(|key| key.open(sealed).ok()))
    };
    let wanted = key_id.hyphenated().to_string();
    let mut view: Option<PixKeyView> = None;
    for event in &events {
        // The projection parks what it cannot read; the fold passes over it.
        let Ok(Some(change)) = decode(store.upcasters(), event) else {
            continue;
        };
        let Ok(at) = timestamp(event, change.at()) else {
            continue;
        };
        match change {
            KeyRingEvent::PixKeyRegistered(registered) if registered.key_id == wanted => {
                view = Some(PixKeyView {
                    key_id,
                    account_id,
                    key_kind: registered.key_kind.clone(),
                    pix_key: open(Some(&registered.pix_key)),
                    label: open(registered.label.as_ref()),
                    holder_name: open(Some(&registered.holder_name)),
                    is_default: false,
                    created_by: Uuid::parse_str(&registered.by).ok(),
                    created_at: at,
                    updated_at: at,
                    removed_at: None,
                });
            }
            KeyRingEvent::PixKeyRenamed(renamed) if renamed.key_id == wanted => {
                if let Some(view) = view.as_mut() {
                    view.holder_name = open(Some(&renamed.holder_name));
                    view.label = open(renamed.label.as_ref());
                    view.updated_at = at;
                }
            }
            KeyRingEvent::DefaultPixKeyChosen(chosen) => {
                if let Some(view) = view.as_mut() {
                    view.is_default = chosen.key_id == wanted;
                }
            }
            KeyRingEvent::PixKeyRemoved(removed) if removed.key_id == wanted => {
                if let Some(view) = view.as_mut() {
                    view.removed_at = Some(at);
                    view.is_default = false;
                }
            }
            _ => {}
        }
    }
    Ok(view)
}

/// The active key of account `account_id` whose DICT form is `pix_key`, if it registered one.
pub async fn find_active_by_key<'e>(
    executor: impl PgExecutor<'e>,
    account_id: Uuid,
    pix_key: &str,
) -> Result<Option<PixKeyView>, Error> {
    Ok(sqlx::query_as(AssertSqlSafe(format!(
        "select {COLUMNS} from pix_keys
          where account_id = $1 and pix_key = $2 and removed_at is null"
    )))
    .bind(account_id)
    .bind(pix_key)
    .fetch_optional(executor)
    .await?)
}

/// The holder's name the payer's bank shows for a code of account `account_id` made with the
/// registered key `key_id`, or, for a code made with a typed key (`key_id` `None`), with the
/// account's active key whose DICT form is `pix_key`; `None` when the account registered
/// neither or the name cannot be opened.
pub async fn holder_for<'e>(
    executor: impl PgExecutor<'e>,
    account_id: Uuid,
    key_id: Option<Uuid>,
    pix_key: &str,
) -> Result<Option<String>, Error> {
    Ok(sqlx::query_scalar(
        "select holder_name from pix_keys
          where account_id = $1
            and (key_id = $2 or ($2::uuid is null and pix_key = $3 and removed_at is null))
          limit 1",
    )
    .bind(account_id)
    .bind(key_id)
    .bind(pix_key)
    .fetch_optional(executor)
    .await?
    .flatten())
}

/// The `pix_keys` projection.
#[derive(Debug, Clone, Copy, Default)]
pub struct PixKeys;

#[async_trait]
impl Projection for PixKeys {
    fn name(&self) -> &'static str {
        NAME
    }

    fn streams(&self) -> Option<&'static [&'static str]> {
        // Account events for `AccountDeleted`.
        Some(&[STREAM_TYPE, domain::account::STREAM_TYPE])
    }

    fn tables(&self) -> &'static [&'static str] {
        &[TABLE]
    }

    async fn apply_batch(
        &self,
        conn: &mut PgConnection,
        target: &TableSet,
        upcasters: &Upcasters,
        events: &[StoredEvent],
    ) -> Result<(), ApplyError> {
        let table = target.table(TABLE);
        // Accounts are few per batch: load each one's key once.
        let mut keys = Keys::default();
        for event in events {
            if event.stream_type == domain::account::STREAM_TYPE
                && event.event_type == "AccountDeleted"
            {
                let account_id = uuid(event, &event.stream_id)?;
                sqlx::query(AssertSqlSafe(format!(
                    "delete from {table} where account_id = $1"
                )))
                .bind(account_id)
                .execute(&mut *conn)
                .await?;
                keys.loaded.remove(&event.stream_id);
                continue;
            }
            if event.stream_type != STREAM_TYPE {
                continue;
            }
            if let Some(decoded) = decode(upcasters, event)? {
                fold(conn, &table, &mut keys, event, decoded).await?;
            }
        }
        Ok(())
    }
}

/// The key-ring event in `event`, or `None` for a type this read model does not use.
fn decode(upcasters: &Upcasters, event: &StoredEvent) -> Result<Option<KeyRingEvent>, ApplyError> {
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
        "PixKeyRegistered" => KeyRingEvent::PixKeyRegistered(read(event, current)?),
        "PixKeyRenamed" => KeyRingEvent::PixKeyRenamed(read(event, current)?),
        "DefaultPixKeyChosen" => KeyRingEvent::DefaultPixKeyChosen(read(event, current)?),
        "PixKeyRemoved" => KeyRingEvent::PixKeyRemoved(read(event, current)?),
        _ => return Ok(None),
    };
    Ok(Some(decoded))
}

/// Applies one key-ring event.
async fn fold(
    conn: &mut PgConnection,
    table: &str,
    keys: &mut Keys,
    event: &StoredEvent,
    change: KeyRingEvent,
) -> Result<(), ApplyError> {
    let owner = change.account_id().to_owned();
    let account_id = uuid(event, &owner)?;
    let key_id = uuid(event, change.key_id())?;
    let at = timestamp(event, change.at())?;
    match change {
        KeyRingEvent::PixKeyRegistered(registered) => {
            let pix_key = keys
                .open(conn, event, &owner, Some(&registered.pix_key))
                .await?;
            let holder = keys
                .open(conn, event, &owner, Some(&registered.holder_name))
                .await?;
            let label = keys
                .open(conn, event, &owner, registered.label.as_ref())
                .await?;
            let created_by = Uuid::parse_str(&registered.by).ok();
            // A kind outside the check constraint makes the insert fail: the runtime parks it.
            sqlx::query(AssertSqlSafe(format!(
                "insert into {table} (key_id, account_id, key_kind, pix_key, label, holder_name,
                                      is_default, created_by, created_at, updated_at, removed_at)
                 values ($1, $2, $3, $4, $5, $6, false, $7, $8, $8, null)"
            )))
            .bind(key_id)
            .bind(account_id)
            .bind(&registered.key_kind)
            .bind(pix_key)
            .bind(label)
            .bind(holder)
            .bind(created_by)
            .bind(at)
            .execute(&mut *conn)
            .await?;
        }
        KeyRingEvent::PixKeyRenamed(renamed) => {
            let holder = keys
                .open(conn, event, &owner, Some(&renamed.holder_name))
                .await?;
            let label = keys
                .open(conn, event, &owner, renamed.label.as_ref())
                .await?;
            sqlx::query(AssertSqlSafe(format!(
                "update {table} set holder_name = $3, label = $4, updated_at = $5
                  where key_id = $1 and account_id = $2"
            )))
            .bind(key_id)
            .bind(account_id)
            .bind(holder)
            .bind(label)
            .bind(at)
            .execute(&mut *conn)
            .await?;
        }
        KeyRingEvent::DefaultPixKeyChosen(_) => {
            // One statement moves the flag: the old default loses it as the new one gains it.
            sqlx::query(AssertSqlSafe(format!(
                "update {table} set is_default = (key_id = $2)
                  where account_id = $1 and (is_default or key_id = $2)"
            )))
            .bind(account_id)
            .bind(key_id)
            .execute(&mut *conn)
            .await?;
        }
        KeyRingEvent::PixKeyRemoved(_) => {
            sqlx::query(AssertSqlSafe(format!(
                "update {table} set removed_at = $3, is_default = false
                  where key_id = $1 and account_id = $2"
            )))
            .bind(key_id)
            .bind(account_id)
            .bind(at)
            .execute(&mut *conn)
            .await?;
        }
    }
    Ok(())
}

/// Account keys loaded during one batch (`None`: the account has none, it was shredded).
#[derive(Default)]
struct Keys {
    loaded: HashMap<String, Option<AccountKey>>,
}

impl Keys {
    /// Opens `sealed` with `account_id`'s key; `None` when there is nothing to open, the key is
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
}

fn uuid(event: &StoredEvent, text: &str) -> Result<Uuid, ApplyError> {
    Uuid::parse_str(text)
        .map_err(|error| rejected(event, format!("id {text:?} is not a UUID: {error}")))
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
