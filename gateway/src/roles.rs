//! The roles the `balcao` binary runs: `serve`, `relay`, `project`, `replay`, `migrate`, and
//! `all` (every long-running role in one process).
//!
//! Long-running roles stop on SIGINT or SIGTERM: the HTTP server finishes the requests in flight,
//! the relay and projectors finish their current batch (their checkpoints make a stop at any
//! other point safe too).

use std::net::SocketAddr;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use commands::{CommandService, PgEventStore, PoolSettings};
use projections::CancellationToken;
use projections::projector::ProjectorConfig;
use projections::relay::RelayConfig;
use sqlx::postgres::PgConnectOptions;
use sqlx::{ConnectOptions, PgPool};
use tokio::net::TcpListener;
use tokio::task::JoinSet;

use crate::auth::Auth;
use crate::config::Settings;
use crate::html::Site;
use crate::mail::Mailer;
use crate::rate_limit::RateLimiter;
use crate::server::Limits;
use crate::spa::Webapp;
use crate::state::{AppState, Inner};

/// Which long-running roles a process runs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Roles {
    /// The HTTP gateway.
    pub serve: bool,
    /// The relay to NATS.
    pub relay: bool,
    /// The projectors.
    pub project: bool,
    /// Which projectors, by name; empty means all.
    pub projections: Vec<String>,
}

impl Roles {
    /// Every role: what `balcao all` and `make run` start.
    pub fn all() -> Roles {
        Roles {
            serve: true,
            relay: true,
            project: true,
            projections: Vec::new(),
        }
    }

    /// The operations listener's address when `BALCAO_OPS_LISTEN` is unset: port 9090 for a
    /// process that serves HTTP, 9091 for a relay, 9092 for projectors, so the roles can run
    /// apart on one machine without configuration.
    pub fn default_ops_listen(&self) -> SocketAddr {
        let port = if self.serve {
            9090
        } else if self.relay {
            9091
        } else {
            9092
        };
        SocketAddr::from(([127, 0, 0, 1], port))
    }
}

/// A process running some roles.
pub struct Running {
    /// Where the HTTP server listens, when `serve` runs.
    pub local_addr: Option<SocketAddr>,
    /// Where the operations listener (`/metrics`, `/healthz`, `/readyz`) listens.
    pub ops_addr: SocketAddr,
    shutdown: CancellationToken,
    tasks: JoinSet<anyhow::Result<()>>,
}

impl Running {
    /// A token that stops every role when cancelled.
    pub fn shutdown_token(&self) -> CancellationToken {
        self.shutdown.clone()
    }

    /// Waits until every role stopped (after the token is cancelled, or one failed).
    ///
    /// # Errors
    ///
    /// The first role that failed.
    pub async fn wait(mut self) -> anyhow::Result<()> {
        let mut first_error = None;
        while let Some(joined) = self.tasks.join_next().await {
            let result = joined.map_err(anyhow::Error::from).and_then(|r| r);
            if let Err(error) = result {
                tracing::error!(error = format!("{error:#}"), "a role stopped with an error");
                // One role failing stops the others: a half-running process is worse than none.
                self.shutdown.cancel();
                first_error.get_or_insert(error);
            }
        }
        first_error.map_or(Ok(()), Err)
    }

    /// Cancels every role and waits for them.
    ///
    /// # Errors
    ///
    /// The first role that failed.
    pub async fn stop(self) -> anyhow::Result<()> {
        self.shutdown.cancel();
        self.wait().await
    }
}

fn pool_settings(
    settings: &Settings,
    application_name: &str,
    max_connections: u32,
) -> PoolSettings {
    PoolSettings {
        max_connections,
        statement_timeout: Duration::from_millis(settings.statement_timeout_ms),
        idle_in_transaction_session_timeout: Duration::from_millis(
            settings.idle_in_transaction_timeout_ms,
        ),
        application_name: application_name.to_owned(),
        ..PoolSettings::default()
    }
}

async fn pool(
    settings: &Settings,
    application_name: &str,
    max_connections: u32,
) -> anyhow::Result<PgPool> {
    commands::connect(
        &settings.database_url,
        &pool_settings(settings, application_name, max_connections),
    )
    .await
    .with_context(|| {
        format!(
            "could not connect to PostgreSQL at {}",
            redact(&settings.database_url)
        )
    })
}

async fn nats(settings: &Settings) -> anyhow::Result<async_nats::Client> {
    async_nats::ConnectOptions::new()
        .name("balcao")
        .retry_on_initial_connect()
        .connect(&settings.nats_url)
        .await
        .with_context(|| format!("could not connect to NATS at {}", settings.nats_url))
}

