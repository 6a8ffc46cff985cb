//! A due-date charge's body (`cobv`) parsed at the edge: every problem at once, in pt-BR, each
//! naming its field. The formats are read here; the rules are the aggregate's own checks
//! ([`domain::qrcode::charge_terms`]), called term by term.

use chrono::NaiveDate;
use domain::money::Centavos;
use domain::pix_key::{PixKey, PixKeyKind};
use domain::qrcode::charge_terms;
use domain::qrcode::{Adjustment, Discount, DiscountDate, QrCodeError};
use domain::refusal::Refusal;
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
    /// Modalities 3 to 6 (a value per day paid early): refused, see
    /// [`charge_terms::discount_offered`].
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

/// Parses `body`, `today` being the day in Brasília and `amount` the charge's (when it could be
/// read), adding what is wrong to `problems` in the form's order. The formats are read here; the
/// rules are the aggregate's own checks ([`domain::qrcode::charge_terms`]), so the edge and the
/// aggregate never disagree, and nothing the aggregate would refuse reaches the bank.
pub fn parse(
    body: &DueDateBody,
    today: NaiveDate,
    amount: Option<u64>,
    problems: &mut Vec<FieldProblem>,
) -> Option<ParsedDueDate> {
    let before = problems.len();
    let due_date = body.due_date.as_deref().map(str::trim).and_then(day);
    let due = due_date
        .ok_or(QrCodeError::ChargeDueDateInvalid)
        .and_then(|due| charge_terms::check_due_date(due, today));
    note(problems, &due);
    let days_after_due = match body.days_after_due {
        None => Ok(DEFAULT_DAYS_AFTER_DUE),
        Some(days) => u32::try_from(days).map_err(|_| QrCodeError::ChargeDaysAfterDueInvalid),
    }
    .and_then(|days| charge_terms::check_days_after_due(days).map(|()| days));
    note(problems, &days_after_due);
    let debtor = body.debtor.as_ref();
    let name = debtor.map(|d| d.name.trim().to_owned()).unwrap_or_default();
    if name.is_empty() || name.chars().count() > MAX_NAME {
        problems.push(FieldProblem::new(
            "debtor.name",
            DEBTOR_NAME_INVALID.to_owned(),
        ));
    }
    let document = debtor
        .and_then(|d| PixKey::detect(d.document.trim()).ok())
        .filter(|key| matches!(key.kind(), PixKeyKind::Cpf | PixKeyKind::Cnpj))
        .map(|key| key.as_str().to_owned());
    if document.is_none() {
        problems.push(FieldProblem::new(
            "debtor.document",
            DEBTOR_DOCUMENT_INVALID.to_owned(),
        ));
    }
    let fine = adjustment(body.fine.as_ref(), QrCodeError::ChargeFineInvalid)
        .and_then(|fine| charge_terms::check_fine(fine, amount).map(|()| fine));
    note(problems, &fine);
    let interest = adjustment(body.interest.as_ref(), QrCodeError::ChargeInterestInvalid)
        .and_then(|interest| charge_terms::check_interest(interest).map(|()| interest));
    note(problems, &interest);
    let discount = match body.discount.as_ref().filter(|d| d.modality != 0) {
        None => Ok(None),
        Some(body) => discount(body)
            .ok_or(QrCodeError::ChargeDiscountInvalid)
            .and_then(|discount| {
                charge_terms::check_discount(&discount, amount, today, due_date)
                    .map(|()| Some(discount))
            }),
    };
    note(problems, &discount);
    let abatement = adjustment(body.abatement.as_ref(), QrCodeError::ChargeAbatementInvalid)
        .and_then(|abatement| charge_terms::check_abatement(abatement, amount).map(|()| abatement));
    note(problems, &abatement);
    if problems.len() > before {
        return None;
    }
    let (fine, interest, discount, abatement) =
        (fine.ok()?, interest.ok()?, discount.ok()?, abatement.ok()?);
    if let Some(amount) = amount {
        note(
            problems,
            &charge_terms::check_left_to_pay(discount.as_ref(), abatement, amount),
        );
        if problems.len() > before {
            return None;
        }
    }
    Some(ParsedDueDate {
        due_date: due_date?.format("%Y-%m-%d").to_string(),
        days_after_due: days_after_due.ok()?,
        debtor_name: name,
        debtor_document: document?,
        fine,
        interest,
        discount,
        abatement,
    })
}

const DEBTOR_NAME_INVALID: &str = "Informe o nome de quem deve pagar (até 200 caracteres).";
const DEBTOR_DOCUMENT_INVALID: &str = "Informe um CPF ou CNPJ válido de quem deve pagar.";

/// Adds a refusal to `problems`, under the field the refusal names.
fn note<T>(problems: &mut Vec<FieldProblem>, checked: &Result<T, QrCodeError>) {
    if let Err(error) = checked {
        let field = Refusal::field(error).unwrap_or("dueDate");
        problems.push(FieldProblem::new(field, error.to_string()));
    }
}

/// A fine, interest or abatement as typed: its modality and its value in hundredths (the rules
/// are the aggregate's); `Ok(None)` when not asked for.
fn adjustment(
    body: Option<&AdjustmentBody>,
    unreadable: QrCodeError,
) -> Result<Option<Adjustment>, QrCodeError> {
    let Some(body) = body.filter(|b| b.modality != 0 || !b.value.trim().is_empty()) else {
        return Ok(None);
    };
    Centavos::parse_br(body.value.trim())
        .map(|value| {
            Some(Adjustment {
                modality: body.modality,
                value: value.get(),
            })
        })
        .map_err(|_| unreadable)
}

/// A discount as typed: its modality, its dates and values (the rules are the aggregate's).
fn discount(body: &DiscountBody) -> Option<Discount> {
    let value = match body.value.as_deref() {
        Some(text) => Some(Centavos::parse_br(text.trim()).ok()?.get()),
        None => None,
    };
    let dates = body
        .dates
        .iter()
        .map(|date| {
            Some(DiscountDate {
                until: day(date.until.trim())?.format("%Y-%m-%d").to_string(),
                value: Centavos::parse_br(date.value.trim()).ok()?.get(),
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some(Discount {
        modality: body.modality,
        dates,
        value,
    })
}

fn day(text: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").ok()
}
