//! Why a statement file was refused. Every message is pt-BR for the account owner and, when one
//! line of the file is at fault, starts with "Linha N:" (1-based, as a text editor counts).

use crate::refusal::{Refusal, RefusalKind};

/// A statement file that could not be read. Nothing of a refused file is imported.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StatementError {
    /// The file has no content (or only blanks).
    #[error("O arquivo está vazio.")]
    Empty,
    /// Neither OFX nor a CSV with a header line.
    #[error(
        "Não reconhecemos este arquivo. Exporte o extrato da conta no app do banco em OFX ou CSV."
    )]
    UnknownFormat,
    /// An OFX file whose body never opens `<OFX>`.
    #[error("O arquivo diz ser OFX, mas não tem o bloco <OFX>.")]
    OfxWithoutBody,
    /// A CSV whose header matches no bank layout we know.
    #[error(
        "Não reconhecemos as colunas deste CSV (“{header}”). Indique quais colunas têm a data, o valor e a descrição."
    )]
    UnknownCsvLayout {
        /// The header line as read (shortened).
        header: String,
    },
    /// A value that is not an amount of reais.
    #[error("Linha {line}: valor “{text}” não é um valor em reais.")]
    InvalidAmount {
        /// 1-based line of the file.
        line: usize,
        /// The value as written.
        text: String,
    },
    /// A value that is not a date (or date and time).
    #[error("Linha {line}: data “{text}” não é uma data válida.")]
    InvalidDate {
        /// 1-based line of the file.
        line: usize,
        /// The value as written.
        text: String,
    },
    /// A transaction without a value it needs.
    #[error("Linha {line}: o lançamento não tem {field}.")]
    MissingField {
        /// 1-based line where the transaction starts.
        line: usize,
        /// What is missing, in pt-BR ("valor (TRNAMT)", "data").
        field: &'static str,
    },
    /// A CSV row with fewer columns than the layout needs.
    #[error("Linha {line}: a linha tem {found} colunas; o extrato tem {expected}.")]
    MissingColumns {
        /// 1-based line of the file.
        line: usize,
        /// Columns the header has.
        expected: usize,
        /// Columns the row has.
        found: usize,
    },
    /// A CSV row without a column the owner named for it (1-based, as the screen shows them).
    #[error(
        "Linha {line}: a linha tem {found} colunas, mas a coluna {column} foi indicada para {field}. Confira as colunas escolhidas."
    )]
    ChosenColumnMissing {
        /// 1-based line of the file.
        line: usize,
        /// The column named, 1-based.
        column: usize,
        /// What it was named for, in pt-BR with its article ("o valor", "a descrição").
        field: &'static str,
        /// Columns the row has.
        found: usize,
    },
    /// A CSV value opened with a quote that never closes.
    #[error("Linha {line}: há aspas abertas que não se fecham.")]
    UnclosedQuote {
        /// 1-based line where the value opens.
        line: usize,
    },
    /// More transactions than one import takes.
    #[error("O extrato tem mais de {max} lançamentos; exporte um período menor.")]
    TooManyLines {
        /// The limit.
        max: usize,
    },
}

impl StatementError {
    /// The 1-based line of the file at fault, when one is.
    pub fn line(&self) -> Option<usize> {
        match self {
            Self::InvalidAmount { line, .. }
            | Self::InvalidDate { line, .. }
            | Self::MissingField { line, .. }
            | Self::MissingColumns { line, .. }
            | Self::ChosenColumnMissing { line, .. }
            | Self::UnclosedQuote { line } => Some(*line),
            _ => None,
        }
    }
}

impl Refusal for StatementError {
    fn code(&self) -> &'static str {
        match self {
            Self::Empty => "statement-empty",
            Self::UnknownFormat => "statement-unknown-format",
            Self::OfxWithoutBody => "statement-ofx-without-body",
            Self::UnknownCsvLayout { .. } => "statement-unknown-csv-layout",
            Self::InvalidAmount { .. } => "statement-invalid-amount",
            Self::InvalidDate { .. } => "statement-invalid-date",
            Self::MissingField { .. } => "statement-missing-field",
            Self::MissingColumns { .. } => "statement-missing-columns",
            Self::ChosenColumnMissing { .. } => "statement-chosen-column-missing",
            Self::UnclosedQuote { .. } => "statement-unclosed-quote",
            Self::TooManyLines { .. } => "statement-too-many-lines",
        }
    }

    fn kind(&self) -> RefusalKind {
        RefusalKind::Invalid
    }

    fn field(&self) -> Option<&'static str> {
        match self {
            // The file is fine; the owner's choice of columns is not.
            Self::ChosenColumnMissing { .. } => Some("colunas"),
            _ => Some("file"),
        }
    }
}
