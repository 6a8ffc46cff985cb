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
    /// cache off (`pages::payer_cache`).
    #[arg(
        long,
        env = "BALCAO_PAYER_PAGE_CACHE_BYTES",
        default_value_t = crate::pages::payer_cache::DEFAULT_BUDGET_BYTES,
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
/// Default of `BALCAO_MAIL_URL`.
pub const DEFAULT_MAIL_URL: &str = "file://.data/outbox";
/// Default of `BALCAO_MAIL_FROM`.
pub const DEFAULT_MAIL_FROM: &str = "Balcão <nao-responda@balcao.app>";
/// Default of `BALCAO_PASSWORD_MIN_LENGTH`.
pub const DEFAULT_PASSWORD_MIN_LENGTH: usize = 6;
/// Default of `BALCAO_AUTH_PER_MINUTE_PER_ADDRESS`.
pub const DEFAULT_AUTH_PER_MINUTE_PER_ADDRESS: u32 = 20;
/// Default of `BALCAO_AUTH_PER_MINUTE_PER_EMAIL`.
pub const DEFAULT_AUTH_PER_MINUTE_PER_EMAIL: u32 = 5;
/// Default of `BALCAO_SIGN_UP_PER_MINUTE_PER_ADDRESS`.
pub const DEFAULT_SIGN_UP_PER_MINUTE_PER_ADDRESS: u32 = 5;
/// Default of `BALCAO_INVITATIONS_PER_MINUTE_PER_ACCOUNT`.
pub const DEFAULT_INVITATIONS_PER_MINUTE_PER_ACCOUNT: u32 = 10;
/// Default of `BALCAO_REFRESH_REUSE_INTERVAL_SECS`.
pub const DEFAULT_REFRESH_REUSE_INTERVAL_SECS: u64 = 10;

/// Default of `BALCAO_HEADER_READ_TIMEOUT_MS`.
pub const DEFAULT_HEADER_READ_TIMEOUT_MS: u64 = 10_000;
/// Default of `BALCAO_MAX_CONNECTIONS`: half of the usual soft file limit (1024), so the
/// process keeps descriptors for its database and NATS connections and the operations listener.
pub const DEFAULT_MAX_CONNECTIONS: usize = 512;

/// The listeners' settings besides the public address.
#[derive(Debug, Clone, Args)]
pub struct ServerSettings {
    /// Address and port of the operations listener (`/metrics`, `/healthz`, `/readyz`); unset:
    /// `127.0.0.1:9090` for `serve` and `all`, `:9091` for `relay`, `:9092` for `project`.
    #[arg(long, env = "BALCAO_OPS_LISTEN", global = true)]
    pub ops_listen: Option<SocketAddr>,
    /// Longest wait for a whole request header (and between requests on a kept-alive
    /// connection), in milliseconds.
    #[arg(
        long,
        env = "BALCAO_HEADER_READ_TIMEOUT_MS",
        default_value_t = DEFAULT_HEADER_READ_TIMEOUT_MS,
        global = true
    )]
    pub header_read_timeout_ms: u64,
    /// Most connections the public listener holds open at once.
    #[arg(
        long,
        env = "BALCAO_MAX_CONNECTIONS",
        default_value_t = DEFAULT_MAX_CONNECTIONS,
        global = true
    )]
    pub max_connections: usize,
    /// Most connections the public listener holds open at once from one address (an IPv6 /64);
    /// applied only with `BALCAO_TRUSTED_PROXIES=0`, since behind a proxy every connection
    /// comes from the proxy.
    #[arg(
        long,
        env = "BALCAO_MAX_CONNECTIONS_PER_ADDRESS",
        default_value_t = DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
        global = true
    )]
    pub max_connections_per_address: usize,
    /// Most live-update streams (server-sent events) open at once; keep it below
    /// `BALCAO_MAX_CONNECTIONS` so streams never take every connection.
    #[arg(
        long,
        env = "BALCAO_LIVE_MAX_CLIENTS",
        default_value_t = DEFAULT_LIVE_MAX_CLIENTS,
        global = true
    )]
    pub live_max_clients: usize,
    /// Most live-update streams open at once from one client address (an IPv6 /64; the
    /// `X-Forwarded-For` entry `BALCAO_TRUSTED_PROXIES` designates).
    #[arg(
        long,
        env = "BALCAO_LIVE_MAX_CLIENTS_PER_ADDRESS",
        default_value_t = DEFAULT_LIVE_MAX_CLIENTS_PER_ADDRESS,
        global = true
    )]
    pub live_max_clients_per_address: usize,
    /// Longest silence on a live stream before a heartbeat comment, in milliseconds.
    #[arg(
        long,
        env = "BALCAO_LIVE_HEARTBEAT_MS",
        default_value_t = DEFAULT_LIVE_HEARTBEAT_MS,
        global = true
    )]
    pub live_heartbeat_ms: u64,
    /// Longest a live stream stays open before the client reconnects, in seconds.
    #[arg(
        long,
        env = "BALCAO_LIVE_MAX_STREAM_SECS",
        default_value_t = DEFAULT_LIVE_MAX_STREAM_SECS,
        global = true
    )]
    pub live_max_stream_secs: u64,
}

