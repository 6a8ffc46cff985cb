//! Read model `qrcodes`: the QR codes made by `CreateQrCode` and `CreateAccountQrCode`, one row
//! each, with their archive state.
//!
//! Built from `QrCodeCreated` (a row), `QrCodeArchived` and `QrCodeUnarchived` (its
//! `archived_at` and `version`) and `QrCodeClaimed` (a visitor's code moved into the account that
//! claimed it: `owner_id` and `created_by` follow, see `claims`), stream type `qrcode`, at their current schema version, upcast by
//! the runtime; the structs below read that shape. Its table is created by `migrations/` only.
//! The gateway reads it with [`find`], [`list_by_owner`], [`list_by_batch`] and [`search`].
//!
//! A batch of events is written with one insert (or `COPY`) of the new rows, then one update of
//! the rows whose archive state changed, each code's events folded first (last one wins), so a
//! code created and archived within one batch ends archived, as it does event by event.

mod claims;
mod from_log;
mod replay_changes;

use std::collections::HashMap;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use commands::Upcasters;
use commands::feed::{FeedPosition, StoredEvent};
use serde::{Deserialize, Serialize};
use sqlx::{PgConnection, PgExecutor};
use uuid::Uuid;

pub use from_log::view_from_stream;

use crate::copy_in::{BinaryRows, CopyIn};
use crate::error::Error;
use crate::projection::{ApplyError, Projection, TableSet};
use crate::sql::position_from;

/// The projection's name (durable consumer, checkpoint key).
pub const NAME: &str = "qrcodes";
/// The live table.
pub const TABLE: &str = "qrcodes";
/// Stream type of the QR code aggregate.
pub const STREAM_TYPE: &str = "qrcode";
/// The event a row is made from.
pub const CREATED: &str = "QrCodeCreated";
/// The event that archives a row.
pub const ARCHIVED: &str = "QrCodeArchived";
/// The event that brings a row back.
pub const UNARCHIVED: &str = "QrCodeUnarchived";

/// Which kind of Pix key a QR code pays to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum KeyKind {
    /// Individual taxpayer number (11 digits).
    Cpf,
    /// Company taxpayer number (14 digits).
    Cnpj,
    /// E-mail address.
    Email,
    /// Phone number, `+55…`.
    Phone,
    /// Random key (UUID) issued by the payment institution.
    Evp,
}

impl KeyKind {
    /// The stored spelling (`cpf`, `cnpj`, `email`, `phone`, `evp`).
    pub fn as_str(self) -> &'static str {
        match self {
            KeyKind::Cpf => "cpf",
            KeyKind::Cnpj => "cnpj",
            KeyKind::Email => "email",
            KeyKind::Phone => "phone",
            KeyKind::Evp => "evp",
        }
    }

    fn parse(text: &str) -> Option<KeyKind> {
        [
            KeyKind::Cpf,
            KeyKind::Cnpj,
            KeyKind::Email,
            KeyKind::Phone,
            KeyKind::Evp,
        ]
        .into_iter()
        .find(|k| k.as_str() == text)
    }
}

