//! The Asaas API v3 adapter: customers, Pix charges (`billingType: PIX`) and their QR codes.
//!
//! - Every request carries `access_token` (the API key) and `User-Agent` (mandatory for
//!   accounts created since June 2024) and JSON.
//! - The base URL is configuration: `https://api-sandbox.asaas.com/v3` (sandbox) or
//!   `https://api.asaas.com/v3` (production), or any other for tests.
//! - Money crosses as reais with two decimals written from integer centavos
//!   ([`Centavos::to_emv`]) and read back from the JSON number's own digits
//!   ([`centavos_from_reais`]): no float anywhere.
//! - Dates arrive as `YYYY-MM-DD`, `YYYY-MM-DD HH:mm:ss` (São Paulo time, no zone) or
//!   `dd/MM/yyyy` depending on the object ([`instant`] reads all of them).
//! - Each call has a timeout; a timeout, a connection failure, a 5xx or a 429 is tried again
//!   (at most [`AsaasConfig::attempts`] times, waiting longer each time, or what `Retry-After`
//!   says when Asaas sends it, up to 5 s); any other answer is final.
//! - Deleting a charge (`DELETE /payments/{id}`, a cancellation's renewal charge) that Asaas
//!   refuses, or that times out after the retries, is looked up (`GET /payments/{id}`): already
//!   deleted counts as deleted, already received as paid ([`Withdrawal`]).
//! - The Pix payload Asaas returns is checked by the BR Code engine before it is kept
//!   ([`checked_payload`]): a bad code is never shown to a payer.

use std::time::Duration;

use chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime, TimeZone, Utc};
use domain::money::Centavos;
use reqwest::{Method, StatusCode};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use super::provider::{ChargeRequest, OpenedCharge, ProviderError, Withdrawal, checked_payload};

/// The production base URL.
pub const PRODUCTION_URL: &str = "https://api.asaas.com/v3";
/// The sandbox base URL (the settings' default, so it lives with them).
pub use crate::config::ASAAS_SANDBOX_URL as SANDBOX_URL;

/// How to reach Asaas.
#[derive(Clone)]
pub struct AsaasConfig {
    /// Base URL without a trailing slash, `…/v3`.
    pub base_url: String,
    /// The API key (`$aact_…`).
    pub api_key: String,
    /// Our `User-Agent`.
    pub user_agent: String,
    /// Longest one request may take.
    pub timeout: Duration,
    /// Tries per call (1 = no retry).
    pub attempts: u32,
    /// The first wait before a retry; doubled each time.
    pub backoff: Duration,
}

impl std::fmt::Debug for AsaasConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AsaasConfig")
            .field("base_url", &self.base_url)
            .field("api_key", &"(set)")
            .field("user_agent", &self.user_agent)
            .field("timeout", &self.timeout)
            .field("attempts", &self.attempts)
            .finish_non_exhaustive()
    }
}

/// The Asaas client.
#[derive(Debug, Clone)]
pub struct Asaas {
    config: AsaasConfig,
    http: reqwest::Client,
}

/// São Paulo's offset (no daylight saving since 2019), for Asaas times without a zone.
fn sao_paulo() -> FixedOffset {
    FixedOffset::west_opt(3 * 3600).expect("UTC−3 is a valid offset")
}

/// Reads any of the date forms Asaas sends: RFC 3339, `YYYY-MM-DD HH:mm:ss` and `YYYY-MM-DD`
/// (São Paulo time), `dd/MM/yyyy` and `dd/MM/yyyy HH:mm:ss`. A bare date is its first instant.
pub fn instant(text: &str) -> Option<DateTime<Utc>> {
    let text = text.trim();
    if let Ok(at) = DateTime::parse_from_rfc3339(text) {
        return Some(at.with_timezone(&Utc));
    }
    let local = ["%Y-%m-%d %H:%M:%S", "%d/%m/%Y %H:%M:%S"]
        .iter()
        .find_map(|f| NaiveDateTime::parse_from_str(text, f).ok())
        .or_else(|| {
            ["%Y-%m-%d", "%d/%m/%Y"]
                .iter()
                .find_map(|f| NaiveDate::parse_from_str(text, f).ok())
                .and_then(|d| d.and_hms_opt(0, 0, 0))
        })?;
    sao_paulo()
        .from_local_datetime(&local)
        .single()
        .map(|at| at.with_timezone(&Utc))
}

