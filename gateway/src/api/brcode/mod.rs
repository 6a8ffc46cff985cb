//! `GET /api/brcode/normalize?name=…&city=…` (public): how a BR Code will write a receiver's name
//! and city, for the settings form's live preview.
//!
//! The answer comes from the very functions that make every code
//! ([`normalise_name`] and [`normalise_city`], which the sign form's `preview_form` calls too), so the preview can never disagree with the printed sign.
//!
//! | answer | when |
//! |---|---|
//! | 200 `{name, city, changes: [pt-BR sentence…]}` | both values are usable |
//! | 422 `invalid-argument`, `field` `name` or `city` | blank, nothing usable left, or over the BR Code's limit (25 / 15 characters after normalising); the message is the engine's pt-BR one |

use axum::extract::Query;
use axum::extract::rejection::QueryRejection;
use domain::brcode::BrCodeError;
use domain::brcode::normalise::{Normalised, normalise_city, normalise_name};
use serde::{Deserialize, Serialize};

use crate::api::json::Json;
use crate::error::ApiError;

/// The query string: both values as typed (a missing one counts as blank).
#[derive(Debug, Default, Deserialize)]
pub struct NormalizeQuery {
    /// The receiver's name as typed.
    #[serde(default)]
    pub name: String,
    /// The city as typed.
    #[serde(default)]
    pub city: String,
}

/// The answer: the values as the code will carry them, and what changed.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct Normalized {
    /// Field 59 as it will be written.
    pub name: String,
    /// Field 60 as it will be written.
    pub city: String,
    /// One pt-BR sentence per value written differently from how it was typed.
    pub changes: Vec<String>,
}

/// `GET /api/brcode/normalize`.
///
/// # Errors
///
/// 422 `invalid-argument` naming `name` or `city` (see the module table).
pub async fn normalize(
    query: Result<Query<NormalizeQuery>, QueryRejection>,
) -> Result<Json<Normalized>, ApiError> {
    let Query(query) = query.map_err(|_| {
        ApiError::invalid_argument("name", "Não foi possível ler o nome e a cidade enviados.")
    })?;
    normalized(&query.name, &query.city).map(Json)
}

/// The pure part of [`normalize`].
///
/// # Errors
///
/// The first unusable value, as 422 `invalid-argument` on `name` or `city`.
pub fn normalized(name: &str, city: &str) -> Result<Normalized, ApiError> {
    let name = normalise_name(name).map_err(|e| brcode_error("name", &e))?;
    let city = normalise_city(city).map_err(|e| brcode_error("city", &e))?;
    let changes = [&name, &city]
        .into_iter()
        .filter_map(|n: &Normalised| n.change.as_ref().map(ToString::to_string))
        .collect();
    Ok(Normalized {
        name: name.text,
        city: city.text,
        changes,
    })
}

/// A BR Code engine error as a 422 on the request's `field`, with the engine's pt-BR message.
pub(crate) fn brcode_error(field: &str, error: &BrCodeError) -> ApiError {
    ApiError::invalid_argument(field.to_owned(), error.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accents_and_case_are_reported_one_sentence_per_value() {
        let answer = normalized("Padaria São João", "São Paulo").expect("usable");
        assert_eq!(answer.name, "PADARIA SAO JOAO");
        assert_eq!(answer.city, "SAO PAULO");
        assert_eq!(answer.changes.len(), 2);
        assert!(
            answer.changes[1].contains("“São Paulo” será escrito como “SAO PAULO”"),
            "{:?}",
            answer.changes
        );
    }

    #[test]
    fn values_already_in_code_form_report_no_change() {
        let answer = normalized("ANA", "NATAL").expect("usable");
        assert!(answer.changes.is_empty());
    }

    #[test]
    fn a_name_over_the_limit_is_refused_on_its_field_never_cut() {
        let error = normalized("Mercearia e Padaria Boa Esperança", "Natal").expect_err("too long");
        assert_eq!(error.code(), "invalid-argument");
        assert_eq!(error.field(), Some("name"));
        assert!(error.message().contains("25"), "{}", error.message());
        let error = normalized("Ana", "   ").expect_err("blank city");
        assert_eq!(error.field(), Some("city"));
    }
}