/// One QR code as the gateway shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QrCodeView {
    /// The QR code's id (also its aggregate id).
    pub qrcode_id: Uuid,
    /// The account that made it; `None` for QR codes made without an account.
    pub owner_id: Option<Uuid>,
    /// The person who made it, by account id: in a team, the member's own account while
    /// `owner_id` is the workspace. `None` for visitors and for codes made before teams.
    pub created_by: Option<String>,
    /// Kind of Pix key.
    pub key_kind: KeyKind,
    /// The normalised Pix key.
    pub pix_key: String,
    /// Merchant name as encoded in the BR Code.
    pub merchant_name: String,
    /// Merchant city as encoded in the BR Code.
    pub merchant_city: String,
    /// Fixed amount in centavos; `None` when the payer types it.
    pub amount_centavos: Option<i64>,
    /// Free text shown to the payer.
    pub description: Option<String>,
    /// Transaction id field of the BR Code (`***` when none).
    pub txid: String,
    /// The BR Code itself (copy-and-paste string).
    pub payload: String,
    /// When the QR code was made.
    pub created_at: DateTime<Utc>,
    /// The event this row came from.
    pub event_id: Uuid,
    /// Feed position of that event.
    pub position: FeedPosition,
    /// The registered key (`pix_keys.key_id`) it was made from, if any.
    pub key_id: Option<Uuid>,
    /// The batch it was made in, if any.
    pub batch_id: Option<Uuid>,
    /// The code it duplicates, if any.
    pub duplicate_of: Option<Uuid>,
    /// When it was archived; `None` while it takes payments.
    pub archived_at: Option<DateTime<Utc>>,
    /// The code's stream version this row reflects.
    pub version: i64,
    /// Made for one sale (`QrCodeCreated.single_use`): once paid, its page says so to everyone.
    pub single_use: bool,
    /// When a single-use code was paid: the earliest payment matched to it that stands (not
    /// voided) in the `payments` read model. Always `None` for a reusable code, which many
    /// people pay.
    pub paid_at: Option<DateTime<Utc>>,
    /// When the dynamic code of a connected bank's charge (`cob`) stops being offered
    /// (`QrCodeCreated.bank_charge.expires_at`); `None` for every code Balcão writes itself.
    pub charge_expires_at: Option<DateTime<Utc>>,
    /// A due-date charge's (`cobv`) public terms; `None` for every other code.
    pub charge_due: Option<ChargeDue>,
}

/// A due-date charge's terms as its payer page shows them (`QrCodeCreated.bank_charge.due`
/// without the debtor), in the API Pix's modalities; values in hundredths (centavos, or
/// hundredths of a percent, as the modality says: `domain::qrcode::charge_terms`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChargeDue {
    /// The due date.
    pub due_date: chrono::NaiveDate,
    /// Days it may still be paid after it.
    pub days_after_due: u32,
    /// `multa`.
    #[serde(default)]
    pub fine: Option<ChargeAdjustment>,
    /// `juros`.
    #[serde(default)]
    pub interest: Option<ChargeAdjustment>,
    /// `desconto`.
    #[serde(default)]
    pub discount: Option<ChargeDiscount>,
    /// `abatimento`.
    #[serde(default)]
    pub abatement: Option<ChargeAdjustment>,
}

/// A fine, interest or abatement: modality and value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChargeAdjustment {
    /// The spec's modality.
    pub modality: u8,
    /// In hundredths.
    pub value: i64,
}

/// A discount: by dates (modalities 1, 2) or per day paid early (3 to 6).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChargeDiscount {
    /// The spec's modality.
    pub modality: u8,
    /// Each last day and its value.
    #[serde(default)]
    pub dates: Vec<ChargeDiscountDate>,
    /// The value per day paid early.
    #[serde(default)]
    pub value: Option<i64>,
}

/// A discount up to a day.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChargeDiscountDate {
    /// The last day it applies.
    pub until: chrono::NaiveDate,
    /// In hundredths.
    pub value: i64,
}

#[derive(sqlx::FromRow)]
struct Row {
    qrcode_id: Uuid,
    owner_id: Option<Uuid>,
    created_by: Option<String>,
    key_kind: String,
    pix_key: String,
    merchant_name: String,
    merchant_city: String,
    amount_centavos: Option<i64>,
    description: Option<String>,
    txid: String,
    payload: String,
    created_at: DateTime<Utc>,
    event_id: Uuid,
    tx_id: i64,
    global_position: i64,
    key_id: Option<Uuid>,
    batch_id: Option<Uuid>,
    duplicate_of: Option<Uuid>,
    archived_at: Option<DateTime<Utc>>,
    version: i64,
    single_use: bool,
    paid_at: Option<DateTime<Utc>>,
    charge_expires_at: Option<DateTime<Utc>>,
    charge_due: Option<sqlx::types::Json<ChargeDue>>,
}

impl TryFrom<Row> for QrCodeView {
    type Error = Error;

