//! Replay's notes of changes to codes already written: archives (and their undoing) and claims.
//!
//! During replay's fill `qrcodes` has no key yet (`keys_built_after_replay`: a sorted build at
//! the end is much cheaper than a B-tree insert per row), so an update by `qrcode_id` would
//! join a page's few changes with every row filled so far. With one archive in a hundred
//! events that join, page after page, cost more than the rest of the replay (12.5 s against
//! 6.7 s for 1,000,000 events, `BENCHMARKS.md`). So the fill notes each change in
//! `qrcode_replay_changes` and [`apply`] makes them all in one pass when it ends: for each code
//! the last archive state and the last claim, by version in the code's stream, exactly what
//! live's updates leave behind.

use sqlx::PgConnection;
use uuid::Uuid;

use chrono::{DateTime, Utc};

/// The notes' live name (always empty: live updates `qrcodes` directly).
pub const TABLE: &str = "qrcode_replay_changes";

/// Notes each code's archive state after a batch: `(code, archived_at or none, version)`.
pub(super) async fn note_archives(
    conn: &mut PgConnection,
    changes: &str,
    archive: &[(Uuid, Option<DateTime<Utc>>, i64)],
) -> Result<(), sqlx::Error> {
    let ids: Vec<Uuid> = archive.iter().map(|(id, ..)| *id).collect();
    let at: Vec<Option<DateTime<Utc>>> = archive.iter().map(|(_, at, _)| *at).collect();
    let versions: Vec<i64> = archive.iter().map(|(.., v)| *v).collect();
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "insert into {changes} (qrcode_id, version, kind, archived_at)
         select u.qrcode_id, u.version, 'archive', u.archived_at
           from unnest($1::uuid[], $2::timestamptz[], $3::bigint[])
             as u(qrcode_id, archived_at, version)"
    )))
    .bind(&ids)
    .bind(&at)
    .bind(&versions)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Makes every noted change in `codes` (the last of each kind per code) and empties the notes.
pub(super) async fn apply(
    conn: &mut PgConnection,
    codes: &str,
    changes: &str,
) -> Result<(), sqlx::Error> {
    // (kind, the columns it changes, what they take from the last note of that kind). A code
    // whose creation was parked has no row: its changes change nothing, as live.
    let kinds = [
        (
            "archive",
            "archived_at, version",
            "archived_at = c.archived_at, version = c.version",
        ),
        (
            "claim",
            "owner_id, claimed_by",
            "owner_id = c.owner_id, created_by = c.claimed_by",
        ),
    ];
    for (kind, columns, set) in kinds {
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "update {codes} q set {set}
               from (select distinct on (qrcode_id) qrcode_id, {columns}
                       from {changes} where kind = '{kind}'
                      order by qrcode_id, version desc) c
              where q.qrcode_id = c.qrcode_id"
        )))
        .execute(&mut *conn)
        .await?;
    }
    sqlx::query(sqlx::AssertSqlSafe(format!("truncate {changes}")))
        .execute(&mut *conn)
        .await?;
    Ok(())
}
