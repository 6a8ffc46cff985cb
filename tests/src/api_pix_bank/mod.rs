//! A bank that speaks the BCB's API Pix, for tests: a real HTTPS server (rustls) on a free
//! loopback port, written from the official OpenAPI (`tests/data/api-pix-openapi-2.9.0.yaml`).
//!
//! - It demands a client certificate signed by its test CA ([`TestPki`], made with rcgen when
//!   the simulator starts): a client without one, with an expired one, or with one from another
//!   CA fails the TLS handshake.
//! - An OAuth2 client-credentials token endpoint with scopes; every API operation checks the
//!   Bearer token and the scope the spec names for it.
//! - `webhook`, `cob`, `cobv`, `pix` (paged with `paginacao`) and `devolucao`, answering the
//!   spec's bodies and its RFC 7807 errors.
//! - It calls the registered webhook with the spec's callback body when a Pix with a txid
//!   arrives, a charge is paid or a refund reaches its final status.
//! - Every request is validated against the spec (path, method, query parameters, JSON body,
//!   objects closed): an invalid one is answered 400 and recorded, and
//!   [`BankSimulator::assert_every_request_was_valid`] fails the test on it.
//! - One simulator per bank profile: [`Quirks`] says how the bank differs (base path, token
//!   path and authentication, a required header or query parameter, the `/pix` suffix).
//!
//! Tests drive it through Rust methods (no HTTP control API): [`BankSimulator::receive_pix`],
//! [`BankSimulator::pay_charge`], [`BankSimulator::settle_refund`],
//! [`BankSimulator::fail_next`], …

mod bank;
mod config;
mod pki;
mod spec;
mod tls;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use axum::Router;
use chrono::{DateTime, Utc};
use serde_json::Value;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

pub use config::{
    ALL_SCOPES, AccountHolder, Quirks, RefundOutcome, RegisteredClient, SimulatorConfig, TokenAuth,
};
pub use pki::{ClientBundle, TestPki};
pub use spec::Violation;

use bank::{BankState, Inner, PixRecord};

/// A fault the bank shows on the next requests ([`BankSimulator::fail_next`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// Answers with this status (500 or 503) and the spec's problem body.
    ServerError {
        /// The HTTP status: 503 answers `ServicoIndisponivel`, others `ErroInternoDoServidor`.
        status: u16,
    },
    /// Holds the request this long before carrying it out (a client's timeout fires first, and
    /// a client that gives up leaves nothing behind).
    Timeout(Duration),
    /// Carries the request out, then holds its answer this long: the bank took it, and a client
    /// whose timeout fires first never hears so.
    AnswerLate(Duration),
    /// Does not deliver the next callback, but records it as dropped: the Pix is still at the
    /// bank, for `GET /pix` to find.
    DropCallbacks,
}

/// A request that did not respect the spec.
#[derive(Debug, Clone)]
pub struct InvalidRequest {
    /// `GET`, `PUT`, …
    pub method: String,
    /// The path with its query string, as received.
    pub path: String,
    /// What it got wrong.
    pub violations: Vec<Violation>,
}

/// What became of a callback.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallbackOutcome {
    /// Being sent.
    Pending,
    /// Dropped on purpose ([`Failure::DropCallbacks`]).
    Dropped,
    /// The receiver answered with this status.
    Delivered(u16),
    /// The receiver could not be reached.
    Failed(String),
}

/// A callback the bank sent (or dropped).
#[derive(Debug, Clone)]
pub struct CallbackRecord {
    /// Where it went: the registered URL, plus `/pix` when the bank appends it.
    pub url: String,
    /// The body: `{"pix":[…]}`.
    pub body: Value,
    /// What became of it.
    pub outcome: CallbackOutcome,
}

/// A running simulated bank; it stops when dropped.
pub struct BankSimulator {
    inner: Arc<Inner>,
    addr: SocketAddr,
    server: JoinHandle<()>,
    acceptor: JoinHandle<()>,
}

impl Drop for BankSimulator {
    fn drop(&mut self) {
        self.server.abort();
        self.acceptor.abort();
    }
}

impl BankSimulator {
    /// Starts a bank on a free loopback port, with a fresh [`TestPki`].
    ///
    /// # Panics
    ///
    /// When no loopback port can be bound.
    pub async fn start(config: SimulatorConfig) -> BankSimulator {
        let pki = TestPki::new();
        let tcp = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a free loopback port");
        let addr = tcp.local_addr().expect("a bound port");
        let tls_config = tls::server_config(&pki, config.quirks.token_requires_client_cert);
        let refused = Arc::new(AtomicUsize::new(0));
        let (listener, acceptor) = tls::TlsListener::spawn(tcp, tls_config, refused.clone());
        let callback = pki.callback_identity();
        let callback_client = reqwest::Client::builder()
            .use_rustls_tls()
            .identity(
                reqwest::Identity::from_pem(callback.identity_pem().as_bytes())
                    .expect("the bank's callback identity"),
            )
            .add_root_certificate(
                reqwest::Certificate::from_pem(pki.ca_pem().as_bytes()).expect("the test CA"),
            )
            .timeout(Duration::from_secs(10))
            .build()
            .expect("the callback client");
        let inner = Arc::new(Inner {
            config,
            pki,
            authority: addr.to_string(),
            state: std::sync::Mutex::new(BankState::default()),
            callback_client,
            refused_handshakes: refused,
        });
        let app = Router::new()
            .fallback(bank::handle)
            .with_state(inner.clone())
            .into_make_service_with_connect_info::<tls::Peer>();
        let server = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        BankSimulator {
            inner,
            addr,
            server,
            acceptor,
        }
    }

