//! Money as integer centavos: parsed from what people type in Brazil, written the way the BR Code
//! wants it. There are no floats anywhere in this module, on purpose: `0.1 + 0.2` is not a price.
//!
//! # Reading pt-BR input ([`Centavos::parse_br`])
//!
//! * An optional `R$` prefix and surrounding spaces (including the non-breaking space that
//!   browsers put in formatted currency) are ignored.
//! * When the text has a comma, the comma is the decimal separator and any dots must be
//!   thousands separators in groups of three: `1.234,56`, `10,5`, `0,01`.
//! * Without a comma, dots in groups of three are thousands separators (`1.234` is one thousand
//!   two hundred and thirty-four reais), and a single dot followed by one or two digits is a
//!   decimal point (`10.50`, typed by people used to other keyboards).
//! * More than two decimal places, a minus sign or any other character is refused, never rounded.
//!
//! ```
//! use domain::money::Centavos;
//!
//! assert_eq!(Centavos::parse_br("R$ 1.234,56")?.get(), 123_456);
//! assert_eq!(Centavos::parse_br("10")?.to_emv(), "10.00");
//! assert_eq!(Centavos::new(123_456).to_string(), "R$ 1.234,56");
//! # Ok::<(), domain::money::MoneyError>(())
//! ```

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// An amount of Brazilian reais counted in centavos (1/100 of a real).
///
/// ```
/// use domain::money::Centavos;
///
/// let price = Centavos::new(1_990);
/// assert_eq!(price.to_emv(), "19.90");
/// assert_eq!(price.to_string(), "R$ 19,90");
/// ```
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Centavos(u64);

/// Why a text could not be read as an amount of money. Messages are in pt-BR for the shop owner.
///
/// ```
/// use domain::money::{Centavos, MoneyError};
///
/// let err = Centavos::parse_br("12,345").unwrap_err();
/// assert_eq!(err, MoneyError::TooManyDecimals);
/// assert_eq!(err.code(), "amount-too-many-decimals");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoneyError {
    /// Nothing was typed (or only `R$`).
    #[error("Informe um valor, por exemplo 12,50.")]
    Empty,
    /// A minus sign: Pix amounts are never negative.
    #[error("O valor não pode ser negativo.")]
    Negative,
    /// A character that has no place in an amount.
    #[error(
        "O valor tem um caractere que não entendemos: “{0}”. Use só números, vírgula e ponto, como em 1.234,56."
    )]
    InvalidCharacter(char),
    /// More than two digits after the decimal separator.
    #[error("O valor tem mais de duas casas decimais; use no máximo duas, como em 12,50.")]
    TooManyDecimals,
    /// Separators in places that make the number ambiguous (`1,2,3`, `12.34.5`, `,50`).
    #[error("Não entendemos o valor “{0}”. Escreva, por exemplo, 1.234,56 ou 12,50.")]
    Malformed(String),
    /// More than fits in any Pix amount.
    #[error("O valor é grande demais.")]
    TooLarge,
}

impl MoneyError {
    /// A stable machine-readable code for the API (kebab-case, never translated).
    ///
    /// ```
    /// assert_eq!(domain::money::MoneyError::Negative.code(), "amount-negative");
    /// ```
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            Self::Empty => "amount-empty",
            Self::Negative => "amount-negative",
            Self::InvalidCharacter(_) => "amount-invalid-character",
            Self::TooManyDecimals => "amount-too-many-decimals",
            Self::Malformed(_) => "amount-malformed",
            Self::TooLarge => "amount-too-large",
        }
    }
}

impl Centavos {
    /// Zero centavos.
    ///
    /// ```
    /// assert_eq!(domain::money::Centavos::ZERO.get(), 0);
    /// ```
    pub const ZERO: Self = Self(0);

    /// Wraps a count of centavos.
    ///
    /// ```
    /// assert_eq!(domain::money::Centavos::new(250).to_emv(), "2.50");
    /// ```
    #[must_use]
    pub const fn new(centavos: u64) -> Self {
        Self(centavos)
    }

