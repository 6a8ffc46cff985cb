//! Recording many payment reports at once: an API Pix delivery is appended whole, in one
//! transaction, or not at all.
//!
//! [`intake`] is the API Pix delivery's workflow (parse, bound, check the key, seal, then
//! [`record_reports`]). [`record_reports`] takes the reports of one delivery (each already
//! parsed and sealed), and in one PostgreSQL transaction:
//!
//! 1. takes the delivery's advisory locks: one per *lock bucket* of an account (its Payment
//!    streams spread over [`LOCK_BUCKETS`] by a hash of their id), in ascending key order, so
//!    a delivery holds at most [`LOCK_BUCKETS`] locks per account whatever its size (PostgreSQL's
//!    lock table is shared by the whole cluster: one lock per entry exhausted it) and two
//!    deliveries never wait on each other in a cycle; the buckets of the reports' amounts are
//!    taken with them (as many more at most: [`statement_twins`]);
//! 2. matches each report's `txid` to the account's code from the write side: the code's claim
//!    of its txid in `unique_claims` (scope `txid:{account}`, owner the code's id, committed
//!    with the code's creation; see [`claims::txid_scope`](crate::claims::txid_scope)), never
//!    from the `qrcodes` read model, so a payment reported before its code is projected is
//!    matched all the same; a payment link claims its txid in the same scope (owner
//!    `link:{id}`, [`claims::link_claim_owner`](crate::claims::link_claim_owner)), so its
//!    payment names the link instead;
//! 3. loads those streams, decides every report on its stream in delivery order (a stream named
//!    twice sees its first report's events), and appends what was decided, every stream in one
//!    statement, after exactly the loaded versions. A report's stream is its end-to-end id's,
//!    unless that id is an alias of a statement payment's stream, or the report would start a
//!    payment that a statement line without an end-to-end id recorded already: then it is that
//!    line's stream ([`statement_twins`]), and the bank's report confirms the line's payment.
//!
//! The locks make a hundred simultaneous deliveries of one payment decide one after another
//! (one payment's stream is always in the same bucket), so exactly one records it and the others
//! decide nothing; nobody loses a race and retries. A writer that does not take the lock (a
//! manual record through [`CommandService`](crate::service::CommandService)) is still caught by the
//! stream-version key: the whole delivery is then decided again, a bounded number of times.
//!
//! [`record_manual`] records one payment typed in by hand, on the same streams.

pub mod intake;
pub mod statement_import;
pub mod statement_twins;

use std::collections::{BTreeMap, BTreeSet, HashMap};

use domain::payment::{Payment, PaymentCommand, PaymentError, PaymentEvent, ReportPayment};

use crate::batch::APPEND_STREAMS;
use crate::claims::{link_of_claim, owners, txid_scope};
use crate::error::CommandError;
use crate::feed::FeedPosition;
use crate::metadata::CommandMetadata;
use crate::qrcodes::txid_claim;
use crate::store::DEFAULT_MAX_RETRIES;
use crate::store::PgEventStore;
use crate::store::{AppendFailure, encode};
use statement_twins::amount_bucket;

/// A payment typed in by hand, parsed at the edge (the amount, a past or present time, a
/// well-formed end-to-end id, the account's own code).
#[derive(Debug, Clone)]
pub struct ManualPayment {
    /// The account that received it.
    pub account_id: String,
    /// The Pix end-to-end id from the receipt, if the person typed one.
    pub end_to_end_id: Option<String>,
    /// Without an end-to-end id, the payment's reference is `manual-{manual_id}` (simple form):
    /// the edge derives it from the request's idempotency key, so a retry names the same
    /// payment, or draws a new one.
    pub manual_id: uuid::Uuid,
    /// The amount received.
    pub amount: domain::money::Centavos,
    /// When it was paid, RFC 3339.
    pub paid_at: String,
    /// The account's code it paid (id, txid), if any.
    pub qrcode: Option<(String, Option<String>)>,
    /// A note.
    pub note: Option<String>,
    /// Who typed it, by account id.
    pub recorded_by: String,
    /// When, RFC 3339.
    pub recorded_at: String,
}

/// A manual record committed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManualRecorded {
    /// The payment's reference in the account: its end-to-end id, or `manual-…`.
    pub reference: String,
    /// Where its events are in the feed (read-your-writes).
    pub position: Option<FeedPosition>,
    /// The answer of an earlier request with the same idempotency key: nothing was written.
    pub replayed: bool,
}

