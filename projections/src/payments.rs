//! Read models `payments`, `daily_totals` and `payment_day_totals`: every payment an account
//! received; per São Paulo calendar day and QR code what the standing ones add up to; and per day
//! and every value the transactions screen filters on (code, link, key, source, status, refund
//! reported) what all of them add up to, for the screen's totals ([`search::summary`]).
//!
//! Built from the Payment aggregate's events (stream type `payment`, stream id
//! `account:reference`); the tables come from `migrations/0010_payments.sql` and
//! `0027_payment_day_totals.sql` only. Each event rewrites its payment's row and moves both sums
//! by the difference between the row's contribution before and after (a voided payment contributes nothing; a bank's confirmation
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
use sqlx::{AssertSqlSafe, Connection, PgConnection, PgExecutor};
use uuid::Uuid;

use crate::copy_in::{BinaryRows, CopyIn};
use crate::error::Error;
use crate::projection::{ApplyError, Projection, TableSet};

pub mod export;
pub mod search;

/// The projection's name (durable consumer, checkpoint key).
pub const NAME: &str = "payments";
/// The live table of payments.
pub const PAYMENTS_TABLE: &str = "payments";
/// The live table of daily totals.
pub const TOTALS_TABLE: &str = "daily_totals";
/// The live table of the payments summed per day and per value the screen filters on.
pub const DAY_TOTALS_TABLE: &str = "payment_day_totals";
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
    /// `EM_PROCESSAMENTO`, `DEVOLVIDO` or `NAO_REALIZADO` as the bank reports it; before the
    /// bank has answered a refund Balcão asked for, `SOLICITADA`; when it refused it,
    /// `RECUSADA`.
    pub status: String,
    /// Why it was refused or not carried out (pt-BR, or the bank's `motivo`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// What the payer reads, for a refund asked for through Balcão.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Who asked for it through Balcão, by account id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requested_by: Option<String>,
}

/// The status of a refund Balcão asked for that the bank has not answered yet.
pub const REFUND_REQUESTED: &str = "SOLICITADA";
/// The status of a refund Balcão asked for that the bank refused.
pub const REFUND_REFUSED: &str = "RECUSADA";

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
    /// The matched payment link, when its txid was a link's.
    pub payment_link_id: Option<Uuid>,
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
    paid_at, paid_on, txid, qrcode_id, payment_link_id, pix_key, source, confirmed_by, status, payer_name,
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
pub async fn list<'e, E>(
    executor: E,
    account_id: Uuid,
    filter: &Filter,
    limit: i64,
) -> Result<Vec<PaymentView>, Error>
where
    E: PgExecutor<'e> + Copy,
{
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

/// The account's payments paid on São Paulo days `from` to `to`, voided ones left out: what a
/// bank statement of those days is reconciled against (`domain::statement::reconcile::Book`).
pub async fn standing_in_days<'e>(
    executor: impl PgExecutor<'e>,
    account_id: Uuid,
    from: NaiveDate,
    to: NaiveDate,
) -> Result<Vec<PaymentView>, Error> {
    Ok(sqlx::query_as(AssertSqlSafe(format!(
        "select {COLUMNS} from payments
          where account_id = $1 and paid_on between $2 and $3 and status = 'received'"
    )))
    .bind(account_id)
    .bind(from)
    .bind(to)
    .fetch_all(executor)
    .await?)
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
        &[PAYMENTS_TABLE, TOTALS_TABLE, DAY_TOTALS_TABLE]
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
            day_totals: target.table(DAY_TOTALS_TABLE),
            totals_after_fill: target.is_filling(),
        };
        let mut keys = Keys::default();
        let mut changes: Vec<Change<'_>> = Vec::new();
        for event in events {
            if event.stream_type == domain::account::STREAM_TYPE
                && event.event_type == "AccountDeleted"
            {
                // What came before the deletion is written first, as event by event.
                apply_run(conn, &tables, &mut keys, &changes).await?;
                changes.clear();
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
            let decoded =
                decode(event).map_err(|error| rejected(event, format!("payload: {error}")))?;
            let (account_text, reference) = event
                .stream_id
                .split_once(':')
                .ok_or_else(|| rejected(event, "stream id is not account:reference".to_owned()))?;
            let account_id = Uuid::parse_str(account_text)
                .map_err(|error| rejected(event, format!("account id: {error}")))?;
            changes.push(Change {
                event,
                account_id,
                account_text,
                reference,
                decoded,
            });
        }
        apply_run(conn, &tables, &mut keys, &changes).await
    }

    /// `payments` is only ever read through its primary key while it is written, so its other
    /// indexes are built once after replay's fill.
    fn indexes_built_after_replay(&self) -> bool {
        true
    }

    /// Replay does not keep `daily_totals` and `payment_day_totals` during the fill
    /// ([`TableSet::is_filling`]): it sums the filled `payments` here into `payment_day_totals`,
    /// then `daily_totals` from that (every payment counts in exactly one of its rows, with its
    /// status, so the received ones' sums per day and code are the same as from `payments`, read
    /// from a table a few times smaller: at 1M payments the second pass over `payments` was a
    /// third of this step). Live keeps no row whose payments cancelled out, so the two agree.
    /// The sums get a `work_mem` of 256 MB: with the server's default (4 MB) their hash tables
    /// spill to disk at a few hundred thousand payments. Their rows go in in the order of the
    /// tables' unique keys (kept during the fill), so each insert lands at the right end of the
    /// key's b-tree: at 10M payments across 10,000 accounts (8.6M rows) `daily_totals`' insert
    /// went from 142 s in a hash aggregate's order to 95 s; `payment_day_totals`' stayed at
    /// 155–163 s, its sort sharing two cores with the index builds (BENCHMARKS.md).
    async fn derive_after_fill(
        &self,
        conn: &mut PgConnection,
        target: &TableSet,
    ) -> Result<(), sqlx::Error> {
        let mut tx = conn.begin().await?;
        sqlx::query(AssertSqlSafe(format!(
            "set local work_mem = '{DERIVE_WORK_MEM}'"
        )))
        .execute(&mut *tx)
        .await?;
        // The sums read the whole rebuilt table, which no reader or writer waits on until the
        // switch: at millions of payments they outlast the application's statement timeout.
        sqlx::query("set local statement_timeout = 0")
            .execute(&mut *tx)
            .await?;
        let (p, d) = (target.table(PAYMENTS_TABLE), target.table(DAY_TOTALS_TABLE));
        sqlx::query(AssertSqlSafe(format!(
            "insert into {d} (account_id, day, qrcode_id, via_link, pix_key, source, status,
                              refund_reported, payments, amount_centavos, refunded_centavos)
             select account_id, paid_on, qrcode_id, payment_link_id is not null, pix_key,
                    source, status, refunds <> '[]'::jsonb, count(*), sum(amount_centavos),
                    sum(refunded_centavos)
               from {p}
              group by 1, 2, 3, 4, 5, 6, 7, 8
              order by 1, 2, 3, 4, 5, 6, 7, 8"
        )))
        .execute(&mut *tx)
        .await?;
        let t = target.table(TOTALS_TABLE);
        sqlx::query(AssertSqlSafe(format!(
            "insert into {t} (account_id, day, qrcode_id, payments, received_centavos,
                              refunded_centavos)
             select account_id, day, qrcode_id, sum(payments), sum(amount_centavos),
                    sum(refunded_centavos)
               from {d}
              where status = 'received'
              group by account_id, day, qrcode_id
              order by account_id, day, qrcode_id"
        )))
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }
}

