//! Text from outside (a payer's name, free text, a form field), checked for what the event log
//! and the read models can hold.
//!
//! PostgreSQL's `text` and `jsonb` cannot hold U+0000: an event or a read-model row carrying
//! one is refused by the database (`invalid byte sequence for encoding "UTF8": 0x00`,
//! `unsupported Unicode escape sequence`), so a projector would park it and the payment would
//! vanish from every screen. Lone surrogates (`"\ud800"` in JSON) cannot reach here: `serde_json`
//! refuses them while reading, and a Rust `String` cannot hold one. The other control characters
//! are stored fine, but have no place in a name.
//!
//! | check | refuses |
//! |---|---|
//! | [`storable`] | U+0000 |
//! | [`free_text`] | U+0000 and every control character (Unicode `Cc`) but tab, line feed and carriage return |
//! | [`one_line`] | every control character (Unicode `Cc`), U+0000 included |
//!
//! ```
//! use domain::text::{TextFault, free_text, one_line, storable};
//!
//! assert_eq!(storable("a\u{0}b"), Err(TextFault::Nul));
//! assert_eq!(free_text("linha 1\nlinha 2"), Ok(()));
//! assert_eq!(one_line("Maria\nSilva"), Err(TextFault::Control));
//! ```

/// What a text holds that it may not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum TextFault {
    /// U+0000, which PostgreSQL cannot store.
    #[error("O texto tem um caractere nulo (U+0000), que não pode ser guardado.")]
    Nul,
    /// A control character (a line break in a name, a bell, an escape…).
    #[error("O texto tem um caractere de controle, que não cabe aqui.")]
    Control,
}

/// Whether PostgreSQL `text` and `jsonb` can hold `text` (no U+0000).
///
/// # Errors
///
/// [`TextFault::Nul`] when it holds U+0000.
pub fn storable(text: &str) -> Result<(), TextFault> {
    if text.contains('\0') {
        Err(TextFault::Nul)
    } else {
        Ok(())
    }
}

/// Free text (a payer's message, a refund's reason): storable, and no control character other
/// than tab, line feed and carriage return.
///
/// # Errors
///
/// [`TextFault::Nul`] or [`TextFault::Control`].
pub fn free_text(text: &str) -> Result<(), TextFault> {
    storable(text)?;
    if text
        .chars()
        .any(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
    {
        return Err(TextFault::Control);
    }
    Ok(())
}

/// One line (a name, a key): storable, and no control character at all.
///
/// # Errors
///
/// [`TextFault::Nul`] or [`TextFault::Control`].
pub fn one_line(text: &str) -> Result<(), TextFault> {
    storable(text)?;
    if text.chars().any(char::is_control) {
        return Err(TextFault::Control);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nul_is_refused_by_every_check() {
        for check in [storable, free_text, one_line] {
            assert_eq!(check("a\u{0}b"), Err(TextFault::Nul));
            assert_eq!(check("\u{0}"), Err(TextFault::Nul));
        }
    }

    #[test]
    fn free_text_keeps_line_breaks_and_tabs_but_not_other_controls() {
        assert_eq!(free_text("Pedido 12\r\n\tmesa 3"), Ok(()));
        for control in ['\u{1}', '\u{7}', '\u{1b}', '\u{7f}', '\u{85}', '\u{9f}'] {
            assert_eq!(
                free_text(&format!("a{control}b")),
                Err(TextFault::Control),
                "{control:?}"
            );
        }
    }

    #[test]
    fn a_name_is_one_line_without_controls_and_any_other_script_is_welcome() {
        assert_eq!(one_line("Zoë Ñandú 李 ☕ مريم"), Ok(()));
        for bad in ["Maria\nSilva", "Maria\tSilva", "Maria\u{1b}[31m"] {
            assert_eq!(one_line(bad), Err(TextFault::Control), "{bad:?}");
        }
    }
}
