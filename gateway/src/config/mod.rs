//! Configuration, read once at start-up from the environment; command-line flags override it.
//!
//! | variable | default | meaning |
//! |---|---|---|
//! | `DATABASE_URL` | `postgres://postgres@127.0.0.1:5432/balcao` | PostgreSQL, the source of truth (created by `migrate` when missing) |
//! | `NATS_URL` | `nats://127.0.0.1:4222` | NATS with JetStream, the transport from the relay to the projectors |
//! | `BALCAO_LISTEN` | `127.0.0.1:8080` | address and port the HTTP server listens on |
//! | `BALCAO_OPS_LISTEN` | `127.0.0.1:9090` (`serve`, `all`), `127.0.0.1:9091` (`relay`), `127.0.0.1:9092` (`project`) | the operations listener: `/metrics`, `/healthz` and `/readyz` for the roles the process runs; one per process, loopback unless you open it |
//! | `BALCAO_HEADER_READ_TIMEOUT_MS` | `10000` | a connection that has not sent a whole request header within this time (also an idle keep-alive connection) is closed |
//! | `BALCAO_MAX_CONNECTIONS` | `512` | open connections the public listener holds at once; beyond it a new connection gets a 503 and is closed (keep it below the file limit) |
//! | `BALCAO_MAX_CONNECTIONS_PER_ADDRESS` | `128` | of those, open connections from one address (an IPv6 /64); beyond it a 503 and closed. Only with `BALCAO_TRUSTED_PROXIES=0`: behind a proxy every connection comes from the proxy, which must cap its clients itself |
//! | `BALCAO_LIVE_MAX_CLIENTS` | `256` | live-update streams (payer pages, dashboards) open at once; beyond it a new one gets a 503 with `Retry-After` (keep it below `BALCAO_MAX_CONNECTIONS`) |
//! | `BALCAO_LIVE_MAX_CLIENTS_PER_ADDRESS` | `32` | of those, streams from one client address (an IPv6 /64; behind proxies the `X-Forwarded-For` entry `BALCAO_TRUSTED_PROXIES` designates); beyond it a 503 with `Retry-After` |
//! | `BALCAO_LIVE_HEARTBEAT_MS` | `15000` | longest silence on a live stream before a heartbeat comment line |
//! | `BALCAO_LIVE_MAX_STREAM_SECS` | `600` | a live stream ends after this long and the client reconnects with its last id (so a signed-out person stops receiving within it) |
//! | `BALCAO_SITE_URL` | `http://localhost:8080` | public base URL, used for canonical links, Open Graph and the sitemap |
//! | `BALCAO_CONTACT_EMAIL` | `contato@balcao.app` | contact address printed on the legal pages |
//! | `BALCAO_CONTROLLER_NAME` | `Balcão` | the data controller (LGPD art. 5, VI) the privacy policy names: the company's legal name |
//! | `BALCAO_CONTROLLER_CNPJ` | none | the controller's CNPJ, printed on the privacy policy when set (checked at start: a wrong check digit stops the server) |
//! | `BALCAO_DPO_CONTACT` | the contact e-mail | how to reach the data-protection officer (encarregado, LGPD art. 41), printed on the privacy policy |
//! | `BALCAO_LOG_FORMAT` | `pretty` | `pretty` or `json` (one JSON object per line) |
//! | `RUST_LOG` | `info` | log filter (tracing-subscriber syntax) |
//! | `BALCAO_CREATE_PER_MINUTE` | `10` | public QR-code creations allowed per client address per minute |
//! | `BALCAO_TRUSTED_PROXIES` | `0` | how many proxies you run in front of the gateway: the client address is the N-th `X-Forwarded-For` entry from the right (0: the TCP peer, the header is ignored) |
//! | `BALCAO_TRUST_FORWARDED_FOR` | `false` | deprecated: `true` reads as `BALCAO_TRUSTED_PROXIES=1` when that is unset or 0 |
//! | `BALCAO_READ_YOUR_WRITES_MS` | `3000` | how long a request waits for the read model to catch up with its own write |
//! | `BALCAO_PAYER_PAGE_CACHE_BYTES` | `4194304` (4 MiB) | memory for payer pages kept rendered and compressed; `0` turns the cache off |
//! | `BALCAO_ANALYTICS_ID` | unset | tag-manager measurement id; analytics stay off while unset, and load only after consent |
//! | `BALCAO_NATS_STREAM` | `BALCAO_EVENTS` | JetStream stream the relay publishes to |
//! | `BALCAO_NATS_SUBJECT_PREFIX` | `balcao.events` | subjects the stream captures (`<prefix>.<stream type>`) |
//! | `BALCAO_NATS_REPLICAS` | `1` | stream replicas (3 on a cluster) |
//! | `BALCAO_NATS_DUPLICATE_WINDOW_SECS` | `900` | JetStream duplicate window; must exceed the relay's retry window |
//! | `BALCAO_STATEMENT_TIMEOUT_MS` | `10000` | `statement_timeout` on the application's connections |
//! | `BALCAO_DB_POOL_SIZE` | `20` | connections the web server's (`serve`) pool may open to PostgreSQL; the rest of the service (`all`) holds at most 23 more: the relay's pool 4 and its lock 1, the projector's pool 8 and one lock per projection (8), 2 for read-your-writes waits |
//! | `BALCAO_IDLE_IN_TRANSACTION_TIMEOUT_MS` | `15000` | `idle_in_transaction_session_timeout`, so a forgotten transaction cannot stall the feed |
//! | `BALCAO_WEBAPP_DIR` | `webapp/dist` | the built dashboard (relative to the working directory); when missing, its pages answer 503 |
//! | `BALCAO_STORAGE_URL` | `file://.data/objects` | where uploaded sign logos are stored: `file://FOLDER` or `s3://BUCKET[/PREFIX]` with the standard `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_REGION`, `AWS_ENDPOINT`, `AWS_ALLOW_HTTP` (see [`crate::storage`]) |
//! | `BALCAO_MAIL_URL` | `file://.data/outbox` | where e-mail goes: `smtp://host:port`, `smtps://user:pass@host:port`, `smtp+starttls://user:pass@host:port`, or `file://folder` (one `.eml` per message, link logged) |
//! | `BALCAO_MAIL_FROM` | `Balcão <nao-responda@balcao.app>` | the sender of every e-mail |
//! | `BALCAO_TOKEN_SECRET` | unset | access-token signing key (at least 32 bytes); unset: a random key generated once and kept in the database (`server_secrets`), shared by every gateway |
//! | `BALCAO_COOKIE_SECURE` | `true` | mark the refresh cookie `Secure` (turn off only for plain-HTTP development on a host other than `localhost`) |
//! | `BALCAO_PASSWORD_MIN_LENGTH` | `6` | shortest password accepted, in characters (at most 128) |
//! | `BALCAO_PASSWORD_REQUIRE_LOWERCASE` | `false` | passwords need a lower-case letter |
//! | `BALCAO_PASSWORD_REQUIRE_UPPERCASE` | `false` | passwords need an upper-case letter |
//! | `BALCAO_PASSWORD_REQUIRE_NUMERIC` | `false` | passwords need a number |
//! | `BALCAO_PASSWORD_REQUIRE_NON_ALPHANUMERIC` | `false` | passwords need a symbol or a space |
//! | `BALCAO_AUTH_PER_MINUTE_PER_ADDRESS` | `20` | sign-in and recovery attempts allowed per client address per minute (each) |
//! | `BALCAO_AUTH_PER_MINUTE_PER_EMAIL` | `5` | sign-in and recovery attempts allowed per e-mail address per minute (each), from any client; also sign-ups per e-mail and verification e-mails per account |
//! | `BALCAO_SIGN_UP_PER_MINUTE_PER_ADDRESS` | `5` | sign-ups allowed per client address per minute |
//! | `BALCAO_INVITATIONS_PER_MINUTE_PER_ACCOUNT` | `10` | invitations (each an e-mail) an account may send per minute; per client address the `BALCAO_AUTH_PER_MINUTE_PER_ADDRESS` budget applies too |
//! | `BALCAO_SANDBOX_PAYMENTS` | `false` (`make run` sets `true`) | payer pages of an account's codes offer "Simular pagamento", which sends a synthetic API Pix delivery through the real receiver; keep it off in production |
//! | `BALCAO_API_PIX_HMAC_SECRET` | unset | when set, every API Pix delivery must carry `X-Balcao-Signature: sha256=<hex HMAC-SHA256 of the body>` (a second factor beside the URL's token) |
//! | `BALCAO_API_PIX_MAX_BODY_BYTES` | `1048576` | largest API Pix delivery accepted (413 beyond) |
//! | `BALCAO_BANK_API_ORIGIN` | unset | every bank profile's calls go to this origin, keeping the profile's paths (a bank's sandbox, the tests' simulator) |
//! | `BALCAO_BANK_EXTRA_ROOT_PEM` | unset | a CA (PEM text) trusted for bank calls besides the system's roots |
//! | `BALCAO_BANK_TIMEOUT_MS` | `15000` | longest wait for one call to an owner's bank |
//! | `BALCAO_BANK_CATCH_UP_SECS` | `300` | how often each connected key's bank is read back through `GET /pix` |
//! | `BALCAO_ASAAS_API_KEY` | unset | Asaas API v3 key: Premium is charged through Asaas; unset, the built-in sandbox provider charges it when `BALCAO_SANDBOX_PAYMENTS` is on (`make run`), and upgrades answer 503 otherwise |
//! | `BALCAO_ASAAS_BASE_URL` | `https://api-sandbox.asaas.com/v3` | Asaas environment: the sandbox, or `https://api.asaas.com/v3` in production |
//! | `BALCAO_ASAAS_WEBHOOK_TOKEN` | unset | the `authToken` registered with Asaas's webhook; deliveries to `/webhooks/asaas` must carry it in `asaas-access-token` (unset: that route answers 404) |
//! | `BALCAO_ASAAS_USER_AGENT` | `Balcao/1.0 (+https://balcao.app)` | the `User-Agent` Asaas requires |
//! | `BALCAO_ASAAS_TIMEOUT_MS` | `10000` | longest one Asaas request may take |
//! | `BALCAO_ASAAS_ATTEMPTS` | `3` | tries per Asaas call on a timeout, a connection failure, a 5xx or a 429 |
//! | `BALCAO_REFRESH_REUSE_INTERVAL_SECS` | `10` | how long a just-rotated refresh token still answers with the same successor (a retry after a lost answer, or parallel tabs); presented later it ends the session |

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, ValueEnum};

