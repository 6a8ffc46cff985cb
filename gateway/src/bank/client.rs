//! [`ApiPixClient`]: the token, the webhook of a Pix key, and how failures read.

use std::fmt;
use std::time::Duration;

use chrono::{DateTime, Utc};
use domain::bank::certificate::ClientCertificate;
use domain::bank::profiles::{
    BankId, BankProfile, BankUrls, ExtraFieldPlace, TokenAuth, TokenBody,
};
use domain::payment::RefundReport;
use reqwest::{Method, StatusCode};
use serde::Deserialize;
use tokio::sync::Mutex;
use url::Url;
use zeroize::Zeroizing;

use super::BankError;
use crate::clock::Clock;

/// How long before a token's expiry the next one is asked for.
const REFRESH_EARLY: chrono::Duration = chrono::Duration::seconds(60);
/// A token's life when the bank does not say (`expires_in` missing): short, to be safe.
const DEFAULT_TOKEN_LIFE_SECONDS: i64 = 300;
/// The most of a bank's problem text shown to the owner.
const MAX_MESSAGE_CHARS: usize = 300;

/// What the owner gave Balcão to reach their bank. `Debug` hides the secret and the key.
#[derive(Clone)]
pub struct Credentials {
    /// The OAuth2 client id.
    pub client_id: String,
    /// The OAuth2 client secret (empty for banks that issue none, like Sicoob).
    pub client_secret: Zeroizing<String>,
    /// The client certificate the bank issued, with its key.
    pub certificate: ClientCertificate,
    /// The profile's [`ExtraField`](domain::bank::profiles::ExtraField) value (BB's
    /// `gw-dev-app-key`, Inter's `x-conta-corrente`), when the owner typed one.
    pub extra_value: Option<String>,
}

impl fmt::Debug for Credentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Credentials")
            .field("client_id", &self.client_id)
            .field("client_secret", &"<secret>")
            .field("certificate", &self.certificate)
            .field("extra_value", &self.extra_value)
            .finish()
    }
}

/// Everything an [`ApiPixClient`] is built from.
#[derive(Debug, Clone)]
pub struct ApiPixSettings {
    /// Which bank: its profile says how the token call goes and which extra value travels where.
    pub bank: BankId,
    /// The bank's URLs (from the profile and environment, or typed for "Outro").
    pub urls: BankUrls,
    /// The owner's credentials.
    pub credentials: Credentials,
    /// More CAs to trust for the bank's server certificate, PEM, besides the built-in Mozilla
    /// roots (a bank's homologação CA; the tests' simulator CA).
    pub extra_root_pem: Option<String>,
    /// Sends every call to this origin instead, keeping the profile's paths (tests point every
    /// profile at one simulator).
    pub origin: Option<Url>,
    /// The most one call (connect, send, answer) may take.
    pub timeout: Duration,
    /// The clock token expiry is read on.
    pub clock: Clock,
}

impl ApiPixSettings {
    /// Settings with no extra root, no origin override, a 15 s timeout and the system clock.
    pub fn new(bank: BankId, urls: BankUrls, credentials: Credentials) -> ApiPixSettings {
        ApiPixSettings {
            bank,
            urls,
            credentials,
            extra_root_pem: None,
            origin: None,
            timeout: Duration::from_secs(15),
            clock: Clock::default(),
        }
    }
}

/// An OAuth2 access token. `Debug` hides it.
#[derive(Clone, PartialEq, Eq)]
pub struct AccessToken(Zeroizing<String>);

impl AccessToken {
    /// The token, for an `Authorization: Bearer` header. Never log it.
    pub fn secret(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for AccessToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("AccessToken(<secret>)")
    }
}

/// What [`ApiPixClient::ensure_webhook`] found and did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WebhookOutcome {
    /// The key's webhook was already this URL: nothing was written.
    AlreadyRegistered,
    /// The URL was registered.
    Registered {
        /// The URL the key had before, if any (another system's receiver, an old Balcão URL).
        replaced: Option<String>,
    },
}

struct CachedToken {
    token: AccessToken,
    refresh_at: DateTime<Utc>,
}

/// A client for one connection to one bank's API Pix. Share it (`Arc`) rather than building one
/// per call: it holds the token and the TLS sessions.
pub struct ApiPixClient {
    profile: &'static BankProfile,
    urls: BankUrls,
    client_id: String,
    client_secret: Zeroizing<String>,
    extra_value: Option<String>,
    /// Presents the client certificate.
    api: reqwest::Client,
    /// The token call's client: `api` itself when the profile's token call is mTLS, else one
    /// without the certificate.
    token_http: reqwest::Client,
    /// Held while a token is fetched, so concurrent callers wait for one refresh.
    token: Mutex<Option<CachedToken>>,
    clock: Clock,
}

