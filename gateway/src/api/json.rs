//! [`Json`]: axum's JSON extractor and response, with every rejection answered as an
//! [`ApiError`] in pt-BR instead of axum's English plain text.
//!
//! | what is wrong | answer |
//! |---|---|
//! | no `Content-Type: application/json` (or `…+json`) | 415 `unsupported-media-type` |
//! | the body is over the API's limit | 413 `payload-too-large` |
//! | not JSON at all, empty, cut short, or not an object; a lone surrogate escape (`"\ud800"`) | 400 `invalid-json` |
//! | a string (or a key) holding U+0000, which PostgreSQL cannot store | 400 `invalid-text` with `field` |
//! | a field missing or of the wrong type | 422 `invalid-argument` with `field` |
//!
//! The U+0000 check is here, once, for every JSON body the API reads, so no handler can pass one
//! on to an event or a read model (where the projector would park it: `domain::text`).

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::ApiError;

/// A JSON request body or response body. As an extractor it checks the content type, reads the
/// body within the limit and deserialises it, naming the field at fault when that fails.
#[derive(Debug, Clone, Copy, Default)]
pub struct Json<T>(pub T);

impl<T, S> FromRequest<S> for Json<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        if !is_json(request.headers()) {
            return Err(ApiError::unsupported_media_type());
        }
        let bytes = Bytes::from_request(request, state)
            .await
            .map_err(|rejection| {
                if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                    ApiError::payload_too_large()
                } else {
                    ApiError::invalid_json("Não foi possível ler o corpo do pedido.")
                }
            })?;
        parse(&bytes).map(Json)
    }
}

impl<T: Serialize> IntoResponse for Json<T> {
    fn into_response(self) -> Response {
        axum::Json(self.0).into_response()
    }
}

fn is_json(headers: &axum::http::HeaderMap) -> bool {
    let Some(value) = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    let essence = value
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    essence == "application/json"
        || (essence.starts_with("application/") && essence.ends_with("+json"))
}

/// Deserialises `bytes`, turning serde's error into the API's answer.
///
/// # Errors
///
/// 400 `invalid-json` for a syntax error or a body that is not a JSON object,
/// 422 `invalid-argument` (with the field's path) for a missing or ill-typed field.
pub fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    // Every API body is an object; serde would also read a struct from an array, by position.
    match bytes.iter().find(|b| !b.is_ascii_whitespace()) {
        None => {
            return Err(ApiError::invalid_json(
                "O corpo do pedido está vazio ou incompleto.",
            ));
        }
        Some(b'{') => {}
        Some(_) => {
            return Err(ApiError::invalid_json(
                "O corpo do pedido deve ser um objeto JSON.",
            ));
        }
    }
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let value: T = serde_path_to_error::deserialize(&mut deserializer).map_err(describe)?;
    if let Some(field) = nul_field(bytes) {
        let message = format!(
            "O campo {field} tem um caractere nulo (U+0000), que não pode ser guardado. Apague-o e tente de novo."
        );
        return Err(
            ApiError::new(StatusCode::BAD_REQUEST, "invalid-text", message).with_field(field),
        );
    }
    // Trailing garbage after the value is a syntax error too.
    deserializer
        .end()
        .map_err(|_| ApiError::invalid_json("O corpo do pedido não é um JSON válido."))?;
    Ok(value)
}

fn describe(error: serde_path_to_error::Error<serde_json::Error>) -> ApiError {
    use serde_json::error::Category;
    let path = error.path().to_string();
    let inner = error.inner();
    match inner.classify() {
        Category::Eof => ApiError::invalid_json("O corpo do pedido está vazio ou incompleto."),
        Category::Syntax | Category::Io => {
            ApiError::invalid_json("O corpo do pedido não é um JSON válido.")
        }
        Category::Data => {
            let message = inner.to_string();
            if let Some(missing) = missing_field(&message) {
                let field = if path == "." {
                    missing.to_owned()
                } else {
                    format!("{path}.{missing}")
                };
                let text = format!("Informe o campo {field}.");
                return ApiError::invalid_argument(field, text);
            }
            if path == "." {
                return ApiError::invalid_json("O corpo do pedido não tem o formato esperado.");
            }
            let text = format!("O campo {path} tem um valor inválido.");
            ApiError::invalid_argument(path, text)
        }
    }
}

/// The path (`name`, `payer.name`, `lines[2]`) of the first string or key of the JSON `bytes`
/// that holds U+0000, if any. JSON can only carry it escaped (`\u0000`), so bodies without that
/// escape are not read twice.
pub fn nul_field(bytes: &[u8]) -> Option<String> {
    const ESCAPE: &[u8] = b"\\u0000";
    if !bytes.windows(ESCAPE.len()).any(|w| w == ESCAPE) {
        return None;
    }
    // `\\u0000` (an escaped backslash, then `u0000`) also matched: only the tree can tell.
    let value: serde_json::Value = serde_json::from_slice(bytes).ok()?;
    let mut path = String::new();
    find_nul(&value, &mut path).then_some(path)
}

