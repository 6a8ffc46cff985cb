//! `Idempotency-Key` on every API call that creates something: the header read once, scoped to
//! the account, the caller and the kind of thing made, so a retried request makes nothing new.
//!
//! A creating handler:
//! 1. reads the key with [`key`] (400 `invalid-idempotency-key` when it is empty, over 100
//!    characters or not text);
//! 2. names what it makes after the key ([`id_for`]): a retry names the same stream, so the
//!    command's idempotency ([`commands::CommandService`]) answers the first outcome (a batch
//!    names its batch id so; its codes' ids are the first request's, read from the recorded
//!    outcome);
//! 3. gives the command the key and the digest of the request as parsed
//!    ([`commands::RequestDigest`]): the same key with other values is refused, 409
//!    `idempotency-key-reused`, and nothing is made;
//! 4. marks a replayed answer with `Idempotent-Replayed: true` ([`mark_replayed`]).
//!
//! | call | scope |
//! |---|---|
//! | `POST …/qrcodes` | `painel-qrcode` |
//! | `POST …/qrcodes/lote` (the whole batch is one unit: `commands::CommandService::create_streams`) | `painel-qrcode-lote` |
//! | `POST …/qrcodes/{id}/duplicar` | `painel-qrcode-copia` |
//! | `POST …/keys` | `painel-chave` |
//! | `POST …/payments` (a payment typed by hand) | `painel-pagamento` |
//! | `POST …/payment-links` | `painel-link` |
//! | `POST …/placas` | `painel-placa` |
//! | `POST …/placas/{id}/duplicar` | `painel-placa-copia` |
//! | `POST …/subscription/upgrade` (the charge is opened at the provider only when the key is new: `commands::CommandService::load_unless_recorded`) | `painel-assinatura` |
//! | `POST …/qrcodes/cobrancas` (the bank is asked only when the key is new, the same way; the key names the charge's txid) | `painel-cobranca` |
//!
//! The other creating calls make at most one of what they make, key or no key: a second
//! invitation to the same address is 409 `member-already-invited`, a second receiver for a key
//! 409 `api-pix-receiver-on`, a second claim of a sign 409 `qrcode-already-claimed`, a second
//! sign-up with an address 409 `email-already-in-use`; the visitor's sign form carries its own
//! request id (`crate::pages::sign_form`).

use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;
use commands::IdempotencyKey;
use uuid::Uuid;

use crate::api::access::Workspace;
use crate::error::ApiError;

/// The request header.
pub const HEADER: &str = "idempotency-key";

/// The `Idempotency-Key` header as the command's key, scoped to `scope` (what the call makes),
/// the account and the caller; `None` without the header.
///
/// # Errors
///
/// 400 `invalid-idempotency-key` for an empty, over-long or non-text value.
pub fn key(
    workspace: &Workspace,
    headers: &HeaderMap,
    scope: &str,
) -> Result<Option<IdempotencyKey>, ApiError> {
    let Some(value) = headers.get(HEADER) else {
        return Ok(None);
    };
    let bad = || {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid-idempotency-key",
            "O cabeçalho Idempotency-Key deve ter de 1 a 100 caracteres visíveis.",
        )
    };
    let text = value.to_str().map_err(|_| bad())?.trim();
    if text.is_empty() || text.len() > 100 {
        return Err(bad());
    }
    let scoped = format!(
        "{scope}:{}:{}:{text}",
        workspace.account_id(),
        workspace.caller_id()
    );
    IdempotencyKey::parse(&scoped).map(Some).map_err(|_| bad())
}

/// The id of what a call makes: derived from the key in `namespace` (a retry names the same
/// thing), or a fresh uuid v7 without one.
pub fn id_for(namespace: &Uuid, key: Option<&IdempotencyKey>) -> Uuid {
    key.map_or_else(Uuid::now_v7, |key| {
        Uuid::new_v5(namespace, key.as_str().as_bytes())
    })
}

/// Sets `Idempotent-Replayed: true` on `response` when it answers a repeated key.
pub fn mark_replayed(response: &mut Response, replayed: bool) {
    if replayed {
        response
            .headers_mut()
            .insert("idempotent-replayed", HeaderValue::from_static("true"));
    }
}