    fn try_from(row: Row) -> Result<QrCodeView, Error> {
        // The table's check constraint admits only the five kinds.
        let key_kind = KeyKind::parse(&row.key_kind).ok_or_else(|| {
            Error::Database(sqlx::Error::Decode(
                format!("unknown key_kind {:?}", row.key_kind).into(),
            ))
        })?;
        Ok(QrCodeView {
            qrcode_id: row.qrcode_id,
            owner_id: row.owner_id,
            created_by: row.created_by,
            key_kind,
            pix_key: row.pix_key,
            merchant_name: row.merchant_name,
            merchant_city: row.merchant_city,
            amount_centavos: row.amount_centavos,
            description: row.description,
            txid: row.txid,
            payload: row.payload,
            created_at: row.created_at,
            event_id: row.event_id,
            position: position_from(row.tx_id, row.global_position),
            key_id: row.key_id,
            batch_id: row.batch_id,
            duplicate_of: row.duplicate_of,
            archived_at: row.archived_at,
            version: row.version,
            single_use: row.single_use,
            paid_at: row.paid_at,
            charge_expires_at: row.charge_expires_at,
            charge_due: row.charge_due.map(|due| due.0),
        })
    }
}

/// A single-use code's payments are not its events: the intake matches a payment to the code by
/// the code's txid claim and the payment names it (`payments.qrcode_id`, in the code's account),
/// so `paid_at` is read from `payments` (index `payments_account_code_idx`), and only for
/// single-use codes. Callers append their own `where` and `order by`: the lateral `paid` shows
/// only its one column, so their unqualified names still mean `qrcodes`' columns.
const SELECT: &str =
    "select qrcode_id, owner_id, created_by, key_kind, pix_key, merchant_name, merchant_city,
                             amount_centavos, description, txid, payload, created_at, event_id,
                             tx_id::text::bigint as tx_id, global_position, key_id, batch_id,
                             duplicate_of, archived_at, version, single_use, paid.paid_at,
                             charge_expires_at, charge_due
                        from qrcodes
                        left join lateral (
                             select min(p.paid_at) as paid_at from payments p
                              where qrcodes.single_use
                                and p.account_id = qrcodes.owner_id
                                and p.qrcode_id = qrcodes.qrcode_id
                                and p.status = 'received') paid on true";

/// The QR code with this id, if the read model has it yet.
///
/// Right after `CreateQrCode`, call [`crate::projector::wait_until`] with the command's feed
/// position first, or this may not see it.
pub async fn find<'e>(
    executor: impl PgExecutor<'e>,
    qrcode_id: Uuid,
) -> Result<Option<QrCodeView>, Error> {
    let row: Option<Row> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{SELECT} where qrcode_id = $1"
    )))
    .bind(qrcode_id)
    .fetch_optional(executor)
    .await?;
    row.map(QrCodeView::try_from).transpose()
}

/// The QR code with this id from the read model or, when the read model does not have it yet
/// (its projector stopped or behind), from the code's own stream in the event log
/// ([`view_from_stream`]). For pages and answers about a code someone just made: they never
/// wait for the projector and never answer 404 for a code that exists.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn find_or_from_log(
    pool: &sqlx::PgPool,
    store: &commands::PgEventStore,
    qrcode_id: Uuid,
) -> Result<Option<QrCodeView>, Error> {
    if let Some(view) = find(pool, qrcode_id).await? {
        return Ok(Some(view));
    }
    let events = store
        .read_stream(STREAM_TYPE, &qrcode_id.hyphenated().to_string())
        .await?;
    let mut view = view_from_stream(store.upcasters(), &events);
    // A payment can be recorded (matched by the code's txid claim, in the log) before the code's
    // row is: a single-use code drawn from its stream is paid all the same.
    if let Some(row) = view.as_mut()
        && row.single_use
        && let Some(owner) = row.owner_id
    {
        row.paid_at = paid_at(pool, owner, row.qrcode_id).await?;
    }
    Ok(view)
}

/// When the code `qrcode_id` of account `owner_id` was first paid: the earliest payment matched
/// to it that stands (not voided) in the `payments` read model, as [`QrCodeView::paid_at`].
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn paid_at<'e>(
    executor: impl PgExecutor<'e>,
    owner_id: Uuid,
    qrcode_id: Uuid,
) -> Result<Option<DateTime<Utc>>, Error> {
    Ok(sqlx::query_scalar(
        "select min(paid_at) from payments
          where account_id = $1 and qrcode_id = $2 and status = 'received'",
    )
    .bind(owner_id)
    .bind(qrcode_id)
    .fetch_one(executor)
    .await?)
}

