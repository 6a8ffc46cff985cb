//! Read-your-writes for a server: one listener per process fans every projection's progress out
//! to the requests that wait for it, in memory.
//!
//! [`super::wait_until`] holds a pooled connection for `LISTEN` while it waits and then needs a
//! second one; with as many waits in flight as the pool has connections, every request of the
//! process (writes, sign-ins, payer pages, `/readyz`) waits for the acquire timeout and fails.
//! [`ProgressWatch`] keeps the waiting off the pool altogether:
//!
//! - one `LISTEN` on its own connection (a two-connection pool of its own, never the request
//!   pool), reconnecting after a failure;
//! - every checkpoint notification moves a `tokio::sync::watch` per projection, and a waiter
//!   only looks at that value, so waiting costs a parked task and no database connection;
//! - a periodic re-read of `projection_checkpoints` (every 100 ms while anyone waits, every
//!   second otherwise, and right after the listener reconnects) covers a lost notification;
//! - the number of concurrent waiters is bounded: beyond the bound a wait returns
//!   [`Waited::Skipped`] at once, and the caller answers from the command's own result;
//! - a projection that stopped moving (its projector paused or down, NATS down) is noticed
//!   once: when a wait has seen no progress at all for `stall_after` (on a projection this
//!   watch has seen move before, so a projector that is just starting is waited for), every
//!   wait on that projection returns [`Waited::Skipped`], and new ones do not start, until its
//!   checkpoint moves again. So an outage costs each request nothing beyond the first
//!   `stall_after`, instead of the whole read-your-writes timeout.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use commands::feed::FeedPosition;
use sqlx::PgPool;
use sqlx::postgres::{PgListener, PgPoolOptions};
use tokio::sync::{Notify, Semaphore, watch};
use tokio::task::JoinSet;

use super::Waited;
use crate::checkpoint::{notify_channel, parse_notification};
use crate::sql::position_from;

/// Re-read the checkpoints this often while someone waits.
const RECHECK_BUSY: Duration = Duration::from_millis(100);
/// Re-read the checkpoints this often while nobody waits (keeps the fast path fresh).
const RECHECK_IDLE: Duration = Duration::from_secs(1);
/// Pause before listening again after the listener failed.
const RECONNECT_PAUSE: Duration = Duration::from_secs(1);

/// Every projection's progress as this process last heard it; cheap to clone.
///
/// Dropping the last clone stops the listener and closes its connections.
#[derive(Clone)]
pub struct ProgressWatch {
    shared: Arc<Shared>,
    _tasks: Arc<Tasks>,
}

/// What a waiter watches: how far a projection got, and whether it is known to be stuck there.
#[derive(Debug, Clone, Copy, Default)]
struct Seen {
    position: FeedPosition,
    /// Set when a wait saw no progress for `stall_after`; cleared when the position moves.
    stalled: bool,
    /// The first read of the checkpoints is done: later increases are the projector moving.
    loaded: bool,
    /// This watch has seen the projection move. Until then it is never judged stalled: a
    /// projector that is just starting may take longer than `stall_after` over its first
    /// event, and its waiters should get it.
    moved: bool,
}

struct Shared {
    /// One watch per projection, holding the highest checkpoint seen.
    positions: HashMap<String, watch::Sender<Seen>>,
    /// How long a wait sees no progress at all before the projection counts as stalled.
    stall_after: Duration,
    /// Permits for concurrent waiters.
    waiters: Semaphore,
    max_waiters: usize,
    /// Wakes the re-reader early: the listener reconnected, or the first waiter arrived.
    recheck: Notify,
}

/// Aborts the background tasks when the last [`ProgressWatch`] clone goes.
struct Tasks(std::sync::Mutex<JoinSet<()>>);

impl Drop for Tasks {
    fn drop(&mut self) {
        if let Ok(mut tasks) = self.0.lock() {
            tasks.abort_all();
        }
    }
}

