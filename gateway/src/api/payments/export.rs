//! `GET /api/accounts/{accountId}/payments/csv`: the filtered payments as a CSV file that Excel
//! in Brazil opens as it is: UTF-8 with a BOM (without it Excel reads the accents as Latin-1),
//! `;` between fields (`,` is the decimal mark), CRLF line ends, dates as `dd/mm/aaaa HH:MM` on
//! São Paulo's clock and amounts as `1.234,56`.
//!
//! The file is streamed: the payments are read a page of [`PAGE`] at a time (the list's keyset
//! order) and each page is written as it arrives, so an export of any size holds one page in
//! memory. The first page is read before the answer starts, so a database that is down gets the
//! API's 503 rather than a file cut short.
//!
//! Columns: Data, Valor, Devolvido, Situação, Origem, QR code, Txid, Chave Pix, Identificador
//! (E2E); for roles that see payers also Pagador, CPF/CNPJ do pagador, Mensagem do pagador;
//! then Observação. A text field starting with `=`, `+`, `-`, `@`, tab or CR is prefixed with
//! `'`, so a payer's message can never run as a spreadsheet formula.

use axum::body::{Body, Bytes};
use axum::extract::{Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use domain::money::Centavos;
use domain::team::Right;
use futures::stream;
use projections::payments::search::{self, Cursor, Found, Search};
use sqlx::PgPool;
use uuid::Uuid;

use super::filters::Filters;
use crate::api::access::{Workspace, projection_error};
use crate::error::ApiError;
use crate::state::AppState;

/// The first São Paulo day the file holds (`AAAA-MM-DD`), or `tudo`: Grátis exports the days
/// its plan shows, like the screen.
pub const HISTORY_HEADER: &str = "x-balcao-historico-desde";

/// Payments read per page.
pub const PAGE: i64 = 1000;

/// The byte-order mark Excel looks for to read UTF-8.
pub const BOM: &str = "\u{feff}";

/// `GET /api/accounts/{accountId}/payments/csv`.
///
/// # Errors
///
/// As [`Filters`] says (no `depois` or `limite`: the file has every payment found); 403 for a
/// role that sees no transactions; 503 when the first page cannot be read.
pub async fn csv(
    State(state): State<AppState>,
    workspace: Workspace,
    Query(filters): Query<Filters>,
) -> Result<Response, ApiError> {
    let mut search = filters.search(&workspace)?;
    // The plan's history window, as on the screen: older payments are kept, not exported.
    let shown_from = crate::billing::history_from(&state.billing, workspace.account_id()).await?;
    crate::billing::within_history(&mut search, shown_from);
    let with_payer = workspace.can(Right::ViewAllTransactions);
    let account = workspace.account_uuid();
    let first = search::page(&state.pool, account, &search, None, PAGE)
        .await
        .map_err(projection_error)?;
    let mut head = String::from(BOM);
    head.push_str(&header_row(with_payer));
    head.push_str(&rows(&first, with_payer));
    let next = next_cursor(&first);
    let reader = Reader {
        pool: state.pool.clone(),
        account,
        search,
        with_payer,
    };
    let rest = stream::unfold((reader, next), |(reader, after)| async move {
        let after = after?;
        match search::page(
            &reader.pool,
            reader.account,
            &reader.search,
            Some(&after),
            PAGE,
        )
        .await
        {
            Ok(found) => {
                let chunk = Bytes::from(rows(&found, reader.with_payer));
                let next = next_cursor(&found);
                Some((Ok::<_, projections::Error>(chunk), (reader, next)))
            }
            Err(error) => {
                // The answer has begun: all that is left is to cut it, which the client sees
                // as a failed download, never as a complete file.
                tracing::warn!(%error, "a payments CSV export stopped: a page could not be read");
                Some((Err(error), (reader, None)))
            }
        }
    });
    let body = stream::once(async move { Ok(Bytes::from(head)) });
    let filename = file_name(&search_period(&filters));
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{filename}\""),
            ),
            (header::CACHE_CONTROL, "no-store".to_owned()),
            (
                header::HeaderName::from_static(HISTORY_HEADER),
                shown_from.map_or_else(|| "tudo".to_owned(), |from| from.to_string()),
            ),
        ],
        // Fused: the compression layer polls a body once more after its end, which an unfused
        // `unfold` answers with a panic.
        Body::from_stream(futures::StreamExt::fuse(futures::StreamExt::chain(
            body, rest,
        ))),
    )
        .into_response())
}

/// What the streamed pages need.
struct Reader {
    pool: PgPool,
    account: Uuid,
    search: Search,
    with_payer: bool,
}

/// The cursor after a full page; `None` after the last one.
fn next_cursor(found: &[Found]) -> Option<Cursor> {
    if i64::try_from(found.len()).unwrap_or(i64::MAX) < PAGE {
        return None;
    }
    found
        .last()
        .map(|f| (f.payment.paid_at, f.payment.reference.clone()))
}

fn search_period(filters: &Filters) -> (Option<String>, Option<String>) {
    let day = |d: Option<&String>| {
        d.map(|d| d.trim().to_owned())
            .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit() || b == b'-'))
    };
    (day(filters.de.as_ref()), day(filters.ate.as_ref()))
}