/// Default of `BALCAO_LIVE_MAX_CLIENTS`: half the default connection cap.
pub const DEFAULT_LIVE_MAX_CLIENTS: usize = 256;
/// Default of `BALCAO_MAX_CONNECTIONS_PER_ADDRESS`: a quarter of the default connection cap,
/// twenty times what a browser opens to one host: room for many people behind one NAT, or a
/// bank's burst of deliveries from one address.
pub const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS: usize = 128;
/// Default of `BALCAO_LIVE_MAX_CLIENTS_PER_ADDRESS`: an eighth of the default stream cap, room
/// for a shop's devices and its customers' phones behind one NAT.
pub const DEFAULT_LIVE_MAX_CLIENTS_PER_ADDRESS: usize = 32;
/// Default of `BALCAO_LIVE_HEARTBEAT_MS`: below the idle timeouts of common proxies (60 s).
pub const DEFAULT_LIVE_HEARTBEAT_MS: u64 = 15_000;
/// Default of `BALCAO_LIVE_MAX_STREAM_SECS`.
pub const DEFAULT_LIVE_MAX_STREAM_SECS: u64 = 600;

impl Default for ServerSettings {
    fn default() -> Self {
        ServerSettings {
            ops_listen: None,
            header_read_timeout_ms: DEFAULT_HEADER_READ_TIMEOUT_MS,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            max_connections_per_address: DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
            live_max_clients: DEFAULT_LIVE_MAX_CLIENTS,
            live_max_clients_per_address: DEFAULT_LIVE_MAX_CLIENTS_PER_ADDRESS,
            live_heartbeat_ms: DEFAULT_LIVE_HEARTBEAT_MS,
            live_max_stream_secs: DEFAULT_LIVE_MAX_STREAM_SECS,
        }
    }
}

/// Where e-mail goes and who sends it.
#[derive(Clone, Args)]
pub struct MailSettings {
    /// Mail transport URL: `smtp://`, `smtps://`, `smtp+starttls://` or `file://`.
    #[arg(long, env = "BALCAO_MAIL_URL", default_value = DEFAULT_MAIL_URL, global = true)]
    pub mail_url: String,
    /// Sender of every e-mail.
    #[arg(long, env = "BALCAO_MAIL_FROM", default_value = DEFAULT_MAIL_FROM, global = true)]
    pub mail_from: String,
}

impl std::fmt::Debug for MailSettings {
    /// The URL without its password.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MailSettings")
            .field("mail_url", &crate::mail::redact(&self.mail_url))
            .field("mail_from", &self.mail_from)
            .finish()
    }
}