impl fmt::Debug for ApiPixClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ApiPixClient")
            .field("bank", &self.profile.id)
            .field("api_base", &self.urls.api_base().as_str())
            .finish_non_exhaustive()
    }
}

/// The token endpoint's answer (RFC 6749 §5.1). Some banks send `expires_in` as a string.
#[derive(Deserialize)]
struct TokenAnswer {
    access_token: String,
    #[serde(default)]
    expires_in: Option<NumberOrText>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum NumberOrText {
    Number(i64),
    Text(String),
}

/// An OAuth2 error answer (RFC 6749 §5.2).
#[derive(Deserialize)]
struct OAuthError {
    error: String,
}

/// An RFC 7807 problem as the API Pix writes it (`Problema`).
#[derive(Deserialize, Default)]
struct Problem {
    #[serde(default, rename = "type")]
    kind: String,
    #[serde(default)]
    title: String,
    #[serde(default)]
    detail: String,
    #[serde(default)]
    violacoes: Vec<Violation>,
}

#[derive(Deserialize)]
struct Violation {
    #[serde(default)]
    razao: String,
    #[serde(default)]
    propriedade: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Webhook {
    webhook_url: String,
}

impl ApiPixClient {
    /// A client for `settings`.
    ///
    /// # Errors
    ///
    /// [`BankError::Setup`] when the certificate or the extra roots cannot be loaded into TLS.
    pub fn new(settings: ApiPixSettings) -> Result<ApiPixClient, BankError> {
        let profile = settings.bank.profile();
        let urls = match &settings.origin {
            Some(origin) => settings.urls.at_origin(origin),
            None => settings.urls,
        };
        let identity_pem = settings.credentials.certificate.identity_pem();
        let identity =
            reqwest::Identity::from_pem(identity_pem.as_bytes()).map_err(|_| BankError::Setup)?;
        let mut roots = Vec::new();
        if let Some(pem) = &settings.extra_root_pem {
            roots = reqwest::Certificate::from_pem_bundle(pem.as_bytes())
                .map_err(|_| BankError::Setup)?;
        }
        let builder = |identity: Option<reqwest::Identity>| {
            let mut builder = reqwest::Client::builder()
                .use_rustls_tls()
                .https_only(true)
                .min_tls_version(reqwest::tls::Version::TLS_1_2)
                .tls_built_in_root_certs(true)
                .timeout(settings.timeout)
                .connect_timeout(settings.timeout)
                .user_agent(concat!("Balcao/", env!("CARGO_PKG_VERSION")));
            for root in &roots {
                builder = builder.add_root_certificate(root.clone());
            }
            if let Some(identity) = identity {
                builder = builder.identity(identity);
            }
            builder.build().map_err(|_| BankError::Setup)
        };
        let api = builder(Some(identity))?;
        let token_http = if profile.token_mtls {
            api.clone()
        } else {
            builder(None)?
        };
        Ok(ApiPixClient {
            profile,
            urls,
            client_id: settings.credentials.client_id,
            client_secret: settings.credentials.client_secret,
            extra_value: settings
                .credentials
                .extra_value
                .filter(|value| !value.trim().is_empty()),
            api,
            token_http,
            token: Mutex::new(None),
            clock: settings.clock,
        })
    }

    /// The bank's profile.
    pub fn profile(&self) -> &'static BankProfile {
        self.profile
    }

    /// The URLs calls go to (after any origin override).
    pub fn urls(&self) -> &BankUrls {
        &self.urls
    }

    /// A valid access token: the cached one until 60 s before it expires, else a new one. Callers
    /// that arrive during a refresh wait for it instead of asking the bank again.
    ///
    /// # Errors
    ///
    /// As the token endpoint answered: [`BankError::InvalidClient`],
    /// [`BankError::ScopeMissing`], [`BankError::CertificateRefused`], and the transport ones.
    pub async fn token(&self) -> Result<AccessToken, BankError> {
        let mut cached = self.token.lock().await;
        if let Some(current) = cached.as_ref()
            && self.clock.now() < current.refresh_at
        {
            return Ok(current.token.clone());
        }
        let fresh = self.fetch_token().await?;
        let token = fresh.token.clone();
        *cached = Some(fresh);
        Ok(token)
    }

