//! A slow or hostile client never holds what others need: half-sent headers are cut off, the
//! number of open connections is capped, in all and per address (the operations listener keeps
//! answering), and odd asset names are plain 404s.

use std::net::{Ipv4Addr, SocketAddr};
use std::time::Duration;

use reqwest::StatusCode;
use tests::{TestApp, eventually_within};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// Far longer than any limit the tests set: "closed within a generous bound".
const GENEROUS: Duration = Duration::from_secs(15);

fn address(url: &str) -> String {
    url.trim_start_matches("http://").to_owned()
}

/// Reads until the server closes the connection; `None` if it has not within [`GENEROUS`].
async fn read_until_closed(stream: &mut TcpStream) -> Option<Vec<u8>> {
    let mut received = Vec::new();
    let mut buffer = [0_u8; 1024];
    let outcome = tokio::time::timeout(GENEROUS, async {
        loop {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => break,
                Ok(n) => received.extend_from_slice(&buffer[..n]),
            }
        }
    })
    .await;
    outcome.ok().map(|()| received)
}

#[tokio::test]
async fn a_connection_that_never_finishes_its_header_is_closed_after_the_timeout() {
    let app = TestApp::spawn_with(|settings| settings.server.header_read_timeout_ms = 500).await;
    for listener in [&app.base_url, &app.ops_url] {
        let mut stream = TcpStream::connect(address(listener))
            .await
            .expect("connects");
        stream
            .write_all(b"GET /healthz HTTP/1.1\r\nHost: balcao.test\r\n")
            .await
            .expect("half a header sent");
        assert!(
            read_until_closed(&mut stream).await.is_some(),
            "{listener} closed the connection"
        );
    }
    // Whole requests are unaffected.
    assert_eq!(app.get("/healthz").await.status(), StatusCode::OK);
    app.stop().await;
}

#[tokio::test]
async fn beyond_the_connection_cap_a_client_gets_a_503_and_the_operations_listener_still_answers() {
    let app = TestApp::spawn_with(|settings| {
        settings.server.max_connections = 2;
        settings.server.header_read_timeout_ms = 60_000;
    })
    .await;
    let public = address(&app.base_url);
    // Two idle connections fill the public listener. A request on each makes sure the server
    // accepted both before the third arrives.
    let mut held = Vec::new();
    for _ in 0..2 {
        let mut stream = TcpStream::connect(&public).await.expect("connects");
        stream
            .write_all(b"GET /healthz HTTP/1.1\r\nHost: balcao.test\r\n\r\n")
            .await
            .expect("request sent");
        let mut buffer = [0_u8; 256];
        let read = tokio::time::timeout(GENEROUS, stream.read(&mut buffer))
            .await
            .expect("answered in time")
            .expect("answered");
        assert!(
            buffer[..read].starts_with(b"HTTP/1.1 200"),
            "{}",
            String::from_utf8_lossy(&buffer[..read])
        );
        held.push(stream);
    }

    let mut third = TcpStream::connect(&public).await.expect("connects");
    let answer = read_until_closed(&mut third)
        .await
        .expect("the third connection is answered and closed at once");
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert!(answer.contains("retry-after: 1"), "{answer}");
    assert!(answer.contains("Servidor ocupado"), "{answer}");

    // The operations listener has its own cap.
    assert_eq!(app.ops_get("/healthz").await.status(), StatusCode::OK);
    let metrics = app.metrics().await;
    assert!(
        metrics
            .lines()
            .any(|line| line
                .starts_with("balcao_http_refused_connections_total{listener=\"public\"}")),
        "{metrics}"
    );

    // A closed connection frees its place.
    drop(held.pop());
    eventually_within(
        Duration::from_secs(15),
        "a place freed up for a new client",
        async || {
            let response = app.client().get(app.url("/healthz")).send().await;
            response
                .is_ok_and(|r| r.status() == StatusCode::OK)
                .then_some(())
        },
    )
    .await;
    drop(held);
    app.stop().await;
}

/// A connection to `to` from the loopback address `from` (all of 127.0.0.0/8 is loopback on
/// Linux), so one test can play several clients.
async fn connect_from(from: Ipv4Addr, to: &str) -> TcpStream {
    let socket = TcpSocket::new_v4().expect("a socket");
    socket.bind(SocketAddr::from((from, 0))).expect("bound");
    socket
        .connect(to.parse().expect("an address"))
        .await
        .expect("connects")
}

#[tokio::test]
async fn five_hundred_twelve_half_open_sockets_from_one_address_leave_another_address_served() {
    // The default caps (512 in all, 128 per address); the header timeout long enough that the
    // half-open sockets stay for the whole test.
    let app = TestApp::spawn_with(|settings| settings.server.header_read_timeout_ms = 60_000).await;
    let public = address(&app.base_url);
    let flooder = Ipv4Addr::new(127, 0, 0, 1);
    let mut held = Vec::new();
    for _ in 0..512 {
        let mut stream = connect_from(flooder, &public).await;
        // Half a header, never finished.
        stream
            .write_all(b"GET /healthz HTTP/1.1\r\nHost: balcao.test\r\n")
            .await
            .expect("half a header sent");
        held.push(stream);
    }
    // Connections are accepted in the order they were made: by the time the other client's is,
    // every one of the flood's was, and those past its address's cap were refused.
    let mut last = held.pop().expect("the flood");
    let refused = read_until_closed(&mut last)
        .await
        .expect("a connection over the address's cap is answered and closed at once");
    let refused = String::from_utf8_lossy(&refused);
    assert!(refused.starts_with("HTTP/1.1 503"), "{refused}");
    assert!(refused.contains("Servidor ocupado"), "{refused}");

    let other = Ipv4Addr::new(127, 0, 0, 2);
    let client = reqwest::Client::builder()
        .local_address(std::net::IpAddr::V4(other))
        .build()
        .expect("client builds");
    for path in ["/healthz", "/readyz"] {
        let answer = client
            .get(app.url(path))
            .send()
            .await
            .expect("the other address is answered");
        assert_eq!(answer.status(), StatusCode::OK, "{path}");
    }
    let metrics = app.metrics().await;
    assert!(
        metrics
            .lines()
            .any(|line| line
                .starts_with("balcao_http_refused_per_address_total{listener=\"public\"}")),
        "{metrics}"
    );
    drop(held);
    app.stop().await;
}

#[tokio::test]
async fn asset_names_longer_than_any_file_name_are_not_found_not_a_server_error() {
    let app = TestApp::spawn().await;
    let long = "x".repeat(300);
    for path in [
        format!("/painel/assets/{long}.js"),
        format!("/painel/assets/{long}/{long}.js"),
        format!("/painel/assets/index-abc123.js/{long}"),
        "/painel/assets/index-abc123.js/x.js".to_owned(),
        format!("/static/{long}.css"),
    ] {
        assert_eq!(
            app.get(&path).await.status(),
            StatusCode::NOT_FOUND,
            "{path}"
        );
    }
    app.stop().await;
}
