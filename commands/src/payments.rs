//! Recording many payment reports at once: an API Pix delivery is appended whole, in one
//! transaction, or not at all.
//!
//! [`record_reports`] takes the reports of one delivery (each already parsed, matched to its
//! code and sealed), and in one PostgreSQL transaction: takes a transaction-scoped advisory lock
//! per Payment stream (in one fixed order, so two deliveries never wait on each other in a
//! cycle), loads those streams, decides every report on its stream in delivery order (a stream
//! named twice sees its first report's events), and appends what was decided after exactly the
//! loaded versions. The locks make a hundred simultaneous deliveries of one payment decide one
//! after another, so exactly one records it and the others decide nothing; nobody loses a race
//! and retries. A writer that does not take the lock (a manual record through
//! [`CommandService`](crate::CommandService)) is still caught by the stream-version key: the
//! whole delivery is then decided again, a bounded number of times.
//!
//! [`record_manual`] records one payment typed in by hand, on the same streams.

use std::collections::{BTreeMap, HashMap};

use domain::payment::{Payment, PaymentCommand, PaymentError, PaymentEvent, ReportPayment};

use crate::store::AppendFailure;
use crate::{
    CommandError, CommandMetadata, DEFAULT_MAX_RETRIES, ExpectedVersion, FeedPosition, PgEventStore,
};

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
    payments: &crate::CommandService<Payment>,
    manual: ManualPayment,
    metadata: CommandMetadata,
) -> Result<ManualRecorded, CommandError<PaymentError>> {
    let reference = manual
        .end_to_end_id
        .clone()
        .unwrap_or_else(|| format!("manual-{}", manual.manual_id.simple()));
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
    let stream = domain::payment::stream_id(&manual.account_id, &reference);
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

/// Decides and appends every report in one transaction (see the module).
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

async fn attempt(
    store: &PgEventStore,
    reports: &[ReportPayment],
    metadata: &serde_json::Value,
) -> Result<Recorded, AppendFailure<PaymentError>> {
    // Streams in a fixed order; reports keep the delivery's order within each stream.
    let mut by_stream: BTreeMap<String, Vec<&ReportPayment>> = BTreeMap::new();
    for report in reports {
        by_stream
            .entry(domain::payment::stream_id(
                &report.account_id,
                &report.end_to_end_id,
            ))
            .or_default()
            .push(report);
    }
    let stream_ids: Vec<String> = by_stream.keys().cloned().collect();
    let mut tx = store.pool().begin().await?;
    // One lock per stream, by a 64-bit hash of its id, taken in ascending key order. Two ids
    // sharing a hash merely wait for each other.
    sqlx::query(
        "select pg_advisory_xact_lock(k)
           from (select distinct hashtextextended('payment:' || s, 0) as k
                   from unnest($1::text[]) as s order by k) as locks",
    )
    .bind(&stream_ids)
    .execute(&mut *tx)
    .await?;
    let rows: Vec<(String, i64, String, i32, crate::JsonText)> = sqlx::query_as(
        "select stream_id, stream_version, event_type, schema_version, payload
           from events
          where stream_type = $1 and stream_id = any($2::text[])
          order by stream_id, stream_version",
    )
    .bind(domain::payment::STREAM_TYPE)
    .bind(&stream_ids)
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
    let mut recorded = Recorded::default();
    for (stream_id, stream_reports) in by_stream {
        let (mut payment, version) = loaded.remove(&stream_id).unwrap_or_default();
        let mut decided: Vec<PaymentEvent> = Vec::new();
        for report in stream_reports {
            let events = payment
                .decide_now(PaymentCommand::ReportPayment(report.clone()))
                .map_err(CommandError::Rejected)?;
            for event in events {
                cqrs_es::Aggregate::apply(&mut payment, event.clone());
                decided.push(event);
            }
        }
        if decided.is_empty() {
            continue;
        }
        let outcome = store
            .try_append::<Payment>(
                &mut *tx,
                &stream_id,
                ExpectedVersion::Exact(version),
                &decided,
                metadata,
                None,
                None,
            )
            .await?;
        recorded.events += decided.len();
        recorded.streams += 1;
        recorded.position = recorded.position.max(outcome.position);
    }
    tx.commit().await?;
    Ok(recorded)
}