    /// Drops the cached token if it is still `stale` (the bank refused it early).
    async fn forget_token(&self, stale: &AccessToken) {
        let mut cached = self.token.lock().await;
        if cached.as_ref().is_some_and(|c| &c.token == stale) {
            *cached = None;
        }
    }

    async fn fetch_token(&self) -> Result<CachedToken, BankError> {
        let profile = self.profile;
        let scope = profile.scope_parameter();
        let mut fields: Vec<(&str, &str)> = vec![("grant_type", "client_credentials")];
        if let Some(scope) = &scope {
            fields.push(("scope", scope));
        }
        let mut request = self
            .token_http
            .post(self.urls.token_url().clone())
            .header(reqwest::header::ACCEPT, "application/json");
        match profile.token_auth {
            TokenAuth::Basic => {
                // RFC 6749 §2.3.1: id and secret are form-encoded before they are joined.
                let encode = |text: &str| {
                    Zeroizing::new(
                        url::form_urlencoded::byte_serialize(text.as_bytes()).collect::<String>(),
                    )
                };
                let secret = encode(&self.client_secret);
                request = request.basic_auth(&*encode(&self.client_id), Some(&*secret));
            }
            TokenAuth::Body => {
                fields.push(("client_id", &self.client_id));
                if profile.uses_client_secret {
                    fields.push(("client_secret", &self.client_secret));
                }
            }
        }
        request = match profile.token_body {
            TokenBody::Form => request.form(&fields),
            TokenBody::Json => {
                let body: serde_json::Map<String, serde_json::Value> = fields
                    .iter()
                    .map(|(name, value)| ((*name).to_owned(), (*value).into()))
                    .collect();
                request.json(&body)
            }
        };
        let asked_at = self.clock.now();
        let response = request
            .send()
            .await
            .map_err(|error| transport_error(&error, self.urls.token_url()))?;
        let status = response.status();
        let body = response
            .bytes()
            .await
            .map_err(|error| transport_error(&error, self.urls.token_url()))?;
        tracing::debug!(
            bank = profile.id.slug(),
            status = status.as_u16(),
            "bank token call"
        );
        if !status.is_success() {
            return Err(token_error(status, &body, scope.unwrap_or_default()));
        }
        let answer: TokenAnswer =
            serde_json::from_slice(&body).map_err(|_| BankError::Unexpected {
                status: status.as_u16(),
            })?;
        if answer.access_token.is_empty() {
            return Err(BankError::Unexpected {
                status: status.as_u16(),
            });
        }
        let life = match answer.expires_in {
            Some(NumberOrText::Number(seconds)) => seconds,
            Some(NumberOrText::Text(text)) => {
                text.trim().parse().unwrap_or(DEFAULT_TOKEN_LIFE_SECONDS)
            }
            None => DEFAULT_TOKEN_LIFE_SECONDS,
        }
        .max(0);
        let life = chrono::Duration::seconds(life);
        // A token shorter-lived than twice the margin is refreshed at half its life instead.
        let early = REFRESH_EARLY.min(life / 2);
        Ok(CachedToken {
            token: AccessToken(Zeroizing::new(answer.access_token)),
            refresh_at: asked_at + life - early,
        })
    }

    /// The URL of `segments` under the API base, with the profile's query parameter.
    fn api_url(&self, segments: &[&str]) -> Url {
        let mut url = self.urls.api_base().clone();
        {
            // A base that is `https://host` has the empty segment `[""]`, popped so no `//`.
            let mut path = url.path_segments_mut().expect("an https URL has a path");
            path.pop_if_empty().extend(segments);
        }
        if let (Some(extra), Some(value)) = (self.profile.extra_field, &self.extra_value)
            && extra.place == ExtraFieldPlace::Query
        {
            url.query_pairs_mut().append_pair(extra.name, value);
        }
        url
    }

    /// One API call with the bearer token; a 401 drops the token and tries once more with a new
    /// one (a bank may revoke tokens before their stated expiry).
    async fn call(
        &self,
        operation: &'static str,
        method: Method,
        segments: &[&str],
        body: Option<&serde_json::Value>,
    ) -> Result<(StatusCode, Vec<u8>), BankError> {
        self.call_with_query(operation, method, segments, &[], body)
            .await
    }