fn stream_settings(settings: &Settings) -> projections::StreamSettings {
    projections::StreamSettings {
        name: settings.nats_stream.clone(),
        subject_prefix: settings.nats_subject_prefix.clone(),
        replicas: settings.nats_replicas,
        duplicate_window: Duration::from_secs(settings.nats_duplicate_window_secs),
        ..projections::StreamSettings::default()
    }
}

/// `balcao migrate`: creates the database when missing, then applies every migration.
///
/// # Errors
///
/// When the server cannot be reached or a migration fails.
pub async fn migrate(settings: &Settings) -> anyhow::Result<()> {
    let options = PgConnectOptions::from_str(&settings.database_url)
        .context("DATABASE_URL is not a PostgreSQL URL")?;
    let database = options.get_database().unwrap_or("postgres").to_owned();
    let mut admin = options
        .clone()
        .database("postgres")
        .connect()
        .await
        .with_context(|| {
            format!(
                "could not connect to PostgreSQL at {}",
                redact(&settings.database_url)
            )
        })?;
    let exists: bool =
        sqlx::query_scalar("select exists (select 1 from pg_database where datname = $1)")
            .bind(&database)
            .fetch_one(&mut admin)
            .await?;
    if !exists {
        let quoted = format!("\"{}\"", database.replace('"', "\"\""));
        // A concurrent creator wins harmlessly: the error is only "already exists".
        if let Err(error) = sqlx::query(sqlx::AssertSqlSafe(format!("create database {quoted}")))
            .execute(&mut admin)
            .await
        {
            tracing::warn!(%error, database, "create database failed; assuming another process created it");
        } else {
            tracing::info!(database, "created the database");
        }
    }
    // Migrations may outlast the application's statement timeout, so they run without one.
    let migrations_pool = commands::connect(
        &settings.database_url,
        &PoolSettings {
            max_connections: 1,
            statement_timeout: Duration::ZERO,
            ..PoolSettings::default()
        },
    )
    .await?;
    commands::migrate(&migrations_pool)
        .await
        .context("migrations failed")?;
    migrations_pool.close().await;
    tracing::info!("migrations applied");
    Ok(())
}

