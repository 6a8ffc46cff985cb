//! One client's stream: what it may see of each change, the replay after a reconnect, the
//! heartbeat, and the end (shutdown, lifetime, or a client too slow for the broadcast).

use std::collections::VecDeque;
use std::convert::Infallible;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use commands::FeedPosition;
use futures::Stream;
use projections::payment_changes::{self, PaymentChange, Scope};
use serde_json::json;
use tokio::sync::broadcast::{self, error::RecvError};
use tokio::time::Instant;
use uuid::Uuid;

use super::{LIVE_CLIENTS, Live, Place, REPLAY_LIMIT};

/// How long a browser waits before reconnecting after a stream ends (the SSE `retry:` field).
pub(super) const RECONNECT_AFTER: Duration = Duration::from_secs(2);

/// Whose changes a stream tells, and how.
#[derive(Debug, Clone)]
pub(crate) enum Audience {
    /// The payer page of one code or payment link: only whether it was paid.
    Payer {
        /// What the page offers to pay.
        paying: Paying,
        /// Its account (`None`: a visitor's code, which no payment matches).
        owner_id: Option<Uuid>,
    },
    /// A dashboard in one account.
    Account {
        /// The account.
        account_id: Uuid,
        /// Set for operators: only payments to codes this person made.
        only_codes_by: Option<String>,
    },
}

/// What a payer page offers to pay: a code of the account's, or a payment link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Paying {
    /// A QR code (`/pagamento/{id}`).
    Code(Uuid),
    /// A payment link (`/pagar?link=…`).
    Link(Uuid),
}

impl Audience {
    fn scope(&self) -> Scope {
        match self {
            Audience::Payer {
                paying: Paying::Code(qrcode_id),
                ..
            } => Scope {
                qrcode_id: Some(*qrcode_id),
                ..Scope::default()
            },
            Audience::Payer {
                paying: Paying::Link(link_id),
                ..
            } => Scope {
                payment_link_id: Some(*link_id),
                ..Scope::default()
            },
            Audience::Account { account_id, .. } => Scope {
                account_id: Some(*account_id),
                ..Scope::default()
            },
        }
    }

    fn sees(&self, change: &PaymentChange) -> bool {
        match self {
            Audience::Payer { paying, owner_id } => {
                let paid = match paying {
                    Paying::Code(id) => change.qrcode_id == Some(*id),
                    Paying::Link(id) => change.payment_link_id == Some(*id),
                };
                paid && Some(change.account_id) == *owner_id
            }
            Audience::Account {
                account_id,
                only_codes_by,
            } => {
                change.account_id == *account_id
                    && only_codes_by
                        .as_ref()
                        .is_none_or(|me| change.code_created_by.as_ref() == Some(me))
            }
        }
    }
}

/// `TX.GP`, the `id:` of an event.
pub fn event_id(position: FeedPosition) -> String {
    format!("{}.{}", position.tx_id, position.global_position)
}

/// The position in an `id:` sent back (`Last-Event-ID` or `?desde=`); anything else is `None`.
pub(crate) fn parse_event_id(text: &str) -> Option<FeedPosition> {
    let (tx, gp) = text.trim().split_once('.')?;
    Some(FeedPosition {
        tx_id: tx.parse().ok()?,
        global_position: gp.parse().ok()?,
    })
}

/// What a payer page learns from a change to its code: a payment arriving is "paid"; nothing
/// else (a refund, a void, a confirmation of an earlier payment) is this page's payment, so it
/// tells nothing. A printed sign is paid by many people: "paid" is only ever news of a payment
/// that arrived while the page was open, never the code's history.
fn payer_after(change: &PaymentChange) -> Option<Event> {
    change
        .is_arrival()
        .then(|| payer_event(true, change.position))
}

/// The payer's event: paid or not, nothing else.
fn payer_event(paid: bool, position: FeedPosition) -> Event {
    Event::default()
        .event("pagamento")
        .id(event_id(position))
        .data(json!({ "pago": paid }).to_string())
}

/// The dashboard's event: the payment as it stands, without payer data.
fn account_event(change: &PaymentChange) -> Event {
    Event::default()
        .event("pagamento")
        .id(event_id(change.position))
        .data(
            json!({
                "reference": change.reference,
                "qrcodeId": change.qrcode_id,
                "amountCentavos": change.amount_centavos,
                "status": change.status,
                "source": change.source,
                "paidAt": change.paid_at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
            })
            .to_string(),
        )
}