/// Records a payment typed in by hand. Its stream is the account's and the end-to-end id's (a
/// bank's later report of the same payment confirms it) or, without one, the `manual-…`
/// reference of [`ManualPayment::manual_id`]. A repeated idempotency key (in `metadata`)
/// answers the first outcome, or refuses other values.
///
/// # Errors
///
/// The aggregate's refusals (`payment-already-recorded`…); storage failures.
pub async fn record_manual(
    payments: &crate::service::CommandService<Payment>,
    manual: ManualPayment,
    metadata: CommandMetadata,
) -> Result<ManualRecorded, CommandError<PaymentError>> {
    let reference = manual
        .end_to_end_id
        .clone()
        .unwrap_or_else(|| format!("manual-{}", manual.manual_id.simple()));
    // A receipt's end-to-end id the bank already reported for a statement line is that
    // payment (`statement_twins`): the aggregate answers that it is recorded.
    let aliased = match &manual.end_to_end_id {
        Some(e2e) => {
            let mut connection = payments
                .store()
                .pool()
                .acquire()
                .await
                .map_err(CommandError::from)?;
            statement_twins::aliases(&mut connection, &[(manual.account_id.clone(), e2e.clone())])
                .await
                .map_err(CommandError::from)?
                .into_values()
                .next()
        }
        None => None,
    };
    let (qrcode_id, txid) = manual.qrcode.unzip();
    let command = PaymentCommand::RecordManualPayment(domain::payment::RecordManualPayment {
        account_id: manual.account_id.clone(),
        reference: reference.clone(),
        end_to_end_id: manual.end_to_end_id,
        amount: manual.amount,
        paid_at: manual.paid_at,
        qrcode_id,
        txid: txid.flatten(),
        note: manual.note,
        recorded_by: manual.recorded_by,
        recorded_at: manual.recorded_at,
    });
    let stream =
        aliased.unwrap_or_else(|| domain::payment::stream_id(&manual.account_id, &reference));
    let outcome = payments.execute(&stream, command, metadata).await?;
    Ok(ManualRecorded {
        reference,
        position: outcome.position,
        replayed: outcome.replayed,
    })
}

/// What a delivery appended.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Recorded {
    /// Events appended (0 when everything was already known).
    pub events: usize,
    /// Streams that got at least one event.
    pub streams: usize,
    /// The feed position of the last event, for read-your-writes.
    pub position: Option<FeedPosition>,
}

/// How many advisory locks one account's Payment streams are spread over, and its amounts
/// (`statement_twins`) over as many more: the most of each a delivery holds per account,
/// however many entries it has; deliveries of different payments of an account mostly take
/// different buckets and decide side by side.
pub const LOCK_BUCKETS: i64 = 16;

/// Matches, decides and appends every report in one transaction (see the module). A report
/// that names no code (`qrcode_id` `None`) but a `txid` is matched to the code that claimed that
/// txid in its account, if any.
///
/// # Errors
///
/// [`CommandError::Rejected`] when the aggregate refuses a report (nothing is written);
/// [`CommandError::Conflict`] when other writers won every attempt; storage and encoding errors
/// as [`CommandError`].
pub async fn record_reports(
    store: &PgEventStore,
    reports: &[ReportPayment],
    metadata: &CommandMetadata,
) -> Result<Recorded, CommandError<PaymentError>> {
    if reports.is_empty() {
        return Ok(Recorded::default());
    }
    let metadata = metadata.to_json();
    let attempts = DEFAULT_MAX_RETRIES.saturating_add(1);
    for _ in 0..attempts {
        match attempt(store, reports, &metadata).await {
            Ok(recorded) => return Ok(recorded),
            Err(AppendFailure::Failed(error)) => return Err(error),
            Err(AppendFailure::VersionTaken | AppendFailure::KeyTaken) => {}
        }
    }
    Err(CommandError::Conflict {
        stream_type: domain::payment::STREAM_TYPE.to_owned(),
        stream_id: "(delivery)".to_owned(),
        attempts,
    })
}

/// The codes that claimed the reports' txids, by (account, claim digest), read in `tx`.
async fn claimed_codes(
    tx: &mut sqlx::PgConnection,
    reports: &[ReportPayment],
) -> Result<HashMap<(String, String), String>, sqlx::Error> {
    let wanted: BTreeSet<(String, String)> = reports
        .iter()
        .filter(|r| r.qrcode_id.is_none())
        .filter_map(|r| {
            let txid = r.txid.as_deref()?;
            Some((txid_scope(&r.account_id), txid_claim(txid)))
        })
        .collect();
    if wanted.is_empty() {
        return Ok(HashMap::new());
    }
    let (scopes, values): (Vec<String>, Vec<String>) = wanted.into_iter().unzip();
    // A txid is claimed once per account and never released (an archived code keeps its
    // claim), so each (scope, value) names at most one code: what the `qrcodes` lookup this
    // replaces found ("the oldest code with the txid"; there was only ever one). Every code of an
    // account claims its txid when made; a visitor's code claimed into an account has none
    // (`***`: the public form offers no txid, and `***` is no txid a delivery can carry), so the
    // lookup never found one either. Claims compare txids in upper case, as creation does.
    let rows = owners(tx, &scopes, &values).await?;
    Ok(rows
        .into_iter()
        .map(|(scope, value, owner)| ((scope, value), owner))
        .collect())
}