    /// [`call`](Self::call) with query parameters after the profile's own.
    async fn call_with_query(
        &self,
        operation: &'static str,
        method: Method,
        segments: &[&str],
        query: &[(&str, String)],
        body: Option<&serde_json::Value>,
    ) -> Result<(StatusCode, Vec<u8>), BankError> {
        let mut url = self.api_url(segments);
        if !query.is_empty() {
            let mut pairs = url.query_pairs_mut();
            for (name, value) in query {
                pairs.append_pair(name, value);
            }
        }
        let mut retried = false;
        loop {
            let token = self.token().await?;
            let mut request = self
                .api
                .request(method.clone(), url.clone())
                .bearer_auth(token.secret())
                .header(reqwest::header::ACCEPT, "application/json");
            if let (Some(extra), Some(value)) = (self.profile.extra_field, &self.extra_value)
                && extra.place == ExtraFieldPlace::Header
            {
                request = request.header(extra.name, value);
            }
            if let Some(body) = body {
                request = request.json(body);
            }
            let response = request
                .send()
                .await
                .map_err(|error| transport_error(&error, &url))?;
            let status = response.status();
            let bytes = response
                .bytes()
                .await
                .map_err(|error| transport_error(&error, &url))?
                .to_vec();
            tracing::debug!(
                bank = self.profile.id.slug(),
                operation,
                status = status.as_u16(),
                "bank API call"
            );
            if status == StatusCode::UNAUTHORIZED && !retried {
                retried = true;
                self.forget_token(&token).await;
                continue;
            }
            return Ok((status, bytes));
        }
    }

    /// The webhook URL registered for `chave` (`GET /webhook/{chave}`), `None` when there is
    /// none.
    ///
    /// # Errors
    ///
    /// As [`BankError`] says.
    pub async fn get_webhook(&self, chave: &str) -> Result<Option<String>, BankError> {
        let (status, body) = self
            .call("get-webhook", Method::GET, &["webhook", chave], None)
            .await?;
        if status == StatusCode::NOT_FOUND && is_problem(&body) {
            return Ok(None);
        }
        if !status.is_success() {
            return Err(api_error(status, &body, "webhook.read"));
        }
        let webhook: Webhook =
            serde_json::from_slice(&body).map_err(|_| BankError::Unexpected {
                status: status.as_u16(),
            })?;
        Ok(Some(webhook.webhook_url))
    }

    /// Registers `webhook_url` for `chave` (`PUT /webhook/{chave}` with `{"webhookUrl": …}`);
    /// the bank will POST received Pix to it (the spec: to `webhook_url` + `/pix`).
    ///
    /// # Errors
    ///
    /// As [`BankError`] says; [`BankError::KeyNotRegistered`] when the key is not this
    /// account's at this bank.
    pub async fn put_webhook(&self, chave: &str, webhook_url: &str) -> Result<(), BankError> {
        let body = serde_json::json!({ "webhookUrl": webhook_url });
        let (status, answer) = self
            .call("put-webhook", Method::PUT, &["webhook", chave], Some(&body))
            .await?;
        if status.is_success() {
            Ok(())
        } else {
            Err(api_error(status, &answer, "webhook.write"))
        }
    }

    /// Makes `webhook_url` the webhook of `chave`: reads what is registered first and writes
    /// only when it differs, saying which it was (the connect screen shows "já estava
    /// cadastrado" or the URL it replaced).
    ///
    /// # Errors
    ///
    /// As [`ApiPixClient::get_webhook`] and [`ApiPixClient::put_webhook`].
    pub async fn ensure_webhook(
        &self,
        chave: &str,
        webhook_url: &str,
    ) -> Result<WebhookOutcome, BankError> {
        let current = self.get_webhook(chave).await?;
        if current.as_deref() == Some(webhook_url) {
            return Ok(WebhookOutcome::AlreadyRegistered);
        }
        self.put_webhook(chave, webhook_url).await?;
        Ok(WebhookOutcome::Registered { replaced: current })
    }

    /// Removes the webhook of `chave` (`DELETE /webhook/{chave}`). A key without one is already
    /// where the caller wants it: `Ok`.
    ///
    /// # Errors
    ///
    /// As [`BankError`] says.
    pub async fn delete_webhook(&self, chave: &str) -> Result<(), BankError> {
        let (status, body) = self
            .call("delete-webhook", Method::DELETE, &["webhook", chave], None)
            .await?;
        if status.is_success() || (status == StatusCode::NOT_FOUND && is_problem(&body)) {
            Ok(())
        } else {
            Err(api_error(status, &body, "webhook.write"))
        }
    }

