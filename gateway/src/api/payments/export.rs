//! `GET /api/accounts/{accountId}/payments/csv`: the filtered payments as a CSV file that Excel
//! in Brazil opens as it is: UTF-8 with a BOM (without it Excel reads the accents as Latin-1),
//! `;` between fields (`,` is the decimal mark), CRLF line ends, dates as `dd/mm/aaaa HH:MM` on
//! São Paulo's clock and amounts as `1.234,56`.
//!
//! The file is streamed: the payments are read a chunk at a time, [`FIRST_CHUNK`] growing to
//! [`CHUNK`] (the list's keyset order, one statement each, its rows formatted as they arrive) by a task of its own that
//! reads the next chunk while the answer sends the last, so an export of any size holds about
//! two chunks in memory and no statement waits on a slow client. The first chunk is read before
//! the answer starts, so a database that is down gets the API's 503 rather than a file cut short.
//!
//! Columns: Data, Valor, Devolvido, Situação, Origem, QR code, Txid, Chave Pix, Identificador
//! (E2E); for roles that see payers also Pagador, CPF/CNPJ do pagador, Mensagem do pagador;
//! then Observação. A text field starting with `=`, `+`, `-`, `@`, tab or CR is prefixed with
//! `'`, so a payer's message can never run as a spreadsheet formula.

use std::fmt::Write as _;

use chrono::{Datelike, Timelike};

use axum::body::{Body, Bytes};
use axum::extract::{Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use domain::team::Right;
use futures::{StreamExt, TryStreamExt, stream};
use projections::payments::export::{self as rows_of, ExportRow, TextMatches};
use projections::payments::search::{Cursor, Search};
use sqlx::PgPool;
use tokio::sync::mpsc;
use uuid::Uuid;

use super::filters::Filters;
use crate::api::access::{Workspace, projection_error};
use crate::error::ApiError;
use crate::state::AppState;

/// The first São Paulo day the file holds (`AAAA-MM-DD`), or `tudo`: Grátis exports the days
/// its plan shows, like the screen.
pub const HISTORY_HEADER: &str = "x-balcao-historico-desde";

/// Payments of the first chunk, read before the answer starts: small, so the download starts
/// at once; each chunk after it reads twice as many, up to [`CHUNK`].
pub const FIRST_CHUNK: i64 = 500;

/// Payments read per chunk at most (one statement each, about 1.7 MB of CSV). With pages of
/// 1,000 the round trips and plans cost a 1M-payment export a second (issue 37, BENCHMARKS.md).
pub const CHUNK: i64 = 10_000;

/// The byte-order mark Excel looks for to read UTF-8.
pub const BOM: &str = "\u{feff}";

/// `GET /api/accounts/{accountId}/payments/csv`.
///
/// # Errors
///
/// As [`Filters`] says (no `depois` or `limite`: the file has every payment found); 403 for a
/// role that sees no transactions; 503 when the first chunk cannot be read.
pub async fn csv(
    State(state): State<AppState>,
    workspace: Workspace,
    Query(filters): Query<Filters>,
) -> Result<Response, ApiError> {
    let mut search = filters.search(&workspace)?;
    // The plan's history window, as on the screen: older payments are kept, not exported.
    let shown_from = crate::billing::history_from(&state.billing, workspace.account_id()).await?;
    crate::billing::within_history(&mut search, shown_from);
    let reader = Reader {
        matches: TextMatches::read(&state.pool, workspace.account_uuid(), &search)
            .await
            .map_err(projection_error)?,
        pool: state.pool.clone(),
        account: workspace.account_uuid(),
        search,
        with_payer: workspace.can(Right::ViewAllTransactions),
    };
    let mut head = String::from(BOM);
    head.push_str(&header_row(reader.with_payer));
    let (first, next) = reader
        .chunk(head, None, FIRST_CHUNK)
        .await
        .map_err(projection_error)?;
    // One chunk waits in the channel while the next is read: the database and the client work
    // at the same time, and memory stays at about two chunks.
    let (sender, receiver) = mpsc::channel::<Result<Bytes, projections::Error>>(1);
    if let Some(after) = next {
        tokio::spawn(reader.send_rest(after, sender));
    }
    let rest = stream::unfold(receiver, |mut receiver| async move {
        receiver.recv().await.map(|chunk| (chunk, receiver))
    });
    let body = stream::once(async move { Ok(first) }).chain(rest);
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
        Body::from_stream(body.fuse()),
    )
        .into_response())
}

