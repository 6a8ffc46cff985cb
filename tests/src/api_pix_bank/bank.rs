//! The bank's behaviour: its state (tokens, webhooks, charges, received Pix, refunds) and the
//! answers to each request, as the API Pix spec describes them.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use axum::body::to_bytes;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use base64::Engine;
use chrono::{DateTime, SecondsFormat, Utc};
use serde_json::{Value, json};
use uuid::Uuid;

use super::config::{AccountHolder, RefundOutcome, SimulatorConfig, TokenAuth};
use super::pki::TestPki;
use super::spec::{Matched, Operation, Violation, api_spec, percent_decode};
use super::tls::Peer;
use super::{CallbackOutcome, CallbackRecord, Failure, InvalidRequest};

/// The largest body the bank reads.
const BODY_LIMIT: usize = 1 << 20;

/// The spec's error types share this prefix.
const ERROR_TYPE: &str = "https://pix.bcb.gov.br/api/v2/error/";

pub(crate) struct Inner {
    pub config: SimulatorConfig,
    pub pki: TestPki,
    /// `127.0.0.1:PORT`: the host of the charges' locations.
    pub authority: String,
    pub state: Mutex<BankState>,
    pub callback_client: reqwest::Client,
    pub refused_handshakes: Arc<AtomicUsize>,
}

