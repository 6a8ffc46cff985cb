//! The checkout's live status: one fan-out task per process follows the `subscriptions`
//! projection and puts each changed charge on a broadcast; each `/pagar_asaas` stream keeps the
//! changes of its own charge.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::response::Response;
use axum::response::sse::Event;
use commands::FeedPosition;
use projections::projector::Follower;
use projections::subscriptions::{self, ChargeChange};
use serde_json::json;
use sqlx::PgPool;
use tokio::sync::broadcast::{self, error::RecvError};
use tokio::time::Instant;
use uuid::Uuid;

use super::stream::{RECONNECT_AFTER, event_id, sse};
use super::{LIVE_CLIENTS, Live, Place};

/// Rows read per query; a burst larger than this is read in several.
const PAGE: i64 = 500;
/// Pause before trying again after PostgreSQL failed.
const RETRY: Duration = Duration::from_secs(1);

/// Runs until aborted (when the last [`Live`] goes): each time the `subscriptions` projection
/// moves, one query reads the charges changed after the task's cursor, for every checkout at once.
pub(super) async fn fan_out(
    pool: PgPool,
    mut follower: Follower,
    changes: broadcast::Sender<Arc<ChargeChange>>,
) {
    // What the projection applied before this process started is history: start at its stored
    // checkpoint (the follower was subscribed first, so no move is missed).
    let mut cursor = loop {
        match projections::checkpoint::projection_position(&pool, subscriptions::NAME).await {
            Ok(position) => break position,
            Err(error) => {
                tracing::warn!(%error, "live updates: could not read the subscriptions checkpoint");
                tokio::time::sleep(RETRY).await;
            }
        }
    };
    loop {
        let reached = follower.next().await;
        loop {
            match subscriptions::charges_after(&pool, cursor, None, PAGE).await {
                Ok(rows) => {
                    let full = i64::try_from(rows.len()).unwrap_or(i64::MAX) >= PAGE;
                    for change in rows {
                        cursor = cursor.max(change.position);
                        // No receiver is not an error: nobody is at a checkout right now.
                        let _ = changes.send(Arc::new(change));
                    }
                    if !full {
                        break;
                    }
                }
                Err(error) => {
                    tracing::warn!(%error, "live updates: could not read the changed charges; trying again");
                    tokio::time::sleep(RETRY).await;
                }
            }
        }
        cursor = cursor.max(reached);
    }
}

/// The checkout's event: where the charge stands, nothing else.
fn charge_event(status: &str, position: FeedPosition) -> Event {
    Event::default()
        .event("cobranca")
        .id(event_id(position))
        .data(json!({ "status": status }).to_string())
}

struct Checkout {
    live: Live,
    charge_id: Uuid,
    receiver: broadcast::Receiver<Arc<ChargeChange>>,
    /// Sent before anything from the broadcast.
    pending: VecDeque<Event>,
    /// Changes up to here were told (or were older than what the client already had).
    told_up_to: FeedPosition,
    ends_at: Instant,
    _place: Place,
}

impl Drop for Checkout {
    fn drop(&mut self) {
        metrics::gauge!(LIVE_CLIENTS).decrement(1.0);
    }
}

impl Checkout {
    async fn next(&mut self) -> Option<Event> {
        if let Some(event) = self.pending.pop_front() {
            return Some(event);
        }
        let closing = self.live.shared.closing.clone();
        loop {
            let change = tokio::select! {
                () = closing.cancelled() => return None,
                () = tokio::time::sleep_until(self.ends_at) => return None,
                received = self.receiver.recv() => match received {
                    Ok(change) => change,
                    // Too slow for the broadcast: end; the reconnect reads the charge as it stands.
                    Err(RecvError::Lagged(_) | RecvError::Closed) => return None,
                },
            };
            if change.charge_id != self.charge_id || change.position <= self.told_up_to {
                continue;
            }
            self.told_up_to = change.position;
            return Some(charge_event(&change.status, change.position));
        }
    }
}

/// The stream of the charge `charge` (already known to be the caller's), resuming after
/// `resume_after` when the client sent it, or `None` when every place is taken (or every place
/// for the client's `address`).
///
/// The first event is the charge as it stands, unless the client already saw that state (its
/// `Last-Event-ID` is at or past the row's position); then each change as the projection applies
/// it.
pub(crate) async fn open(
    live: &Live,
    charge: subscriptions::ChargeView,
    address: IpAddr,
    resume_after: Option<FeedPosition>,
) -> Option<Response> {
    let place = live.admit(address)?;
    metrics::gauge!(LIVE_CLIENTS).increment(1.0);
    // Subscribe, then read the row again: a change applied in between is in one or the other.
    let receiver = live.shared.charges.subscribe();
    let charge = match subscriptions::charge(&live.shared.pool, charge.charge_id).await {
        Ok(Some(fresh)) => fresh,
        Ok(None) => charge,
        Err(error) => {
            tracing::warn!(%error, "live updates: could not read the charge again");
            charge
        }
    };
    let at = charge.position();
    let seen = resume_after.unwrap_or_default();
    let mut pending = VecDeque::from([Event::default().retry(RECONNECT_AFTER).comment("ao vivo")]);
    if resume_after.is_none() || at > seen {
        pending.push_back(charge_event(&charge.status, at));
    }
    let checkout = Checkout {
        live: live.clone(),
        charge_id: charge.charge_id,
        receiver,
        pending,
        told_up_to: at.max(seen),
        ends_at: Instant::now() + live.shared.limits.max_stream,
        _place: place,
    };
    let events = futures::stream::unfold(checkout, |mut checkout| async move {
        checkout
            .next()
            .await
            .map(|event| (Ok::<_, Infallible>(event), checkout))
    });
    Some(sse(events, live.shared.limits.heartbeat))
}
