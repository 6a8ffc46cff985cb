//! Configuration, read once at start-up from the environment; command-line flags override it.
//!
//! | variable | default | meaning |
//! |---|---|---|
//! | `DATABASE_URL` | `postgres://postgres@127.0.0.1:5432/balcao` | PostgreSQL, the source of truth (created by `migrate` when missing) |
//! | `NATS_URL` | `nats://127.0.0.1:4222` | NATS with JetStream, the transport from the relay to the projectors |
//! | `BALCAO_LISTEN` | `127.0.0.1:8080` | address and port the HTTP server listens on |
//! | `BALCAO_SITE_URL` | `http://localhost:8080` | public base URL, used for canonical links, Open Graph and the sitemap |
//! | `BALCAO_CONTACT_EMAIL` | `contato@balcao.app` | contact address printed on the legal pages |
//! | `BALCAO_LOG_FORMAT` | `pretty` | `pretty` or `json` (one JSON object per line) |
//! | `RUST_LOG` | `info` | log filter (tracing-subscriber syntax) |
//! | `BALCAO_CREATE_PER_MINUTE` | `10` | public QR-code creations allowed per client address per minute |
//! | `BALCAO_TRUST_FORWARDED_FOR` | `false` | take the client address from `X-Forwarded-For` (only behind a proxy you run) |
//! | `BALCAO_READ_YOUR_WRITES_MS` | `3000` | how long a request waits for the read model to catch up with its own write |
//! | `BALCAO_ANALYTICS_ID` | unset | tag-manager measurement id; analytics stay off while unset, and load only after consent |
//! | `BALCAO_NATS_STREAM` | `BALCAO_EVENTS` | JetStream stream the relay publishes to |
//! | `BALCAO_NATS_SUBJECT_PREFIX` | `balcao.events` | subjects the stream captures (`<prefix>.<stream type>`) |
//! | `BALCAO_NATS_REPLICAS` | `1` | stream replicas (3 on a cluster) |
//! | `BALCAO_NATS_DUPLICATE_WINDOW_SECS` | `900` | JetStream duplicate window; must exceed the relay's retry window |
//! | `BALCAO_STATEMENT_TIMEOUT_MS` | `10000` | `statement_timeout` on the application's connections |
//! | `BALCAO_IDLE_IN_TRANSACTION_TIMEOUT_MS` | `15000` | `idle_in_transaction_session_timeout`, so a forgotten transaction cannot stall the feed |

use std::net::SocketAddr;

use clap::{Args, ValueEnum};

/// Log output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Pretty,
    /// One JSON object per line, for log shippers.
    Json,
}

/// Everything the roles need to know, from the environment or flags.
#[derive(Debug, Clone, Args)]
pub struct Settings {
    /// PostgreSQL connection URL.
    #[arg(
        long,
        env = "DATABASE_URL",
        default_value = "postgres://postgres@127.0.0.1:5432/balcao",
        global = true
    )]
    pub database_url: String,
    /// NATS server URL.
    #[arg(
        long,
        env = "NATS_URL",
        default_value = "nats://127.0.0.1:4222",
        global = true
    )]
    pub nats_url: String,
    /// Address and port to listen on.
    #[arg(
        long,
        env = "BALCAO_LISTEN",
        default_value = "127.0.0.1:8080",
        global = true
    )]
    pub listen: SocketAddr,
    /// Public base URL of the site, without a trailing slash.
    #[arg(
        long,
        env = "BALCAO_SITE_URL",
        default_value = "http://localhost:8080",
        global = true
    )]
    pub site_url: String,
    /// Contact e-mail shown on the legal pages.
    #[arg(
        long,
        env = "BALCAO_CONTACT_EMAIL",
        default_value = "contato@balcao.app",
        global = true
    )]
    pub contact_email: String,
    /// Log format.
    #[arg(
        long,
        env = "BALCAO_LOG_FORMAT",
        value_enum,
        default_value = "pretty",
        global = true
    )]
    pub log_format: LogFormat,
    /// Public QR-code creations per client address per minute.
    #[arg(
        long,
        env = "BALCAO_CREATE_PER_MINUTE",
        default_value_t = 10,
        global = true
    )]
    pub create_per_minute: u32,
    /// Trust `X-Forwarded-For` for the client address.
    #[arg(
        long,
        env = "BALCAO_TRUST_FORWARDED_FOR",
        default_value_t = false,
        global = true
    )]
    pub trust_forwarded_for: bool,
    /// Read-your-writes wait, in milliseconds.
    #[arg(
        long,
        env = "BALCAO_READ_YOUR_WRITES_MS",
        default_value_t = 3000,
        global = true
    )]
    pub read_your_writes_ms: u64,
    /// Analytics measurement id (off when unset).
    #[arg(long, env = "BALCAO_ANALYTICS_ID", global = true)]
    pub analytics_id: Option<String>,
    /// JetStream stream name.
    #[arg(
        long,
        env = "BALCAO_NATS_STREAM",
        default_value = "BALCAO_EVENTS",
        global = true
    )]
    pub nats_stream: String,
    /// Subject prefix of the stream.
    #[arg(
        long,
        env = "BALCAO_NATS_SUBJECT_PREFIX",
        default_value = "balcao.events",
        global = true
    )]
    pub nats_subject_prefix: String,
    /// JetStream stream replicas.
    #[arg(long, env = "BALCAO_NATS_REPLICAS", default_value_t = 1, global = true)]
    pub nats_replicas: usize,
    /// JetStream duplicate window, in seconds.
    #[arg(
        long,
        env = "BALCAO_NATS_DUPLICATE_WINDOW_SECS",
        default_value_t = 900,
        global = true
    )]
    pub nats_duplicate_window_secs: u64,
    /// `statement_timeout` for the application's connections, in milliseconds.
    #[arg(
        long,
        env = "BALCAO_STATEMENT_TIMEOUT_MS",
        default_value_t = 10_000,
        global = true
    )]
    pub statement_timeout_ms: u64,
    /// `idle_in_transaction_session_timeout` for the application's connections, in milliseconds.
    #[arg(
        long,
        env = "BALCAO_IDLE_IN_TRANSACTION_TIMEOUT_MS",
        default_value_t = 15_000,
        global = true
    )]
    pub idle_in_transaction_timeout_ms: u64,
}