/// Whether `value` holds U+0000; `path` is left naming where.
fn find_nul(value: &serde_json::Value, path: &mut String) -> bool {
    use serde_json::Value;
    match value {
        Value::String(text) => text.contains('\0'),
        Value::Array(items) => items.iter().enumerate().any(|(index, item)| {
            let length = path.len();
            path.push_str(&format!("[{index}]"));
            let found = find_nul(item, path);
            if !found {
                path.truncate(length);
            }
            found
        }),
        Value::Object(fields) => fields.iter().any(|(name, item)| {
            let length = path.len();
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(name);
            let found = name.contains('\0') || find_nul(item, path);
            if !found {
                path.truncate(length);
            }
            found
        }),
        _ => false,
    }
}

/// The field name in serde's "missing field `name`" message (a wording serde has kept since 1.0).
fn missing_field(message: &str) -> Option<&str> {
    let rest = message.strip_prefix("missing field `")?;
    rest.split('`').next()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[serde(rename_all = "camelCase")]
    #[allow(dead_code)]
    struct Login {
        email: String,
        new_password: String,
        all_devices: Option<bool>,
    }

    fn error_of(body: &str) -> ApiError {
        parse::<Login>(body.as_bytes()).expect_err("refused")
    }

    #[test]
    fn a_missing_field_is_named_in_the_clients_spelling() {
        let error = error_of(r#"{"email": "a@b.c"}"#);
        assert_eq!(error.status(), StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(error.code(), "invalid-argument");
        assert_eq!(error.field(), Some("newPassword"));
        assert_eq!(error.message(), "Informe o campo newPassword.");
    }

    #[test]
    fn a_field_of_the_wrong_type_is_named() {
        let error = error_of(r#"{"email": 12, "newPassword": "x"}"#);
        assert_eq!(error.code(), "invalid-argument");
        assert_eq!(error.field(), Some("email"));
        let error = error_of(r#"{"email": "a", "newPassword": "x", "allDevices": "sim"}"#);
        assert_eq!(error.field(), Some("allDevices"));
    }

    #[test]
    fn broken_empty_or_misshapen_bodies_are_400() {
        for body in [
            "{\"email\": ",
            "",
            "[1, 2]",
            "not json",
            "{\"email\":\"a\",\"newPassword\":\"b\"} x",
        ] {
            let error = error_of(body);
            assert_eq!(error.status(), StatusCode::BAD_REQUEST, "{body:?}");
            assert_eq!(error.code(), "invalid-json", "{body:?}");
        }
    }

    #[test]
    fn a_nul_anywhere_is_refused_with_400_naming_the_field() {
        let error = error_of(r#"{"email": "a\u0000b", "newPassword": "x"}"#);
        assert_eq!(error.status(), StatusCode::BAD_REQUEST);
        assert_eq!(error.code(), "invalid-text");
        assert_eq!(error.field(), Some("email"));
        assert_eq!(
            nul_field(br#"{"a": {"b": ["ok", "\u0000"]}}"#).as_deref(),
            Some("a.b[1]")
        );
        assert_eq!(
            nul_field(br#"{"a": {"x\u0000": 1}}"#).as_deref(),
            Some("a.x\u{0}")
        );
        // An escaped backslash followed by "u0000" is six plain characters.
        assert_eq!(nul_field(br#"{"a": "\\u0000"}"#), None);
        let fine = parse::<Login>(br#"{"email": "\\u0000", "newPassword": "x"}"#);
        assert!(fine.is_ok());
    }

    #[test]
    fn a_lone_surrogate_is_not_json() {
        let error = error_of(r#"{"email": "a\ud800", "newPassword": "x"}"#);
        assert_eq!(error.status(), StatusCode::BAD_REQUEST);
        assert_eq!(error.code(), "invalid-json");
    }

    #[test]
    fn json_content_types_are_recognised_with_parameters_and_suffixes() {
        let mut headers = axum::http::HeaderMap::new();
        assert!(!is_json(&headers));
        headers.insert(
            header::CONTENT_TYPE,
            "application/json; charset=utf-8".parse().unwrap(),
        );
        assert!(is_json(&headers));
        headers.insert(
            header::CONTENT_TYPE,
            "application/merge-patch+json".parse().unwrap(),
        );
        assert!(is_json(&headers));
        headers.insert(header::CONTENT_TYPE, "text/plain".parse().unwrap());
        assert!(!is_json(&headers));
    }
}
