//! Recording the Pix credits of an imported bank statement as payments (source `extrato`,
//! issue 35), one batch of lines per command.
//!
//! The gateway parses the file and reconciles it (`domain::statement`), the owner confirms what
//! each line is, and [`record_statement_batch`] writes a batch of those lines in one PostgreSQL
//! transaction:
//!
//! 1. **Claims** each line's key in the account ([`statement_scope`], value the digest of
//!    `statement::reconcile::line_key`, owner the payment's stream id), in digest order so two
//!    batches never wait on each other in a cycle. A line whose key is already claimed was
//!    imported (or linked) before: it is [`BatchOutcome::already`] and nothing else happens.
//!    This, not a read model, is what makes a line count once however often the file, or a file
//!    overlapping it, is imported.
//! 2. **Links** a line the owner confirmed as the same payment as one already recorded
//!    ([`LineTarget::SameAs`]: the webhook, the sandbox or a person recorded it): the claim
//!    names that payment's stream, and no event is written. Why no event: the payment already
//!    counts the money and its history already has its source; the claim is the write side's
//!    record of the link (a re-import finds it), and it needs no new event type, read model
//!    column or replay change.
//! 3. **Records** the others ([`LineTarget::Record`]) through the Payment aggregate
//!    ([`PaymentCommand::RecordStatementLine`]) on `account:reference`, the reference being the
//!    line's end-to-end id when its texts carry one (the bank's API Pix report of it, before or
//!    after, lands on the same stream: before, the line records nothing; after, it confirms the
//!    line's payment), else `extrato-` and 32 hex digits of the line key's digest.
//!
//! 4. **Remembers the import**: every line whose claim the batch made is claimed once more in
//!    [`import_scope`] (the import's own scope: value the same digest, owner the same stream).
//!    That is the write side's list of what one import did, read by [`undo_statement_import`]
//!    (never a read model).
//!
//! Claims and events commit together or not at all, so a crash between batches leaves whole
//! batches: importing the file again records the lines of the batches that did not commit, and
//! only those. A writer of the same stream in between (a webhook) is caught by the stream-version
//! key: the batch is decided again, a bounded number of times.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use domain::money::Centavos;
use domain::payment::{
    Payment, PaymentCommand, PaymentError, PaymentEvent, RecordStatementLine, StatementOrigin,
};

use domain::statement::reconcile::Reconciled;

use super::statement_twins::{self, amount_bucket};
use super::{append_decided, load_streams, lock_buckets};
use crate::claims::{self, digest};
use crate::error::CommandError;
use crate::feed::FeedPosition;
use crate::metadata::CommandMetadata;
use crate::store::AppendFailure;
use crate::store::DEFAULT_MAX_RETRIES;
use crate::store::PgEventStore;

/// The scope of the statement lines imported into account `account_id`: each line key once.
///
/// ```
/// assert_eq!(
///     commands::payments::statement_import::statement_scope("conta-1"),
///     "statement:conta-1"
/// );
/// ```
pub fn statement_scope(account_id: &str) -> String {
    format!("statement:{account_id}")
}

/// The scope of what import `import_id` of account `account_id` claimed: one row per line
/// whose [`statement_scope`] claim that import made (value the line key's digest, owner the
/// payment's stream), so undoing it finds its lines without reading a read model.
///
/// ```
/// assert_eq!(
///     commands::payments::statement_import::import_scope("conta-1", "imp-1"),
///     "statement-import:conta-1:imp-1"
/// );
/// ```
pub fn import_scope(account_id: &str, import_id: &str) -> String {
    format!("statement-import:{account_id}:{import_id}")
}

/// The scope of the account's undone imports (value the import id's digest): a second undo is
/// told so instead of "not found".
fn undone_scope(account_id: &str) -> String {
    format!("statement-undone:{account_id}")
}

/// The most lines one batch may carry, so one command's transaction stays short (the importer
/// sends a big file as many batches).
pub const MAX_BATCH_LINES: usize = 1_000;

