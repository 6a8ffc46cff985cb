//! Replay's fresh tables, made from the live ones: `migrations/` is the only DDL of a read model.
//!
//! `create table <rebuilt> (like <live> including all)` copies the columns (types, defaults,
//! `not null`, identity), check constraints, indexes (those behind primary keys and unique
//! constraints included), comments, storage settings and extended statistics. The columns'
//! statistics targets it leaves behind are copied here. What it cannot copy is the names
//! PostgreSQL generates for the copies' indexes and identity sequences, so each copy is paired
//! here with the live object it came from, and the switch renames it to that name once the live
//! table is gone. Foreign keys, triggers, policies and grants are not copied: read-model
//! tables have none (a test checks the copy against the live table).

use sqlx::{PgConnection, PgPool};

use super::quote;
use crate::error::Error;
use crate::sql::execute_trusted;

/// A rebuild table and what the switch needs to give it the live table's names.
#[derive(Debug)]
pub(super) struct RebuildTable {
    /// The live table's name.
    pub(super) live: String,
    /// The rebuild table's name.
    pub(super) rebuilt: String,
    /// `(copy, live)` index names.
    indexes: Vec<(String, String)>,
    /// `(copy, live)` names of the sequences behind identity columns.
    identity_sequences: Vec<(String, String)>,
    /// `(sequence, column)`: `serial`-style sequences the live table owns and the copy's default
    /// uses too; the copy takes them over before the live table is dropped (which would drop them).
    shared_sequences: Vec<(String, String)>,
    /// `create index` statements of the plain indexes left out while filling.
    deferred_indexes: Vec<String>,
    /// Primary key and unique indexes left out while filling: how to build each, and the live
    /// index's name (for the message of an event a key refuses).
    pub(super) deferred_keys: Vec<DeferredKey>,
}

/// A primary key or unique index to build after the fill.
///
/// A key behind a constraint is built in two steps: its index first, with `create unique
/// index`, whose lock lets the table's other index builds and its readers run beside it; then
/// the constraint over that index, which takes the table alone but only for a moment.
/// (`alter table … add primary key` builds the index under that exclusive lock, so every other
/// build on the table waited for it.)
#[derive(Debug)]
pub(super) struct DeferredKey {
    /// `create unique index …`.
    pub(super) index: String,
    /// `alter table … add constraint … using index …`, for a key behind a constraint.
    pub(super) constraint: Option<String>,
    /// The live index's name.
    pub(super) live: String,
}

/// One index of a table: its name, what it indexes and how, and whether it constrains rows.
#[derive(sqlx::FromRow)]
struct IndexRow {
    name: String,
    /// Everything that defines the index except its name and table, comparable between a table
    /// and its copy (which has the same column names and numbers).
    signature: String,
    /// Unique, or behind a constraint: it decides which rows go in, so it stays during the fill.
    constrains: bool,
    definition: String,
    /// Unique, and not an exclusion constraint: a key replay may build after the fill.
    key: bool,
    /// `(name, definition)` of the primary key or unique constraint behind it, if any (its
    /// index always has the constraint's name).
    key_constraint: Option<(String, String)>,
}

/// The indexes of `table`, those that are not b-trees first: replay builds its deferred
/// indexes in this order, a few at a time, and a GIN or GiST build is the longest by far (the
/// trigram index of `payments` alone is about half of that table's index work, BENCHMARKS.md),
/// and one started after the others would run alone while the other connections wait. (By name
/// it came third of seven; the order's effect alone was not measured.)
async fn indexes(conn: &mut PgConnection, table: &str) -> Result<Vec<IndexRow>, sqlx::Error> {
    sqlx::query_as(
        "select c.relname::text as name,
                concat_ws(' | ', am.amname, i.indisunique, i.indisprimary, i.indisexclusion,
                          i.indnkeyatts, i.indkey::text, i.indclass::text, i.indoption::text,
                          i.indcollation::text, pg_get_expr(i.indexprs, i.indrelid),
                          pg_get_expr(i.indpred, i.indrelid)) as signature,
                i.indisunique or exists (
                    select 1 from pg_constraint k
                     where k.conrelid = i.indrelid and k.conindid = i.indexrelid) as constrains,
                pg_get_indexdef(i.indexrelid) as definition,
                i.indisunique and not i.indisexclusion as key,
                (select row(k.conname::text, pg_get_constraintdef(k.oid))
                   from pg_constraint k
                  where k.conrelid = i.indrelid and k.conindid = i.indexrelid
                    and k.contype in ('p', 'u')) as key_constraint
           from pg_index i
           join pg_class c on c.oid = i.indexrelid
           join pg_am am on am.oid = c.relam
          where i.indrelid = to_regclass($1)
          order by am.amname = 'btree', c.relname",
    )
    .bind(quote(table))
    .fetch_all(conn)
    .await
}