    /// Asks the bank to pay `valor` of the Pix `e2eid` back to its payer
    /// (`PUT /pix/{e2eid}/devolucao/{id}` with `{"valor", "natureza": "ORIGINAL", "descricao"?}`)
    /// and reads the `Devolucao` it answers.
    ///
    /// # Errors
    ///
    /// As [`BankError`] says: a refusal (the amount passes what is left, the Pix is not this
    /// account's, the id was used) is [`BankError::Refused`] with the bank's words, or
    /// [`BankError::Unexpected`] when the answer is not a `Devolucao`.
    pub async fn put_refund(
        &self,
        e2eid: &str,
        id: &str,
        valor: domain::money::Centavos,
        descricao: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<RefundReport, BankError> {
        let mut body = serde_json::json!({"valor": valor.to_emv(), "natureza": "ORIGINAL"});
        if let Some(descricao) = descricao {
            body["descricao"] = serde_json::Value::from(descricao);
        }
        let (status, answer) = self
            .call(
                "put-refund",
                Method::PUT,
                &["pix", e2eid, "devolucao", id],
                Some(&body),
            )
            .await?;
        if !status.is_success() {
            return Err(api_error(status, &answer, "pix.write"));
        }
        refund_answer(status, &answer, now)
    }

    /// The refund `id` of the Pix `e2eid` as the bank has it
    /// (`GET /pix/{e2eid}/devolucao/{id}`); `None` when the bank has no such refund (a request
    /// that never reached it).
    ///
    /// # Errors
    ///
    /// As [`BankError`] says.
    pub async fn get_refund(
        &self,
        e2eid: &str,
        id: &str,
        now: DateTime<Utc>,
    ) -> Result<Option<RefundReport>, BankError> {
        let (status, answer) = self
            .call(
                "get-refund",
                Method::GET,
                &["pix", e2eid, "devolucao", id],
                None,
            )
            .await?;
        if status == StatusCode::NOT_FOUND && is_problem(&answer) {
            return Ok(None);
        }
        if !status.is_success() {
            return Err(api_error(status, &answer, "pix.read"));
        }
        refund_answer(status, &answer, now).map(Some)
    }

    /// Asks the bank for a charge: immediate (`PUT /cob/{txid}` with `calendario.expiracao`) or
    /// with a due date (`PUT /cobv/{txid}` with `calendario.dataDeVencimento`, the debtor and the
    /// fine, interest, discount and abatement in the spec's modalities), with `valor.original`,
    /// `chave` and, when given, `solicitacaoPagador`; reads the location it answers. When the
    /// bank refuses a charge it already has under this txid (a retry after an answer that was
    /// lost), the charge is read back and taken if it is the same one, still `ATIVA`.
    ///
    /// # Errors
    ///
    /// As [`BankError`] says; [`BankError::Unexpected`] when the answer carries no location.
    pub async fn put_charge(&self, charge: &ChargeRequest<'_>) -> Result<ChargeReport, BankError> {
        let mut body = serde_json::json!({
            "valor": {"original": charge.amount.to_emv()},
            "chave": charge.chave,
        });
        let path = match &charge.terms {
            ChargeRequestTerms::Immediate { expires_in_seconds } => {
                body["calendario"] = serde_json::json!({"expiracao": expires_in_seconds});
                "cob"
            }
            ChargeRequestTerms::DueDate(due) => {
                due.write(&mut body);
                "cobv"
            }
        };
        if let Some(message) = charge.payer_message {
            body["solicitacaoPagador"] = serde_json::Value::from(message);
        }
        let (status, answer) = self
            .call("put-charge", Method::PUT, &[path, charge.txid], Some(&body))
            .await?;
        if status.is_success() {
            return charge_answer(status, &answer);
        }
        let refused = api_error(status, &answer, &format!("{path}.write"));
        if !status.is_client_error() {
            return Err(refused);
        }
        match self.get_charge(path, charge.txid).await {
            Ok(Some(found))
                if found.status == "ATIVA"
                    && found.chave == charge.chave
                    && found.amount == Some(charge.amount) =>
            {
                Ok(found)
            }
            _ => Err(refused),
        }
    }

    /// The charge `txid` as the bank has it (`GET /cob/{txid}` or, with `path` `cobv`,
    /// `GET /cobv/{txid}`); `None` when it has none.
    ///
    /// # Errors
    ///
    /// As [`BankError`] says.
    pub async fn get_charge(
        &self,
        path: &str,
        txid: &str,
    ) -> Result<Option<ChargeReport>, BankError> {
        let (status, answer) = self
            .call("get-charge", Method::GET, &[path, txid], None)
            .await?;
        if status == StatusCode::NOT_FOUND && is_problem(&answer) {
            return Ok(None);
        }
        if !status.is_success() {
            return Err(api_error(status, &answer, &format!("{path}.read")));
        }
        charge_answer(status, &answer).map(Some)
    }

    /// One page of the Pix the account received between `inicio` and `fim`
    /// (`GET /pix?inicio=&fim=&paginacao.paginaAtual=&paginacao.itensPorPagina=`): the entries
    /// as the bank wrote them (the webhook's own schema) and how many pages there are.
    ///
    /// # Errors
    ///
    /// As [`BankError`] says; [`BankError::Unexpected`] when the answer is not the spec's.
    pub async fn received_pix(
        &self,
        inicio: DateTime<Utc>,
        fim: DateTime<Utc>,
        page: u32,
        per_page: u32,
    ) -> Result<ReceivedPage, BankError> {
        let at = |t: DateTime<Utc>| t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
        let query = [
            ("inicio", at(inicio)),
            ("fim", at(fim)),
            ("paginacao.paginaAtual", page.to_string()),
            ("paginacao.itensPorPagina", per_page.to_string()),
        ];
        let (status, body) = self
            .call_with_query("list-pix", Method::GET, &["pix"], &query, None)
            .await?;
        if !status.is_success() {
            return Err(api_error(status, &body, "pix.read"));
        }
        let unexpected = || BankError::Unexpected {
            status: status.as_u16(),
        };
        let answer: ReceivedAnswer = serde_json::from_slice(&body).map_err(|_| unexpected())?;
        Ok(ReceivedPage {
            entries: answer.pix,
            pages: answer
                .parametros
                .and_then(|p| p.paginacao)
                .map_or(1, |p| p.quantidade_de_paginas),
        })
    }
}

/// A `Devolucao` the bank answered, checked as a webhook's `devolucoes` entry is.
fn refund_answer(
    status: StatusCode,
    body: &[u8],
    now: DateTime<Utc>,
) -> Result<RefundReport, BankError> {
    domain::payment::api_pix::parse_refund(body, now).map_err(|problems| {
        tracing::warn!(
            ?problems,
            "the bank's refund answer breaks the API Pix schema"
        );
        BankError::Unexpected {
            status: status.as_u16(),
        }
    })
}

/// A charge's answer (`CobGerada`, `CobCompleta`) as far as Balcão reads it.
fn charge_answer(status: StatusCode, body: &[u8]) -> Result<ChargeReport, BankError> {
    #[derive(Deserialize)]
    struct Valor {
        original: String,
    }
    #[derive(Deserialize)]
    struct Answer {
        location: Option<String>,
        loc: Option<Loc>,
        status: String,
        chave: String,
        valor: Valor,
    }
    #[derive(Deserialize)]
    struct Loc {
        location: String,
    }
    let unexpected = || {
        tracing::warn!("the bank's charge answer breaks the API Pix schema");
        BankError::Unexpected {
            status: status.as_u16(),
        }
    };
    let answer: Answer = serde_json::from_slice(body).map_err(|_| unexpected())?;
    let location = answer
        .location
        .or(answer.loc.map(|loc| loc.location))
        .filter(|location| !location.trim().is_empty())
        .ok_or_else(unexpected)?;
    Ok(ChargeReport {
        location,
        status: answer.status,
        chave: answer.chave,
        amount: domain::money::Centavos::parse_emv(&answer.valor.original).ok(),
    })
}

/// A charge to ask a bank for, immediate or with a due date ([`ApiPixClient::put_charge`]).
#[derive(Debug, Clone)]
pub struct ChargeRequest<'a> {
    /// The charge's txid: 26 to 35 letters and digits.
    pub txid: &'a str,
    /// The key that receives.
    pub chave: &'a str,
    /// `valor.original`.
    pub amount: domain::money::Centavos,
    /// Immediate or with a due date.
    pub terms: ChargeRequestTerms<'a>,
    /// `solicitacaoPagador`: what the payer reads in their bank app.
    pub payer_message: Option<&'a str>,
}

/// What kind of charge, with its terms.
#[derive(Debug, Clone)]
pub enum ChargeRequestTerms<'a> {
    /// `cob`, `calendario.expiracao` in seconds.
    Immediate {
        /// Seconds from the bank's `calendario.criacao`.
        expires_in_seconds: u32,
    },
    /// `cobv`.
    DueDate(DueDateRequest<'a>),
}

/// A due-date charge's terms as the bank takes them (the debtor in the clear: the bank needs
/// it, and it goes nowhere else).
#[derive(Debug, Clone)]
pub struct DueDateRequest<'a> {
    /// `calendario.dataDeVencimento`, `YYYY-MM-DD`.
    pub due_date: &'a str,
    /// `calendario.validadeAposVencimento`.
    pub days_after_due: u32,
    /// `devedor.nome`.
    pub debtor_name: &'a str,
    /// `devedor.cpf` (11 digits) or `devedor.cnpj` (14 characters).
    pub debtor_document: &'a str,
    /// `valor.multa`.
    pub fine: Option<domain::qrcode::Adjustment>,
    /// `valor.juros`.
    pub interest: Option<domain::qrcode::Adjustment>,
    /// `valor.desconto`.
    pub discount: Option<&'a domain::qrcode::Discount>,
    /// `valor.abatimento`.
    pub abatement: Option<domain::qrcode::Adjustment>,
}

