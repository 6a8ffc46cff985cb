//! Live updates over server-sent events: the payer page learns it was paid, the dashboard learns
//! a payment arrived, without a reload and without a database connection per client.
//!
//! ```text
//! projector ──checkpoint + NOTIFY──▶ ProgressWatch (one LISTEN per process, shared with read-your-writes)
//!                                       │ Follower("payments")
//!                                       ▼
//!                           fan-out task (one per process, [`fanout`])
//!                             │ one query: the payments rows changed after its cursor
//!                             ▼
//!                 tokio broadcast (bounded ring of Arc<PaymentChange>)
//!                   │           │            │
//!                 client      client  …    client   ([`stream`]: filter, event, heartbeat)
//! ```
//!
//! - **Who sees what.** `GET /pagamento/{id}/eventos` (anyone holding the payer page): only
//!   whether a payment to the code arrived while the page was open (`{"pago":true}`), never who
//!   paid nor anything else about the payment. A code is a printed sign paid by many people, so
//!   a page opening anew starts "not paid" (`{"pago":false}`) whatever was paid before, and a
//!   page that resumes (`?desde=`, `Last-Event-ID`) hears only of payments that arrived after
//!   what it saw. `GET /api/accounts/{accountId}/events` (bearer token, [`Right::ViewOwnTransactions`]):
//!   the account's payments as they change, amount and status but no payer data; operators only
//!   the payments to codes they made. Both are in [`crate::live_routes`].
//! - **Ids and resuming.** Every event's `id:` is the feed position (`TX.GP`) of the change it
//!   tells. A client that reconnects sends it back (`Last-Event-ID`, or `?desde=` where a header
//!   cannot be set); the stream first replays, from the read model, what changed after it for
//!   that client, then goes on live, skipping what the replay already sent. More than
//!   [`REPLAY_LIMIT`] missed changes on the dashboard's stream become one `resync` event (the
//!   dashboard refetches); the payer's stream replays as one fresh answer.
//! - **Slow clients.** The broadcast never waits for a reader: a client that falls more than
//!   [`BROADCAST_CAPACITY`] changes behind loses its place, its stream ends, and it reconnects
//!   with its last id, getting the rest from the read model. Heartbeats (comment lines) keep
//!   proxies from closing an idle stream and find dead clients.
//! - **Bounds.** At most `BALCAO_LIVE_MAX_CLIENTS` streams at once, and at most
//!   `BALCAO_LIVE_MAX_CLIENTS_PER_ADDRESS` of them from one client address (the address
//!   [`ClientAddress`] reads, so behind proxies the one `X-Forwarded-For` designates; an IPv6
//!   /64 counts as one, [`crate::per_address`]): one client cannot hold every place for the
//!   others. The next gets 503 with `Retry-After` and `Connection: close`, so a client that
//!   retries in a loop does not also pile up idle kept-alive connections until the listener's
//!   connection cap refuses everyone (the load balancer's `/healthz` too). Streams never take
//!   every connection of the listener; each stream ends
//!   after `BALCAO_LIVE_MAX_STREAM_SECS` (the client reconnects with its id, losing nothing), so a
//!   signed-out person or a removed member stops receiving within that time, and on shutdown
//!   every stream ends so the server can stop.
//!
//! - **The checkout.** `GET /api/accounts/{accountId}/subscription/charges/{chargeId}/events`
//!   (the owner, bearer token) tells `/pagar_asaas` where its Pix charge stands: a second fan-out
//!   task follows the `subscriptions` projection the same way and reads the charges changed after
//!   its cursor (`charges`), so the checkout switches the moment the payment is recorded, with
//!   the same heartbeats, bounds and `Last-Event-ID` resume (a reconnect gets the charge as it
//!   stands when it changed after the id sent back, and nothing otherwise).
//!
//! The dashboard's stream is read with `fetch` and a stream reader rather than `EventSource`,
//! which cannot send the `Authorization` header: the bearer token then travels as on every
//! other API call, never in a URL (where logs, history and `Referer` would keep it), and no
//! second kind of credential (a signed ticket) has to be minted, stored or revoked.
//!
//! [`Right::ViewOwnTransactions`]: domain::team::Right::ViewOwnTransactions
//! [`ClientAddress`]: crate::client_address::ClientAddress

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use commands::FeedPosition;
use projections::CancellationToken;
use projections::payment_changes::PaymentChange;
use projections::projector::Follower;
use projections::subscriptions::ChargeChange;
use sqlx::PgPool;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, broadcast, watch};

use crate::per_address::{AddressSlot, PerAddress};

pub(crate) mod charges;
mod fanout;
pub(crate) mod stream;

pub use stream::event_id;