impl Default for MailSettings {
    fn default() -> Self {
        MailSettings {
            mail_url: DEFAULT_MAIL_URL.to_owned(),
            mail_from: DEFAULT_MAIL_FROM.to_owned(),
        }
    }
}

/// Where uploaded files (the sign logos) are stored: see [`crate::storage`].
#[derive(Debug, Clone, Args)]
pub struct StorageSettings {
    /// `file://FOLDER` (default `file://.data/objects`) or `s3://BUCKET[/PREFIX]` (credentials
    /// and endpoint from `AWS_*`).
    #[arg(long, env = "BALCAO_STORAGE_URL", default_value = crate::storage::DEFAULT_STORAGE_URL, global = true)]
    pub storage_url: String,
}

impl Default for StorageSettings {
    fn default() -> Self {
        StorageSettings {
            storage_url: crate::storage::DEFAULT_STORAGE_URL.to_owned(),
        }
    }
}

/// Sign-in: token key, cookie, password policy and rate limits.
#[derive(Clone, Args)]
pub struct AuthSettings {
    /// Access-token signing key (at least 32 bytes); unset: generated once into the database.
    #[arg(
        long,
        env = "BALCAO_TOKEN_SECRET",
        hide_env_values = true,
        global = true
    )]
    pub token_secret: Option<String>,
    /// Mark the refresh cookie `Secure`.
    #[arg(
        long,
        env = "BALCAO_COOKIE_SECURE",
        default_value_t = true,
        action = clap::ArgAction::Set,
        global = true
    )]
    pub cookie_secure: bool,
    /// Shortest password, in characters.
    #[arg(
        long,
        env = "BALCAO_PASSWORD_MIN_LENGTH",
        default_value_t = DEFAULT_PASSWORD_MIN_LENGTH,
        global = true
    )]
    pub password_min_length: usize,
    /// Passwords need a lower-case letter.
    #[arg(
        long,
        env = "BALCAO_PASSWORD_REQUIRE_LOWERCASE",
        default_value_t = false,
        global = true
    )]
    pub password_require_lowercase: bool,
    /// Passwords need an upper-case letter.
    #[arg(
        long,
        env = "BALCAO_PASSWORD_REQUIRE_UPPERCASE",
        default_value_t = false,
        global = true
    )]
    pub password_require_uppercase: bool,
    /// Passwords need a number.
    #[arg(
        long,
        env = "BALCAO_PASSWORD_REQUIRE_NUMERIC",
        default_value_t = false,
        global = true
    )]
    pub password_require_numeric: bool,
    /// Passwords need a symbol or a space.
    #[arg(
        long,
        env = "BALCAO_PASSWORD_REQUIRE_NON_ALPHANUMERIC",
        default_value_t = false,
        global = true
    )]
    pub password_require_non_alphanumeric: bool,
    /// Sign-in and recovery attempts per client address per minute.
    #[arg(
        long,
        env = "BALCAO_AUTH_PER_MINUTE_PER_ADDRESS",
        default_value_t = DEFAULT_AUTH_PER_MINUTE_PER_ADDRESS,
        global = true
    )]
    pub auth_per_minute_per_address: u32,
    /// Sign-in and recovery attempts per e-mail address per minute.
    #[arg(
        long,
        env = "BALCAO_AUTH_PER_MINUTE_PER_EMAIL",
        default_value_t = DEFAULT_AUTH_PER_MINUTE_PER_EMAIL,
        global = true
    )]
    pub auth_per_minute_per_email: u32,
    /// Sign-ups per client address per minute.
    #[arg(
        long,
        env = "BALCAO_SIGN_UP_PER_MINUTE_PER_ADDRESS",
        default_value_t = DEFAULT_SIGN_UP_PER_MINUTE_PER_ADDRESS,
        global = true
    )]
    pub sign_up_per_minute_per_address: u32,
    /// Invitations an account may send per minute.
    #[arg(
        long,
        env = "BALCAO_INVITATIONS_PER_MINUTE_PER_ACCOUNT",
        default_value_t = DEFAULT_INVITATIONS_PER_MINUTE_PER_ACCOUNT,
        global = true
    )]
    pub invitations_per_minute_per_account: u32,
    /// Seconds a just-rotated refresh token still answers with the same successor.
    #[arg(
        long,
        env = "BALCAO_REFRESH_REUSE_INTERVAL_SECS",
        default_value_t = DEFAULT_REFRESH_REUSE_INTERVAL_SECS,
        global = true
    )]
    pub refresh_reuse_interval_secs: u64,
}

