//! Text normalisation for name (59), city (60) and the payer message (26-02), and the record of
//! what was changed so the UI can say so before anything is printed.
//!
//! # Rules
//!
//! 1. Every kind of whitespace (tabs, line breaks, non-breaking spaces) becomes one space;
//!    runs of spaces collapse to one; leading and trailing spaces go.
//! 2. Letters with accents are decomposed (Unicode NFKD) and the accents dropped: `ã → a`,
//!    `Ç → C`, `ª → a`. A few letters that do not decompose are spelled out: `ß → ss`,
//!    `æ → ae`, `ø → o`, `œ → oe`, `đ → d`, `ł → l`, `þ → th`; long dashes become `-`.
//! 3. Only `A–Z a–z 0–9`, space and the BR Code manual's special characters `$ % * + - . / :`
//!    are kept; anything else (emoji, `&`, `!`, quotes…) is dropped and reported.
//! 4. Name and city are written in upper case (what bank apps emit, and what the BR Code
//!    manual's alphanumeric set expects); the payer message keeps its case.
//! 5. Limits are checked *after* normalising, and a value over its limit is refused, never cut.
//!
//! ```
//! use domain::brcode::normalise::{normalise_city, ChangeReason};
//!
//! let city = normalise_city("  São   Paulo ")?;
//! assert_eq!(city.text, "SAO PAULO");
//! let change = city.change.unwrap();
//! assert_eq!(
//!     change.reasons,
//!     vec![ChangeReason::AccentsRemoved, ChangeReason::SpacesAdjusted, ChangeReason::UpperCased]
//! );
//! assert_eq!(change.to_string(), "Cidade: “  São   Paulo ” será escrito como “SAO PAULO” (letras acentuadas escritas sem acento; espaços ajustados; letras em maiúsculas).");
//! # Ok::<(), domain::brcode::BrCodeError>(())
//! ```

use std::fmt;

use serde::Serialize;
use unicode_normalization::char::{decompose_compatible, is_combining_mark};

use super::error::{BrCodeError, Field};

/// The longest receiver name a BR Code carries (field 59).
///
/// ```
/// assert_eq!(domain::brcode::normalise::MAX_NAME_LEN, 25);
/// ```
pub const MAX_NAME_LEN: usize = 25;
/// The longest city a BR Code carries (field 60).
///
/// ```
/// assert_eq!(domain::brcode::normalise::MAX_CITY_LEN, 15);
/// ```
pub const MAX_CITY_LEN: usize = 15;

/// Why a value was changed.
///
/// ```
/// use domain::brcode::normalise::ChangeReason;
/// assert_eq!(ChangeReason::UpperCased.to_string(), "letras em maiúsculas");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "reason", content = "characters", rename_all = "kebab-case")]
pub enum ChangeReason {
    /// Accented letters written without accents.
    AccentsRemoved,
    /// Characters that bank apps do not accept were removed (listed once each, in order).
    CharactersRemoved(String),
    /// Extra, leading, trailing or unusual spaces adjusted.
    SpacesAdjusted,
    /// Letters written in upper case.
    UpperCased,
    /// A Pix key rewritten in its DICT form.
    KeyFormatted,
    /// `https://` removed from a location.
    SchemeRemoved,
    /// A CEP written with digits only.
    PostalCodeFormatted,
}

impl fmt::Display for ChangeReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::AccentsRemoved => f.write_str("letras acentuadas escritas sem acento"),
            Self::CharactersRemoved(chars) => {
                let listed: Vec<String> = chars.chars().map(|c| format!("“{c}”")).collect();
                write!(
                    f,
                    "caracteres que os bancos não aceitam removidos: {}",
                    listed.join(", ")
                )
            }
            Self::SpacesAdjusted => f.write_str("espaços ajustados"),
            Self::UpperCased => f.write_str("letras em maiúsculas"),
            Self::KeyFormatted => f.write_str("chave escrita no formato do Pix"),
            Self::SchemeRemoved => {
                f.write_str("“https://” removido, pois o aplicativo do pagador o acrescenta")
            }
            Self::PostalCodeFormatted => f.write_str("CEP escrito só com números"),
        }
    }
}

