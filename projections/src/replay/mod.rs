//! Replay: rebuild read models from PostgreSQL into fresh tables and swap them in live.
//!
//! 1. Take the projection's replay lock (one replay per projection at a time) and drop tables
//!    left by a crashed replay.
//! 2. Create a fresh table set (`<table>__rebuild_<n>`) as copies of the live tables (see
//!    `tables`: the migrations are the only DDL) and fill it from the feed in big pages. The
//!    feed is read once for every projection being rebuilt, the next page while the current one
//!    is written, and only the payloads one of them reads ([`Projection::reads`]: no metadata,
//!    and no payload that only `event_counts` would be handed); each projection applies the
//!    pages in a task of its own, at its own pace (two pages queued at most), and writes a page
//!    with its own multi-row statements, in a transaction that does not wait for its WAL flush
//!    (a crash loses only rebuild tables, which the next replay drops). Once the fill ends,
//!    each projection makes the changes it noted during it ([`Projection::finish_fill`]:
//!    `qrcodes`' archives and claims, which its keyless rebuild table cannot take page by
//!    page, then its month counts); then the keys and plain indexes of projections that allow
//!    it are built, at the same time.
//! 3. Switch in one short transaction under the projection's write lock (the live projector
//!    pauses): catch the new tables up to the live checkpoint, drop the old tables, rename the
//!    new ones (and their indexes, constraints and identity sequences) to the live names, set
//!    the checkpoint. The gateway reads the old tables until that commit and the new ones after
//!    it.
//! 4. The live projector carries on from the new checkpoint, skipping what replay included.
//!
//! Every event is upcast ([`ReplayOptions::upcasters`]) as the live projector upcasts it, so
//! the two build the same rows.

mod switch;
mod tables;

use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::Utc;
use commands::Upcasters;
use commands::feed::{FeedFields, FeedPosition, StoredEvent};
use commands::feed_copy::FeedCopy;
use indicatif::{ProgressBar, ProgressStyle};
use sqlx::PgPool;
use tokio::sync::mpsc;

use crate::error::Error;
use crate::locks::{LockRole, SessionLock};
use crate::parking::{apply_with_parking, park_by_id};
use crate::projection::REBUILD_MARKER;
use crate::projection::{Projection, TableSet};
use crate::sql::execute_trusted;
use tables::RebuildTable;

/// How a replay runs.
#[derive(Debug, Clone)]
pub struct ReplayOptions {
    /// Events read from the feed per page (and applied per transaction).
    pub page_size: i64,
    /// Draw a progress bar on stderr (events/s, time left).
    pub show_progress: bool,
    /// How long the switch waits for the live projector and for readers of the old tables.
    pub switch_lock_timeout: Duration,
    /// Switch attempts before giving up (each one waits at most `switch_lock_timeout`).
    pub switch_attempts: u32,
    /// Upcasters applied to every event read ([`Upcasters::application`] unless a test brings
    /// its own); they must be the live projector's, or replay and live would disagree.
    pub upcasters: Arc<Upcasters>,
}

impl Default for ReplayOptions {
    fn default() -> ReplayOptions {
        ReplayOptions {
            page_size: 20_000,
            show_progress: false,
            switch_lock_timeout: Duration::from_secs(5),
            switch_attempts: 5,
            upcasters: Upcasters::application(),
        }
    }
}

/// What a replay did for one projection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplayReport {
    /// The projection.
    pub projection: String,
    /// Generation of the table set that is now live.
    pub generation: i64,
    /// Events read from the log (the whole feed up to where replay stopped reading).
    pub events: u64,
    /// Events caught up inside the switch (committed while replay was reading).
    pub caught_up_at_switch: u64,
    /// Events parked (again) as poison.
    pub parked: usize,
    /// The checkpoint the new tables went live with.
    pub position: FeedPosition,
    /// Time from start to switch.
    pub elapsed: Duration,
    /// Where that time went.
    pub phases: ReplayPhases,
}

/// Where one projection's replay spent its time: `balcao replay` logs it, so an operator sees
/// what a slow replay waited on, and the benchmarks print it (issue 37).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReplayPhases {
    /// The whole fill, shared by every projection replayed together: from the first page read
    /// to the last page applied by the slowest of them.
    pub fill: Duration,
    /// This projection's share of the fill spent applying pages (the rest it waited for them).
    pub applying: Duration,
    /// After the fill: the changes noted during it ([`Projection::finish_fill`]).
    pub noting: Duration,
    /// The keys and indexes left out during the fill, built beside the derived tables
    /// ([`Projection::derive_after_fill`]), and the rows a key refused parked.
    pub indexing: Duration,
    /// `vacuum (analyze)` of the rebuilt tables.
    pub vacuuming: Duration,
    /// The switch, under the projection's write lock (the catch-up included).
    pub switching: Duration,
}

