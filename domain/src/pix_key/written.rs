//! Keys as they are found in codes made by others (field 26-01): already in DICT form, a near
//! miss of one (some banks still pay those), or unfit for every DICT kind (no bank can).
//!
//! The line between the last two is drawn by the same detection the web form uses
//! ([`PixKey::detect`]): a key is *unfit* exactly when that detection refuses it for its
//! characters or its shape (no kind's alphabet, no kind's length), and a *near miss* when it
//! is refused only for its content (check digits, DDD, a landline) or is accepted but written
//! differently from the DICT form.

use super::{PixKey, PixKeyError};

/// What the DICT makes of a key written in a BR Code.
///
/// ```
/// use domain::pix_key::{PixKey, WrittenKey};
///
/// assert!(matches!(PixKey::read_written("12345678909"), WrittenKey::Canonical(_)));
/// // A phone without +55: the DICT form is known, some banks pay it.
/// let WrittenKey::NearMiss(Ok(key)) = PixKey::read_written("71996074734") else { panic!() };
/// assert_eq!(key.as_str(), "+5571996074734");
/// // No DICT kind holds a colon.
/// assert_eq!(PixKey::read_written("08074883:00196"), WrittenKey::Unfit { ch: Some(':') });
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WrittenKey {
    /// Already in canonical DICT form.
    Canonical(PixKey),
    /// The shape of a DICT kind, not written in its form: a phone without `+55`, an upper-case
    /// e-mail, a CPF with punctuation (`Ok` with the DICT form), or a CPF, CNPJ or phone whose
    /// content the DICT would refuse (`Err` with the reason).
    NearMiss(Result<PixKey, PixKeyError>),
    /// No DICT kind can hold it: a character or a shape outside every kind.
    Unfit {
        /// The first character no kind accepts, when one is to blame (`None` when every
        /// character is fine but the shape is not, like 8 digits).
        ch: Option<char>,
    },
}

/// Characters some kind of key accepts, counting the punctuation people add to CPFs, CNPJs and
/// phones: letters, digits, space, `@`, the DICT e-mail specials and `( )`.
fn some_kind_accepts(ch: char) -> bool {
    ch.is_ascii_alphanumeric() || " @.!#$'*+/=?^_`{|}~-()".contains(ch)
}

/// The detection's refusals that are about characters or shape, not content.
fn is_shape_error(error: &PixKeyError) -> bool {
    match error {
        PixKeyError::Empty
        | PixKeyError::Unrecognised(_)
        | PixKeyError::UnknownKind(_)
        | PixKeyError::EmailInvalid(_)
        | PixKeyError::PhoneInvalidCharacter(_)
        | PixKeyError::CpfInvalidCharacter(_)
        | PixKeyError::EvpInvalid => true,
        // A letter among a CNPJ's check digits still fits the DICT's `[0-9A-Z]{14}`.
        PixKeyError::CnpjInvalidCharacter(ch) => !ch.is_ascii_alphanumeric(),
        PixKeyError::Ambiguous { .. }
        | PixKeyError::NotCpfNorPhone(_)
        | PixKeyError::CpfLength(_)
        | PixKeyError::CpfCheckDigits
        | PixKeyError::CpfRepeatedDigits
        | PixKeyError::CnpjLength(_)
        | PixKeyError::CnpjCheckDigits
        | PixKeyError::CnpjRepeatedDigits
        | PixKeyError::EmailTooLong(_)
        | PixKeyError::PhoneNotBrazilian
        | PixKeyError::PhoneLength(_)
        | PixKeyError::PhoneUnknownAreaCode(_)
        | PixKeyError::PhoneNotMobile => false,
    }
}

