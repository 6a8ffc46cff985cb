//! Read model `signs`: one row per sign an account keeps in its dashboard, from `SignSaved`,
//! `SignChanged` and `SignDeleted` (stream type `saved_sign`, schema version 1). Its table is
//! created by `migrations/0018_signs.sql` only. The gateway reads it with [`find`] and
//! [`list_by_owner`], which also bring the facts of the code each sign prints (from `qrcodes`).
//!
//! Events are applied one by one in feed order (signs are few); a change or a deletion finds
//! its row by the primary key. `AccountDeleted` (stream type `account`) deletes the account's
//! rows through the owner index, so replay keeps that index too while it fills.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use commands::Upcasters;
use commands::feed::{FeedPosition, StoredEvent};
use serde::Deserialize;
use sqlx::{PgConnection, PgExecutor};
use uuid::Uuid;

use crate::error::Error;
use crate::payment_links::read;
use crate::projection::{ApplyError, Projection, TableSet};
use crate::sql::{position_from, tx_text};

/// The projection's name (durable consumer, checkpoint key).
pub const NAME: &str = "signs";
/// The live table.
pub const TABLE: &str = "signs";
/// Stream type of the saved-sign aggregate.
pub const STREAM_TYPE: &str = "saved_sign";
/// A sign was saved.
pub const SAVED: &str = "SignSaved";
/// A sign's choices changed.
pub const CHANGED: &str = "SignChanged";
/// A sign was deleted.
pub const DELETED: &str = "SignDeleted";

/// One saved sign as the gateway shows it, with the facts of its code.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct SignView {
    /// The sign's id (its aggregate id).
    pub sign_id: Uuid,
    /// The account that keeps it.
    pub owner_id: Uuid,
    /// The person who saved it.
    pub created_by: String,
    /// The QR code it prints.
    pub qrcode_id: Uuid,
    /// The sign it was copied from.
    pub duplicate_of: Option<Uuid>,
    /// What the owner calls it.
    pub name: String,
    /// Template slug.
    pub template: String,
    /// Paper size slug.
    pub size: String,
    /// Theme slug.
    pub theme: String,
    /// The headline; `None` for the default.
    pub headline: Option<String>,
    /// The footer.
    pub footer: Option<String>,
    /// Whether the account's logo is drawn.
    pub with_logo: bool,
    /// When it was saved.
    pub created_at: DateTime<Utc>,
    /// When it last changed.
    pub updated_at: DateTime<Utc>,
    /// The code's receiver name, when the code's row is there.
    pub code_merchant_name: Option<String>,
    /// The code's fixed amount.
    pub code_amount_centavos: Option<i64>,
    /// The code's txid.
    pub code_txid: Option<String>,
    /// The code's description.
    pub code_description: Option<String>,
    /// Whether the code is archived.
    pub code_archived: bool,
    tx_id: i64,
    global_position: i64,
}

impl SignView {
    /// Feed position of the sign's last change.
    pub fn position(&self) -> FeedPosition {
        position_from(self.tx_id, self.global_position)
    }
}

const SELECT: &str = "select s.sign_id, s.owner_id, s.created_by, s.qrcode_id, s.duplicate_of,
                             s.name, s.template, s.size, s.theme, s.headline, s.footer,
                             s.with_logo, s.created_at, s.updated_at,
                             q.merchant_name as code_merchant_name,
                             q.amount_centavos as code_amount_centavos,
                             q.txid as code_txid,
                             q.description as code_description,
                             coalesce(q.archived_at is not null, false) as code_archived,
                             s.tx_id::text::bigint as tx_id, s.global_position
                        from signs s
                        left join qrcodes q on q.qrcode_id = s.qrcode_id";

/// The sign with this id, if the read model has it (and it was not deleted).
pub async fn find<'e>(
    executor: impl PgExecutor<'e>,
    sign_id: Uuid,
) -> Result<Option<SignView>, Error> {
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{SELECT} where s.sign_id = $1"
    )))
    .bind(sign_id)
    .fetch_optional(executor)
    .await?)
}

/// The newest `limit` signs of an account, newest first; only those `created_by` saved when
/// it is given (an operator sees their own).
pub async fn list_by_owner<'e>(
    executor: impl PgExecutor<'e>,
    owner_id: Uuid,
    created_by: Option<&str>,
    limit: i64,
) -> Result<Vec<SignView>, Error> {
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{SELECT} where s.owner_id = $1 and ($2::text is null or s.created_by = $2)
          order by s.created_at desc, s.sign_id limit $3"
    )))
    .bind(owner_id)
    .bind(created_by)
    .bind(limit)
    .fetch_all(executor)
    .await?)
}

