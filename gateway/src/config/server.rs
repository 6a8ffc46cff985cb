//! The listeners' settings: the operations address, timeouts, and the caps on connections and
//! live streams, globally and per client address.

use std::net::SocketAddr;

use clap::Args;

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
