//! The EMV TLV layer: `ID` (2 digits) + `LEN` (2 digits) + `VALUE` (LEN characters), flat or
//! nested inside templates.
//!
//! Lengths count characters (Unicode scalar values), the unit EMV uses: outside template 64
//! every value is "ans" (printable ASCII, one byte per character), and inside 64 EMV counts
//! characters, not UTF-8 bytes. The engine only ever *writes* ASCII. A code written by a
//! generator that counted bytes is walked out of step after its first accented character; the
//! validator then names that character's field ([`path_at`] finds it even when the walk breaks
//! further on), so the shift is never silent.

use std::fmt;

/// One data object: a 2-digit ID (`0..=99`) and its raw value of at most 99 characters (empty
/// values are kept so a decoded payload can be written back and the validator can name them).
/// Templates (26–51, 62, 80–99) keep their raw value here; [`DataObject::children`] reads them
/// as nested TLV.
///
/// ```
/// use domain::brcode::tlv::{self, DataObject};
///
/// let objects = tlv::parse("000201540510.00")?;
/// assert_eq!(objects[1], DataObject::new(54, "10.00")?);
/// assert_eq!(tlv::write(&objects), "000201540510.00");
/// # Ok::<(), domain::brcode::tlv::TlvError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DataObject {
    pub(crate) id: u8,
    pub(crate) value: String,
}

/// Why a string is not well-formed TLV.
///
/// ```
/// use domain::brcode::tlv::{self, TlvError};
///
/// assert_eq!(
///     tlv::parse("0002010"),
///     Err(TlvError::NotNumeric { at: 6, found: "0".into() })
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TlvError {
    /// The 4 characters of an ID and length are not all digits (or the string ends inside them).
    #[error(
        "O código está malformado: na posição {at} esperávamos um campo (4 dígitos) e achamos “{found}”."
    )]
    NotNumeric {
        /// Character position in the whole payload.
        at: usize,
        /// What was there (up to 4 characters).
        found: String,
    },
    /// The declared length runs past the end of the string (or template).
    #[error(
        "O código está incompleto: o campo {id} declara {declared} caracteres, mas só há {available}."
    )]
    ValueTooShort {
        /// The field's path, e.g. `26` or `62-05`.
        id: String,
        /// The length written in the payload.
        declared: usize,
        /// The characters actually left.
        available: usize,
    },
    /// A value too long for a 2-digit length (or an ID over 99), when building objects by hand.
    #[error("O campo {id} teria {len} caracteres; um campo do código tem no máximo 99.")]
    ValueTooLong {
        /// The ID.
        id: String,
        /// The value's length in characters.
        len: usize,
    },
    /// The same ID twice at one level.
    #[error("O campo {id} aparece duas vezes; cada campo só pode aparecer uma vez.")]
    DuplicateId {
        /// The field's path, e.g. `59` or `26-01`.
        id: String,
    },
}

impl TlvError {
    /// A stable machine-readable code.
    ///
    /// ```
    /// use domain::brcode::tlv::TlvError;
    /// assert_eq!(TlvError::DuplicateId { id: "59".into() }.code(), "tlv-duplicate-id");
    /// ```
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            Self::NotNumeric { .. } => "tlv-not-numeric",
            Self::ValueTooShort { .. } => "tlv-value-too-short",
            Self::DuplicateId { .. } => "tlv-duplicate-id",
            Self::ValueTooLong { .. } => "tlv-value-too-long",
        }
    }
}

impl DataObject {
    /// A data object from an ID (`0..=99`) and a value of at most 99 characters.
    ///
    /// # Errors
    /// [`TlvError::ValueTooLong`] when the ID or the length does not fit in 2 digits.
    ///
    /// ```
    /// use domain::brcode::tlv::DataObject;
    /// assert_eq!(DataObject::new(58, "BR")?.to_string(), "5802BR");
    /// assert!(DataObject::new(2, "x".repeat(100)).is_err());
    /// # Ok::<(), domain::brcode::tlv::TlvError>(())
    /// ```
    pub fn new(id: u8, value: impl Into<String>) -> Result<Self, TlvError> {
        let value = value.into();
        let len = value.chars().count();
        if id > 99 || len > 99 {
            return Err(TlvError::ValueTooLong {
                id: id.to_string(),
                len,
            });
        }
        Ok(Self { id, value })
    }

    /// The ID, `0..=99`.
    ///
    /// ```
    /// # use domain::brcode::tlv::DataObject;
    /// assert_eq!(DataObject::new(58, "BR")?.id(), 58);
    /// # Ok::<(), domain::brcode::tlv::TlvError>(())
    /// ```
    #[must_use]
    pub fn id(&self) -> u8 {
        self.id
    }

    /// The raw value.
    ///
    /// ```
    /// # use domain::brcode::tlv::DataObject;
    /// assert_eq!(DataObject::new(58, "BR")?.value(), "BR");
    /// # Ok::<(), domain::brcode::tlv::TlvError>(())
    /// ```
    #[must_use]
    pub fn value(&self) -> &str {
        &self.value
    }