    /// The count of centavos.
    ///
    /// ```
    /// assert_eq!(domain::money::Centavos::new(7).get(), 7);
    /// ```
    #[must_use]
    pub const fn get(self) -> u64 {
        self.0
    }

    /// Whole reais, or `None` on overflow.
    ///
    /// ```
    /// assert_eq!(domain::money::Centavos::from_reais(3).unwrap().get(), 300);
    /// ```
    #[must_use]
    pub const fn from_reais(reais: u64) -> Option<Self> {
        match reais.checked_mul(100) {
            Some(c) => Some(Self(c)),
            None => None,
        }
    }

    /// True for zero centavos.
    ///
    /// ```
    /// assert!(domain::money::Centavos::ZERO.is_zero());
    /// ```
    #[must_use]
    pub const fn is_zero(self) -> bool {
        self.0 == 0
    }

    /// Adds two amounts, or `None` on overflow.
    ///
    /// ```
    /// use domain::money::Centavos;
    /// assert_eq!(Centavos::new(1).checked_add(Centavos::new(2)), Some(Centavos::new(3)));
    /// ```
    #[must_use]
    pub const fn checked_add(self, other: Self) -> Option<Self> {
        match self.0.checked_add(other.0) {
            Some(c) => Some(Self(c)),
            None => None,
        }
    }

    /// The BR Code form (field 54): digits, a dot and exactly two decimals, e.g. `1234.56`.
    ///
    /// ```
    /// assert_eq!(domain::money::Centavos::new(5).to_emv(), "0.05");
    /// ```
    #[must_use]
    pub fn to_emv(self) -> String {
        format!("{}.{:02}", self.0 / 100, self.0 % 100)
    }

    /// Reads pt-BR input such as `R$ 1.234,56`, `10`, `10,5` or `0,01` (rules in the
    /// [module docs](self)).
    ///
    /// # Errors
    /// A [`MoneyError`] saying what is wrong, in pt-BR.
    ///
    /// ```
    /// use domain::money::{Centavos, MoneyError};
    /// assert_eq!(Centavos::parse_br("R$10,5")?.get(), 1_050);
    /// assert_eq!(Centavos::parse_br("-3"), Err(MoneyError::Negative));
    /// # Ok::<(), MoneyError>(())
    /// ```
    pub fn parse_br(input: &str) -> Result<Self, MoneyError> {
        let trimmed = trim_money_spaces(input);
        let without_symbol = trimmed
            .strip_prefix("R$")
            .or_else(|| trimmed.strip_prefix("r$"))
            .map_or(trimmed, trim_money_spaces);
        if without_symbol.is_empty() {
            return Err(MoneyError::Empty);
        }
        if without_symbol.starts_with('-') {
            return Err(MoneyError::Negative);
        }
        if let Some(bad) = without_symbol
            .chars()
            .find(|c| !(c.is_ascii_digit() || *c == ',' || *c == '.'))
        {
            return Err(MoneyError::InvalidCharacter(bad));
        }
        let malformed = || MoneyError::Malformed(without_symbol.to_owned());
        let (integer, fraction) = match without_symbol.split_once(',') {
            Some((integer, fraction)) => {
                if fraction.contains(',') || fraction.contains('.') {
                    return Err(malformed());
                }
                (thousands_grouped(integer).ok_or_else(malformed)?, fraction)
            }
            None => split_without_comma(without_symbol).ok_or_else(malformed)?,
        };
        if integer.is_empty() || (fraction.is_empty() && without_symbol.contains(',')) {
            return Err(malformed());
        }
        if fraction.len() > 2 {
            return Err(MoneyError::TooManyDecimals);
        }
        combine(&integer, fraction)
    }