/// Starts `roles` and returns once the HTTP server (if any) and the operations listener are
/// listening.
///
/// # Errors
///
/// When PostgreSQL cannot be reached, or an address cannot be bound. NATS may be down: every
/// role waits for it (and says so in `/readyz`).
pub async fn start(settings: &Settings, roles: Roles) -> anyhow::Result<Running> {
    if settings.server.max_connections == 0 {
        anyhow::bail!("BALCAO_MAX_CONNECTIONS must be at least 1");
    }
    if settings.server.max_connections_per_address == 0 {
        anyhow::bail!("BALCAO_MAX_CONNECTIONS_PER_ADDRESS must be at least 1");
    }
    let shutdown = CancellationToken::new();
    let mut tasks = JoinSet::new();
    let mut local_addr = None;
    // Every role records metrics; the operations listener serves them.
    let metrics = crate::ops::metrics_handle();
    // One NATS connection serves every role of the process; clones share it.
    let client = nats(settings).await?;
    let mut watched = crate::ops::Watched {
        metrics,
        nats: client.clone(),
        serve: None,
        relay: None,
        project: None,
    };
    if roles.relay {
        let pool = pool(settings, "balcao-relay", 4).await?;
        let config = RelayConfig {
            stream: stream_settings(settings),
            ..RelayConfig::default()
        };
        let status = projections::status::Status::default();
        watched.relay = Some(crate::ops::RelayWatch {
            pool: pool.clone(),
            stream: config.stream.name.clone(),
            status: status.clone(),
        });
        tasks.spawn(supervise_relay(
            pool,
            client.clone(),
            config,
            status,
            shutdown.clone(),
        ));
    }
    if roles.project {
        let selected = projections::replay::select(&roles.projections)?;
        let pool = pool(settings, "balcao-projector", 8).await?;
        let client = client.clone();
        let config = ProjectorConfig {
            stream: stream_settings(settings),
            ..ProjectorConfig::default()
        };
        let status = projections::status::Status::default();
        watched.project = Some(crate::ops::ProjectWatch {
            pool: pool.clone(),
            projections: selected.iter().map(|p| p.name()).collect(),
            status: status.clone(),
        });
        let token = shutdown.clone();
        tasks.spawn(async move {
            projections::projector::run_observed(pool, client, selected, config, status, token)
                .await
                .context("projectors failed")
        });
    }
    let limits = Limits {
        header_read_timeout: Duration::from_millis(settings.server.header_read_timeout_ms),
        max_connections: settings.server.max_connections,
        // At accept only the TCP peer is known: behind a proxy of ours that is the proxy.
        max_connections_per_address: (settings.client_proxies() == 0)
            .then_some(settings.server.max_connections_per_address),
    };
    if roles.serve {
        let pool = pool(settings, "balcao-gateway", settings.db_pool_size).await?;
        let client = client.clone();
        let state = app_state(settings, pool.clone(), Some(client)).await?;
        state.live.end_streams_on(shutdown.clone());
        watched.serve = Some(pool.clone());
        let listener = TcpListener::bind(settings.listen)
            .await
            .with_context(|| format!("could not listen on {}", settings.listen))?;
        local_addr = Some(listener.local_addr()?);
        tracing::info!(address = %listener.local_addr()?, "gateway listening");
        let catch_up_state = state.clone();
        let refunds_state = state.clone();
        let webhooks_state = state.clone();
        let router = crate::build_router(state);
        let housekeeping_pool = pool.clone();
        let housekeeping_token = shutdown.clone();
        tasks.spawn(async move {
            crate::housekeeping::run(housekeeping_pool, housekeeping_token).await;
            Ok(())
        });
        // Issue 33: connected keys' banks read back, for the Pix whose webhook never arrived.
        let catch_up_token = shutdown.clone();
        tasks.spawn(async move {
            crate::bank_catch_up::run(catch_up_state, catch_up_token).await;
            Ok(())
        });
        // Issue 36: the accounts' events, queued from the log and sent to their webhooks.
        if settings.webhooks_send {
            let webhooks_token = shutdown.clone();
            tasks.spawn(async move {
                let settings = webhooks_state.webhooks;
                crate::webhook_sender::run(webhooks_state, settings, webhooks_token).await;
                Ok(())
            });
        }
        // Refunds asked of those banks, sent and followed until the bank settles them.
        let refunds_token = shutdown.clone();
        tasks.spawn(async move {
            crate::bank_refunds::run(refunds_state, refunds_token).await;
            Ok(())
        });
        // Issue 12: renewal charges and expiries of Premium periods.
        let billing = crate::billing::Billing::new(
            &settings.billing,
            settings.payments.sandbox_payments,
            &pool,
        )?;
        let (billing_pool, billing_token) = (pool.clone(), shutdown.clone());
        tasks.spawn(async move {
            crate::billing::renewals::run(billing_pool, billing, billing_token).await;
            Ok(())
        });
        crate::server::warn_if_over_file_limit(limits.max_connections);
        let token = shutdown.clone();
        tasks.spawn(async move {
            crate::server::serve(listener, router, limits, "public", token)
                .await
                .context("HTTP server failed")
        });
    }
    let ops_address = settings
        .server
        .ops_listen
        .unwrap_or_else(|| roles.default_ops_listen());
    let ops_listener = TcpListener::bind(ops_address)
        .await
        .with_context(|| format!("could not listen on {ops_address} (BALCAO_OPS_LISTEN)"))?;
    let ops_addr = ops_listener.local_addr()?;
    tracing::info!(address = %ops_addr, "operations listener (/metrics, /healthz, /readyz)");
    let ops_limits = Limits {
        max_connections: OPS_MAX_CONNECTIONS,
        max_connections_per_address: None,
        ..limits
    };
    let token = shutdown.clone();
    tasks.spawn(async move {
        crate::server::serve(
            ops_listener,
            crate::ops::router(watched),
            ops_limits,
            "ops",
            token,
        )
        .await
        .context("operations listener failed")
    });
    Ok(Running {
        local_addr,
        ops_addr,
        shutdown,
        tasks,
    })
}

/// Connections the operations listener holds at once: Prometheus and a few probes need far
/// fewer, and its own cap keeps it answering while the public listener is flooded.
const OPS_MAX_CONNECTIONS: usize = 32;

/// Longest pause between two attempts of a failing relay.
const RELAY_MAX_BACKOFF: Duration = Duration::from_secs(30);

