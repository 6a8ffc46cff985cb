//! Phone keys: Brazilian mobile numbers in E.164 form, `+55` + DDD + 9 digits starting with 9.

use std::fmt;

use super::PixKeyError;

/// Every Brazilian DDD (area code) in use. A number with any other DDD cannot be registered.
const AREA_CODES: [u8; 67] = [
    11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 24, 27, 28, 31, 32, 33, 34, 35, 37, 38, 41, 42, 43,
    44, 45, 46, 47, 48, 49, 51, 53, 54, 55, 61, 62, 63, 64, 65, 66, 67, 68, 69, 71, 73, 74, 75, 77,
    79, 81, 82, 83, 84, 85, 86, 87, 88, 89, 91, 92, 93, 94, 95, 96, 97, 98, 99,
];

/// A mobile phone key in DICT form, e.g. `+5511912345678`.
///
/// The DICT registers only mobile numbers, so a landline (8 digits after the DDD) is refused,
/// and `+55` is written exactly once whatever the user typed.
///
/// ```
/// use domain::pix_key::Phone;
///
/// assert_eq!(Phone::parse("(11) 91234-5678")?.as_str(), "+5511912345678");
/// assert_eq!(Phone::parse("+55 11 91234-5678")?.as_str(), "+5511912345678");
/// assert_eq!(Phone::parse("5511912345678")?.as_str(), "+5511912345678");
/// # Ok::<(), domain::pix_key::PixKeyError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Phone(String);

impl Phone {
    /// Reads a mobile number typed with or without `+55`, spaces, `(`, `)`, `-` and `.`.
    ///
    /// # Errors
    /// A foreign country code, a landline or short number, an unknown DDD, a wrong length or a
    /// stray character.
    ///
    /// ```
    /// use domain::pix_key::{Phone, PixKeyError};
    /// assert_eq!(Phone::parse("(11) 3456-7890"), Err(PixKeyError::PhoneNotMobile));
    /// assert_eq!(Phone::parse("+1 415 555 0100"), Err(PixKeyError::PhoneNotBrazilian));
    /// ```
    pub fn parse(input: &str) -> Result<Self, PixKeyError> {
        let trimmed = input.trim();
        let (international, rest) = match trimmed.strip_prefix('+') {
            Some(rest) => (true, rest),
            None => (false, trimmed),
        };
        let mut digits = String::with_capacity(13);
        for ch in rest.chars() {
            match ch {
                '0'..='9' => digits.push(ch),
                ' ' | '(' | ')' | '-' | '.' => {}
                other => return Err(PixKeyError::PhoneInvalidCharacter(other)),
            }
        }
        let national = if international {
            digits
                .strip_prefix("55")
                .ok_or(PixKeyError::PhoneNotBrazilian)?
        } else if digits.len() == 13 && digits.starts_with("55") {
            &digits[2..]
        } else {
            &digits
        };
        match national.len() {
            11 => {}
            10 => return Err(PixKeyError::PhoneNotMobile),
            n => return Err(PixKeyError::PhoneLength(n)),
        }
        let ddd = &national[..2];
        if !is_area_code(ddd) {
            return Err(PixKeyError::PhoneUnknownAreaCode(ddd.to_owned()));
        }
        if national.as_bytes()[2] != b'9' {
            return Err(PixKeyError::PhoneNotMobile);
        }
        Ok(Self(format!("+55{national}")))
    }

    /// The E.164 form, `+55` + DDD + number.
    ///
    /// ```
    /// # let phone = domain::pix_key::Phone::parse("61912345678").unwrap();
    /// assert_eq!(phone.as_str(), "+5561912345678");
    /// ```
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The number as people write it, `(11) 91234-5678`, for display only.
    ///
    /// ```
    /// # let phone = domain::pix_key::Phone::parse("+5511912345678").unwrap();
    /// assert_eq!(phone.formatted(), "(11) 91234-5678");
    /// ```
    #[must_use]
    pub fn formatted(&self) -> String {
        let n = &self.0[3..];
        format!("({}) {}-{}", &n[..2], &n[2..7], &n[7..])
    }
}

impl fmt::Display for Phone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn is_area_code(ddd: &str) -> bool {
    ddd.parse::<u8>().is_ok_and(|n| AREA_CODES.contains(&n))
}

/// True when 11 national digits could be a mobile number: a known DDD followed by a 9.
pub(crate) fn is_plausible_mobile(digits: &str) -> bool {
    digits.len() == 11
        && digits.bytes().all(|b| b.is_ascii_digit())
        && is_area_code(&digits[..2])
        && digits.as_bytes()[2] == b'9'
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_plus_55_exactly_once_whatever_was_typed() {
        for input in [
            "(11) 91234-5678",
            "11 91234-5678",
            "11912345678",
            "5511912345678",
            "+5511912345678",
            "+55 (11) 91234-5678",
        ] {
            assert_eq!(
                Phone::parse(input).unwrap().as_str(),
                "+5511912345678",
                "{input}"
            );
        }
    }

    #[test]
    fn refuses_landlines_because_the_dict_registers_only_mobiles() {
        assert_eq!(Phone::parse("1134567890"), Err(PixKeyError::PhoneNotMobile));
        assert_eq!(
            Phone::parse("11 83456-7890"),
            Err(PixKeyError::PhoneNotMobile)
        );
    }

    #[test]
    fn refuses_unknown_area_codes() {
        assert_eq!(
            Phone::parse("(20) 91234-5678"),
            Err(PixKeyError::PhoneUnknownAreaCode("20".into()))
        );
    }

    #[test]
    fn refuses_foreign_numbers_and_stray_characters() {
        assert_eq!(
            Phone::parse("+351912345678"),
            Err(PixKeyError::PhoneNotBrazilian)
        );
        assert_eq!(
            Phone::parse("11 9123x-5678"),
            Err(PixKeyError::PhoneInvalidCharacter('x'))
        );
        assert_eq!(
            Phone::parse("119123456789"),
            Err(PixKeyError::PhoneLength(12))
        );
    }

    #[test]
    fn recognises_a_plausible_mobile() {
        assert!(is_plausible_mobile("11912345678"));
        assert!(!is_plausible_mobile("12345678909"));
        assert!(!is_plausible_mobile("20912345678"));
    }
}
