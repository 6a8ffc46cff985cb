//! One round of a projector: a batch of messages into the read model, exactly once.
//!
//! Inside one transaction, under the projection's write lock: read the checkpoint, drop the
//! events at or before it (redeliveries, republished duplicates), check that the rest are
//! exactly the feed's events between the checkpoint and the newest message (if not, part of the
//! stream is missing or out of order: take those events from PostgreSQL instead), apply, park
//! poison events, move the checkpoint. Acks go out only after the commit. Every event is upcast to
//! its current shape first, whether it came from the stream or from the feed (messages published
//! before an upcaster was added still carry the old shape).

use std::collections::HashSet;

use async_nats::jetstream::{AckKind, Message};
use chrono::Utc;
use commands::Upcasters;
use commands::feed::{self, FeedPosition, StoredEvent};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use super::ProjectorConfig;
use crate::checkpoint;
use crate::locks::lock_projection_writes;
use crate::metric_names::{
    PROJECTION_APPLIED, PROJECTION_APPLY_DELAY_SECONDS, PROJECTION_GAP_REPAIRS, PROJECTION_ROUNDS,
};
use crate::parking::{Parked, apply_with_parking};
use crate::projection::{Projection, TableSet};
use crate::sql::{position_from, tx_text};

/// What one round did, for the caller's logs.
#[derive(Debug, Default)]
pub(crate) struct Round {
    /// Events past the checkpoint in this batch.
    pub(crate) fresh: usize,
    pub(crate) applied: usize,
    pub(crate) skipped: usize,
    pub(crate) parked: Vec<Parked>,
    pub(crate) repaired_from_feed: bool,
}

/// Applies `messages` to `projection`'s live tables and acknowledges them.
///
/// An `Err` is a database failure: nothing was committed or acknowledged, and the caller
/// retries the same messages.
pub(crate) async fn apply_messages(
    pool: &PgPool,
    projection: &dyn Projection,
    config: &ProjectorConfig,
    messages: &[Message],
) -> Result<Round, sqlx::Error> {
    let name = projection.name();
    let upcasters = &*config.upcasters;
    let feed_page_size = config.feed_page_size;
    let mut readable: Vec<StoredEvent> = Vec::with_capacity(messages.len());
    // The event id of each message, `None` for unreadable ones.
    let mut ids: Vec<Option<Uuid>> = Vec::with_capacity(messages.len());
    // Narrowed to what the projection reads, as replay reads it.
    let fields = projection.reads();
    for message in messages {
        match serde_json::from_slice::<StoredEvent>(&message.payload) {
            Ok(event) => {
                ids.push(Some(event.event_id));
                readable.push(fields.narrow(upcasters, event));
            }
            Err(error) => {
                // Not an event the relay wrote. If it stood for a real event, that event is in
                // PostgreSQL and the gap check below applies it from there.
                tracing::error!(
                    projection = name,
                    msg_id = ?message.headers.as_ref().and_then(|h| h.get("Nats-Msg-Id")).map(|v| v.as_str().to_owned()),
                    %error,
                    "unreadable message terminated"
                );
                ids.push(None);
            }
        }
    }

    readable.sort_by_key(|e| e.position);
    readable.dedup_by_key(|e| e.position);
    let mut round = match commit_round(
        pool,
        projection,
        upcasters,
        feed_page_size,
        &readable,
        false,
    )
    .await?
    {
        Some(round) => round,
        // Something in the batch failed: do it again event by event, parking the poison. (The
        // parking pass always answers `Some`.)
        None => commit_round(pool, projection, upcasters, feed_page_size, &readable, true)
            .await?
            .unwrap_or_default(),
    };
    round.skipped = readable.len() - round.fresh;

    for parked in &round.parked {
        parked.report(name);
    }
    metrics::counter!(PROJECTION_APPLIED, "projection" => name.to_owned())
        .increment(round.applied as u64);
    acknowledge(name, messages, &ids, &round.parked).await;
    Ok(round)
}

/// One transaction: lock, read the checkpoint (and count the feed up to the newest message in
/// the same statement), apply the fresh events, move the checkpoint, commit.
///
/// Without `parking` the batch goes to the projection in one call with no savepoints (the
/// common case, fewest round trips); if that fails the transaction is rolled back and the
/// answer is `None`, and the caller comes back with `parking`.
async fn commit_round(
    pool: &PgPool,
    projection: &dyn Projection,
    upcasters: &Upcasters,
    feed_page_size: i64,
    readable: &[StoredEvent],
    parking: bool,
) -> Result<Option<Round>, sqlx::Error> {
    let name = projection.name();
    let mut round = Round::default();
    let Some(newest) = readable.last().map(|e| e.position) else {
        return Ok(Some(round));
    };
    let mut tx = pool.begin().await?;
    lock_projection_writes(&mut tx, name).await?;
    let (start, in_feed) = checkpoint_and_count(&mut tx, name, newest).await?;
    let fresh: Vec<&StoredEvent> = readable.iter().filter(|e| e.position > start).collect();
    round.fresh = fresh.len();
    if fresh.is_empty() {
        tx.rollback().await?;
        return Ok(Some(round));
    }
    let last_recorded_at;
    if usize::try_from(in_feed).ok() == Some(fresh.len()) {
        let first = readable.len() - fresh.len();
        let fresh = &readable[first..];
        if parking {
            round.parked =
                apply_with_parking(&mut tx, projection, &TableSet::live(), upcasters, fresh)
                    .await?;
        } else if let Err(error) = projection
            .apply_batch(&mut tx, &TableSet::live(), upcasters, fresh)
            .await
        {
            tracing::debug!(projection = name, %error, "batch failed; applying it again with parking");
            tx.rollback().await?;
            return Ok(None);
        }
        round.applied = fresh.len() - round.parked.len();
        last_recorded_at = fresh.last().map(|e| e.recorded_at);
    } else {
        // The stream lacks events the feed has (aged out, lost, or published out of order by
        // a relay retry): PostgreSQL is the source of truth, take them from there.
        tracing::info!(
            projection = name,
            messages = fresh.len(),
            in_feed,
            "gap in the stream; filling it from PostgreSQL"
        );
        metrics::counter!(PROJECTION_GAP_REPAIRS, "projection" => name.to_owned()).increment(1);
        round.repaired_from_feed = true;
        let filled = fill_from_feed(
            &mut tx,
            projection,
            upcasters,
            start,
            newest,
            feed_page_size,
        )
        .await?;
        round.applied = filled.applied;
        round.parked = filled.parked;
        last_recorded_at = filled.last_recorded_at;
    }
    checkpoint::store(&mut tx, name, newest, last_recorded_at).await?;
    tx.commit().await?;
    metrics::counter!(PROJECTION_ROUNDS, "projection" => name.to_owned()).increment(1);
    if let Some(recorded_at) = last_recorded_at {
        report_apply_delay(name, recorded_at);
    }
    Ok(Some(round))
}

