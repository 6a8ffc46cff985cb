//! The transactions screen's query string, parsed at the edge into
//! [`projections::payments::search::Search`]: one parser for the list, the summary and the CSV,
//! so the three always describe the same payments. Each value that cannot be read is a 422
//! `invalid-argument` naming its parameter, in pt-BR.
//!
//! | parameter | value |
//! |---|---|
//! | `de`, `ate` | São Paulo days, `AAAA-MM-DD` (`ate` not before `de`) |
//! | `qrcode` | a code's id, `sem` for payments matched to no code and no payment link, or `links` for payments of payment links |
//! | `chave` | a registered key's id |
//! | `origem` | `api-pix`, `manual` or `sandbox` |
//! | `situacao` | `received`, `voided` or `refunded` |
//! | `minimo`, `maximo` | amounts as typed in Brazil (`12,50`, `1.234,56`) |
//! | `busca` | text (at most [`MAX_TEXT`] characters); an amount typed here also matches it |
//! | `depois` | the `next` cursor of the previous page (the list only) |
//! | `limite` | page size, 1 … [`MAX_PAGE`] (the list only) |

use chrono::{DateTime, NaiveDate, Utc};
use domain::money::Centavos;
use domain::payment::PaymentSource;
use domain::team::Right;
use projections::payments::search::{CodeFilter, Cursor, Search, StatusFilter};
use serde::Deserialize;
use uuid::Uuid;

use crate::api::access::Workspace;
use crate::error::ApiError;

/// The default page of the list.
pub const PAGE: i64 = 50;
/// The largest page of the list.
pub const MAX_PAGE: i64 = 200;
/// The longest search text.
pub const MAX_TEXT: usize = 200;

/// The query string, every value as sent.
#[derive(Debug, Default, Deserialize)]
pub struct Filters {
    /// First São Paulo day.
    #[serde(default)]
    pub de: Option<String>,
    /// Last São Paulo day.
    #[serde(default)]
    pub ate: Option<String>,
    /// A code's id, `sem` or `links`.
    #[serde(default)]
    pub qrcode: Option<String>,
    /// A registered key's id.
    #[serde(default)]
    pub chave: Option<String>,
    /// The source.
    #[serde(default)]
    pub origem: Option<String>,
    /// The status.
    #[serde(default)]
    pub situacao: Option<String>,
    /// Smallest amount.
    #[serde(default)]
    pub minimo: Option<String>,
    /// Largest amount.
    #[serde(default)]
    pub maximo: Option<String>,
    /// Text.
    #[serde(default)]
    pub busca: Option<String>,
    /// Keyset cursor.
    #[serde(default)]
    pub depois: Option<String>,
    /// Page size.
    #[serde(default)]
    pub limite: Option<String>,
}

fn given(value: Option<&String>) -> Option<&str> {
    value.map(|v| v.trim()).filter(|v| !v.is_empty())
}

fn bad(field: &'static str, message: &'static str) -> ApiError {
    ApiError::invalid_argument(field, message)
}

fn day(value: Option<&String>, field: &'static str) -> Result<Option<NaiveDate>, ApiError> {
    given(value)
        .map(|t| {
            NaiveDate::parse_from_str(t, "%Y-%m-%d")
                .map_err(|_| bad(field, "Use uma data no formato AAAA-MM-DD."))
        })
        .transpose()
}

fn amount(value: Option<&String>, field: &'static str) -> Result<Option<i64>, ApiError> {
    given(value)
        .map(|t| {
            Centavos::parse_br(t)
                .ok()
                .and_then(|c| i64::try_from(c.get()).ok())
                .ok_or_else(|| bad(field, "Use um valor em reais, como 12,50."))
        })
        .transpose()
}