impl std::fmt::Debug for AuthSettings {
    /// Everything but the secret.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AuthSettings")
            .field("token_secret", &self.token_secret.as_ref().map(|_| "***"))
            .field("cookie_secure", &self.cookie_secure)
            .field("password_min_length", &self.password_min_length)
            .field(
                "password_require_lowercase",
                &self.password_require_lowercase,
            )
            .field(
                "password_require_uppercase",
                &self.password_require_uppercase,
            )
            .field("password_require_numeric", &self.password_require_numeric)
            .field(
                "password_require_non_alphanumeric",
                &self.password_require_non_alphanumeric,
            )
            .field(
                "auth_per_minute_per_address",
                &self.auth_per_minute_per_address,
            )
            .field("auth_per_minute_per_email", &self.auth_per_minute_per_email)
            .field(
                "sign_up_per_minute_per_address",
                &self.sign_up_per_minute_per_address,
            )
            .field(
                "invitations_per_minute_per_account",
                &self.invitations_per_minute_per_account,
            )
            .field(
                "refresh_reuse_interval_secs",
                &self.refresh_reuse_interval_secs,
            )
            .finish()
    }
}

impl Default for AuthSettings {
    fn default() -> Self {
        AuthSettings {
            token_secret: None,
            cookie_secure: true,
            password_min_length: DEFAULT_PASSWORD_MIN_LENGTH,
            password_require_lowercase: false,
            password_require_uppercase: false,
            password_require_numeric: false,
            password_require_non_alphanumeric: false,
            auth_per_minute_per_address: DEFAULT_AUTH_PER_MINUTE_PER_ADDRESS,
            auth_per_minute_per_email: DEFAULT_AUTH_PER_MINUTE_PER_EMAIL,
            sign_up_per_minute_per_address: DEFAULT_SIGN_UP_PER_MINUTE_PER_ADDRESS,
            invitations_per_minute_per_account: DEFAULT_INVITATIONS_PER_MINUTE_PER_ACCOUNT,
            refresh_reuse_interval_secs: DEFAULT_REFRESH_REUSE_INTERVAL_SECS,
        }
    }
}

impl AuthSettings {
    /// The password policy these settings describe.
    pub fn password_policy(&self) -> domain::account::password_policy::PasswordPolicy {
        domain::account::password_policy::PasswordPolicy {
            min_length: self.password_min_length,
            require_lowercase: self.password_require_lowercase,
            require_uppercase: self.password_require_uppercase,
            require_numeric: self.password_require_numeric,
            require_non_alphanumeric: self.password_require_non_alphanumeric,
        }
    }
}

/// Default of `BALCAO_API_PIX_MAX_BODY_BYTES`: up to 10,699 of the smallest Pix entries (the
/// intake's bound in entries lets them all in), far beyond any batch a bank sends for one key.
pub const DEFAULT_API_PIX_MAX_BODY_BYTES: usize = 1024 * 1024;

