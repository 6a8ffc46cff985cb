//! The values a bank can send for a payment, and so the only ones a payment may hold: the API Pix
//! webhook ([`super::api_pix`]) and the manual payment form check amounts and times here.
//!
//! | value | bound | why |
//! |---|---|---|
//! | amount | more than zero | no Pix moves nothing |
//! | amount | at most [`MAX_AMOUNT`], R$ 9.999.999.999,99 | the API Pix's `valor` pattern, `\d{1,10}\.\d{2}`; it also fits the read models' `bigint` with room for any day's total |
//! | time | not before [`PIX_STARTED`], 2020-11-03 (São Paulo) | the day Pix began to run; no bank has an older Pix to tell of |
//! | time | not after now plus [`CLOCK_DRIFT`], 5 minutes | a bank's clock may run a little ahead of ours, but a payment is not made in the future |
//!
//! A manual payment is typed by hand and may be days old: it has the same window (the form may
//! date it anywhere from the start of Pix to now).

use chrono::{DateTime, NaiveDate, TimeDelta, Utc};

use crate::money::Centavos;

/// The largest amount a payment may have: R$ 9.999.999.999,99, the API Pix's `valor` limit.
pub const MAX_AMOUNT: Centavos = Centavos::new(999_999_999_999);

/// The day Pix began to run (2020-11-03, in São Paulo: 03:00 UTC).
pub const PIX_STARTED: NaiveDate = match NaiveDate::from_ymd_opt(2020, 11, 3) {
    Some(day) => day,
    None => panic!("a valid date"),
};

/// How far ahead of our clock a payment's time may be (the sender's clock may drift).
pub const CLOCK_DRIFT: TimeDelta = TimeDelta::minutes(5);

/// Why an amount or a time is not one a bank sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum BoundFault {
    /// Zero.
    #[error("O valor deve ser maior que zero.")]
    ZeroAmount,
    /// Over [`MAX_AMOUNT`].
    #[error("O valor pode ser de no máximo R$ 9.999.999.999,99.")]
    AmountTooLarge,
    /// Before [`PIX_STARTED`].
    #[error("A data não pode ser anterior a 03/11/2020, quando o Pix começou.")]
    BeforePix,
    /// After now plus [`CLOCK_DRIFT`].
    #[error("A data não pode estar no futuro.")]
    InTheFuture,
}

/// `amount` when a payment can have it (more than zero, at most [`MAX_AMOUNT`]).
///
/// # Errors
///
/// [`BoundFault::ZeroAmount`], [`BoundFault::AmountTooLarge`].
///
/// ```
/// use domain::money::Centavos;
/// use domain::payment::bounds::{BoundFault, amount};
///
/// assert_eq!(amount(Centavos::new(1)), Ok(Centavos::new(1)));
/// assert_eq!(amount(Centavos::ZERO), Err(BoundFault::ZeroAmount));
/// ```
pub fn amount(amount: Centavos) -> Result<Centavos, BoundFault> {
    if amount.is_zero() {
        Err(BoundFault::ZeroAmount)
    } else if amount > MAX_AMOUNT {
        Err(BoundFault::AmountTooLarge)
    } else {
        Ok(amount)
    }
}

/// `at` when a payment can have been made then, seen at `now`: from the start of Pix (in São
/// Paulo) to `now` plus [`CLOCK_DRIFT`].
///
/// # Errors
///
/// [`BoundFault::BeforePix`], [`BoundFault::InTheFuture`].
pub fn paid_at<Tz: chrono::TimeZone>(
    at: &DateTime<Tz>,
    now: DateTime<Utc>,
) -> Result<(), BoundFault> {
    let at = at.with_timezone(&Utc);
    if at < pix_started() {
        Err(BoundFault::BeforePix)
    } else if at > now + CLOCK_DRIFT {
        Err(BoundFault::InTheFuture)
    } else {
        Ok(())
    }
}

/// The first instant of [`PIX_STARTED`] in São Paulo: midnight at UTC−3 (no daylight saving
/// then) is 03:00 UTC.
fn pix_started() -> DateTime<Utc> {
    PIX_STARTED
        .and_hms_opt(3, 0, 0)
        .map_or(DateTime::<Utc>::MIN_UTC, |at| at.and_utc())
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::FixedOffset;

    fn at(text: &str) -> DateTime<FixedOffset> {
        DateTime::parse_from_rfc3339(text).expect("a time")
    }

    fn now() -> DateTime<Utc> {
        at("2026-11-27T21:00:00Z").with_timezone(&Utc)
    }

    #[test]
    fn given_no_centavos_when_bounded_then_refused_as_zero() {
        assert_eq!(amount(Centavos::ZERO), Err(BoundFault::ZeroAmount));
    }

    #[test]
    fn given_the_api_pix_largest_valor_when_bounded_then_kept_and_one_centavo_more_refused() {
        assert_eq!(amount(MAX_AMOUNT), Ok(MAX_AMOUNT));
        assert_eq!(amount(Centavos::new(1)), Ok(Centavos::new(1)));
        assert_eq!(
            amount(Centavos::new(MAX_AMOUNT.get() + 1)),
            Err(BoundFault::AmountTooLarge)
        );
        assert_eq!(
            amount(Centavos::new(u64::MAX)),
            Err(BoundFault::AmountTooLarge)
        );
    }

    #[test]
    fn given_a_time_before_pix_existed_when_bounded_then_refused() {
        for text in [
            "0000-01-01T00:00:00Z",
            "2020-09-09T20:15:00.358Z",
            "2020-11-02T23:59:59-03:00",
            "2020-11-03T02:59:59Z",
        ] {
            assert_eq!(
                paid_at(&at(text), now()),
                Err(BoundFault::BeforePix),
                "{text}"
            );
        }
        assert_eq!(paid_at(&at("2020-11-03T00:00:00-03:00"), now()), Ok(()));
    }

    #[test]
    fn given_a_time_ahead_of_the_clock_when_bounded_then_only_the_drift_is_allowed() {
        assert_eq!(paid_at(&at("2026-11-27T21:05:00Z"), now()), Ok(()));
        assert_eq!(paid_at(&at("2026-11-27T18:04:00-03:00"), now()), Ok(()));
        for text in ["2026-11-27T21:05:01Z", "9999-12-31T23:59:59Z"] {
            assert_eq!(
                paid_at(&at(text), now()),
                Err(BoundFault::InTheFuture),
                "{text}"
            );
        }
    }
}