impl Inner {
    pub(crate) fn state(&self) -> MutexGuard<'_, BankState> {
        // A test that panicked while holding the lock leaves the state as it was: still usable.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[derive(Default)]
pub(crate) struct BankState {
    pub tokens: HashMap<String, Token>,
    pub tokens_issued: usize,
    pub webhooks: BTreeMap<String, Webhook>,
    pub charges: HashMap<String, Charge>,
    pub pix: Vec<PixRecord>,
    pub invalid: Vec<InvalidRequest>,
    pub invalid_answers: Vec<InvalidRequest>,
    pub api_failures: VecDeque<Failure>,
    pub token_failures: VecDeque<Failure>,
    pub callbacks_to_drop: usize,
    pub callbacks: Vec<CallbackRecord>,
    pub next_location_id: i64,
    pub sequence: u64,
}

pub(crate) struct Token {
    pub scopes: Vec<String>,
    pub expires_at: Instant,
}

pub(crate) struct Webhook {
    pub url: String,
    pub criacao: DateTime<Utc>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ChargeKind {
    Cob,
    Cobv,
}

pub(crate) struct Charge {
    pub kind: ChargeKind,
    pub txid: String,
    /// The request body as Balcão sent it (the answer repeats it).
    pub body: Value,
    pub revisao: i64,
    pub status: &'static str,
    pub criacao: DateTime<Utc>,
    pub loc_id: i64,
    pub location: String,
    pub chave: String,
    pub original_centavos: i64,
    /// End-to-end ids of the Pix that paid it.
    pub pix: Vec<String>,
}

pub(crate) struct PixRecord {
    pub e2eid: String,
    pub txid: Option<String>,
    pub valor_centavos: i64,
    pub chave: String,
    pub horario: DateTime<Utc>,
    pub info_pagador: Option<String>,
    pub refunds: Vec<Refund>,
}

pub(crate) struct Refund {
    pub id: String,
    pub rtr_id: String,
    pub valor_centavos: i64,
    pub natureza: Option<String>,
    pub descricao: Option<String>,
    pub solicitacao: DateTime<Utc>,
    pub liquidacao: Option<DateTime<Utc>>,
    pub status: &'static str,
    pub motivo: Option<String>,
}

pub(crate) fn timestamp(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// `12345` centavos as the spec's `"123.45"`.
pub(crate) fn reais(centavos: i64) -> String {
    format!("{}.{:02}", centavos / 100, centavos % 100)
}

/// The spec's `"123.45"` as centavos (the schema already checked its shape).
fn centavos(valor: &str) -> Option<i64> {
    let (whole, cents) = valor.split_once('.')?;
    whole
        .parse::<i64>()
        .ok()?
        .checked_mul(100)?
        .checked_add(cents.parse().ok()?)
}

impl BankState {
    /// A fresh 11-character sequence for ids, unique within this bank.
    fn next_suffix(&mut self) -> String {
        self.sequence += 1;
        format!("{:011}", self.sequence)
    }

    /// An end-to-end id as the SPI makes them: `E`, the ISPB, `yyyyMMddHHmm`, 11 characters.
    pub(crate) fn new_e2eid(&mut self, ispb: &str, at: DateTime<Utc>) -> String {
        format!("E{ispb}{}{}", at.format("%Y%m%d%H%M"), self.next_suffix())
    }

    fn new_rtr_id(&mut self, ispb: &str, at: DateTime<Utc>) -> String {
        format!("D{ispb}{}{}", at.format("%Y%m%d%H%M"), self.next_suffix())
    }

    pub(crate) fn pix_mut(&mut self, e2eid: &str) -> Option<&mut PixRecord> {
        self.pix.iter_mut().find(|pix| pix.e2eid == e2eid)
    }
}

pub(crate) fn pix_json(pix: &PixRecord) -> Value {
    let mut value = json!({
        "endToEndId": pix.e2eid,
        "valor": reais(pix.valor_centavos),
        "chave": pix.chave,
        "horario": timestamp(pix.horario),
    });
    if let Some(txid) = &pix.txid {
        value["txid"] = json!(txid);
    }
    if let Some(info) = &pix.info_pagador {
        value["infoPagador"] = json!(info);
    }
    if !pix.refunds.is_empty() {
        value["devolucoes"] = Value::Array(pix.refunds.iter().map(refund_json).collect());
    }
    value
}

pub(crate) fn refund_json(refund: &Refund) -> Value {
    let mut horario = json!({ "solicitacao": timestamp(refund.solicitacao) });
    if let Some(liquidacao) = refund.liquidacao {
        horario["liquidacao"] = json!(timestamp(liquidacao));
    }
    let mut value = json!({
        "id": refund.id,
        "rtrId": refund.rtr_id,
        "valor": reais(refund.valor_centavos),
        "horario": horario,
        "status": refund.status,
    });
    if let Some(natureza) = &refund.natureza {
        value["natureza"] = json!(natureza);
    }
    if let Some(descricao) = &refund.descricao {
        value["descricao"] = json!(descricao);
    }
    if let Some(motivo) = &refund.motivo {
        value["motivo"] = json!(motivo);
    }
    value
}

/// A charge as `PUT` (`CobGerada`/`CobVGerada`) or, with its Pix, `GET` (`…Completa`) answer it.
pub(crate) fn charge_json(charge: &Charge, state: &BankState, config: &SimulatorConfig) -> Value {
    let mut value = charge.body.clone();
    let tipo = match charge.kind {
        ChargeKind::Cob => "cob",
        ChargeKind::Cobv => "cobv",
    };
    let mut calendario = value["calendario"].clone();
    calendario["criacao"] = json!(timestamp(charge.criacao));
    match charge.kind {
        ChargeKind::Cob if calendario.get("expiracao").is_none() => {
            calendario["expiracao"] = json!(86_400);
        }
        ChargeKind::Cobv if calendario.get("validadeAposVencimento").is_none() => {
            calendario["validadeAposVencimento"] = json!(30);
        }
        _ => {}
    }
    value["calendario"] = calendario;
    value["txid"] = json!(charge.txid);
    value["revisao"] = json!(charge.revisao);
    value["status"] = json!(charge.status);
    value["location"] = json!(charge.location);
    value["loc"] = json!({
        "id": charge.loc_id,
        "location": charge.location,
        "txid": charge.txid,
        "tipoCob": tipo,
        "criacao": timestamp(charge.criacao),
    });
    value["pixCopiaECola"] = json!(copia_e_cola(&charge.location, &config.holder));
    if charge.kind == ChargeKind::Cobv {
        let holder = &config.holder;
        value["recebedor"] = json!({
            "cnpj": holder.cnpj,
            "nome": holder.nome,
            "logradouro": holder.logradouro,
            "cidade": holder.cidade,
            "uf": holder.uf,
            "cep": holder.cep,
        });
    }
    let paid: Vec<Value> = charge
        .pix
        .iter()
        .filter_map(|e2eid| state.pix.iter().find(|pix| &pix.e2eid == e2eid))
        .map(pix_json)
        .collect();
    if !paid.is_empty() {
        value["pix"] = Value::Array(paid);
    }
    value
}

/// The dynamic BR Code a bank answers in `pixCopiaECola`: the location in field 26-25, the
/// txid `***`, and the CRC. Written here apart from Balcão's own encoder, so that checking one
/// with the other proves something.
fn copia_e_cola(location: &str, holder: &AccountHolder) -> String {
    let field = |id: &str, value: &str| format!("{id}{:02}{value}", value.len());
    let plain = |text: &str, max: usize| -> String {
        text.chars()
            .map(|c| match c {
                'á' | 'à' | 'â' | 'ã' => 'a',
                'é' | 'ê' => 'e',
                'í' => 'i',
                'ó' | 'ô' | 'õ' => 'o',
                'ú' => 'u',
                'ç' => 'c',
                'Á' | 'À' | 'Â' | 'Ã' => 'A',
                'É' | 'Ê' => 'E',
                'Í' => 'I',
                'Ó' | 'Ô' | 'Õ' => 'O',
                'Ú' => 'U',
                'Ç' => 'C',
                other if other.is_ascii() => other,
                _ => ' ',
            })
            .take(max)
            .collect()
    };
    let account = format!("{}{}", field("00", "br.gov.bcb.pix"), field("25", location));
    let mut code = [
        field("00", "01"),
        field("01", "12"),
        field("26", &account),
        field("52", "0000"),
        field("53", "986"),
        field("58", "BR"),
        field("59", &plain(&holder.nome, 25)),
        field("60", &plain(&holder.cidade, 15)),
        field("62", &field("05", "***")),
    ]
    .concat();
    code.push_str("6304");
    // CRC-16/CCITT-FALSE, bit by bit.
    let crc = code.bytes().fold(0xFFFF_u16, |crc, byte| {
        (0..8).fold(crc ^ (u16::from(byte) << 8), |crc, _| {
            if crc & 0x8000 == 0 {
                crc << 1
            } else {
                (crc << 1) ^ 0x1021
            }
        })
    });
    format!("{code}{crc:04X}")
}

/// An RFC 7807 answer in the spec's shape.
pub(crate) fn problem(
    status: StatusCode,
    tipo: &str,
    title: &str,
    detail: &str,
    violacoes: &[Violation],
) -> Response {
    let mut body = json!({
        "type": format!("{ERROR_TYPE}{tipo}"),
        "title": title,
        "status": status.as_u16(),
        "detail": detail,
    });
    if !violacoes.is_empty() {
        body["violacoes"] = Value::Array(
            violacoes
                .iter()
                .map(|v| json!({ "razao": v.razao, "propriedade": v.propriedade }))
                .collect(),
        );
    }
    (
        status,
        [(header::CONTENT_TYPE, "application/problem+json")],
        body.to_string(),
    )
        .into_response()
}

fn json_response(status: StatusCode, body: &Value) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}

fn oauth_error(status: StatusCode, error: &str, description: &str) -> Response {
    let mut response = json_response(
        status,
        &json!({ "error": error, "error_description": description }),
    );
    if status == StatusCode::UNAUTHORIZED {
        response
            .headers_mut()
            .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Basic"));
    }
    response
}

/// `200` with `found`, or what `missing` answers.
fn found_or(found: Option<Value>, missing: impl FnOnce() -> Response) -> Response {
    match found {
        Some(value) => json_response(StatusCode::OK, &value),
        None => missing(),
    }
}

/// An error of the spec: its type, title and detail.
type SpecError = (&'static str, &'static str, &'static str);

const NAO_ENCONTRADO: SpecError = (
    "NaoEncontrado",
    "Não Encontrado",
    "Entidade não encontrada.",
);
const WEBHOOK_NAO_ENCONTRADO: SpecError = (
    "WebhookNaoEncontrado",
    "Webhook não encontrado.",
    "O webhook denotado por {chave} não encontra-se estabelecido.",
);
const PIX_NAO_ENCONTRADO: SpecError = (
    "PixNaoEncontrado",
    "Pix não encontrado.",
    "Pix não encontrado para o e2eid informado.",
);
const DEVOLUCAO_NAO_ENCONTRADA: SpecError = (
    "PixDevolucaoNaoEncontrada",
    "Devolução não encontrada.",
    "Devolução não encontrada para o e2eid informado.",
);
const COB_NAO_ENCONTRADA: SpecError = (
    "CobNaoEncontrado",
    "Cobrança não encontrada.",
    "Cobrança não encontrada para o txid informado.",
);
const COBV_NAO_ENCONTRADA: SpecError = (
    "CobVNaoEncontrada",
    "Cobrança não encontrada.",
    "Cobrança com vencimento não encontrada para o txid informado.",
);

const COB_INVALIDA: SpecError = (
    "CobOperacaoInvalida",
    "Cobrança inválida.",
    "A requisição que busca alterar ou criar uma cobrança para pagamento imediato não respeita o _schema_ ou está semanticamente errada.",
);
const COBV_INVALIDA: SpecError = (
    "CobVOperacaoInvalida",
    "Cobrança inválida.",
    "A requisição que busca alterar ou criar uma cobrança com vencimento não respeita o _schema_ ou está semanticamente errada.",
);
const WEBHOOK_INVALIDO: SpecError = (
    "WebhookOperacaoInvalida",
    "Webhook inválido.",
    "A presente requisição busca criar um webhook sem respeitar o _schema_ ou, ainda, com sentido semanticamente inválido.",
);
const DEVOLUCAO_INVALIDA: SpecError = (
    "PixDevolucaoInvalida",
    "Devolução inválida.",
    "A presente requisição de devolução não respeita o _schema_ ou não faz sentido semanticamente.",
);
const PIX_CONSULTA_INVALIDA: SpecError = (
    "PixConsultaInvalida",
    "Consulta inválida.",
    "Os parâmetros de consulta à lista de pix recebidos não respeitam o schema ou não fazem sentido semanticamente.",
);

/// `400` with the spec's error and one violation.
fn refused((tipo, title, detail): SpecError, razao: &str, propriedade: &str) -> Response {
    problem(
        StatusCode::BAD_REQUEST,
        tipo,
        title,
        detail,
        &[Violation {
            razao: razao.to_owned(),
            propriedade: propriedade.to_owned(),
        }],
    )
}

fn not_found((tipo, title, detail): SpecError) -> Response {
    problem(StatusCode::NOT_FOUND, tipo, title, detail, &[])
}

fn access_denied(detail: &str) -> Response {
    problem(
        StatusCode::FORBIDDEN,
        "AcessoNegado",
        "Acesso Negado",
        detail,
        &[],
    )
}

fn query_pairs(query: Option<&str>) -> Vec<(String, String)> {
    let Some(query) = query else {
        return Vec::new();
    };
    reqwest::Url::parse(&format!("http://banco.invalid/?{query}"))
        .map(|url| url.query_pairs().into_owned().collect())
        .unwrap_or_default()
}

/// Every request: the token call, or an API call under the base path.
pub(crate) async fn handle(
    State(inner): State<Arc<Inner>>,
    ConnectInfo(peer): ConnectInfo<Peer>,
    request: Request,
) -> Response {
    let (parts, body) = request.into_parts();
    let Ok(body) = to_bytes(body, BODY_LIMIT).await else {
        return problem(
            StatusCode::PAYLOAD_TOO_LARGE,
            "RequisicaoInvalida",
            "Requisição inválida.",
            "O corpo da requisição é grande demais.",
            &[],
        );
    };
    let quirks = &inner.config.quirks;
    let path = parts.uri.path();
    let query = query_pairs(parts.uri.query());
    if path == quirks.token_path {
        let failure = inner.state().token_failures.pop_front();
        if let Some(answer) = apply_failure(failure).await {
            return answer;
        }
        return token(&inner, &peer, &parts.method, &parts.headers, &body);
    }
    let Some(api_path) = path
        .strip_prefix(quirks.base_path.as_str())
        .filter(|rest| rest.starts_with('/'))
    else {
        record_invalid(
            &inner,
            &parts.method,
            &parts.uri.to_string(),
            vec![Violation {
                razao: format!(
                    "O caminho {path} não fica sob a base da API ({}).",
                    quirks.base_path
                ),
                propriedade: "caminho".to_owned(),
            }],
        );
        return not_found(NAO_ENCONTRADO);
    };
    let failure = inner.state().api_failures.pop_front();
    // A late answer is the request carried out, then its answer held: what a client that gave
    // up meanwhile never hears of.
    let late = match failure {
        Some(Failure::AnswerLate(hold)) => Some(hold),
        other => {
            if let Some(answer) = apply_failure(other).await {
                return answer;
            }
            None
        }
    };
    let mut query = query;
    if let Some((name, expected)) = &quirks.required_query {
        let given = query.iter().position(|(key, _)| key == name);
        match given {
            Some(index) if &query[index].1 == expected => {
                // The bank's own parameter is not the spec's: it is not validated against it.
                query.remove(index);
            }
            _ => {
                return problem(
                    StatusCode::UNAUTHORIZED,
                    "AcessoNegado",
                    "Acesso Negado",
                    &format!(
                        "O parâmetro {name} é obrigatório neste banco e não foi informado ou não confere."
                    ),
                    &[],
                );
            }
        }
    }
    if let Some((name, expected)) = &quirks.required_header
        && parts
            .headers
            .get(name.as_str())
            .and_then(|v| v.to_str().ok())
            != Some(expected.as_str())
    {
        return access_denied(&format!(
            "O cabeçalho {name} é obrigatório neste banco e não foi informado ou não confere."
        ));
    }
    if !peer.has_client_cert {
        return access_denied("O certificado do cliente é obrigatório nesta API.");
    }
    let content_type = parts
        .headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok());
    let matched = api_spec().check(parts.method.as_str(), api_path, &query, content_type, &body);
    let shown_path = match parts.uri.query() {
        Some(q) => format!("{path}?{q}"),
        None => path.to_owned(),
    };
    let (operation, path_params, violations) = match matched {
        Matched::UnknownPath => {
            record_invalid(
                &inner,
                &parts.method,
                &shown_path,
                vec![Violation {
                    razao: format!("O caminho {api_path} não existe na API Pix."),
                    propriedade: "caminho".to_owned(),
                }],
            );
            return not_found(NAO_ENCONTRADO);
        }
        Matched::WrongMethod => {
            record_invalid(
                &inner,
                &parts.method,
                &shown_path,
                vec![Violation {
                    razao: format!("O método {} não existe para {api_path}.", parts.method),
                    propriedade: "método".to_owned(),
                }],
            );
            return problem(
                StatusCode::METHOD_NOT_ALLOWED,
                "RequisicaoInvalida",
                "Requisição inválida.",
                "Método não permitido para este caminho.",
                &[],
            );
        }
        Matched::Operation {
            operation,
            path_params,
            violations,
        } => (operation, path_params, violations),
    };
    if !violations.is_empty() {
        record_invalid(&inner, &parts.method, &shown_path, violations.clone());
    }
    if let Some(refusal) = unauthorized(&inner, &parts.headers, operation) {
        return refusal;
    }
    if !violations.is_empty() {
        let (tipo, title, detail) = invalid_request_error(operation);
        return problem(StatusCode::BAD_REQUEST, tipo, title, detail, &violations);
    }
    let body: Value = if body.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(&body).unwrap_or(Value::Null)
    };
    let param = |name: &str| path_params.get(name).cloned().unwrap_or_default();
    let query_value = |name: &str| {
        query
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.clone())
    };
    let answer = match (operation.method.as_str(), operation.template.as_str()) {
        ("PUT", "/webhook/{chave}") => put_webhook(&inner, &param("chave"), &body),
        ("GET", "/webhook/{chave}") => get_webhook(&inner, &param("chave")),
        ("DELETE", "/webhook/{chave}") => delete_webhook(&inner, &param("chave")),
        ("GET", "/webhook") => list_webhooks(&inner, &query_value),
        ("PUT", "/cob/{txid}") => put_charge(&inner, ChargeKind::Cob, &param("txid"), body),
        ("PUT", "/cobv/{txid}") => put_charge(&inner, ChargeKind::Cobv, &param("txid"), body),
        ("GET", "/cob/{txid}") => get_charge(&inner, ChargeKind::Cob, &param("txid")),
        ("GET", "/cobv/{txid}") => get_charge(&inner, ChargeKind::Cobv, &param("txid")),
        ("GET", "/pix") => list_pix(&inner, &query_value),
        ("GET", "/pix/{e2eid}") => get_pix(&inner, &param("e2eid")),
        ("PUT", "/pix/{e2eid}/devolucao/{id}") => {
            put_refund(&inner, &param("e2eid"), &param("id"), &body)
        }
        ("GET", "/pix/{e2eid}/devolucao/{id}") => get_refund(&inner, &param("e2eid"), &param("id")),
        // The spec: a product outside the client's contract answers `AcessoNegado`.
        _ => access_denied("Funcionalidade não contratada neste banco simulado."),
    };
    if let Some(hold) = late {
        tokio::time::sleep(hold).await;
    }
    check_answer(&inner, operation, &shown_path, answer).await
}