impl PixKey {
    /// Judges a key exactly as written in a code (no trimming: surrounding spaces are part of
    /// what the payer's bank would look up). Any character outside printable ASCII makes it
    /// unfit at once: every DICT kind is ASCII.
    ///
    /// ```
    /// use domain::pix_key::{PixKey, PixKeyError, WrittenKey};
    ///
    /// assert_eq!(PixKey::read_written("+557199607473é"), WrittenKey::Unfit { ch: Some('é') });
    /// assert_eq!(PixKey::read_written("43214833"), WrittenKey::Unfit { ch: None });
    /// assert_eq!(
    ///     PixKey::read_written("11111111111"),
    ///     WrittenKey::NearMiss(Err(PixKeyError::NotCpfNorPhone("11111111111".into())))
    /// );
    /// ```
    #[must_use]
    pub fn read_written(text: &str) -> WrittenKey {
        let first_unaccepted = || text.chars().find(|c| !some_kind_accepts(*c));
        if !text.chars().all(|c| matches!(c, ' '..='~')) {
            return WrittenKey::Unfit {
                ch: first_unaccepted(),
            };
        }
        if let Some(key) = Self::canonical(text) {
            return WrittenKey::Canonical(key);
        }
        match Self::detect(text) {
            Err(e) if is_shape_error(&e) => WrittenKey::Unfit {
                ch: first_unaccepted(),
            },
            result => WrittenKey::NearMiss(result),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn normalised(text: &str) -> String {
        match PixKey::read_written(text) {
            WrittenKey::NearMiss(Ok(key)) => key.as_str().to_owned(),
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn finds_every_canonical_kind_canonical() {
        for key in [
            "12345678909",
            "11999999975", // a valid CPF that is also a plausible mobile: canonical as a CPF
            "00038166000105",
            "12ABC34501DE35",
            "loja@example.com",
            "+5511912345678",
            "123e4567-e12b-12d1-a456-426655440000",
        ] {
            assert!(
                matches!(PixKey::read_written(key), WrittenKey::Canonical(_)),
                "{key}"
            );
        }
    }

    #[test]
    fn gives_the_dict_form_of_near_misses() {
        assert_eq!(normalised("123.456.789-09"), "12345678909");
        assert_eq!(normalised("Loja@Example.com"), "loja@example.com");
        assert_eq!(normalised("5511912345678"), "+5511912345678");
        assert_eq!(normalised("(11) 91234-5678"), "+5511912345678");
        assert_eq!(normalised("00.038.166/0001-05"), "00038166000105");
        assert_eq!(
            normalised("123E4567-E12B-12D1-A456-426655440000"),
            "123e4567-e12b-12d1-a456-426655440000"
        );
        assert_eq!(normalised(" 12345678909"), "12345678909");
    }

    #[test]
    fn keeps_keys_of_a_dict_shape_with_bad_content_as_near_misses() {
        for (key, error) in [
            (
                "52998224724",
                PixKeyError::NotCpfNorPhone("52998224724".into()),
            ),
            ("529.982.247-24", PixKeyError::CpfCheckDigits),
            ("+5554000000000", PixKeyError::PhoneNotMobile),
            ("+14155550100", PixKeyError::PhoneNotBrazilian),
            ("00038166000106", PixKeyError::CnpjCheckDigits),
            ("1234567890", PixKeyError::PhoneNotMobile),
        ] {
            assert_eq!(
                PixKey::read_written(key),
                WrittenKey::NearMiss(Err(error)),
                "{key}"
            );
        }
    }

    #[test]
    fn finds_keys_no_dict_kind_can_hold_unfit_and_names_the_character_to_blame() {
        for (key, ch) in [
            ("08074883:00196", Some(':')),
            ("+557199607473é", Some('é')),
            ("loja,vendas@example.com", Some(',')),
            ("loja&vendas@example.com", Some('&')),
            ("joão@example.com", Some('ã')),
            ("12345678909\u{a0}", Some('\u{a0}')),
            ("1234567890\t9", Some('\t')),
            ("43214833", None),
            ("PADARIA DO JOAO", None),
            ("551191234567", None),
            ("loja vendas@example.com", None),
            ("+55 11 9ABCD-5678", None),
            ("   ", None),
        ] {
            assert_eq!(
                PixKey::read_written(key),
                WrittenKey::Unfit { ch },
                "{key:?}"
            );
        }
    }

    #[test]
    fn refuses_in_the_form_every_key_it_finds_unfit() {
        for key in [
            "08074883:00196",
            "+557199607473é",
            "43214833",
            "PADARIA DO JOAO",
        ] {
            assert!(PixKey::detect(key).is_err(), "{key}");
            for kind in super::super::PixKeyKind::ALL {
                assert!(PixKey::parse_as(kind, key).is_err(), "{key} as {kind}");
            }
        }
    }
}
