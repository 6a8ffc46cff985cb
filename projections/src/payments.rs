//! Read models `payments` and `daily_totals`: every payment an account received, and per São
//! Paulo calendar day and QR code what the standing ones add up to.
//!
//! Built from the Payment aggregate's events (stream type `payment`, stream id
//! `account:reference`); the tables come from `migrations/0010_payments.sql` only. Each event
//! rewrites its payment's row and moves `daily_totals` by the difference between the row's
//! contribution before and after (a voided payment contributes nothing; a bank's confirmation
//! may move a payment to another amount, day or code), so a replay in feed order ends exactly
//! where live did.
//!
//! Payer fields arrive sealed; they are opened with the account's key
//! (`commands::vault::load_key`) in the projector's own transaction; a key that is gone (the
//! account was deleted) leaves them null. `AccountDeleted` removes the account's rows from both
//! tables.
//!
//! The gateway reads with [`list`], [`find`] and [`totals`], and the transactions screen with
//! [`search`]; operators see only the payments of the codes they made (`created_by` filter,
//! joined with `qrcodes`).

use std::collections::HashMap;

use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, Utc};
use commands::Upcasters;
use commands::feed::StoredEvent;
use commands::vault::{AccountKey, VaultError, load_key};
use domain::payment::{PaymentEvent, PaymentSource, RefundStatus};
use domain::sealed::Sealed;
use serde::{Deserialize, Serialize};
use sqlx::{AssertSqlSafe, PgConnection, PgExecutor};
use uuid::Uuid;

use crate::{ApplyError, Error, Projection, TableSet};

pub mod search;

/// The projection's name (durable consumer, checkpoint key).
pub const NAME: &str = "payments";
/// The live table of payments.
pub const PAYMENTS_TABLE: &str = "payments";
/// The live table of daily totals.
pub const TOTALS_TABLE: &str = "daily_totals";
/// Stream type of the Payment aggregate.
pub const STREAM_TYPE: &str = domain::payment::STREAM_TYPE;

/// One refund as the read model keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RefundView {
    /// `devolucoes[].id`.
    pub id: String,
    /// `rtrId`.
    pub rtr_id: String,
    /// Amount in centavos.
    pub amount_centavos: u64,
    /// `EM_PROCESSAMENTO`, `DEVOLVIDO` or `NAO_REALIZADO`.
    pub status: String,
}

/// One payment as the gateway shows it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct PaymentView {
    /// The receiving account.
    pub account_id: Uuid,
    /// End-to-end id or `manual-…`.
    pub reference: String,
    /// The Pix end-to-end id, when known.
    pub end_to_end_id: Option<String>,
    /// Amount in centavos.
    pub amount_centavos: i64,
    /// Refunded (DEVOLVIDO) in centavos.
    pub refunded_centavos: i64,
    /// When paid.
    pub paid_at: DateTime<Utc>,
    /// São Paulo calendar day of `paid_at`.
    pub paid_on: NaiveDate,
    /// The txid sent.
    pub txid: Option<String>,
    /// The matched code; `None`: "sem QR code".
    pub qrcode_id: Option<Uuid>,
    /// The key paid to.
    pub pix_key: Option<String>,
    /// `api-pix`, `manual` or `sandbox`.
    pub source: String,
    /// The bank source that confirmed a typed-in payment.
    pub confirmed_by: Option<String>,
    /// `received` or `voided`.
    pub status: String,
    /// Payer's name (opened).
    pub payer_name: Option<String>,
    /// Payer's CPF/CNPJ (opened).
    pub payer_document: Option<String>,
    /// Payer's free text (opened).
    pub payer_info: Option<String>,
    /// Note typed with a manual record.
    pub note: Option<String>,
    /// Who typed it in.
    pub recorded_by: Option<String>,
    /// Why it was voided.
    pub void_reason: Option<String>,
    /// When recorded.
    pub recorded_at: DateTime<Utc>,
    /// Refunds, as JSON (`[RefundView]`).
    pub refunds: serde_json::Value,
    /// Stream version shown.
    pub version: i64,
}