    /// Reads the BR Code form of field 54 as EMV allows it: digits with at most one `.` and at
    /// most two decimals (`10`, `10.`, `1.5`, `1.50`). Used when decoding codes made by others.
    ///
    /// # Errors
    /// [`MoneyError::Malformed`] for anything else, [`MoneyError::TooLarge`] on overflow.
    ///
    /// ```
    /// use domain::money::Centavos;
    /// assert_eq!(Centavos::parse_emv("1.1")?.get(), 110);
    /// assert_eq!(Centavos::parse_emv("10.")?.get(), 1_000);
    /// assert!(Centavos::parse_emv("1,10").is_err());
    /// # Ok::<(), domain::money::MoneyError>(())
    /// ```
    pub fn parse_emv(text: &str) -> Result<Self, MoneyError> {
        let malformed = || MoneyError::Malformed(text.to_owned());
        let (integer, fraction) = text.split_once('.').unwrap_or((text, ""));
        let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if integer.is_empty() || !all_digits(integer) || !all_digits(fraction) {
            return Err(malformed());
        }
        if fraction.len() > 2 {
            return Err(MoneyError::TooManyDecimals);
        }
        combine(integer, fraction)
    }
}

/// Trims ASCII and Unicode spaces, including the NBSP (U+00A0) and narrow NBSP (U+202F) that
/// `Intl.NumberFormat` puts after `R$`.
fn trim_money_spaces(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace() || c == '\u{a0}' || c == '\u{202f}')
}

/// Checks `1.234.567`-style grouping and returns the digits without dots.
fn thousands_grouped(integer: &str) -> Option<String> {
    if !integer.contains('.') {
        return Some(integer.to_owned());
    }
    let mut groups = integer.split('.');
    let first = groups.next()?;
    if first.is_empty() || first.len() > 3 {
        return None;
    }
    let mut digits = first.to_owned();
    for group in groups {
        if group.len() != 3 {
            return None;
        }
        digits.push_str(group);
    }
    Some(digits)
}

/// Without a comma: one dot followed by one or two digits is a decimal point, dots in groups
/// of three are thousands separators.
fn split_without_comma(text: &str) -> Option<(String, &str)> {
    match text.matches('.').count() {
        0 => Some((text.to_owned(), "")),
        1 => {
            let (integer, after) = text.split_once('.')?;
            match after.len() {
                1 | 2 => Some((integer.to_owned(), after)),
                3 => thousands_grouped(text).map(|d| (d, "")),
                _ => None,
            }
        }
        _ => thousands_grouped(text).map(|d| (d, "")),
    }
}

fn combine(integer: &str, fraction: &str) -> Result<Centavos, MoneyError> {
    let mut reais: u64 = 0;
    for b in integer.bytes() {
        reais = reais
            .checked_mul(10)
            .and_then(|r| r.checked_add(u64::from(b - b'0')))
            .ok_or(MoneyError::TooLarge)?;
    }
    let mut cents: u64 = 0;
    for (i, b) in fraction.bytes().enumerate() {
        let weight = if i == 0 { 10 } else { 1 };
        cents += u64::from(b - b'0') * weight;
    }
    reais
        .checked_mul(100)
        .and_then(|r| r.checked_add(cents))
        .map(Centavos)
        .ok_or(MoneyError::TooLarge)
}

impl FromStr for Centavos {
    type Err = MoneyError;

    /// Same as [`Centavos::parse_br`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse_br(s)
    }
}

impl fmt::Display for Centavos {
    /// pt-BR currency form: `R$ 1.234,56`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let reais = (self.0 / 100).to_string();
        let mut grouped = String::with_capacity(reais.len() + reais.len() / 3);
        for (i, ch) in reais.chars().enumerate() {
            if i > 0 && (reais.len() - i).is_multiple_of(3) {
                grouped.push('.');
            }
            grouped.push(ch);
        }
        write!(f, "R$ {grouped},{:02}", self.0 % 100)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn br(s: &str) -> Result<u64, MoneyError> {
        Centavos::parse_br(s).map(Centavos::get)
    }