/// What the streamed chunks need.
struct Reader {
    pool: PgPool,
    account: Uuid,
    search: Search,
    matches: TextMatches,
    with_payer: bool,
}

impl Reader {
    /// The rows of one chunk of `size` after `after`, written after `out`'s text, and the cursor after it
    /// when it was full (`None` after the last one).
    async fn chunk(
        &self,
        out: String,
        after: Option<&Cursor>,
        size: i64,
    ) -> Result<(Bytes, Option<Cursor>), projections::Error> {
        let mut out = out;
        out.reserve(usize::try_from(size).unwrap_or_default() * 192);
        let mut rows = rows_of::rows(
            &self.pool,
            self.account,
            &self.search,
            &self.matches,
            self.with_payer,
            after,
            size,
        );
        let (mut count, mut last) = (0_i64, None);
        let mut label = String::new();
        while let Some(row) = rows.try_next().await? {
            let row = ExportRow::of(&row)?;
            write_row(&mut out, &mut label, &row, self.with_payer);
            count += 1;
            if count == size {
                last = Some(row.cursor());
            }
        }
        Ok((Bytes::from(out), last))
    }

    /// Every chunk after the first, into `sender`, until the last or until the client is gone.
    async fn send_rest(
        self,
        after: Cursor,
        sender: mpsc::Sender<Result<Bytes, projections::Error>>,
    ) {
        let (mut after, mut size) = (after, FIRST_CHUNK);
        loop {
            size = (size * 2).min(CHUNK);
            match self.chunk(String::new(), Some(&after), size).await {
                Ok((chunk, next)) => {
                    if sender.send(Ok(chunk)).await.is_err() {
                        return; // The client went away.
                    }
                    match next {
                        Some(next) => after = next,
                        None => return,
                    }
                }
                Err(error) => {
                    // The answer has begun: all that is left is to cut it, which the client
                    // sees as a failed download, never as a complete file.
                    tracing::warn!(%error, "a payments CSV export stopped: a chunk could not be read");
                    let _ = sender.send(Err(error)).await;
                    return;
                }
            }
        }
    }
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

/// One payment's line, CRLF included. `label` is scratch space for the "QR code" column.
fn write_row(out: &mut String, label: &mut String, row: &ExportRow<'_>, with_payer: bool) {
    // `dd/mm/aaaa HH:MM`, as the screen shows it (`to_char`'s `DD/MM/YYYY HH24:MI`).
    let local = row.paid_at_local;
    let _ = write!(
        out,
        "{:02}/{:02}/{:04} {:02}:{:02};",
        local.day(),
        local.month(),
        local.year(),
        local.hour(),
        local.minute()
    );
    write_money(out, row.amount_centavos);
    out.push(';');
    write_money(out, row.refunded_centavos);
    out.push(';');
    out.push_str(status_label(row.status));
    out.push(';');
    out.push_str(source_label(row.source));
    out.push(';');
    code_label(label, row);
    write_text(out, label);
    for value in [row.txid, row.pix_key, row.end_to_end_id] {
        out.push(';');
        write_text(out, value.unwrap_or(""));
    }
    if with_payer {
        for value in [row.payer_name, row.payer_document, row.payer_info] {
            out.push(';');
            write_text(out, value.unwrap_or(""));
        }
    }
    out.push(';');
    write_text(out, row.note.unwrap_or(""));
    out.push_str("\r\n");
}

/// The "QR code" column into `label`: the code's description, or the payment link's, as the
/// screen names them.
fn code_label(label: &mut String, row: &ExportRow<'_>) {
    fn described(d: Option<&str>) -> Option<&str> {
        d.filter(|d| !d.is_empty())
    }
    label.clear();
    if row.has_code {
        label.push_str(described(row.code_description).unwrap_or("QR code sem descrição"));
    } else if row.has_link {
        match described(row.link_description) {
            Some(d) => {
                label.push_str("Link de pagamento: ");
                label.push_str(d);
            }
            None => label.push_str("Link de pagamento sem descrição"),
        }
    } else {
        label.push_str("sem QR code");
    }
}

/// `1.234,56`: the pt-BR amount without the currency sign (as [`domain::money::Centavos`]
/// writes it after `R$ `; a negative amount, which no payment has, as `0,00`).
fn write_money(out: &mut String, centavos: i64) {
    let centavos = u64::try_from(centavos).unwrap_or_default();
    let reais = centavos / 100;
    // Groups of three digits, most significant first; the first without leading zeros.
    let mut groups = [0_u64; 7];
    let (mut rest, mut count) = (reais, 0);
    loop {
        groups[count] = rest % 1000;
        count += 1;
        rest /= 1000;
        if rest == 0 {
            break;
        }
    }
    let _ = write!(out, "{}", groups[count - 1]);
    for group in groups[..count - 1].iter().rev() {
        let _ = write!(out, ".{group:03}");
    }
    let _ = write!(out, ",{:02}", centavos % 100);
}

fn status_label(status: &str) -> &'static str {
    match status {
        "voided" => "Anulado",
        _ => "Recebido",
    }
}