    /// Reads the value as nested TLV (for templates).
    ///
    /// # Errors
    /// A [`TlvError`] when the value is not well-formed TLV.
    ///
    /// ```
    /// use domain::brcode::tlv::DataObject;
    /// let template = DataObject::new(62, "0503***")?;
    /// assert_eq!(template.children()?, vec![DataObject::new(5, "***")?]);
    /// # Ok::<(), domain::brcode::tlv::TlvError>(())
    /// ```
    pub fn children(&self) -> Result<Vec<Self>, TlvError> {
        parse_at(&self.value, 0, id_str(self.id))
    }

    /// The character count of the value (the `LEN` that goes on the wire).
    ///
    /// ```
    /// assert_eq!(domain::brcode::tlv::DataObject::new(60, "Maceió")?.len(), 6);
    /// # Ok::<(), domain::brcode::tlv::TlvError>(())
    /// ```
    #[must_use]
    pub fn len(&self) -> usize {
        self.value.chars().count()
    }

    /// True for an empty value (written `LEN = 00`, which EMV forbids).
    ///
    /// ```
    /// assert!(domain::brcode::tlv::DataObject::new(2, "")?.is_empty());
    /// # Ok::<(), domain::brcode::tlv::TlvError>(())
    /// ```
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.value.is_empty()
    }
}

impl fmt::Display for DataObject {
    /// The wire form, `IDLLVALUE`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}{:02}{}", self.id, self.len(), self.value)
    }
}

/// Parses a flat TLV string (one level).
///
/// # Errors
/// A [`TlvError`] for a non-numeric header, a value running past the end or a duplicate ID.
///
/// ```
/// use domain::brcode::tlv;
///
/// let objects = tlv::parse("5802BR5913Fulano de Tal")?;
/// assert_eq!(objects.len(), 2);
/// assert_eq!(objects[1].value(), "Fulano de Tal");
/// # Ok::<(), tlv::TlvError>(())
/// ```
pub fn parse(s: &str) -> Result<Vec<DataObject>, TlvError> {
    parse_at(s, 0, "")
}

/// Parses `s`, which starts at character `base` of the payload, inside the template `path`.
pub(crate) fn parse_at(s: &str, base: usize, path: &str) -> Result<Vec<DataObject>, TlvError> {
    let ascii = s.is_ascii();
    let mut objects = Vec::with_capacity(16);
    let mut seen: u128 = 0;
    let mut rest = s;
    let mut at = base;
    while !rest.is_empty() {
        let header = rest
            .as_bytes()
            .get(..4)
            .filter(|h| h.iter().all(u8::is_ascii_digit));
        let Some(header) = header else {
            return Err(TlvError::NotNumeric {
                at,
                found: rest.chars().take(4).collect(),
            });
        };
        let id = (header[0] - b'0') * 10 + (header[1] - b'0');
        let len = usize::from((header[2] - b'0') * 10 + (header[3] - b'0'));
        let child_path = || {
            if path.is_empty() {
                format!("{id:02}")
            } else {
                format!("{path}-{id:02}")
            }
        };
        let body = &rest[4..];
        let end = if ascii {
            (body.len() >= len).then_some(len)
        } else {
            match body.char_indices().nth(len) {
                Some((i, _)) => Some(i),
                None => (body.chars().count() == len).then_some(body.len()),
            }
        };
        let Some(end) = end else {
            return Err(TlvError::ValueTooShort {
                id: child_path(),
                declared: len,
                available: body.chars().count(),
            });
        };
        let bit = 1u128 << id;
        if seen & bit != 0 {
            return Err(TlvError::DuplicateId { id: child_path() });
        }
        seen |= bit;
        objects.push(DataObject {
            id,
            value: body[..end].to_owned(),
        });
        rest = &body[end..];
        at += 4 + len;
    }
    Ok(objects)
}

/// The path (`60`, `26-02`) of the field whose value holds the character at position `at` of
/// `s`, walking as far as the structure allows: `None` when the walk breaks before reaching it
/// or the character sits in an ID or length. Templates (26–51, 62, 64, 80–99) are entered one
/// level deep; a value that runs past the end still holds the characters it covers.
///
/// ```
/// use domain::brcode::tlv::path_at;
///
/// // 60 declares 9 characters (its UTF-8 bytes), so the walk breaks at "2070…" afterwards.
/// let s = "5903Pix6009BRASÍLIA62070503***";
/// assert_eq!(path_at(s, 15).as_deref(), Some("60"));
/// assert_eq!(path_at("26270014br.gov.bcb.pix01051234é", 30).as_deref(), Some("26-01"));
/// assert_eq!(path_at("59X3Pixé", 7), None);
/// ```
#[must_use]
pub fn path_at(s: &str, at: usize) -> Option<String> {
    let chars: Vec<char> = s.chars().collect();
    walk_to(&chars, at, true)
}