/// Reads a JSON number of reais (`19.9`, `19.90`, `199`) as centavos from its own digits.
/// More than two decimals, a sign or an exponent is refused rather than rounded.
pub fn centavos_from_reais(number: &str) -> Option<Centavos> {
    let (whole, fraction) = number.trim().split_once('.').unwrap_or((number.trim(), ""));
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || fraction.len() > 2 || (!fraction.is_empty() && !digits(fraction)) {
        return None;
    }
    let reais: u64 = whole.parse().ok()?;
    let cents: u64 = match fraction.len() {
        0 => 0,
        1 => fraction.parse::<u64>().ok()? * 10,
        _ => fraction.parse().ok()?,
    };
    reais
        .checked_mul(100)?
        .checked_add(cents)
        .map(Centavos::new)
}

/// A JSON number written from centavos with two decimals (`19.90`).
fn reais(amount: Centavos) -> Box<RawValue> {
    RawValue::from_string(amount.to_emv()).expect("digits, a dot and two digits are JSON")
}

#[derive(Debug, Deserialize)]
struct Errors {
    #[serde(default)]
    errors: Vec<ErrorItem>,
}

#[derive(Debug, Deserialize)]
struct ErrorItem {
    #[serde(default)]
    description: String,
}

#[derive(Debug, Deserialize)]
struct List<T> {
    #[serde(default = "Vec::new")]
    data: Vec<T>,
}

/// `POST /payments` body.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct NewPayment<'a> {
    customer: &'a str,
    billing_type: &'static str,
    /// Reais with two decimals, written from centavos as the JSON number's own digits.
    value: Box<RawValue>,
    due_date: String,
    description: &'a str,
    external_reference: String,
}

#[derive(Debug, Deserialize)]
struct Customer {
    id: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct PaymentCreated {
    id: String,
    value: Box<RawValue>,
}

/// `DELETE /payments/{id}` answer.
#[derive(Debug, Deserialize)]
struct Deleted {
    #[serde(default)]
    deleted: bool,
}

/// `GET /payments/{id}`: what a deletion needs to know.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct PaymentState {
    #[serde(default)]
    deleted: bool,
    #[serde(default)]
    status: String,
    value: Box<RawValue>,
    #[serde(default)]
    client_payment_date: Option<String>,
    #[serde(default)]
    payment_date: Option<String>,
    #[serde(default)]
    confirmed_date: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct PixQrCode {
    payload: String,
    expiration_date: String,
}

impl Asaas {
    /// A client for `config`.
    ///
    /// # Errors
    ///
    /// When the HTTP client cannot be built.
    pub fn new(config: AsaasConfig) -> anyhow::Result<Asaas> {
        let http = reqwest::Client::builder()
            .timeout(config.timeout)
            .connect_timeout(config.timeout)
            .user_agent(config.user_agent.clone())
            .build()?;
        Ok(Asaas { config, http })
    }