impl Filters {
    /// The search these filters describe, for the caller: an operator's is narrowed to the
    /// codes they made, and only roles that see payers search the payer's fields.
    ///
    /// # Errors
    ///
    /// 403 when the role sees no transactions; 422 `invalid-argument` naming the parameter.
    pub fn search(&self, workspace: &Workspace) -> Result<Search, ApiError> {
        workspace.require(Right::ViewOwnTransactions)?;
        let from = day(self.de.as_ref(), "de")?;
        let to = day(self.ate.as_ref(), "ate")?;
        if let (Some(from), Some(to)) = (from, to)
            && to < from
        {
            return Err(bad("ate", "A data final não pode vir antes da inicial."));
        }
        let code = match given(self.qrcode.as_ref()) {
            None => CodeFilter::Any,
            Some("sem") => CodeFilter::Without,
            Some("links") => CodeFilter::Links,
            Some(text) => CodeFilter::Code(
                Uuid::parse_str(text).map_err(|_| bad("qrcode", "Este QR code não existe."))?,
            ),
        };
        let key_id = given(self.chave.as_ref())
            .map(|k| Uuid::parse_str(k).map_err(|_| bad("chave", "Chave Pix desconhecida.")))
            .transpose()?;
        let source = given(self.origem.as_ref())
            .map(|s| {
                [
                    PaymentSource::ApiPix,
                    PaymentSource::Manual,
                    PaymentSource::Sandbox,
                    PaymentSource::Extrato,
                    PaymentSource::ApiPixConsulta,
                ]
                .into_iter()
                .find(|known| known.as_str() == s)
                .map(|known| known.as_str().to_owned())
                .ok_or_else(|| {
                    bad(
                        "origem",
                        "Use origem=api-pix, api-pix-consulta, manual, sandbox ou extrato.",
                    )
                })
            })
            .transpose()?;
        let status = given(self.situacao.as_ref())
            .map(|s| {
                StatusFilter::parse(s)
                    .ok_or_else(|| bad("situacao", "Use situacao=received, voided ou refunded."))
            })
            .transpose()?;
        let min_centavos = amount(self.minimo.as_ref(), "minimo")?;
        let max_centavos = amount(self.maximo.as_ref(), "maximo")?;
        if let (Some(min), Some(max)) = (min_centavos, max_centavos)
            && max < min
        {
            return Err(bad(
                "maximo",
                "O valor máximo não pode ser menor que o mínimo.",
            ));
        }
        let text = given(self.busca.as_ref()).map(str::to_owned);
        if text.as_ref().is_some_and(|t| t.chars().count() > MAX_TEXT) {
            return Err(bad("busca", "Busque com até 200 caracteres."));
        }
        // A search that reads as money also finds payments of that amount ("6,50", "R$ 6,50").
        let text_centavos = text
            .as_deref()
            .filter(|t| t.chars().any(|c| c.is_ascii_digit()))
            .and_then(|t| Centavos::parse_br(t).ok())
            .and_then(|c| i64::try_from(c.get()).ok());
        let sees_all = workspace.can(Right::ViewAllTransactions);
        Ok(Search {
            created_by: (!sees_all).then(|| workspace.caller_id().to_owned()),
            code,
            key_id,
            from,
            to,
            source,
            status,
            min_centavos,
            max_centavos,
            text,
            text_centavos,
            text_in_payer: sees_all,
        })
    }

    /// Where the page starts.
    ///
    /// # Errors
    ///
    /// 422 `invalid-argument` on `depois` when it is not a cursor this API made.
    pub fn after(&self) -> Result<Option<Cursor>, ApiError> {
        given(self.depois.as_ref())
            .map(|c| {
                parse_cursor(c).ok_or_else(|| {
                    bad(
                        "depois",
                        "Esta página da lista não existe mais. Volte ao início.",
                    )
                })
            })
            .transpose()
    }

    /// The page size.
    ///
    /// # Errors
    ///
    /// 422 `invalid-argument` on `limite` when it is not a whole number from 1 to [`MAX_PAGE`].
    pub fn limit(&self) -> Result<i64, ApiError> {
        match given(self.limite.as_ref()) {
            None => Ok(PAGE),
            Some(text) => text
                .parse::<i64>()
                .ok()
                .filter(|n| (1..=MAX_PAGE).contains(n))
                .ok_or_else(|| bad("limite", "Use um número de 1 a 200.")),
        }
    }
}

/// A keyset cursor: the last row's payment instant (microseconds) and reference.
pub fn cursor(at: DateTime<Utc>, reference: &str) -> String {
    format!("{}.{reference}", at.timestamp_micros())
}

fn parse_cursor(text: &str) -> Option<Cursor> {
    let (micros, reference) = text.split_once('.')?;
    let at = DateTime::from_timestamp_micros(micros.parse().ok()?)?;
    let fits = !reference.is_empty()
        && reference.len() <= 64
        && reference
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-');
    fits.then(|| (at, reference.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_reads_back_as_the_instant_and_reference_it_was_made_from() {
        let at = DateTime::from_timestamp_micros(1_764_000_000_123_456).expect("an instant");
        let text = cursor(at, "manual-0196a1b27c3d");
        assert_eq!(
            parse_cursor(&text),
            Some((at, "manual-0196a1b27c3d".to_owned()))
        );
    }

    #[test]
    fn a_cursor_this_api_did_not_make_is_not_read() {
        for text in ["", "abc", "12.", "x.ref", "12.a b", "12.a'--"] {
            assert_eq!(parse_cursor(text), None, "{text:?}");
        }
    }
}
