//! What a person types to register or rename a key, parsed at the edge into domain values.
//!
//! | field | rule |
//! |---|---|
//! | `pixKey` + `keyKind` | the BR Code engine's [`PixKey::parse`]: the kind given, or detected when blank |
//! | `holderName` | required; whitespace collapsed; at most [`MAX_HOLDER_NAME_LEN`] characters |
//! | `label` | optional; whitespace collapsed; at most [`MAX_LABEL_LEN`] characters |

use crate::pix_key::{PixKey, PixKeyKind};

use super::KeyRingError;

/// The longest holder name kept (a bank shows a person's or a company's registered name).
pub const MAX_HOLDER_NAME_LEN: usize = 100;

/// The longest label ("Caixa da loja", "Chave da empresa").
pub const MAX_LABEL_LEN: usize = 40;

/// The holder's name as the bank shows it to the payer, trimmed with inner spaces collapsed.
///
/// ```
/// use domain::key_ring::HolderName;
/// assert_eq!(HolderName::parse("  Maria   da Silva ")?.as_str(), "Maria da Silva");
/// assert!(HolderName::parse("   ").is_err());
/// # Ok::<(), domain::key_ring::KeyRingError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HolderName(String);

impl HolderName {
    /// Reads a holder name.
    ///
    /// # Errors
    /// [`KeyRingError::HolderNameMissing`] when blank; [`KeyRingError::HolderNameTooLong`].
    pub fn parse(input: &str) -> Result<Self, KeyRingError> {
        let text = collapse(input);
        let len = text.chars().count();
        if len == 0 {
            return Err(KeyRingError::HolderNameMissing);
        }
        if len > MAX_HOLDER_NAME_LEN {
            return Err(KeyRingError::HolderNameTooLong(len));
        }
        Ok(HolderName(text))
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A label for people to tell keys apart; blank means none.
///
/// ```
/// use domain::key_ring::KeyLabel;
/// assert_eq!(KeyLabel::parse(" Caixa  1 ")?.unwrap().as_str(), "Caixa 1");
/// assert_eq!(KeyLabel::parse("  ")?, None);
/// # Ok::<(), domain::key_ring::KeyRingError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyLabel(String);

impl KeyLabel {
    /// Reads a label; `None` when blank.
    ///
    /// # Errors
    /// [`KeyRingError::LabelTooLong`].
    pub fn parse(input: &str) -> Result<Option<Self>, KeyRingError> {
        let text = collapse(input);
        let len = text.chars().count();
        if len == 0 {
            return Ok(None);
        }
        if len > MAX_LABEL_LEN {
            return Err(KeyRingError::LabelTooLong(len));
        }
        Ok(Some(KeyLabel(text)))
    }

    /// The label.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// What the register form sends, as typed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KeyInput {
    /// The key as typed (any of the five kinds, with or without its mask).
    pub pix_key: String,
    /// The kind chosen (`cpf`, `cnpj`, `email`, `telefone`, `aleatoria`…); blank detects it.
    pub key_kind: Option<String>,
    /// The holder's name.
    pub holder_name: String,
    /// The label, if any.
    pub label: Option<String>,
}

/// A [`KeyInput`] that passed every rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedKeyInput {
    /// The key, in DICT form.
    pub key: PixKey,
    /// The holder's name.
    pub holder_name: HolderName,
    /// The label.
    pub label: Option<KeyLabel>,
}

impl KeyInput {
    /// Parses every field, in form order.
    ///
    /// # Errors
    /// The first field's refusal, in form order (key kind, key, holder name, label).
    ///
    /// ```
    /// use domain::key_ring::KeyInput;
    /// let input = KeyInput {
    ///     pix_key: "12.ABC.345/01DE-35".into(),
    ///     holder_name: "Padaria Sol Ltda".into(),
    ///     ..KeyInput::default()
    /// };
    /// assert_eq!(input.parse()?.key.as_str(), "12ABC34501DE35");
    /// # Ok::<(), domain::key_ring::KeyRingError>(())
    /// ```
    pub fn parse(&self) -> Result<ParsedKeyInput, KeyRingError> {
        let kind = match self.key_kind.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(text) => Some(
                text.parse::<PixKeyKind>()
                    .map_err(KeyRingError::InvalidKey)?,
            ),
        };
        let key = PixKey::parse(&self.pix_key, kind).map_err(KeyRingError::InvalidKey)?;
        let holder_name = HolderName::parse(&self.holder_name)?;
        let label = KeyLabel::parse(self.label.as_deref().unwrap_or_default())?;
        Ok(ParsedKeyInput {
            key,
            holder_name,
            label,
        })
    }
}