impl DueDateRequest<'_> {
    /// Writes `calendario`, `devedor` and the adjustments of `valor` into `body`.
    fn write(&self, body: &mut serde_json::Value) {
        // `valorPerc`: reais or a percentage, both written `d.dd`.
        let perc = |hundredths: u64| domain::money::Centavos::new(hundredths).to_emv();
        let adjustment = |a: domain::qrcode::Adjustment| serde_json::json!({"modalidade": a.modality, "valorPerc": perc(a.value)});
        body["calendario"] = serde_json::json!({
            "dataDeVencimento": self.due_date,
            "validadeAposVencimento": self.days_after_due,
        });
        let document = if self.debtor_document.len() == 11 {
            "cpf"
        } else {
            "cnpj"
        };
        body["devedor"] =
            serde_json::json!({ document: self.debtor_document, "nome": self.debtor_name });
        if let Some(fine) = self.fine {
            body["valor"]["multa"] = adjustment(fine);
        }
        if let Some(interest) = self.interest {
            body["valor"]["juros"] = adjustment(interest);
        }
        if let Some(discount) = self.discount {
            body["valor"]["desconto"] = if discount.dates.is_empty() {
                serde_json::json!({
                    "modalidade": discount.modality,
                    "valorPerc": perc(discount.value.unwrap_or(0)),
                })
            } else {
                let dates: Vec<serde_json::Value> = discount
                    .dates
                    .iter()
                    .map(|d| serde_json::json!({"data": d.until, "valorPerc": perc(d.value)}))
                    .collect();
                serde_json::json!({"modalidade": discount.modality, "descontoDataFixa": dates})
            };
        }
        if let Some(abatement) = self.abatement {
            body["valor"]["abatimento"] = adjustment(abatement);
        }
    }
}