/// The newest `limit` QR codes of an account, newest first; with `created_by`, only those that
/// person made (what an operator may see in a workspace).
pub async fn list_by_owner<'e>(
    executor: impl PgExecutor<'e>,
    owner_id: Uuid,
    created_by: Option<&str>,
    limit: i64,
) -> Result<Vec<QrCodeView>, Error> {
    let rows: Vec<Row> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{SELECT} where owner_id = $1 and ($2::text is null or created_by = $2)
          order by created_at desc, qrcode_id limit $3"
    )))
    .bind(owner_id)
    .bind(created_by)
    .bind(limit)
    .fetch_all(executor)
    .await?;
    rows.into_iter().map(QrCodeView::try_from).collect()
}

/// The codes made together in batch `batch_id` that still take payments, in the order they
/// were made (the batch's lines). The batch id is shared by every code of one
/// `POST …/qrcodes/lote` and by nothing else.
pub async fn list_by_batch<'e>(
    executor: impl PgExecutor<'e>,
    batch_id: Uuid,
) -> Result<Vec<QrCodeView>, Error> {
    let rows: Vec<Row> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{SELECT} where batch_id = $1 and archived_at is null
          order by tx_id, global_position"
    )))
    .bind(batch_id)
    .fetch_all(executor)
    .await?;
    rows.into_iter().map(QrCodeView::try_from).collect()
}

/// What the dashboard's list asks for: an account's codes, filtered and searched, one page.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Search {
    /// Only the codes this person made (an operator's view).
    pub created_by: Option<String>,
    /// Text found in the description or the txid (any case), or an amount in centavos equal
    /// to the code's.
    pub text: Option<String>,
    /// An amount in centavos the code must have (typed as `12,50` in the search box).
    pub amount_centavos: Option<i64>,
    /// Only codes made from this registered key.
    pub key_id: Option<Uuid>,
    /// `Some(true)`: only archived codes; `Some(false)`: only codes taking payments; `None`: all.
    pub archived: Option<bool>,
    /// Only codes of this batch.
    pub batch_id: Option<Uuid>,
    /// Keyset cursor: the page starts after the code made at this instant with this id (the
    /// last row of the previous page), in the list's order (newest first).
    pub after: Option<(DateTime<Utc>, Uuid)>,
    /// The page's size.
    pub limit: i64,
}

/// One page of an account's codes, newest first (then by id), as [`Search`] says.
///
/// The text matches the description or the txid anywhere, ignoring case (`%` and `_` typed are
/// taken literally). A text that reads as an amount also matches codes of that amount.
pub async fn search<'e>(
    executor: impl PgExecutor<'e>,
    owner_id: Uuid,
    query: &Search,
) -> Result<Vec<QrCodeView>, Error> {
    let pattern = query.text.as_deref().map(|text| {
        let escaped = text
            .replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_");
        format!("%{escaped}%")
    });
    let rows: Vec<Row> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{SELECT} where owner_id = $1
            and ($2::text is null or created_by = $2)
            and ($3::text is null or description ilike $3 or txid ilike $3
                 or ($4::bigint is not null and amount_centavos = $4))
            and ($3::text is not null or $4::bigint is null or amount_centavos = $4)
            and ($5::uuid is null or key_id = $5)
            and ($6::boolean is null or (archived_at is not null) = $6)
            and ($7::uuid is null or batch_id = $7)
            and ($8::timestamptz is null or (created_at, qrcode_id) < ($8, $9::uuid))
          order by created_at desc, qrcode_id desc limit $10"
    )))
    .bind(owner_id)
    .bind(query.created_by.as_deref())
    .bind(pattern)
    .bind(query.amount_centavos)
    .bind(query.key_id)
    .bind(query.archived)
    .bind(query.batch_id)
    .bind(query.after.map(|(at, _)| at))
    .bind(query.after.map(|(_, id)| id))
    .bind(query.limit)
    .fetch_all(executor)
    .await?;
    rows.into_iter().map(QrCodeView::try_from).collect()
}

