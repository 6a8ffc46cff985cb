//! CSV statements of the main banks, recognised by their header line; rows split by the `csv` crate.
//!
//! Bank apps export CSV with `;` or `,`, values quoted or not, sometimes a few lines about the
//! account before the header, and "saldo" (balance) rows among the transactions. The header is
//! looked for in the first [`HEADER_SEARCH_LINES`] lines, with each separator, and compared,
//! folded (no accents, lower case, blanks collapsed), with the layouts in [`KNOWN_LAYOUTS`]. The
//! layouts are written from the banks' published exports; the sample files under
//! `domain/tests/data/statements/` are our own, with made-up people. An unknown header is
//! refused with a message asking which columns hold what; [`parse_with`] takes that answer as a
//! [`ColumnMap`].

use unicode_normalization::UnicodeNormalization;

use super::amount::{Dialect, parse_signed};
use super::line::{LineId, StatementLine, assign_hashes, find_end_to_end_id, find_txid};
use super::ofx::shorten;
use super::posted::parse_csv;
use super::{MAX_LINES, Statement, StatementError, StatementFormat, clean};

/// How many lines from the top may come before the header.
pub const HEADER_SEARCH_LINES: usize = 20;

/// Where the amount is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AmountColumns {
    /// One signed column.
    Signed(usize),
    /// A column for money in and one for money out (either may be empty or zero).
    Split {
        /// Money in.
        credit: usize,
        /// Money out (read as a debit whatever its sign).
        debit: usize,
    },
}

/// Which columns (0-based) hold what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColumnMap {
    /// The posting date (optionally with a time).
    pub date: usize,
    /// The amount.
    pub amount: AmountColumns,
    /// The description columns, joined by " - " into the line's memo.
    pub description: Vec<usize>,
    /// A column with the bank's id of the transaction, if any.
    pub id: Option<usize>,
}

impl ColumnMap {
    /// Every column named, with what it holds in the owner's words (pt-BR, with its article), in
    /// the screen's order.
    pub fn named(&self) -> Vec<(&'static str, usize)> {
        let mut named = vec![("a data", self.date)];
        match self.amount {
            AmountColumns::Signed(c) => named.push(("o valor", c)),
            AmountColumns::Split { credit, debit } => {
                named.push(("a entrada", credit));
                named.push(("a saída", debit));
            }
        }
        named.extend(self.description.iter().map(|c| ("a descrição", *c)));
        named.extend(self.id.map(|c| ("o identificador", c)));
        named
    }
}

/// A bank's CSV export, recognised by its header.
#[derive(Debug, Clone, Copy)]
pub struct KnownLayout {
    /// The bank, as the owner knows it.
    pub bank: &'static str,
    /// The header, folded (see the module doc).
    pub header: &'static [&'static str],
    /// Date column.
    pub date: usize,
    /// Signed amount column, or (credit, debit).
    pub amount: (usize, Option<usize>),
    /// Description columns.
    pub description: &'static [usize],
    /// Id column.
    pub id: Option<usize>,
}

impl KnownLayout {
    /// The layout as a column map.
    pub fn columns(&self) -> ColumnMap {
        ColumnMap {
            date: self.date,
            amount: match self.amount {
                (signed, None) => AmountColumns::Signed(signed),
                (credit, Some(debit)) => AmountColumns::Split { credit, debit },
            },
            description: self.description.to_vec(),
            id: self.id,
        }
    }
}