/// A charge as the bank answered it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChargeReport {
    /// The location of its payload (`location`, or `loc.location`).
    pub location: String,
    /// `ATIVA`, `CONCLUIDA`, `REMOVIDA_PELO_USUARIO_RECEBEDOR`, `REMOVIDA_PELO_PSP`.
    pub status: String,
    /// The key that receives.
    pub chave: String,
    /// `valor.original`, when readable.
    pub amount: Option<domain::money::Centavos>,
}

/// Whether `body` is an RFC 7807 problem (a JSON object with a `title` or `type`): the API Pix's
/// "no webhook here" 404, as opposed to a web server's page for a path it does not serve.
fn is_problem(body: &[u8]) -> bool {
    serde_json::from_slice::<serde_json::Map<String, serde_json::Value>>(body)
        .is_ok_and(|object| object.contains_key("title") || object.contains_key("type"))
}

/// A refused token call, by its OAuth2 `error` code first, its status second.
fn token_error(status: StatusCode, body: &[u8], scope: String) -> BankError {
    if status.is_server_error() {
        return BankError::Unavailable {
            status: status.as_u16(),
        };
    }
    let code = serde_json::from_slice::<OAuthError>(body).map(|e| e.error);
    match code.as_deref() {
        Ok("invalid_client" | "unauthorized_client" | "invalid_grant") => BankError::InvalidClient,
        Ok("invalid_scope") => BankError::ScopeMissing { scope },
        _ if status == StatusCode::UNAUTHORIZED || status == StatusCode::FORBIDDEN => {
            BankError::InvalidClient
        }
        _ if status == StatusCode::NOT_FOUND => BankError::NotFound,
        _ => problem_error(status, body),
    }
}