    /// One call, tried again on timeouts, connection failures, 5xx and 429.
    async fn call<T: serde::de::DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
        body: Option<String>,
    ) -> Result<T, ProviderError> {
        let url = format!("{}{path}", self.config.base_url.trim_end_matches('/'));
        let mut wait = self.config.backoff;
        let mut last = String::new();
        for attempt in 1..=self.config.attempts.max(1) {
            if attempt > 1 {
                tokio::time::sleep(wait).await;
                wait = wait.saturating_mul(2);
            }
            let mut request = self
                .http
                .request(method.clone(), &url)
                .header("access_token", &self.config.api_key)
                .header(reqwest::header::ACCEPT, "application/json");
            if let Some(body) = &body {
                request = request
                    .header(reqwest::header::CONTENT_TYPE, "application/json")
                    .body(body.clone());
            }
            let response = match request.send().await {
                Ok(response) => response,
                Err(error) => {
                    last = format!("{method} {path}: {error}");
                    continue;
                }
            };
            let status = response.status();
            if status.is_server_error() || status == StatusCode::TOO_MANY_REQUESTS {
                if let Some(seconds) = response
                    .headers()
                    .get(reqwest::header::RETRY_AFTER)
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.trim().parse::<u64>().ok())
                {
                    wait = Duration::from_secs(seconds.min(5));
                }
                last = format!("{method} {path}: {status}");
                continue;
            }
            let bytes = response
                .bytes()
                .await
                .map_err(|e| ProviderError::Unavailable(format!("{method} {path}: {e}")))?;
            if !status.is_success() {
                let described = serde_json::from_slice::<Errors>(&bytes)
                    .ok()
                    .map(|e| {
                        e.errors
                            .into_iter()
                            .map(|i| i.description)
                            .collect::<Vec<_>>()
                            .join(" ")
                    })
                    .filter(|d| !d.is_empty())
                    .unwrap_or_else(|| status.to_string());
                return Err(ProviderError::Refused(described));
            }
            return serde_json::from_slice(&bytes).map_err(|e| {
                ProviderError::Unavailable(format!("{method} {path}: unreadable answer: {e}"))
            });
        }
        Err(ProviderError::Unavailable(last))
    }

    /// The customer with this CPF/CNPJ, made when Asaas has none (searching first, as Asaas
    /// advises, so one person is one customer).
    ///
    /// # Errors
    ///
    /// As [`ProviderError`] says.
    pub async fn customer(&self, request: &ChargeRequest) -> Result<String, ProviderError> {
        if let Some(known) = &request.customer {
            return Ok(known.clone());
        }
        let Some(payer) = &request.payer else {
            return Err(ProviderError::Refused(
                "sem cliente para a cobrança".to_owned(),
            ));
        };
        let found: List<Customer> = self
            .call(
                Method::GET,
                &format!("/customers?cpfCnpj={}", payer.document),
                None,
            )
            .await?;
        if let Some(customer) = found.data.into_iter().next() {
            return Ok(customer.id);
        }
        let body = serde_json::json!({
            "name": payer.name,
            "cpfCnpj": payer.document,
            "email": payer.email,
            "externalReference": request.account_id,
            "notificationDisabled": true,
        });
        let made: Customer = self
            .call(Method::POST, "/customers", Some(body.to_string()))
            .await?;
        Ok(made.id)
    }

    /// Opens a Pix charge and fetches its QR code.
    ///
    /// # Errors
    ///
    /// As [`ProviderError`] says; [`ProviderError::BadPixCode`] when the engine refuses the
    /// payload Asaas returned, or Asaas recorded another amount.
    pub async fn open(&self, request: &ChargeRequest) -> Result<OpenedCharge, ProviderError> {
        let customer = self.customer(request).await?;
        // A struct, not `json!`: a `Value` would turn the raw `19.90` into a float again.
        let body = NewPayment {
            customer: &customer,
            billing_type: "PIX",
            value: reais(request.amount),
            due_date: request.due_date.format("%Y-%m-%d").to_string(),
            description: &request.description,
            external_reference: format!("{}:{}", request.account_id, request.charge_id),
        };
        let body = serde_json::to_string(&body)
            .map_err(|e| ProviderError::Unavailable(format!("POST /payments: {e}")))?;
        let payment: PaymentCreated = self.call(Method::POST, "/payments", Some(body)).await?;
        if centavos_from_reais(payment.value.get()) != Some(request.amount) {
            return Err(ProviderError::Refused(format!(
                "o valor registrado ({}) não é o cobrado",
                payment.value.get()
            )));
        }
        let qr: PixQrCode = self
            .call(
                Method::GET,
                &format!("/payments/{}/pixQrCode", payment.id),
                None,
            )
            .await?;
        let expires_at = instant(&qr.expiration_date).ok_or_else(|| {
            ProviderError::Unavailable(format!("expirationDate ilegível: {}", qr.expiration_date))
        })?;
        Ok(OpenedCharge {
            provider_payment_id: payment.id,
            pix_payload: checked_payload(&qr.payload)?,
            expires_at,
            customer: Some(customer),
        })
    }
}