/// The layouts recognised.
pub const KNOWN_LAYOUTS: [KnownLayout; 5] = [
    KnownLayout {
        bank: "Nubank",
        header: &["data", "valor", "identificador", "descricao"],
        date: 0,
        amount: (1, None),
        description: &[3],
        id: Some(2),
    },
    KnownLayout {
        bank: "Inter",
        header: &[
            "data lancamento",
            "historico",
            "descricao",
            "valor",
            "saldo",
        ],
        date: 0,
        amount: (3, None),
        description: &[1, 2],
        id: None,
    },
    KnownLayout {
        bank: "Itaú",
        header: &[
            "data",
            "lancamento",
            "ag./origem",
            "valor (r$)",
            "saldos (r$)",
        ],
        date: 0,
        amount: (3, None),
        description: &[1],
        id: None,
    },
    KnownLayout {
        bank: "Banco do Brasil",
        header: &[
            "data",
            "lancamento",
            "detalhes",
            "n documento",
            "valor",
            "tipo lancamento",
        ],
        date: 0,
        amount: (4, None),
        description: &[1, 2],
        id: None,
    },
    KnownLayout {
        bank: "C6 Bank",
        header: &[
            "data lancamento",
            "data contabil",
            "titulo",
            "descricao",
            "entrada(r$)",
            "saida(r$)",
            "saldo do dia(r$)",
        ],
        date: 0,
        amount: (4, Some(5)),
        description: &[2, 3],
        id: None,
    },
];

/// A CSV row: its cells and the line it starts on.
struct Row {
    line: usize,
    cells: Vec<String>,
}

/// Reads a CSV statement whose header is one of [`KNOWN_LAYOUTS`].
pub fn parse(text: &str) -> Result<Statement, StatementError> {
    for separator in [';', ',', '\t'] {
        let rows = split_rows(text, separator, Some(HEADER_SEARCH_LINES))?;
        for (at, row) in rows.iter().enumerate() {
            let folded: Vec<String> = trimmed_header(&row.cells);
            if let Some(layout) = KNOWN_LAYOUTS.iter().find(|l| {
                l.header
                    .iter()
                    .copied()
                    .eq(folded.iter().map(String::as_str))
            }) {
                return read(
                    text,
                    separator,
                    Skip::Rows(at + 1),
                    &layout.columns(),
                    StatementFormat::Csv(layout.bank),
                );
            }
        }
    }
    let header = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .map(shorten_header)
        .unwrap_or_default();
    Err(StatementError::UnknownCsvLayout { header })
}

/// How many rows of an unknown CSV [`sample`] shows.
pub const SAMPLE_ROWS: usize = 8;

/// The first rows of a CSV whose header is unknown, split as the owner will be asked to map
/// them: with the separator that splits them most evenly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CsvSample {
    /// `;`, `,` or a tab.
    pub separator: char,
    /// At most [`SAMPLE_ROWS`] non-blank rows, each cell trimmed and shortened.
    pub rows: Vec<Vec<String>>,
}

/// The sample of `text` (see [`CsvSample`]). The separator is the one whose rows most often
/// have the same number of cells, at least two; `;` first on a tie, as Brazilian banks write it.
pub fn sample(text: &str) -> CsvSample {
    let mut best: Option<(usize, char, Vec<Vec<String>>)> = None;
    for separator in [';', ',', '\t'] {
        let Ok(rows) = split_rows(text, separator, Some(HEADER_SEARCH_LINES)) else {
            continue;
        };
        let rows: Vec<Vec<String>> = rows
            .into_iter()
            .map(|row| {
                row.cells
                    .iter()
                    .map(|c| shorten(c.trim()))
                    .collect::<Vec<_>>()
            })
            .filter(|cells: &Vec<String>| cells.iter().any(|c| !c.is_empty()))
            .collect();
        // How many rows share the most common width of two cells or more.
        let mut widths: std::collections::BTreeMap<usize, usize> =
            std::collections::BTreeMap::new();
        for row in rows.iter().filter(|r| r.len() > 1) {
            *widths.entry(row.len()).or_default() += 1;
        }
        let score = widths.values().copied().max().unwrap_or(0);
        if best.as_ref().is_none_or(|(b, _, _)| score > *b) {
            best = Some((score, separator, rows));
        }
    }
    let (_, separator, mut rows) = best.unwrap_or((0, ';', Vec::new()));
    rows.truncate(SAMPLE_ROWS);
    CsvSample { separator, rows }
}

