//! A small HTTPS bank for the client's unit tests: rustls with client certificates from its own
//! CA (made at test time with rcgen), an OAuth2 token endpoint at any path ending in `/token`,
//! and `GET`/`PUT`/`DELETE …/webhook/{chave}` under any base. It records what it received and
//! can be told to answer otherwise (a status and body, a delay).
//!
//! The full simulator, written from the official OpenAPI, lives in the `tests` crate; this one
//! only has what the client's own behaviour needs, so these tests stand alone.

use std::collections::{HashMap, HashSet, VecDeque};
use std::net::{IpAddr, Ipv4Addr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, Method, Request, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use domain::bank::certificate::ClientCertificate;
use hyper_util::rt::TokioIo;
use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, IsCa, KeyPair, SanType};
use rustls::pki_types::{PrivateKeyDer, PrivatePkcs8KeyDer};
use serde_json::json;
use url::Url;

/// The client id and secret the bank knows.
pub const CLIENT_ID: &str = "balcao-id";
pub const CLIENT_SECRET: &str = "s3gr3do+/=";
/// The Pix key the account holds.
pub const KEY: &str = "loja@example.com";

/// A token call as received.
#[derive(Debug, Clone)]
pub struct TokenCall {
    pub path: String,
    pub authorization: Option<String>,
    pub content_type: String,
    pub body: String,
    pub had_client_certificate: bool,
}

/// An API call as received.
#[derive(Debug, Clone)]
pub struct ApiCall {
    pub method: String,
    pub path: String,
    pub query: Option<String>,
    pub headers: HeaderMap,
    pub body: String,
    pub had_client_certificate: bool,
}

/// What the bank knows and how it will answer.
#[derive(Debug, Default)]
pub struct BankState {
    pub token_calls: Vec<TokenCall>,
    pub api_calls: Vec<ApiCall>,
    pub webhooks: HashMap<String, String>,
    pub tokens: HashSet<String>,
    pub expires_in: i64,
    /// Answers the next token calls with these (status, body) instead.
    pub token_answers: VecDeque<(u16, String)>,
    /// Answers the next API calls with these (status, body) instead.
    pub api_answers: VecDeque<(u16, String)>,
    /// Waits this long before every answer.
    pub delay: Option<Duration>,
}

/// A running test bank; stops when dropped.
pub struct TestBank {
    pub origin: Url,
    /// The CA of the bank's server certificate, for the client's extra roots.
    pub server_ca_pem: String,
    /// A client certificate the bank accepts.
    pub client: ClientCertificate,
    /// A client certificate from a CA the bank does not know.
    pub foreign_client: ClientCertificate,
    pub state: Arc<Mutex<BankState>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for TestBank {
    fn drop(&mut self) {
        self.task.abort();
    }
}

fn ca(name: &str) -> CertifiedIssuer<'static, KeyPair> {
    let mut params = CertificateParams::new(Vec::<String>::new()).expect("params");
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params
        .distinguished_name
        .push(rcgen::DnType::CommonName, name);
    CertifiedIssuer::self_signed(params, KeyPair::generate().expect("key")).expect("CA")
}

fn client_of(ca: &CertifiedIssuer<'static, KeyPair>, name: &str) -> ClientCertificate {
    let key = KeyPair::generate().expect("key");
    let mut params = CertificateParams::new(Vec::<String>::new()).expect("params");
    params
        .distinguished_name
        .push(rcgen::DnType::CommonName, name);
    let cert = params.signed_by(&key, ca).expect("client certificate");
    ClientCertificate::from_pem(cert.pem().as_bytes(), Some(key.serialize_pem().as_bytes()))
        .expect("rcgen's certificate reads")
}