    /// `https://127.0.0.1:PORT`.
    pub fn origin(&self) -> String {
        format!("https://{}", self.addr)
    }

    /// Where the API lives: the origin plus the quirk's base path (`https://127.0.0.1:PORT/v2`).
    pub fn api_base(&self) -> String {
        format!("{}{}", self.origin(), self.inner.config.quirks.base_path)
    }

    /// The token endpoint: the origin plus the quirk's token path.
    pub fn token_url(&self) -> String {
        format!("{}{}", self.origin(), self.inner.config.quirks.token_path)
    }

    /// The CA certificate (PEM) a client must trust to talk to this bank.
    pub fn server_ca_pem(&self) -> String {
        self.inner.pki.ca_pem()
    }

    /// The bank's certificates: make client certificates for a test with it.
    pub fn pki(&self) -> &TestPki {
        &self.inner.pki
    }

    /// The configuration the bank runs with.
    pub fn config(&self) -> &SimulatorConfig {
        &self.inner.config
    }

    /// Records a Pix received on `chave` now; see [`BankSimulator::receive_pix_at`].
    pub fn receive_pix(
        &self,
        chave: &str,
        valor_centavos: i64,
        txid: Option<&str>,
        info_pagador: Option<&str>,
    ) -> String {
        self.receive_pix_at(Utc::now(), chave, valor_centavos, txid, info_pagador)
    }

    /// Records a Pix received on `chave` at `horario` and returns its end-to-end id. When it
    /// has a txid and the key a webhook, the bank POSTs `{"pix":[…]}` to the webhook (plus
    /// `/pix` when the quirk says so), unless told to drop callbacks.
    ///
    /// # Panics
    ///
    /// Outside a Tokio runtime, when a callback is due.
    pub fn receive_pix_at(
        &self,
        horario: DateTime<Utc>,
        chave: &str,
        valor_centavos: i64,
        txid: Option<&str>,
        info_pagador: Option<&str>,
    ) -> String {
        let mut state = self.inner.state();
        let e2eid = state.new_e2eid(&self.inner.config.ispb, horario);
        state.pix.push(PixRecord {
            e2eid: e2eid.clone(),
            txid: txid.map(str::to_owned),
            valor_centavos,
            chave: chave.to_owned(),
            horario,
            info_pagador: info_pagador.map(str::to_owned),
            refunds: Vec::new(),
        });
        bank::notify(&self.inner, &mut state, &e2eid);
        e2eid
    }

    /// Records `count` Pix without txid on `chave` (so no callback), `valor_centavos` each,
    /// spread one millisecond apart from `first`: the catch-up benchmark's bulk.
    pub fn receive_many_pix(
        &self,
        first: DateTime<Utc>,
        count: usize,
        chave: &str,
        valor_centavos: i64,
    ) {
        let mut state = self.inner.state();
        state.pix.reserve(count);
        for n in 0..count {
            let horario = first + chrono::Duration::milliseconds(i64::try_from(n).unwrap_or(0));
            let e2eid = state.new_e2eid(&self.inner.config.ispb, horario);
            state.pix.push(PixRecord {
                e2eid,
                txid: None,
                valor_centavos,
                chave: chave.to_owned(),
                horario,
                info_pagador: None,
                refunds: Vec::new(),
            });
        }
    }

    /// Pays the charge (`cob` or `cobv`) `txid` in full: a Pix with its txid, key and amount
    /// arrives, the charge becomes `CONCLUIDA`, and the webhook is called as for any Pix.
    /// Returns the Pix's end-to-end id.
    ///
    /// # Panics
    ///
    /// When there is no such charge, or it is not `ATIVA`.
    pub fn pay_charge(&self, txid: &str) -> String {
        let mut state = self.inner.state();
        let charge = state
            .charges
            .get(txid)
            .unwrap_or_else(|| panic!("no charge {txid} at the simulated bank"));
        assert_eq!(charge.status, "ATIVA", "the charge {txid} is not ATIVA");
        let (chave, valor) = (charge.chave.clone(), charge.original_centavos);
        let now = Utc::now();
        let e2eid = state.new_e2eid(&self.inner.config.ispb, now);
        state.pix.push(PixRecord {
            e2eid: e2eid.clone(),
            txid: Some(txid.to_owned()),
            valor_centavos: valor,
            chave,
            horario: now,
            info_pagador: None,
            refunds: Vec::new(),
        });
        if let Some(charge) = state.charges.get_mut(txid) {
            charge.status = "CONCLUIDA";
            charge.pix.push(e2eid.clone());
        }
        bank::notify(&self.inner, &mut state, &e2eid);
        e2eid
    }

