//! Read model `statement_imports` (issue 35): each account's bank statement imports, for the
//! transactions screen's list with its "Desfazer importação".
//!
//! Filled from the Payment events alone: a `PaymentRecorded` with a statement origin counts a
//! payment for its import (file name, who, the earliest `recorded_at`), a `PaymentVoided` with
//! `undone_import` a payment that import's undo took back; `AccountDeleted` removes the
//! account's rows. A batch is folded into one row change per import, written in one statement.
//! Nothing decides from this table: undoing an import reads the import's claims (write side,
//! `commands::payments::statement_import`).

use std::collections::BTreeMap;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use commands::Upcasters;
use commands::feed::{FeedFields, StoredEvent};
use domain::payment::{PaymentRecorded, PaymentVoided};
use sqlx::{AssertSqlSafe, PgConnection, PgExecutor};
use uuid::Uuid;

use crate::payment_links::read;
use crate::projection::{ApplyError, Projection, TableSet};

/// The projection's name (durable consumer, checkpoint key).
pub const NAME: &str = "statement_imports";
/// The live table.
pub const TABLE: &str = "statement_imports";

/// One import as the screen lists it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct StatementImportView {
    /// The import's id.
    pub import_id: String,
    /// The file's name as uploaded.
    pub file_name: String,
    /// Who imported it, by account id.
    pub imported_by: Option<String>,
    /// When.
    pub imported_at: DateTime<Utc>,
    /// Payments it recorded.
    pub recorded: i64,
    /// Payments its undo voided.
    pub undone: i64,
    /// When it was undone, if it was.
    pub undone_at: Option<DateTime<Utc>>,
}

/// The account's newest `limit` imports, newest first.
///
/// # Errors
///
/// Database errors.
pub async fn list<'e>(
    executor: impl PgExecutor<'e>,
    account_id: Uuid,
    limit: i64,
) -> Result<Vec<StatementImportView>, sqlx::Error> {
    sqlx::query_as(
        "select import_id, file_name, imported_by, imported_at, recorded, undone, undone_at
           from statement_imports where account_id = $1
          order by imported_at desc, import_id limit $2",
    )
    .bind(account_id)
    .bind(limit)
    .fetch_all(executor)
    .await
}

/// The `statement_imports` projection.
#[derive(Debug, Clone, Copy, Default)]
pub struct StatementImports;

/// What a batch changes in one import's row.
#[derive(Default)]
struct Delta {
    file_name: String,
    imported_by: Option<String>,
    imported_at: Option<DateTime<Utc>>,
    recorded: i64,
    undone: i64,
    undone_at: Option<DateTime<Utc>>,
}

fn rejected(event: &StoredEvent, reason: String) -> ApplyError {
    ApplyError::Rejected {
        event_id: event.event_id,
        reason,
    }
}

fn instant(event: &StoredEvent, text: &str) -> Result<DateTime<Utc>, ApplyError> {
    DateTime::parse_from_rfc3339(text)
        .map(|at| at.with_timezone(&Utc))
        .map_err(|error| rejected(event, format!("time {text:?}: {error}")))
}

/// Whether a `PaymentRecorded` may come from a statement: false only for one at the current
/// schema version whose payload has no `statement` key (serde leaves it out when there is none,
/// and a key is always written whole, in quotes). Almost every payment comes from the bank or
/// the counter: reading each one's whole payload (its sealed fields among them) only to find no
/// statement was most of this projection's replay (4.0 of 24.5 s of `replay --all`'s fill at 1M
/// payments, beside `payments`). Any other version is read, so it is upcast or rejected as
/// before.
fn from_statement(upcasters: &Upcasters, event: &StoredEvent) -> bool {
    event.schema_version != upcasters.current_version("PaymentRecorded")
        || event.payload.get().contains("\"statement\"")
}

fn account_of(event: &StoredEvent) -> Result<Uuid, ApplyError> {
    let account = event
        .stream_id
        .split_once(':')
        .map_or(event.stream_id.as_str(), |(account, _)| account);
    Uuid::parse_str(account).map_err(|_| rejected(event, "stream id names no account".to_owned()))
}