/// The "bank" of a statement read with the owner's columns, as the preview names its format.
pub const CHOSEN_COLUMNS: &str = "colunas escolhidas";

/// Reads a CSV statement with the columns the owner named: the first `header_rows` rows that
/// are not blank are skipped, as the owner counted them in the [`CsvSample`] (which leaves blank
/// rows out: a blank line after the lines about the account must not shift the header in).
pub fn parse_with(
    text: &str,
    separator: char,
    header_rows: usize,
    columns: &ColumnMap,
) -> Result<Statement, StatementError> {
    read(
        text,
        separator,
        Skip::Filled(header_rows),
        columns,
        StatementFormat::Csv(CHOSEN_COLUMNS),
    )
}

/// The rows before the transactions.
#[derive(Debug, Clone, Copy)]
enum Skip {
    /// Rows as split, blank ones included (a known header's position).
    Rows(usize),
    /// Rows that are not blank (the owner's count, from the sample).
    Filled(usize),
}

fn is_blank(row: &Row) -> bool {
    row.cells.iter().all(|c| c.trim().is_empty())
}

fn read(
    text: &str,
    separator: char,
    skip: Skip,
    columns: &ColumnMap,
    format: StatementFormat,
) -> Result<Statement, StatementError> {
    let mut rows = split_rows(text, separator, None)?.into_iter();
    match skip {
        Skip::Rows(n) => rows.by_ref().take(n).for_each(drop),
        Skip::Filled(n) => {
            let mut left = n;
            while left > 0 {
                match rows.next() {
                    Some(row) if !is_blank(&row) => left -= 1,
                    Some(_) => {}
                    None => break,
                }
            }
        }
    }
    let needed = 1 + [
        columns.date,
        match columns.amount {
            AmountColumns::Signed(c) => c,
            AmountColumns::Split { credit, debit } => credit.max(debit),
        },
        columns.id.unwrap_or(0),
    ]
    .into_iter()
    .chain(columns.description.iter().copied())
    .max()
    .unwrap_or(0);
    let mut lines = Vec::new();
    for row in rows {
        if is_blank(&row) {
            continue;
        }
        if row.cells.len() < needed {
            // The owner's own columns: say which of them the row lacks, not how many columns
            // "the statement" has (they chose them).
            if format == StatementFormat::Csv(CHOSEN_COLUMNS)
                && let Some((field, column)) = columns
                    .named()
                    .into_iter()
                    .find(|(_, c)| *c >= row.cells.len())
            {
                return Err(StatementError::ChosenColumnMissing {
                    line: row.line,
                    column: column + 1,
                    field,
                    found: row.cells.len(),
                });
            }
            return Err(StatementError::MissingColumns {
                line: row.line,
                expected: needed,
                found: row.cells.len(),
            });
        }
        let memo = columns
            .description
            .iter()
            .map(|c| clean(row.cells[*c].trim()))
            .filter(|c| !c.is_empty())
            .collect::<Vec<_>>()
            .join(" - ");
        if is_balance_row(&memo) {
            continue;
        }
        let date = row.cells[columns.date].trim();
        let amount_cells = match columns.amount {
            AmountColumns::Signed(c) => vec![c],
            AmountColumns::Split { credit, debit } => vec![credit, debit],
        };
        let no_amount = amount_cells.iter().all(|c| row.cells[*c].trim().is_empty());
        let Some(posted) = parse_csv(date) else {
            // Rows without a date nor an amount are the bank's notes ("Lançamentos futuros",
            // "Total"), not transactions; with an amount, a bad date refuses the file.
            if no_amount {
                continue;
            }
            return Err(StatementError::InvalidDate {
                line: row.line,
                text: shorten(date),
            });
        };
        if no_amount {
            return Err(StatementError::MissingField {
                line: row.line,
                field: "valor",
            });
        }
        let amount = |cell: usize| -> Result<i64, StatementError> {
            let text = row.cells[cell].trim();
            if text.is_empty() {
                return Ok(0);
            }
            parse_signed(text, Dialect::PtBr).ok_or(StatementError::InvalidAmount {
                line: row.line,
                text: shorten(text),
            })
        };
        let amount_centavos = match columns.amount {
            AmountColumns::Signed(c) => amount(c)?,
            AmountColumns::Split { credit, debit } => amount(credit)? - amount(debit)?.abs(),
        };
        let id = columns
            .id
            .map(|c| row.cells[c].trim().to_owned())
            .filter(|id| !id.is_empty());
        lines.push(StatementLine {
            line: row.line,
            id: id.map_or(LineId::Hash(String::new()), LineId::Fitid),
            trntype: None,
            amount_centavos,
            posted,
            end_to_end_id: find_end_to_end_id(&memo),
            txid: find_txid(&memo),
            memo,
            name: None,
        });
        if lines.len() > MAX_LINES {
            return Err(StatementError::TooManyLines { max: MAX_LINES });
        }
    }
    super::drop_padded_times(&mut lines);
    assign_hashes(&mut lines);
    Ok(Statement {
        format,
        account: None,
        lines,
    })
}