/// Payload of `QrCodeCreated` in its current shape (schema version 1 is the only one so far).
#[derive(Debug, Deserialize)]
struct QrCodeCreatedV1 {
    qrcode_id: Uuid,
    owner_id: Option<Uuid>,
    /// Added within version 1: events stored before it have no such field.
    #[serde(default)]
    created_by: Option<String>,
    key_kind: KeyKind,
    pix_key: String,
    merchant_name: String,
    merchant_city: String,
    amount_centavos: Option<i64>,
    description: Option<String>,
    txid: String,
    payload: String,
    created_at: DateTime<Utc>,
    /// Added within version 1, as `created_by` (absent reads as `None`).
    #[serde(default)]
    key_id: Option<Uuid>,
    /// Added within version 1.
    #[serde(default)]
    batch_id: Option<Uuid>,
    /// Added within version 1.
    #[serde(default)]
    duplicate_of: Option<Uuid>,
    /// Added within version 1 (absent: a reusable code).
    #[serde(default)]
    single_use: bool,
    /// Added within version 1 (absent: a code Balcão wrote, not a bank's charge).
    #[serde(default)]
    bank_charge: Option<BankChargeV1>,
}

/// `QrCodeCreated.bank_charge` as far as this read model reads it.
#[derive(Debug, Deserialize)]
struct BankChargeV1 {
    expires_at: DateTime<Utc>,
    /// A `cobv`'s terms (the sealed debtor is not read).
    #[serde(default)]
    due: Option<ChargeDueV1>,
}

/// `QrCodeCreated.bank_charge.due` as stored (snake case; the sealed debtor is not read).
#[derive(Debug, Deserialize)]
struct ChargeDueV1 {
    due_date: chrono::NaiveDate,
    days_after_due: u32,
    #[serde(default)]
    fine: Option<ChargeAdjustment>,
    #[serde(default)]
    interest: Option<ChargeAdjustment>,
    #[serde(default)]
    discount: Option<ChargeDiscount>,
    #[serde(default)]
    abatement: Option<ChargeAdjustment>,
}

impl QrCodeCreatedV1 {
    fn charge_expires_at(&self) -> Option<DateTime<Utc>> {
        self.bank_charge.as_ref().map(|charge| charge.expires_at)
    }

    fn charge_due(&self) -> Option<ChargeDue> {
        let due = self.bank_charge.as_ref()?.due.as_ref()?;
        Some(ChargeDue {
            due_date: due.due_date,
            days_after_due: due.days_after_due,
            fine: due.fine,
            interest: due.interest,
            discount: due.discount.clone(),
            abatement: due.abatement,
        })
    }
}

/// Payload of `QrCodeArchived` and `QrCodeUnarchived` as far as this read model reads them.
#[derive(Debug, Deserialize)]
struct ArchivedV1 {
    /// Present on `QrCodeArchived` only.
    #[serde(default)]
    archived_at: Option<DateTime<Utc>>,
}

/// Batches of at least this many rows go in with `COPY` (replay's pages, a projector catching up):
/// fewer, larger WAL records and no text or array parsing. Smaller ones (the live projector's
/// usual few events) take the one-round-trip `insert … select from unnest(…)`. Both refuse the
/// same rows with the same errors, so live and replay park the same events.
const COPY_FROM_ROWS: usize = 256;

/// Column-wise batch for one `insert … select * from unnest(…)` or one `COPY`.
#[derive(Default)]
struct Columns {
    qrcode_id: Vec<Uuid>,
    owner_id: Vec<Option<Uuid>>,
    created_by: Vec<Option<String>>,
    key_kind: Vec<&'static str>,
    pix_key: Vec<String>,
    merchant_name: Vec<String>,
    merchant_city: Vec<String>,
    amount_centavos: Vec<Option<i64>>,
    description: Vec<Option<String>>,
    txid: Vec<String>,
    payload: Vec<String>,
    created_at: Vec<DateTime<Utc>>,
    event_id: Vec<Uuid>,
    tx_id: Vec<u64>,
    global_position: Vec<i64>,
    key_id: Vec<Option<Uuid>>,
    batch_id: Vec<Option<Uuid>>,
    duplicate_of: Vec<Option<Uuid>>,
    version: Vec<i64>,
    single_use: Vec<bool>,
    charge_expires_at: Vec<Option<DateTime<Utc>>>,
    charge_due: Vec<Option<serde_json::Value>>,
}

