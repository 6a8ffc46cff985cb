//! One process at a time per piece of bank work (a key's catch-up, a refund's attempt), across
//! every gateway: a PostgreSQL session advisory lock, taken without waiting and released with
//! the connection if the process dies.

use sqlx::PgPool;

/// Runs `work` holding the advisory lock named `name`; `None` when another session holds it.
///
/// # Errors
///
/// When PostgreSQL fails taking the lock.
pub async fn exclusively<T>(
    pool: &PgPool,
    name: &str,
    work: impl Future<Output = T>,
) -> Result<Option<T>, sqlx::Error> {
    let mut lock = pool.acquire().await?;
    let locked: bool = sqlx::query_scalar("select pg_try_advisory_lock(hashtextextended($1, 0))")
        .bind(name)
        .fetch_one(&mut *lock)
        .await?;
    if !locked {
        return Ok(None);
    }
    let done = work.await;
    // Released with the connection anyway; said, so the pooled connection goes back clean.
    let _ = sqlx::query("select pg_advisory_unlock(hashtextextended($1, 0))")
        .bind(name)
        .execute(&mut *lock)
        .await;
    Ok(Some(done))
}
