//! CPF keys: 11 digits with two mod-11 check digits.

use std::fmt;

use super::PixKeyError;

/// A CPF in DICT form: 11 digits, no punctuation, check digits verified.
///
/// ```
/// use domain::pix_key::Cpf;
///
/// let cpf = Cpf::parse("123.456.789-09")?;
/// assert_eq!(cpf.as_str(), "12345678909");
/// assert_eq!(cpf.formatted(), "123.456.789-09");
/// # Ok::<(), domain::pix_key::PixKeyError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Cpf(String);

impl Cpf {
    /// Reads a CPF typed with or without the usual `.`, `-` and spaces.
    ///
    /// # Errors
    /// Wrong length, a character other than digits and punctuation, check digits that do not
    /// match, or a string of one repeated digit (those pass the arithmetic but are never issued).
    ///
    /// ```
    /// use domain::pix_key::{Cpf, PixKeyError};
    /// assert_eq!(Cpf::parse("529.982.247-24"), Err(PixKeyError::CpfCheckDigits));
    /// assert_eq!(Cpf::parse("111.111.111-11"), Err(PixKeyError::CpfRepeatedDigits));
    /// ```
    pub fn parse(input: &str) -> Result<Self, PixKeyError> {
        let mut digits = String::with_capacity(11);
        for ch in input.trim().chars() {
            match ch {
                '0'..='9' => digits.push(ch),
                '.' | '-' | ' ' => {}
                other => return Err(PixKeyError::CpfInvalidCharacter(other)),
            }
        }
        if digits.len() != 11 {
            return Err(PixKeyError::CpfLength(digits.len()));
        }
        let bytes: Vec<u8> = digits.bytes().map(|b| b - b'0').collect();
        if bytes.iter().all(|d| *d == bytes[0]) {
            return Err(PixKeyError::CpfRepeatedDigits);
        }
        if !check_digits_match(&bytes) {
            return Err(PixKeyError::CpfCheckDigits);
        }
        Ok(Self(digits))
    }

    /// The 11 digits.
    ///
    /// ```
    /// # let cpf = domain::pix_key::Cpf::parse("52998224725").unwrap();
    /// assert_eq!(cpf.as_str(), "52998224725");
    /// ```
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The CPF with the familiar mask, `000.000.000-00`, for display only.
    ///
    /// ```
    /// # let cpf = domain::pix_key::Cpf::parse("52998224725").unwrap();
    /// assert_eq!(cpf.formatted(), "529.982.247-25");
    /// ```
    #[must_use]
    pub fn formatted(&self) -> String {
        let d = &self.0;
        format!("{}.{}.{}-{}", &d[0..3], &d[3..6], &d[6..9], &d[9..11])
    }
}

impl fmt::Display for Cpf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// True when the 11 digit values carry matching check digits (mod 11, weights 10..2 and 11..2).
pub(crate) fn check_digits_match(d: &[u8]) -> bool {
    d.len() == 11 && check_digit(&d[..9]) == d[9] && check_digit(&d[..10]) == d[10]
}

/// `(Σ dᵢ·wᵢ · 10 mod 11) mod 10` with weights counting down to 2; equal to "11 − (s mod 11),
/// with 10 and 11 becoming 0".
fn check_digit(body: &[u8]) -> u8 {
    let top = body.len() as u32 + 1;
    let sum: u32 = body
        .iter()
        .zip((2..=top).rev())
        .map(|(d, w)| u32::from(*d) * w)
        .sum();
    ((sum * 10 % 11) % 10) as u8
}

/// True when an 11-digit string is a CPF whose check digits verify (and not a repeated digit).
pub(crate) fn is_valid_digits(digits: &str) -> bool {
    digits.len() == 11 && digits.bytes().all(|b| b.is_ascii_digit()) && Cpf::parse(digits).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_known_valid_cpfs_in_any_usual_formatting() {
        for input in [
            "52998224725",
            "123.456.789-09",
            "287 792 958 27",
            " 529.982.247-25 ",
        ] {
            assert!(Cpf::parse(input).is_ok(), "{input}");
        }
    }

    #[test]
    fn refuses_a_cpf_whose_last_check_digit_is_wrong() {
        assert_eq!(Cpf::parse("52998224724"), Err(PixKeyError::CpfCheckDigits));
    }

    #[test]
    fn refuses_a_cpf_whose_first_check_digit_is_wrong() {
        assert_eq!(Cpf::parse("52998224715"), Err(PixKeyError::CpfCheckDigits));
    }

    #[test]
    fn refuses_every_repeated_digit_cpf() {
        for d in '0'..='9' {
            let s: String = std::iter::repeat_n(d, 11).collect();
            assert_eq!(Cpf::parse(&s), Err(PixKeyError::CpfRepeatedDigits), "{s}");
        }
    }

    #[test]
    fn accepts_a_palindromic_cpf_unlike_pypix() {
        // pypix refused every palindrome; only repeated digits are never issued.
        assert!(Cpf::parse("10000900001").is_ok());
    }

    #[test]
    fn refuses_letters_and_wrong_lengths() {
        assert_eq!(
            Cpf::parse("5299822472a"),
            Err(PixKeyError::CpfInvalidCharacter('a'))
        );
        assert_eq!(Cpf::parse("5299822472"), Err(PixKeyError::CpfLength(10)));
    }
}
