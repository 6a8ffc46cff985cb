//! A due-date charge's body (`cobv`) parsed at the edge: every problem at once, in pt-BR, each
//! naming its field. The aggregate checks the same rules again ([`domain::qrcode::charge_terms`]).

use chrono::NaiveDate;
use domain::money::Centavos;
use domain::pix_key::{PixKey, PixKeyKind};
use domain::qrcode::charge_terms::{
    MAX_DISCOUNT_DATES, MAX_HUNDREDTHS, ValueKind, abatement_kind, discount_kind, discount_offered,
    fine_kind, interest_kind,
};
use domain::qrcode::{Adjustment, Discount, DiscountDate};
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

/// A fine, interest or abatement: the API Pix's modality and its value in pt-BR (`"2,00"`: reais
/// or a percentage, as the modality says).
#[derive(Debug, Default, Deserialize)]
pub struct AdjustmentBody {
    /// The modality, as the API Pix's domain table numbers it.
    #[serde(default)]
    pub modality: u8,
    /// Its value.
    #[serde(default)]
    pub value: String,
}

/// A discount: modality 1 (reais) or 2 (%) with `dates` (one to three).
#[derive(Debug, Default, Deserialize)]
pub struct DiscountBody {
    /// The modality, 1 to 6.
    #[serde(default)]
    pub modality: u8,
    /// Modalities 1 and 2: each last day and its value.
    #[serde(default)]
    pub dates: Vec<DiscountDateBody>,
    /// Modalities 3 to 6 (a value per day paid early): refused, see [`discount_offered`].
    #[serde(default)]
    pub value: Option<String>,
}

/// A discount up to a day.
#[derive(Debug, Default, Deserialize)]
pub struct DiscountDateBody {
    /// `YYYY-MM-DD`.
    #[serde(default)]
    pub until: String,
    /// Reais or a percentage, pt-BR.
    #[serde(default)]
    pub value: String,
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
    /// `multa` once due: modality 1 (reais) or 2 (%).
    #[serde(default)]
    pub fine: Option<AdjustmentBody>,
    /// `juros` once due: modality 1 to 8.
    #[serde(default)]
    pub interest: Option<AdjustmentBody>,
    /// `desconto`: modality 1 to 6.
    #[serde(default)]
    pub discount: Option<DiscountBody>,
    /// `abatimento`: modality 1 (reais) or 2 (%).
    #[serde(default)]
    pub abatement: Option<AdjustmentBody>,
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
    /// `multa`.
    pub fine: Option<Adjustment>,
    /// `juros`.
    pub interest: Option<Adjustment>,
    /// `desconto`.
    pub discount: Option<Discount>,
    /// `abatimento`.
    pub abatement: Option<Adjustment>,
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
    let fine = adjustment(
        body.fine.as_ref(),
        fine_kind,
        "fine",
        FINE_INVALID,
        &mut problem,
    );
    let interest = adjustment(
        body.interest.as_ref(),
        interest_kind,
        "interest",
        INTEREST_INVALID,
        &mut problem,
    );
    let discount = body
        .discount
        .as_ref()
        .filter(|d| d.modality != 0)
        .and_then(|d| {
            let parsed = discount(d, today, due_date);
            if parsed.is_none() {
                problem("discount", DISCOUNT_INVALID);
            }
            parsed
        });
    let abatement = adjustment(
        body.abatement.as_ref(),
        abatement_kind,
        "abatement",
        ABATEMENT_INVALID,
        &mut problem,
    );
    if problems.len() > before {
        return None;
    }
    Some(ParsedDueDate {
        due_date: due_date?.format("%Y-%m-%d").to_string(),
        days_after_due: days_after_due?,
        debtor_name: name,
        debtor_document: document?,
        fine,
        interest,
        discount,
        abatement,
    })
}

const FINE_INVALID: &str =
    "A multa é um valor fixo (modalidade 1) ou um percentual de 0,01% a 100% (modalidade 2).";
const INTEREST_INVALID: &str = "Os juros são um valor por dia (modalidades 1 e 5) ou um percentual (2 a 4, 6 a 8) de 0,01% a 100%.";
const ABATEMENT_INVALID: &str =
    "O abatimento é um valor fixo (modalidade 1) ou um percentual (modalidade 2) maior que zero.";
const DISCOUNT_INVALID: &str = "O desconto é um valor fixo (modalidade 1) ou um percentual (modalidade 2) até uma a três datas de hoje até o vencimento, cada uma com seu valor. O desconto por antecipação (modalidades 3 a 6) ainda não pode ser enviado ao banco: o esquema oficial da API Pix o torna ambíguo.";

/// A value in hundredths (`"2,00"` → 200), above zero; a percentage at most 100 %.
fn hundredths(text: &str, kind: ValueKind) -> Option<u64> {
    let value = Centavos::parse_br(text.trim()).ok()?.get();
    let ok = value > 0 && (kind == ValueKind::Money || value <= MAX_HUNDREDTHS);
    ok.then_some(value)
}

/// A fine, interest or abatement of a modality the table has, with a value.
fn adjustment(
    body: Option<&AdjustmentBody>,
    kind_of: fn(u8) -> Option<ValueKind>,
    field: &'static str,
    message: &str,
    problem: &mut impl FnMut(&'static str, &str),
) -> Option<Adjustment> {
    let body = body.filter(|b| b.modality != 0 || !b.value.trim().is_empty())?;
    let parsed = kind_of(body.modality)
        .and_then(|kind| hundredths(&body.value, kind))
        .map(|value| Adjustment {
            modality: body.modality,
            value,
        });
    if parsed.is_none() {
        problem(field, message);
    }
    parsed
}

/// A discount of a modality Balcão sends ([`discount_offered`]): one to three distinct dates from
/// today to the due date, each with its value.
fn discount(body: &DiscountBody, today: NaiveDate, due: Option<NaiveDate>) -> Option<Discount> {
    let kind = discount_kind(body.modality).filter(|_| discount_offered(body.modality))?;
    if body.value.is_some() {
        return None;
    }
    if body.dates.is_empty() || body.dates.len() > MAX_DISCOUNT_DATES {
        return None;
    }
    let mut dates: Vec<DiscountDate> = Vec::with_capacity(body.dates.len());
    for date in &body.dates {
        let until =
            day(date.until.trim()).filter(|u| *u >= today && due.is_none_or(|d| *u <= d))?;
        let until = until.format("%Y-%m-%d").to_string();
        if dates.iter().any(|d| d.until == until) {
            return None;
        }
        dates.push(DiscountDate {
            until,
            value: hundredths(&date.value, kind)?,
        });
    }
    Some(Discount {
        modality: body.modality,
        dates,
        value: None,
    })
}

fn day(text: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").ok()
}
