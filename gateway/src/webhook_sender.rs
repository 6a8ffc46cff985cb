//! Outgoing webhooks' sender (issue 36): queues deliveries from the log and posts the due ones
//! to the accounts' endpoints, signed (`domain::webhook`), tried again with back-off for three
//! days, in order per payment ([`commands::webhooks`] keeps the queue and decides what is due).
//!
//! Every gateway runs it: the outbox reads the feed under a transaction-level advisory lock (one
//! at a time), and the senders take deliveries with leases, so two gateways never post the same
//! delivery at once. A delivery whose sender died is posted again once its lease ends: a receiver
//! recognises a repeat by the body's `id` (the event's id) or the `Balcao-Entrega` header.
//!
//! Requests carry `Content-Type: application/json`, `Balcao-Evento` (the kind),
//! `Balcao-Entrega` (the delivery's id) and `Balcao-Assinatura: t=…,v1=…`. A 2xx within
//! [`REQUEST_TIMEOUT`] is delivered; anything else is tried again. Redirects are not followed,
//! the answer's body is never read, and unless `BALCAO_WEBHOOKS_ALLOW_PRIVATE` is set no address
//! resolving to this machine or a private network is called (checked at registration and again
//! at each connection, so a name that later points inside is refused too).
//!
//! Metrics: `balcao_webhook_attempts_total{outcome="delivered"|"refused"|"failed"}`.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use commands::Upcasters;
use commands::webhooks::{self, Due, Outcome};
use domain::sealed::Sealed;
use futures::StreamExt;
use projections::CancellationToken;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};

use crate::state::AppState;

/// Attempts by outcome.
pub const ATTEMPTS_TOTAL: &str = "balcao_webhook_attempts_total";
/// Longest a receiver may take to answer.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a sender holds a delivery it took: longer than a request may take.
const LEASE_MS: i64 = 60_000;
/// Events the outbox reads per transaction.
const OUTBOX_BATCH: i64 = 500;
/// Deliveries taken at once, and posted at the same time.
const SEND_BATCH: i64 = 32;
const IN_FLIGHT: usize = 8;
/// The pause when there was nothing to do.
const IDLE: Duration = Duration::from_millis(500);

/// How the sender behaves (from `Settings`).
#[derive(Debug, Clone, Copy)]
pub struct SenderSettings {
    /// Whether endpoints on this machine or a private network may be called (tests, sandboxes).
    pub allow_private: bool,
    /// The first wait after a failed attempt, in milliseconds (`domain::webhook::FIRST_RETRY_MS`).
    pub first_retry_ms: i64,
}

/// Resolves names, refusing every address that is not on the public internet.
struct PublicOnly;

impl Resolve for PublicOnly {
    fn resolve(&self, name: Name) -> Resolving {
        Box::pin(async move {
            let found = tokio::net::lookup_host((name.as_str(), 0)).await?;
            let public: Vec<SocketAddr> = found
                .filter(|address| !domain::webhook::is_private(address.ip()))
                .collect();
            if public.is_empty() {
                return Err(
                    format!("{} não aponta para um endereço público", name.as_str()).into(),
                );
            }
            let addrs: Addrs = Box::new(public.into_iter());
            Ok(addrs)
        })
    }
}

fn client(settings: SenderSettings) -> reqwest::Client {
    let mut builder = reqwest::Client::builder()
        .timeout(REQUEST_TIMEOUT)
        .redirect(reqwest::redirect::Policy::none())
        .user_agent("Balcao-Webhooks/1");
    if !settings.allow_private {
        builder = builder.dns_resolver(Arc::new(PublicOnly));
    }
    builder.build().unwrap_or_else(|_| reqwest::Client::new())
}