/// Rebuilds the named projections (`"all"` or no name: every one) and swaps them in.
///
/// The entry point of `balcao replay`.
pub async fn run(
    pool: &PgPool,
    names: &[String],
    show_progress: bool,
) -> Result<Vec<ReplayReport>, Error> {
    let projections = select(names)?;
    let options = ReplayOptions {
        show_progress,
        ..ReplayOptions::default()
    };
    replay(pool, &projections, &options).await
}

/// The registered projections named in `names`; every one for no name or `"all"`.
pub fn select(names: &[String]) -> Result<Vec<Arc<dyn Projection>>, Error> {
    if names.is_empty() || names.iter().any(|n| n == "all") {
        return Ok(crate::registry::all());
    }
    names
        .iter()
        .map(|name| {
            crate::registry::by_name(name).ok_or_else(|| Error::UnknownProjection(name.clone()))
        })
        .collect()
}

/// Rebuilds `projections` from the feed (read once for all of them) and swaps each in.
pub async fn replay(
    pool: &PgPool,
    projections: &[Arc<dyn Projection>],
    options: &ReplayOptions,
) -> Result<Vec<ReplayReport>, Error> {
    let mut locks = Vec::with_capacity(projections.len());
    for projection in projections {
        match SessionLock::try_acquire(pool, LockRole::Replay, projection.name(), "balcao-replay")
            .await?
        {
            Some(lock) => locks.push(lock),
            None => {
                for lock in locks {
                    lock.release().await;
                }
                return Err(Error::ReplayInProgress(projection.name().to_owned()));
            }
        }
    }
    let outcome = replay_locked(pool, projections, options).await;
    for lock in locks {
        lock.release().await;
    }
    outcome
}

/// One projection's fresh table set being filled.
struct Build {
    projection: Arc<dyn Projection>,
    generation: i64,
    target: TableSet,
    tables: Vec<RebuildTable>,
    parked: usize,
    phases: ReplayPhases,
}

async fn replay_locked(
    pool: &PgPool,
    projections: &[Arc<dyn Projection>],
    options: &ReplayOptions,
) -> Result<Vec<ReplayReport>, Error> {
    let started = Instant::now();
    let started_at = Utc::now();
    let mut builds = Vec::with_capacity(projections.len());
    for projection in projections {
        drop_rebuild_tables(pool, &**projection).await?;
        let generation: i64 = sqlx::query_scalar("select nextval('projection_rebuild_generation')")
            .fetch_one(pool)
            .await?;
        let target = TableSet::rebuild(generation);
        let mut tx = pool.begin().await?;
        let mut tables = Vec::with_capacity(projection.tables().len());
        for live in projection.tables() {
            tables.push(
                tables::create(
                    &mut tx,
                    live,
                    &target.table(live),
                    projection.indexes_built_after_replay(),
                    projection.keys_built_after_replay(),
                )
                .await?,
            );
        }
        tx.commit().await?;
        builds.push(Build {
            projection: Arc::clone(projection),
            generation,
            target,
            tables,
            parked: 0,
            phases: ReplayPhases::default(),
        });
    }
    let outcome = fill_and_switch(pool, &mut builds, options, started, started_at).await;
    if outcome.is_err() {
        for build in &builds {
            // Best effort: the next replay drops leftovers anyway.
            if let Err(error) = drop_rebuild_tables(pool, &*build.projection).await {
                tracing::warn!(projection = build.projection.name(), %error, "cannot drop rebuild tables");
            }
        }
    }
    outcome
}