/// `transacoes.csv`, `transacoes-2026-11-01-a-2026-11-30.csv`…
fn file_name(period: &(Option<String>, Option<String>)) -> String {
    match period {
        (Some(from), Some(to)) if from == to => format!("transacoes-{from}.csv"),
        (Some(from), Some(to)) => format!("transacoes-{from}-a-{to}.csv"),
        (Some(from), None) => format!("transacoes-desde-{from}.csv"),
        (None, Some(to)) => format!("transacoes-ate-{to}.csv"),
        (None, None) => "transacoes.csv".to_owned(),
    }
}

fn header_row(with_payer: bool) -> String {
    let mut columns = vec![
        "Data",
        "Valor",
        "Devolvido",
        "Situação",
        "Origem",
        "QR code",
        "Txid",
        "Chave Pix",
        "Identificador (E2E)",
    ];
    if with_payer {
        columns.extend(["Pagador", "CPF/CNPJ do pagador", "Mensagem do pagador"]);
    }
    columns.push("Observação");
    let mut line = columns.join(";");
    line.push_str("\r\n");
    line
}

/// The "QR code" column: the code's description, or the payment link's, as the screen names them.
fn code_label(found: &Found) -> String {
    let described = |d: &Option<String>| d.as_deref().filter(|d| !d.is_empty()).map(str::to_owned);
    match (&found.payment.qrcode_id, &found.payment.payment_link_id) {
        (Some(_), _) => {
            described(&found.code_description).unwrap_or_else(|| "QR code sem descrição".to_owned())
        }
        (None, Some(_)) => described(&found.link_description).map_or_else(
            || "Link de pagamento sem descrição".to_owned(),
            |d| format!("Link de pagamento: {d}"),
        ),
        (None, None) => "sem QR code".to_owned(),
    }
}

fn rows(found: &[Found], with_payer: bool) -> String {
    let mut out = String::with_capacity(found.len() * 160);
    for f in found {
        let p = &f.payment;
        let mut fields: Vec<String> = vec![
            f.paid_at_local.clone(),
            money(p.amount_centavos),
            money(p.refunded_centavos),
            status_label(&p.status).to_owned(),
            source_label(&p.source).to_owned(),
            text(&code_label(f)),
            text(p.txid.as_deref().unwrap_or("")),
            text(p.pix_key.as_deref().unwrap_or("")),
            text(p.end_to_end_id.as_deref().unwrap_or("")),
        ];
        if with_payer {
            for value in [&p.payer_name, &p.payer_document, &p.payer_info] {
                fields.push(text(value.as_deref().unwrap_or("")));
            }
        }
        fields.push(text(p.note.as_deref().unwrap_or("")));
        out.push_str(&fields.join(";"));
        out.push_str("\r\n");
    }
    out
}

/// `1.234,56`: the pt-BR amount without the currency sign.
fn money(centavos: i64) -> String {
    let formatted = Centavos::new(u64::try_from(centavos).unwrap_or_default()).to_string();
    formatted
        .strip_prefix("R$ ")
        .unwrap_or(&formatted)
        .to_owned()
}

fn status_label(status: &str) -> &'static str {
    match status {
        "voided" => "Anulado",
        _ => "Recebido",
    }
}

fn source_label(source: &str) -> &'static str {
    match source {
        "api-pix" => "Banco (API Pix)",
        "manual" => "Registrado à mão",
        _ => "Simulação",
    }
}

/// A text field: quoted when it holds `;`, `"` or a line break; a leading formula character
/// neutralised with `'`.
fn text(value: &str) -> String {
    let value = if value.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{value}")
    } else {
        value.to_owned()
    };
    if value.contains([';', '"', '\n', '\r']) {
        format!("\"{}\"", value.replace('"', "\"\""))
    } else {
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_are_written_with_thousands_dots_and_a_decimal_comma() {
        assert_eq!(money(123_456), "1.234,56");
        assert_eq!(money(5), "0,05");
        assert_eq!(money(100_000_000), "1.000.000,00");
    }

    #[test]
    fn a_field_with_a_separator_quote_or_line_break_is_quoted() {
        assert_eq!(text("Pão; café"), "\"Pão; café\"");
        assert_eq!(text("diz \"oi\""), "\"diz \"\"oi\"\"\"");
        assert_eq!(text("linha\num"), "\"linha\num\"");
        assert_eq!(text("simples"), "simples");
    }

    #[test]
    fn a_field_that_a_spreadsheet_would_run_as_a_formula_is_neutralised() {
        assert_eq!(text("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        assert_eq!(text("+55 11"), "'+55 11");
        assert_eq!(text("@soma"), "'@soma");
    }

    #[test]
    fn the_file_is_named_for_its_period() {
        let name = |from: Option<&str>, to: Option<&str>| {
            file_name(&(from.map(str::to_owned), to.map(str::to_owned)))
        };
        assert_eq!(name(None, None), "transacoes.csv");
        assert_eq!(
            name(Some("2026-11-26"), Some("2026-11-26")),
            "transacoes-2026-11-26.csv"
        );
        assert_eq!(
            name(Some("2026-11-01"), Some("2026-11-30")),
            "transacoes-2026-11-01-a-2026-11-30.csv"
        );
    }
}