/// Records an answer of the bank that its own spec would not allow (the simulator's own
/// mistake: tests assert there are none), and passes the answer on unchanged.
async fn check_answer(
    inner: &Inner,
    operation: &Operation,
    path: &str,
    answer: Response,
) -> Response {
    let (parts, body) = answer.into_parts();
    let bytes = to_bytes(body, usize::MAX).await.unwrap_or_default();
    if parts.status.is_success()
        && let Ok(json) = serde_json::from_slice::<Value>(&bytes)
    {
        let violations = operation.check_response(parts.status.as_u16(), &json);
        if !violations.is_empty() {
            inner.state().invalid_answers.push(InvalidRequest {
                method: operation.method.clone(),
                path: path.to_owned(),
                violations,
            });
        }
    }
    Response::from_parts(parts, axum::body::Body::from(bytes))
}

async fn apply_failure(failure: Option<Failure>) -> Option<Response> {
    match failure? {
        Failure::ServerError { status: 503 } => Some(problem(
            StatusCode::SERVICE_UNAVAILABLE,
            "ServicoIndisponivel",
            "Serviço Indisponível",
            "Serviço não está disponível no momento. Serviço solicitado pode estar em manutenção ou fora da janela de funcionamento.",
            &[],
        )),
        Failure::ServerError { status } => Some(problem(
            StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
            "ErroInternoDoServidor",
            "Erro Interno do Servidor",
            "Condição inesperada ao processar requisição.",
            &[],
        )),
        Failure::Timeout(hold) => {
            tokio::time::sleep(hold).await;
            None
        }
        // Callbacks are dropped where they are sent, a late answer is held after the request
        // was carried out (a token call has no late answer): the request goes on as usual.
        Failure::DropCallbacks | Failure::AnswerLate(_) => None,
    }
}