struct Client {
    live: Live,
    audience: Audience,
    receiver: broadcast::Receiver<Arc<PaymentChange>>,
    /// Sent before anything from the broadcast (the replay or the first answer).
    pending: VecDeque<Event>,
    /// The replay already told everything up to here.
    told_up_to: FeedPosition,
    ends_at: Instant,
    _place: Place,
}

impl Drop for Client {
    fn drop(&mut self) {
        metrics::gauge!(LIVE_CLIENTS).decrement(1.0);
    }
}

impl Client {
    fn event_for(&self, change: &PaymentChange) -> Option<Event> {
        match self.audience {
            Audience::Payer { .. } => payer_after(change),
            Audience::Account { .. } => Some(account_event(change)),
        }
    }

    /// The next event, or `None` when the stream ends.
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
                    // Too slow for the broadcast: end, and the reconnect's replay fills the gap.
                    Err(RecvError::Lagged(_) | RecvError::Closed) => return None,
                },
            };
            if change.position <= self.told_up_to || !self.audience.sees(&change) {
                continue;
            }
            if let Some(event) = self.event_for(&change) {
                return Some(event);
            }
        }
    }
}

/// The stream for `audience`, resuming after `resume_after` when the client sent it, or `None`
/// when every place is taken, or every place for the client's `address` (or the server is
/// stopping).
pub(crate) async fn open(
    live: &Live,
    audience: Audience,
    address: IpAddr,
    resume_after: Option<FeedPosition>,
) -> Option<Response> {
    let place = live.admit(address)?;
    metrics::gauge!(LIVE_CLIENTS).increment(1.0);
    // Subscribe before reading anything, so nothing falls between the replay and the broadcast.
    let receiver = live.shared.changes.subscribe();
    let head = *live.shared.head.borrow();
    let mut client = Client {
        live: live.clone(),
        audience,
        receiver,
        pending: VecDeque::new(),
        told_up_to: FeedPosition::default(),
        ends_at: Instant::now() + live.shared.limits.max_stream,
        _place: place,
    };
    client
        .pending
        .push_back(Event::default().retry(RECONNECT_AFTER).comment("ao vivo"));
    first_events(&mut client, resume_after, head).await;
    let events = futures::stream::unfold(client, |mut client| async move {
        client
            .next()
            .await
            .map(|event| (Ok::<_, Infallible>(event), client))
    });
    Some(sse(events, live.shared.limits.heartbeat))
}

/// What a client gets before the live changes: for the payer, whether the code is paid now;
/// for a dashboard that resumes, what changed after its last id (or `resync` if too much did).
async fn first_events(client: &mut Client, resume_after: Option<FeedPosition>, head: FeedPosition) {
    match (&client.audience, resume_after) {
        // A page opening anew: the code is ready to pay, whatever was paid before.
        (Audience::Payer { .. }, None) => {
            client.pending.push_back(payer_event(false, head));
            client.told_up_to = head;
        }
        // A page resuming: whether a payment arrived after what it saw (replayed, at most one
        // "paid"); nothing when none did, so the page keeps what it shows.
        (Audience::Payer { .. }, Some(after)) => {
            client.told_up_to = after;
            let missed = payment_changes::after(
                &client.live.shared.pool,
                after,
                client.audience.scope(),
                REPLAY_LIMIT,
            )
            .await;
            match missed {
                Ok(missed) => {
                    let mut arrived = None;
                    for change in missed {
                        client.told_up_to = client.told_up_to.max(change.position);
                        if client.audience.sees(&change) && change.is_arrival() {
                            arrived = Some(change.position);
                        }
                    }
                    if let Some(position) = arrived {
                        client.pending.push_back(payer_event(true, position));
                    }
                }
                Err(error) => {
                    tracing::warn!(%error, "live updates: could not replay a payer page's payments");
                }
            }
        }
        (Audience::Account { .. }, None) => {}
        (Audience::Account { .. }, Some(after)) => {
            let missed = payment_changes::after(
                &client.live.shared.pool,
                after,
                client.audience.scope(),
                REPLAY_LIMIT + 1,
            )
            .await;
            match missed {
                Ok(missed) if i64::try_from(missed.len()).unwrap_or(i64::MAX) <= REPLAY_LIMIT => {
                    for change in missed {
                        client.told_up_to = client.told_up_to.max(change.position);
                        if client.audience.sees(&change) {
                            client.pending.push_back(account_event(&change));
                        }
                    }
                }
                // Too much, or unreadable: the dashboard reloads what it shows.
                Ok(_) | Err(_) => {
                    let at = head.max(after);
                    client.told_up_to = at;
                    client
                        .pending
                        .push_back(Event::default().event("resync").id(event_id(at)).data("{}"));
                }
            }
        }
    }
}

