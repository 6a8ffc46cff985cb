//! From a request's values to the commands that make codes: the key (registered or typed), the
//! receiver, each code's amount, description and txid, every problem found at once.

use domain::brcode::{BrCodeError, FormPreview, StaticCodeForm, StaticCodeRequest, preview_form};
use domain::qrcode::batch::{self, BatchLine};
use sqlx::PgPool;
use uuid::Uuid;

use super::json::{CodeBody, FieldProblem};
use crate::error::ApiError;
use crate::state::AppState;

/// A registered key, as a code made with it needs it.
#[derive(Debug, Clone)]
pub struct RegisteredKey {
    /// The key in DICT form.
    pub pix_key: String,
    /// `cpf`, `cnpj`, `email`, `phone` or `evp`.
    pub key_kind: String,
    /// The holder's name as the bank shows it, if given.
    pub holder_name: Option<String>,
}

/// The account's key `key_id`, unless it is another account's, removed, or unknown.
///
/// Reads the `pix_keys` read model, or the account's key ring in the log while the read model
/// has not caught up with it ([`projections::pix_keys::find_or_from_log`]): a key registered a
/// moment ago is registered.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn registered_key(
    pool: &PgPool,
    store: &commands::PgEventStore,
    account: Uuid,
    key_id: Uuid,
) -> Result<Option<RegisteredKey>, ApiError> {
    let found = projections::pix_keys::find_or_from_log(pool, store, account, key_id)
        .await
        .map_err(crate::api::access::projection_error)?;
    Ok(found
        .filter(|key| key.removed_at.is_none())
        .and_then(|key| {
            Some(RegisteredKey {
                pix_key: key.pix_key?,
                key_kind: key.key_kind,
                holder_name: key.holder_name,
            })
        }))
}

/// A fresh txid (80 random bits from the OS).
pub use commands::qrcodes::fresh_txid;

/// The request field a BR Code error is about.
pub fn field_of(error: &BrCodeError) -> &'static str {
    domain::qrcode::request_field(error)
}

/// The values every code of a request shares: the key, how it was chosen, the receiver.
#[derive(Debug, Clone)]
pub struct Shared {
    /// The registered key chosen, if one was.
    pub key_id: Option<Uuid>,
    /// The form with the key and the receiver filled in (amount, description, txid blank).
    pub form: StaticCodeForm,
}

/// Reads the key and the receiver of `body`, adding what is wrong with them to `problems`.
///
/// # Errors
///
/// When PostgreSQL fails while looking the registered key up.
pub async fn shared(
    state: &AppState,
    account: Uuid,
    body: &CodeBody,
    problems: &mut Vec<FieldProblem>,
) -> Result<Shared, ApiError> {
    let mut form = StaticCodeForm {
        merchant_name: body.merchant_name.clone(),
        merchant_city: body.merchant_city.clone(),
        ..StaticCodeForm::default()
    };
    let mut key_id = None;
    match body
        .key_id
        .as_deref()
        .map(str::trim)
        .filter(|k| !k.is_empty())
    {
        Some(text) => {
            let key = match Uuid::parse_str(text) {
                Ok(id) => registered_key(&state.pool, state.qrcodes.store(), account, id)
                    .await?
                    .map(|key| (id, key)),
                Err(_) => None,
            };
            match key {
                Some((id, key)) => {
                    key_id = Some(id);
                    form.key = key.pix_key;
                    form.key_kind = key.key_kind;
                    if form.merchant_name.trim().is_empty()
                        && let Some(holder) = key.holder_name
                    {
                        form.merchant_name = holder;
                    }
                }
                None => problems.push(FieldProblem {
                    field: "keyId",
                    line: None,
                    message: "Esta chave Pix não está cadastrada nesta conta (ou foi removida). Escolha outra ou digite a chave.".to_owned(),
                }),
            }
        }
        None => {
            form.key = body.pix_key.clone().unwrap_or_default().trim().to_owned();
            form.key_kind = body.key_kind.clone().unwrap_or_default();
        }
    }
    Ok(Shared { key_id, form })
}

/// One code's values checked: the request for the command, or nothing (its problems were added).
pub fn one_code(
    shared: &Shared,
    amount: Option<&str>,
    description: Option<&str>,
    txid: &str,
    line: Option<usize>,
    problems: &mut Vec<FieldProblem>,
) -> (FormPreview, Option<StaticCodeRequest>) {
    let form = StaticCodeForm {
        amount: amount.unwrap_or_default().to_owned(),
        additional_info: description.unwrap_or_default().to_owned(),
        txid: txid.to_owned(),
        ..shared.form.clone()
    };
    let preview = preview_form(&form);
    let kept = preview.clone();
    match preview.into_request(false) {
        Ok(request) => (kept, Some(request)),
        Err(errors) => {
            for error in errors {
                // A batch's key and receiver are the same on every line: report them once.
                let field = field_of(&error);
                let shared_field = matches!(field, "pixKey" | "merchantName" | "merchantCity");
                if shared_field && line.is_some_and(|l| l > 1) {
                    continue;
                }
                problems.push(FieldProblem {
                    field,
                    line: if shared_field { None } else { line },
                    message: match (line, shared_field) {
                        (Some(n), false) => format!("Linha {n}: {error}"),
                        _ => error.to_string(),
                    },
                });
            }
            (kept, None)
        }
    }
}

/// The batch's lines from `prefix` + `count` or from `lines`, adding a problem when they cannot
/// be read as a whole.
pub fn batch_lines(body: &CodeBody, problems: &mut Vec<FieldProblem>) -> Vec<BatchLine> {
    let result = match (&body.lines, &body.prefix) {
        (Some(text), _) if !text.trim().is_empty() => batch::listed(text).map_err(|e| ("lines", e)),
        (_, Some(prefix)) => {
            batch::numbered(prefix, body.count.unwrap_or(0)).map_err(|e| match e {
                batch::BatchShapeError::PrefixMissing => ("prefix", e),
                _ => ("count", e),
            })
        }
        _ => Err(("lines", batch::BatchShapeError::Empty)),
    };
    match result {
        Ok(lines) => lines,
        Err((field, error)) => {
            problems.push(FieldProblem {
                field,
                line: None,
                message: error.to_string(),
            });
            Vec::new()
        }
    }
}

/// 422 `invalid-argument` naming the first problem's field, with every problem in `problems`
/// (the API's one error envelope and its documented `problems` list).
pub fn invalid(problems: &[FieldProblem]) -> axum::response::Response {
    use axum::response::IntoResponse;
    ApiError::invalid_fields(problems.to_vec()).into_response()
}