impl TestBank {
    /// Starts a bank on a free port of 127.0.0.1.
    pub async fn start() -> TestBank {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let server_ca = ca("Banco de Testes Servidor CA");
        let client_ca = ca("Banco de Testes Clientes CA");
        let foreign_ca = ca("Outro Banco CA");

        let server_key = KeyPair::generate().expect("key");
        let mut server_params = CertificateParams::new(Vec::<String>::new()).expect("params");
        server_params.subject_alt_names = vec![SanType::IpAddress(IpAddr::V4(Ipv4Addr::LOCALHOST))];
        let server_cert = server_params
            .signed_by(&server_key, &server_ca)
            .expect("server certificate");

        let mut roots = rustls::RootCertStore::empty();
        roots.add(client_ca.der().clone()).expect("client CA");
        // A certificate is optional at the handshake (some banks' token calls take none), but
        // one from an unknown CA is refused there.
        let verifier = rustls::server::WebPkiClientVerifier::builder_with_provider(
            Arc::new(roots),
            provider.clone(),
        )
        .allow_unauthenticated()
        .build()
        .expect("verifier");
        let config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .expect("versions")
            .with_client_cert_verifier(verifier)
            .with_single_cert(
                vec![server_cert.der().clone()],
                PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(server_key.serialize_der())),
            )
            .expect("server config");
        let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));

        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let port = listener.local_addr().expect("address").port();
        let state = Arc::new(Mutex::new(BankState {
            expires_in: 3600,
            ..BankState::default()
        }));
        let shared = state.clone();
        let task = tokio::spawn(async move {
            loop {
                let Ok((tcp, _)) = listener.accept().await else {
                    continue;
                };
                let acceptor = acceptor.clone();
                let state = shared.clone();
                tokio::spawn(async move {
                    // A refused client certificate ends here, as the handshake fails.
                    let Ok(tls) = acceptor.accept(tcp).await else {
                        return;
                    };
                    let had_cert = tls.get_ref().1.peer_certificates().is_some();
                    let service = hyper::service::service_fn(
                        move |request: Request<hyper::body::Incoming>| {
                            let state = state.clone();
                            async move {
                                let (parts, body) = request.into_parts();
                                let body = axum::body::to_bytes(Body::new(body), 1 << 20)
                                    .await
                                    .unwrap_or_default();
                                Ok::<_, std::convert::Infallible>(
                                    answer(
                                        &state,
                                        &parts.method,
                                        &parts.uri,
                                        &parts.headers,
                                        body,
                                        had_cert,
                                    )
                                    .await,
                                )
                            }
                        },
                    );
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(tls), service)
                        .await;
                });
            }
        });
        TestBank {
            origin: Url::parse(&format!("https://127.0.0.1:{port}")).expect("origin"),
            server_ca_pem: server_ca.pem(),
            client: client_of(&client_ca, "loja-de-testes"),
            foreign_client: client_of(&foreign_ca, "loja-de-testes"),
            state,
            task,
        }
    }

    /// The state, locked.
    pub fn state(&self) -> std::sync::MutexGuard<'_, BankState> {
        self.state.lock().expect("bank state")
    }
}

fn json_answer(status: StatusCode, body: serde_json::Value) -> Response {
    (
        status,
        [("content-type", "application/json")],
        body.to_string(),
    )
        .into_response()
}

fn problem(status: StatusCode, kind: &str, title: &str, detail: &str) -> Response {
    json_answer(
        status,
        json!({
            "type": format!("https://pix.bcb.gov.br/api/v2/error/{kind}"),
            "title": title,
            "status": status.as_u16(),
            "detail": detail,
        }),
    )
}

