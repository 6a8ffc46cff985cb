//! The one font every sign is set in, shipped in the repository (DejaVu Sans, Bitstream Vera
//! licence: `domain/fonts/LICENSE`) so output never depends on the machine's fonts, and text
//! measured with the same advances the renderer will use.

use std::sync::OnceLock;

use ttf_parser::Face;

/// DejaVu Sans, regular (the bytes of the TTF).
pub static REGULAR: &[u8] =
    include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/fonts/DejaVuSans.ttf"));
/// DejaVu Sans, bold (the bytes of the TTF).
pub static BOLD: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/fonts/DejaVuSans-Bold.ttf"
));
/// The family name the sign's SVG asks for; the renderer loads [`REGULAR`] and [`BOLD`] under it.
pub const FAMILY: &str = "DejaVu Sans";

/// Which of the two faces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Weight {
    /// Regular.
    Regular,
    /// Bold.
    Bold,
}

struct Metrics {
    face: Face<'static>,
    units_per_em: f64,
    ascender: f64,
    descender: f64,
}

fn metrics(weight: Weight) -> &'static Metrics {
    static REG: OnceLock<Metrics> = OnceLock::new();
    static BLD: OnceLock<Metrics> = OnceLock::new();
    let (cell, bytes) = match weight {
        Weight::Regular => (&REG, REGULAR),
        Weight::Bold => (&BLD, BOLD),
    };
    cell.get_or_init(|| {
        // The bytes are compiled in and tested; a parse failure is a broken build, not input.
        let face = Face::parse(bytes, 0).expect("the bundled DejaVu Sans parses");
        Metrics {
            units_per_em: f64::from(face.units_per_em()),
            ascender: f64::from(face.ascender()),
            descender: f64::from(face.descender()),
            face,
        }
    })
}

/// The width of `text` set at `size` (the em size, any unit; the answer is in the same unit).
/// Kerning only ever tightens DejaVu's pairs, so this is an upper bound of the drawn width.
pub fn text_width(text: &str, weight: Weight, size: f64) -> f64 {
    let m = metrics(weight);
    let fallback = m
        .face
        .glyph_index('?')
        .and_then(|g| m.face.glyph_hor_advance(g))
        .unwrap_or(0);
    let units: u64 = text
        .chars()
        .map(|c| {
            let advance = m
                .face
                .glyph_index(c)
                .and_then(|g| m.face.glyph_hor_advance(g))
                .unwrap_or(fallback);
            u64::from(advance)
        })
        .sum();
    // Glyph advances are at most u16 each; a sign's text is a few hundred characters.
    let units = u32::try_from(units).unwrap_or(u32::MAX);
    f64::from(units) * size / m.units_per_em
}

/// How far glyphs rise above the baseline, as a fraction of the em size.
pub fn ascent(weight: Weight) -> f64 {
    let m = metrics(weight);
    m.ascender / m.units_per_em
}

/// How far glyphs fall below the baseline, as a positive fraction of the em size.
pub fn descent(weight: Weight) -> f64 {
    let m = metrics(weight);
    -m.descender / m.units_per_em
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bold_w_is_wider_than_a_regular_i() {
        assert!(text_width("W", Weight::Bold, 10.0) > text_width("i", Weight::Regular, 10.0));
    }

    #[test]
    fn widths_scale_with_the_size_and_add_up() {
        let one = text_width("AB", Weight::Regular, 10.0);
        let two = text_width("A", Weight::Regular, 20.0) + text_width("B", Weight::Regular, 20.0);
        assert!((two - 2.0 * one).abs() < 1e-9);
    }

    #[test]
    fn ascent_and_descent_are_the_fonts() {
        assert!(ascent(Weight::Regular) > 0.7 && ascent(Weight::Regular) < 1.0);
        assert!(descent(Weight::Bold) > 0.1 && descent(Weight::Bold) < 0.4);
    }
}