/// The payment reference of a statement line: its end-to-end id when it has one, else
/// `extrato-` and the first 32 hex digits of the digest of its key.
///
/// ```
/// use commands::payments::statement_import::line_reference;
/// assert_eq!(
///     line_reference("fitid:A1", Some("E12345678202009091221kkkkkkkkkkk")),
///     "E12345678202009091221kkkkkkkkkkk"
/// );
/// assert!(line_reference("fitid:A1", None).starts_with("extrato-"));
/// assert_eq!(line_reference("fitid:A1", None).len(), "extrato-".len() + 32);
/// ```
pub fn line_reference(line_key: &str, end_to_end_id: Option<&str>) -> String {
    match end_to_end_id {
        Some(e2e) => e2e.to_owned(),
        None => format!("extrato-{}", &digest(line_key)[..32]),
    }
}

/// What the owner confirmed a line is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineTarget {
    /// A new payment: of this QR code or payment link, or "sem QR code" (both `None`).
    Record {
        /// The account's QR code it paid.
        qrcode_id: Option<String>,
        /// The account's payment link it paid.
        payment_link_id: Option<String>,
    },
    /// The payment with this reference, recorded another way: linked, not added.
    SameAs {
        /// The payment's reference in the account.
        payment: String,
    },
}

/// One Pix credit line of a statement, parsed and confirmed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportLine {
    /// Its key across imports (`domain::statement::reconcile::line_key`).
    pub key: String,
    /// The 1-based line of the file.
    pub line: u64,
    /// The credit.
    pub amount: Centavos,
    /// When it was posted, RFC 3339.
    pub paid_at: String,
    /// True when the statement gave only the day (`paid_at` is then midnight in Brasília).
    pub day_only: bool,
    /// The end-to-end id its texts carry, if any.
    pub end_to_end_id: Option<String>,
    /// The txid its texts carry, if any.
    pub txid: Option<String>,
    /// What it is.
    pub target: LineTarget,
}

impl ImportLine {
    /// A Pix credit line of `statement` (its [`Reconciled`] entry) as the owner confirmed it;
    /// `None` for a line that is no credit.
    pub fn of(reconciled: &Reconciled<'_>, target: LineTarget) -> Option<ImportLine> {
        let line = reconciled.line;
        Some(ImportLine {
            key: reconciled.key.clone(),
            line: u64::try_from(line.line).unwrap_or(u64::MAX),
            amount: line.credit()?,
            paid_at: line.posted.at.to_rfc3339(),
            day_only: !line.posted.has_time,
            end_to_end_id: line.end_to_end_id.clone(),
            txid: line.txid.clone(),
            target,
        })
    }
}

/// A batch of lines of one import.
#[derive(Debug, Clone)]
pub struct StatementBatch {
    /// The account whose statement it is.
    pub account_id: String,
    /// The import the batch belongs to (the same for every batch of one upload).
    pub import_id: String,
    /// The file's name as uploaded.
    pub file_name: String,
    /// Who imports it, by account id.
    pub recorded_by: String,
    /// When, RFC 3339.
    pub recorded_at: String,
    /// The lines, at most [`MAX_BATCH_LINES`].
    pub lines: Vec<ImportLine>,
}

/// What happened to a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineResult {
    /// Recorded as a new payment.
    Recorded,
    /// Linked to the payment that was there already (named by the owner, or on its stream by
    /// end-to-end id): nothing added.
    Linked,
    /// Its key was claimed by an earlier import: nothing done.
    AlreadyImported,
}

/// What a batch did, line by line in the batch's order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BatchOutcome {
    /// One result per line of the batch.
    pub lines: Vec<LineResult>,
    /// The feed position of the last event written, for read-your-writes.
    pub position: Option<FeedPosition>,
}

impl BatchOutcome {
    /// How many lines got `result`.
    pub fn count(&self, result: LineResult) -> usize {
        self.lines.iter().filter(|r| **r == result).count()
    }

    /// Lines recorded as new payments.
    pub fn recorded(&self) -> usize {
        self.count(LineResult::Recorded)
    }

    /// Lines linked to an existing payment.
    pub fn linked(&self) -> usize {
        self.count(LineResult::Linked)
    }

    /// Lines imported before.
    pub fn already(&self) -> usize {
        self.count(LineResult::AlreadyImported)
    }
}