/// The projection's checkpoint and the number of feed events after it up to `newest`, in one
/// statement (one round trip). Call it under the projection's write lock.
///
/// Every event at or before a position the relay has published is below the horizon already
/// (its transaction, and every older one, had ended when the relay read it), so the count needs
/// no horizon condition.
async fn checkpoint_and_count(
    conn: &mut PgConnection,
    projection: &str,
    newest: FeedPosition,
) -> Result<(FeedPosition, i64), sqlx::Error> {
    let (tx, gp, count): (i64, i64, i64) = sqlx::query_as(
        // Three plain ranges rather than one row comparison: an upper bound on a row
        // comparison does not stop a btree scan on its second column, so inside one large
        // transaction the single-range form would read every later row of it.
        "with cp as (
            select coalesce(max(tx_id), '0'::xid8) as tx_id,
                   coalesce(max(global_position), 0) as global_position
              from projection_checkpoints where projection = $1)
         select cp.tx_id::text::bigint, cp.global_position,
                case when cp.tx_id = $2::text::xid8 then
                     (select count(*) from events
                       where tx_id = cp.tx_id
                         and global_position > cp.global_position and global_position <= $3)
                else (select count(*) from events
                       where tx_id = cp.tx_id and global_position > cp.global_position)
                   + (select count(*) from events
                       where tx_id > cp.tx_id and tx_id < $2::text::xid8)
                   + (select count(*) from events
                       where tx_id = $2::text::xid8 and global_position <= $3)
                end
           from cp",
    )
    .bind(projection)
    .bind(tx_text(newest))
    .bind(newest.global_position)
    .fetch_one(conn)
    .await?;
    Ok((position_from(tx, gp), count))
}

struct Filled {
    applied: usize,
    parked: Vec<Parked>,
    last_recorded_at: Option<chrono::DateTime<Utc>>,
}

/// Applies the feed's events after `after` up to and including `until`, page by page.
async fn fill_from_feed(
    conn: &mut PgConnection,
    projection: &dyn Projection,
    upcasters: &Upcasters,
    after: FeedPosition,
    until: FeedPosition,
    page_size: i64,
) -> Result<Filled, sqlx::Error> {
    let mut filled = Filled {
        applied: 0,
        parked: Vec::new(),
        last_recorded_at: None,
    };
    let fields = projection.reads();
    let mut position = after;
    while position < until {
        let mut page =
            feed::read_after_with(&mut *conn, upcasters, position, page_size, &fields).await?;
        page.retain(|e| e.position <= until);
        let Some(last) = page.last() else { break };
        position = last.position;
        filled.last_recorded_at = Some(last.recorded_at);
        let parked =
            apply_with_parking(&mut *conn, projection, &TableSet::live(), upcasters, &page).await?;
        filled.applied += page.len() - parked.len();
        filled.parked.extend(parked);
    }
    Ok(filled)
}

fn report_apply_delay(projection: &str, recorded_at: chrono::DateTime<Utc>) {
    let lag = (Utc::now() - recorded_at).to_std().unwrap_or_default();
    metrics::gauge!(PROJECTION_APPLY_DELAY_SECONDS, "projection" => projection.to_owned())
        .set(lag.as_secs_f64());
}

/// Acks every message once its effect (or its skipping) is committed; parked and unreadable
/// ones are terminated so JetStream never redelivers them.
async fn acknowledge(
    projection: &str,
    messages: &[Message],
    ids: &[Option<Uuid>],
    parked: &[Parked],
) {
    let parked_ids: HashSet<Uuid> = parked.iter().map(|p| p.event_id).collect();
    for (message, id) in messages.iter().zip(ids) {
        let poison = id.is_none_or(|id| parked_ids.contains(&id));
        let kind = if poison { AckKind::Term } else { AckKind::Ack };
        if let Err(error) = message.ack_with(kind).await {
            // The message comes back after ack_wait and is skipped by the checkpoint then.
            tracing::warn!(projection, %error, "ack failed");
        }
    }
}