/// One value that Balcão will write differently from how it was typed.
///
/// ```
/// use domain::brcode::normalise::normalise_name;
///
/// let name = normalise_name("Padaria Pão & Cia")?;
/// assert_eq!(name.text, "PADARIA PAO CIA");
/// let change = name.change.unwrap();
/// assert_eq!(change.before, "Padaria Pão & Cia");
/// assert_eq!(change.after, "PADARIA PAO CIA");
/// # Ok::<(), domain::brcode::BrCodeError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    /// The field changed.
    pub field: Field,
    /// As typed.
    pub before: String,
    /// As it will be written.
    pub after: String,
    /// Why, in order.
    pub reasons: Vec<ChangeReason>,
}

impl Change {
    /// The pt-BR sentence for the UI (same as `to_string()`).
    ///
    /// ```
    /// # let change = domain::brcode::normalise::normalise_city("Maceió").unwrap().change.unwrap();
    /// assert_eq!(change.description(), "Cidade: “Maceió” será escrito como “MACEIO” (letras acentuadas escritas sem acento; letras em maiúsculas).");
    /// ```
    #[must_use]
    pub fn description(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let reasons: Vec<String> = self.reasons.iter().map(ToString::to_string).collect();
        write!(
            f,
            "{}: “{}” será escrito como “{}” ({}).",
            self.field.label(),
            self.before,
            self.after,
            reasons.join("; ")
        )
    }
}

/// A value ready for the payload, and the change made to it (if any).
///
/// ```
/// let city = domain::brcode::normalise::normalise_city("BRASILIA")?;
/// assert_eq!(city.text, "BRASILIA");
/// assert!(city.change.is_none());
/// # Ok::<(), domain::brcode::BrCodeError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Normalised {
    /// The text that goes into the payload.
    pub text: String,
    /// What was changed, `None` when the text is exactly as typed.
    pub change: Option<Change>,
}

/// Whether upper-casing is part of the normalisation.
///
/// ```
/// use domain::brcode::normalise::{normalise, Case};
/// assert_eq!(normalise("São Paulo", Case::Upper).0, "SAO PAULO");
/// assert_eq!(normalise("São Paulo", Case::Keep).0, "Sao Paulo");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Case {
    /// Keep letters as typed (payer message).
    Keep,
    /// Write letters in upper case (name, city).
    Upper,
}

/// The general normaliser (rules 1–4 of the [module docs](self)); returns the text and the
/// reasons it differs from the input (empty when unchanged).
///
/// ```
/// use domain::brcode::normalise::{normalise, Case};
///
/// let (text, reasons) = normalise("Café\tdo João 😀", Case::Keep);
/// assert_eq!(text, "Cafe do Joao");
/// assert_eq!(reasons.len(), 3);
/// ```
#[must_use]
pub fn normalise(input: &str, case: Case) -> (String, Vec<ChangeReason>) {
    let mut out = Norm {
        text: String::with_capacity(input.len()),
        pending_space: false,
        upper: case == Case::Upper,
        upper_cased: false,
    };
    let mut accents = false;
    let mut removed = String::new();
    let mut spaces_adjusted = false;
    let mut previous_was_space = false;
    for c in input.chars() {
        if c.is_whitespace() {
            if c != ' ' || previous_was_space || out.text.is_empty() {
                spaces_adjusted = true;
            }
            out.pending_space = true;
            previous_was_space = true;
            continue;
        }
        previous_was_space = false;
        if c.is_ascii() {
            if is_allowed(c) {
                out.push(c);
            } else if !removed.contains(c) {
                removed.push(c);
            }
            continue;
        }
        let before = out.text.len();
        if let Some(spelled) = spelled_out(c) {
            spelled.chars().for_each(|s| out.push(s));
        } else {
            decompose_compatible(c, |d| {
                // Spaces inside a decomposition (e.g. U+1FBF → " ̓") are not word breaks.
                if !is_combining_mark(d) && d != ' ' && d.is_ascii() && is_allowed(d) {
                    out.push(d);
                }
            });
        }
        if out.text.len() > before {
            accents = true;
        } else if !removed.contains(c) {
            removed.push(c);
        }
    }
    // Only whitespace the user typed counts: a space left dangling by a removed emoji is
    // explained by the removal.
    if previous_was_space && !out.text.is_empty() {
        spaces_adjusted = true;
    }
    let mut reasons = Vec::new();
    if accents {
        reasons.push(ChangeReason::AccentsRemoved);
    }
    if !removed.is_empty() {
        reasons.push(ChangeReason::CharactersRemoved(removed));
    }
    if spaces_adjusted {
        reasons.push(ChangeReason::SpacesAdjusted);
    }
    if out.upper_cased {
        reasons.push(ChangeReason::UpperCased);
    }
    (out.text, reasons)
}