const COLUMNS: &str = "account_id, reference, end_to_end_id, amount_centavos, refunded_centavos,
    paid_at, paid_on, txid, qrcode_id, pix_key, source, confirmed_by, status, payer_name,
    payer_document, payer_info, note, recorded_by, void_reason, recorded_at, refunds, version";

/// A filter for [`list`] and [`totals`].
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// Only payments to codes this person made (operators).
    pub created_by: Option<String>,
    /// Only this code.
    pub qrcode_id: Option<Uuid>,
    /// Only from this São Paulo day on.
    pub from: Option<NaiveDate>,
    /// Only up to this São Paulo day.
    pub to: Option<NaiveDate>,
}

/// The account's payments, newest first, at most `limit` ([`search::page`] with only these
/// filters).
pub async fn list<'e>(
    executor: impl PgExecutor<'e>,
    account_id: Uuid,
    filter: &Filter,
    limit: i64,
) -> Result<Vec<PaymentView>, Error> {
    let search = search::Search {
        created_by: filter.created_by.clone(),
        code: filter
            .qrcode_id
            .map_or(search::CodeFilter::Any, search::CodeFilter::Code),
        from: filter.from,
        to: filter.to,
        ..search::Search::default()
    };
    Ok(search::page(executor, account_id, &search, None, limit)
        .await?
        .into_iter()
        .map(|found| found.payment)
        .collect())
}

/// One payment of the account.
pub async fn find<'e>(
    executor: impl PgExecutor<'e>,
    account_id: Uuid,
    reference: &str,
) -> Result<Option<PaymentView>, Error> {
    Ok(sqlx::query_as(AssertSqlSafe(format!(
        "select {COLUMNS} from payments where account_id = $1 and reference = $2"
    )))
    .bind(account_id)
    .bind(reference)
    .fetch_optional(executor)
    .await?)
}

/// One day's totals.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct DayTotal {
    /// São Paulo calendar day.
    pub day: NaiveDate,
    /// Payments that stand.
    pub payments: i64,
    /// Their amounts, in centavos.
    pub received_centavos: i64,
    /// Refunded of them, in centavos.
    pub refunded_centavos: i64,
}

/// The account's totals per day (summed over codes, or one code, or an operator's codes),
/// oldest first.
pub async fn totals<'e>(
    executor: impl PgExecutor<'e>,
    account_id: Uuid,
    filter: &Filter,
) -> Result<Vec<DayTotal>, Error> {
    Ok(sqlx::query_as(
        "select t.day, sum(t.payments)::bigint as payments,
                sum(t.received_centavos)::bigint as received_centavos,
                sum(t.refunded_centavos)::bigint as refunded_centavos
           from daily_totals t
          where t.account_id = $1
            and ($2::text is null or t.qrcode_id in
                 (select q.qrcode_id from qrcodes q where q.owner_id = $1 and q.created_by = $2))
            and ($3::uuid is null or t.qrcode_id = $3)
            and ($4::date is null or t.day >= $4)
            and ($5::date is null or t.day <= $5)
          group by t.day
         having sum(t.payments) <> 0 or sum(t.received_centavos) <> 0
          order by t.day",
    )
    .bind(account_id)
    .bind(filter.created_by.as_deref())
    .bind(filter.qrcode_id)
    .bind(filter.from)
    .bind(filter.to)
    .fetch_all(executor)
    .await?)
}

/// The `payments` projection (tables `payments` and `daily_totals`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Payments;