async fn fill_and_switch(
    pool: &PgPool,
    builds: &mut Vec<Build>,
    options: &ReplayOptions,
    started: Instant,
    started_at: chrono::DateTime<Utc>,
) -> Result<Vec<ReplayReport>, Error> {
    // Counting a large log takes a while: only for a bar someone watches.
    let total: i64 = if options.show_progress {
        sqlx::query_scalar(
            "select count(*) from events where tx_id < pg_snapshot_xmin(pg_current_snapshot())",
        )
        .fetch_one(pool)
        .await?
    } else {
        0
    };
    let bar = progress_bar(
        u64::try_from(total).unwrap_or_default(),
        options.show_progress,
    );
    let names: Vec<&str> = builds.iter().map(|b| b.projection.name()).collect();
    bar.set_message(format!("replay {}", names.join(", ")));

    // Read the next page while the current one is applied, and let each projection apply at
    // its own pace: one task per projection, each with a queue of pages (shared, not copied).
    // Applied one page at a time by all of them at once, in one task, every page waited for
    // the slowest (`payments`), and while `payments` folded a page the others' statements sat
    // answered but unread (their timers showed `event_counts` at 2.2 s of a 13.2 s fill).
    let (pages_tx, mut pages_rx) = mpsc::channel::<Vec<StoredEvent>>(2);
    // Only what one of them reads: on a large log most of the reading cost is payloads turned
    // into text and back, and most events are read by few projections.
    let fields = builds
        .iter()
        .map(|b| b.projection.reads())
        .reduce(|all, one| all.union(&one))
        .unwrap_or_else(FeedFields::everything);
    let reader = tokio::spawn(read_pages(
        pool.clone(),
        Arc::clone(&options.upcasters),
        options.page_size,
        fields,
        pages_tx,
    ));
    let mut queues = Vec::with_capacity(builds.len());
    let mut appliers = Vec::with_capacity(builds.len());
    for mut build in builds.drain(..) {
        let (queue, mut pages) = mpsc::channel::<Arc<Vec<StoredEvent>>>(PAGES_QUEUED);
        queues.push(queue);
        let (pool, upcasters) = (pool.clone(), Arc::clone(&options.upcasters));
        appliers.push(tokio::spawn(async move {
            while let Some(page) = pages.recv().await {
                let applying = Instant::now();
                if let Err(error) = apply_page(&pool, &mut build, &upcasters, &page).await {
                    return (build, Err(error));
                }
                build.phases.applying += applying.elapsed();
            }
            (build, Ok(()))
        }));
    }
    let filling = Instant::now();
    let mut position = FeedPosition::default();
    let mut events: u64 = 0;
    'pages: while let Some(page) = pages_rx.recv().await {
        position = page.last().map_or(position, |e| e.position);
        events += page.len() as u64;
        let count = page.len() as u64;
        let page = Arc::new(page);
        for queue in &queues {
            if queue.send(Arc::clone(&page)).await.is_err() {
                // That projection stopped on an error, reported below.
                break 'pages;
            }
        }
        if events > bar.length().unwrap_or_default() {
            bar.set_length(events);
        }
        bar.inc(count);
    }
    // Closing the queues ends each applier once it has applied what it holds (or stopped
    // early: dropping the pages' receiver ends the reader).
    drop(queues);
    drop(pages_rx);
    let mut failed = None;
    for applier in appliers {
        let (build, applied) = applier
            .await
            .map_err(|_| Error::Interrupted("a replay's page applier panicked"))?;
        builds.push(build);
        if let Err(error) = applied {
            failed.get_or_insert(error);
        }
    }
    if let Some(error) = failed {
        return Err(error);
    }
    reader
        .await
        .map_err(|_| Error::Interrupted("the replay's feed reader panicked"))??;
    bar.finish();
    let fill = filling.elapsed();
    for build in builds.iter_mut() {
        build.phases.fill = fill;
    }
    // One projection after the other: each one's `finish` holds a connection while its index
    // builds take others, so all at once they held every connection of `balcao replay`'s pool
    // (four) and waited for a fifth until the pool timed out (`replay --all`).
    for build in builds.iter_mut() {
        finish(pool, build).await?;
    }

    let mut reports = Vec::with_capacity(builds.len());
    for build in builds.iter_mut() {
        let switching = Instant::now();
        let switched = switch::switch(pool, build, position, options).await?;
        build.phases.switching = switching.elapsed();
        sqlx::query(
            "insert into projection_rebuilds
                 (projection, generation, events, tx_id, global_position, started_at)
             values ($1, $2, $3, $4::text::xid8, $5, $6)",
        )
        .bind(build.projection.name())
        .bind(build.generation)
        .bind(i64::try_from(events).unwrap_or(i64::MAX))
        .bind(switched.position.tx_id.to_string())
        .bind(switched.position.global_position)
        .bind(started_at)
        .execute(pool)
        .await?;
        tracing::info!(
            projection = build.projection.name(),
            generation = build.generation,
            events,
            caught_up = switched.caught_up,
            fill_ms = millis(build.phases.fill),
            applying_ms = millis(build.phases.applying),
            noting_ms = millis(build.phases.noting),
            indexing_ms = millis(build.phases.indexing),
            vacuuming_ms = millis(build.phases.vacuuming),
            switching_ms = millis(build.phases.switching),
            "replayed tables are live"
        );
        reports.push(ReplayReport {
            projection: build.projection.name().to_owned(),
            generation: build.generation,
            events,
            caught_up_at_switch: switched.caught_up,
            parked: build.parked + switched.parked,
            position: switched.position,
            elapsed: started.elapsed(),
            phases: build.phases,
        });
    }
    Ok(reports)
}

