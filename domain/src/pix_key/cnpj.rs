//! CNPJ keys: 14 characters, numeric or alphanumeric (IN RFB 2.229/2024, in force since July
//! 2026), with two mod-11 check digits computed on `ASCII code − 48`.

use std::fmt;

use super::PixKeyError;

/// A CNPJ in DICT form: 14 characters `[0-9A-Z]`, upper-case, no punctuation, the last two
/// always digits, check digits verified.
///
/// ```
/// use domain::pix_key::Cnpj;
///
/// assert_eq!(Cnpj::parse("12.ABC.345/01DE-35")?.as_str(), "12ABC34501DE35");
/// assert_eq!(Cnpj::parse("00.038.166/0001-05")?.as_str(), "00038166000105");
/// # Ok::<(), domain::pix_key::PixKeyError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Cnpj(String);

impl Cnpj {
    /// Reads a CNPJ typed with or without `.`, `/`, `-` and spaces; lower-case letters are
    /// accepted and written upper-case.
    ///
    /// # Errors
    /// Wrong length, a character outside `0-9A-Z` (or a letter in the check digits), check
    /// digits that do not match, or a numeric string of one repeated digit.
    ///
    /// ```
    /// use domain::pix_key::{Cnpj, PixKeyError};
    /// assert_eq!(Cnpj::parse("12345678000194"), Err(PixKeyError::CnpjCheckDigits));
    /// assert!(Cnpj::parse("q0slfmbd7vx439").is_ok());
    /// ```
    pub fn parse(input: &str) -> Result<Self, PixKeyError> {
        let mut chars = String::with_capacity(14);
        for ch in input.trim().chars() {
            match ch {
                '0'..='9' | 'A'..='Z' => chars.push(ch),
                'a'..='z' => chars.push(ch.to_ascii_uppercase()),
                '.' | '/' | '-' | ' ' => {}
                other => return Err(PixKeyError::CnpjInvalidCharacter(other)),
            }
        }
        if chars.len() != 14 {
            return Err(PixKeyError::CnpjLength(chars.len()));
        }
        let bytes = chars.as_bytes();
        if let Some(letter) = bytes[12..].iter().find(|b| !b.is_ascii_digit()) {
            return Err(PixKeyError::CnpjInvalidCharacter(char::from(*letter)));
        }
        if bytes.iter().all(|b| *b == bytes[0]) {
            return Err(PixKeyError::CnpjRepeatedDigits);
        }
        let values: Vec<u32> = bytes.iter().map(|b| u32::from(*b) - 48).collect();
        let dv1 = check_digit(&values[..12]);
        let dv2 = check_digit(&values[..13]);
        if values[12] != dv1 || values[13] != dv2 {
            return Err(PixKeyError::CnpjCheckDigits);
        }
        Ok(Self(chars))
    }

    /// The 14 characters.
    ///
    /// ```
    /// # let cnpj = domain::pix_key::Cnpj::parse("04086238000132").unwrap();
    /// assert_eq!(cnpj.as_str(), "04086238000132");
    /// ```
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// True for the alphanumeric format (at least one letter).
    ///
    /// ```
    /// # use domain::pix_key::Cnpj;
    /// assert!(Cnpj::parse("12ABC34501DE35").unwrap().is_alphanumeric());
    /// ```
    #[must_use]
    pub fn is_alphanumeric(&self) -> bool {
        self.0.bytes().any(|b| b.is_ascii_uppercase())
    }

    /// The CNPJ with the familiar mask, `00.000.000/0000-00`, for display only.
    ///
    /// ```
    /// # let cnpj = domain::pix_key::Cnpj::parse("12ABC34501DE35").unwrap();
    /// assert_eq!(cnpj.formatted(), "12.ABC.345/01DE-35");
    /// ```
    #[must_use]
    pub fn formatted(&self) -> String {
        let d = &self.0;
        format!(
            "{}.{}.{}/{}-{}",
            &d[0..2],
            &d[2..5],
            &d[5..8],
            &d[8..12],
            &d[12..14]
        )
    }
}

impl fmt::Display for Cnpj {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Weights 2..9 repeating from the right; `dv = 0 if r < 2 else 11 − r`, `r = Σ mod 11`.
fn check_digit(body: &[u32]) -> u32 {
    let sum: u32 = body
        .iter()
        .rev()
        .enumerate()
        .map(|(i, v)| v * (2 + (i as u32 % 8)))
        .sum();
    let r = sum % 11;
    if r < 2 { 0 } else { 11 - r }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_the_known_numeric_and_alphanumeric_examples() {
        for input in [
            "12ABC34501DE35",
            "Q0SLFMBD7VX439",
            "12345678000195",
            "00038166000105",
            "04086238000132",
            "08074883000196",
        ] {
            assert!(Cnpj::parse(input).is_ok(), "{input}");
        }
    }

    #[test]
    fn writes_lower_case_letters_in_upper_case() {
        assert_eq!(
            Cnpj::parse("12.abc.345/01de-35").unwrap().as_str(),
            "12ABC34501DE35"
        );
    }

    #[test]
    fn refuses_wrong_check_digits() {
        assert_eq!(
            Cnpj::parse("12ABC34501DE36"),
            Err(PixKeyError::CnpjCheckDigits)
        );
        assert_eq!(
            Cnpj::parse("12345678000196"),
            Err(PixKeyError::CnpjCheckDigits)
        );
    }

    #[test]
    fn refuses_a_letter_in_the_check_digits() {
        assert_eq!(
            Cnpj::parse("12ABC34501DE3A"),
            Err(PixKeyError::CnpjInvalidCharacter('A'))
        );
    }

    #[test]
    fn refuses_repeated_digits_and_wrong_lengths() {
        assert_eq!(
            Cnpj::parse("00000000000000"),
            Err(PixKeyError::CnpjRepeatedDigits)
        );
        assert_eq!(
            Cnpj::parse("1234567800019"),
            Err(PixKeyError::CnpjLength(13))
        );
        assert_eq!(
            Cnpj::parse("12.345.678/0001-9!"),
            Err(PixKeyError::CnpjInvalidCharacter('!'))
        );
    }
}
