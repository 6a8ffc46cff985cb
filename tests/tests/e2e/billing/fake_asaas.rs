//! A local fake Asaas API v3 (axum on loopback) replaying the documented payloads
//! (docs.asaas.com: customers, payments, `pixQrCode`, reading and deleting a payment), recording every request it gets, and
//! failing on demand (5xx, 429, a slow answer) so retries and timeouts can be seen.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};

/// The id of the first payment the fake opens; the next ones count up from it.
pub const FIRST_PAYMENT: u64 = 80_225_913_252;

/// The id of the `n`-th payment the fake opened (0 = the first).
pub fn payment_id(n: u64) -> String {
    format!("pay_{:012}", FIRST_PAYMENT + n)
}
use serde_json::{Value, json};

/// One request as the fake got it.
#[derive(Debug, Clone)]
pub struct Seen {
    pub method: &'static str,
    pub uri: String,
    pub access_token: Option<String>,
    pub user_agent: Option<String>,
    pub body: String,
}

/// What the next answers of a route do instead of answering.
#[derive(Debug, Clone, Copy)]
pub enum Fault {
    Status(u16),
    Slow(Duration),
}

#[derive(Default)]
struct Inner {
    seen: Vec<Seen>,
    faults: VecDeque<Fault>,
    payload: String,
    refuse_payments: bool,
    /// Payments opened so far, by id: `PENDING`, `RECEIVED` or deleted.
    payments: HashMap<String, PaymentState>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PaymentState {
    Pending,
    Received,
    Deleted,
}

/// The running fake.
#[derive(Clone)]
pub struct FakeAsaas {
    inner: Arc<Mutex<Inner>>,
    /// `http://127.0.0.1:PORT/v3`.
    pub base_url: String,
}

/// A dynamic BR Code the way Asaas returns one (a location at the PSP, no amount), made by our
/// engine so it is valid.
pub fn documented_payload() -> String {
    let request = domain::brcode::DynamicCodeRequest::new(
        "pix.asaas.com/qr/cobv/3b0a8e0c-6d6b-4f5a-9a3c-2b1d0e9f8a7b",
        "Balcao Tecnologia",
        "Sao Paulo",
    );
    domain::brcode::make_dynamic(&request)
        .expect("a valid dynamic code")
        .payload
}

impl FakeAsaas {
    pub async fn start() -> FakeAsaas {
        let inner = Arc::new(Mutex::new(Inner {
            payload: documented_payload(),
            ..Inner::default()
        }));
        let router = Router::new()
            .route("/v3/customers", get(customers).post(new_customer))
            .route("/v3/payments", post(new_payment))
            .route("/v3/payments/{id}", get(payment).delete(delete_payment))
            .route("/v3/payments/{id}/pixQrCode", get(pix_qr_code))
            .with_state(inner.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a port");
        let address = listener.local_addr().expect("address");
        tokio::spawn(async move { axum::serve(listener, router).await });
        FakeAsaas {
            inner,
            base_url: format!("http://{address}/v3"),
        }
    }

    /// The requests so far.
    pub fn seen(&self) -> Vec<Seen> {
        self.inner.lock().expect("lock").seen.clone()
    }

    /// The next answers fail as listed (any route).
    pub fn fail_next(&self, faults: &[Fault]) {
        self.inner
            .lock()
            .expect("lock")
            .faults
            .extend(faults.iter().copied());
    }

    /// `pixQrCode` answers this payload from now on.
    pub fn set_payload(&self, payload: &str) {
        self.inner.lock().expect("lock").payload = payload.to_owned();
    }

    /// The payer paid `id` at Asaas (no webhook sent: Balcão has not heard of it).
    pub fn mark_received(&self, id: &str) {
        self.inner
            .lock()
            .expect("lock")
            .payments
            .insert(id.to_owned(), PaymentState::Received);
    }

    /// Whether `id` was deleted at the fake.
    pub fn deleted(&self, id: &str) -> bool {
        self.inner.lock().expect("lock").payments.get(id) == Some(&PaymentState::Deleted)
    }

    /// `POST /payments` answers 400 with Asaas's error shape.
    pub fn refuse_payments(&self) {
        self.inner.lock().expect("lock").refuse_payments = true;
    }
}

type Shared = State<Arc<Mutex<Inner>>>;

/// Records the request; answers the fault due, if any.
async fn record(
    state: &Arc<Mutex<Inner>>,
    method: &'static str,
    uri: &Uri,
    headers: &HeaderMap,
    body: &Bytes,
) -> Option<Response> {
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    let fault = {
        let mut inner = state.lock().expect("lock");
        inner.seen.push(Seen {
            method,
            uri: uri.to_string(),
            access_token: header("access_token"),
            user_agent: header("user-agent"),
            body: String::from_utf8_lossy(body).into_owned(),
        });
        inner.faults.pop_front()
    };
    match fault {
        Some(Fault::Status(code)) => Some(
            (
                StatusCode::from_u16(code).expect("a status"),
                axum::Json(
                    json!({"errors": [{"code": "unavailable", "description": "Tente novamente"}]}),
                ),
            )
                .into_response(),
        ),
        Some(Fault::Slow(wait)) => {
            tokio::time::sleep(wait).await;
            None
        }
        None => None,
    }
}

async fn customers(State(state): Shared, uri: Uri, headers: HeaderMap) -> Response {
    if let Some(fault) = record(&state, "GET", &uri, &headers, &Bytes::new()).await {
        return fault;
    }
    axum::Json(json!({"object": "list", "hasMore": false, "totalCount": 0, "limit": 10, "offset": 0, "data": []}))
        .into_response()
}

async fn new_customer(State(state): Shared, uri: Uri, headers: HeaderMap, body: Bytes) -> Response {
    if let Some(fault) = record(&state, "POST", &uri, &headers, &body).await {
        return fault;
    }
    let sent: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    axum::Json(json!({
        "object": "customer", "id": "cus_000005219613", "dateCreated": "2024-06-12",
        "name": sent["name"], "cpfCnpj": sent["cpfCnpj"], "email": sent["email"],
        "externalReference": sent["externalReference"], "notificationDisabled": true, "deleted": false
    }))
    .into_response()
}

async fn new_payment(State(state): Shared, uri: Uri, headers: HeaderMap, body: Bytes) -> Response {
    if let Some(fault) = record(&state, "POST", &uri, &headers, &body).await {
        return fault;
    }
    if state.lock().expect("lock").refuse_payments {
        return (
            StatusCode::BAD_REQUEST,
            axum::Json(json!({"errors": [{"code": "invalid_customer", "description": "Cliente inválido ou inexistente."}]})),
        )
            .into_response();
    }
    // The value is echoed as the documented examples show it: a JSON number without trailing
    // zeros (19.9), which the adapter must read as 1990 centavos.
    let sent: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let id = {
        let mut inner = state.lock().expect("lock");
        let id = payment_id(inner.payments.len() as u64);
        inner.payments.insert(id.clone(), PaymentState::Pending);
        id
    };
    let text = format!(
        r#"{{"object":"payment","id":"{id}","dateCreated":"2024-06-12","customer":"cus_000005219613",
            "subscription":null,"installment":null,"paymentLink":null,"dueDate":{due},"originalDueDate":{due},
            "value":{value},"netValue":18.91,"originalValue":null,"interestValue":null,"description":{description},
            "externalReference":{reference},"billingType":"PIX","status":"PENDING","pixTransaction":null,
            "confirmedDate":null,"paymentDate":null,"clientPaymentDate":null,"creditDate":null,
            "estimatedCreditDate":null,"invoiceUrl":"https://sandbox.asaas.com/i/080225913252",
            "bankSlipUrl":null,"transactionReceiptUrl":null,"invoiceNumber":"06085390","deleted":false,
            "anticipated":false,"anticipable":false,"refunds":null}}"#,
        due = sent["dueDate"],
        value = sent["value"],
        description = sent["description"],
        reference = sent["externalReference"],
    );
    ([("content-type", "application/json")], text).into_response()
}

