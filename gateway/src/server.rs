//! The HTTP server loop behind both listeners (public and operations): hyper's HTTP/1 with a
//! header-read timeout, a cap on open connections, the client's address for `ConnectInfo`, and
//! graceful shutdown.
//!
//! `axum::serve` has neither limit: a client that sent half a header kept its connection (and a
//! file descriptor) for as long as it liked, and a thousand of them exhausted a low file limit,
//! taking `/healthz` down with everything else. Here:
//!
//! - a connection that has not sent a whole request header within `header_read_timeout` is
//!   closed; hyper starts that clock again after each response, so it also ends idle
//!   keep-alive connections;
//! - at most `max_connections` connections are open at once; the next one is answered a
//!   pt-BR 503 with `Retry-After` straight away and closed, so a flood costs a descriptor for
//!   a moment, never for as long as its sender likes, and a load balancer retries elsewhere;
//! - at most `max_connections_per_address` of them come from one address (IPv6: one /64,
//!   [`crate::per_address`]), answered the same way beyond it: one client holding hundreds of
//!   half-open sockets no longer leaves everyone else (the load balancer's `/healthz` included)
//!   a 503. At accept only the TCP peer is known, so this cap counts peers: it is set only when
//!   no proxy of ours stands in front (`BALCAO_TRUSTED_PROXIES=0`). Behind a proxy every
//!   connection comes from the proxy, which must cap its clients itself (nginx `limit_conn`);
//!   the live streams' cap per address, taken per request, still reads the client's address
//!   from `X-Forwarded-For` ([`crate::live`]);
//! - on shutdown the listener closes, idle connections close, and requests in flight finish.
//!
//! Only HTTP/1.1 is served: browsers speak HTTP/2 only over TLS, which a proxy in front ends.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use projections::CancellationToken;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tower::ServiceExt;

use crate::per_address::PerAddress;

/// Gauge, per listener (`listener` = `public` or `ops`): connections open now.
pub const OPEN_CONNECTIONS: &str = "balcao_http_open_connections";
/// Counter, per listener: connections refused with a 503 because the cap was reached.
pub const REFUSED_CONNECTIONS: &str = "balcao_http_refused_connections_total";
/// Counter, per listener: connections refused with a 503 because their address held its cap.
pub const REFUSED_PER_ADDRESS: &str = "balcao_http_refused_per_address_total";

/// What a listener allows its clients.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Longest wait for a whole request header, and between requests on a kept-alive connection.
    pub header_read_timeout: Duration,
    /// Most connections open at once.
    pub max_connections: usize,
    /// Most connections open at once from one TCP peer (`None`: no cap per peer, as behind a
    /// proxy of ours).
    pub max_connections_per_address: Option<usize>,
}

/// The answer to a connection over the cap; the body says it in Portuguese.
const BUSY: &[u8] = "HTTP/1.1 503 Service Unavailable\r\n\
content-type: text/plain; charset=utf-8\r\n\
retry-after: 1\r\n\
connection: close\r\n\
content-length: 53\r\n\
\r\n\
Servidor ocupado. Tente de novo em alguns instantes.\n"
    .as_bytes();