#[async_trait]
impl Projection for Payments {
    fn name(&self) -> &'static str {
        NAME
    }

    fn streams(&self) -> Option<&'static [&'static str]> {
        // Account events for `AccountDeleted`.
        Some(&[STREAM_TYPE, domain::account::STREAM_TYPE])
    }

    fn tables(&self) -> &'static [&'static str] {
        &[PAYMENTS_TABLE, TOTALS_TABLE]
    }

    async fn apply_batch(
        &self,
        conn: &mut PgConnection,
        target: &TableSet,
        upcasters: &Upcasters,
        events: &[StoredEvent],
    ) -> Result<(), ApplyError> {
        let tables = Tables {
            payments: target.table(PAYMENTS_TABLE),
            totals: target.table(TOTALS_TABLE),
        };
        let mut keys = Keys::default();
        for event in events {
            if event.stream_type == domain::account::STREAM_TYPE
                && event.event_type == "AccountDeleted"
            {
                keys.loaded.remove(&event.stream_id);
                forget_account(conn, &tables, event).await?;
                continue;
            }
            if event.stream_type != STREAM_TYPE {
                continue;
            }
            if event.schema_version != upcasters.current_version(&event.event_type) {
                return Err(rejected(
                    event,
                    format!(
                        "unknown schema version {} of {}",
                        event.schema_version, event.event_type
                    ),
                ));
            }
            let decoded: PaymentEvent = event
                .payload
                .deserialize()
                .map_err(|error| rejected(event, format!("payload: {error}")))?;
            fold(conn, &tables, &mut keys, event, decoded).await?;
        }
        Ok(())
    }
}

struct Tables {
    payments: String,
    totals: String,
}

/// A payment's row as the projector rewrites it.
#[derive(Debug, Clone, sqlx::FromRow)]
struct Row {
    account_id: Uuid,
    reference: String,
    end_to_end_id: Option<String>,
    amount_centavos: i64,
    refunded_centavos: i64,
    paid_at: DateTime<Utc>,
    paid_on: NaiveDate,
    txid: Option<String>,
    qrcode_id: Option<Uuid>,
    pix_key: Option<String>,
    source: String,
    confirmed_by: Option<String>,
    status: String,
    payer_name: Option<String>,
    payer_document: Option<String>,
    payer_info: Option<String>,
    note: Option<String>,
    recorded_by: Option<String>,
    void_reason: Option<String>,
    recorded_at: DateTime<Utc>,
    refunds: serde_json::Value,
}

impl Row {
    /// What the row adds to `daily_totals`: (day, code, payments, received, refunded).
    fn contribution(&self) -> Option<(NaiveDate, Option<Uuid>, i64, i64, i64)> {
        (self.status == "received").then_some((
            self.paid_on,
            self.qrcode_id,
            1,
            self.amount_centavos,
            self.refunded_centavos,
        ))
    }
}