async fn answer(
    state: &Mutex<BankState>,
    method: &Method,
    uri: &Uri,
    headers: &HeaderMap,
    body: Bytes,
    had_cert: bool,
) -> Response {
    let delay = state.lock().expect("state").delay;
    if let Some(delay) = delay {
        tokio::time::sleep(delay).await;
    }
    let body = String::from_utf8_lossy(&body).into_owned();
    let path = uri.path().to_owned();
    if path.ends_with("/token") {
        return token(state, path, headers, body, had_cert);
    }
    let mut state = state.lock().expect("state");
    state.api_calls.push(ApiCall {
        method: method.to_string(),
        path: path.clone(),
        query: uri.query().map(str::to_owned),
        headers: headers.clone(),
        body: body.clone(),
        had_client_certificate: had_cert,
    });
    let bearer = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    if !bearer.is_some_and(|token| state.tokens.contains(token)) {
        return problem(
            StatusCode::UNAUTHORIZED,
            "AcessoNegado",
            "Não Autorizado",
            "Token inválido.",
        );
    }
    if let Some((status, body)) = state.api_answers.pop_front() {
        return (
            StatusCode::from_u16(status).expect("status"),
            [("content-type", "application/problem+json")],
            body,
        )
            .into_response();
    }
    let Some((_, encoded_key)) = path.rsplit_once("/webhook/") else {
        return (StatusCode::NOT_FOUND, "<html>não há nada aqui</html>").into_response();
    };
    let chave = percent_encoding::percent_decode_str(encoded_key)
        .decode_utf8_lossy()
        .into_owned();
    let not_found = || {
        problem(
            StatusCode::NOT_FOUND,
            "WebhookNaoEncontrado",
            "Webhook não encontrado",
            "O webhook denotado por {chave} não encontra-se estabelecido.",
        )
    };
    match *method {
        Method::GET => match state.webhooks.get(&chave) {
            Some(url) => json_answer(
                StatusCode::OK,
                json!({ "webhookUrl": url, "chave": chave, "criacao": "2026-11-28T12:00:00Z" }),
            ),
            None => not_found(),
        },
        Method::PUT => {
            if chave != KEY {
                return json_answer(
                    StatusCode::BAD_REQUEST,
                    json!({
                        "type": "https://pix.bcb.gov.br/api/v2/error/WebhookOperacaoInvalida",
                        "title": "Webhook inválido.",
                        "status": 400,
                        "violacoes": [{
                            "razao": "O parâmetro não corresponde a uma chave DICT pertencente a este usuário recebedor.",
                            "propriedade": "chave",
                        }],
                    }),
                );
            }
            let url = serde_json::from_str::<serde_json::Value>(&body)
                .ok()
                .and_then(|v| v["webhookUrl"].as_str().map(str::to_owned));
            match url {
                Some(url) => {
                    state.webhooks.insert(chave, url);
                    StatusCode::OK.into_response()
                }
                None => problem(
                    StatusCode::BAD_REQUEST,
                    "WebhookOperacaoInvalida",
                    "Webhook inválido.",
                    "Sem webhookUrl.",
                ),
            }
        }
        Method::DELETE => match state.webhooks.remove(&chave) {
            Some(_) => StatusCode::NO_CONTENT.into_response(),
            None => not_found(),
        },
        _ => StatusCode::METHOD_NOT_ALLOWED.into_response(),
    }
}

/// Accepts the known id and secret by Basic auth (form-decoded, RFC 6749 §2.3.1) or in a form
/// or JSON body.
fn token(
    state: &Mutex<BankState>,
    path: String,
    headers: &HeaderMap,
    body: String,
    had_cert: bool,
) -> Response {
    let mut state = state.lock().expect("state");
    let authorization = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let content_type = headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    state.token_calls.push(TokenCall {
        path,
        authorization: authorization.clone(),
        content_type: content_type.clone(),
        body: body.clone(),
        had_client_certificate: had_cert,
    });
    if let Some((status, body)) = state.token_answers.pop_front() {
        return (
            StatusCode::from_u16(status).expect("status"),
            [("content-type", "application/json")],
            body,
        )
            .into_response();
    }
    let fields: HashMap<String, String> = if content_type.starts_with("application/json") {
        serde_json::from_str::<HashMap<String, String>>(&body).unwrap_or_default()
    } else {
        url::form_urlencoded::parse(body.as_bytes())
            .into_owned()
            .collect()
    };
    let from_basic = authorization
        .as_deref()
        .and_then(|v| v.strip_prefix("Basic "))
        .and_then(|b64| base64::engine::general_purpose::STANDARD.decode(b64).ok())
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .and_then(|pair| {
            let (id, secret) = pair.split_once(':')?;
            let decode = |s: &str| {
                url::form_urlencoded::parse(format!("x={s}").as_bytes())
                    .next()
                    .map(|(_, v)| v.into_owned())
                    .unwrap_or_default()
            };
            Some((decode(id), decode(secret)))
        });
    let from_body = fields.get("client_id").map(|id| {
        (
            id.clone(),
            fields.get("client_secret").cloned().unwrap_or_default(),
        )
    });
    let Some((id, secret)) = from_basic.or(from_body) else {
        return json_answer(
            StatusCode::UNAUTHORIZED,
            json!({ "error": "invalid_client" }),
        );
    };
    // A bank without secrets (Sicoob) knows the client by its id and certificate.
    if id != CLIENT_ID || !(secret == CLIENT_SECRET || secret.is_empty() && had_cert) {
        return json_answer(
            StatusCode::UNAUTHORIZED,
            json!({ "error": "invalid_client" }),
        );
    }
    let token = format!("token-{}", state.tokens.len() + 1);
    state.tokens.insert(token.clone());
    json_answer(
        StatusCode::OK,
        json!({ "access_token": token, "token_type": "Bearer", "expires_in": state.expires_in }),
    )
}