/// Payload of `SignSaved`, version 1.
#[derive(Debug, Deserialize)]
struct SavedV1 {
    sign_id: Uuid,
    owner_id: Uuid,
    created_by: String,
    qrcode_id: Uuid,
    duplicate_of: Option<Uuid>,
    name: String,
    template: String,
    size: String,
    theme: String,
    headline: Option<String>,
    footer: Option<String>,
    with_logo: bool,
    saved_at: DateTime<Utc>,
}

/// Payload of `SignChanged`, version 1.
#[derive(Debug, Deserialize)]
struct ChangedV1 {
    sign_id: Uuid,
    name: String,
    template: String,
    size: String,
    theme: String,
    headline: Option<String>,
    footer: Option<String>,
    with_logo: bool,
    at: DateTime<Utc>,
}

/// Payload of `SignDeleted`, version 1.
#[derive(Debug, Deserialize)]
struct DeletedV1 {
    sign_id: Uuid,
}

/// The `signs` projection.
#[derive(Debug, Clone, Copy, Default)]
pub struct Signs;

#[async_trait]
impl Projection for Signs {
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
        let t = target.table(TABLE);
        for event in events {
            // A deleted account keeps no signs (its headlines and footers are its own words).
            if event.stream_type == domain::account::STREAM_TYPE
                && event.event_type == "AccountDeleted"
            {
                let account_id =
                    Uuid::parse_str(&event.stream_id).map_err(|error| ApplyError::Rejected {
                        event_id: event.event_id,
                        reason: format!("account id {} is not a UUID: {error}", event.stream_id),
                    })?;
                sqlx::query(sqlx::AssertSqlSafe(format!(
                    "delete from {t} where owner_id = $1"
                )))
                .bind(account_id)
                .execute(&mut *conn)
                .await?;
                continue;
            }
            if event.stream_type != STREAM_TYPE {
                continue;
            }
            match event.event_type.as_str() {
                SAVED => {
                    let s: SavedV1 = read(upcasters, event)?;
                    sqlx::query(sqlx::AssertSqlSafe(format!(
                        "insert into {t} (sign_id, owner_id, created_by, qrcode_id, duplicate_of,
                                          name, template, size, theme, headline, footer,
                                          with_logo, created_at, updated_at, tx_id,
                                          global_position)
                         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13,
                                 $14::text::xid8, $15)"
                    )))
                    .bind(s.sign_id)
                    .bind(s.owner_id)
                    .bind(s.created_by)
                    .bind(s.qrcode_id)
                    .bind(s.duplicate_of)
                    .bind(s.name)
                    .bind(s.template)
                    .bind(s.size)
                    .bind(s.theme)
                    .bind(s.headline)
                    .bind(s.footer)
                    .bind(s.with_logo)
                    .bind(s.saved_at)
                    .bind(tx_text(event.position))
                    .bind(event.position.global_position)
                    .execute(&mut *conn)
                    .await?;
                }
                CHANGED => {
                    let c: ChangedV1 = read(upcasters, event)?;
                    sqlx::query(sqlx::AssertSqlSafe(format!(
                        "update {t} set name = $2, template = $3, size = $4, theme = $5,
                                        headline = $6, footer = $7, with_logo = $8,
                                        updated_at = $9, tx_id = $10::text::xid8,
                                        global_position = $11
                          where sign_id = $1"
                    )))
                    .bind(c.sign_id)
                    .bind(c.name)
                    .bind(c.template)
                    .bind(c.size)
                    .bind(c.theme)
                    .bind(c.headline)
                    .bind(c.footer)
                    .bind(c.with_logo)
                    .bind(c.at)
                    .bind(tx_text(event.position))
                    .bind(event.position.global_position)
                    .execute(&mut *conn)
                    .await?;
                }
                DELETED => {
                    let d: DeletedV1 = read(upcasters, event)?;
                    sqlx::query(sqlx::AssertSqlSafe(format!(
                        "delete from {t} where sign_id = $1"
                    )))
                    .bind(d.sign_id)
                    .execute(&mut *conn)
                    .await?;
                }
                _ => {}
            }
        }
        Ok(())
    }
}