/// Changes the broadcast keeps for readers that are behind; a reader further behind than this
/// loses its place (its stream ends and it resumes from the read model).
pub const BROADCAST_CAPACITY: usize = 1024;
/// Most changes a reconnecting client gets replayed one by one.
pub const REPLAY_LIMIT: i64 = 100;
/// Gauge: live streams open now.
pub const LIVE_CLIENTS: &str = "balcao_live_clients";
/// Counter: streams refused because `BALCAO_LIVE_MAX_CLIENTS` were open.
pub const LIVE_REFUSED: &str = "balcao_live_refused_total";
/// Counter: streams refused because their address held `BALCAO_LIVE_MAX_CLIENTS_PER_ADDRESS`.
pub const LIVE_REFUSED_PER_ADDRESS: &str = "balcao_live_refused_per_address_total";

/// How the live streams are bounded.
#[derive(Debug, Clone, Copy)]
pub struct LiveLimits {
    /// Most streams open at once.
    pub max_clients: usize,
    /// Most streams open at once from one client address.
    pub max_clients_per_address: usize,
    /// Longest silence on a stream before a heartbeat comment.
    pub heartbeat: Duration,
    /// Longest a stream stays open before the client is asked to reconnect.
    pub max_stream: Duration,
}

/// The process's live updates; cheap to clone.
#[derive(Clone)]
pub struct Live {
    shared: Arc<Shared>,
}

struct Shared {
    pool: PgPool,
    changes: broadcast::Sender<Arc<PaymentChange>>,
    /// How far the fan-out has read the `payments` read model.
    head: watch::Receiver<FeedPosition>,
    /// Subscription charges as they change (the checkout's stream).
    charges: broadcast::Sender<Arc<ChargeChange>>,
    clients: Arc<Semaphore>,
    per_address: Arc<PerAddress>,
    limits: LiveLimits,
    closing: CancellationToken,
    _fan_out: AbortOnDrop,
    _charges_fan_out: AbortOnDrop,
}

struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl Live {
    /// Starts the fan-outs: `follower` tells when the `payments` projection moves,
    /// `charges_follower` when the `subscriptions` one does; `pool` answers their one query per
    /// move and the reconnecting clients' replays.
    pub fn start(
        pool: PgPool,
        follower: Follower,
        charges_follower: Follower,
        limits: LiveLimits,
    ) -> Live {
        let (changes, _) = broadcast::channel(BROADCAST_CAPACITY);
        let (head_sender, head) = watch::channel(FeedPosition::default());
        let task = tokio::spawn(fanout::run(
            pool.clone(),
            follower,
            changes.clone(),
            head_sender,
        ));
        let (charges, _) = broadcast::channel(BROADCAST_CAPACITY);
        let charges_task = tokio::spawn(charges::fan_out(
            pool.clone(),
            charges_follower,
            charges.clone(),
        ));
        Live {
            shared: Arc::new(Shared {
                pool,
                changes,
                head,
                charges,
                clients: Arc::new(Semaphore::new(limits.max_clients)),
                per_address: PerAddress::new(limits.max_clients_per_address),
                limits,
                closing: CancellationToken::new(),
                _fan_out: AbortOnDrop(task),
                _charges_fan_out: AbortOnDrop(charges_task),
            }),
        }
    }

    /// Ends every stream (and refuses new ones) once `shutdown` is cancelled, so a graceful
    /// shutdown does not wait for clients that would never hang up.
    pub fn end_streams_on(&self, shutdown: CancellationToken) {
        let closing = self.shared.closing.clone();
        tokio::spawn(async move {
            shutdown.cancelled().await;
            closing.cancel();
        });
    }

    /// How many streams are open.
    pub fn clients(&self) -> usize {
        self.shared.limits.max_clients - self.shared.clients.available_permits()
    }

    /// A place among the bounded streams for a client at `address`, if one is free both among
    /// all streams and among that address's.
    fn admit(&self, address: IpAddr) -> Option<Place> {
        if self.shared.closing.is_cancelled() {
            return None;
        }
        let Some(address) = self.shared.per_address.try_take(address) else {
            metrics::counter!(LIVE_REFUSED_PER_ADDRESS).increment(1);
            return None;
        };
        match Arc::clone(&self.shared.clients).try_acquire_owned() {
            Ok(all) => Some(Place {
                _all: all,
                _address: address,
            }),
            Err(_) => {
                metrics::counter!(LIVE_REFUSED).increment(1);
                None
            }
        }
    }
}

/// A stream's places, given back when it ends: one among all streams, one among its address's.
struct Place {
    _all: OwnedSemaphorePermit,
    _address: AddressSlot,
}