/// Runs the relay, starting it again after a failure (NATS unreachable, a batch not acknowledged
/// within the retry window) instead of ending the process: in `balcao all` that would take the
/// gateway down with it for a transport outage. Only an invalid configuration ends it.
async fn supervise_relay(
    pool: PgPool,
    client: async_nats::Client,
    config: RelayConfig,
    status: projections::status::Status,
    shutdown: CancellationToken,
) -> anyhow::Result<()> {
    let mut backoff = Duration::from_secs(1);
    loop {
        let started = std::time::Instant::now();
        let outcome = projections::relay::run_observed(
            pool.clone(),
            client.clone(),
            config.clone(),
            status.clone(),
            shutdown.clone(),
        )
        .await;
        let error = match outcome {
            Ok(()) => return Ok(()),
            Err(error @ projections::Error::Config(_)) => {
                return Err(error).context("relay failed");
            }
            Err(error) => error,
        };
        if started.elapsed() > RELAY_MAX_BACKOFF {
            backoff = Duration::from_secs(1);
        }
        tracing::error!(%error, retry_in = ?backoff, "relay failed; starting it again");
        tokio::select! {
            () = shutdown.cancelled() => return Ok(()),
            () = tokio::time::sleep(backoff) => {}
        }
        backoff = (backoff * 2).min(RELAY_MAX_BACKOFF);
    }
}

/// The gateway's shared state for `settings`.
///
/// # Errors
///
/// When the mail settings are unusable, the token secret is too short, or PostgreSQL fails
/// while reading the generated token key.
pub async fn app_state(
    settings: &Settings,
    pool: PgPool,
    nats: Option<async_nats::Client>,
) -> anyhow::Result<AppState> {
    let tokens = crate::auth::token_keys(&pool, settings.auth.token_secret.as_deref()).await?;
    let mailer = Mailer::new(&settings.mail.mail_url, &settings.mail.mail_from)?;
    tracing::info!(mail = ?settings.mail, webapp = %settings.webapp_dir.display(), "gateway settings");
    let progress = read_your_writes_progress(settings, &pool);
    let live = live_updates(settings, &pool, &progress);
    let pool_for_payments = pool.clone();
    Ok(AppState::new(Inner {
        site: Site {
            url: settings.site_url.trim_end_matches('/').to_owned(),
            contact_email: settings.contact_email.clone(),
            analytics_id: settings
                .analytics_id
                .clone()
                .filter(|id| !id.trim().is_empty()),
            controller: crate::html::Controller::from_config(
                &settings.controller_name,
                settings.controller_cnpj.as_deref(),
                settings.dpo_contact.as_deref(),
                &settings.contact_email,
            )?,
        },
        qrcodes: CommandService::new(PgEventStore::new(pool.clone()), ()),
        accounts: CommandService::new(PgEventStore::new(pool.clone()), ()),
        pix_keys: commands::pix_keys::PixKeys::new(PgEventStore::new(pool.clone())),
        auth: Auth::new(&settings.auth, tokens.clone()),
        mailer: Arc::new(mailer),
        webapp: Webapp::new(settings.webapp_dir.clone()),
        pool,
        nats,
        create_limiter: RateLimiter::per_minute(settings.create_per_minute),
        key_limiter: RateLimiter::per_minute(settings.api_key_per_minute),
        webhooks: crate::webhook_sender::SenderSettings {
            allow_private: settings.webhooks_allow_private,
            first_retry_ms: settings.webhook_first_retry_ms.max(1),
        },
        trusted_proxies: settings.client_proxies(),
        progress,
        payments: crate::state::Payments::new(&settings.payments, &pool_for_payments)?,
        live,
        billing: crate::billing::Billing::new(
            &settings.billing,
            settings.payments.sandbox_payments,
            &pool_for_payments,
        )?,
        storage: crate::storage::Storage::from_url(&settings.storage.storage_url)?,
        payer_pages: crate::payer_cache::PayerPages::new(settings.payer_page_cache_bytes),
        clock: settings.clock.clone(),
    }))
}

/// One listener for every read model's progress, on connections of its own (not `pool`'s),
/// and the key that signs the positions handed to clients.
fn read_your_writes_progress(
    settings: &Settings,
    pool: &PgPool,
) -> crate::read_your_writes::Progress {
    let names: Vec<&str> = projections::all().iter().map(|p| p.name()).collect();
    let watch = projections::projector::ProgressWatch::start(
        pool,
        &names,
        settings.read_your_writes_waiters,
        Duration::from_millis(settings.read_your_writes_stall_ms),
    );
    crate::read_your_writes::Progress::new(
        watch,
        Duration::from_millis(settings.read_your_writes_ms),
    )
}