impl Columns {
    /// Writes the batch with `COPY … FROM STDIN (FORMAT binary)` into table `t`, streamed in
    /// chunks (see [`CopyIn`]).
    async fn copy_in(self, conn: &mut PgConnection, t: &str) -> Result<u64, sqlx::Error> {
        let mut copy = CopyIn::start(
            conn,
            &format!(
                "copy {t} (qrcode_id, owner_id, key_kind, pix_key, merchant_name, merchant_city,
                           amount_centavos, description, txid, payload, created_at, event_id,
                           tx_id, global_position, created_by, key_id, batch_id,
                           duplicate_of, version, single_use, charge_expires_at, charge_due)
                 from stdin (format binary)"
            ),
        )
        .await?;
        for i in 0..self.qrcode_id.len() {
            let out = copy.rows();
            out.row(22);
            out.uuid(self.qrcode_id[i]);
            out.optional(self.owner_id[i], BinaryRows::uuid);
            out.text(self.key_kind[i]);
            out.text(&self.pix_key[i]);
            out.text(&self.merchant_name[i]);
            out.text(&self.merchant_city[i]);
            out.optional(self.amount_centavos[i], BinaryRows::bigint);
            out.optional(self.description[i].as_deref(), BinaryRows::text);
            out.text(&self.txid[i]);
            out.text(&self.payload[i]);
            out.timestamptz(self.created_at[i]);
            out.uuid(self.event_id[i]);
            out.xid8(self.tx_id[i]);
            out.bigint(self.global_position[i]);
            out.optional(self.created_by[i].as_deref(), BinaryRows::text);
            out.optional(self.key_id[i], BinaryRows::uuid);
            out.optional(self.batch_id[i], BinaryRows::uuid);
            out.optional(self.duplicate_of[i], BinaryRows::uuid);
            out.bigint(self.version[i]);
            out.boolean(self.single_use[i]);
            out.optional(self.charge_expires_at[i], BinaryRows::timestamptz);
            out.optional(
                self.charge_due[i].as_ref().map(ToString::to_string),
                |rows, json| rows.jsonb(&json),
            );
            copy.row_written().await?;
        }
        copy.finish().await
    }

    fn push(&mut self, event: &StoredEvent, created: QrCodeCreatedV1) {
        self.charge_expires_at.push(created.charge_expires_at());
        self.charge_due.push(
            created
                .charge_due()
                .and_then(|due| serde_json::to_value(due).ok()),
        );
        self.qrcode_id.push(created.qrcode_id);
        self.owner_id.push(created.owner_id);
        self.created_by.push(created.created_by);
        self.key_kind.push(created.key_kind.as_str());
        self.pix_key.push(created.pix_key);
        self.merchant_name.push(created.merchant_name);
        self.merchant_city.push(created.merchant_city);
        self.amount_centavos.push(created.amount_centavos);
        self.description.push(created.description);
        self.txid.push(created.txid);
        self.payload.push(created.payload);
        self.created_at.push(created.created_at);
        self.event_id.push(event.event_id);
        self.tx_id.push(event.position.tx_id);
        self.global_position.push(event.position.global_position);
        self.key_id.push(created.key_id);
        self.batch_id.push(created.batch_id);
        self.duplicate_of.push(created.duplicate_of);
        self.version.push(event.stream_version);
        self.single_use.push(created.single_use);
    }
}

/// The `qrcodes` projection.
#[derive(Debug, Clone, Copy, Default)]
pub struct QrCodes;