/// Reads the whole feed with one binary `COPY` ([`FeedCopy`]) and hands it on in pages of
/// `page_size`: one statement, one snapshot, and no per-row decoding by column name (paging
/// with [`commands::feed::read_after_with`] cost the replaying process a tenth of its samples more).
///
/// That one statement lasts as long as the whole fill, as the `COPY` waits for the pages to be
/// written (two pages ahead at most), so its own read-only transaction lifts the application's
/// `statement_timeout` (`set local`, on this connection only): a log the writers take longer
/// than the timeout to apply (a million payments) would otherwise be cancelled half read, as
/// issue 37 saw at 300,000 payments. Every statement that writes still runs under the timeout.
async fn read_pages(
    pool: PgPool,
    upcasters: Arc<Upcasters>,
    page_size: i64,
    fields: FeedFields,
    pages: mpsc::Sender<Vec<StoredEvent>>,
) -> Result<(), Error> {
    let page_size = usize::try_from(page_size).unwrap_or(1);
    let mut tx = pool.begin().await?;
    sqlx::query("set local statement_timeout = 0")
        .execute(&mut *tx)
        .await?;
    let mut feed = FeedCopy::start(&mut tx, fields).await?;
    while let Some(page) = feed.next_page(&upcasters, page_size).await? {
        if pages.send(page).await.is_err() {
            // The applier stopped (and reports why); dropping the copy ends it.
            return Ok(());
        }
    }
    drop(feed);
    tx.commit().await?;
    Ok(())
}

async fn apply_page(
    pool: &PgPool,
    build: &mut Build,
    upcasters: &Upcasters,
    page: &[StoredEvent],
) -> Result<(), Error> {
    // A page of other streams' events only: nothing to write (most pages, for most
    // projections, on a log of sales), so no transaction either.
    if let Some(streams) = build.projection.streams()
        && !page
            .iter()
            .any(|event| streams.contains(&event.stream_type.as_str()))
    {
        return Ok(());
    }
    let mut tx = pool.begin().await?;
    // Only rebuild tables change here, and a crash drops them anyway (the next replay starts
    // over): no reason to wait for each page's WAL flush. The switch commits durably.
    sqlx::query("set local synchronous_commit = off")
        .execute(&mut *tx)
        .await?;
    let target = build.target.filling();
    let parked = apply_with_parking(&mut tx, &*build.projection, &target, upcasters, page).await?;
    tx.commit().await?;
    for event in &parked {
        event.report(build.projection.name());
    }
    build.parked += parked.len();
    Ok(())
}