/// The live updates, following the payments and subscriptions projections through the read-your-writes listener
/// (no connection of their own but `pool`'s, for one query per move and per reconnect).
fn live_updates(
    settings: &Settings,
    pool: &PgPool,
    progress: &crate::read_your_writes::Progress,
) -> crate::live::Live {
    let follower = progress
        .watch()
        .follow(projections::payments::NAME)
        .expect("the watch follows every projection, payments included");
    let charges_follower = progress
        .watch()
        .follow(projections::subscriptions::NAME)
        .expect("the watch follows every projection, subscriptions included");
    crate::live::Live::start(
        pool.clone(),
        follower,
        charges_follower,
        crate::live::LiveLimits {
            max_clients: settings.server.live_max_clients,
            max_clients_per_address: settings.server.live_max_clients_per_address,
            heartbeat: Duration::from_millis(settings.server.live_heartbeat_ms.max(1)),
            max_stream: Duration::from_secs(settings.server.live_max_stream_secs.max(1)),
        },
    )
}

/// How long `balcao replay`'s tasks wait for one of its connections.
const REPLAY_ACQUIRE_TIMEOUT: Duration = Duration::from_secs(600);

/// `balcao replay`: rebuilds the named projections (or all) from PostgreSQL and swaps them in;
/// answers (and logs) what each replay did and where its time went.
///
/// # Errors
///
/// When PostgreSQL fails or a name is unknown.
pub async fn replay(
    settings: &Settings,
    names: &[String],
    show_progress: bool,
) -> anyhow::Result<Vec<projections::replay::ReplayReport>> {
    // Its tasks (the feed's reader, one applier per projection, the index builds) share four
    // connections and wait for one in turns: a wait is never a reason to fail a replay, as the
    // gateway's 5 s acquire timeout made one at 1M payments on a loaded machine ("pool timed
    // out while waiting for an open connection", issue 37). A statement still has its timeout.
    let pool = commands::connect(
        &settings.database_url,
        &PoolSettings {
            acquire_timeout: REPLAY_ACQUIRE_TIMEOUT,
            ..pool_settings(settings, "balcao-replay", 4)
        },
    )
    .await
    .with_context(|| {
        format!(
            "could not connect to PostgreSQL at {}",
            redact(&settings.database_url)
        )
    })?;
    let reports = projections::replay::run(&pool, names, show_progress).await?;
    for report in &reports {
        tracing::info!(
            projection = report.projection,
            events = report.events,
            generation = report.generation,
            elapsed_ms = u64::try_from(report.elapsed.as_millis()).unwrap_or(u64::MAX),
            "replay switched to the rebuilt tables"
        );
    }
    Ok(reports)
}

/// What `balcao account` does to an account.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccountAction {
    /// Disable: sign-in refused, every session ended.
    Disable,
    /// Enable again.
    Enable,
}

/// `balcao account disable|enable EMAIL`: finds the account by its sign-in e-mail and disables
/// or enables it. Answers the account id.
///
/// # Errors
///
/// When no account has that e-mail, the account was deleted, or PostgreSQL fails.
pub async fn account(
    settings: &Settings,
    action: AccountAction,
    email: &str,
) -> anyhow::Result<String> {
    use crate::auth::accounts;
    let pool = pool(settings, "balcao-admin", 2).await?;
    let service: CommandService<domain::account::Account> =
        CommandService::new(PgEventStore::new(pool.clone()), ());
    let account_id = accounts::find_by_email(&pool, email)
        .await?
        .with_context(|| format!("no account has the e-mail {email}"))?;
    let done = match action {
        AccountAction::Disable => accounts::disable(&pool, &service, &account_id).await,
        AccountAction::Enable => accounts::enable(&service, &account_id).await,
    };
    done.with_context(|| format!("account {account_id}"))?;
    pool.close().await;
    Ok(account_id)
}

/// Waits for SIGINT or SIGTERM, then cancels `token`.
pub async fn cancel_on_signal(token: CancellationToken) {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    let terminate = async {
        if let Ok(mut signal) =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            signal.recv().await;
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = interrupt => {},
        () = terminate => {},
        () = token.cancelled() => return,
    }
    tracing::info!("stopping: finishing work in flight");
    token.cancel();
}

/// The URL without its password, for messages.
fn redact(url: &str) -> String {
    match url.split_once('@') {
        Some((credentials, rest))
            if credentials.contains(':') && credentials.matches(':').count() > 1 =>
        {
            let scheme_end = credentials.find("://").map_or(0, |i| i + 3);
            let user = credentials[scheme_end..]
                .split(':')
                .next()
                .unwrap_or_default();
            format!("{}{user}:***@{rest}", &credentials[..scheme_end])
        }
        _ => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::redact;

    #[test]
    fn passwords_are_hidden_in_messages() {
        assert_eq!(
            redact("postgres://app:secret@db:5432/balcao"),
            "postgres://app:***@db:5432/balcao"
        );
        assert_eq!(
            redact("postgres://postgres@127.0.0.1/balcao"),
            "postgres://postgres@127.0.0.1/balcao"
        );
    }
}
