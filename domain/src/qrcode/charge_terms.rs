//! The terms of a charge a connected bank makes, checked before it is recorded: how long an
//! immediate charge (`cob`) is offered, and what a due-date charge (`cobv`) may carry, in the API
//! Pix's modalities (its domain tables for `multa`, `juros`, `desconto` and `abatimento`).

use chrono::{DateTime, Days, FixedOffset, NaiveDate, NaiveTime, TimeZone};

use crate::statement::posted::brasilia;

use super::aggregate::{CHARGE_MAX_SECONDS, CHARGE_MIN_SECONDS};
use super::{Adjustment, ChargeTerms, Discount, DueDateTerms, QrCodeError};

/// The most days a due-date charge may still be paid after its due date.
pub const MAX_DAYS_AFTER_DUE: u32 = 365;

/// The most a percentage may be: 100,00 %.
pub const MAX_HUNDREDTHS: u64 = 10_000;

/// The most dates a fixed discount may have (`descontoDataFixa`).
pub const MAX_DISCOUNT_DATES: usize = 3;

/// What a modality's value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    /// Centavos.
    Money,
    /// Hundredths of a percent.
    Percent,
}

/// `multa`: 1 fixed value, 2 percentage.
#[must_use]
pub fn fine_kind(modality: u8) -> Option<ValueKind> {
    match modality {
        1 => Some(ValueKind::Money),
        2 => Some(ValueKind::Percent),
        _ => None,
    }
}

/// `juros`: 1 and 5 a value a day, 2–4 and 6–8 percentages (a day, a month, a year); 1–4 in
/// calendar days, 5–8 in business days.
#[must_use]
pub fn interest_kind(modality: u8) -> Option<ValueKind> {
    match modality {
        1 | 5 => Some(ValueKind::Money),
        2..=4 | 6..=8 => Some(ValueKind::Percent),
        _ => None,
    }
}

/// `abatimento`: 1 fixed value, 2 percentage.
#[must_use]
pub fn abatement_kind(modality: u8) -> Option<ValueKind> {
    fine_kind(modality)
}

/// `desconto`: 1 fixed value and 2 percentage up to dates; 3, 4 a value and 5, 6 a percentage
/// per day paid early (calendar, business days).
#[must_use]
pub fn discount_kind(modality: u8) -> Option<ValueKind> {
    match modality {
        1 | 3 | 4 => Some(ValueKind::Money),
        2 | 5 | 6 => Some(ValueKind::Percent),
        _ => None,
    }
}

/// Whether a discount of `modality` is given by dates (`descontoDataFixa`).
#[must_use]
pub fn discount_by_dates(modality: u8) -> bool {
    matches!(modality, 1 | 2)
}

/// The discount modalities Balcão sends: 1 and 2, by dates. The others (3 to 6, a value per day
/// paid early, `valorPerc`) cannot be sent as the official schema stands: its `desconto` is a
/// `oneOf` whose first alternative (`descontoDataFixa`) requires nothing, so a body with
/// `valorPerc` matches both alternatives and a strict validator refuses it. They are refused
/// here, in words, until the BCB's schema says otherwise.
#[must_use]
pub fn discount_offered(modality: u8) -> bool {
    discount_by_dates(modality)
}

/// When a charge stops being offered, and what is kept of its terms.
pub(super) struct Window {
    pub expires_in_seconds: Option<u32>,
    pub expires_at: DateTime<FixedOffset>,
    pub due: Option<DueDateTerms>,
}

/// Checks `terms` for a charge of `amount` centavos asked at `requested_at` (RFC 3339).
pub(super) fn window(
    terms: ChargeTerms,
    requested_at: &str,
    amount: u64,
) -> Result<Window, QrCodeError> {
    let asked =
        DateTime::parse_from_rfc3339(requested_at).map_err(|_| QrCodeError::ChargeExpiryInvalid)?;
    match terms {
        ChargeTerms::Immediate { expires_in_seconds } => {
            if !(CHARGE_MIN_SECONDS..=CHARGE_MAX_SECONDS).contains(&expires_in_seconds) {
                return Err(QrCodeError::ChargeExpiryInvalid);
            }
            Ok(Window {
                expires_in_seconds: Some(expires_in_seconds),
                expires_at: asked + chrono::Duration::seconds(i64::from(expires_in_seconds)),
                due: None,
            })
        }
        ChargeTerms::DueDate(due) => {
            let today = asked.with_timezone(&brasilia()).date_naive();
            let due_date = day(&due.due_date).ok_or(QrCodeError::ChargeDueDateInvalid)?;
            check_due_date(due_date, today)?;
            check_days_after_due(due.days_after_due)?;
            check_fine(due.fine, Some(amount))?;
            check_interest(due.interest)?;
            if let Some(discount) = &due.discount {
                check_discount(discount, Some(amount), today, Some(due_date))?;
            }
            check_abatement(due.abatement, Some(amount))?;
            check_left_to_pay(due.discount.as_ref(), due.abatement, amount)?;
            let last_day = due_date
                .checked_add_days(Days::new(u64::from(due.days_after_due)))
                .ok_or(QrCodeError::ChargeDaysAfterDueInvalid)?;
            let end = brasilia()
                .from_local_datetime(
                    &last_day.and_time(NaiveTime::from_hms_opt(23, 59, 59).expect("a time")),
                )
                .single()
                .ok_or(QrCodeError::ChargeDueDateInvalid)?;
            Ok(Window {
                expires_in_seconds: None,
                expires_at: end,
                due: Some(due),
            })
        }
    }
}