/// The output under construction: collapses spaces lazily so dropped characters never leave a
/// double space behind.
struct Norm {
    text: String,
    pending_space: bool,
    upper: bool,
    upper_cased: bool,
}

impl Norm {
    fn push(&mut self, c: char) {
        if self.pending_space && !self.text.is_empty() {
            self.text.push(' ');
        }
        self.pending_space = false;
        if self.upper && c.is_ascii_lowercase() {
            self.upper_cased = true;
            self.text.push(c.to_ascii_uppercase());
        } else {
            self.text.push(c);
        }
    }
}

/// The BR Code manual's alphanumeric set (letters, digits, space, `$ % * + - . / :`), with
/// lower-case letters allowed as BR Code v2 does.
fn is_allowed(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, ' ' | '$' | '%' | '*' | '+' | '-' | '.' | '/' | ':')
}

/// Letters (and dashes) that NFKD does not reduce to ASCII but that have an obvious spelling.
fn spelled_out(c: char) -> Option<&'static str> {
    Some(match c {
        'ß' => "ss",
        'ẞ' => "SS",
        'æ' => "ae",
        'Æ' => "AE",
        'œ' => "oe",
        'Œ' => "OE",
        'ø' => "o",
        'Ø' => "O",
        'đ' | 'ð' => "d",
        'Đ' | 'Ð' => "D",
        'ł' => "l",
        'Ł' => "L",
        'þ' => "th",
        'Þ' => "TH",
        'ı' => "i",
        '‐' | '‑' | '‒' | '–' | '—' | '−' => "-",
        _ => return None,
    })
}

/// A shorter form of a normalised city that fits the 15 characters of field 60, for the
/// "too long" message to suggest: the typed city's own words, never another city's. In order,
/// until it fits: drop a trailing state ("-SP", "/RJ", " MG"); drop the linking words (DA, DAS,
/// DE, DO, DOS, E, D); shorten the words before the last to four letters and a full stop
/// ("PRES. PRUDENTE"). `None` when even that does not fit.
///
/// ```
/// use domain::brcode::normalise::suggest_city_abbreviation;
/// assert_eq!(suggest_city_abbreviation("EMBU DAS ARTES-SP").as_deref(), Some("EMBU DAS ARTES"));
/// assert_eq!(suggest_city_abbreviation("SAO JOSE DOS CAMPOS").as_deref(), Some("SAO JOSE CAMPOS"));
/// assert_eq!(suggest_city_abbreviation("PRESIDENTE PRUDENTE").as_deref(), Some("PRES. PRUDENTE"));
/// ```
#[must_use]
pub fn suggest_city_abbreviation(city: &str) -> Option<String> {
    let fits = |words: &[String]| {
        let text = words.join(" ");
        (!text.is_empty() && text.len() <= MAX_CITY_LEN).then_some(text)
    };
    let mut words: Vec<String> = city
        .split([' ', '-', '/'])
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect();
    let is_state = |w: &str| w.len() == 2 && w.bytes().all(|b| b.is_ascii_uppercase());
    if words.len() > 1 && words.last().is_some_and(|w| is_state(w)) {
        words.pop();
    }
    // Rejoined with single spaces: the hyphen before a state is gone with the state.
    if let Some(text) = fits(&words) {
        return Some(text);
    }
    const LINKING: [&str; 7] = ["DA", "DAS", "DE", "DO", "DOS", "E", "D"];
    if words.len() > 2 {
        let last = words.len() - 1;
        words = words
            .into_iter()
            .enumerate()
            .filter(|(i, w)| *i == 0 || *i == last || !LINKING.contains(&w.as_str()))
            .map(|(_, w)| w)
            .collect();
    }
    if let Some(text) = fits(&words) {
        return Some(text);
    }
    for i in 0..words.len().saturating_sub(1) {
        if words[i].len() > 5 {
            let short: String = words[i].chars().take(4).collect();
            words[i] = format!("{short}.");
        }
        if let Some(text) = fits(&words) {
            return Some(text);
        }
    }
    None
}