fn record_invalid(inner: &Inner, method: &Method, path: &str, violations: Vec<Violation>) {
    inner.state().invalid.push(InvalidRequest {
        method: method.to_string(),
        path: path.to_owned(),
        violations,
    });
}

/// The spec's error type for a request that does not respect an operation's schema.
fn invalid_request_error(operation: &Operation) -> SpecError {
    match (operation.method.as_str(), operation.template.as_str()) {
        ("PUT" | "PATCH" | "POST", template) if template.starts_with("/cobv") => COBV_INVALIDA,
        ("PUT" | "PATCH" | "POST", template) if template.starts_with("/cob") => COB_INVALIDA,
        ("PUT", "/webhook/{chave}") => WEBHOOK_INVALIDO,
        ("PUT", "/pix/{e2eid}/devolucao/{id}") => DEVOLUCAO_INVALIDA,
        ("GET", "/pix") => PIX_CONSULTA_INVALIDA,
        ("GET", "/webhook") => (
            "WebhookConsultaInvalida",
            "Consulta inválida.",
            "Os parâmetros de consulta à lista de webhooks ativados não respeitam o schema ou não fazem sentido semanticamente.",
        ),
        ("GET", template) if template.starts_with("/cobv") => (
            "CobVConsultaInvalida",
            "Consulta inválida.",
            "Os parâmetros de consulta não respeitam o schema ou não fazem sentido semanticamente.",
        ),
        ("GET", template) if template.starts_with("/cob") => (
            "CobConsultaInvalida",
            "Consulta inválida.",
            "Os parâmetros de consulta não respeitam o schema ou não fazem sentido semanticamente.",
        ),
        _ => (
            "RequisicaoInvalida",
            "Requisição inválida.",
            "A requisição não respeita o _schema_.",
        ),
    }
}