#[async_trait]
impl Projection for QrCodes {
    fn name(&self) -> &'static str {
        NAME
    }

    fn streams(&self) -> Option<&'static [&'static str]> {
        Some(&[STREAM_TYPE])
    }

    fn tables(&self) -> &'static [&'static str] {
        &[TABLE, replay_changes::TABLE]
    }

    /// Its owner, creator and txid indexes serve the gateway's lists, never `apply` (which
    /// finds rows only by `qrcode_id`, the key: archives and claims).
    fn indexes_built_after_replay(&self) -> bool {
        true
    }

    /// A repeated `qrcode_id` is the one key it can break. During the fill it only inserts:
    /// archives and claims, its only updates, are noted and made in one pass after the fill
    /// (`replay_changes`), a join on `qrcode_id` that gives the same rows with or without the
    /// key (a repeated row that the key would have refused is updated too and then removed
    /// with it, so replay still equals live).
    fn keys_built_after_replay(&self) -> bool {
        true
    }

    /// Makes the archives and claims noted during the fill, in one pass (see
    /// `replay_changes`).
    async fn finish_fill(
        &self,
        conn: &mut PgConnection,
        target: &TableSet,
    ) -> Result<(), sqlx::Error> {
        replay_changes::apply(
            conn,
            &target.table(TABLE),
            &target.table(replay_changes::TABLE),
        )
        .await
    }

    async fn remove_refused_by_keys(
        &self,
        conn: &mut PgConnection,
        target: &TableSet,
    ) -> Result<Vec<Uuid>, sqlx::Error> {
        let t = target.table(TABLE);
        // Live inserts in feed order, so the first row of an id stays and every later one is
        // refused.
        let removed: Vec<Uuid> = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "delete from {t} d
              using (select ctid,
                            row_number() over (partition by qrcode_id
                                               order by tx_id, global_position) as n
                       from {t}
                      where qrcode_id in (select qrcode_id from {t}
                                           group by qrcode_id having count(*) > 1)) r
              where d.ctid = r.ctid and r.n > 1
          returning d.event_id"
        )))
        .fetch_all(&mut *conn)
        .await?;
        Ok(removed)
    }

    async fn apply_batch(
        &self,
        conn: &mut PgConnection,
        target: &TableSet,
        upcasters: &Upcasters,
        events: &[StoredEvent],
    ) -> Result<(), ApplyError> {
        let mut columns = Columns::default();
        // Each code's archive state after the batch's events, in feed order (the last one wins).
        let mut archive: Vec<(Uuid, Option<DateTime<Utc>>, i64)> = Vec::new();
        let mut archive_index: HashMap<Uuid, usize> = HashMap::new();
        let mut claims = claims::Claims::default();
        for event in events {
            if event.stream_type != STREAM_TYPE {
                continue;
            }
            if event.event_type == claims::CLAIMED {
                claims.push(upcasters, event)?;
                continue;
            }
            let event_type = event.event_type.as_str();
            if ![CREATED, ARCHIVED, UNARCHIVED].contains(&event_type) {
                continue;
            }
            let current = upcasters.current_version(event_type);
            if event.schema_version != current {
                return Err(ApplyError::Rejected {
                    event_id: event.event_id,
                    reason: format!(
                        "unknown schema version {} of {event_type}",
                        event.schema_version
                    ),
                });
            }
            let unreadable = |error: serde_json::Error| ApplyError::Rejected {
                event_id: event.event_id,
                reason: format!("payload of {event_type} v{current} does not deserialise: {error}"),
            };
            if event_type == CREATED {
                let created = event
                    .payload
                    .deserialize::<QrCodeCreatedV1>()
                    .map_err(unreadable)?;
                columns.push(event, created);
                continue;
            }
            let changed = event
                .payload
                .deserialize::<ArchivedV1>()
                .map_err(unreadable)?;
            // The stream id is the code's id; a stream id that is not a UUID names no row.
            let Ok(qrcode_id) = Uuid::parse_str(&event.stream_id) else {
                continue;
            };
            let archived_at = if event_type == ARCHIVED {
                Some(changed.archived_at.ok_or_else(|| ApplyError::Rejected {
                    event_id: event.event_id,
                    reason: format!("{ARCHIVED} without archived_at"),
                })?)
            } else {
                None
            };
            let state = (qrcode_id, archived_at, event.stream_version);
            match archive_index.get(&qrcode_id) {
                Some(&i) => archive[i] = state,
                None => {
                    archive_index.insert(qrcode_id, archive.len());
                    archive.push(state);
                }
            }
        }
        let t = target.table(TABLE);
        if !columns.qrcode_id.is_empty() {
            insert_rows(conn, &t, columns).await?;
        }
        if target.is_filling() {
            // Replay's fill: no key to find rows by yet; note the changes for `finish_fill`.
            let changes = target.table(replay_changes::TABLE);
            if !archive.is_empty() {
                replay_changes::note_archives(conn, &changes, &archive).await?;
            }
            claims.note(conn, &changes).await?;
            return Ok(());
        }
        if !archive.is_empty() {
            let ids: Vec<Uuid> = archive.iter().map(|(id, ..)| *id).collect();
            let at: Vec<Option<DateTime<Utc>>> = archive.iter().map(|(_, at, _)| *at).collect();
            let versions: Vec<i64> = archive.iter().map(|(.., v)| *v).collect();
            // A code whose creation was parked has no row: the update then changes nothing,
            // live and in replay alike.
            sqlx::query(sqlx::AssertSqlSafe(format!(
                "update {t} q set archived_at = u.archived_at, version = u.version
                   from unnest($1::uuid[], $2::timestamptz[], $3::bigint[])
                        as u(qrcode_id, archived_at, version)
                  where q.qrcode_id = u.qrcode_id"
            )))
            .bind(&ids)
            .bind(&at)
            .bind(&versions)
            .execute(&mut *conn)
            .await?;
        }
        // Every claim follows its code's creation in feed order, so applying the batch's claims
        // after its creations is the order live saw.
        claims.apply(conn, &t).await?;
        Ok(())
    }
}