/// Normalises a field with a limit: refuses empty input, input with nothing usable, and
/// results over `max`.
fn prepare(input: &str, field: Field, case: Case, max: usize) -> Result<Normalised, BrCodeError> {
    let unusable = |input: String| match field {
        Field::MerchantName => BrCodeError::MerchantNameUnusable { input },
        Field::MerchantCity => BrCodeError::MerchantCityUnusable { input },
        _ => BrCodeError::AdditionalInfoUnusable { input },
    };
    if input.trim().is_empty() {
        return Err(match field {
            Field::MerchantName => BrCodeError::MerchantNameMissing,
            Field::MerchantCity => BrCodeError::MerchantCityMissing,
            _ => unusable(String::new()),
        });
    }
    let (text, reasons) = normalise(input, case);
    if text.is_empty() {
        return Err(unusable(input.trim().to_owned()));
    }
    let len = text.len();
    if len > max {
        return Err(match field {
            Field::MerchantName => BrCodeError::MerchantNameTooLong { len },
            Field::MerchantCity => BrCodeError::MerchantCityTooLong {
                len,
                suggestion: suggest_city_abbreviation(&text),
            },
            _ => BrCodeError::AdditionalInfoTooLong { len, max },
        });
    }
    let change = (!reasons.is_empty()).then(|| Change {
        field,
        before: input.to_owned(),
        after: text.clone(),
        reasons,
    });
    Ok(Normalised { text, change })
}

/// Normalises a receiver name (field 59): upper case, ASCII, ≤ 25 characters after normalising.
///
/// # Errors
/// [`BrCodeError::MerchantNameMissing`], [`BrCodeError::MerchantNameUnusable`] or
/// [`BrCodeError::MerchantNameTooLong`] — never a silent cut.
///
/// ```
/// use domain::brcode::{normalise::normalise_name, BrCodeError};
///
/// assert_eq!(normalise_name("José da Silva")?.text, "JOSE DA SILVA");
/// assert_eq!(
///     normalise_name("Mercearia e Padaria Boa Esperança"),
///     Err(BrCodeError::MerchantNameTooLong { len: 33 })
/// );
/// # Ok::<(), BrCodeError>(())
/// ```
pub fn normalise_name(input: &str) -> Result<Normalised, BrCodeError> {
    prepare(input, Field::MerchantName, Case::Upper, MAX_NAME_LEN)
}

/// Normalises a city (field 60): upper case, ASCII, ≤ 15 characters after normalising.
///
/// # Errors
/// [`BrCodeError::MerchantCityMissing`], [`BrCodeError::MerchantCityUnusable`] or
/// [`BrCodeError::MerchantCityTooLong`].
///
/// ```
/// use domain::brcode::normalise::normalise_city;
/// assert_eq!(normalise_city("São Paulo")?.text, "SAO PAULO");
/// # Ok::<(), domain::brcode::BrCodeError>(())
/// ```
pub fn normalise_city(input: &str) -> Result<Normalised, BrCodeError> {
    prepare(input, Field::MerchantCity, Case::Upper, MAX_CITY_LEN)
}

