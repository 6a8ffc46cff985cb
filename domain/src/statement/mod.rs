//! Bank statements (issue 35): the OFX or CSV file a bank app exports, read into typed lines,
//! so an account whose bank has no API Pix still sees the Pix it received.
//!
//! [`parse`] takes the file's bytes as uploaded and returns a [`Statement`] or a
//! [`StatementError`] in pt-BR that names the line at fault ("Linha 14: valor “12,5x” não é um
//! valor em reais."). A refused file yields nothing: importing part of it would hide payments.
//! Arbitrary bytes never panic (a property test feeds it garbage).
//!
//! | file | holds |
//! |---|---|
//! | `mod.rs` | [`parse`], [`decode`], [`Statement`] |
//! | `ofx.rs` | OFX 1.x SGML and 2.x XML, and why not a crate |
//! | `csv.rs` | CSV layouts of Nubank, Inter, Itaú, Banco do Brasil, C6; [`csv::ColumnMap`] for others |
//! | `line.rs` | [`StatementLine`], [`LineId`] (FITID or stable hash), [`StatementLine::is_pix_credit`] |
//! | `amount.rs` | signed amounts: `-12,50`, `1.234,56`, `12.50` |
//! | `posted.rs` | [`PostedAt`]: `DTPOSTED` with `[-3:BRT]` offsets, `dd/mm/yyyy` |
//! | `reconcile.rs` | [`reconcile::reconcile`]: each Pix credit is a duplicate, a match, ambiguous or unmatched |
//! | `error.rs` | [`StatementError`] |
//!
//! Recording the reconciled lines as payments (source `extrato`, each line key once per account)
//! is the command side's: `commands::payments::statement_import`.
//!
//! ```
//! let ofx = b"OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nCHARSET:1252\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS>\n<BANKTRANLIST>\n<STMTTRN>\n<TRNTYPE>CREDIT\n<DTPOSTED>20240302103000[-3:BRT]\n<TRNAMT>12,50\n<FITID>A1\n<MEMO>PIX RECEBIDO - Jo\xe3o\n</STMTTRN>\n</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>";
//! let statement = domain::statement::parse(ofx)?;
//! let line = &statement.lines[0];
//! assert_eq!(line.amount_centavos, 1250);
//! assert_eq!(line.memo, "PIX RECEBIDO - João");
//! assert!(line.is_pix_credit());
//! # Ok::<(), domain::statement::StatementError>(())
//! ```

pub mod amount;
pub mod csv;
mod error;
mod line;
pub mod ofx;
pub mod posted;
pub mod reconcile;
#[cfg(test)]
mod tests;

pub use error::StatementError;
pub use line::{LineId, StatementLine};
pub use posted::{PostedAt, brasilia};

/// The most transactions one file may hold (a year of a busy shop; the benchmark imports 100k).
pub const MAX_LINES: usize = 200_000;

/// What kind of file it was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatementFormat {
    /// OFX, 1.x or 2.x.
    Ofx,
    /// CSV, with the bank whose layout it had.
    Csv(&'static str),
}

/// A statement file, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    /// What kind of file it was.
    pub format: StatementFormat,
    /// The bank account the file names (`BANKID/BRANCHID/ACCTID` in OFX), when it names one:
    /// a `FITID` is unique only within it.
    pub account: Option<String>,
    /// Every transaction, in file order.
    pub lines: Vec<StatementLine>,
}

impl Statement {
    /// The lines that are Pix received.
    pub fn pix_credits(&self) -> impl Iterator<Item = &StatementLine> {
        self.lines.iter().filter(|l| l.is_pix_credit())
    }
}

/// Reads a statement file: OFX when it looks like one, else a CSV of a known bank.
pub fn parse(bytes: &[u8]) -> Result<Statement, StatementError> {
    let text = decode(bytes);
    if text.trim().is_empty() {
        return Err(StatementError::Empty);
    }
    if ofx::looks_like_ofx(&text) {
        return ofx::parse(&text);
    }
    if !text.contains([';', ',', '\t']) {
        return Err(StatementError::UnknownFormat);
    }
    csv::parse(&text)
}

/// How the owner said a CSV of a layout Balcão does not know reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CsvMapping {
    /// `;`, `,` or a tab.
    pub separator: char,
    /// Rows before the first transaction (the header and any lines about the account).
    pub header_rows: usize,
    /// Which column holds what (0-based).
    pub columns: csv::ColumnMap,
}

/// Reads a CSV statement with the owner's `mapping` (the file decoded as [`parse`] does).
///
/// # Errors
///
/// As [`parse`]: an empty file, a row without the columns named, a value that is no date or
/// amount, each naming its line.
pub fn parse_mapped(bytes: &[u8], mapping: &CsvMapping) -> Result<Statement, StatementError> {
    let text = decode(bytes);
    if text.trim().is_empty() {
        return Err(StatementError::Empty);
    }
    csv::parse_with(
        &text,
        mapping.separator,
        mapping.header_rows,
        &mapping.columns,
    )
}

/// The first rows of a CSV file, for the owner to say which column is which ([`csv::sample`]).
pub fn csv_sample(bytes: &[u8]) -> csv::CsvSample {
    csv::sample(&decode(bytes))
}

/// The file's text: UTF-8 when the bytes are valid UTF-8 (a BOM is dropped), else
/// Windows-1252. The header is not trusted: banks write `ENCODING:USASCII` over accented
/// Latin-1, and a Windows-1252 text with accents is almost never valid UTF-8. ISO-8859-1 files
/// read the same, Windows-1252 being its superset for every printable character.
pub fn decode(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_owned(),
        Err(_) => encoding_rs::WINDOWS_1252
            .decode_without_bom_handling(bytes)
            .0
            .into_owned(),
    }
}

/// Some banks write every line of a file at the same time of day (`120000`, `100000`): that is
/// padding, not when the Pix arrived, and comparing it minute by minute with the webhook's time
/// would count one payment twice. When two or more lines have a time and all share it, every
/// line of the file is read as its day only. Runs before the hashes are made.
pub(crate) fn drop_padded_times(lines: &mut [StatementLine]) {
    let mut times = lines
        .iter()
        .filter(|l| l.posted.has_time)
        .map(|l| l.posted.at.with_timezone(&brasilia()).time());
    let Some(first) = times.next() else { return };
    let mut count = 1;
    for time in times {
        if time != first {
            return;
        }
        count += 1;
    }
    if count < 2 {
        return;
    }
    for line in lines.iter_mut().filter(|l| l.posted.has_time) {
        if let Some(day) = PostedAt::day(line.posted.day_in_brasilia()) {
            line.posted = day;
        }
    }
}

/// A bank's text made fit for the log: control characters (U+0000 among them, which
/// PostgreSQL cannot store) become blanks, blanks are collapsed.
pub(crate) fn clean(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}