/// The refusal, unless the Bearer token is known, not expired, and carries the operation's
/// scopes.
fn unauthorized(inner: &Inner, headers: &HeaderMap, operation: &Operation) -> Option<Response> {
    let unauthorized = |detail: &str| {
        let mut response = problem(
            StatusCode::UNAUTHORIZED,
            "AcessoNegado",
            "Não Autorizado",
            detail,
            &[],
        );
        response.headers_mut().insert(
            header::WWW_AUTHENTICATE,
            HeaderValue::from_static("Bearer error=\"invalid_token\""),
        );
        response
    };
    let Some(token) = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
    else {
        return Some(unauthorized("Token de acesso ausente."));
    };
    let state = inner.state();
    let Some(issued) = state.tokens.get(token.trim()) else {
        return Some(unauthorized("Token de acesso inválido."));
    };
    if issued.expires_at <= Instant::now() {
        return Some(unauthorized("Token de acesso expirado."));
    }
    if let Some(missing) = operation
        .scopes
        .iter()
        .find(|scope| !issued.scopes.contains(scope))
    {
        return Some(access_denied(&format!(
            "O token não tem o escopo {missing}, exigido por {} {}.",
            operation.method, operation.template
        )));
    }
    None
}

/// `POST {token_path}`: OAuth2 client credentials.
fn token(
    inner: &Inner,
    peer: &Peer,
    method: &Method,
    headers: &HeaderMap,
    body: &[u8],
) -> Response {
    let quirks = &inner.config.quirks;
    if method != Method::POST {
        return oauth_error(
            StatusCode::METHOD_NOT_ALLOWED,
            "invalid_request",
            "O token é pedido com POST.",
        );
    }
    if quirks.token_requires_client_cert && !peer.has_client_cert {
        return oauth_error(
            StatusCode::UNAUTHORIZED,
            "invalid_client",
            "Certificado do cliente ausente.",
        );
    }
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let form: Vec<(String, String)> = if quirks.token_json_body {
        // Efí: `{"grant_type": "client_credentials"}` as JSON, the credentials by Basic auth.
        let object = content_type
            .starts_with("application/json")
            .then(|| serde_json::from_slice::<serde_json::Map<String, Value>>(body).ok())
            .flatten();
        let Some(object) = object else {
            return oauth_error(
                StatusCode::BAD_REQUEST,
                "invalid_request",
                "O corpo deve ser um objeto JSON (application/json).",
            );
        };
        object
            .into_iter()
            .filter_map(|(key, value)| value.as_str().map(|v| (key, v.to_owned())))
            .collect()
    } else {
        if !content_type.starts_with("application/x-www-form-urlencoded") {
            return oauth_error(
                StatusCode::BAD_REQUEST,
                "invalid_request",
                "O corpo deve ser application/x-www-form-urlencoded.",
            );
        }
        query_pairs(Some(String::from_utf8_lossy(body).as_ref()))
    };
    let field = |name: &str| {
        form.iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    };
    if field("grant_type") != Some("client_credentials") {
        return oauth_error(
            StatusCode::BAD_REQUEST,
            "unsupported_grant_type",
            "Somente grant_type=client_credentials é aceito.",
        );
    }
    let credentials = match quirks.token_auth {
        TokenAuth::Basic => headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Basic "))
            .and_then(|encoded| {
                base64::engine::general_purpose::STANDARD
                    .decode(encoded.trim())
                    .ok()
            })
            .and_then(|decoded| String::from_utf8(decoded).ok())
            .and_then(|pair| {
                pair.split_once(':')
                    .map(|(id, secret)| (percent_decode(id), percent_decode(secret)))
            }),
        // A bank that issues no secret (Sicoob) identifies the client by its id and certificate.
        TokenAuth::FormBody => field("client_id").map(|id| {
            (
                id.to_owned(),
                field("client_secret").unwrap_or_default().to_owned(),
            )
        }),
    };
    let Some((client_id, client_secret)) = credentials else {
        return oauth_error(
            StatusCode::UNAUTHORIZED,
            "invalid_client",
            match quirks.token_auth {
                TokenAuth::Basic => "Credenciais ausentes: este banco as recebe por HTTP Basic.",
                TokenAuth::FormBody => {
                    "Credenciais ausentes: este banco as recebe no corpo (client_id, client_secret)."
                }
            },
        );
    };
    let Some(client) = inner
        .config
        .clients
        .iter()
        .find(|c| c.client_id == client_id && c.client_secret == client_secret)
    else {
        return oauth_error(
            StatusCode::UNAUTHORIZED,
            "invalid_client",
            "Client ID ou Client Secret inválido.",
        );
    };
    let scopes: Vec<String> = match field("scope") {
        Some(asked) => {
            let asked: Vec<String> = asked.split_whitespace().map(str::to_owned).collect();
            if let Some(unknown) = asked.iter().find(|scope| !client.scopes.contains(scope)) {
                return oauth_error(
                    StatusCode::BAD_REQUEST,
                    "invalid_scope",
                    &format!("O escopo {unknown} não foi concedido a este cliente."),
                );
            }
            asked
        }
        None => client.scopes.clone(),
    };
    let access_token = format!("{}{}", Uuid::new_v4().simple(), Uuid::new_v4().simple());
    let lifetime = inner.config.token_lifetime;
    let mut state = inner.state();
    state.tokens_issued += 1;
    state.tokens.insert(
        access_token.clone(),
        Token {
            scopes: scopes.clone(),
            expires_at: Instant::now() + lifetime,
        },
    );
    json_response(
        StatusCode::OK,
        &json!({
            "access_token": access_token,
            "token_type": "Bearer",
            "expires_in": lifetime.as_secs(),
            "scope": scopes.join(" "),
        }),
    )
}

