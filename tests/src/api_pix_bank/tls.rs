//! The bank's TLS: rustls demanding a client certificate signed by the test CA, and an axum
//! listener that hands the server only connections whose handshake succeeded.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::extract::connect_info::Connected;
use axum::serve::{IncomingStream, Listener};
use rustls::RootCertStore;
use rustls::server::{ServerConfig, WebPkiClientVerifier};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::server::TlsStream;

use super::pki::TestPki;

/// The rustls configuration of the bank's server. With `client_cert_required` a connection
/// without a certificate fails its handshake; without it (a bank whose token call takes no
/// certificate) such a connection is let in and the API refuses it. A certificate the test CA
/// did not sign, or one that expired, fails the handshake either way.
pub(crate) fn server_config(pki: &TestPki, client_cert_required: bool) -> ServerConfig {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut roots = RootCertStore::empty();
    roots
        .add(pki.ca_der())
        .expect("the test CA is a certificate");
    let builder = WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider.clone());
    let verifier = if client_cert_required {
        builder.build()
    } else {
        builder.allow_unauthenticated().build()
    }
    .expect("a client certificate verifier");
    let mut config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("TLS 1.2 and 1.3")
        .with_client_cert_verifier(verifier)
        .with_single_cert(pki.server_chain(), pki.server_key())
        .expect("the server identity");
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    config
}

/// Who is on the other end of a connection.
#[derive(Debug, Clone)]
pub(crate) struct Peer {
    /// The client's address.
    #[allow(dead_code)]
    pub addr: SocketAddr,
    /// Whether the client presented a certificate (the verifier checked it).
    pub has_client_cert: bool,
}

impl Connected<IncomingStream<'_, TlsListener>> for Peer {
    fn connect_info(stream: IncomingStream<'_, TlsListener>) -> Self {
        stream.remote_addr().clone()
    }
}

/// Connections whose handshake succeeded; handshakes run on their own tasks, so a client that
/// stalls in one holds up nobody else.
pub(crate) struct TlsListener {
    local: SocketAddr,
    ready: mpsc::Receiver<(TlsStream<TcpStream>, Peer)>,
}

impl TlsListener {
    /// Accepts on `tcp` and shakes hands with `config`; a failed handshake is counted in
    /// `refused`. The accepting task ends when the returned listener is dropped.
    pub(crate) fn spawn(
        tcp: TcpListener,
        config: ServerConfig,
        refused: Arc<AtomicUsize>,
    ) -> (TlsListener, tokio::task::JoinHandle<()>) {
        let local = tcp.local_addr().expect("a bound listener");
        let acceptor = TlsAcceptor::from(Arc::new(config));
        let (sender, ready) = mpsc::channel(64);
        let task = tokio::spawn(async move {
            loop {
                let Ok((stream, addr)) = tcp.accept().await else {
                    continue;
                };
                let acceptor = acceptor.clone();
                let ready = sender.clone();
                let refused = refused.clone();
                tokio::spawn(async move {
                    let handshake =
                        tokio::time::timeout(Duration::from_secs(10), acceptor.accept(stream));
                    match handshake.await {
                        Ok(Ok(tls)) => {
                            let has_client_cert = tls
                                .get_ref()
                                .1
                                .peer_certificates()
                                .is_some_and(|certs| !certs.is_empty());
                            let peer = Peer {
                                addr,
                                has_client_cert,
                            };
                            let _ = ready.send((tls, peer)).await;
                        }
                        _ => {
                            refused.fetch_add(1, Ordering::SeqCst);
                        }
                    }
                });
                if sender.is_closed() {
                    return;
                }
            }
        });
        (TlsListener { local, ready }, task)
    }
}

impl Listener for TlsListener {
    type Io = TlsStream<TcpStream>;
    type Addr = Peer;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        match self.ready.recv().await {
            Some(connection) => connection,
            // The accepting task is gone (the simulator is stopping): nothing more comes.
            None => std::future::pending().await,
        }
    }

    fn local_addr(&self) -> std::io::Result<Self::Addr> {
        Ok(Peer {
            addr: self.local,
            has_client_cert: false,
        })
    }
}
