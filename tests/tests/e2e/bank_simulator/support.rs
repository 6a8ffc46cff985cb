//! A client for the simulated bank, and a plain HTTP receiver for its callbacks.

use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use reqwest::{Certificate, Identity};
use serde_json::Value;
use tests::api_pix_bank::{BankSimulator, ClientBundle, SimulatorConfig};

/// A reqwest client that trusts the bank's CA and presents `identity`, if any.
pub(crate) fn client_with(sim: &BankSimulator, identity: Option<&ClientBundle>) -> reqwest::Client {
    let mut builder = reqwest::Client::builder()
        .use_rustls_tls()
        .tls_built_in_root_certs(false)
        .add_root_certificate(
            Certificate::from_pem(sim.server_ca_pem().as_bytes()).expect("the bank's CA"),
        );
    if let Some(bundle) = identity {
        builder = builder.identity(
            Identity::from_pem(bundle.identity_pem().as_bytes()).expect("a PEM identity"),
        );
    }
    builder.build().expect("a client")
}

/// A client with a valid certificate from the bank's CA.
pub(crate) fn client(sim: &BankSimulator) -> reqwest::Client {
    client_with(sim, Some(&sim.pki().client("Loja de Testes")))
}

/// The default client's token (HTTP Basic), the whole answer.
pub(crate) async fn token_answer(
    sim: &BankSimulator,
    http: &reqwest::Client,
) -> (StatusCode, Value) {
    let response = http
        .post(sim.token_url())
        .basic_auth(
            SimulatorConfig::CLIENT_ID,
            Some(SimulatorConfig::CLIENT_SECRET),
        )
        .form(&[("grant_type", "client_credentials")])
        .send()
        .await
        .expect("the token call answers");
    let status = response.status();
    (status, response.json().await.expect("a JSON body"))
}

/// An API client with a fresh token of the default client.
pub(crate) struct Api {
    pub http: reqwest::Client,
    pub base: String,
    pub token: String,
}

/// Every request respected the spec, and so did every answer of the bank.
pub(crate) fn assert_spec_kept(sim: &BankSimulator) {
    sim.assert_every_request_was_valid();
    let answers = sim.invalid_answers();
    assert!(
        answers.is_empty(),
        "the bank answered outside its spec: {answers:#?}"
    );
}

/// A bank with `config` and an API client with a token.
pub(crate) async fn bank_with(config: SimulatorConfig) -> (BankSimulator, Api) {
    let sim = BankSimulator::start(config).await;
    let api = Api::connect(&sim).await;
    (sim, api)
}

impl Api {
    pub(crate) async fn connect(sim: &BankSimulator) -> Api {
        let http = client(sim);
        let (status, answer) = token_answer(sim, &http).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        Api {
            http,
            base: sim.api_base(),
            token: answer["access_token"].as_str().expect("a token").to_owned(),
        }
    }

    pub(crate) async fn send(&self, request: reqwest::RequestBuilder) -> (StatusCode, Value) {
        let response = request
            .bearer_auth(&self.token)
            .send()
            .await
            .expect("the bank answers");
        let status = response.status();
        let text = response.text().await.expect("a body");
        let body = if text.is_empty() {
            Value::Null
        } else {
            serde_json::from_str(&text).expect("a JSON body")
        };
        (status, body)
    }

    pub(crate) async fn get(&self, path: &str) -> (StatusCode, Value) {
        self.send(self.http.get(format!("{}{path}", self.base)))
            .await
    }

    pub(crate) async fn put(&self, path: &str, body: &Value) -> (StatusCode, Value) {
        self.send(self.http.put(format!("{}{path}", self.base)).json(body))
            .await
    }

    pub(crate) async fn delete(&self, path: &str) -> (StatusCode, Value) {
        self.send(self.http.delete(format!("{}{path}", self.base)))
            .await
    }
}

/// Asserts `problem` is the spec's RFC 7807 body of the error type `tipo` with `status`.
pub(crate) fn assert_problem(problem: &Value, status: StatusCode, tipo: &str) {
    assert_eq!(
        problem["type"],
        format!("https://pix.bcb.gov.br/api/v2/error/{tipo}"),
        "{problem}"
    );
    assert_eq!(problem["status"], status.as_u16(), "{problem}");
    assert!(problem["title"].is_string(), "{problem}");
}

/// A txid as charges have them (26 to 35 letters and digits).
pub(crate) fn txid(n: u32) -> String {
    format!("balcaoteste{n:024}")
}

/// What the receiver heard: each request's path and JSON body.
type Log = Arc<Mutex<Vec<(String, Value)>>>;

/// A plain HTTP server that records every request (path and JSON body) and answers 200.
pub(crate) struct Receiver {
    pub url: String,
    received: Log,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Receiver {
    pub(crate) async fn start() -> Receiver {
        let received = Arc::new(Mutex::new(Vec::new()));
        let app = Router::new()
            .fallback(|State(received): State<Log>, request: Request| async move {
                let path = request.uri().path().to_owned();
                let body = axum::body::to_bytes(request.into_body(), 1 << 20)
                    .await
                    .expect("a body");
                let body = serde_json::from_slice(&body).unwrap_or(Value::Null);
                received
                    .lock()
                    .expect("the receiver's log")
                    .push((path, body));
                StatusCode::OK
            })
            .with_state(received.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a free port");
        let url = format!(
            "http://{}/webhooks/banco",
            listener.local_addr().expect("an address")
        );
        let task = tokio::spawn(async move {
            axum::serve(listener, app)
                .await
                .expect("the receiver serves");
        });
        Receiver {
            url,
            received,
            task,
        }
    }

    /// What arrived so far.
    pub(crate) fn received(&self) -> Vec<(String, Value)> {
        self.received.lock().expect("the receiver's log").clone()
    }

    /// Waits until `count` requests arrived, and returns them.
    pub(crate) async fn wait_for(&self, count: usize) -> Vec<(String, Value)> {
        tests::eventually("the bank's callbacks", async || {
            let received = self.received();
            (received.len() >= count).then_some(received)
        })
        .await
    }
}
