//! Live updates (`gateway::live`) at 1,000 clients: the memory 1,000 idle streams cost the
//! process, and the delay from a recorded payment to the 1,000th client's event.
//!
//! `cargo bench -p tests --bench sse_fanout` (needs PostgreSQL and NATS, as the e2e tests).
//! `BALCAO_BENCH_CLIENTS` (default 1000; half on the payer page's stream of one code, half on
//! the owner's dashboard stream), `BALCAO_BENCH_PAYMENTS` (default 30, one after another).
//! Targets: < 50 MB for the idle clients; p99 of the 1,000th client's delay < 250 ms.
//!
//! The clients are raw sockets in this same process (a request line, then reading into a
//! 256-byte buffer), so the memory figure is the whole process's resident set growth: the
//! server's cost per stream plus the clients' own few hundred bytes each — an upper bound.
//! A payment is "recorded" when `POST …/payments` is sent; its event travels the whole way:
//! append, relay, NATS, projector, checkpoint notification, the one fan-out query, broadcast.

use std::io::Write;
use std::time::{Duration, Instant};

use serde_json::json;
use tests::TestApp;
use tests::browser::Browser;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::mpsc;

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Resident memory of this process, in KiB.
fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(0)
}

/// Opens one stream on a raw socket and reports, for every `event: pagamento` after the
/// `skip` first, when it arrived.
async fn client(
    address: String,
    path: String,
    token: Option<String>,
    skip: usize,
    arrivals: mpsc::UnboundedSender<Instant>,
    connected: mpsc::UnboundedSender<()>,
) {
    let mut socket = TcpStream::connect(&address).await.expect("connect");
    let auth = token
        .map(|t| format!("authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    socket
        .write_all(
            format!(
                "GET {path} HTTP/1.1\r\nhost: {address}\r\naccept: text/event-stream\r\n{auth}\r\n"
            )
            .as_bytes(),
        )
        .await
        .expect("request");
    const NEEDLE: &[u8] = b"event: pagamento";
    let mut buffer = [0_u8; 256];
    let mut carry: Vec<u8> = Vec::with_capacity(NEEDLE.len() * 2 + buffer.len());
    let mut seen = 0_usize;
    let mut answered = false;
    loop {
        let n = match socket.read(&mut buffer).await {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        let now = Instant::now();
        carry.extend_from_slice(&buffer[..n]);
        if !answered {
            // The status line comes first; keep everything until the header ends.
            if !carry.windows(4).any(|w| w == b"\r\n\r\n") {
                continue;
            }
            assert!(
                carry.starts_with(b"HTTP/1.1 200"),
                "{}",
                String::from_utf8_lossy(&carry)
            );
            answered = true;
            let _ = connected.send(());
        }
        let found = carry.windows(NEEDLE.len()).filter(|w| *w == NEEDLE).count();
        for _ in 0..found {
            seen += 1;
            if seen > skip {
                let _ = arrivals.send(now);
            }
        }
        // Keep only a tail that may hold the start of a split needle.
        let keep = carry.len().min(NEEDLE.len() - 1);
        let tail = carry.split_off(carry.len() - keep);
        carry = tail;
        if found > 0 {
            carry.clear();
        }
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    #[allow(
        clippy::float_arithmetic,
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss,
        reason = "a rank from a percentile"
    )]
    let rank = ((p / 100.0) * (sorted.len() as f64 - 1.0)).round() as usize;
    sorted[rank.min(sorted.len() - 1)]
}

#[tokio::main]
async fn main() {
    let clients = env("BALCAO_BENCH_CLIENTS", 1000);
    let payments = env("BALCAO_BENCH_PAYMENTS", 30);
    let app = TestApp::spawn_with(|s| {
        s.server.max_connections = clients + 200;
        s.server.live_max_clients = clients + 50;
        // Every client of the bench is on 127.0.0.1: the caps per address must not count here.
        s.server.max_connections_per_address = clients + 200;
        s.server.live_max_clients_per_address = clients + 50;
        // Idle means idle: no heartbeat during the measurement.
        s.server.live_heartbeat_ms = 600_000;
    })
    .await;
    let mut owner = Browser::new(&app);
    let signed = owner
        .sign_up("dona@bench.test", "senha-do-bench-1", "Dona do Bench")
        .await;
    assert!(signed.status.is_success(), "{}", signed.text);
    let account = signed.json["user"]["uid"]
        .as_str()
        .expect("the new account's id")
        .to_owned();
    let made = owner
        .post_json(
            &format!("/api/accounts/{account}/qrcodes"),
            &json!({"pixKey": "loja@bench.test", "merchantName": "Loja do Bench",
                    "merchantCity": "Recife", "amount": "12,50"}),
        )
        .await;
    assert!(made.status.is_success(), "{}", made.text);
    let code = made.json["id"].as_str().expect("code id").to_owned();
    let token = owner.access_token.clone().expect("token");
    let address = app.url("").trim_start_matches("http://").to_owned();

    let before = rss_kib();
    let (arrived_tx, mut arrived) = mpsc::unbounded_channel();
    let (connected_tx, mut connected) = mpsc::unbounded_channel();
    for n in 0..clients {
        let (path, auth, skip) = if n % 2 == 0 {
            (format!("/pagamento/{code}/eventos"), None, 1)
        } else {
            (
                format!("/api/accounts/{account}/events"),
                Some(token.clone()),
                0,
            )
        };
        tokio::spawn(client(
            address.clone(),
            path,
            auth,
            skip,
            arrived_tx.clone(),
            connected_tx.clone(),
        ));
    }
    for _ in 0..clients {
        tokio::time::timeout(Duration::from_secs(60), connected.recv())
            .await
            .expect("every client connects within a minute");
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let idle = rss_kib();
    #[allow(
        clippy::float_arithmetic,
        clippy::cast_precision_loss,
        reason = "a report"
    )]
    let idle_mib = (idle.saturating_sub(before)) as f64 / 1024.0;

    let mut last = Vec::with_capacity(payments);
    let mut median = Vec::with_capacity(payments);
    for n in 0..payments {
        let sent = Instant::now();
        let answer = owner
            .post_json(
                &format!("/api/accounts/{account}/payments"),
                &json!({"qrcodeId": code, "amount": format!("{},00", n + 1)}),
            )
            .await;
        assert!(answer.status.is_success(), "{}", answer.text);
        let mut times = Vec::with_capacity(clients);
        while times.len() < clients {
            let at = tokio::time::timeout(Duration::from_secs(30), arrived.recv())
                .await
                .expect("every client hears of the payment within 30 s")
                .expect("clients alive");
            times.push(at.saturating_duration_since(sent));
        }
        times.sort();
        median.push(times[times.len() / 2]);
        last.push(*times.last().expect("a client"));
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    last.sort();
    median.sort();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "sse_fanout: {clients} clients ({} payer streams, {} dashboard streams), {payments} payments",
        clients.div_ceil(2),
        clients / 2
    )
    .expect("stdout");
    writeln!(
        out,
        "  idle clients: resident memory {before} KiB before, {idle} KiB with every stream open: +{idle_mib:.1} MiB (target < 50 MB)"
    )
    .expect("stdout");
    writeln!(
        out,
        "  delay to the last client's event: p50 {:?}, p99 {:?}, max {:?} (target p99 < 250 ms)",
        percentile(&last, 50.0),
        percentile(&last, 99.0),
        last.last().copied().unwrap_or_default()
    )
    .expect("stdout");
    writeln!(
        out,
        "  delay to the median client's event: p50 {:?}, p99 {:?}",
        percentile(&median, 50.0),
        percentile(&median, 99.0)
    )
    .expect("stdout");
    drop(out);
    app.stop().await;
}