/// `work_mem` of replay's sums after the fill ([`Payments::derive_after_fill`]), for that
/// statement only.
const DERIVE_WORK_MEM: &str = "256MB";

struct Tables {
    payments: String,
    totals: String,
    day_totals: String,
    /// Replay's fill: `daily_totals` is derived once the fill ends.
    totals_after_fill: bool,
}

/// One payment event of a batch, decoded.
struct Change<'e> {
    event: &'e StoredEvent,
    account_id: Uuid,
    account_text: &'e str,
    reference: &'e str,
    decoded: PaymentEvent,
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
    payment_link_id: Option<Uuid>,
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

    /// Where the row counts in `payment_day_totals`, and what it adds there: every payment
    /// counts, voided ones too.
    fn day_contribution(&self) -> (DayTotalsKey, [i64; 3]) {
        (
            DayTotalsKey {
                account_id: self.account_id,
                day: self.paid_on,
                qrcode_id: self.qrcode_id,
                via_link: self.payment_link_id.is_some(),
                pix_key: self.pix_key.clone(),
                source: self.source.clone(),
                status: self.status.clone(),
                refund_reported: self.refunds.as_array().is_some_and(|r| !r.is_empty()),
            },
            [1, self.amount_centavos, self.refunded_centavos],
        )
    }
}

/// A payment as the batch leaves it: its row and the newest event it shows.
struct Written {
    row: Row,
    version: i64,
    tx_id: u64,
    global_position: i64,
}

impl Written {
    /// `row` as `change` left it.
    fn of(row: Row, change: &Change<'_>) -> Written {
        Written {
            row,
            version: change.event.stream_version,
            tx_id: change.event.position.tx_id,
            global_position: change.event.position.global_position,
        }
    }
}

/// The rows of `keys` (`account_id`s and `reference`s side by side), one primary-key probe
/// each. The nested loop is the only plan the `lateral … limit 1` leaves, and
/// `plan_cache_mode = force_custom_plan` (for the rest of the caller's transaction) has each
/// run planned with the table's size as it is now: a plan cached while the table was empty
/// probed `payments_account_code_idx` and read the account's every row per payment once the
/// table grew (issue 37; PostgreSQL replans a cached plan only after `ANALYZE`, which nothing
/// runs when autovacuum is off).
async fn lookup(
    conn: &mut PgConnection,
    table: &str,
    accounts: &[Uuid],
    references: &[&str],
) -> Result<Vec<Row>, sqlx::Error> {
    sqlx::query("set local plan_cache_mode = force_custom_plan")
        .execute(&mut *conn)
        .await?;
    sqlx::query_as(AssertSqlSafe(format!(
        "select p.* from unnest($1::uuid[], $2::text[]) as k(account_id, reference)
           cross join lateral (select {COLUMNS} from {table} r
                                where r.account_id = k.account_id and r.reference = k.reference
                                limit 1) as p"
    )))
    .bind(accounts)
    .bind(references)
    .fetch_all(&mut *conn)
    .await
}