/// Normalises the payer message (field 26-02), keeping case. Blank input means "no message".
/// The room left by the key is checked when the code is made (see
/// [`max_additional_info_len`](super::make::max_additional_info_len)).
///
/// # Errors
/// [`BrCodeError::AdditionalInfoUnusable`] when nothing usable is left, or
/// [`BrCodeError::AdditionalInfoTooLong`] over 72 characters (the most any key leaves).
///
/// ```
/// use domain::brcode::normalise::normalise_info;
/// assert_eq!(normalise_info("Pedido nº 12")?.unwrap().text, "Pedido no 12");
/// assert!(normalise_info("   ")?.is_none());
/// # Ok::<(), domain::brcode::BrCodeError>(())
/// ```
pub fn normalise_info(input: &str) -> Result<Option<Normalised>, BrCodeError> {
    if input.trim().is_empty() {
        return Ok(None);
    }
    prepare(input, Field::AdditionalInfo, Case::Keep, 72).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns_sao_paulo_into_sao_paulo_in_capitals() {
        let city = normalise_city("São Paulo").unwrap();
        assert_eq!(city.text, "SAO PAULO");
        assert_eq!(
            city.change.unwrap().reasons,
            vec![ChangeReason::AccentsRemoved, ChangeReason::UpperCased]
        );
    }

    #[test]
    fn folds_every_portuguese_accent() {
        let (text, _) = normalise(
            "áàâãä éèêë íìîï óòôõö úùûü ç ÁÀÂÃ ÉÊ Í ÓÔÕ Ú Ç ñ",
            Case::Keep,
        );
        assert_eq!(text, "aaaaa eeee iiii ooooo uuuu c AAAA EE I OOO U C n");
    }

    #[test]
    fn spells_out_letters_that_do_not_decompose() {
        let (text, _) = normalise("Straße Ærø Œuvre Łódź – ok", Case::Keep);
        assert_eq!(text, "Strasse AEro OEuvre Lodz - ok");
    }

    #[test]
    fn drops_emoji_and_symbols_and_lists_them_once() {
        let (text, reasons) = normalise("Bar & Grill!! 🍺🍺", Case::Keep);
        assert_eq!(text, "Bar Grill");
        assert_eq!(
            reasons,
            vec![ChangeReason::CharactersRemoved("&!🍺".into())]
        );
    }

    #[test]
    fn keeps_the_manuals_special_characters() {
        let (text, reasons) = normalise("Ref 08/2021 - 10% + R$5 * a.b:c", Case::Keep);
        assert_eq!(text, "Ref 08/2021 - 10% + R$5 * a.b:c");
        assert!(reasons.is_empty());
    }

    #[test]
    fn collapses_every_kind_of_whitespace() {
        let (text, reasons) = normalise(" a \t b\u{a0}\u{a0}c\n", Case::Keep);
        assert_eq!(text, "a b c");
        assert_eq!(reasons, vec![ChangeReason::SpacesAdjusted]);
    }

    #[test]
    fn keeps_case_for_the_general_normaliser() {
        let (text, reasons) = normalise("Pedido Único", Case::Keep);
        assert_eq!(text, "Pedido Unico");
        assert_eq!(reasons, vec![ChangeReason::AccentsRemoved]);
    }

    #[test]
    fn reports_no_change_for_text_already_in_form() {
        assert!(normalise_name("FULANO DE TAL").unwrap().change.is_none());
    }

    #[test]
    fn refuses_a_name_longer_than_25_characters_instead_of_cutting_it() {
        assert_eq!(
            normalise_name("Leone Parise Vieira da Silva"),
            Err(BrCodeError::MerchantNameTooLong { len: 28 })
        );
    }

    #[test]
    fn accepts_a_name_of_exactly_25_characters() {
        assert_eq!(
            normalise_name("Arya Stark with a very lo")
                .unwrap()
                .text
                .len(),
            25
        );
    }

    #[test]
    fn checks_the_city_limit_after_folding() {
        // 15 characters once the accent is gone ("SAO JOSE CAMPOS").
        assert_eq!(
            normalise_city("São José Campos").unwrap().text,
            "SAO JOSE CAMPOS"
        );
        assert_eq!(
            normalise_city("Presidente Prudente"),
            Err(BrCodeError::MerchantCityTooLong {
                len: 19,
                suggestion: Some("PRES. PRUDENTE".to_owned())
            })
        );
    }

    #[test]
    fn a_too_long_city_is_answered_with_its_own_words_shortened() {
        for (typed, suggested) in [
            ("Embu das Artes-SP", Some("EMBU DAS ARTES")),
            ("Embu das Artes / SP", Some("EMBU DAS ARTES")),
            ("São José dos Campos", Some("SAO JOSE CAMPOS")),
            ("Santana de Parnaíba", Some("SANT. PARNAIBA")),
            ("Vila Velha do Norte Grande", None),
        ] {
            match normalise_city(typed) {
                Err(BrCodeError::MerchantCityTooLong { suggestion, .. }) => {
                    assert_eq!(suggestion.as_deref(), suggested, "{typed}");
                    if let Some(s) = suggestion {
                        assert!(s.len() <= MAX_CITY_LEN && normalise_city(&s).is_ok(), "{s}");
                    }
                }
                other => panic!("{typed}: {other:?}"),
            }
        }
    }

    #[test]
    fn refuses_blank_and_unusable_values() {
        assert_eq!(normalise_name("   "), Err(BrCodeError::MerchantNameMissing));
        assert_eq!(
            normalise_name("🍕🍕"),
            Err(BrCodeError::MerchantNameUnusable {
                input: "🍕🍕".into()
            })
        );
        assert_eq!(normalise_city(""), Err(BrCodeError::MerchantCityMissing));
    }

    #[test]
    fn treats_a_blank_message_as_no_message() {
        assert_eq!(normalise_info(" \t "), Ok(None));
    }
}