impl ProgressWatch {
    /// Starts listening for the checkpoints of `projections` (names), with at most
    /// `max_waiters` requests waiting at a time; a projection that shows no progress at all for
    /// `stall_after` while someone waits for it counts as stalled until it moves again (no
    /// stall is ever noticed by a wait whose timeout is not longer than `stall_after`, nor
    /// before this watch has seen the projection move once).
    ///
    /// Its connections use `pool`'s connection options (server, credentials, session settings)
    /// but not `pool` itself. Returns at once; the first read of the checkpoints happens in the
    /// background, and until it does a wait just waits.
    pub fn start(
        pool: &PgPool,
        projections: &[&str],
        max_waiters: usize,
        stall_after: Duration,
    ) -> ProgressWatch {
        let mut options = (*pool.connect_options()).clone();
        options = options.application_name("balcao-read-your-writes");
        // One connection listens, one re-reads; a request never needs either.
        let own = PgPoolOptions::new()
            .max_connections(2)
            .min_connections(0)
            .acquire_timeout(Duration::from_secs(5))
            .connect_lazy_with(options);
        let positions = projections
            .iter()
            .map(|name| ((*name).to_owned(), watch::Sender::new(Seen::default())))
            .collect();
        let shared = Arc::new(Shared {
            positions,
            stall_after,
            waiters: Semaphore::new(max_waiters),
            max_waiters,
            recheck: Notify::new(),
        });
        let mut tasks = JoinSet::new();
        tasks.spawn(listen_forever(own.clone(), Arc::clone(&shared)));
        tasks.spawn(reread_forever(own, Arc::clone(&shared)));
        ProgressWatch {
            shared,
            _tasks: Arc::new(Tasks(std::sync::Mutex::new(tasks))),
        }
    }

    /// The checkpoint of `projection` as last heard (the start of the feed before the first
    /// read, or for a name this watch does not follow).
    pub fn position(&self, projection: &str) -> FeedPosition {
        self.shared
            .positions
            .get(projection)
            .map(|sender| sender.borrow().position)
            .unwrap_or_default()
    }

    /// Whether `projection` is known to be stalled (no progress while someone waited).
    pub fn stalled(&self, projection: &str) -> bool {
        self.shared
            .positions
            .get(projection)
            .is_some_and(|sender| sender.borrow().stalled)
    }

    /// Follows `projection`'s progress: [`Follower::next`] returns each time the watch moves it
    /// forward (`None` for a name this watch does not follow). Following holds no database
    /// connection and no waiter permit; the live updates (`gateway::live`) use one per process.
    pub fn follow(&self, projection: &str) -> Option<Follower> {
        self.shared.positions.get(projection).map(|sender| {
            let receiver = sender.subscribe();
            let last = receiver.borrow().position;
            Follower {
                receiver,
                last,
                _tasks: Arc::clone(&self._tasks),
            }
        })
    }

    /// How many requests are waiting right now.
    pub fn waiting(&self) -> usize {
        self.shared.max_waiters - self.shared.waiters.available_permits()
    }

    /// Waits until `projection` has applied `position`, for at most `timeout`, holding no
    /// database connection.
    ///
    /// [`Waited::Reached`] when it has (at once when it already had); [`Waited::TimedOut`]
    /// when `timeout` passed first; [`Waited::Skipped`], at once or as soon as it is known,
    /// when the projection is stalled (see the module documentation), the bound on concurrent
    /// waiters is reached, or the projection is not one this watch follows.
    pub async fn wait(
        &self,
        projection: &str,
        position: FeedPosition,
        timeout: Duration,
    ) -> Waited {
        let Some(sender) = self.shared.positions.get(projection) else {
            return Waited::Skipped(FeedPosition::default());
        };
        let mut receiver = sender.subscribe();
        let start = *receiver.borrow_and_update();
        if start.position >= position {
            return Waited::Reached(start.position);
        }
        if start.stalled {
            return Waited::Skipped(start.position);
        }
        let Ok(_permit) = self.shared.waiters.try_acquire() else {
            return Waited::Skipped(start.position);
        };
        if self.waiting() == 1 {
            // The re-reader may be in its idle pause: make it look now and then often.
            self.shared.recheck.notify_one();
        }
        let done = |seen: &Seen| seen.position >= position || seen.stalled;
        let first = self.shared.stall_after.min(timeout);
        let mut outcome = tokio::time::timeout(first, receiver.wait_for(done))
            .await
            .map(|seen| seen.map(|seen| *seen));
        if outcome.is_err() && first < timeout {
            // Nothing reached us for `stall_after`. If the projection did not move at all in
            // that time it is stalled: say so to every waiter, and to the ones to come.
            let stalled = sender.send_if_modified(|seen| {
                let stuck = seen.moved && seen.position == start.position && !seen.stalled;
                if stuck {
                    seen.stalled = true;
                    tracing::warn!(
                        projection,
                        stall_after = ?self.shared.stall_after,
                        "a read model made no progress while a request waited; answering without waiting until it moves"
                    );
                }
                stuck
            });
            if !stalled {
                // Moving, only slowly: wait for the rest of the timeout.
                outcome = tokio::time::timeout(timeout - first, receiver.wait_for(done))
                    .await
                    .map(|seen| seen.map(|seen| *seen));
            } else {
                outcome = Ok(Ok(*receiver.borrow()));
            }
        }
        match outcome {
            Ok(Ok(seen)) if seen.position >= position => Waited::Reached(seen.position),
            Ok(Ok(seen)) => Waited::Skipped(seen.position),
            // The sender lives as long as `self`: this cannot happen, but a wait must not panic.
            Ok(Err(_closed)) => Waited::TimedOut(start.position),
            Err(_elapsed) => Waited::TimedOut(receiver.borrow().position),
        }
    }
}