/// Applies a run of payment events (no `AccountDeleted` among them): live with
/// [`apply_changes`]; in replay's fill with [`fill_changes`] when it can, else as live does.
async fn apply_run(
    conn: &mut PgConnection,
    tables: &Tables,
    keys: &mut Keys,
    changes: &[Change<'_>],
) -> Result<(), ApplyError> {
    if !tables.totals_after_fill || changes.is_empty() {
        return apply_changes(conn, tables, keys, changes).await;
    }
    sqlx::query("savepoint payments_fill")
        .execute(&mut *conn)
        .await?;
    match fill_changes(conn, tables, keys, changes).await {
        Ok(()) => {
            sqlx::query("release savepoint payments_fill")
                .execute(&mut *conn)
                .await?;
            Ok(())
        }
        // A payment recorded again (a stream id spelling an existing row's key another way):
        // the copy refuses it, and the run is applied as live applies it, which rejects that
        // event with live's own message.
        Err(ApplyError::Database(sqlx::Error::Database(error)))
            if error.code().as_deref() == Some(UNIQUE_VIOLATION) =>
        {
            sqlx::query("rollback to savepoint payments_fill")
                .execute(&mut *conn)
                .await?;
            apply_changes(conn, tables, keys, changes).await
        }
        // The caller's savepoint undoes the rest.
        Err(error) => Err(error),
    }
}

/// The rows of the payments in `slots` as they stand before a run, by slot: those of `accounts`
/// and `references` (side by side) looked up ([`lookup`]), `None` for the rest (new payments).
async fn rows_before(
    conn: &mut PgConnection,
    table: &str,
    slots: &HashMap<(Uuid, &str), usize>,
    accounts: &[Uuid],
    references: &[&str],
) -> Result<Vec<Option<Row>>, sqlx::Error> {
    let mut before: Vec<Option<Row>> = vec![None; slots.len()];
    if accounts.is_empty() {
        return Ok(before);
    }
    for row in lookup(conn, table, accounts, references).await? {
        if let Some(&slot) = slots.get(&(row.account_id, row.reference.as_str())) {
            before[slot] = Some(row);
        }
    }
    Ok(before)
}

/// Folds a run's `changes` in feed order onto the rows they start from (`before`, by slot):
/// each payment's row as the run leaves it, with the newest event it shows. The keys the run
/// needs are loaded ([`Keys::load_for`]).
fn fold_run(
    keys: &Keys,
    changes: &[Change<'_>],
    slots: &HashMap<(Uuid, &str), usize>,
    before: &[Option<Row>],
) -> Result<Vec<Option<Written>>, ApplyError> {
    let mut after: Vec<Option<Written>> = Vec::with_capacity(before.len());
    after.resize_with(before.len(), || None);
    for change in changes {
        let slot = slots[&(change.account_id, change.reference)];
        let current = match after[slot].take() {
            Some(written) => Some(written.row),
            None => before[slot].clone(),
        };
        after[slot] = Some(Written::of(fold(keys, change, current)?, change));
    }
    Ok(after)
}

/// SQLSTATE `unique_violation`.
const UNIQUE_VIOLATION: &str = "23505";

/// Replay's fill of a run of payment events (issue 37: a lookup per payment and a multi-row
/// upsert made replay a tenth of the raw read's speed): a payment whose first event in the run
/// records it is new, so only the others are looked up (follow-ups whose payment an earlier
/// page recorded, a few per page); the events fold in memory as live folds them; the new rows
/// go in with one binary `COPY` and only the rows that existed before with the upsert. The
/// São Paulo day of each new row comes from PostgreSQL's own time zone data in one query per
/// run, as live's insert computes it. Any row the `COPY` finds already there fails it with a
/// unique violation, and [`apply_run`] applies the run as live instead.
///
/// The `COPY` is open while the run folds: each new payment's row is sent as soon as the run's
/// last event of that payment is folded, so PostgreSQL stores one chunk of rows while this
/// process decodes, opens and folds the next (folding the whole run first left PostgreSQL idle
/// meanwhile, and this process idle while the `COPY` was stored). Hence everything the fold
/// needs from the database (the keys, the days) is read before the `COPY` starts.
async fn fill_changes(
    conn: &mut PgConnection,
    tables: &Tables,
    keys: &mut Keys,
    changes: &[Change<'_>],
) -> Result<(), ApplyError> {
    let mut slots: HashMap<(Uuid, &str), usize> = HashMap::with_capacity(changes.len());
    let mut recorded_first: Vec<bool> = Vec::with_capacity(changes.len());
    // The run's last event of each payment: its row is final there.
    let mut last: Vec<usize> = Vec::with_capacity(changes.len());
    for (at, change) in changes.iter().enumerate() {
        let slot = *slots
            .entry((change.account_id, change.reference))
            .or_insert_with(|| {
                recorded_first.push(matches!(change.decoded, PaymentEvent::PaymentRecorded(_)));
                last.push(at);
                recorded_first.len() - 1
            });
        last[slot] = at;
    }
    let (mut accounts, mut references) = (Vec::new(), Vec::new());
    for (&(account_id, reference), &slot) in &slots {
        if !recorded_first[slot] {
            accounts.push(account_id);
            references.push(reference);
        }
    }
    let before = rows_before(conn, &tables.payments, &slots, &accounts, &references).await?;
    keys.load_for(&mut *conn, changes).await?;
    let days = sao_paulo_days(&mut *conn, changes).await?;
    let mut copy = CopyIn::start(
        &mut *conn,
        &format!(
            "copy {} ({COLUMNS}, tx_id, global_position) from stdin (format binary)",
            tables.payments
        ),
    )
    .await?;
    let mut folding: Vec<Option<Row>> = vec![None; before.len()];
    let mut existing: Vec<Option<Written>> = Vec::new();
    for (at, change) in changes.iter().enumerate() {
        let slot = slots[&(change.account_id, change.reference)];
        let current = match folding[slot].take() {
            Some(row) => Some(row),
            None => before[slot].clone(),
        };
        let row = match fold(keys, change, current) {
            Ok(row) => row,
            Err(error) => {
                // The caller's savepoint undoes the rows sent so far.
                copy.abort().await?;
                return Err(error);
            }
        };
        if at != last[slot] {
            folding[slot] = Some(row);
            continue;
        }
        let written = Written::of(row, change);
        if before[slot].is_some() {
            existing.push(Some(written));
            continue;
        }
        let Some(&day) = days.get(&written.row.paid_at) else {
            // Every instant a row can hold was asked for; kept as a rejection, not a panic.
            copy.abort().await?;
            return Err(rejected(
                change.event,
                "no São Paulo day for paid_at".to_owned(),
            ));
        };
        encode_row(copy.rows(), &written, day);
        copy.row_written().await?;
    }
    copy.finish().await?;
    if !existing.is_empty() {
        write_rows(conn, &tables.payments, &existing).await?;
    }
    Ok(())
}

/// The São Paulo calendar day of every instant a payment of `changes` can be left paid at, as
/// PostgreSQL's time zone data has it (the day live's insert stores), in one query.
async fn sao_paulo_days(
    conn: &mut PgConnection,
    changes: &[Change<'_>],
) -> Result<HashMap<DateTime<Utc>, NaiveDate>, sqlx::Error> {
    let mut instants: Vec<DateTime<Utc>> = changes
        .iter()
        .filter_map(|change| match &change.decoded {
            PaymentEvent::PaymentRecorded(recorded) => Some(recorded.paid_at.as_str()),
            PaymentEvent::PaymentConfirmed(confirmed) => Some(confirmed.paid_at.as_str()),
            PaymentEvent::PaymentRefunded(_)
            | PaymentEvent::PaymentVoided(_)
            | PaymentEvent::PaymentRefundRequested(_)
            | PaymentEvent::PaymentRefundRefused(_) => None,
        })
        // An instant that does not parse rejects its event in the fold.
        .filter_map(|text| DateTime::parse_from_rfc3339(text).ok())
        .map(|at| at.with_timezone(&Utc))
        .collect();
    instants.sort_unstable();
    instants.dedup();
    let days: Vec<NaiveDate> = sqlx::query_scalar(
        "select coalesce(array_agg((t at time zone 'America/Sao_Paulo')::date order by n), '{}')
           from unnest($1::timestamptz[]) with ordinality as u(t, n)",
    )
    .bind(&instants)
    .fetch_one(conn)
    .await?;
    Ok(instants.into_iter().zip(days).collect())
}

/// One row of `payments` in `COPY`'s binary format, its São Paulo day being `day`.
fn encode_row(out: &mut BinaryRows, written: &Written, day: NaiveDate) {
    let row = &written.row;
    out.row(25);
    out.uuid(row.account_id);
    out.text(&row.reference);
    out.optional(row.end_to_end_id.as_deref(), BinaryRows::text);
    out.bigint(row.amount_centavos);
    out.bigint(row.refunded_centavos);
    out.timestamptz(row.paid_at);
    out.date(day);
    out.optional(row.txid.as_deref(), BinaryRows::text);
    out.optional(row.qrcode_id, BinaryRows::uuid);
    out.optional(row.payment_link_id, BinaryRows::uuid);
    out.optional(row.pix_key.as_deref(), BinaryRows::text);
    out.text(&row.source);
    out.optional(row.confirmed_by.as_deref(), BinaryRows::text);
    out.text(&row.status);
    out.optional(row.payer_name.as_deref(), BinaryRows::text);
    out.optional(row.payer_document.as_deref(), BinaryRows::text);
    out.optional(row.payer_info.as_deref(), BinaryRows::text);
    out.optional(row.note.as_deref(), BinaryRows::text);
    out.optional(row.recorded_by.as_deref(), BinaryRows::text);
    out.optional(row.void_reason.as_deref(), BinaryRows::text);
    out.timestamptz(row.recorded_at);
    out.jsonb(&row.refunds.to_string());
    out.bigint(written.version);
    out.xid8(written.tx_id);
    out.bigint(written.global_position);
}

/// Applies a run of payment events (no `AccountDeleted` among them): one lookup of the
/// payments they touch, each event folded in memory in feed order, one multi-row write of the
/// rows as the run leaves them, and one of `daily_totals` moved by the difference between the
/// rows' contributions before and after the run.
async fn apply_changes(
    conn: &mut PgConnection,
    tables: &Tables,
    keys: &mut Keys,
    changes: &[Change<'_>],
) -> Result<(), ApplyError> {
    if changes.is_empty() {
        return Ok(());
    }
    let mut slots: HashMap<(Uuid, &str), usize> = HashMap::with_capacity(changes.len());
    let (mut accounts, mut references) = (Vec::new(), Vec::new());
    for change in changes {
        slots
            .entry((change.account_id, change.reference))
            .or_insert_with(|| {
                accounts.push(change.account_id);
                references.push(change.reference);
                accounts.len() - 1
            });
    }
    let before = rows_before(conn, &tables.payments, &slots, &accounts, &references).await?;
    keys.load_for(&mut *conn, changes).await?;
    let mut after = fold_run(keys, changes, &slots, &before)?;
    let days = write_rows(conn, &tables.payments, &after).await?;
    if !tables.totals_after_fill {
        analyze_when_grown(conn, &tables.payments).await?;
    }
    for written in after.iter_mut().flatten() {
        if let Some(day) = days.get(&(written.row.account_id, written.row.reference.clone())) {
            written.row.paid_on = *day;
        }
    }
    if tables.totals_after_fill {
        return Ok(());
    }
    let mut deltas: HashMap<TotalsKey, [i64; 3]> = HashMap::new();
    for (old, new) in before.iter().zip(&after) {
        let old = old.as_ref().map(|row| (row.account_id, row.contribution()));
        let new = new
            .as_ref()
            .map(|written| (written.row.account_id, written.row.contribution()));
        if old == new {
            continue;
        }
        for (sign, part) in [(-1, old), (1, new)] {
            if let Some((account_id, Some((day, code, n, received, refunded)))) = part {
                let delta = deltas.entry((account_id, day, code)).or_default();
                delta[0] += sign * n;
                delta[1] += sign * received;
                delta[2] += sign * refunded;
            }
        }
    }
    deltas.retain(|_, delta| *delta != [0, 0, 0]);
    add_to_totals(conn, &tables.totals, &deltas).await?;
    let mut day_deltas: HashMap<DayTotalsKey, [i64; 3]> = HashMap::new();
    for (old, new) in before.iter().zip(&after) {
        let old = old.as_ref().map(Row::day_contribution);
        let new = new.as_ref().map(|written| written.row.day_contribution());
        if old == new {
            continue;
        }
        for (sign, part) in [(-1, old), (1, new)] {
            if let Some((key, amounts)) = part {
                let delta = day_deltas.entry(key).or_default();
                for (sum, amount) in delta.iter_mut().zip(amounts) {
                    *sum += sign * amount;
                }
            }
        }
    }
    day_deltas.retain(|_, delta| *delta != [0, 0, 0]);
    add_to_day_totals(conn, &tables.day_totals, &day_deltas).await?;
    Ok(())
}

/// Gathers `table`'s statistics when it has none yet or has doubled in size since they were
/// gathered (pages on disk against `pg_class.relpages`): a dozen `ANALYZE`s from an empty table
/// to a million rows, each a sample of 30,000 rows. Without statistics, on a small table every
/// index that starts with `account_id` costs the planner the same as the primary key and it may
/// pick any (it read 142,522 index entries for 8,000 payments); with them, the key is the only
/// cheap path. Plans must not wait for autovacuum, which is off on some servers (issue 37).
async fn analyze_when_grown(conn: &mut PgConnection, table: &str) -> Result<(), sqlx::Error> {
    let grown: bool = sqlx::query_scalar(
        "select c.reltuples < 0
                 or pg_relation_size(c.oid) / current_setting('block_size')::bigint
                    >= 2 * greatest(c.relpages, 1)
           from pg_class c
          where c.oid = to_regclass($1)",
    )
    .bind(table)
    .fetch_optional(&mut *conn)
    .await?
    .unwrap_or(false);
    if grown {
        sqlx::query(AssertSqlSafe(format!("analyze {table}")))
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}

/// Writes every row of `rows` in one statement; answers each one's São Paulo day as
/// PostgreSQL computed it from `paid_at`.
async fn write_rows(
    conn: &mut PgConnection,
    table: &str,
    rows: &[Option<Written>],
) -> Result<HashMap<(Uuid, String), NaiveDate>, sqlx::Error> {
    let rows: Vec<&Written> = rows.iter().flatten().collect();
    let column = |pick: &dyn Fn(&Written) -> Option<String>| -> Vec<Option<String>> {
        rows.iter().map(|w| pick(w)).collect()
    };
    let written: Vec<(Uuid, String, NaiveDate)> = sqlx::query_as(AssertSqlSafe(format!(
        "insert into {table} ({COLUMNS}, tx_id, global_position)
         select account_id, reference, end_to_end_id, amount_centavos, refunded_centavos,
                paid_at, (paid_at at time zone 'America/Sao_Paulo')::date, txid, qrcode_id,
                payment_link_id, pix_key, source, confirmed_by, status, payer_name,
                payer_document, payer_info, note, recorded_by, void_reason, recorded_at,
                refunds, version, tx_id::xid8, global_position
           from unnest($1::uuid[], $2::text[], $3::text[], $4::bigint[], $5::bigint[],
                       $6::timestamptz[], $7::text[], $8::uuid[], $9::text[], $10::text[],
                       $11::text[], $12::text[], $13::text[], $14::text[], $15::text[],
                       $16::text[], $17::text[], $18::text[], $19::timestamptz[], $20::jsonb[],
                       $21::bigint[], $22::text[], $23::bigint[], $24::uuid[])
             as w(account_id, reference, end_to_end_id, amount_centavos, refunded_centavos,
                  paid_at, txid, qrcode_id, pix_key, source, confirmed_by, status, payer_name,
                  payer_document, payer_info, note, recorded_by, void_reason, recorded_at,
                  refunds, version, tx_id, global_position, payment_link_id)
         on conflict (account_id, reference) do update set
             end_to_end_id = excluded.end_to_end_id, amount_centavos = excluded.amount_centavos,
             refunded_centavos = excluded.refunded_centavos, paid_at = excluded.paid_at,
             paid_on = excluded.paid_on, txid = excluded.txid, qrcode_id = excluded.qrcode_id,
             payment_link_id = excluded.payment_link_id, pix_key = excluded.pix_key, source = excluded.source,
             confirmed_by = excluded.confirmed_by, status = excluded.status,
             payer_name = excluded.payer_name, payer_document = excluded.payer_document,
             payer_info = excluded.payer_info, note = excluded.note,
             recorded_by = excluded.recorded_by, void_reason = excluded.void_reason,
             recorded_at = excluded.recorded_at, refunds = excluded.refunds,
             version = excluded.version, tx_id = excluded.tx_id,
             global_position = excluded.global_position
         returning account_id, reference, paid_on"
    )))
    .bind(rows.iter().map(|w| w.row.account_id).collect::<Vec<_>>())
    .bind(column(&|w| Some(w.row.reference.clone())))
    .bind(column(&|w| w.row.end_to_end_id.clone()))
    .bind(
        rows.iter()
            .map(|w| w.row.amount_centavos)
            .collect::<Vec<_>>(),
    )
    .bind(
        rows.iter()
            .map(|w| w.row.refunded_centavos)
            .collect::<Vec<_>>(),
    )
    .bind(rows.iter().map(|w| w.row.paid_at).collect::<Vec<_>>())
    .bind(column(&|w| w.row.txid.clone()))
    .bind(rows.iter().map(|w| w.row.qrcode_id).collect::<Vec<_>>())
    .bind(column(&|w| w.row.pix_key.clone()))
    .bind(column(&|w| Some(w.row.source.clone())))
    .bind(column(&|w| w.row.confirmed_by.clone()))
    .bind(column(&|w| Some(w.row.status.clone())))
    .bind(column(&|w| w.row.payer_name.clone()))
    .bind(column(&|w| w.row.payer_document.clone()))
    .bind(column(&|w| w.row.payer_info.clone()))
    .bind(column(&|w| w.row.note.clone()))
    .bind(column(&|w| w.row.recorded_by.clone()))
    .bind(column(&|w| w.row.void_reason.clone()))
    .bind(rows.iter().map(|w| w.row.recorded_at).collect::<Vec<_>>())
    .bind(
        rows.iter()
            .map(|w| w.row.refunds.clone())
            .collect::<Vec<_>>(),
    )
    .bind(rows.iter().map(|w| w.version).collect::<Vec<_>>())
    .bind(column(&|w| Some(w.tx_id.to_string())))
    .bind(rows.iter().map(|w| w.global_position).collect::<Vec<_>>())
    .bind(rows.iter().map(|w| w.row.payment_link_id).collect::<Vec<_>>())
    .fetch_all(&mut *conn)
    .await?;
    Ok(written
        .into_iter()
        .map(|(account_id, reference, day)| ((account_id, reference), day))
        .collect())
}

/// A `daily_totals` row's key: account, São Paulo day, code.
type TotalsKey = (Uuid, NaiveDate, Option<Uuid>);

/// A `payment_day_totals` row's key: account, São Paulo day and the values the screen filters on.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct DayTotalsKey {
    account_id: Uuid,
    day: NaiveDate,
    qrcode_id: Option<Uuid>,
    via_link: bool,
    pix_key: Option<String>,
    source: String,
    status: String,
    refund_reported: bool,
}

/// Moves `payment_day_totals` by `deltas` (payments, amount, refunded) in one statement, then
/// removes the rows left with no payment in another (replay, which sums the payments there are,
/// would not make them).
async fn add_to_day_totals(
    conn: &mut PgConnection,
    table: &str,
    deltas: &HashMap<DayTotalsKey, [i64; 3]>,
) -> Result<(), sqlx::Error> {
    if deltas.is_empty() {
        return Ok(());
    }
    let (keys, amounts): (Vec<&DayTotalsKey>, Vec<&[i64; 3]>) = deltas.iter().unzip();
    let emptied: Vec<(Uuid, NaiveDate)> = sqlx::query_as(AssertSqlSafe(format!(
        "insert into {table} as t (account_id, day, qrcode_id, via_link, pix_key, source, status,
                                   refund_reported, payments, amount_centavos, refunded_centavos)
         select * from unnest($1::uuid[], $2::date[], $3::uuid[], $4::boolean[], $5::text[],
                              $6::text[], $7::text[], $8::boolean[], $9::bigint[], $10::bigint[],
                              $11::bigint[])
         on conflict (account_id, day, qrcode_id, via_link, pix_key, source, status,
                      refund_reported) do update set
             payments = t.payments + excluded.payments,
             amount_centavos = t.amount_centavos + excluded.amount_centavos,
             refunded_centavos = t.refunded_centavos + excluded.refunded_centavos
         returning account_id, day, payments = 0"
    )))
    .bind(keys.iter().map(|k| k.account_id).collect::<Vec<_>>())
    .bind(keys.iter().map(|k| k.day).collect::<Vec<_>>())
    .bind(keys.iter().map(|k| k.qrcode_id).collect::<Vec<_>>())
    .bind(keys.iter().map(|k| k.via_link).collect::<Vec<_>>())
    .bind(keys.iter().map(|k| k.pix_key.clone()).collect::<Vec<_>>())
    .bind(keys.iter().map(|k| k.source.clone()).collect::<Vec<_>>())
    .bind(keys.iter().map(|k| k.status.clone()).collect::<Vec<_>>())
    .bind(keys.iter().map(|k| k.refund_reported).collect::<Vec<_>>())
    .bind(amounts.iter().map(|a| a[0]).collect::<Vec<_>>())
    .bind(amounts.iter().map(|a| a[1]).collect::<Vec<_>>())
    .bind(amounts.iter().map(|a| a[2]).collect::<Vec<_>>())
    .fetch_all(&mut *conn)
    .await?
    .into_iter()
    .filter_map(|(account_id, day, empty): (Uuid, NaiveDate, bool)| {
        empty.then_some((account_id, day))
    })
    .collect();
    if emptied.is_empty() {
        return Ok(());
    }
    let (accounts, days): (Vec<Uuid>, Vec<NaiveDate>) = emptied.into_iter().unzip();
    sqlx::query(AssertSqlSafe(format!(
        "delete from {table} t using unnest($1::uuid[], $2::date[]) as e(account_id, day)
          where t.account_id = e.account_id and t.day = e.day and t.payments = 0"
    )))
    .bind(accounts)
    .bind(days)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Moves `daily_totals` by `deltas` in one statement, then removes the rows left with no
/// payment (the ones replay, which sums the standing payments, would not make).
async fn add_to_totals(
    conn: &mut PgConnection,
    table: &str,
    deltas: &HashMap<TotalsKey, [i64; 3]>,
) -> Result<(), sqlx::Error> {
    if deltas.is_empty() {
        return Ok(());
    }
    let (keys, amounts): (Vec<&TotalsKey>, Vec<&[i64; 3]>) = deltas.iter().unzip();
    let emptied: Vec<(Uuid, NaiveDate, Option<Uuid>)> = sqlx::query_as(AssertSqlSafe(format!(
        "insert into {table} as t (account_id, day, qrcode_id, payments, received_centavos,
                                   refunded_centavos)
         select * from unnest($1::uuid[], $2::date[], $3::uuid[], $4::bigint[], $5::bigint[],
                              $6::bigint[])
         on conflict (account_id, day, qrcode_id) do update set
             payments = t.payments + excluded.payments,
             received_centavos = t.received_centavos + excluded.received_centavos,
             refunded_centavos = t.refunded_centavos + excluded.refunded_centavos
         returning account_id, day, qrcode_id, payments = 0"
    )))
    .bind(keys.iter().map(|k| k.0).collect::<Vec<_>>())
    .bind(keys.iter().map(|k| k.1).collect::<Vec<_>>())
    .bind(keys.iter().map(|k| k.2).collect::<Vec<_>>())
    .bind(amounts.iter().map(|a| a[0]).collect::<Vec<_>>())
    .bind(amounts.iter().map(|a| a[1]).collect::<Vec<_>>())
    .bind(amounts.iter().map(|a| a[2]).collect::<Vec<_>>())
    .fetch_all(&mut *conn)
    .await?
    .into_iter()
    .filter_map(
        |(account_id, day, code, empty): (Uuid, NaiveDate, Option<Uuid>, bool)| {
            empty.then_some((account_id, day, code))
        },
    )
    .collect();
    for (account_id, day, code) in emptied {
        sqlx::query(AssertSqlSafe(format!(
            "delete from {table}
              where account_id = $1 and day = $2 and qrcode_id is not distinct from $3
                and payments = 0"
        )))
        .bind(account_id)
        .bind(day)
        .bind(code)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// Applies one payment event to the row as it stands (`None`: not recorded yet), in memory.
/// The account's key is already in `keys` ([`Keys::load_for`]), so folding needs no database
/// and copies out of the decoded event only the fields the row keeps.
fn fold(keys: &Keys, change: &Change<'_>, old: Option<Row>) -> Result<Row, ApplyError> {
    let Change {
        event,
        account_id,
        account_text,
        reference,
        ..
    } = *change;
    let row = match (old, &change.decoded) {
        // A second `PaymentRecorded` on a stream follows only the undoing of the statement
        // import that recorded it (`PaymentVoided.undone_import`): the line, imported again, is
        // the payment anew.
        (old, PaymentEvent::PaymentRecorded(recorded))
            if old
                .as_ref()
                .is_none_or(|row| row.status == "voided" && row.source == "extrato") =>
        {
            Row {
                account_id,
                reference: reference.to_owned(),
                end_to_end_id: recorded.end_to_end_id.clone(),
                amount_centavos: centavos(event, recorded.amount_centavos)?,
                refunded_centavos: 0,
                paid_at: timestamp(event, &recorded.paid_at)?,
                paid_on: NaiveDate::MIN,
                txid: recorded.txid.clone(),
                qrcode_id: code(event, recorded.qrcode_id.as_deref())?,
                payment_link_id: code(event, recorded.payment_link_id.as_deref())?,
                pix_key: recorded.pix_key.clone(),
                source: recorded.source.as_str().to_owned(),
                confirmed_by: None,
                status: "received".to_owned(),
                payer_name: keys.open(account_text, recorded.payer_name.as_ref()),
                payer_document: keys.open(account_text, recorded.payer_document.as_ref()),
                payer_info: keys.open(account_text, recorded.payer_info.as_ref()),
                note: recorded.note.clone(),
                recorded_by: recorded.recorded_by.clone(),
                void_reason: None,
                recorded_at: timestamp(event, &recorded.recorded_at)?,
                refunds: serde_json::Value::Array(Vec::new()),
            }
        }
        (Some(mut row), PaymentEvent::PaymentConfirmed(confirmed)) => {
            row.amount_centavos = centavos(event, confirmed.amount_centavos)?;
            row.paid_at = timestamp(event, &confirmed.paid_at)?;
            if confirmed.txid.is_some() {
                row.txid.clone_from(&confirmed.txid);
            }
            if let Some(code) = code(event, confirmed.qrcode_id.as_deref())? {
                row.qrcode_id = Some(code);
            }
            if let Some(link) = code(event, confirmed.payment_link_id.as_deref())? {
                row.payment_link_id = Some(link);
            }
            if confirmed.end_to_end_id.is_some() {
                row.end_to_end_id.clone_from(&confirmed.end_to_end_id);
            }
            row.confirmed_by = Some(confirmed.source.as_str().to_owned());
            row.status = "received".to_owned();
            row.void_reason = None;
            for (field, sealed) in [
                (&mut row.payer_name, confirmed.payer_name.as_ref()),
                (&mut row.payer_document, confirmed.payer_document.as_ref()),
                (&mut row.payer_info, confirmed.payer_info.as_ref()),
            ] {
                if let Some(opened) = keys.open(account_text, sealed) {
                    *field = Some(opened);
                }
            }
            row
        }
        (Some(mut row), PaymentEvent::PaymentRefunded(refunded)) => {
            let mut refunds = refunds_of(event, &row)?;
            let known = refunds.iter_mut().find(|r| r.id == refunded.refund_id);
            let (description, requested_by) = known
                .as_ref()
                .map(|r| (r.description.clone(), r.requested_by.clone()))
                .unwrap_or_default();
            let view = RefundView {
                id: refunded.refund_id.clone(),
                rtr_id: refunded.rtr_id.clone(),
                amount_centavos: refunded.amount_centavos,
                status: refunded.status.as_str().to_owned(),
                reason: refunded.reason.clone(),
                description,
                requested_by,
            };
            match known {
                Some(existing) => *existing = view,
                None => refunds.push(view),
            }
            set_refunds(event, &mut row, &refunds)?;
            row
        }
        (Some(mut row), PaymentEvent::PaymentRefundRequested(requested)) => {
            let mut refunds = refunds_of(event, &row)?;
            // The bank's answer may have been folded first (a webhook beat the request's own
            // event to the feed? never: the request is appended before the bank is called; but a
            // replay of an odd log must not duplicate the line).
            if !refunds.iter().any(|r| r.id == requested.refund_id) {
                refunds.push(RefundView {
                    id: requested.refund_id.clone(),
                    rtr_id: String::new(),
                    amount_centavos: requested.amount_centavos,
                    status: REFUND_REQUESTED.to_owned(),
                    reason: None,
                    description: requested.description.clone(),
                    requested_by: Some(requested.requested_by.clone()),
                });
            }
            set_refunds(event, &mut row, &refunds)?;
            row
        }
        (Some(mut row), PaymentEvent::PaymentRefundRefused(refused)) => {
            let mut refunds = refunds_of(event, &row)?;
            if let Some(refund) = refunds.iter_mut().find(|r| r.id == refused.refund_id) {
                refund.status = REFUND_REFUSED.to_owned();
                refund.reason = Some(refused.reason.clone());
            }
            set_refunds(event, &mut row, &refunds)?;
            row
        }
        (Some(mut row), PaymentEvent::PaymentVoided(voided)) => {
            row.status = "voided".to_owned();
            row.void_reason = Some(voided.reason.clone());
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
            PaymentSource::Sandbox,
            PaymentSource::Extrato,
            PaymentSource::ApiPixConsulta
        ]
        .iter()
        .any(|s| s.as_str() == row.source)
    );
    Ok(row)
}

async fn forget_account(
    conn: &mut PgConnection,
    tables: &Tables,
    event: &StoredEvent,
) -> Result<(), ApplyError> {
    let Ok(account_id) = Uuid::parse_str(&event.stream_id) else {
        return Ok(());
    };
    for table in [&tables.payments, &tables.totals, &tables.day_totals] {
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
    /// Loads, in feed order, the key of every account whose payments in `changes` carry a
    /// sealed field, so that [`fold`] opens them without the database (and replay's fill can
    /// fold while its `COPY` holds the connection). A key that cannot be read rejects the first
    /// event that needs it, as opening it there did.
    async fn load_for(
        &mut self,
        conn: &mut PgConnection,
        changes: &[Change<'_>],
    ) -> Result<(), ApplyError> {
        for change in changes {
            if !has_sealed(&change.decoded) || self.loaded.contains_key(change.account_text) {
                continue;
            }
            let key =
                load_key(&mut *conn, change.account_text)
                    .await
                    .map_err(|error| match error {
                        VaultError::Storage(error) => ApplyError::Database(error),
                        other => rejected(change.event, format!("the account's key: {other}")),
                    })?;
            self.loaded.insert(change.account_text.to_owned(), key);
        }
        Ok(())
    }

    /// Opens `sealed` with the account's key, loaded beforehand by [`Keys::load_for`]; `None`
    /// when there is nothing sealed, the key is gone (shredded) or the value does not open.
    fn open(&self, account_id: &str, sealed: Option<&Sealed>) -> Option<String> {
        let Some(Some(key)) = self.loaded.get(account_id) else {
            return None;
        };
        key.open(sealed?).ok()
    }
}

/// Whether the event carries a payer field sealed with the account's key.
fn has_sealed(event: &PaymentEvent) -> bool {
    match event {
        PaymentEvent::PaymentRecorded(e) => {
            e.payer_name.is_some() || e.payer_document.is_some() || e.payer_info.is_some()
        }
        PaymentEvent::PaymentConfirmed(e) => {
            e.payer_name.is_some() || e.payer_document.is_some() || e.payer_info.is_some()
        }
        PaymentEvent::PaymentRefunded(_)
        | PaymentEvent::PaymentVoided(_)
        | PaymentEvent::PaymentRefundRequested(_)
        | PaymentEvent::PaymentRefundRefused(_) => false,
    }
}

/// The payment event in `event`'s payload. The envelope's event type names the variant (the
/// store writes it from the same enum the payload's `type` tag comes from), so the payload is
/// read straight into that variant's struct, which ignores the tag: read as the tagged enum,
/// serde first copied every field of every payload into a buffer of its own.
fn decode(event: &StoredEvent) -> Result<PaymentEvent, serde_json::Error> {
    match event.event_type.as_str() {
        "PaymentRecorded" => event
            .payload
            .deserialize()
            .map(PaymentEvent::PaymentRecorded),
        "PaymentConfirmed" => event
            .payload
            .deserialize()
            .map(PaymentEvent::PaymentConfirmed),
        "PaymentRefunded" => event
            .payload
            .deserialize()
            .map(PaymentEvent::PaymentRefunded),
        "PaymentVoided" => event.payload.deserialize().map(PaymentEvent::PaymentVoided),
        "PaymentRefundRequested" => event
            .payload
            .deserialize()
            .map(PaymentEvent::PaymentRefundRequested),
        "PaymentRefundRefused" => event
            .payload
            .deserialize()
            .map(PaymentEvent::PaymentRefundRefused),
        // Whatever the enum makes of it (its error names the unknown type).
        _ => event.payload.deserialize(),
    }
}

/// The row's refunds as a list (a row that has none reads as empty).
fn refunds_of(event: &StoredEvent, row: &Row) -> Result<Vec<RefundView>, ApplyError> {
    if row.refunds.is_null() {
        return Ok(Vec::new());
    }
    serde_json::from_value(row.refunds.clone())
        .map_err(|error| rejected(event, format!("refunds: {error}")))
}

/// Writes `refunds` to the row, with the total the bank has paid back (`DEVOLVIDO` only).
fn set_refunds(
    event: &StoredEvent,
    row: &mut Row,
    refunds: &[RefundView],
) -> Result<(), ApplyError> {
    let refunded_total: u64 = refunds
        .iter()
        .filter(|r| r.status == RefundStatus::Devolvido.as_str())
        .map(|r| r.amount_centavos)
        .sum();
    row.refunded_centavos = centavos(event, refunded_total)?;
    row.refunds = serde_json::to_value(refunds)
        .map_err(|error| rejected(event, format!("refunds: {error}")))?;
    Ok(())
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