/// Inserts the batch's new rows: `COPY` for large batches, one `insert … select from unnest`
/// otherwise.
async fn insert_rows(
    conn: &mut PgConnection,
    t: &str,
    columns: Columns,
) -> Result<(), sqlx::Error> {
    if columns.qrcode_id.len() >= COPY_FROM_ROWS {
        columns.copy_in(conn, t).await?;
        return Ok(());
    }
    // `xid8` has no binary mapping in sqlx: the ids cross as text.
    let tx_ids: Vec<String> = columns.tx_id.iter().map(u64::to_string).collect();
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "insert into {t} (qrcode_id, owner_id, key_kind, pix_key, merchant_name, merchant_city,
                          amount_centavos, description, txid, payload, created_at, event_id,
                          tx_id, global_position, created_by, key_id, batch_id, duplicate_of,
                          version, single_use, charge_expires_at, charge_due)
         select q.qrcode_id, q.owner_id, q.key_kind, q.pix_key, q.merchant_name,
                q.merchant_city, q.amount_centavos, q.description, q.txid, q.payload,
                q.created_at, q.event_id, q.tx_id::xid8, q.global_position, q.created_by,
                q.key_id, q.batch_id, q.duplicate_of, q.version, q.single_use,
                q.charge_expires_at, q.charge_due
           from unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[],
                       $7::bigint[], $8::text[], $9::text[], $10::text[], $11::timestamptz[],
                       $12::uuid[], $13::text[], $14::bigint[], $15::text[], $16::uuid[],
                       $17::uuid[], $18::uuid[], $19::bigint[], $20::boolean[],
                       $21::timestamptz[], $22::jsonb[])
             as q(qrcode_id, owner_id, key_kind, pix_key, merchant_name, merchant_city,
                  amount_centavos, description, txid, payload, created_at, event_id, tx_id,
                  global_position, created_by, key_id, batch_id, duplicate_of, version,
                  single_use, charge_expires_at, charge_due)"
    )))
    .bind(&columns.qrcode_id)
    .bind(&columns.owner_id)
    .bind(&columns.key_kind)
    .bind(&columns.pix_key)
    .bind(&columns.merchant_name)
    .bind(&columns.merchant_city)
    .bind(&columns.amount_centavos)
    .bind(&columns.description)
    .bind(&columns.txid)
    .bind(&columns.payload)
    .bind(&columns.created_at)
    .bind(&columns.event_id)
    .bind(&tx_ids)
    .bind(&columns.global_position)
    .bind(&columns.created_by)
    .bind(&columns.key_id)
    .bind(&columns.batch_id)
    .bind(&columns.duplicate_of)
    .bind(&columns.version)
    .bind(&columns.single_use)
    .bind(&columns.charge_expires_at)
    .bind(&columns.charge_due)
    .execute(&mut *conn)
    .await?;
    Ok(())
}
