//! Secrets the servers generate once and share (`server_secrets`): side state beside the log,
//! like [`sessions`](crate::sessions) and [`vault`](crate::vault).

use sqlx::PgPool;

/// The secret named `name`: the stored one, or `fresh`, stored now, when there is none yet. Of
/// concurrent first starts one insert wins and every caller reads its value, so every server of
/// a cluster ends up with the same secret.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn get_or_store(pool: &PgPool, name: &str, fresh: &[u8]) -> Result<Vec<u8>, sqlx::Error> {
    sqlx::query(
        "insert into server_secrets (name, value) values ($1, $2) on conflict (name) do nothing",
    )
    .bind(name)
    .bind(fresh)
    .execute(pool)
    .await?;
    sqlx::query_scalar("select value from server_secrets where name = $1")
        .bind(name)
        .fetch_one(pool)
        .await
}
