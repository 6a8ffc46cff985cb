//! E-mail keys: lower-case, at most 77 characters, DICT syntax.

use std::fmt;

use super::PixKeyError;

/// The DICT limit on e-mail keys (and on every key inside a BR Code).
///
/// ```
/// assert_eq!(domain::pix_key::MAX_EMAIL_LEN, 77);
/// ```
pub const MAX_EMAIL_LEN: usize = 77;

/// An e-mail key in DICT form: lower-case, ≤ 77 characters, matching the DICT expression
/// `^[a-z0-9.!#$'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$`
/// (`&` was removed from the local part in DICT API 2.6.0).
///
/// ```
/// use domain::pix_key::Email;
///
/// assert_eq!(Email::parse(" Fulano@Example.COM ")?.as_str(), "fulano@example.com");
/// # Ok::<(), domain::pix_key::PixKeyError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Email(String);

impl Email {
    /// Trims and lower-cases an address, then checks the DICT syntax and length.
    ///
    /// # Errors
    /// [`PixKeyError::EmailTooLong`] over 77 characters, [`PixKeyError::EmailInvalid`] otherwise.
    ///
    /// ```
    /// use domain::pix_key::{Email, PixKeyError};
    /// assert!(matches!(Email::parse("a&b@example.com"), Err(PixKeyError::EmailInvalid(_))));
    /// ```
    pub fn parse(input: &str) -> Result<Self, PixKeyError> {
        let lowered = input.trim().to_ascii_lowercase();
        let len = lowered.chars().count();
        if len > MAX_EMAIL_LEN {
            return Err(PixKeyError::EmailTooLong(len));
        }
        if !is_dict_email(&lowered) {
            return Err(PixKeyError::EmailInvalid(input.trim().to_owned()));
        }
        Ok(Self(lowered))
    }

    /// The address.
    ///
    /// ```
    /// # let email = domain::pix_key::Email::parse("loja@example.com").unwrap();
    /// assert_eq!(email.as_str(), "loja@example.com");
    /// ```
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Email {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The DICT regular expression, written out by hand (no regex engine needed).
pub(crate) fn is_dict_email(s: &str) -> bool {
    let Some((local, domain)) = s.split_once('@') else {
        return false;
    };
    let local_ok = !local.is_empty()
        && local.bytes().all(|b| {
            b.is_ascii_lowercase() || b.is_ascii_digit() || b".!#$'*+/=?^_`{|}~-".contains(&b)
        });
    local_ok && !domain.is_empty() && domain.split('.').all(is_domain_label)
}

fn is_domain_label(label: &str) -> bool {
    let bytes = label.as_bytes();
    let alnum = |b: &u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    !bytes.is_empty()
        && bytes.len() <= 63
        && alnum(&bytes[0])
        && alnum(&bytes[bytes.len() - 1])
        && bytes.iter().all(|b| alnum(b) || *b == b'-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lower_cases_the_whole_address() {
        assert_eq!(
            Email::parse("THALESOG@ME.COM").unwrap().as_str(),
            "thalesog@me.com"
        );
    }

    #[test]
    fn accepts_an_address_of_exactly_77_characters() {
        let address = format!("{}@example.com", "a".repeat(65));
        assert_eq!(address.len(), 77);
        assert!(Email::parse(&address).is_ok());
    }

    #[test]
    fn refuses_an_address_of_78_characters() {
        let address = format!("{}@example.com", "a".repeat(66));
        assert_eq!(Email::parse(&address), Err(PixKeyError::EmailTooLong(78)));
    }

    #[test]
    fn refuses_addresses_outside_the_dict_syntax() {
        for bad in [
            "semarroba.com",
            "@example.com",
            "fulano@",
            "fulano@-example.com",
            "fulano@example..com",
            "a&b@example.com",
            "joão@example.com",
            "dois@@example.com",
        ] {
            assert!(
                matches!(Email::parse(bad), Err(PixKeyError::EmailInvalid(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn accepts_the_special_characters_the_dict_allows() {
        assert!(Email::parse("fulano_da_silva.recebedor+pix@example.com").is_ok());
        assert!(Email::parse("a!#$'*/=?^`{|}~-b@sub.example.com.br").is_ok());
    }
}