pub(super) fn sse<S>(events: S, heartbeat: Duration) -> Response
where
    S: Stream<Item = Result<Event, Infallible>> + Send + 'static,
{
    let mut response = Sse::new(events)
        .keep_alive(KeepAlive::new().interval(heartbeat).text("♥"))
        .into_response();
    // Proxies (nginx) must pass each event on at once instead of buffering the stream.
    response.headers_mut().insert(
        "x-accel-buffering",
        axum::http::HeaderValue::from_static("no"),
    );
    response.headers_mut().insert(
        axum::http::header::CACHE_CONTROL,
        axum::http::HeaderValue::from_static("no-store"),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(account: Uuid, code: Option<Uuid>, by: Option<&str>) -> PaymentChange {
        PaymentChange {
            account_id: account,
            reference: "E1".to_owned(),
            qrcode_id: code,
            payment_link_id: None,
            code_created_by: by.map(str::to_owned),
            amount_centavos: 1250,
            status: "received".to_owned(),
            source: "sandbox".to_owned(),
            paid_at: chrono::Utc::now(),
            position: FeedPosition {
                tx_id: 7,
                global_position: 3,
            },
            version: 1,
        }
    }

    #[test]
    fn an_event_id_reads_back_as_its_position_and_nothing_else_does() {
        let position = FeedPosition {
            tx_id: 812,
            global_position: 45,
        };
        assert_eq!(parse_event_id(&event_id(position)), Some(position));
        for hostile in ["", "812", "812.", ".45", "a.b", "-1.2", "1.2.3"] {
            assert_eq!(parse_event_id(hostile), None, "{hostile}");
        }
    }

    #[test]
    fn an_operator_sees_only_payments_to_codes_they_made_and_a_payer_only_their_code() {
        let account = Uuid::now_v7();
        let code = Uuid::now_v7();
        let operator = Audience::Account {
            account_id: account,
            only_codes_by: Some("caixa".to_owned()),
        };
        let owner = Audience::Account {
            account_id: account,
            only_codes_by: None,
        };
        let payer = Audience::Payer {
            paying: Paying::Code(code),
            owner_id: Some(account),
        };
        let theirs = change(account, Some(code), Some("caixa"));
        let others = change(account, Some(Uuid::now_v7()), Some("dona"));
        let no_code = change(account, None, None);
        let elsewhere = change(Uuid::now_v7(), Some(code), Some("caixa"));
        assert!(operator.sees(&theirs));
        assert!(!operator.sees(&others));
        assert!(!operator.sees(&no_code));
        assert!(owner.sees(&theirs) && owner.sees(&others) && owner.sees(&no_code));
        assert!(!owner.sees(&elsewhere));
        assert!(payer.sees(&theirs));
        assert!(!payer.sees(&others));
        assert!(!payer.sees(&elsewhere));
    }

    #[test]
    fn a_payment_links_page_sees_only_payments_of_its_link_in_its_account() {
        let account = Uuid::now_v7();
        let link = Uuid::now_v7();
        let page = Audience::Payer {
            paying: Paying::Link(link),
            owner_id: Some(account),
        };
        let mut paid = change(account, None, None);
        paid.payment_link_id = Some(link);
        let mut other_link = change(account, None, None);
        other_link.payment_link_id = Some(Uuid::now_v7());
        let mut elsewhere = paid.clone();
        elsewhere.account_id = Uuid::now_v7();
        assert!(page.sees(&paid));
        assert!(!page.sees(&other_link));
        assert!(!page.sees(&change(account, Some(link), None)));
        assert!(!page.sees(&elsewhere));
    }
}