    /// The refund `id` of the Pix `e2eid` is `DEVOLVIDO`; the webhook hears of it.
    ///
    /// # Panics
    ///
    /// When there is no such refund in processing.
    pub fn settle_refund(&self, e2eid: &str, id: &str) {
        assert!(
            bank::finish_refund(&self.inner, e2eid, id, true, None),
            "no refund {id} in processing for {e2eid}"
        );
    }

    /// The refund `id` of the Pix `e2eid` is `NAO_REALIZADO` because of `motivo`; the webhook
    /// hears of it.
    ///
    /// # Panics
    ///
    /// When there is no such refund in processing.
    pub fn reject_refund(&self, e2eid: &str, id: &str, motivo: &str) {
        assert!(
            bank::finish_refund(&self.inner, e2eid, id, false, Some(motivo)),
            "no refund {id} in processing for {e2eid}"
        );
    }

    /// The URL registered for `chave`'s webhook, if any.
    pub fn registered_webhook(&self, chave: &str) -> Option<String> {
        self.inner
            .state()
            .webhooks
            .get(chave)
            .map(|webhook| webhook.url.clone())
    }

    /// The next `n` API calls (not token calls) fail with `failure`; with
    /// [`Failure::DropCallbacks`], the next `n` callbacks are dropped instead.
    pub fn fail_next(&self, n: usize, failure: Failure) {
        let mut state = self.inner.state();
        match failure {
            Failure::DropCallbacks => state.callbacks_to_drop += n,
            failure => state.api_failures.extend(std::iter::repeat_n(failure, n)),
        }
    }

    /// The next `n` token calls fail with `failure` ([`Failure::DropCallbacks`] means nothing
    /// there).
    pub fn fail_next_token(&self, n: usize, failure: Failure) {
        if failure != Failure::DropCallbacks {
            self.inner
                .state()
                .token_failures
                .extend(std::iter::repeat_n(failure, n));
        }
    }

    /// How many tokens the bank issued.
    pub fn tokens_issued(&self) -> usize {
        self.inner.state().tokens_issued
    }

    /// Makes every token issued so far expired (the next call with one is refused with 401).
    pub fn expire_tokens(&self) {
        let now = Instant::now();
        for token in self.inner.state().tokens.values_mut() {
            token.expires_at = now;
        }
    }

    /// How many TLS handshakes the bank refused (no certificate, an unknown CA, expired…).
    pub fn refused_handshakes(&self) -> usize {
        self.inner.refused_handshakes.load(Ordering::SeqCst)
    }

    /// The callbacks sent or dropped so far, oldest first.
    pub fn callbacks(&self) -> Vec<CallbackRecord> {
        self.inner.state().callbacks.clone()
    }

    /// The charge `txid` as `GET /cob/{txid}` or `GET /cobv/{txid}` answers it.
    pub fn charge(&self, txid: &str) -> Option<Value> {
        let state = self.inner.state();
        state
            .charges
            .get(txid)
            .map(|charge| bank::charge_json(charge, &state, &self.inner.config))
    }

    /// The Pix `e2eid` as `GET /pix/{e2eid}` answers it.
    pub fn pix(&self, e2eid: &str) -> Option<Value> {
        self.inner
            .state()
            .pix
            .iter()
            .find(|pix| pix.e2eid == e2eid)
            .map(bank::pix_json)
    }

    /// The requests that did not respect the spec, oldest first.
    pub fn invalid_requests(&self) -> Vec<InvalidRequest> {
        self.inner.state().invalid.clone()
    }

    /// The bank's own answers that its spec would not allow (a mistake of the simulator; its
    /// self-tests assert there are none).
    pub fn invalid_answers(&self) -> Vec<InvalidRequest> {
        self.inner.state().invalid_answers.clone()
    }

    /// Fails the test when any request did not respect the spec, naming each.
    ///
    /// # Panics
    ///
    /// When a request was invalid.
    pub fn assert_every_request_was_valid(&self) {
        let invalid = self.invalid_requests();
        assert!(
            invalid.is_empty(),
            "requests the API Pix spec does not allow reached the bank:\n{}",
            invalid
                .iter()
                .map(|request| format!(
                    "{} {}: {}",
                    request.method,
                    request.path,
                    request
                        .violations
                        .iter()
                        .map(|v| v.razao.as_str())
                        .collect::<Vec<_>>()
                        .join("; ")
                ))
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}