/// The kind as read models and events store it: `cpf`, `cnpj`, `email`, `phone` or `evp` (the
/// spelling of the `qrcodes` read model's `key_kind`).
///
/// ```
/// use domain::key_ring::stored_kind_name;
/// use domain::pix_key::PixKeyKind;
/// assert_eq!(stored_kind_name(PixKeyKind::Phone), "phone");
/// assert_eq!("phone".parse::<PixKeyKind>()?, PixKeyKind::Phone);
/// # Ok::<(), domain::pix_key::PixKeyError>(())
/// ```
pub const fn stored_kind_name(kind: PixKeyKind) -> &'static str {
    match kind {
        PixKeyKind::Cpf => "cpf",
        PixKeyKind::Cnpj => "cnpj",
        PixKeyKind::Email => "email",
        PixKeyKind::Phone => "phone",
        PixKeyKind::Evp => "evp",
    }
}

/// Trims and collapses every run of whitespace to one space.
fn collapse(input: &str) -> String {
    input.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pix_key::PixKeyError;

    fn input(key: &str, kind: Option<&str>) -> KeyInput {
        KeyInput {
            pix_key: key.to_owned(),
            key_kind: kind.map(str::to_owned),
            holder_name: "Maria da Silva".to_owned(),
            label: None,
        }
    }

    #[test]
    fn every_kind_of_key_is_read_into_its_dict_form() {
        let cases = [
            ("529.982.247-25", None, PixKeyKind::Cpf, "52998224725"),
            (
                "00.038.166/0001-05",
                None,
                PixKeyKind::Cnpj,
                "00038166000105",
            ),
            (
                "12.ABC.345/01DE-35",
                None,
                PixKeyKind::Cnpj,
                "12ABC34501DE35",
            ),
            (
                "Loja@Example.com",
                None,
                PixKeyKind::Email,
                "loja@example.com",
            ),
            ("(11) 91234-5678", None, PixKeyKind::Phone, "+5511912345678"),
            (
                "123E4567-E89B-12D3-A456-426614174000",
                None,
                PixKeyKind::Evp,
                "123e4567-e89b-12d3-a456-426614174000",
            ),
            (
                "11999999975",
                Some("telefone"),
                PixKeyKind::Phone,
                "+5511999999975",
            ),
        ];
        for (typed, kind, expected_kind, dict) in cases {
            let parsed = input(typed, kind).parse().expect(typed);
            assert_eq!(parsed.key.kind(), expected_kind, "{typed}");
            assert_eq!(parsed.key.as_str(), dict, "{typed}");
        }
    }

    #[test]
    fn an_ambiguous_number_asks_for_the_kind() {
        let error = input("11999999975", None).parse().unwrap_err();
        assert!(matches!(
            error,
            KeyRingError::InvalidKey(PixKeyError::Ambiguous { .. })
        ));
    }

    #[test]
    fn an_unknown_kind_is_refused_on_the_kind_field() {
        let error = input("52998224725", Some("boleto")).parse().unwrap_err();
        assert!(matches!(
            error,
            KeyRingError::InvalidKey(PixKeyError::UnknownKind(_))
        ));
        assert_eq!(crate::refusal::Refusal::field(&error), Some("keyKind"));
    }

    #[test]
    fn the_holder_name_is_required_and_limited() {
        let mut blank = input("52998224725", None);
        blank.holder_name = "  ".to_owned();
        assert_eq!(blank.parse().unwrap_err(), KeyRingError::HolderNameMissing);
        let mut long = input("52998224725", None);
        long.holder_name = "a".repeat(101);
        assert_eq!(
            long.parse().unwrap_err(),
            KeyRingError::HolderNameTooLong(101)
        );
    }

    #[test]
    fn a_label_over_forty_characters_is_refused() {
        let mut long = input("52998224725", None);
        long.label = Some("b".repeat(41));
        assert_eq!(long.parse().unwrap_err(), KeyRingError::LabelTooLong(41));
    }
}