/// Claims, links and records a batch (see the module).
///
/// # Errors
///
/// [`CommandError::Rejected`] when the aggregate refuses a line (a zero amount, another
/// account's stream), a line is linked to a payment the account does not have
/// ([`PaymentError::NotFound`]) or the batch is larger than [`MAX_BATCH_LINES`]
/// ([`PaymentError::TooManyLines`]): nothing is written; [`CommandError::Conflict`] when other
/// writers won every attempt; storage errors.
pub async fn record_statement_batch(
    store: &PgEventStore,
    batch: &StatementBatch,
    metadata: &CommandMetadata,
) -> Result<BatchOutcome, CommandError<PaymentError>> {
    if batch.lines.len() > MAX_BATCH_LINES {
        return Err(CommandError::Rejected(PaymentError::TooManyLines));
    }
    if batch.lines.is_empty() {
        return Ok(BatchOutcome::default());
    }
    let metadata = metadata.to_json();
    let attempts = DEFAULT_MAX_RETRIES.saturating_add(1);
    for _ in 0..attempts {
        match attempt(store, batch, &metadata).await {
            Ok(outcome) => return Ok(outcome),
            Err(AppendFailure::Failed(error)) => return Err(error),
            Err(AppendFailure::VersionTaken | AppendFailure::KeyTaken) => {}
        }
    }
    Err(CommandError::Conflict {
        stream_type: domain::payment::STREAM_TYPE.to_owned(),
        stream_id: format!("(statement import {})", batch.import_id),
        attempts,
    })
}

/// The stream a line's claim names: the payment it records, or the one it is linked to. A
/// line whose end-to-end id a statement payment took (`aliased`, by the id) is that payment.
fn claimed_stream(
    account_id: &str,
    line: &ImportLine,
    aliased: &HashMap<(String, String), String>,
) -> String {
    let reference = match &line.target {
        LineTarget::Record { .. } => {
            if let Some(stream) = line
                .end_to_end_id
                .as_ref()
                .and_then(|e2e| aliased.get(&(account_id.to_owned(), e2e.clone())))
            {
                return stream.clone();
            }
            line_reference(&line.key, line.end_to_end_id.as_deref())
        }
        LineTarget::SameAs { payment } => payment.clone(),
    };
    domain::payment::stream_id(account_id, &reference)
}

/// Whether recording `line` would leave a payment the bank's report must find by amount and
/// time (`statement_twins`): a new payment without an end-to-end id.
fn awaits_the_bank(line: &ImportLine) -> bool {
    matches!(line.target, LineTarget::Record { .. }) && line.end_to_end_id.is_none()
}