/// After the fill, before the switch: applies the changes the projection noted during the
/// fill ([`Projection::finish_fill`]); builds the keys and indexes left out while the
/// projection derives its other tables ([`Projection::derive_after_fill`]); removes and parks
/// the rows a key refuses and builds that key again; then gathers the planner's statistics.
async fn finish(pool: &PgPool, build: &mut Build) -> Result<(), Error> {
    let noting = Instant::now();
    let mut conn = pool.acquire().await?;
    build
        .projection
        .finish_fill(&mut conn, &build.target.filling())
        .await?;
    build.phases.noting = noting.elapsed();
    let indexing = Instant::now();
    // Every key and index of every table at once, each on its own connection, beside the
    // derived tables: index builds and that pass only read the tables, so they run side by
    // side, and one after the other they were a third of `replay --all`.
    let keys = build.tables.iter().flat_map(|table| &table.deferred_keys);
    let indexes = build
        .tables
        .iter()
        .flat_map(|table| table.deferred_indexes());
    let filling = build.target.filling();
    let derive = build.projection.derive_after_fill(&mut conn, &filling);
    // As many builds at once as the pool has connections besides `conn`: the others wait here,
    // not in the pool, whose acquire gives up after a few seconds (a build of `payments`'
    // indexes at 1M payments outlasted it: "pool timed out while waiting for an open
    // connection", issue 37).
    let builders = tokio::sync::Semaphore::new(
        usize::try_from(pool.options().get_max_connections().saturating_sub(1))
            .unwrap_or(1)
            .max(1),
    );
    let builders = &builders;
    let (keys, indexes, derived) = futures::future::join3(
        futures::future::join_all(keys.map(|key| async move {
            let _turn = builders.acquire().await;
            match build_index(pool, key.index.clone()).await {
                Ok(_) => Ok((key, true)),
                Err(sqlx::Error::Database(db))
                    if db.code().as_deref() == Some(UNIQUE_VIOLATION) =>
                {
                    Ok((key, false))
                }
                Err(error) => Err(error),
            }
        })),
        futures::future::try_join_all(indexes.map(|definition| async move {
            let _turn = builders.acquire().await;
            build_index(pool, definition.to_owned()).await
        })),
        derive,
    )
    .await;
    derived?;
    indexes?;
    drop(conn);
    for key in keys {
        let (key, built) = key?;
        if !built {
            // Rare (a poison event repeating a key): find the rows live refused, park their
            // events with the message live's insert got, and build the key again.
            let mut tx = pool.begin().await?;
            let refused = build
                .projection
                .remove_refused_by_keys(&mut tx, &build.target)
                .await?;
            let error = format!(
                "error returned from database: duplicate key value violates unique constraint \"{}\"",
                key.live
            );
            let parked = park_by_id(&mut tx, build.projection.name(), &refused, &error).await?;
            tx.commit().await?;
            for event in &parked {
                event.report(build.projection.name());
            }
            build.parked += parked.len();
            build_index(pool, key.index.clone()).await?;
        }
        if let Some(constraint) = &key.constraint {
            execute_trusted(pool, constraint.clone()).await?;
        }
    }
    build.phases.indexing = indexing.elapsed();
    let vacuuming = Instant::now();
    for table in &build.tables {
        table.analyze(pool).await?;
    }
    build.phases.vacuuming = vacuuming.elapsed();
    Ok(())
}

/// Whole milliseconds, for the log.
fn millis(elapsed: Duration) -> u64 {
    u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX)
}

/// Builds one index (or a key's unique index) in a transaction of its own, without parallel
/// workers: replay builds every index at once, so the cores are already taken, and each
/// build's workers only added processes to start and a merge to wait for (`finish` went from
/// 0.84 to 0.73 s on average over six runs, BENCHMARKS.md projections (h)).
///
/// Without `statement_timeout` (`set local`): the table is the rebuild's own, which no reader
/// or writer waits on until the switch, and a trigram index over `payments`' text (migration
/// 0028) takes longer than the default 10 s to build at a million payments (issue 37).
async fn build_index(pool: &PgPool, definition: String) -> Result<u64, sqlx::Error> {
    let mut tx = pool.begin().await?;
    sqlx::query("set local max_parallel_maintenance_workers = 0")
        .execute(&mut *tx)
        .await?;
    sqlx::query("set local statement_timeout = 0")
        .execute(&mut *tx)
        .await?;
    let done = execute_trusted(&mut *tx, definition).await?;
    tx.commit().await?;
    Ok(done)
}

/// Pages read ahead for each projection: the reader waits once the slowest one has this many
/// queued.
const PAGES_QUEUED: usize = 2;

/// SQLSTATE `unique_violation`.
const UNIQUE_VIOLATION: &str = "23505";

fn progress_bar(total: u64, visible: bool) -> ProgressBar {
    if !visible {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total);
    // pt-BR: operators read it.
    if let Ok(style) = ProgressStyle::with_template(
        // `{per_sec:0}`: a width of 0 is indicatif's "no decimals".
        "{msg} {wide_bar} {human_pos}/{human_len} eventos · {per_sec:0} · restam {eta_precise}",
    ) {
        bar.set_style(style);
    }
    bar
}

/// Drops every `<table>__rebuild_<n>` of this projection (left by a replay that died).
/// Only call it while holding the projection's replay lock.
async fn drop_rebuild_tables(pool: &PgPool, projection: &dyn Projection) -> Result<(), Error> {
    for table in projection.tables() {
        let pattern = format!("{table}{REBUILD_MARKER}").replace('_', "\\_") + "%";
        let leftovers: Vec<String> = sqlx::query_scalar(
            "select tablename::text from pg_tables
              where schemaname = current_schema() and tablename like $1",
        )
        .bind(&pattern)
        .fetch_all(pool)
        .await?;
        for leftover in leftovers {
            tracing::info!(table = %leftover, "dropping a rebuild table left by an earlier replay");
            execute_trusted(pool, format!("drop table if exists {}", quote(&leftover))).await?;
        }
    }
    Ok(())
}

/// Quotes an identifier read from the catalog.
fn quote(identifier: &str) -> String {
    format!("\"{}\"", identifier.replace('"', "\"\""))
}