/// `(column, sequence, identity?)` for every sequence a table's columns own.
async fn owned_sequences(
    conn: &mut PgConnection,
    table: &str,
) -> Result<Vec<(String, String, bool)>, sqlx::Error> {
    sqlx::query_as(
        "select a.attname::text, s.relname::text, d.deptype = 'i'
           from pg_depend d
           join pg_class s on s.oid = d.objid and s.relkind = 'S'
           join pg_attribute a on a.attrelid = d.refobjid and a.attnum = d.refobjsubid
          where d.classid = 'pg_class'::regclass and d.refclassid = 'pg_class'::regclass
            and d.refobjid = to_regclass($1) and d.deptype in ('a', 'i')
          order by 1",
    )
    .bind(quote(table))
    .fetch_all(conn)
    .await
}

/// Creates `rebuilt` as an empty copy of `live`, in the caller's transaction.
///
/// With `indexes_last`, the copy's plain indexes (neither unique nor behind a constraint) are
/// dropped and remembered: [`RebuildTable::finish`] builds them after the fill, in one sorted
/// pass instead of row by row. With `keys_last`, the primary key and unique indexes go too, and
/// replay builds [`RebuildTable::deferred_keys`] after removing the rows they would have
/// refused. Other indexes that decide which rows go in (exclusion constraints) always stay.
pub(super) async fn create(
    conn: &mut PgConnection,
    live: &str,
    rebuilt: &str,
    indexes_last: bool,
    keys_last: bool,
) -> Result<RebuildTable, Error> {
    execute_trusted(
        &mut *conn,
        format!(
            "create table {} (like {} including all)",
            quote(rebuilt),
            quote(live)
        ),
    )
    .await?;

    // `like` leaves the columns' statistics targets behind (`alter column … set statistics`):
    // without them `analyze` would gather what the live table was told not to.
    let targets: Vec<(String, i32)> = sqlx::query_as(
        "select attname::text, attstattarget::int
           from pg_attribute
          where attrelid = to_regclass($1) and attnum > 0 and not attisdropped
            and attstattarget >= 0
          order by attnum",
    )
    .bind(quote(live))
    .fetch_all(&mut *conn)
    .await?;
    if !targets.is_empty() {
        let columns: Vec<String> = targets
            .iter()
            .map(|(column, target)| {
                format!("alter column {} set statistics {target}", quote(column))
            })
            .collect();
        execute_trusted(
            &mut *conn,
            format!("alter table {} {}", quote(rebuilt), columns.join(", ")),
        )
        .await?;
    }

    let live_indexes = indexes(conn, live).await?;
    let mut copies = indexes(conn, rebuilt).await?;
    let mut table = RebuildTable {
        live: live.to_owned(),
        rebuilt: rebuilt.to_owned(),
        indexes: Vec::with_capacity(live_indexes.len()),
        identity_sequences: Vec::new(),
        shared_sequences: Vec::new(),
        deferred_indexes: Vec::new(),
        deferred_keys: Vec::new(),
    };
    for original in live_indexes {
        let Some(at) = copies
            .iter()
            .position(|c| c.signature == original.signature)
        else {
            return Err(Error::Config(format!(
                "index {} of {live} has no copy in {rebuilt}",
                original.name
            )));
        };
        let copy = copies.swap_remove(at);
        if indexes_last && !copy.constrains {
            execute_trusted(&mut *conn, format!("drop index {}", quote(&copy.name))).await?;
            table.deferred_indexes.push(copy.definition);
        } else if keys_last && copy.key {
            let constraint = match &copy.key_constraint {
                Some((constraint, definition)) => {
                    execute_trusted(
                        &mut *conn,
                        format!(
                            "alter table {} drop constraint {}",
                            quote(rebuilt),
                            quote(constraint)
                        ),
                    )
                    .await?;
                    // The constraint's index has the constraint's name, so `using index`
                    // keeps both.
                    Some(format!(
                        "alter table {} add constraint {} {} using index {}",
                        quote(rebuilt),
                        quote(constraint),
                        constraint_over_index(definition),
                        quote(&copy.name)
                    ))
                }
                None => {
                    execute_trusted(&mut *conn, format!("drop index {}", quote(&copy.name)))
                        .await?;
                    None
                }
            };
            table.deferred_keys.push(DeferredKey {
                index: copy.definition.clone(),
                constraint,
                live: original.name.clone(),
            });
        }
        table.indexes.push((copy.name, original.name));
    }

    let copy_sequences = owned_sequences(conn, rebuilt).await?;
    for (column, sequence, identity) in owned_sequences(conn, live).await? {
        match copy_sequences.iter().find(|(c, ..)| *c == column) {
            Some((_, copy, _)) if identity => {
                table.identity_sequences.push((copy.clone(), sequence));
            }
            // A `serial` column: the copy's default calls the live table's sequence.
            _ => table.shared_sequences.push((sequence, column)),
        }
    }
    Ok(table)
}