async fn fold(
    conn: &mut PgConnection,
    tables: &Tables,
    keys: &mut Keys,
    event: &StoredEvent,
    change: PaymentEvent,
) -> Result<(), ApplyError> {
    let (account_text, reference) = event
        .stream_id
        .split_once(':')
        .ok_or_else(|| rejected(event, "stream id is not account:reference".to_owned()))?;
    let account_id = Uuid::parse_str(account_text)
        .map_err(|error| rejected(event, format!("account id: {error}")))?;
    let p = &tables.payments;
    let old: Option<Row> = sqlx::query_as(AssertSqlSafe(format!(
        "select {COLUMNS} from {p} where account_id = $1 and reference = $2"
    )))
    .bind(account_id)
    .bind(reference)
    .fetch_optional(&mut *conn)
    .await?;
    let mut row = match (old.clone(), change) {
        (None, PaymentEvent::PaymentRecorded(recorded)) => Row {
            account_id,
            reference: reference.to_owned(),
            end_to_end_id: recorded.end_to_end_id,
            amount_centavos: centavos(event, recorded.amount_centavos)?,
            refunded_centavos: 0,
            paid_at: timestamp(event, &recorded.paid_at)?,
            paid_on: NaiveDate::MIN,
            txid: recorded.txid,
            qrcode_id: code(event, recorded.qrcode_id.as_deref())?,
            pix_key: recorded.pix_key,
            source: recorded.source.as_str().to_owned(),
            confirmed_by: None,
            status: "received".to_owned(),
            payer_name: keys
                .open(conn, event, account_text, recorded.payer_name.as_ref())
                .await?,
            payer_document: keys
                .open(conn, event, account_text, recorded.payer_document.as_ref())
                .await?,
            payer_info: keys
                .open(conn, event, account_text, recorded.payer_info.as_ref())
                .await?,
            note: recorded.note,
            recorded_by: recorded.recorded_by,
            void_reason: None,
            recorded_at: timestamp(event, &recorded.recorded_at)?,
            refunds: serde_json::json!([]),
        },
        (Some(mut row), PaymentEvent::PaymentConfirmed(confirmed)) => {
            row.amount_centavos = centavos(event, confirmed.amount_centavos)?;
            row.paid_at = timestamp(event, &confirmed.paid_at)?;
            row.txid = confirmed.txid.or(row.txid);
            if let Some(code) = code(event, confirmed.qrcode_id.as_deref())? {
                row.qrcode_id = Some(code);
            }
            row.confirmed_by = Some(confirmed.source.as_str().to_owned());
            row.status = "received".to_owned();
            row.void_reason = None;
            for (field, sealed) in [
                (&mut row.payer_name, confirmed.payer_name.as_ref()),
                (&mut row.payer_document, confirmed.payer_document.as_ref()),
                (&mut row.payer_info, confirmed.payer_info.as_ref()),
            ] {
                if let Some(opened) = keys.open(conn, event, account_text, sealed).await? {
                    *field = Some(opened);
                }
            }
            row
        }
        (Some(mut row), PaymentEvent::PaymentRefunded(refunded)) => {
            let mut refunds: Vec<RefundView> =
                serde_json::from_value(row.refunds.clone()).unwrap_or_default();
            let view = RefundView {
                id: refunded.refund_id.clone(),
                rtr_id: refunded.rtr_id,
                amount_centavos: refunded.amount_centavos,
                status: refunded.status.as_str().to_owned(),
            };
            match refunds.iter_mut().find(|r| r.id == refunded.refund_id) {
                Some(existing) => *existing = view,
                None => refunds.push(view),
            }
            let refunded_total: u64 = refunds
                .iter()
                .filter(|r| r.status == RefundStatus::Devolvido.as_str())
                .map(|r| r.amount_centavos)
                .sum();
            row.refunded_centavos = centavos(event, refunded_total)?;
            row.refunds = serde_json::to_value(&refunds)
                .map_err(|error| rejected(event, format!("refunds: {error}")))?;
            row
        }
        (Some(mut row), PaymentEvent::PaymentVoided(voided)) => {
            row.status = "voided".to_owned();
            row.void_reason = Some(voided.reason);
            row
        }
        (old, _) => {
            return Err(rejected(
                event,
                format!(
                    "{} does not apply to a payment that {}",
                    event.event_type,
                    if old.is_some() {
                        "exists"
                    } else {
                        "does not exist"
                    }
                ),
            ));
        }
    };
    // Only what the source itself says ("manual", "api-pix"…) is stored; the enum's spelling.
    debug_assert!(
        [
            PaymentSource::ApiPix,
            PaymentSource::Manual,
            PaymentSource::Sandbox
        ]
        .iter()
        .any(|s| s.as_str() == row.source)
    );
    row.paid_on = sqlx::query_scalar(AssertSqlSafe(format!(
        "insert into {p} ({COLUMNS}, tx_id, global_position)
         values ($1, $2, $3, $4, $5, $6, ($6 at time zone 'America/Sao_Paulo')::date, $7, $8, $9,
                 $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22::text::xid8, $23)
         on conflict (account_id, reference) do update set
             end_to_end_id = excluded.end_to_end_id, amount_centavos = excluded.amount_centavos,
             refunded_centavos = excluded.refunded_centavos, paid_at = excluded.paid_at,
             paid_on = excluded.paid_on, txid = excluded.txid, qrcode_id = excluded.qrcode_id,
             pix_key = excluded.pix_key, source = excluded.source,
             confirmed_by = excluded.confirmed_by, status = excluded.status,
             payer_name = excluded.payer_name, payer_document = excluded.payer_document,
             payer_info = excluded.payer_info, note = excluded.note,
             recorded_by = excluded.recorded_by, void_reason = excluded.void_reason,
             recorded_at = excluded.recorded_at, refunds = excluded.refunds,
             version = excluded.version, tx_id = excluded.tx_id,
             global_position = excluded.global_position
         returning paid_on"
    )))
    .bind(row.account_id)
    .bind(&row.reference)
    .bind(&row.end_to_end_id)
    .bind(row.amount_centavos)
    .bind(row.refunded_centavos)
    .bind(row.paid_at)
    .bind(&row.txid)
    .bind(row.qrcode_id)
    .bind(&row.pix_key)
    .bind(&row.source)
    .bind(&row.confirmed_by)
    .bind(&row.status)
    .bind(&row.payer_name)
    .bind(&row.payer_document)
    .bind(&row.payer_info)
    .bind(&row.note)
    .bind(&row.recorded_by)
    .bind(&row.void_reason)
    .bind(row.recorded_at)
    .bind(&row.refunds)
    .bind(event.stream_version)
    .bind(event.position.tx_id.to_string())
    .bind(event.position.global_position)
    .fetch_one(&mut *conn)
    .await?;
    let before = old.as_ref().and_then(Row::contribution);
    let after = row.contribution();
    if before != after {
        if let Some((day, code, n, received, refunded)) = before {
            add_to_totals(
                conn, tables, account_id, day, code, -n, -received, -refunded,
            )
            .await?;
        }
        if let Some((day, code, n, received, refunded)) = after {
            add_to_totals(conn, tables, account_id, day, code, n, received, refunded).await?;
        }
    }
    Ok(())
}