impl Asaas {
    /// Deletes the charge `payment_id` so nobody can pay it (`DELETE /payments/{id}`). When Asaas
    /// refuses (a received payment cannot be deleted), the charge is looked up: already deleted
    /// is [`Withdrawal::Deleted`], received or confirmed is [`Withdrawal::AlreadyPaid`].
    ///
    /// # Errors
    ///
    /// [`ProviderError::Unavailable`] when Asaas does not answer after the retries (the caller
    /// tries again later); [`ProviderError::Refused`] when Asaas refuses and the charge is
    /// neither deleted nor paid.
    pub async fn delete(&self, payment_id: &str) -> Result<Withdrawal, ProviderError> {
        let path = format!("/payments/{payment_id}");
        let refusal = match self.call::<Deleted>(Method::DELETE, &path, None).await {
            Ok(answer) if answer.deleted => return Ok(Withdrawal::Deleted),
            Ok(_) => "DELETE answered deleted: false".to_owned(),
            Err(ProviderError::Refused(why)) => why,
            Err(other) => return Err(other),
        };
        let state: PaymentState = self.call(Method::GET, &path, None).await?;
        if state.deleted {
            return Ok(Withdrawal::Deleted);
        }
        if matches!(
            state.status.as_str(),
            "RECEIVED" | "CONFIRMED" | "RECEIVED_IN_CASH"
        ) {
            let amount = centavos_from_reais(state.value.get()).ok_or_else(|| {
                ProviderError::Unavailable(format!("valor ilegível: {}", state.value.get()))
            })?;
            let paid_at = [
                state.client_payment_date,
                state.payment_date,
                state.confirmed_date,
            ]
            .into_iter()
            .flatten()
            .find_map(|t| instant(&t))
            .unwrap_or_else(Utc::now);
            return Ok(Withdrawal::AlreadyPaid { amount, paid_at });
        }
        Err(ProviderError::Refused(refusal))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_client_opens_a_tls_handshake_for_an_https_base_url_as_asaas_requires() {
        use tokio::io::AsyncReadExt;
        // A bare TCP listener stands in for Asaas: it only records the first byte it receives.
        // A client with TLS starts with a handshake record (0x16); one built without TLS never
        // connects to an `https` URL at all.
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let port = listener.local_addr().expect("address").port();
        let first_byte = tokio::spawn(async move {
            let (mut socket, _) = listener.accept().await.ok()?;
            socket.read_u8().await.ok()
        });
        let asaas = Asaas::new(AsaasConfig {
            base_url: format!("https://127.0.0.1:{port}/v3"),
            api_key: "$aact_test".to_owned(),
            user_agent: "Balcao-test".to_owned(),
            timeout: Duration::from_secs(2),
            attempts: 1,
            backoff: Duration::from_millis(1),
        })
        .expect("client");
        let sent = asaas
            .http
            .get(format!("https://127.0.0.1:{port}/v3/customers"))
            .send()
            .await;
        assert!(sent.is_err(), "the stand-in never completes a handshake");
        let first = tokio::time::timeout(Duration::from_secs(2), first_byte)
            .await
            .ok()
            .and_then(Result::ok)
            .flatten();
        assert_eq!(first, Some(0x16), "no TLS handshake reached the server");
    }

    #[test]
    fn reais_read_from_their_digits_without_floats() {
        let read = |t: &str| centavos_from_reais(t).map(Centavos::get);
        assert_eq!(read("19.9"), Some(1_990));
        assert_eq!(read("19.90"), Some(1_990));
        assert_eq!(read("199"), Some(19_900));
        assert_eq!(read("0.01"), Some(1));
        assert_eq!(read("100.905"), None);
        assert_eq!(read("-1.00"), None);
        assert_eq!(read("1e2"), None);
        assert_eq!(reais(Centavos::new(1_990)).get(), "19.90");
    }

    #[test]
    fn every_date_form_asaas_sends_reads_as_sao_paulo_time() {
        let utc = |t: &str| instant(t).map(|i| i.to_rfc3339());
        assert_eq!(
            utc("2024-06-12 16:45:03").as_deref(),
            Some("2024-06-12T19:45:03+00:00")
        );
        assert_eq!(
            utc("2024-06-12").as_deref(),
            Some("2024-06-12T03:00:00+00:00")
        );
        assert_eq!(
            utc("22/11/2024").as_deref(),
            Some("2024-11-22T03:00:00+00:00")
        );
        assert_eq!(
            utc("2024-06-12T16:45:03Z").as_deref(),
            Some("2024-06-12T16:45:03+00:00")
        );
        assert_eq!(utc("amanhã"), None);
    }
}