async fn attempt(
    store: &PgEventStore,
    batch: &StatementBatch,
    metadata: &serde_json::Value,
) -> Result<BatchOutcome, AppendFailure<PaymentError>> {
    let account = batch.account_id.as_str();
    // The first line of each key (a batch naming a key twice records it once), by digest: the
    // claims are inserted in that order.
    let mut by_digest: BTreeMap<String, usize> = BTreeMap::new();
    for (i, line) in batch.lines.iter().enumerate() {
        by_digest.entry(digest(&line.key)).or_insert(i);
    }
    let mut tx = store.pool().begin().await?;
    // The amounts' locks of the lines that name no end-to-end id, as the intake takes them: a
    // report of the same amount either committed before (its payment is found below) or reads
    // this batch's unconfirmed claims after the commit.
    let awaiting: Vec<statement_twins::Awaiting> = batch
        .lines
        .iter()
        .enumerate()
        .filter(|(_, line)| awaits_the_bank(line))
        .map(|(index, line)| statement_twins::Awaiting {
            index,
            amount: line.amount,
            paid_at: line.paid_at.clone(),
            day_only: line.day_only,
        })
        .collect();
    let amounts: BTreeSet<(String, i64)> = awaiting
        .iter()
        .map(|line| (account.to_owned(), amount_bucket(line.amount)))
        .collect();
    lock_buckets(&mut tx, &BTreeSet::new(), &amounts).await?;
    // A line the bank reported already (a payment of that amount within the window that no
    // line is linked to): linked to it, decided here rather than by the screen's read model.
    let reported = statement_twins::bank_twins(&mut tx, account, &awaiting).await?;
    let e2e_ids: Vec<(String, String)> = batch
        .lines
        .iter()
        .filter(|line| matches!(line.target, LineTarget::Record { .. }))
        .filter_map(|line| Some((account.to_owned(), line.end_to_end_id.clone()?)))
        .collect();
    let aliased = statement_twins::aliases(&mut tx, &e2e_ids).await?;
    let owner_of = |i: usize| {
        reported
            .get(&i)
            .cloned()
            .unwrap_or_else(|| claimed_stream(account, &batch.lines[i], &aliased))
    };
    let (values, owners): (Vec<String>, Vec<String>) = by_digest
        .iter()
        .map(|(value, &i)| (value.clone(), owner_of(i)))
        .unzip();
    let taken: Vec<String> = sqlx::query_scalar(
        "insert into unique_claims (scope, value, owner)
         select $1, v, o from unnest($2::text[], $3::text[]) with ordinality as t(v, o, n)
          order by n
         on conflict (scope, value) do nothing
         returning value",
    )
    .bind(statement_scope(account))
    .bind(&values)
    .bind(&owners)
    .fetch_all(&mut *tx)
    .await?;
    // What this import claimed, in its own scope, for undoing it as a whole.
    let (import_values, import_owners): (Vec<String>, Vec<String>) = taken
        .iter()
        .map(|value| (value.clone(), owner_of(by_digest[value])))
        .unzip();
    sqlx::query(
        "insert into unique_claims (scope, value, owner)
         select $1, v, o from unnest($2::text[], $3::text[]) as t(v, o)
         on conflict (scope, value) do nothing",
    )
    .bind(import_scope(account, &batch.import_id))
    .bind(&import_values)
    .bind(&import_owners)
    .execute(&mut *tx)
    .await?;
    let mut results = vec![LineResult::AlreadyImported; batch.lines.len()];
    // The lines whose claim this batch made, by stream, in batch order; and the payments lines
    // are linked to.
    let mut by_stream: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    let mut linked_to: Vec<String> = Vec::new();
    for value in taken {
        let i = by_digest[&value];
        let line = &batch.lines[i];
        let stream = owner_of(i);
        match &line.target {
            _ if reported.contains_key(&i) => {
                results[i] = LineResult::Linked;
                linked_to.push(stream);
            }
            LineTarget::SameAs { .. } => {
                results[i] = LineResult::Linked;
                linked_to.push(stream);
            }
            LineTarget::Record { .. } => by_stream.entry(stream).or_default().push(i),
        }
    }
    let stream_ids: Vec<String> = by_stream.keys().chain(&linked_to).cloned().collect();
    let mut loaded: HashMap<String, (Payment, i64)> =
        load_streams(&mut tx, store, &stream_ids).await?;
    // A line is linked only to a payment the log has (in the account: the stream id says so),
    // never to a reference a stale screen or a client made up.
    if linked_to.iter().any(|s| !loaded.contains_key(s)) {
        return Err(AppendFailure::Failed(CommandError::Rejected(
            PaymentError::NotFound,
        )));
    }
    let mut ids: Vec<String> = Vec::new();
    let mut versions: Vec<i64> = Vec::new();
    let mut decided: Vec<PaymentEvent> = Vec::new();
    // The unconfirmed claims of the lines recorded without an end-to-end id.
    let mut unconfirmed: Vec<(String, String, String)> = Vec::new();
    for (stream_id, mut lines) in by_stream {
        lines.sort_unstable();
        let (mut payment, mut version) = loaded.remove(&stream_id).unwrap_or_default();
        for i in lines {
            let line = &batch.lines[i];
            let events = payment
                .decide_now(PaymentCommand::RecordStatementLine(command(batch, line)))
                .map_err(CommandError::Rejected)?;
            results[i] = if events.is_empty() {
                LineResult::Linked
            } else {
                LineResult::Recorded
            };
            if !events.is_empty()
                && awaits_the_bank(line)
                && let Some((scope, value)) = statement_twins::unconfirmed_claim(
                    account,
                    line.amount,
                    &line.paid_at,
                    line.day_only,
                    &line.key,
                )
            {
                unconfirmed.push((scope, value, stream_id.clone()));
            }
            for event in events {
                cqrs_es::Aggregate::apply(&mut payment, event.clone());
                version += 1;
                ids.push(stream_id.clone());
                versions.push(version);
                decided.push(event);
            }
        }
    }
    let position = if decided.is_empty() {
        None
    } else {
        append_decided(&mut tx, &ids, &versions, &decided, metadata).await?
    };
    if !unconfirmed.is_empty() {
        let (scopes, (values, owners)): (Vec<String>, (Vec<String>, Vec<String>)) =
            unconfirmed.into_iter().map(|(s, v, o)| (s, (v, o))).unzip();
        claims::insert_many(&mut tx, &scopes, &values, &owners).await?;
    }
    tx.commit().await?;
    Ok(BatchOutcome {
        lines: results,
        position,
    })
}