fn holds_key(inner: &Inner, chave: &str) -> bool {
    inner.config.keys.iter().any(|key| key == chave)
}

fn put_webhook(inner: &Inner, chave: &str, body: &Value) -> Response {
    if !holds_key(inner, chave) {
        return refused(
            WEBHOOK_INVALIDO,
            "O parâmetro chave não corresponde a uma chave DICT pertencente a este usuário recebedor.",
            "chave",
        );
    }
    let url = body["webhookUrl"].as_str().unwrap_or_default().to_owned();
    let mut state = inner.state();
    let criacao = state
        .webhooks
        .get(chave)
        .map_or_else(Utc::now, |existing| existing.criacao);
    state
        .webhooks
        .insert(chave.to_owned(), Webhook { url, criacao });
    StatusCode::OK.into_response()
}

fn webhook_json(chave: &str, webhook: &Webhook, holder: &AccountHolder) -> Value {
    json!({
        "webhookUrl": webhook.url,
        "chave": chave,
        "cnpj": holder.cnpj,
        "criacao": timestamp(webhook.criacao),
    })
}

fn get_webhook(inner: &Inner, chave: &str) -> Response {
    let found = inner
        .state()
        .webhooks
        .get(chave)
        .map(|webhook| webhook_json(chave, webhook, &inner.config.holder));
    found_or(found, || not_found(WEBHOOK_NAO_ENCONTRADO))
}

fn delete_webhook(inner: &Inner, chave: &str) -> Response {
    match inner.state().webhooks.remove(chave) {
        Some(_) => StatusCode::NO_CONTENT.into_response(),
        None => not_found(WEBHOOK_NAO_ENCONTRADO),
    }
}

/// `paginacao.paginaAtual` and `paginacao.itensPorPagina` with the spec's defaults (0, 100).
fn page(query: &dyn Fn(&str) -> Option<String>) -> (usize, usize) {
    let current = query("paginacao.paginaAtual")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let per_page = query("paginacao.itensPorPagina")
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    (current, per_page)
}

fn paginacao(current: usize, per_page: usize, total: usize) -> Value {
    json!({
        "paginaAtual": current,
        "itensPorPagina": per_page,
        "quantidadeDePaginas": total.div_ceil(per_page).max(1),
        "quantidadeTotalDeItens": total,
    })
}

fn list_webhooks(inner: &Inner, query: &dyn Fn(&str) -> Option<String>) -> Response {
    let (current, per_page) = page(query);
    let state = inner.state();
    let all: Vec<Value> = state
        .webhooks
        .iter()
        .map(|(chave, webhook)| webhook_json(chave, webhook, &inner.config.holder))
        .collect();
    let mut parametros = json!({ "paginacao": paginacao(current, per_page, all.len()) });
    for name in ["inicio", "fim"] {
        if let Some(value) = query(name) {
            parametros[name] = json!(value);
        }
    }
    let webhooks: Vec<Value> = all
        .into_iter()
        .skip(current.saturating_mul(per_page))
        .take(per_page)
        .collect();
    json_response(
        StatusCode::OK,
        &json!({ "parametros": parametros, "webhooks": webhooks }),
    )
}

