//! Fitting text into a box: shrink it, wrap it at spaces, and as the last resort break a word
//! that is wider than the box by itself. Measured with the font's own advances.

use super::font::{Weight, text_width};

/// Text set to fit: its lines and the size they are set at.
#[derive(Debug, Clone, PartialEq)]
pub struct Fitted {
    /// One entry per line, never empty.
    pub lines: Vec<String>,
    /// The em size, in millimetres.
    pub size: f64,
}

/// How a piece of text prefers to give way when it is too wide.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Give {
    /// Names and cities: one line, smaller, down to 70 % of the preferred size; only then wrap.
    Shrink,
    /// Sentences: wrap first, then get smaller.
    Wrap,
}

/// Fits `text` into `max_width`, starting at `preferred` and never below `min` (both em sizes
/// in mm), in at most `max_lines` lines where it can. At `min` with still too many lines, the
/// lines all stay (nothing is dropped): the caller's layout makes room, and its tests check.
pub fn fit(
    text: &str,
    weight: Weight,
    preferred: f64,
    min: f64,
    max_width: f64,
    max_lines: usize,
    give: Give,
) -> Fitted {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if give == Give::Shrink {
        let natural = text_width(&text, weight, preferred);
        let size = if natural <= max_width {
            preferred
        } else {
            preferred * max_width / natural
        };
        if size >= (preferred * 0.7).max(min) {
            return Fitted {
                lines: vec![text],
                size,
            };
        }
    }
    let mut size = preferred;
    loop {
        let lines = wrap(&text, weight, size, max_width);
        if lines.len() <= max_lines || size <= min {
            return Fitted { lines, size };
        }
        size = (size * 0.92).max(min);
    }
}

/// Greedy word wrap at `size`; a word wider than the line is broken between characters.
pub fn wrap(text: &str, weight: Weight, size: f64, max_width: f64) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in text.split_whitespace() {
        let candidate = if current.is_empty() {
            word.to_owned()
        } else {
            format!("{current} {word}")
        };
        if text_width(&candidate, weight, size) <= max_width {
            current = candidate;
            continue;
        }
        if !current.is_empty() {
            lines.push(std::mem::take(&mut current));
        }
        if text_width(word, weight, size) <= max_width {
            current = word.to_owned();
            continue;
        }
        for ch in word.chars() {
            let mut longer = current.clone();
            longer.push(ch);
            if !current.is_empty() && text_width(&longer, weight, size) > max_width {
                lines.push(std::mem::take(&mut current));
                current.push(ch);
            } else {
                current = longer;
            }
        }
    }
    if !current.is_empty() || lines.is_empty() {
        lines.push(current);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_keeps_its_preferred_size_on_one_line() {
        let f = fit(
            "LOJA DA ANA",
            Weight::Bold,
            6.0,
            3.0,
            100.0,
            2,
            Give::Shrink,
        );
        assert_eq!(f.lines, vec!["LOJA DA ANA"]);
        assert!((f.size - 6.0).abs() < 1e-9);
    }

    #[test]
    fn a_long_name_shrinks_before_it_wraps() {
        let f = fit(
            "MERCADINHO SAO JOAO LTDA.",
            Weight::Bold,
            6.0,
            3.0,
            80.0,
            2,
            Give::Shrink,
        );
        assert_eq!(f.lines.len(), 1);
        assert!(f.size < 6.0);
        assert!(text_width(&f.lines[0], Weight::Bold, f.size) <= 80.0 + 1e-9);
    }

    #[test]
    fn a_sentence_wraps_and_every_line_fits() {
        let text = "Confira o nome do recebedor antes de confirmar: MERCADINHO SAO JOAO LTDA.";
        let f = fit(text, Weight::Regular, 3.0, 2.0, 60.0, 3, Give::Wrap);
        assert!(f.lines.len() > 1);
        for line in &f.lines {
            assert!(text_width(line, Weight::Regular, f.size) <= 60.0 + 1e-9);
        }
        assert_eq!(f.lines.join(" "), text);
    }

    #[test]
    fn a_word_wider_than_the_box_is_broken_between_characters() {
        let lines = wrap(&"W".repeat(25), Weight::Bold, 6.0, 40.0);
        assert!(lines.len() > 1);
        for line in &lines {
            assert!(text_width(line, Weight::Bold, 6.0) <= 40.0 + 1e-9);
        }
        assert_eq!(lines.concat(), "W".repeat(25));
    }
}