    #[test]
    fn reads_thousands_dots_and_a_decimal_comma() {
        assert_eq!(br("1.234,56"), Ok(123_456));
        assert_eq!(br("1.234.567,89"), Ok(123_456_789));
    }

    #[test]
    fn reads_the_currency_symbol_with_or_without_a_space() {
        assert_eq!(br("R$ 10"), Ok(1_000));
        assert_eq!(br("R$10,00"), Ok(1_000));
        assert_eq!(br("r$ 0,01"), Ok(1));
        assert_eq!(br("R$\u{a0}12,50"), Ok(1_250));
    }

    #[test]
    fn reads_one_decimal_digit_as_tenths() {
        assert_eq!(br("10,5"), Ok(1_050));
        assert_eq!(br("10.5"), Ok(1_050));
    }

    #[test]
    fn reads_a_lone_dot_with_two_digits_as_a_decimal_point() {
        assert_eq!(br("10.50"), Ok(1_050));
    }

    #[test]
    fn reads_a_lone_dot_with_three_digits_as_thousands() {
        assert_eq!(br("1.234"), Ok(123_400));
    }

    #[test]
    fn refuses_more_than_two_decimals_instead_of_rounding() {
        assert_eq!(br("12,345"), Err(MoneyError::TooManyDecimals));
    }

    #[test]
    fn refuses_negative_amounts() {
        assert_eq!(br("-1,00"), Err(MoneyError::Negative));
        assert_eq!(br("R$ -1,00"), Err(MoneyError::Negative));
    }

    #[test]
    fn refuses_letters_and_badly_grouped_thousands() {
        assert_eq!(br("1R3,45"), Err(MoneyError::InvalidCharacter('R')));
        assert!(matches!(br("12.34.5"), Err(MoneyError::Malformed(_))));
        assert!(matches!(br("1,2,3"), Err(MoneyError::Malformed(_))));
        assert!(matches!(br(",50"), Err(MoneyError::Malformed(_))));
        assert!(matches!(br("10,"), Err(MoneyError::Malformed(_))));
        assert!(matches!(br("1234.5678"), Err(MoneyError::Malformed(_))));
    }

    #[test]
    fn refuses_empty_input() {
        assert_eq!(br("  "), Err(MoneyError::Empty));
        assert_eq!(br("R$ "), Err(MoneyError::Empty));
    }

    #[test]
    fn refuses_amounts_that_overflow() {
        assert_eq!(br("999999999999999999999"), Err(MoneyError::TooLarge));
    }

    #[test]
    fn writes_the_emv_form_with_exactly_two_decimals() {
        assert_eq!(Centavos::new(110).to_emv(), "1.10");
        assert_eq!(Centavos::new(100).to_emv(), "1.00");
        assert_eq!(Centavos::new(999_999_999_999).to_emv(), "9999999999.99");
    }

    #[test]
    fn displays_in_pt_br_with_thousands_dots() {
        assert_eq!(Centavos::new(0).to_string(), "R$ 0,00");
        assert_eq!(Centavos::new(99_999).to_string(), "R$ 999,99");
        assert_eq!(Centavos::new(100_000).to_string(), "R$ 1.000,00");
        assert_eq!(Centavos::new(123_456_789).to_string(), "R$ 1.234.567,89");
    }

    #[test]
    fn reads_every_emv_form_that_the_standard_allows() {
        assert_eq!(Centavos::parse_emv("10").map(Centavos::get), Ok(1_000));
        assert_eq!(Centavos::parse_emv("10.").map(Centavos::get), Ok(1_000));
        assert_eq!(Centavos::parse_emv("0.01").map(Centavos::get), Ok(1));
        assert!(Centavos::parse_emv("1R3.45").is_err());
        assert!(Centavos::parse_emv(".5").is_err());
        assert!(Centavos::parse_emv("1.234").is_err());
    }
}