fn put_charge(inner: &Inner, kind: ChargeKind, txid: &str, body: Value) -> Response {
    let (error, prefix) = match kind {
        ChargeKind::Cob => (COB_INVALIDA, "cob"),
        ChargeKind::Cobv => (COBV_INVALIDA, "cobv"),
    };
    let invalid = |razao: &str, field: &str| refused(error, razao, &format!("{prefix}.{field}"));
    let chave = body["chave"].as_str().unwrap_or_default().to_owned();
    if !holds_key(inner, &chave) {
        return invalid(
            &format!(
                "O campo {prefix}.chave corresponde a uma conta que não pertence a este usuário recebedor."
            ),
            "chave",
        );
    }
    let original_centavos = body["valor"]["original"]
        .as_str()
        .and_then(centavos)
        .unwrap_or(0);
    if original_centavos == 0 {
        return invalid(
            &format!("O campo {prefix}.valor.original é zero."),
            "valor.original",
        );
    }
    if kind == ChargeKind::Cob
        && body["calendario"]["expiracao"]
            .as_i64()
            .is_some_and(|seconds| seconds <= 0)
    {
        return invalid(
            "O campo cob.calendario.expiracao é igual ou menor que zero.",
            "calendario.expiracao",
        );
    }
    let mut state = inner.state();
    if let Some(existing) = state.charges.get_mut(txid) {
        if existing.kind != kind
            || existing.status != "ATIVA"
            || inner.config.quirks.put_charge_creates_only
        {
            return problem(
                StatusCode::BAD_REQUEST,
                error.0,
                "Operação inválida.",
                "A cobrança já existe, não está no status ATIVA, e a presente requisição busca alterá-la.",
                &[],
            );
        }
        existing.body = body;
        existing.revisao += 1;
        existing.chave = chave;
        existing.original_centavos = original_centavos;
    } else {
        state.next_location_id += 1;
        let loc_id = state.next_location_id;
        let location = match kind {
            ChargeKind::Cob => format!("{}/qr/v2/{}", inner.authority, Uuid::new_v4().simple()),
            ChargeKind::Cobv => {
                format!("{}/qr/v2/cobv/{}", inner.authority, Uuid::new_v4().simple())
            }
        };
        state.charges.insert(
            txid.to_owned(),
            Charge {
                kind,
                txid: txid.to_owned(),
                body,
                revisao: 0,
                status: "ATIVA",
                criacao: Utc::now(),
                loc_id,
                location,
                chave,
                original_centavos,
                pix: Vec::new(),
            },
        );
    }
    let charge = &state.charges[txid];
    json_response(
        StatusCode::CREATED,
        &charge_json(charge, &state, &inner.config),
    )
}

fn get_charge(inner: &Inner, kind: ChargeKind, txid: &str) -> Response {
    let found = {
        let state = inner.state();
        state
            .charges
            .get(txid)
            .filter(|charge| charge.kind == kind)
            .map(|charge| charge_json(charge, &state, &inner.config))
    };
    found_or(found, || match kind {
        ChargeKind::Cob => not_found(COB_NAO_ENCONTRADA),
        ChargeKind::Cobv => not_found(COBV_NAO_ENCONTRADA),
    })
}

fn list_pix(inner: &Inner, query: &dyn Fn(&str) -> Option<String>) -> Response {
    let parse = |name: &str| {
        query(name)
            .and_then(|value| DateTime::parse_from_rfc3339(&value).ok())
            .map(|at| at.with_timezone(&Utc))
    };
    let (Some(inicio), Some(fim)) = (parse("inicio"), parse("fim")) else {
        // The schema already demanded both as date-times.
        return problem(
            StatusCode::BAD_REQUEST,
            "PixConsultaInvalida",
            "Consulta inválida.",
            "Os parâmetros inicio e fim são obrigatórios.",
            &[],
        );
    };
    let consulta_invalida =
        |razao: &str, propriedade: &str| refused(PIX_CONSULTA_INVALIDA, razao, propriedade);
    if fim < inicio {
        return consulta_invalida(
            "O timestamp representado pelo parâmetro fim é anterior ao timestamp representado pelo parâmetro inicio.",
            "fim",
        );
    }
    if query("cpf").is_some() && query("cnpj").is_some() {
        return consulta_invalida("Ambos os parâmetros cpf e cnpj estão preenchidos.", "cpf");
    }
    let txid = query("txid");
    let txid_present = query("txIdPresente").map(|v| v == "true");
    let refund_present = query("devolucaoPresente").map(|v| v == "true");
    // The simulated Pix carry no payer document: a cpf/cnpj filter finds none.
    let by_payer = query("cpf").is_some() || query("cnpj").is_some();
    let (current, per_page) = page(query);
    let mut state = inner.state();
    // Kept in time order once, not per page: the catch-up benchmark pages through 100k Pix.
    let in_order = |a: &PixRecord, b: &PixRecord| {
        a.horario
            .cmp(&b.horario)
            .then_with(|| a.e2eid.cmp(&b.e2eid))
    };
    if !state.pix.is_sorted_by(|a, b| in_order(a, b).is_le()) {
        state.pix.sort_by(in_order);
    }
    let found: Vec<&PixRecord> = state
        .pix
        .iter()
        .filter(|pix| pix.horario >= inicio && pix.horario <= fim)
        .filter(|pix| txid.as_ref().is_none_or(|t| pix.txid.as_ref() == Some(t)))
        .filter(|pix| txid_present.is_none_or(|present| pix.txid.is_some() == present))
        .filter(|pix| refund_present.is_none_or(|present| pix.refunds.is_empty() != present))
        .filter(|_| !by_payer)
        .collect();
    let total = found.len();
    let pix: Vec<Value> = found
        .into_iter()
        .skip(current.saturating_mul(per_page))
        .take(per_page)
        .map(pix_json)
        .collect();
    let mut parametros = json!({
        "inicio": query("inicio"),
        "fim": query("fim"),
        "paginacao": paginacao(current, per_page, total),
    });
    for name in ["txid", "txIdPresente", "devolucaoPresente", "cpf", "cnpj"] {
        if let Some(value) = query(name) {
            parametros[name] = match value.as_str() {
                "true" => json!(true),
                "false" => json!(false),
                _ => json!(value),
            };
        }
    }
    json_response(
        StatusCode::OK,
        &json!({ "parametros": parametros, "pix": pix }),
    )
}

fn get_pix(inner: &Inner, e2eid: &str) -> Response {
    let found = inner
        .state()
        .pix
        .iter()
        .find(|pix| pix.e2eid == e2eid)
        .map(pix_json);
    found_or(found, || not_found(PIX_NAO_ENCONTRADO))
}

