//! PostgreSQL advisory locks: who may run (one relay, one projector per projection, one replay
//! per projection) and who may write a projection's checkpoint at a given moment.
//!
//! Keys use the two-integer form: the first is a constant for all of Balcão, so operators can
//! find these locks in `pg_locks` (`classid = 1113680995`), the second a stable hash of the
//! role and name.

use std::time::Duration;

use sqlx::{ConnectOptions, Connection, PgConnection, PgPool};
use tokio_util::sync::CancellationToken;

use crate::error::Error;

/// First half of every Balcão advisory lock key ("Balc" in ASCII).
const LOCK_SPACE: i32 = 0x4261_6c63;

/// What a lock protects; part of the key so that different roles never collide.
#[derive(Debug, Clone, Copy)]
pub(crate) enum LockRole {
    /// The single active relay for one JetStream stream.
    Relay,
    /// The single active projector of one projection.
    Projector,
    /// Writes to one projection's read model and checkpoint (held per transaction).
    ProjectionWrites,
    /// The single replay of one projection.
    Replay,
}

impl LockRole {
    fn tag(self) -> &'static str {
        match self {
            LockRole::Relay => "relay",
            LockRole::Projector => "projector",
            LockRole::ProjectionWrites => "projection-writes",
            LockRole::Replay => "replay",
        }
    }
}

/// The second half of the key: FNV-1a over `role:name`, stable across builds and platforms.
pub(crate) fn lock_key(role: LockRole, name: &str) -> i32 {
    let mut hash: u32 = 0x811c_9dc5;
    for byte in role.tag().bytes().chain([b':']).chain(name.bytes()) {
        hash ^= u32::from(byte);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    i32::from_ne_bytes(hash.to_ne_bytes())
}

/// Takes the transaction-scoped lock on a projection's writes; released at commit or rollback.
///
/// The live projector takes it in every apply transaction and replay in its switch
/// transaction, so the two never write the same checkpoint concurrently.
pub(crate) async fn lock_projection_writes(
    conn: &mut PgConnection,
    projection: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("select pg_advisory_xact_lock($1, $2)")
        .bind(LOCK_SPACE)
        .bind(lock_key(LockRole::ProjectionWrites, projection))
        .execute(conn)
        .await?;
    Ok(())
}

/// A session-level advisory lock held on a dedicated connection (outside the pool).
///
/// PostgreSQL releases it when that connection closes, so a holder that dies (process killed,
/// task aborted, network gone) frees it for a waiting instance without any timeout logic.
/// Whoever holds it should write through [`SessionLock::conn`] where it matters: a write on a
/// dead connection fails, so a holder that lost the lock cannot keep writing.
pub(crate) struct SessionLock {
    conn: PgConnection,
    key: i32,
}

impl SessionLock {
    /// Waits (retrying every `retry`) until the lock is ours; `None` if `shutdown` fired first.
    pub(crate) async fn acquire(
        pool: &PgPool,
        role: LockRole,
        name: &str,
        application_name: &str,
        retry: Duration,
        shutdown: &CancellationToken,
    ) -> Result<Option<SessionLock>, Error> {
        let mut conn: Option<PgConnection> = None;
        let mut announced = false;
        loop {
            if shutdown.is_cancelled() {
                return Ok(None);
            }
            let attempt = async {
                if conn.is_none() {
                    conn = Some(connect(pool, application_name).await?);
                }
                let held = match conn.as_mut() {
                    Some(c) => try_lock(c, role, name).await?,
                    None => false,
                };
                Ok::<bool, sqlx::Error>(held)
            }
            .await;
            match attempt {
                Ok(true) => {
                    if let Some(conn) = conn.take() {
                        return Ok(Some(SessionLock {
                            conn,
                            key: lock_key(role, name),
                        }));
                    }
                }
                Ok(false) => {
                    if !announced {
                        tracing::info!(
                            role = role.tag(),
                            name,
                            "another instance holds the lock; waiting"
                        );
                        announced = true;
                    }
                }
                Err(error) => {
                    tracing::warn!(role = role.tag(), name, %error, "cannot try the lock; retrying");
                    conn = None;
                }
            }
            tokio::select! {
                () = shutdown.cancelled() => return Ok(None),
                () = tokio::time::sleep(retry) => {}
            }
        }
    }

    /// Takes the lock if it is free right now; `None` if someone else holds it.
    pub(crate) async fn try_acquire(
        pool: &PgPool,
        role: LockRole,
        name: &str,
        application_name: &str,
    ) -> Result<Option<SessionLock>, Error> {
        let mut conn = connect(pool, application_name).await?;
        if try_lock(&mut conn, role, name).await? {
            Ok(Some(SessionLock {
                conn,
                key: lock_key(role, name),
            }))
        } else {
            conn.close().await.ok();
            Ok(None)
        }
    }

    /// The connection that holds the lock.
    pub(crate) fn conn(&mut self) -> &mut PgConnection {
        &mut self.conn
    }

    /// Checks that the connection (and therefore the lock) is still alive.
    pub(crate) async fn still_held(&mut self) -> bool {
        self.conn.ping().await.is_ok()
    }

    /// Unlocks and closes the connection.
    pub(crate) async fn release(mut self) {
        let unlocked = sqlx::query("select pg_advisory_unlock($1, $2)")
            .bind(LOCK_SPACE)
            .bind(self.key)
            .execute(&mut self.conn)
            .await;
        if let Err(error) = unlocked {
            // Closing the connection releases it anyway.
            tracing::debug!(%error, "advisory unlock failed");
        }
        self.conn.close().await.ok();
    }
}

async fn connect(pool: &PgPool, application_name: &str) -> Result<PgConnection, sqlx::Error> {
    // A dedicated connection, not a pooled one: the lock must live exactly as long as its
    // holder, and the pool would keep the connection (and the lock) after the holder is gone.
    let options = (*pool.connect_options())
        .clone()
        .application_name(application_name);
    options.connect().await
}

async fn try_lock(
    conn: &mut PgConnection,
    role: LockRole,
    name: &str,
) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar("select pg_try_advisory_lock($1, $2)")
        .bind(LOCK_SPACE)
        .bind(lock_key(role, name))
        .fetch_one(conn)
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_differ_by_role_and_by_name() {
        let relay = lock_key(LockRole::Relay, "BALCAO_EVENTS");
        assert_ne!(relay, lock_key(LockRole::Projector, "BALCAO_EVENTS"));
        assert_ne!(relay, lock_key(LockRole::Relay, "OTHER"));
        assert_eq!(relay, lock_key(LockRole::Relay, "BALCAO_EVENTS"));
    }

    #[test]
    fn the_lock_space_reads_balc_in_pg_locks() {
        assert_eq!(LOCK_SPACE, 1_113_680_995);
    }
}
