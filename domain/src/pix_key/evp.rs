//! Random keys (EVP): a lower-case UUID, any version.

use std::fmt;

use super::PixKeyError;

/// A random key in DICT form: lower-case UUID with hyphens, `8-4-4-4-12`.
///
/// The UUID version is not checked: the DICT's own example (`123e4567-e89b-12d3-…`) has version
/// nibble 1, and the DICT, not the user, generates these keys.
///
/// ```
/// use domain::pix_key::Evp;
///
/// let evp = Evp::parse("123E4567-E12B-12D1-A456-426655440000")?;
/// assert_eq!(evp.as_str(), "123e4567-e12b-12d1-a456-426655440000");
/// # Ok::<(), domain::pix_key::PixKeyError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Evp(String);

impl Evp {
    /// Trims and lower-cases a UUID; 32 hex digits without hyphens are accepted and hyphenated.
    ///
    /// # Errors
    /// [`PixKeyError::EvpInvalid`] for anything that is not a UUID.
    ///
    /// ```
    /// use domain::pix_key::Evp;
    /// assert_eq!(
    ///     Evp::parse("123e4567e12b12d1a456426655440000").unwrap().as_str(),
    ///     "123e4567-e12b-12d1-a456-426655440000"
    /// );
    /// ```
    pub fn parse(input: &str) -> Result<Self, PixKeyError> {
        let lowered = input.trim().to_ascii_lowercase();
        if looks_like_uuid(&lowered) {
            return Ok(Self(lowered));
        }
        if lowered.len() == 32 && lowered.bytes().all(|b| b.is_ascii_hexdigit()) {
            let l = &lowered;
            return Ok(Self(format!(
                "{}-{}-{}-{}-{}",
                &l[0..8],
                &l[8..12],
                &l[12..16],
                &l[16..20],
                &l[20..32]
            )));
        }
        Err(PixKeyError::EvpInvalid)
    }

    /// The hyphenated lower-case UUID.
    ///
    /// ```
    /// # let evp = domain::pix_key::Evp::parse("123e4567-e89b-12d3-a456-426614174000").unwrap();
    /// assert_eq!(evp.as_str().len(), 36);
    /// ```
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Evp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// `8-4-4-4-12` hex digits with hyphens, either case.
pub(crate) fn looks_like_uuid(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_any_uuid_version() {
        for input in [
            "123e4567-e89b-12d3-a456-426614174000",
            "123e4567-e12b-12d1-a456-426655440000",
            "4004901d-bd85-4769-8e52-cb4c42c506dc",
            "11111111-1111-1111-1111-111111111111",
        ] {
            assert_eq!(Evp::parse(input).unwrap().as_str(), input);
        }
    }

    #[test]
    fn refuses_what_is_not_a_uuid() {
        for bad in [
            "123e4567-e89b-12d3-a456-42661417400",
            "123e4567-e89b-12d3-a456-42661417400g",
            "123e4567_e89b_12d3_a456_426614174000",
            "",
        ] {
            assert_eq!(Evp::parse(bad), Err(PixKeyError::EvpInvalid), "{bad}");
        }
    }
}