/// Serves `router` on `listener` until `shutdown` is cancelled, then waits for the requests in
/// flight. `name` labels this listener's metrics (`public` or `ops`).
///
/// # Errors
///
/// None in practice: failed accepts are logged and retried (a full file table clears as
/// connections close).
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    name: &'static str,
    shutdown: CancellationToken,
) -> std::io::Result<()> {
    let open = Arc::new(Semaphore::new(limits.max_connections));
    let per_address = limits.max_connections_per_address.map(PerAddress::new);
    let graceful = GracefulShutdown::new();
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout);
    metrics::gauge!(OPEN_CONNECTIONS, "listener" => name).set(0.0);
    loop {
        let (stream, remote) = tokio::select! {
            () = shutdown.cancelled() => break,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    accept_failed(&error).await;
                    continue;
                }
            },
        };
        let address_slot = match &per_address {
            Some(per_address) => match per_address.try_take(remote.ip()) {
                Some(slot) => Some(slot),
                None => {
                    refuse(&stream, REFUSED_PER_ADDRESS, name);
                    continue;
                }
            },
            None => None,
        };
        let Ok(permit) = Arc::clone(&open).try_acquire_owned() else {
            refuse(&stream, REFUSED_CONNECTIONS, name);
            continue;
        };
        // Small responses go out at once rather than waiting for Nagle's algorithm.
        let _ = stream.set_nodelay(true);
        let router = router.clone();
        let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo(remote));
            router.clone().oneshot(request)
        });
        let connection = graceful.watch(http.serve_connection(TokioIo::new(stream), service));
        metrics::gauge!(OPEN_CONNECTIONS, "listener" => name).increment(1.0);
        tokio::spawn(async move {
            if let Err(error) = connection.await {
                // Header timeouts, resets and malformed requests: the client's business.
                tracing::debug!(%error, %remote, "connection ended with an error");
            }
            metrics::gauge!(OPEN_CONNECTIONS, "listener" => name).decrement(1.0);
            drop(permit);
            drop(address_slot);
        });
    }
    // Stop accepting at once, then let the open connections finish what they are doing.
    drop(listener);
    graceful.shutdown().await;
    Ok(())
}

/// Answers 503 without waiting and closes: if the client's buffer is full the answer is lost,
/// but the descriptor is never held for it. `counter` says which cap refused it.
fn refuse(stream: &TcpStream, counter: &'static str, name: &'static str) {
    metrics::counter!(counter, "listener" => name).increment(1);
    let _ = stream.try_write(BUSY);
}

/// After a failed `accept`: connection-level errors are the client's and need nothing; anything
/// else (usually the file table full) gets a pause so the loop does not spin.
async fn accept_failed(error: &std::io::Error) {
    use std::io::ErrorKind;
    if matches!(
        error.kind(),
        ErrorKind::ConnectionAborted | ErrorKind::ConnectionRefused | ErrorKind::ConnectionReset
    ) {
        return;
    }
    tracing::error!(%error, "accepting a connection failed; pausing");
    tokio::time::sleep(Duration::from_millis(100)).await;
}

/// Descriptors the process needs besides the public connections: database pools, NATS, the
/// operations listener and its connections, files read while answering.
const FILE_RESERVE: usize = 256;

/// Logs a warning when `max_connections` does not fit in the process's soft file limit with
/// room to spare: past it `accept` fails with "too many open files" and every listener of the
/// process stops answering, which the cap is there to prevent.
pub fn warn_if_over_file_limit(max_connections: usize) {
    let limits = std::fs::read_to_string("/proc/self/limits").unwrap_or_default();
    let Some(limit) = soft_open_file_limit(&limits) else {
        return;
    };
    if max_connections.saturating_add(FILE_RESERVE) > limit {
        tracing::warn!(
            max_connections,
            file_limit = limit,
            "BALCAO_MAX_CONNECTIONS is too close to the file limit; lower it or raise the limit \
             (ulimit -n, systemd LimitNOFILE)"
        );
    }
}

/// The soft "Max open files" in the text of `/proc/self/limits`; `None` when absent or
/// unlimited.
fn soft_open_file_limit(limits: &str) -> Option<usize> {
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    line.trim_start_matches("Max open files")
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::{BUSY, soft_open_file_limit};

    #[test]
    fn the_soft_file_limit_is_read_from_proc_limits() {
        let limits = "Limit                     Soft Limit           Hard Limit           Units     \n\
                      Max processes             63704                63704                processes \n\
                      Max open files            1024                 524288               files     \n";
        assert_eq!(soft_open_file_limit(limits), Some(1024));
        let unlimited =
            "Max open files            unlimited            unlimited            files\n";
        assert_eq!(soft_open_file_limit(unlimited), None);
        assert_eq!(soft_open_file_limit(""), None);
    }

    #[test]
    fn the_busy_answer_declares_its_exact_length() {
        let text = std::str::from_utf8(BUSY).expect("UTF-8");
        let (head, body) = text.split_once("\r\n\r\n").expect("a head and a body");
        let declared: usize = head
            .lines()
            .find_map(|line| line.strip_prefix("content-length: "))
            .expect("a length")
            .parse()
            .expect("a number");
        assert_eq!(declared, body.len());
    }
}