fn command(batch: &StatementBatch, line: &ImportLine) -> RecordStatementLine {
    let (qrcode_id, payment_link_id) = match &line.target {
        LineTarget::Record {
            qrcode_id,
            payment_link_id,
        } => (qrcode_id.clone(), payment_link_id.clone()),
        LineTarget::SameAs { .. } => (None, None),
    };
    RecordStatementLine {
        account_id: batch.account_id.clone(),
        reference: line_reference(&line.key, line.end_to_end_id.as_deref()),
        end_to_end_id: line.end_to_end_id.clone(),
        amount: line.amount,
        paid_at: line.paid_at.clone(),
        txid: line.txid.clone(),
        qrcode_id,
        payment_link_id,
        statement: StatementOrigin {
            import_id: batch.import_id.clone(),
            file_name: batch.file_name.clone(),
            line_key: line.key.clone(),
            line: line.line,
        },
        recorded_by: batch.recorded_by.clone(),
        recorded_at: batch.recorded_at.clone(),
    }
}

/// An import to undo.
#[derive(Debug, Clone)]
pub struct UndoImport {
    /// The account whose import it is.
    pub account_id: String,
    /// The import.
    pub import_id: String,
    /// Who undoes it, by account id.
    pub undone_by: String,
    /// When, RFC 3339.
    pub undone_at: String,
}

/// What an undo did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UndoOutcome {
    /// Payments the import had recorded, now voided ("Importação desfeita").
    pub voided: usize,
    /// Line claims released (recorded and linked lines): a later import takes them again.
    pub released: usize,
    /// The feed position of the last event written, for read-your-writes.
    pub position: Option<FeedPosition>,
}

/// Undoes import `undo.import_id` as a whole, from the write side: the lines it claimed
/// ([`import_scope`]) are taken [`MAX_BATCH_LINES`] at a time, each chunk in one transaction
/// that releases their [`statement_scope`] claims and their import claims and decides
/// [`PaymentCommand::UndoStatementImport`] on each payment they name (the aggregate voids only
/// what this import recorded and no bank confirmed; a linked payment stays as it was). An undo
/// cut short (a crash) is finished by asking again.
///
/// # Errors
///
/// [`PaymentError::ImportNotFound`] when the account has no such import,
/// [`PaymentError::ImportAlreadyUndone`] when it was undone already; conflicts and storage
/// errors as [`record_statement_batch`].
pub async fn undo_statement_import(
    store: &PgEventStore,
    undo: &UndoImport,
    metadata: &CommandMetadata,
) -> Result<UndoOutcome, CommandError<PaymentError>> {
    let metadata = metadata.to_json();
    let mut outcome = UndoOutcome::default();
    let attempts = DEFAULT_MAX_RETRIES.saturating_add(1);
    let mut failed = 0;
    let mut found = false;
    loop {
        match undo_chunk(store, undo, &metadata).await {
            Ok(None) => break,
            Ok(Some(chunk)) => {
                found = true;
                outcome.voided += chunk.voided;
                outcome.released += chunk.released;
                outcome.position = chunk.position.or(outcome.position);
            }
            Err(AppendFailure::Failed(error)) => return Err(error),
            Err(AppendFailure::VersionTaken | AppendFailure::KeyTaken) => {
                failed += 1;
                if failed >= attempts {
                    return Err(CommandError::Conflict {
                        stream_type: domain::payment::STREAM_TYPE.to_owned(),
                        stream_id: format!("(statement import {})", undo.import_id),
                        attempts,
                    });
                }
            }
        }
    }
    if !found {
        let undone: bool = sqlx::query_scalar(
            "select exists (select 1 from unique_claims where scope = $1 and value = $2)",
        )
        .bind(undone_scope(&undo.account_id))
        .bind(digest(&undo.import_id))
        .fetch_one(store.pool())
        .await
        .map_err(CommandError::from)?;
        return Err(CommandError::Rejected(if undone {
            PaymentError::ImportAlreadyUndone
        } else {
            PaymentError::ImportNotFound
        }));
    }
    Ok(outcome)
}