mod auth;
mod billing;
mod mail;
mod payments;
mod server;

pub use auth::*;
pub use billing::*;
pub use mail::*;
pub use payments::*;
pub use server::*;

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
    /// The data controller the privacy policy names (the company's legal name).
    #[arg(
        long,
        env = "BALCAO_CONTROLLER_NAME",
        default_value = "Balcão",
        global = true
    )]
    pub controller_name: String,
    /// The controller's CNPJ, printed on the privacy policy when set.
    #[arg(long, env = "BALCAO_CONTROLLER_CNPJ", global = true)]
    pub controller_cnpj: Option<String>,
    /// How to reach the data-protection officer (encarregado); the contact e-mail when unset.
    #[arg(long, env = "BALCAO_DPO_CONTACT", global = true)]
    pub dpo_contact: Option<String>,
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
    /// Developer API calls per key per minute (`/api/v1`), with bursts up to the same number.
    #[arg(
        long,
        env = "BALCAO_API_KEY_PER_MINUTE",
        default_value_t = 600,
        global = true
    )]
    pub api_key_per_minute: u32,
    /// Whether webhook addresses on this machine or a private network (and plain `http`) are
    /// taken: for tests and a sandbox on one machine, never in production.
    #[arg(
        long,
        env = "BALCAO_WEBHOOKS_ALLOW_PRIVATE",
        default_value_t = false,
        global = true
    )]
    pub webhooks_allow_private: bool,
    /// Whether this gateway queues and sends webhook deliveries (every gateway may; a cluster can
    /// leave it to some).
    #[arg(
        long,
        env = "BALCAO_WEBHOOKS_SEND",
        default_value_t = true,
        action = clap::ArgAction::Set,
        global = true
    )]
    pub webhooks_send: bool,
    /// The first wait after a failed webhook delivery, in milliseconds; each next one doubles,
    /// up to six hours, for three days.
    #[arg(
        long,
        env = "BALCAO_WEBHOOK_FIRST_RETRY_MS",
        default_value_t = domain::webhook::FIRST_RETRY_MS,
        global = true
    )]
    pub webhook_first_retry_ms: i64,
    /// Deprecated: `true` means one trusted proxy (see [`Settings::client_proxies`]).
    #[arg(
        long,
        env = "BALCAO_TRUST_FORWARDED_FOR",
        default_value_t = false,
        global = true
    )]
    pub trust_forwarded_for: bool,
    /// Proxies of ours in front of the gateway; the client address is the N-th
    /// `X-Forwarded-For` entry from the right (0: the TCP peer).
    #[arg(
        long,
        env = "BALCAO_TRUSTED_PROXIES",
        default_value_t = 0,
        global = true
    )]
    pub trusted_proxies: u8,
    /// Read-your-writes wait, in milliseconds.
    #[arg(
        long,
        env = "BALCAO_READ_YOUR_WRITES_MS",
        default_value_t = 3000,
        global = true
    )]
    pub read_your_writes_ms: u64,
    /// Most requests waiting for read models at once; beyond it, answers do not wait.
    #[arg(
        long,
        env = "BALCAO_READ_YOUR_WRITES_WAITERS",
        default_value_t = 1000,
        global = true
    )]
    pub read_your_writes_waiters: usize,
    /// A read model that shows no progress for this long while a request waits counts as
    /// stalled: requests answer without waiting for it until it moves again.
    #[arg(
        long,
        env = "BALCAO_READ_YOUR_WRITES_STALL_MS",
        default_value_t = 250,
        global = true
    )]
    pub read_your_writes_stall_ms: u64,
    /// Memory for served payer pages (HTML and its compressed forms), in bytes; 0 turns the
    /// cache off (`crate::payer_cache`).
    #[arg(
        long,
        env = "BALCAO_PAYER_PAGE_CACHE_BYTES",
        default_value_t = DEFAULT_PAYER_PAGE_CACHE_BYTES,
        global = true
    )]
    pub payer_page_cache_bytes: usize,
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
    /// Connections the web server's pool may open (the relay's and the projector's pools are
    /// fixed at 4 and 8; their locks and the read-your-writes listener take 11 more).
    #[arg(
        long,
        env = "BALCAO_DB_POOL_SIZE",
        default_value_t = 20,
        value_parser = clap::value_parser!(u32).range(1..),
        global = true
    )]
    pub db_pool_size: u32,
    /// `idle_in_transaction_session_timeout` for the application's connections, in milliseconds.
    #[arg(
        long,
        env = "BALCAO_IDLE_IN_TRANSACTION_TIMEOUT_MS",
        default_value_t = 15_000,
        global = true
    )]
    pub idle_in_transaction_timeout_ms: u64,
    /// The built dashboard's folder.
    #[arg(
        long,
        env = "BALCAO_WEBAPP_DIR",
        default_value = DEFAULT_WEBAPP_DIR,
        global = true
    )]
    pub webapp_dir: PathBuf,
    /// Listeners: the operations address, slow-client and connection limits.
    #[command(flatten)]
    pub server: ServerSettings,
    /// E-mail settings.
    #[command(flatten)]
    pub mail: MailSettings,
    /// Where uploaded files (sign logos) are stored.
    #[command(flatten)]
    pub storage: StorageSettings,
    /// Sign-in settings.
    #[command(flatten)]
    pub auth: AuthSettings,
    /// Payments: the API Pix receiver and the sandbox.
    #[command(flatten)]
    pub payments: PaymentSettings,
    /// Plans and billing: the Asaas adapter.
    #[command(flatten)]
    pub billing: BillingSettings,
    /// The clock calendar decisions read (`crate::clock`): never set from the environment.
    #[arg(skip)]
    pub clock: crate::clock::Clock,
}

impl Settings {
    /// How many rightmost `X-Forwarded-For` entries were written by our own proxies:
    /// `BALCAO_TRUSTED_PROXIES`, or 1 for the deprecated `BALCAO_TRUST_FORWARDED_FOR=true` (which
    /// used to read the *leftmost* entry, one the client controls).
    pub fn client_proxies(&self) -> u8 {
        if self.trusted_proxies == 0 && self.trust_forwarded_for {
            1
        } else {
            self.trusted_proxies
        }
    }
}

/// Default of `BALCAO_WEBAPP_DIR`.
pub const DEFAULT_WEBAPP_DIR: &str = "webapp/dist";

/// Memory for rendered payer pages by default: a few hundred pages (a page with its QR code is
/// ~10 KiB of HTML). Kept here, not in the cache, so the configuration imports no page.
pub const DEFAULT_PAYER_PAGE_CACHE_BYTES: usize = 4 << 20;