async fn attempt(
    store: &PgEventStore,
    reports: &[ReportPayment],
    metadata: &serde_json::Value,
) -> Result<Recorded, AppendFailure<PaymentError>> {
    let own_stream =
        |r: &ReportPayment| domain::payment::stream_id(&r.account_id, &r.end_to_end_id);
    // The locks: the buckets of the reports' own streams and of their amounts (a statement
    // line of the same amount takes that one: `statement_twins`).
    let mut streams: BTreeSet<(String, String)> = BTreeSet::new();
    let mut amounts: BTreeSet<(String, i64)> = BTreeSet::new();
    for report in reports {
        streams.insert((report.account_id.clone(), own_stream(report)));
        amounts.insert((report.account_id.clone(), amount_bucket(report.amount)));
    }
    let mut tx = store.pool().begin().await?;
    lock_buckets(&mut tx, &streams, &amounts).await?;
    // An end-to-end id a statement payment took is decided on that payment's stream.
    let ids: Vec<(String, String)> = reports
        .iter()
        .map(|r| (r.account_id.clone(), r.end_to_end_id.clone()))
        .collect();
    let aliased = statement_twins::aliases(&mut tx, &ids).await?;
    // Streams in a fixed order; reports keep the delivery's order within each stream.
    let mut by_stream: BTreeMap<String, Vec<&ReportPayment>> = BTreeMap::new();
    for report in reports {
        let stream = aliased
            .get(&(report.account_id.clone(), report.end_to_end_id.clone()))
            .cloned()
            .unwrap_or_else(|| own_stream(report));
        by_stream.entry(stream).or_default().push(report);
    }
    let codes = claimed_codes(&mut tx, reports).await?;
    let stream_ids: Vec<String> = by_stream.keys().cloned().collect();
    let mut loaded = load_streams(&mut tx, store, &stream_ids).await?;
    // A report that would start a payment may be a statement line's, recorded before it.
    let fresh: Vec<statement_twins::Fresh<'_>> = by_stream
        .iter()
        .filter(|(stream_id, _)| !loaded.contains_key(*stream_id))
        .filter_map(|(stream_id, reports)| {
            Some(statement_twins::Fresh {
                stream_id: stream_id.clone(),
                report: reports.first()?,
            })
        })
        .collect();
    let twins = statement_twins::take(&mut tx, &fresh).await?;
    if !twins.is_empty() {
        let twin_streams: Vec<String> = twins.values().cloned().collect();
        loaded.extend(load_streams(&mut tx, store, &twin_streams).await?);
        for (own, twin) in twins {
            // A claim is written with its payment's events: the stream is there.
            if loaded.contains_key(&twin)
                && let Some(moved) = by_stream.remove(&own)
            {
                by_stream.entry(twin).or_default().extend(moved);
            }
        }
    }
    let mut recorded = Recorded::default();
    let mut append_ids: Vec<String> = Vec::new();
    let mut append_versions: Vec<i64> = Vec::new();
    let mut decided: Vec<PaymentEvent> = Vec::new();
    // The payments these reports start, for a statement line imported later to find.
    let mut bank_claims: Vec<(String, String, String)> = Vec::new();
    for (stream_id, stream_reports) in by_stream {
        let fresh = !loaded.contains_key(&stream_id);
        if fresh
            && let Some(claim) = stream_reports
                .first()
                .and_then(|first| statement_twins::bank_claim(first, &stream_id))
        {
            bank_claims.push(claim);
        }
        let (mut payment, mut version) = loaded.remove(&stream_id).unwrap_or_default();
        let before = decided.len();
        for report in stream_reports {
            let mut report = report.clone();
            if report.qrcode_id.is_none()
                && let Some(txid) = report.txid.as_deref()
            {
                let claim = (txid_scope(&report.account_id), txid_claim(txid));
                if let Some(owner) = codes.get(&claim) {
                    match link_of_claim(owner) {
                        Some(link_id) => report.payment_link_id = Some(link_id.to_owned()),
                        None => report.qrcode_id = Some(owner.clone()),
                    }
                }
            }
            let events = payment
                .decide_now(PaymentCommand::ReportPayment(report))
                .map_err(CommandError::Rejected)?;
            for event in events {
                cqrs_es::Aggregate::apply(&mut payment, event.clone());
                version += 1;
                append_ids.push(stream_id.clone());
                append_versions.push(version);
                decided.push(event);
            }
        }
        if decided.len() > before {
            recorded.streams += 1;
        }
    }
    if !bank_claims.is_empty() {
        let (scopes, (values, owners)): (Vec<String>, (Vec<String>, Vec<String>)) =
            bank_claims.into_iter().map(|(s, v, o)| (s, (v, o))).unzip();
        crate::claims::insert_many(&mut tx, &scopes, &values, &owners).await?;
    }
    if !decided.is_empty() {
        recorded.events = decided.len();
        recorded.position =
            append_decided(&mut tx, &append_ids, &append_versions, &decided, metadata).await?;
    }
    tx.commit().await?;
    Ok(recorded)
}