/// Payments: the API Pix receiver's second factor and limit, and the sandbox.
#[derive(Clone, Args)]
pub struct PaymentSettings {
    /// Whether payer pages offer "Simular pagamento" (off unless configured; `make run` turns it
    /// on).
    #[arg(
        long,
        env = "BALCAO_SANDBOX_PAYMENTS",
        default_value_t = false,
        action = clap::ArgAction::Set,
        global = true
    )]
    pub sandbox_payments: bool,
    /// Secret of the `X-Balcao-Signature` HMAC every API Pix delivery must carry (unset: none).
    #[arg(
        long,
        env = "BALCAO_API_PIX_HMAC_SECRET",
        hide_env_values = true,
        global = true
    )]
    pub api_pix_hmac_secret: Option<String>,
    /// Largest API Pix delivery accepted, in bytes.
    #[arg(
        long,
        env = "BALCAO_API_PIX_MAX_BODY_BYTES",
        default_value_t = DEFAULT_API_PIX_MAX_BODY_BYTES,
        global = true
    )]
    pub api_pix_max_body_bytes: usize,
}

impl std::fmt::Debug for PaymentSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PaymentSettings")
            .field("sandbox_payments", &self.sandbox_payments)
            .field(
                "api_pix_hmac_secret",
                &self.api_pix_hmac_secret.as_ref().map(|_| "(set)"),
            )
            .field("api_pix_max_body_bytes", &self.api_pix_max_body_bytes)
            .finish()
    }
}

impl Default for PaymentSettings {
    fn default() -> Self {
        PaymentSettings {
            sandbox_payments: false,
            api_pix_hmac_secret: None,
            api_pix_max_body_bytes: DEFAULT_API_PIX_MAX_BODY_BYTES,
        }
    }
}

/// Plans and billing: the Asaas adapter (see the module table).
#[derive(Clone, Args)]
pub struct BillingSettings {
    /// Asaas API v3 key (unset: the sandbox provider, or billing off).
    #[arg(
        long,
        env = "BALCAO_ASAAS_API_KEY",
        hide_env_values = true,
        global = true
    )]
    pub asaas_api_key: Option<String>,
    /// Asaas base URL (sandbox or production).
    #[arg(
        long,
        env = "BALCAO_ASAAS_BASE_URL",
        default_value = crate::billing::asaas::SANDBOX_URL,
        global = true
    )]
    pub asaas_base_url: String,
    /// The token Asaas sends in `asaas-access-token`.
    #[arg(
        long,
        env = "BALCAO_ASAAS_WEBHOOK_TOKEN",
        hide_env_values = true,
        global = true
    )]
    pub asaas_webhook_token: Option<String>,
    /// Our `User-Agent` towards Asaas.
    #[arg(
        long,
        env = "BALCAO_ASAAS_USER_AGENT",
        default_value = "Balcao/1.0 (+https://balcao.app)",
        global = true
    )]
    pub asaas_user_agent: String,
    /// Longest one Asaas request may take, in milliseconds.
    #[arg(
        long,
        env = "BALCAO_ASAAS_TIMEOUT_MS",
        default_value_t = 10_000,
        global = true
    )]
    pub asaas_timeout_ms: u64,
    /// Tries per Asaas call.
    #[arg(
        long,
        env = "BALCAO_ASAAS_ATTEMPTS",
        default_value_t = 3,
        global = true
    )]
    pub asaas_attempts: u32,
}

impl std::fmt::Debug for BillingSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BillingSettings")
            .field(
                "asaas_api_key",
                &self.asaas_api_key.as_ref().map(|_| "(set)"),
            )
            .field("asaas_base_url", &self.asaas_base_url)
            .field(
                "asaas_webhook_token",
                &self.asaas_webhook_token.as_ref().map(|_| "(set)"),
            )
            .field("asaas_timeout_ms", &self.asaas_timeout_ms)
            .field("asaas_attempts", &self.asaas_attempts)
            .finish_non_exhaustive()
    }
}

impl Default for BillingSettings {
    fn default() -> Self {
        BillingSettings {
            asaas_api_key: None,
            asaas_base_url: crate::billing::asaas::SANDBOX_URL.to_owned(),
            asaas_webhook_token: None,
            asaas_user_agent: "Balcao/1.0 (+https://balcao.app)".to_owned(),
            asaas_timeout_ms: 10_000,
            asaas_attempts: 3,
        }
    }
}