#[allow(
    clippy::too_many_arguments,
    reason = "one delta's coordinates and amounts"
)]
async fn add_to_totals(
    conn: &mut PgConnection,
    tables: &Tables,
    account_id: Uuid,
    day: NaiveDate,
    code: Option<Uuid>,
    payments: i64,
    received: i64,
    refunded: i64,
) -> Result<(), sqlx::Error> {
    let t = &tables.totals;
    sqlx::query(AssertSqlSafe(format!(
        "insert into {t} (account_id, day, qrcode_id, payments, received_centavos, refunded_centavos)
         values ($1, $2, $3, $4, $5, $6)
         on conflict (account_id, day, qrcode_id) do update set
             payments = {t}.payments + excluded.payments,
             received_centavos = {t}.received_centavos + excluded.received_centavos,
             refunded_centavos = {t}.refunded_centavos + excluded.refunded_centavos"
    )))
    .bind(account_id)
    .bind(day)
    .bind(code)
    .bind(payments)
    .bind(received)
    .bind(refunded)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

async fn forget_account(
    conn: &mut PgConnection,
    tables: &Tables,
    event: &StoredEvent,
) -> Result<(), ApplyError> {
    let Ok(account_id) = Uuid::parse_str(&event.stream_id) else {
        return Ok(());
    };
    for table in [&tables.payments, &tables.totals] {
        sqlx::query(AssertSqlSafe(format!(
            "delete from {table} where account_id = $1"
        )))
        .bind(account_id)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// Account keys loaded during one batch (`None`: shredded).
#[derive(Default)]
struct Keys {
    loaded: HashMap<String, Option<AccountKey>>,
}

impl Keys {
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
        Ok(key.open(sealed).ok())
    }
}

fn centavos(event: &StoredEvent, amount: u64) -> Result<i64, ApplyError> {
    i64::try_from(amount).map_err(|_| rejected(event, format!("amount {amount} too large")))
}

fn code(event: &StoredEvent, text: Option<&str>) -> Result<Option<Uuid>, ApplyError> {
    text.map(|t| {
        Uuid::parse_str(t).map_err(|error| rejected(event, format!("qrcode id {t:?}: {error}")))
    })
    .transpose()
}

fn timestamp(event: &StoredEvent, text: &str) -> Result<DateTime<Utc>, ApplyError> {
    DateTime::parse_from_rfc3339(text)
        .map(|at| at.with_timezone(&Utc))
        .map_err(|error| rejected(event, format!("time {text:?}: {error}")))
}

fn rejected(event: &StoredEvent, reason: String) -> ApplyError {
    ApplyError::Rejected {
        event_id: event.event_id,
        reason,
    }
}