/// Takes the advisory locks of `streams` ((account, stream id): the stream's bucket) and of
/// `amounts` ((account, [`amount_bucket`]): a lock space of its own, so a statement import
/// taking many amounts never waits on the intake's stream locks), at most [`LOCK_BUCKETS`] of
/// each per account, in ascending key order in one statement, so two transactions never wait
/// on each other's advisory locks in a cycle. Two keys sharing a 64-bit hash merely wait for
/// each other.
pub(crate) async fn lock_buckets(
    tx: &mut sqlx::PgConnection,
    streams: &BTreeSet<(String, String)>,
    amounts: &BTreeSet<(String, i64)>,
) -> Result<(), sqlx::Error> {
    let (stream_accounts, stream_ids): (Vec<&str>, Vec<&str>) = streams
        .iter()
        .map(|(a, s)| (a.as_str(), s.as_str()))
        .unzip();
    let (amount_accounts, buckets): (Vec<&str>, Vec<i64>) =
        amounts.iter().map(|(a, b)| (a.as_str(), *b)).unzip();
    sqlx::query(
        "select pg_advisory_xact_lock(k)
           from (select distinct hashtextextended(n, 0) as k
                   from (select 'payments:' || a || ':'
                                || (hashtextextended(s, 0) & ($3::bigint - 1)) as n
                           from unnest($1::text[], $2::text[]) as t(a, s)
                         union all
                         select 'payments-amount:' || a || ':' || b
                           from unnest($4::text[], $5::bigint[]) as u(a, b)) as buckets
                  order by k) as locks",
    )
    .bind(&stream_accounts)
    .bind(&stream_ids)
    .bind(LOCK_BUCKETS)
    .bind(&amount_accounts)
    .bind(&buckets)
    .execute(tx)
    .await?;
    Ok(())
}

/// Every Payment stream of `stream_ids` folded, with its last version, read in `tx` (a stream
/// with no events is absent).
pub(crate) async fn load_streams(
    tx: &mut sqlx::PgConnection,
    store: &PgEventStore,
    stream_ids: &[String],
) -> Result<HashMap<String, (Payment, i64)>, AppendFailure<PaymentError>> {
    let rows: Vec<(String, i64, String, i32, crate::json_text::JsonText)> = sqlx::query_as(
        "select stream_id, stream_version, event_type, schema_version, payload
           from events
          where stream_type = $1 and stream_id = any($2::text[])
          order by stream_id, stream_version",
    )
    // Planned for its own ids every time: a connection's cached generic plan, made while the
    // log was small (no `analyze` runs on `events` without autovacuum), read every payment of
    // the log by `stream_type` and filtered the ids, a delivery taking ever longer as the log grew.
    .persistent(false)
    .bind(domain::payment::STREAM_TYPE)
    .bind(stream_ids)
    .fetch_all(&mut *tx)
    .await?;
    let mut loaded: HashMap<String, (Payment, i64)> = HashMap::new();
    for (stream_id, version, event_type, schema_version, payload) in rows {
        let event =
            store.decode::<Payment>(&stream_id, version, &event_type, schema_version, payload)?;
        let entry = loaded.entry(stream_id).or_default();
        cqrs_es::Aggregate::apply(&mut entry.0, event);
        entry.1 = version;
    }
    Ok(loaded)
}

/// Appends `decided` (event `i` to stream `ids[i]` at version `versions[i]`) in one statement,
/// in `tx`; the feed position of the last one.
pub(crate) async fn append_decided(
    tx: &mut sqlx::PgConnection,
    ids: &[String],
    versions: &[i64],
    decided: &[PaymentEvent],
    metadata: &serde_json::Value,
) -> Result<Option<FeedPosition>, AppendFailure<PaymentError>> {
    let encoded = encode::<Payment>(decided)?;
    let positions: Vec<(i64, i64)> = sqlx::query_as(APPEND_STREAMS)
        .bind(domain::payment::STREAM_TYPE)
        .bind(ids)
        .bind(versions)
        .bind(&encoded.event_ids)
        .bind(&encoded.event_types)
        .bind(&encoded.schema_versions)
        .bind(&encoded.payloads)
        .bind(metadata)
        .fetch_all(&mut *tx)
        .await?;
    Ok(positions
        .into_iter()
        .map(|(tx_id, global_position)| FeedPosition {
            tx_id: u64::try_from(tx_id).unwrap_or_default(),
            global_position,
        })
        .max())
}