async fn write(
    conn: &mut PgConnection,
    table: &str,
    deltas: &mut BTreeMap<(Uuid, String), Delta>,
) -> Result<(), ApplyError> {
    if deltas.is_empty() {
        return Ok(());
    }
    let mut accounts = Vec::new();
    let mut imports = Vec::new();
    let mut names = Vec::new();
    let mut by = Vec::new();
    let mut at = Vec::new();
    let mut recorded = Vec::new();
    let mut undone = Vec::new();
    let mut undone_at = Vec::new();
    for ((account, import), delta) in std::mem::take(deltas) {
        accounts.push(account);
        imports.push(import);
        names.push(delta.file_name);
        by.push(delta.imported_by);
        at.push(delta.imported_at.or(delta.undone_at).unwrap_or_default());
        recorded.push(delta.recorded);
        undone.push(delta.undone);
        undone_at.push(delta.undone_at);
    }
    sqlx::query(AssertSqlSafe(format!(
        "insert into {table} as t (account_id, import_id, file_name, imported_by, imported_at,
                                   recorded, undone, undone_at)
         select * from unnest($1::uuid[], $2::text[], $3::text[], $4::text[],
                              $5::timestamptz[], $6::bigint[], $7::bigint[], $8::timestamptz[])
         on conflict (account_id, import_id) do update
            set file_name = case when t.file_name = '' then excluded.file_name else t.file_name end,
                imported_by = coalesce(t.imported_by, excluded.imported_by),
                imported_at = least(t.imported_at, excluded.imported_at),
                recorded = t.recorded + excluded.recorded,
                undone = t.undone + excluded.undone,
                undone_at = greatest(t.undone_at, excluded.undone_at)"
    )))
    .bind(&accounts)
    .bind(&imports)
    .bind(&names)
    .bind(&by)
    .bind(&at)
    .bind(&recorded)
    .bind(&undone)
    .bind(&undone_at)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

#[async_trait]
impl Projection for StatementImports {
    fn name(&self) -> &'static str {
        NAME
    }

    fn streams(&self) -> Option<&'static [&'static str]> {
        // Account events for `AccountDeleted`.
        Some(&[domain::payment::STREAM_TYPE, domain::account::STREAM_TYPE])
    }

    fn reads(&self) -> FeedFields {
        FeedFields::payloads_of(&[domain::payment::STREAM_TYPE])
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
        let mut deltas: BTreeMap<(Uuid, String), Delta> = BTreeMap::new();
        for event in events {
            if event.stream_type == domain::account::STREAM_TYPE
                && event.event_type == "AccountDeleted"
            {
                write(conn, &table, &mut deltas).await?;
                sqlx::query(AssertSqlSafe(format!(
                    "delete from {table} where account_id = $1"
                )))
                .bind(account_of(event)?)
                .execute(&mut *conn)
                .await?;
                continue;
            }
            if event.stream_type != domain::payment::STREAM_TYPE
                || !matches!(
                    event.event_type.as_str(),
                    "PaymentRecorded" | "PaymentVoided"
                )
            {
                continue;
            }
            if event.event_type == "PaymentRecorded" && !from_statement(upcasters, event) {
                continue;
            }
            let account = account_of(event)?;
            if event.event_type == "PaymentRecorded" {
                let recorded: PaymentRecorded = read(upcasters, event)?;
                let Some(origin) = recorded.statement else {
                    continue;
                };
                let at = instant(event, &recorded.recorded_at)?;
                let delta = deltas.entry((account, origin.import_id)).or_default();
                delta.file_name = origin.file_name;
                delta.imported_by = delta.imported_by.take().or(recorded.recorded_by);
                delta.imported_at = Some(delta.imported_at.map_or(at, |a| a.min(at)));
                delta.recorded += 1;
            } else {
                let voided: PaymentVoided = read(upcasters, event)?;
                let Some(import) = voided.undone_import else {
                    continue;
                };
                let at = instant(event, &voided.voided_at)?;
                let delta = deltas.entry((account, import)).or_default();
                delta.undone += 1;
                delta.undone_at = Some(delta.undone_at.map_or(at, |a| a.max(at)));
            }
        }
        write(conn, &table, &mut deltas).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use commands::JsonText;

    fn recorded(schema_version: i32, payload: &str) -> StoredEvent {
        StoredEvent {
            event_id: Uuid::nil(),
            position: commands::FeedPosition::default(),
            stream_type: domain::payment::STREAM_TYPE.to_owned(),
            stream_id: format!("{}:E1", Uuid::nil()),
            stream_version: 1,
            event_type: "PaymentRecorded".to_owned(),
            schema_version,
            payload: JsonText::from_text(payload.to_owned()).unwrap(),
            metadata: JsonText::null(),
            recorded_at: Utc::now(),
        }
    }

    #[test]
    fn only_a_current_payment_without_a_statement_key_is_passed_over_unread() {
        let upcasters = Upcasters::new();
        let current = upcasters.current_version("PaymentRecorded");
        let from_bank = r#"{"reference":"E1","note":"no statement here","source":"api-pix"}"#;
        let imported = r#"{"reference":"E1","statement":{"import_id":"i"}}"#;
        assert!(!from_statement(&upcasters, &recorded(current, from_bank)));
        assert!(from_statement(&upcasters, &recorded(current, imported)));
        // Any other version is read (upcast, or rejected and parked as before).
        assert!(from_statement(
            &upcasters,
            &recorded(current + 1, from_bank)
        ));
    }
}
