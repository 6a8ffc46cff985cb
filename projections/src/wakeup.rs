//! Wake-ups from PostgreSQL `NOTIFY`, with a timeout so that polling covers missed ones.

use std::sync::Arc;
use std::time::Duration;

use sqlx::PgPool;
use sqlx::postgres::PgListener;
use tokio::sync::Notify;
use tokio::task::JoinHandle;

/// Listens on one channel in a background task and turns notifications into wake-ups.
///
/// The listener holds one connection of the pool while it runs. If it cannot listen (the
/// connection is lost, the pool is closed), waiting degrades to polling until it recovers.
pub(crate) struct Wakeup {
    notify: Arc<Notify>,
    task: JoinHandle<()>,
}

impl Wakeup {
    /// Starts listening on `channel`.
    pub(crate) fn listen(pool: PgPool, channel: String) -> Wakeup {
        let notify = Arc::new(Notify::new());
        let task = tokio::spawn(listen_forever(pool, channel, Arc::clone(&notify)));
        Wakeup { notify, task }
    }

    /// Returns at the next notification (or one that arrived since the last wait), or after
    /// `timeout`; true if a notification woke it.
    pub(crate) async fn wait(&self, timeout: Duration) -> bool {
        // `Notify` keeps one permit when nobody waits, so a notification that arrived while we
        // were busy still wakes the next wait; `notified()` is cancel-safe.
        tokio::select! {
            () = self.notify.notified() => true,
            () = tokio::time::sleep(timeout) => false,
        }
    }
}

impl Drop for Wakeup {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn listen_forever(pool: PgPool, channel: String, notify: Arc<Notify>) {
    loop {
        match listen_once(&pool, &channel, &notify).await {
            Ok(()) => return,
            Err(error) => {
                tracing::warn!(%channel, %error, "LISTEN failed; polling until it recovers");
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
    }
}

async fn listen_once(pool: &PgPool, channel: &str, notify: &Notify) -> Result<(), sqlx::Error> {
    let mut listener = PgListener::connect_with(pool).await?;
    listener.listen(channel).await?;
    loop {
        // `None` means the connection dropped and was re-established: anything sent meanwhile
        // is lost, so wake the waiter to look for itself.
        if listener.try_recv().await?.is_none() {
            tracing::debug!(%channel, "listener reconnected");
        }
        notify.notify_one();
    }
}