/// One chunk of an undo; `None` when the import has no claim left.
async fn undo_chunk(
    store: &PgEventStore,
    undo: &UndoImport,
    metadata: &serde_json::Value,
) -> Result<Option<UndoOutcome>, AppendFailure<PaymentError>> {
    let account = undo.account_id.as_str();
    let mut tx = store.pool().begin().await?;
    let lines: Vec<(String, String)> = sqlx::query_as(
        "delete from unique_claims
          where scope = $1
            and value in (select value from unique_claims where scope = $1
                           order by value limit $2 for update)
         returning value, owner",
    )
    .bind(import_scope(account, &undo.import_id))
    .bind(i64::try_from(MAX_BATCH_LINES).unwrap_or(i64::MAX))
    .fetch_all(&mut *tx)
    .await?;
    if lines.is_empty() {
        return Ok(None);
    }
    let (values, owners): (Vec<String>, Vec<String>) = lines.into_iter().unzip();
    // Only the claims this import made (same value, same owner): a claim another import took
    // after an earlier undo is not this one's to release.
    let released = sqlx::query(
        "delete from unique_claims c
          using unnest($2::text[], $3::text[]) as t(v, o)
          where c.scope = $1 and c.value = t.v and c.owner = t.o",
    )
    .bind(statement_scope(account))
    .bind(&values)
    .bind(&owners)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    sqlx::query(
        "insert into unique_claims (scope, value, owner) values ($1, $2, $3)
         on conflict (scope, value) do nothing",
    )
    .bind(undone_scope(account))
    .bind(digest(&undo.import_id))
    .bind(&undo.undone_by)
    .execute(&mut *tx)
    .await?;
    let mut streams: Vec<String> = owners;
    streams.sort_unstable();
    streams.dedup();
    // What the undo voids is no longer there for the bank's report to confirm.
    statement_twins::release(&mut tx, account, &streams).await?;
    let loaded: HashMap<String, (Payment, i64)> = load_streams(&mut tx, store, &streams).await?;
    let mut ids: Vec<String> = Vec::new();
    let mut versions: Vec<i64> = Vec::new();
    let mut decided: Vec<PaymentEvent> = Vec::new();
    for stream_id in &streams {
        let Some((payment, version)) = loaded.get(stream_id) else {
            continue;
        };
        let events = payment
            .decide_now(PaymentCommand::UndoStatementImport(
                domain::payment::UndoStatementImport {
                    import_id: undo.import_id.clone(),
                    undone_by: undo.undone_by.clone(),
                    undone_at: undo.undone_at.clone(),
                },
            ))
            .map_err(CommandError::Rejected)?;
        for (n, event) in events.into_iter().enumerate() {
            ids.push(stream_id.clone());
            versions.push(version + 1 + i64::try_from(n).unwrap_or(0));
            decided.push(event);
        }
    }
    let voided = decided.len();
    let position = if decided.is_empty() {
        None
    } else {
        append_decided(&mut tx, &ids, &versions, &decided, metadata).await?
    };
    tx.commit().await?;
    Ok(Some(UndoOutcome {
        voided,
        released: usize::try_from(released).unwrap_or(usize::MAX),
        position,
    }))
}

/// The account's claimed statement lines as (digest of the line key, payment stream id): what
/// the write side knows was imported or linked, for reconciling a new file against it.
///
/// # Errors
///
/// Storage failures.
pub async fn claimed_lines(
    pool: &sqlx::PgPool,
    account_id: &str,
) -> Result<HashMap<String, String>, sqlx::Error> {
    let rows: Vec<(String, String)> =
        sqlx::query_as("select value, owner from unique_claims where scope = $1")
            .bind(statement_scope(account_id))
            .fetch_all(pool)
            .await?;
    Ok(rows.into_iter().collect())
}

/// The digest a line key is claimed under ([`claimed_lines`]' keys).
pub fn line_claim_value(line_key: &str) -> String {
    digest(line_key)
}