/// What `add constraint … using index` needs of a key constraint's definition (as
/// `pg_get_constraintdef` writes it: `PRIMARY KEY (id)`, `UNIQUE NULLS NOT DISTINCT (a, b)
/// DEFERRABLE INITIALLY DEFERRED`…): its kind and when it is checked. Its columns, included
/// columns and nulls rule come with the index.
fn constraint_over_index(definition: &str) -> String {
    let mut clause = String::from(if definition.starts_with("PRIMARY KEY") {
        "primary key"
    } else {
        "unique"
    });
    if definition.contains(" DEFERRABLE") && !definition.contains("NOT DEFERRABLE") {
        clause.push_str(" deferrable");
    }
    if definition.contains("INITIALLY DEFERRED") {
        clause.push_str(" initially deferred");
    }
    clause
}

impl RebuildTable {
    /// The `create index` statements of the plain indexes left out while filling, to build after
    /// the fill and before the switch.
    ///
    /// Replay builds them at the same time as the keys, each on its own connection (`create
    /// index` takes a lock that lets other index builds on the table run): one build keeps one
    /// core busy, and on `qrcodes` four one after the other took 0.33 s of a 1,000,000-event
    /// replay. [`analyze`](Self::analyze) comes after them, as its lock waits for index builds
    /// and it reads the expression indexes' values.
    pub(super) fn deferred_indexes(&self) -> impl Iterator<Item = &str> {
        self.deferred_indexes.iter().map(String::as_str)
    }

    /// Gathers the filled table's statistics, so that the first queries after the switch are
    /// planned from its real contents, and marks its pages all visible in the visibility map
    /// (`vacuum (analyze)`), so that a query that needs only an index's columns reads no table
    /// page: the transactions screen's totals with an amount range (issue 37, migration 0031),
    /// which otherwise read every payment of the period from the table, autovacuum being off on
    /// some servers.
    ///
    /// `vacuum` cannot run inside a transaction block, so the statement timeout (which a table of
    /// a million payments can outlast) is lifted for the session, on a connection closed after
    /// it rather than handed back to the pool without its timeout.
    pub(super) async fn analyze(&self, pool: &PgPool) -> Result<(), Error> {
        let mut conn = pool.acquire().await?;
        conn.close_on_drop();
        execute_trusted(&mut *conn, "set statement_timeout = 0".to_owned()).await?;
        execute_trusted(
            &mut *conn,
            format!("vacuum (analyze) {}", quote(&self.rebuilt)),
        )
        .await?;
        Ok(())
    }

    /// Replaces the live table by the rebuilt one under the live names (table, indexes and the
    /// constraints behind them, identity sequences), inside the switch's transaction.
    pub(super) async fn swap(&self, conn: &mut PgConnection) -> Result<(), Error> {
        let (live, rebuilt) = (&self.live, &self.rebuilt);
        for (sequence, column) in &self.shared_sequences {
            execute_trusted(
                &mut *conn,
                format!(
                    "alter sequence {} owned by {}.{}",
                    quote(sequence),
                    quote(rebuilt),
                    quote(column)
                ),
            )
            .await?;
        }
        execute_trusted(&mut *conn, format!("drop table {}", quote(live))).await?;
        execute_trusted(
            &mut *conn,
            format!("alter table {} rename to {}", quote(rebuilt), quote(live)),
        )
        .await?;
        // Renaming an index behind a constraint renames the constraint too.
        for (copy, original) in &self.indexes {
            execute_trusted(
                &mut *conn,
                format!("alter index {} rename to {}", quote(copy), quote(original)),
            )
            .await?;
        }
        for (copy, original) in &self.identity_sequences {
            execute_trusted(
                &mut *conn,
                format!(
                    "alter sequence {} rename to {}",
                    quote(copy),
                    quote(original)
                ),
            )
            .await?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::constraint_over_index;

    #[test]
    fn a_key_constraint_keeps_its_kind_and_its_checking_time_over_its_index() {
        assert_eq!(
            constraint_over_index("PRIMARY KEY (qrcode_id)"),
            "primary key"
        );
        assert_eq!(
            constraint_over_index("UNIQUE NULLS NOT DISTINCT (account_id, day)"),
            "unique"
        );
        assert_eq!(
            constraint_over_index("UNIQUE (a) DEFERRABLE INITIALLY DEFERRED"),
            "unique deferrable initially deferred"
        );
        assert_eq!(
            constraint_over_index("PRIMARY KEY (a) DEFERRABLE"),
            "primary key deferrable"
        );
    }
}