/// The due date: a day from `today` on (in Brasília).
///
/// # Errors
///
/// [`QrCodeError::ChargeDueDateInvalid`].
pub fn check_due_date(due_date: NaiveDate, today: NaiveDate) -> Result<(), QrCodeError> {
    refuse_unless(due_date >= today, QrCodeError::ChargeDueDateInvalid)
}

/// The days it may still be paid after the due date: at most [`MAX_DAYS_AFTER_DUE`].
///
/// # Errors
///
/// [`QrCodeError::ChargeDaysAfterDueInvalid`].
pub fn check_days_after_due(days: u32) -> Result<(), QrCodeError> {
    refuse_unless(
        days <= MAX_DAYS_AFTER_DUE,
        QrCodeError::ChargeDaysAfterDueInvalid,
    )
}

/// A fine: modality 1 (a value below the amount, when it is known) or 2 (0,01 % to 100 %).
///
/// # Errors
///
/// [`QrCodeError::ChargeFineInvalid`].
pub fn check_fine(fine: Option<Adjustment>, amount: Option<u64>) -> Result<(), QrCodeError> {
    check_adjustment(
        fine,
        fine_kind,
        amount,
        MAX_HUNDREDTHS,
        QrCodeError::ChargeFineInvalid,
    )
}

/// Interest: modality 1 to 8, a value above zero, a percentage at most 100 %.
///
/// # Errors
///
/// [`QrCodeError::ChargeInterestInvalid`].
pub fn check_interest(interest: Option<Adjustment>) -> Result<(), QrCodeError> {
    check_adjustment(
        interest,
        interest_kind,
        None,
        MAX_HUNDREDTHS,
        QrCodeError::ChargeInterestInvalid,
    )
}

/// An abatement: modality 1 (a value below the amount) or 2 (below 100 %: something is paid).
///
/// # Errors
///
/// [`QrCodeError::ChargeAbatementInvalid`].
pub fn check_abatement(
    abatement: Option<Adjustment>,
    amount: Option<u64>,
) -> Result<(), QrCodeError> {
    check_adjustment(
        abatement,
        abatement_kind,
        amount,
        MAX_HUNDREDTHS - 1,
        QrCodeError::ChargeAbatementInvalid,
    )
}

/// Fixed discount and fixed abatement together leave something to pay.
///
/// # Errors
///
/// [`QrCodeError::ChargeDiscountInvalid`].
pub fn check_left_to_pay(
    discount: Option<&Discount>,
    abatement: Option<Adjustment>,
    amount: u64,
) -> Result<(), QrCodeError> {
    let fixed_abatement = abatement
        .filter(|a| abatement_kind(a.modality) == Some(ValueKind::Money))
        .map_or(0, |a| a.value);
    let largest_discount = discount
        .filter(|d| discount_kind(d.modality) == Some(ValueKind::Money))
        .and_then(|d| d.dates.iter().map(|d| d.value).max())
        .unwrap_or(0);
    refuse_unless(
        fixed_abatement.saturating_add(largest_discount) < amount,
        QrCodeError::ChargeDiscountInvalid,
    )
}

fn refuse_unless(ok: bool, refused: QrCodeError) -> Result<(), QrCodeError> {
    if ok { Ok(()) } else { Err(refused) }
}

/// A fine, interest or abatement: a known modality, a value above zero, a percentage at most
/// `max_percent`, a fixed value below `amount` where it is given.
fn check_adjustment(
    adjustment: Option<Adjustment>,
    kind_of: fn(u8) -> Option<ValueKind>,
    amount: Option<u64>,
    max_percent: u64,
    refused: QrCodeError,
) -> Result<(), QrCodeError> {
    let Some(adjustment) = adjustment else {
        return Ok(());
    };
    let ok = match kind_of(adjustment.modality) {
        Some(ValueKind::Percent) => (1..=max_percent).contains(&adjustment.value),
        Some(ValueKind::Money) => {
            adjustment.value > 0 && amount.is_none_or(|amount| adjustment.value < amount)
        }
        None => false,
    };
    refuse_unless(ok, refused)
}

/// A discount of a modality Balcão sends ([`discount_offered`]): one to three distinct days from
/// `today` to the due date (where known), each with a value above zero, below the amount (where
/// known) or below 100 %.
///
/// # Errors
///
/// [`QrCodeError::ChargeDiscountInvalid`].
pub fn check_discount(
    discount: &Discount,
    amount: Option<u64>,
    today: NaiveDate,
    due_date: Option<NaiveDate>,
) -> Result<(), QrCodeError> {
    let refused = Err(QrCodeError::ChargeDiscountInvalid);
    let Some(kind) =
        discount_kind(discount.modality).filter(|_| discount_offered(discount.modality))
    else {
        return refused;
    };
    let value_ok = |value: u64| match kind {
        ValueKind::Percent => (1..MAX_HUNDREDTHS).contains(&value),
        ValueKind::Money => value > 0 && amount.is_none_or(|amount| value < amount),
    };
    if discount.dates.is_empty()
        || discount.dates.len() > MAX_DISCOUNT_DATES
        || discount.value.is_some()
    {
        return refused;
    }
    let mut seen = Vec::new();
    for date in &discount.dates {
        let Some(until) = day(&date.until) else {
            return refused;
        };
        let in_range = until >= today && due_date.is_none_or(|due| until <= due);
        if !in_range || seen.contains(&until) || !value_ok(date.value) {
            return refused;
        }
        seen.push(until);
    }
    Ok(())
}

/// A `YYYY-MM-DD` day.
fn day(text: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").ok()
}