/// A refused API call: 5xx, a key the account does not hold, a missing scope, or the bank's own
/// words.
fn api_error(status: StatusCode, body: &[u8], scope: &str) -> BankError {
    if status.is_server_error() {
        return BankError::Unavailable {
            status: status.as_u16(),
        };
    }
    let problem: Problem = serde_json::from_slice(body).unwrap_or_default();
    let mut words = format!("{} {} {}", problem.kind, problem.title, problem.detail);
    for violation in &problem.violacoes {
        words.push(' ');
        words.push_str(&violation.razao);
    }
    let words = words.to_lowercase();
    let about_key = problem
        .violacoes
        .iter()
        .any(|violation| violation.propriedade.to_lowercase().ends_with("chave"))
        || words.contains("chave");
    let about_scope = words.contains("escopo") || words.contains("scope");
    match status {
        StatusCode::UNAUTHORIZED => BankError::InvalidClient,
        StatusCode::FORBIDDEN if about_scope => BankError::ScopeMissing {
            scope: scope.to_owned(),
        },
        StatusCode::BAD_REQUEST
        | StatusCode::FORBIDDEN
        | StatusCode::NOT_FOUND
        | StatusCode::UNPROCESSABLE_ENTITY
            if about_key =>
        {
            BankError::KeyNotRegistered
        }
        // The spec's 403: a rule of authorisation; in practice, the app's missing scope.
        StatusCode::FORBIDDEN => BankError::ScopeMissing {
            scope: scope.to_owned(),
        },
        StatusCode::NOT_FOUND if !is_problem(body) => BankError::NotFound,
        _ => problem_error(status, body),
    }
}

/// The bank's own `title` and `detail` (or `error_description`), one trimmed line; or
/// [`BankError::Unexpected`] when the body says nothing readable.
fn problem_error(status: StatusCode, body: &[u8]) -> BankError {
    #[derive(Deserialize, Default)]
    struct Words {
        #[serde(default)]
        title: String,
        #[serde(default)]
        detail: String,
        #[serde(default)]
        error_description: String,
    }
    let words: Words = serde_json::from_slice(body).unwrap_or_default();
    let parts: Vec<&str> = [&words.title, &words.detail, &words.error_description]
        .into_iter()
        .map(|text| text.trim())
        .filter(|text| !text.is_empty())
        .collect();
    if parts.is_empty() {
        return BankError::Unexpected {
            status: status.as_u16(),
        };
    }
    let joined = parts.join(": ");
    let line: String = joined
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(MAX_MESSAGE_CHARS)
        .collect();
    BankError::Refused {
        status: status.as_u16(),
        message: line,
    }
}

/// A call that got no HTTP answer: timeout, a TLS refusal either way, or no connection.
fn transport_error(error: &reqwest::Error, url: &Url) -> BankError {
    let host = url.host_str().unwrap_or_default().to_owned();
    if error.is_timeout() {
        return BankError::Timeout;
    }
    match rustls_error(error) {
        Some(rustls::Error::InvalidCertificate(_)) => return BankError::ServerUntrusted { host },
        Some(rustls::Error::AlertReceived(alert)) if refuses_our_certificate(*alert) => {
            return BankError::CertificateRefused;
        }
        _ => {}
    }
    BankError::Unreachable { host }
}

/// The alerts a server sends when it will not take the client's certificate (RFC 8446 §6.2).
fn refuses_our_certificate(alert: rustls::AlertDescription) -> bool {
    use rustls::AlertDescription as A;
    matches!(
        alert,
        A::BadCertificate
            | A::CertificateRequired
            | A::UnknownCA
            | A::CertificateUnknown
            | A::CertificateExpired
            | A::CertificateRevoked
            | A::UnsupportedCertificate
            | A::AccessDenied
            | A::DecryptError
            | A::HandshakeFailure
    )
}

/// The rustls error somewhere down `error`'s sources. `io::Error` hides the error it wraps from
/// `source()` (it returns the inner error's source), so it is opened with `get_ref`.
fn rustls_error(error: &reqwest::Error) -> Option<&rustls::Error> {
    let mut next: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(current) = next {
        if let Some(found) = current.downcast_ref::<rustls::Error>() {
            return Some(found);
        }
        next = match current.downcast_ref::<std::io::Error>() {
            // An io::Error may wrap another io::Error: each is opened in turn.
            Some(io) => io
                .get_ref()
                .map(|inner| inner as &(dyn std::error::Error + 'static)),
            None => current.source(),
        };
    }
    None
}

/// One page of `GET /pix`.
#[derive(Debug, Clone)]
pub struct ReceivedPage {
    /// The entries as the bank wrote them: the webhook's schema, checked by the intake.
    pub entries: Vec<serde_json::Value>,
    /// How many pages the query has (1 when the bank did not say).
    pub pages: u32,
}

#[derive(serde::Deserialize)]
struct ReceivedAnswer {
    parametros: Option<ReceivedParameters>,
    #[serde(default)]
    pix: Vec<serde_json::Value>,
}

#[derive(serde::Deserialize)]
struct ReceivedParameters {
    paginacao: Option<Paging>,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct Paging {
    quantidade_de_paginas: u32,
}