fn put_refund(inner: &Arc<Inner>, e2eid: &str, id: &str, body: &Value) -> Response {
    let valor = body["valor"].as_str().and_then(centavos).unwrap_or(0);
    let invalid = |razao: &str| refused(DEVOLUCAO_INVALIDA, razao, "devolucao.valor");
    let ispb = inner.config.ispb.clone();
    let mut state = inner.state();
    let now = Utc::now();
    let rtr_id = state.new_rtr_id(&ispb, now);
    let Some(pix) = state.pix_mut(e2eid) else {
        return not_found(PIX_NAO_ENCONTRADO);
    };
    if pix.refunds.iter().any(|refund| refund.id == id) {
        return refused(
            DEVOLUCAO_INVALIDA,
            "A presente requisição de devolução apresenta um id já utilizado por outra requisição de devolução para o e2eid em questão.",
            "id",
        );
    }
    if valor == 0 {
        return invalid("O campo devolucao.valor não respeita o schema: é zero.");
    }
    let refunded: i64 = pix
        .refunds
        .iter()
        .filter(|refund| refund.status != "NAO_REALIZADO")
        .map(|refund| refund.valor_centavos)
        .sum();
    if refunded + valor > pix.valor_centavos {
        return invalid(
            "A presente requisição de devolução, em conjunto com as demais prévias devoluções, excederia o valor do pix originário.",
        );
    }
    pix.refunds.push(Refund {
        id: id.to_owned(),
        rtr_id,
        valor_centavos: valor,
        natureza: body["natureza"].as_str().map(str::to_owned),
        descricao: body["descricao"].as_str().map(str::to_owned),
        solicitacao: now,
        liquidacao: None,
        status: "EM_PROCESSAMENTO",
        motivo: None,
    });
    let answer = refund_json(pix.refunds.last().expect("just pushed"));
    drop(state);
    let settle = match inner.config.refunds {
        RefundOutcome::Manual => None,
        RefundOutcome::SettleAtOnce => Some(true),
        RefundOutcome::RejectAtOnce => Some(false),
    };
    if let Some(settled) = settle {
        let inner = inner.clone();
        let (e2eid, id) = (e2eid.to_owned(), id.to_owned());
        tokio::spawn(async move {
            // "A moment after": the answer reaches the client first, as at a real bank.
            tokio::time::sleep(Duration::from_millis(50)).await;
            let motivo = (!settled).then_some("Devolução negada pelo banco simulado.");
            finish_refund(&inner, &e2eid, &id, settled, motivo);
        });
    }
    json_response(StatusCode::CREATED, &answer)
}

fn get_refund(inner: &Inner, e2eid: &str, id: &str) -> Response {
    let found = inner
        .state()
        .pix
        .iter()
        .find(|pix| pix.e2eid == e2eid)
        .and_then(|pix| pix.refunds.iter().find(|refund| refund.id == id))
        .map(refund_json);
    found_or(found, || not_found(DEVOLUCAO_NAO_ENCONTRADA))
}

/// Moves a refund to its final status and notifies the webhook (the spec: the callback fires
/// when a refund of a Pix with a txid reaches `DEVOLVIDO` or `NAO_REALIZADO`). False when there
/// is no such refund still in processing.
pub(crate) fn finish_refund(
    inner: &Arc<Inner>,
    e2eid: &str,
    id: &str,
    settled: bool,
    motivo: Option<&str>,
) -> bool {
    let mut state = inner.state();
    let Some(pix) = state.pix_mut(e2eid) else {
        return false;
    };
    let Some(refund) = pix
        .refunds
        .iter_mut()
        .find(|refund| refund.id == id && refund.status == "EM_PROCESSAMENTO")
    else {
        return false;
    };
    if settled {
        refund.status = "DEVOLVIDO";
        refund.liquidacao = Some(Utc::now());
    } else {
        refund.status = "NAO_REALIZADO";
        refund.motivo = motivo.map(str::to_owned);
    }
    notify(inner, &mut state, e2eid);
    true
}

/// POSTs `{"pix":[…]}` for the Pix `e2eid` to the webhook of its key, when it has a txid and
/// the key a webhook; or records the callback as dropped when the test asked for that.
pub(crate) fn notify(inner: &Arc<Inner>, state: &mut BankState, e2eid: &str) {
    // The newest first: a Pix is notified right after it is recorded.
    let Some(pix) = state.pix.iter().rev().find(|pix| pix.e2eid == e2eid) else {
        return;
    };
    if pix.txid.is_none() {
        return;
    }
    let Some(webhook) = state.webhooks.get(&pix.chave) else {
        return;
    };
    let url = if inner.config.quirks.appends_pix_to_webhook_url {
        format!("{}/pix", webhook.url.trim_end_matches('/'))
    } else {
        webhook.url.clone()
    };
    let body = json!({ "pix": [pix_json(pix)] });
    let violations = api_spec().check_callback(&body);
    if !violations.is_empty() {
        state.invalid_answers.push(InvalidRequest {
            method: "POST".to_owned(),
            path: url.clone(),
            violations,
        });
    }
    let index = state.callbacks.len();
    if state.callbacks_to_drop > 0 {
        state.callbacks_to_drop -= 1;
        state.callbacks.push(CallbackRecord {
            url,
            body,
            outcome: CallbackOutcome::Dropped,
        });
        return;
    }
    state.callbacks.push(CallbackRecord {
        url: url.clone(),
        body: body.clone(),
        outcome: CallbackOutcome::Pending,
    });
    let inner = inner.clone();
    tokio::spawn(async move {
        let sent = inner
            .callback_client
            .post(&url)
            .header(header::CONTENT_TYPE, "application/json")
            .body(body.to_string())
            .send()
            .await;
        let outcome = match sent {
            Ok(response) => CallbackOutcome::Delivered(response.status().as_u16()),
            Err(error) => CallbackOutcome::Failed(error.to_string()),
        };
        inner.state().callbacks[index].outcome = outcome;
    });
}