async fn pix_qr_code(
    State(state): Shared,
    Path(id): Path<String>,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    if let Some(fault) = record(&state, "GET", &uri, &headers, &Bytes::new()).await {
        return fault;
    }
    let payload = state.lock().expect("lock").payload.clone();
    let _ = id;
    axum::Json(json!({
        "encodedImage": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
        "payload": payload,
        "expirationDate": "2027-06-12 23:59:59",
        "description": null
    }))
    .into_response()
}

/// `GET /payments/{id}`: the payment as documented, its status as the test set it.
async fn payment(
    State(state): Shared,
    Path(id): Path<String>,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    if let Some(fault) = record(&state, "GET", &uri, &headers, &Bytes::new()).await {
        return fault;
    }
    let Some(known) = state.lock().expect("lock").payments.get(&id).copied() else {
        return (StatusCode::NOT_FOUND, axum::Json(json!({"errors": [{"code": "not_found", "description": "Cobrança não encontrada."}]}))).into_response();
    };
    let (status, paid) = match known {
        PaymentState::Received => ("RECEIVED", json!("2026-11-26")),
        PaymentState::Pending | PaymentState::Deleted => ("PENDING", Value::Null),
    };
    axum::Json(json!({
        "object": "payment", "id": id, "dateCreated": "2026-11-26", "customer": "cus_000005219613",
        "value": 19.9, "netValue": 18.91, "billingType": "PIX", "status": status,
        "dueDate": "2026-12-26", "paymentDate": paid, "clientPaymentDate": paid, "confirmedDate": paid,
        "deleted": known == PaymentState::Deleted, "anticipated": false
    }))
    .into_response()
}

/// `DELETE /payments/{id}`: `{deleted: true, id}`; a received payment cannot be deleted (400), an
/// unknown or already deleted one is not found (404).
async fn delete_payment(
    State(state): Shared,
    Path(id): Path<String>,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    if let Some(fault) = record(&state, "DELETE", &uri, &headers, &Bytes::new()).await {
        return fault;
    }
    let mut inner = state.lock().expect("lock");
    match inner.payments.get(&id).copied() {
        Some(PaymentState::Pending) => {
            inner.payments.insert(id.clone(), PaymentState::Deleted);
            axum::Json(json!({"deleted": true, "id": id})).into_response()
        }
        Some(PaymentState::Received) => (
            StatusCode::BAD_REQUEST,
            axum::Json(json!({"errors": [{"code": "invalid_action", "description": "Não é possível remover uma cobrança já recebida."}]})),
        )
            .into_response(),
        Some(PaymentState::Deleted) | None => (
            StatusCode::NOT_FOUND,
            axum::Json(json!({"errors": [{"code": "not_found", "description": "Cobrança não encontrada."}]})),
        )
            .into_response(),
    }
}