/// The source as the transactions screen names it (`webapp`'s `labels.ts`).
fn source_label(source: &str) -> &'static str {
    match source {
        "api-pix" => "Banco (API Pix)",
        "manual" => "Registrado à mão",
        "extrato" => "Extrato bancário",
        "sandbox" => "Simulação",
        "api-pix-consulta" => "Banco (consulta API Pix)",
        // The read model's check constraint allows no other value.
        _ => "Outra",
    }
}

/// A text field: quoted when it holds `;`, `"` or a line break; a leading formula character
/// neutralised with `'`.
fn write_text(out: &mut String, value: &str) {
    let formula = value.starts_with(['=', '+', '-', '@', '\t', '\r']);
    let quoted = value.contains([';', '"', '\n', '\r']);
    if quoted {
        out.push('"');
    }
    if formula {
        out.push('\'');
    }
    if quoted {
        let mut parts = value.split('"');
        out.push_str(parts.next().unwrap_or_default());
        for part in parts {
            out.push_str("\"\"");
            out.push_str(part);
        }
        out.push('"');
    } else {
        out.push_str(value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_source_is_named_as_the_screen_names_it() {
        use domain::payment::PaymentSource;
        let named: Vec<_> = [
            PaymentSource::ApiPix,
            PaymentSource::Manual,
            PaymentSource::Sandbox,
            PaymentSource::Extrato,
            PaymentSource::ApiPixConsulta,
        ]
        .map(|source| source_label(source.as_str()))
        .into();
        assert_eq!(
            named,
            [
                "Banco (API Pix)",
                "Registrado à mão",
                "Simulação",
                "Extrato bancário",
                "Banco (consulta API Pix)"
            ]
        );
    }

    fn money(centavos: i64) -> String {
        let mut out = String::new();
        write_money(&mut out, centavos);
        out
    }

    fn text(value: &str) -> String {
        let mut out = String::new();
        write_text(&mut out, value);
        out
    }

    #[test]
    fn amounts_are_written_with_thousands_dots_and_a_decimal_comma() {
        assert_eq!(money(123_456), "1.234,56");
        assert_eq!(money(5), "0,05");
        assert_eq!(money(100_000_000), "1.000.000,00");
    }

    #[test]
    fn amounts_are_written_as_the_money_type_writes_them_without_the_sign() {
        for centavos in [
            0_u64, 1, 9, 10, 99, 100, 101, 999, 1_000, 99_999, 100_000, 123_456,
        ]
        .into_iter()
        .chain((0..64).map(|shift| 1_u64 << shift >> 1))
        .chain([i64::MAX.unsigned_abs()])
        {
            let written = money(i64::try_from(centavos).expect("an i64"));
            let shown = domain::money::Centavos::new(centavos).to_string();
            assert_eq!(format!("R$ {written}"), shown, "{centavos}");
        }
        assert_eq!(money(-5), "0,00");
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
