//! The terms of a charge a connected bank makes, checked before it is recorded: how long an
//! immediate charge (`cob`) is offered, and what a due-date charge (`cobv`) may carry.

use chrono::{DateTime, Days, FixedOffset, NaiveDate, NaiveTime, TimeZone};

use super::aggregate::{CHARGE_MAX_SECONDS, CHARGE_MIN_SECONDS};
use super::{ChargeTerms, DueDateTerms, QrCodeError};

/// The most days a due-date charge may still be paid after its due date.
pub const MAX_DAYS_AFTER_DUE: u32 = 365;

/// The most a percentage may be (fine, interest a month): 100,00 %.
pub const MAX_HUNDREDTHS: u32 = 10_000;

/// Brasília's offset (UTC−3, no daylight saving since 2019): a due date is a day there.
fn brasilia() -> FixedOffset {
    FixedOffset::west_opt(3 * 3600).expect("a valid offset")
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
            if due_date < today {
                return Err(QrCodeError::ChargeDueDateInvalid);
            }
            if due.days_after_due > MAX_DAYS_AFTER_DUE {
                return Err(QrCodeError::ChargeDaysAfterDueInvalid);
            }
            let percent_ok = |p: Option<u32>| p.is_none_or(|p| (1..=MAX_HUNDREDTHS).contains(&p));
            if !percent_ok(due.fine_hundredths) {
                return Err(QrCodeError::ChargeFineInvalid);
            }
            if !percent_ok(due.interest_hundredths_a_month) {
                return Err(QrCodeError::ChargeInterestInvalid);
            }
            let discount = due.discount.as_ref().map_or(0, |d| d.centavos);
            let abatement = due.abatement_centavos.unwrap_or(0);
            if let Some(d) = &due.discount {
                let until = day(&d.until).ok_or(QrCodeError::ChargeDiscountInvalid)?;
                if d.centavos == 0 || until > due_date || until < today {
                    return Err(QrCodeError::ChargeDiscountInvalid);
                }
            }
            if due.abatement_centavos == Some(0) || abatement >= amount {
                return Err(QrCodeError::ChargeAbatementInvalid);
            }
            // What is left to pay after both must stay above zero.
            if discount.saturating_add(abatement) >= amount {
                return Err(QrCodeError::ChargeDiscountInvalid);
            }
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

/// A `YYYY-MM-DD` day.
fn day(text: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").ok()
}