/// Banks list balances among the transactions ("Saldo anterior", "SALDO DO DIA", "S A L D O");
/// no Pix description starts that way.
fn is_balance_row(memo: &str) -> bool {
    let folded = fold_header(memo).replace(' ', "");
    folded.starts_with("saldo")
}

/// The header cells folded, without the empty cells a trailing separator leaves.
fn trimmed_header(cells: &[String]) -> Vec<String> {
    let mut folded: Vec<String> = cells.iter().map(|c| fold_header(c)).collect();
    while folded.last().is_some_and(String::is_empty) {
        folded.pop();
    }
    folded
}

/// Lower case, no accents, `º`/`°` dropped, blanks collapsed.
fn fold_header(cell: &str) -> String {
    let ascii: String = cell
        .nfkd()
        .filter(|c| c.is_ascii() && *c != '"')
        .collect::<String>()
        .to_lowercase();
    ascii.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn shorten_header(line: &str) -> String {
    let mut short: String = line.trim().chars().take(80).collect();
    if line.trim().chars().count() > 80 {
        short.push('…');
    }
    short
}

/// Splits CSV rows with the `csv` crate: quoted values may hold the separator, doubled quotes
/// and line breaks; rows may differ in width (banks add notes and totals). `limit` stops after
/// that many rows (the header search).
fn split_rows(
    text: &str,
    separator: char,
    limit: Option<usize>,
) -> Result<Vec<Row>, StatementError> {
    let delimiter = u8::try_from(separator).unwrap_or(b';');
    let mut reader = ::csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut rows = Vec::new();
    let mut record = ::csv::StringRecord::new();
    loop {
        if limit.is_some_and(|l| rows.len() >= l) {
            return Ok(rows);
        }
        let line = usize::try_from(reader.position().line()).unwrap_or(usize::MAX);
        match reader.read_record(&mut record) {
            Ok(true) => rows.push(Row {
                line: usize::try_from(record.position().map_or(0, |p| p.line())).unwrap_or(line),
                cells: record.iter().map(str::to_owned).collect(),
            }),
            Ok(false) => break,
            // The text is a `str`, so the reader finds no invalid UTF-8; a failure is a row it
            // could not end.
            Err(_) => return Err(StatementError::UnclosedQuote { line }),
        }
    }
    // The crate reads a quote left open as one value running to the end of the file, rows and
    // all: the last row then holds a line break, and the text an odd number of quotes (quoted
    // values, and quotes doubled inside them, pair up; a stray quote inside a value is kept as
    // it is, as before).
    if limit.is_none()
        && text.matches('"').count() % 2 == 1
        && let Some(last) = rows.last()
        && last.cells.iter().any(|c| c.contains('\n'))
    {
        return Err(StatementError::UnclosedQuote { line: last.line });
    }
    Ok(rows)
}
