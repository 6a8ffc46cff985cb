//! A due-date charge's body (`cobv`) parsed at the edge: every problem at once, in pt-BR, each
//! naming its field. The aggregate checks the same rules again ([`domain::qrcode::charge_terms`]).

use chrono::NaiveDate;
use domain::money::Centavos;
use domain::pix_key::{PixKey, PixKeyKind};
use serde::Deserialize;

use super::json::FieldProblem;

/// Who owes a due-date charge.
#[derive(Debug, Default, Deserialize)]
pub struct DebtorBody {
    /// Their name.
    #[serde(default)]
    pub name: String,
    /// Their CPF or CNPJ, with or without punctuation.
    #[serde(default)]
    pub document: String,
}

/// A discount up to a date.
#[derive(Debug, Default, Deserialize)]
pub struct DiscountBody {
    /// How much off, pt-BR (`"5,00"`).
    #[serde(default)]
    pub amount: String,
    /// The last day it applies, `YYYY-MM-DD`.
    #[serde(default)]
    pub until: String,
}

/// The due-date part of a charge's body.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DueDateBody {
    /// `YYYY-MM-DD`.
    #[serde(default)]
    pub due_date: Option<String>,
    /// Days it may still be paid after the due date (default 30, as the API Pix's).
    #[serde(default)]
    pub days_after_due: Option<i64>,
    /// Who owes it (the API Pix requires it for a `cobv`).
    #[serde(default)]
    pub debtor: Option<DebtorBody>,
    /// A fine once due, as a percentage (`"2,00"`).
    #[serde(default)]
    pub fine: Option<String>,
    /// Interest a month once due, as a percentage (`"1,00"`).
    #[serde(default)]
    pub interest: Option<String>,
    /// A fixed discount up to a date.
    #[serde(default)]
    pub discount: Option<DiscountBody>,
    /// A fixed abatement (`"10,00"`).
    #[serde(default)]
    pub abatement: Option<String>,
}

/// A due-date charge's terms, parsed; the debtor still in the clear (the bank needs it; it is
/// sealed before any event holds it).
#[derive(Debug, Clone)]
pub struct ParsedDueDate {
    /// `YYYY-MM-DD`.
    pub due_date: String,
    /// Days after the due date.
    pub days_after_due: u32,
    /// The debtor's name, trimmed.
    pub debtor_name: String,
    /// Their CPF (11 digits) or CNPJ (14 characters), without punctuation.
    pub debtor_document: String,
    /// Hundredths of a percent.
    pub fine_hundredths: Option<u32>,
    /// Hundredths of a percent a month.
    pub interest_hundredths_a_month: Option<u32>,
    /// How much off, and up to which day.
    pub discount: Option<(Centavos, String)>,
    /// How much off, always.
    pub abatement: Option<Centavos>,
}

/// The default days after the due date (the API Pix's own default).
pub const DEFAULT_DAYS_AFTER_DUE: u32 = 30;

/// The longest debtor name the API Pix takes.
const MAX_NAME: usize = 200;

/// Whether `body` asks for a due-date charge.
pub fn asked(body: &DueDateBody) -> bool {
    body.due_date
        .as_deref()
        .is_some_and(|d| !d.trim().is_empty())
}

/// Parses `body`, `today` being the day in Brasília, adding what is wrong to `problems`.
pub fn parse(
    body: &DueDateBody,
    today: NaiveDate,
    problems: &mut Vec<FieldProblem>,
) -> Option<ParsedDueDate> {
    let before = problems.len();
    let mut problem = |field: &'static str, message: &str| {
        problems.push(FieldProblem::new(field, message.to_owned()));
    };
    let due_date = body.due_date.as_deref().map(str::trim).and_then(day);
    match due_date {
        Some(due) if due >= today => {}
        _ => problem(
            "dueDate",
            "Informe o vencimento como uma data de hoje em diante.",
        ),
    }
    let days_after_due = match body.days_after_due {
        None => Some(DEFAULT_DAYS_AFTER_DUE),
        Some(days) => u32::try_from(days).ok().filter(|d| *d <= 365),
    };
    if days_after_due.is_none() {
        problem(
            "daysAfterDue",
            "O prazo para pagar depois do vencimento vai de 0 a 365 dias.",
        );
    }
    let debtor = body.debtor.as_ref();
    let name = debtor.map(|d| d.name.trim().to_owned()).unwrap_or_default();
    if name.is_empty() || name.chars().count() > MAX_NAME {
        problem(
            "debtor.name",
            "Informe o nome de quem deve pagar (até 200 caracteres).",
        );
    }
    let document = debtor
        .and_then(|d| PixKey::detect(d.document.trim()).ok())
        .filter(|key| matches!(key.kind(), PixKeyKind::Cpf | PixKeyKind::Cnpj))
        .map(|key| key.as_str().to_owned());
    if document.is_none() {
        problem(
            "debtor.document",
            "Informe um CPF ou CNPJ válido de quem deve pagar.",
        );
    }
    let mut percent = |field: &'static str, text: Option<&str>, message: &str| {
        let text = text.map(str::trim).filter(|t| !t.is_empty())?;
        match Centavos::parse_br(text).ok().map(|c| c.get()) {
            Some(h) if (1..=10_000).contains(&h) => u32::try_from(h).ok(),
            _ => {
                problem(field, message);
                None
            }
        }
    };
    let fine = percent(
        "fine",
        body.fine.as_deref(),
        "A multa é um percentual do valor, de 0,01% a 100%.",
    );
    let interest = percent(
        "interest",
        body.interest.as_deref(),
        "Os juros são um percentual ao mês, de 0,01% a 100%.",
    );
    let discount = body.discount.as_ref().filter(|d| !d.amount.trim().is_empty()).and_then(|d| {
        let amount = Centavos::parse_br(d.amount.trim()).ok().filter(|a| a.get() > 0);
        let until = day(d.until.trim()).filter(|u| *u >= today && due_date.is_none_or(|due| *u <= due));
        match (amount, until) {
            (Some(amount), Some(until)) => Some((amount, until.format("%Y-%m-%d").to_string())),
            _ => {
                problem(
                    "discount",
                    "O desconto precisa de um valor menor que o da cobrança e de uma data de hoje até o vencimento.",
                );
                None
            }
        }
    });
    let abatement = body
        .abatement
        .as_deref()
        .map(str::trim)
        .filter(|a| !a.is_empty())
        .and_then(|a| {
            let parsed = Centavos::parse_br(a).ok().filter(|c| c.get() > 0);
            if parsed.is_none() {
                problem(
                    "abatement",
                    "O abatimento precisa ser maior que zero e menor que o valor da cobrança.",
                );
            }
            parsed
        });
    if problems.len() > before {
        return None;
    }
    Some(ParsedDueDate {
        due_date: due_date?.format("%Y-%m-%d").to_string(),
        days_after_due: days_after_due?,
        debtor_name: name,
        debtor_document: document?,
        fine_hundredths: fine,
        interest_hundredths_a_month: interest,
        discount,
        abatement,
    })
}

fn day(text: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").ok()
}