/// One projection's progress as a [`ProgressWatch`] hears it ([`ProgressWatch::follow`]).
pub struct Follower {
    receiver: watch::Receiver<Seen>,
    /// The position [`Follower::next`] returned last (at first: the one heard when following began).
    last: FeedPosition,
    /// Keeps the listener alive while someone follows.
    _tasks: Arc<Tasks>,
}

impl Follower {
    /// The checkpoint as last heard.
    pub fn position(&self) -> FeedPosition {
        self.receiver.borrow().position
    }

    /// Waits until the checkpoint is past the one returned last, and returns it. Moves that
    /// happen while the caller is busy are folded into one: the caller reads everything up to
    /// the newest position anyway.
    pub async fn next(&mut self) -> FeedPosition {
        loop {
            let now = self.receiver.borrow_and_update().position;
            if now > self.last {
                self.last = now;
                return now;
            }
            if self.receiver.changed().await.is_err() {
                // The sender lives as long as `_tasks`, which we hold: this cannot happen.
                std::future::pending::<()>().await;
            }
        }
    }
}

impl Shared {
    /// Moves `projection`'s watch forward (never back), which also ends a stall, and wakes its
    /// waiters if it moved.
    fn advance(&self, projection: &str, position: FeedPosition) {
        if let Some(sender) = self.positions.get(projection) {
            sender.send_if_modified(|seen| {
                if position > seen.position {
                    if seen.stalled {
                        tracing::info!(projection, "a stalled read model moves again");
                    }
                    *seen = Seen {
                        position,
                        stalled: false,
                        loaded: seen.loaded,
                        moved: seen.moved || seen.loaded,
                    };
                    true
                } else {
                    false
                }
            });
        }
    }

    fn busy(&self) -> bool {
        self.waiters.available_permits() < self.max_waiters
    }
}

/// Listens on every followed projection's channel until the watch is dropped, starting over
/// after any failure.
async fn listen_forever(pool: PgPool, shared: Arc<Shared>) {
    let channels: Vec<String> = shared.positions.keys().map(|n| notify_channel(n)).collect();
    let by_channel: HashMap<String, String> = shared
        .positions
        .keys()
        .map(|name| (notify_channel(name), name.clone()))
        .collect();
    loop {
        if let Err(error) = listen_once(&pool, &shared, &channels, &by_channel).await {
            tracing::warn!(%error, "read-your-writes listener failed; re-reading checkpoints until it is back");
        }
        shared.recheck.notify_one();
        tokio::time::sleep(RECONNECT_PAUSE).await;
    }
}

async fn listen_once(
    pool: &PgPool,
    shared: &Shared,
    channels: &[String],
    by_channel: &HashMap<String, String>,
) -> Result<(), sqlx::Error> {
    let mut listener = PgListener::connect_with(pool).await?;
    listener
        .listen_all(channels.iter().map(String::as_str))
        .await?;
    // Anything committed before LISTEN sent a notification nobody heard.
    shared.recheck.notify_one();
    loop {
        match listener.try_recv().await? {
            Some(notification) => {
                let projection = by_channel.get(notification.channel());
                match (projection, parse_notification(notification.payload())) {
                    (Some(projection), Some(position)) => shared.advance(projection, position),
                    _ => shared.recheck.notify_one(),
                }
            }
            // Reconnected: notifications sent meanwhile are lost.
            None => shared.recheck.notify_one(),
        }
    }
}

/// Re-reads every checkpoint periodically (and when asked), the safety net under the listener.
async fn reread_forever(pool: PgPool, shared: Arc<Shared>) {
    loop {
        if let Err(error) = reread(&pool, &shared).await {
            tracing::warn!(%error, "could not read the projection checkpoints");
        }
        let pause = if shared.busy() {
            RECHECK_BUSY
        } else {
            RECHECK_IDLE
        };
        tokio::select! {
            () = tokio::time::sleep(pause) => {}
            () = shared.recheck.notified() => {}
        }
    }
}

async fn reread(pool: &PgPool, shared: &Shared) -> Result<(), sqlx::Error> {
    let rows: Vec<(String, i64, i64)> = sqlx::query_as(
        "select projection, tx_id::text::bigint, global_position from projection_checkpoints",
    )
    .fetch_all(pool)
    .await?;
    for (projection, tx_id, global_position) in rows {
        shared.advance(&projection, position_from(tx_id, global_position));
    }
    for sender in shared.positions.values() {
        sender.send_if_modified(|seen| {
            seen.loaded = true;
            false
        });
    }
    Ok(())
}
