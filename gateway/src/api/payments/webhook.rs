//! `POST /webhooks/api-pix/{token}/pix`: the bank's API Pix delivery (the callback of the BCB's
//! `PUT /webhook/{chave}`: the bank appends `/pix` to the registered URL; a bare POST to the URL
//! itself is accepted too, as some PSPs send it).
//!
//! | answer | when | written |
//! |---|---|---|
//! | 200 `{"recebidos": n, "novos": m}` | the delivery is valid (n entries, m new events) | every entry, in one transaction |
//! | 400 `corpo-invalido` | the body breaks the spec anywhere (`violacoes` lists where) | nothing |
//! | 401 `assinatura-invalida` | `BALCAO_API_PIX_HMAC_SECRET` is set and `X-Balcao-Signature` is missing or wrong | nothing |
//! | 404 `nao-encontrado` | no live receiver has this token (unknown, rotated away, revoked, or its key removed) | nothing |
//! | 413 `corpo-grande-demais` | the body is over `BALCAO_API_PIX_MAX_BODY_BYTES` | nothing |
//! | 413 `pix-demais` | the delivery has more than `commands::payments::intake::MAX_ENTRIES` (11,000) entries | nothing |
//! | 422 `chave-nao-cadastrada` | an entry's `chave` is not the receiver's key | nothing |
//! | 503 `indisponivel` | PostgreSQL failed (the bank retries) | nothing |
//!
//! Errors are RFC 7807 `application/problem+json`, as the API Pix itself answers.

use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use domain::payment::PaymentSource;
use domain::payment::api_pix::Problem;
use serde_json::json;

use commands::payments::intake::{IntakeError, MAX_ENTRIES};

use commands::api_pix_receivers as receivers;

use super::receiver::{Target, receive, signature_matches, token_digest};
use crate::state::AppState;
use crate::telemetry::FailureCause;

/// The header carrying the optional HMAC.
pub const SIGNATURE_HEADER: &str = "x-balcao-signature";

/// An RFC 7807 problem.
pub fn problem(status: StatusCode, code: &str, detail: &str, violations: &[Problem]) -> Response {
    let violacoes: Vec<_> = violations
        .iter()
        .map(|p| json!({"propriedade": p.path, "razao": p.message}))
        .collect();
    let mut body = json!({
        "type": format!("https://balcao.app/erros/{code}"),
        "title": detail,
        "status": status.as_u16(),
        "detail": detail,
    });
    if !violacoes.is_empty() {
        body["violacoes"] = json!(violacoes);
    }
    (
        status,
        [(header::CONTENT_TYPE, "application/problem+json")],
        body.to_string(),
    )
        .into_response()
}

fn not_found() -> Response {
    problem(
        StatusCode::NOT_FOUND,
        "nao-encontrado",
        "Endereço de notificação desconhecido ou desativado.",
        &[],
    )
}

fn too_large(max: usize) -> Response {
    problem(
        StatusCode::PAYLOAD_TOO_LARGE,
        "corpo-grande-demais",
        &format!("A notificação passa do limite de {max} bytes."),
        &[],
    )
}

/// `POST /webhooks/api-pix/{token}/pix` (see the module table).
pub async fn deliver(
    State(state): State<AppState>,
    Path(token): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let max = state.payments.max_body_bytes;
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|length| length > max as u64) {
        return too_large(max);
    }
    // Tokens are 43 base64url characters; anything else names no receiver.
    if token.len() > 100 {
        return not_found();
    }
    let receiver = match receivers::by_token(&state.pool, &token_digest(&token)).await {
        Ok(Some(receiver)) => receiver,
        Ok(None) => return not_found(),
        Err(error) => return unavailable(&anyhow::Error::new(error)),
    };
    let Ok(bytes) = axum::body::to_bytes(body, max).await else {
        return too_large(max);
    };
    if let Some(secret) = &state.payments.hmac_secret {
        let header = headers.get(SIGNATURE_HEADER).and_then(|v| v.to_str().ok());
        if !signature_matches(secret, &bytes, header) {
            return problem(
                StatusCode::UNAUTHORIZED,
                "assinatura-invalida",
                "Assinatura X-Balcao-Signature ausente ou incorreta.",
                &[],
            );
        }
    }
    let receivers::ReceiverTarget {
        receiver_id,
        account_id,
        pix_key,
    } = receiver;
    let target = Target {
        account_id,
        pix_key,
        actor: format!("api-pix:{receiver_id}"),
    };
    match receive(&state, &target, &bytes, PaymentSource::ApiPix).await {
        Ok(accepted) => (
            StatusCode::OK,
            axum::Json(json!({"recebidos": accepted.entries, "novos": accepted.recorded.events})),
        )
            .into_response(),
        Err(refused) => refusal(refused),
    }
}

/// A refused delivery as the bank reads it.
pub fn refusal(refused: IntakeError) -> Response {
    match refused {
        IntakeError::Malformed(problems) => problem(
            StatusCode::BAD_REQUEST,
            "corpo-invalido",
            "A notificação não segue o esquema da API Pix; nada foi registrado.",
            &problems,
        ),
        IntakeError::TooManyEntries { entries } => problem(
            StatusCode::PAYLOAD_TOO_LARGE,
            "pix-demais",
            &format!(
                "A notificação traz {} Pix; o limite é de {} por notificação. Envie em partes; \
                 nada foi registrado.",
                grouped(entries),
                grouped(MAX_ENTRIES)
            ),
            &[],
        ),
        IntakeError::ForeignKey(problems) => problem(
            StatusCode::UNPROCESSABLE_ENTITY,
            "chave-nao-cadastrada",
            "A notificação traz Pix para outra chave; nada foi registrado.",
            &problems,
        ),
        IntakeError::Vault(error) => unavailable(&anyhow::Error::new(error)),
        IntakeError::Record(error) => unavailable(&anyhow::Error::new(error)),
    }
}

/// `n` with pt-BR thousands separators (`11.000`).
fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('.');
        }
        out.push(digit);
    }
    out
}

fn unavailable(error: &anyhow::Error) -> Response {
    // Logged once, with the route, by `telemetry::log_failures`.
    let mut response = problem(
        StatusCode::SERVICE_UNAVAILABLE,
        "indisponivel",
        "Não foi possível registrar agora; tente de novo.",
        &[],
    );
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, header::HeaderValue::from_static("5"));
    response.extensions_mut().insert(FailureCause(
        format!("an API Pix delivery could not be recorded: {error:#}").into(),
    ));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_grouped_by_thousands_as_pt_br_writes_them() {
        assert_eq!(grouped(7), "7");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(11_000), "11.000");
        assert_eq!(grouped(1_234_567), "1.234.567");
    }
}