/// Queues and sends until `shutdown` is cancelled.
pub async fn run(state: AppState, settings: SenderSettings, shutdown: CancellationToken) {
    let client = client(settings);
    let upcasters = Upcasters::application();
    loop {
        let mut busy = false;
        match webhooks::enqueue(&state.pool, &upcasters, OUTBOX_BATCH).await {
            Ok(read) => busy |= i64::try_from(read).unwrap_or(0) == OUTBOX_BATCH,
            Err(error) => tracing::warn!(%error, "the webhook outbox could not read the log"),
        }
        match webhooks::claim_due(&state.pool, SEND_BATCH, LEASE_MS).await {
            Ok(due) => {
                busy |= i64::try_from(due.len()).unwrap_or(0) == SEND_BATCH;
                futures::stream::iter(due)
                    .for_each_concurrent(IN_FLIGHT, |due| send(&state, &client, settings, due))
                    .await;
            }
            Err(error) => tracing::warn!(%error, "webhook deliveries could not be taken"),
        }
        if busy {
            continue;
        }
        tokio::select! {
            () = shutdown.cancelled() => return,
            () = tokio::time::sleep(IDLE) => {}
        }
    }
}

async fn send(state: &AppState, client: &reqwest::Client, settings: SenderSettings, due: Due) {
    let outcome = attempt(state, client, &due).await;
    let label = match outcome {
        Outcome::Delivered(_) => "delivered",
        Outcome::Refused(_) => "refused",
        Outcome::Failed(_) => "failed",
    };
    metrics::counter!(ATTEMPTS_TOTAL, "outcome" => label).increment(1);
    if let Err(error) = webhooks::record(
        &state.pool,
        due.delivery_id,
        &outcome,
        settings.first_retry_ms,
    )
    .await
    {
        // The lease ends and the delivery is tried again.
        tracing::warn!(%error, delivery = %due.delivery_id, "a webhook attempt could not be recorded");
    }
}

async fn attempt(state: &AppState, client: &reqwest::Client, due: &Due) -> Outcome {
    let key = match commands::vault::load_key(&state.pool, &due.account_id.hyphenated().to_string())
        .await
    {
        Ok(Some(key)) => key,
        Ok(None) => return Outcome::Failed("a conta foi excluída".to_owned()),
        Err(error) => return Outcome::Failed(format!("cofre: {error}")),
    };
    // The current secret first, then the one it replaced while that one still signs.
    let mut secrets = Vec::new();
    for sealed in std::iter::once(&due.secret).chain(due.previous_secret.as_ref()) {
        match key.open(&Sealed::from_text(sealed.clone())) {
            Ok(secret) => secrets.push(secret),
            Err(_) => {
                return Outcome::Failed("o segredo do endereço não pôde ser aberto".to_owned());
            }
        }
    }
    let t = chrono::Utc::now().timestamp();
    let secrets: Vec<&[u8]> = secrets.iter().map(String::as_bytes).collect();
    let signature = domain::webhook::signature_header(t, due.body.as_bytes(), &secrets);
    let sent = client
        .post(&due.url)
        .header(reqwest::header::CONTENT_TYPE, "application/json")
        .header("balcao-evento", &due.kind)
        .header("balcao-entrega", due.delivery_id.hyphenated().to_string())
        .header("balcao-assinatura", signature)
        .body(due.body.clone())
        .send()
        .await;
    match sent {
        Ok(response) if response.status().is_success() => {
            Outcome::Delivered(response.status().as_u16())
        }
        Ok(response) => Outcome::Refused(response.status().as_u16()),
        Err(error) => Outcome::Failed(without_url(&error)),
    }
}

/// The error's words without the address (the owner's log shows the endpoint already).
fn without_url(error: &reqwest::Error) -> String {
    let kind = if error.is_timeout() {
        "sem resposta em 10 s"
    } else if error.is_connect() {
        "não foi possível conectar"
    } else {
        "falha na requisição"
    };
    let mut cause = String::new();
    let mut source = std::error::Error::source(error);
    while let Some(inner) = source {
        cause = inner.to_string();
        source = inner.source();
    }
    if cause.is_empty() {
        kind.to_owned()
    } else {
        format!("{kind}: {cause}")
    }
}