fn walk_to(chars: &[char], at: usize, top: bool) -> Option<String> {
    let mut i = 0;
    while i < chars.len() {
        let header = chars.get(i..i + 4)?;
        let digit = |c: &char| c.to_digit(10);
        let [a, b, c, d] = [
            digit(&header[0])?,
            digit(&header[1])?,
            digit(&header[2])?,
            digit(&header[3])?,
        ];
        let (id, len) = (a * 10 + b, (c * 10 + d) as usize);
        let start = i + 4;
        let end = (start + len).min(chars.len());
        if at < start {
            return None;
        }
        if at < end {
            let template = matches!(id, 26..=51 | 62 | 64 | 80..=99);
            let inner = (top && template)
                .then(|| walk_to(&chars[start..end], at - start, false))
                .flatten();
            return Some(match inner {
                Some(child) => format!("{id:02}-{child}"),
                None => format!("{id:02}"),
            });
        }
        i = end;
    }
    None
}

/// `"00"`, `"01"`, … `"99"`: the 2-digit form of every ID without allocating.
const ID_DIGITS: &str = "00010203040506070809101112131415161718192021222324252627282930313233343536373839\
                         40414243444546474849505152535455565758596061626364656667686970717273747576777879\
                         8081828384858687888990919293949596979899";

/// The 2-digit form of an ID (`0..=99`).
pub(crate) fn id_str(id: u8) -> &'static str {
    let at = usize::from(id.min(99)) * 2;
    &ID_DIGITS[at..at + 2]
}

/// Writes objects back in the given order, with 2-digit lengths counted in characters.
///
/// ```
/// use domain::brcode::tlv::{self, DataObject};
/// assert_eq!(tlv::write(&[DataObject::new(0, "01")?, DataObject::new(58, "BR")?]), "0002015802BR");
/// # Ok::<(), tlv::TlvError>(())
/// ```
#[must_use]
pub fn write(objects: &[DataObject]) -> String {
    let mut out = String::with_capacity(objects.iter().map(|o| o.value.len() + 4).sum());
    for object in objects {
        // DataObject guarantees 0..=99 characters; empty values are written back as decoded.
        push_two_digits(&mut out, object.id);
        push_two_digits(&mut out, object.len() as u8);
        out.push_str(&object.value);
    }
    out
}

/// Appends one object (`IDLLVALUE`) to `out` when building a code. The builder never writes an
/// empty or over-long value; the assertion guards that in tests and fuzzing.
pub(crate) fn push(out: &mut String, id: u8, value: &str) {
    let len = value.chars().count();
    debug_assert!(
        (1..=99).contains(&len),
        "field {id:02} has {len} characters"
    );
    push_two_digits(out, id);
    push_two_digits(out, len as u8);
    out.push_str(value);
}

fn push_two_digits(out: &mut String, n: u8) {
    out.push(char::from(b'0' + n / 10));
    out.push(char::from(b'0' + n % 10));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_every_id_with_two_digits() {
        for id in 0..=99u8 {
            assert_eq!(id_str(id), format!("{id:02}"));
        }
    }

    #[test]
    fn walks_a_flat_string_and_writes_it_back_byte_for_byte() {
        let s = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR";
        let objects = parse(s).unwrap();
        assert_eq!(
            objects.iter().map(|o| o.id).collect::<Vec<_>>(),
            [0, 26, 52, 53, 58]
        );
        assert_eq!(write(&objects), s);
    }

    #[test]
    fn counts_lengths_in_characters_not_bytes() {
        let objects = parse("6008BRASÍLIA62070503***").unwrap();
        assert_eq!(objects[0].value, "BRASÍLIA");
        assert_eq!(objects[1].value, "0503***");
    }

    #[test]
    fn refuses_a_value_that_runs_past_the_end() {
        assert_eq!(
            parse("00020126990014br.gov.bcb.pix"),
            Err(TlvError::ValueTooShort {
                id: "26".into(),
                declared: 99,
                available: 18
            })
        );
    }

    #[test]
    fn refuses_a_single_digit_length() {
        // "598RJV SOFT": the R is read as part of the length "8R", which is not numeric.
        assert!(matches!(
            parse("000201598RJV SOFT"),
            Err(TlvError::NotNumeric { at: 6, .. })
        ));
    }

    #[test]
    fn refuses_duplicate_ids_at_one_level() {
        assert_eq!(
            parse("5802BR5802BR"),
            Err(TlvError::DuplicateId { id: "58".into() })
        );
    }

    #[test]
    fn names_nested_fields_by_their_path() {
        let template = DataObject::new(62, "0510abc").unwrap();
        assert_eq!(
            template.children(),
            Err(TlvError::ValueTooShort {
                id: "62-05".into(),
                declared: 10,
                available: 3
            })
        );
    }

    #[test]
    fn tolerates_a_zero_length_value_so_the_validator_can_name_it() {
        let objects = parse("0200").unwrap();
        assert_eq!(objects, vec![DataObject::new(2, "").unwrap()]);
        assert_eq!(write(&objects), "0200");
    }

    #[test]
    fn reports_non_numeric_headers_with_their_position() {
        assert_eq!(
            parse("000201v.bc"),
            Err(TlvError::NotNumeric {
                at: 6,
                found: "v.bc".into()
            })
        );
    }
}
