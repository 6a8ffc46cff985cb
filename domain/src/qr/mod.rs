//! QR rendering for BR Codes: SVG for print and the web (vector, crisp at any size) and PNG at a
//! requested pixel size, both with the 4-module quiet zone ISO/IEC 18004 asks for.
//!
//! * **Error correction:** [`EcLevel::M`] for screens and clean print, [`EcLevel::Q`] for signs
//!   exposed to wear, glare or lamination. Nothing is ever drawn over the matrix.
//! * **Encoding:** our own ISO/IEC 18004 encoder (`encode.rs`): byte mode without ECI, as
//!   pix-brcode.md §6.1 recommends, levels M and Q, versions 1–40, the best of the 8 masks by the
//!   standard penalty rules scored bit-parallel (`penalty.rs`). It exists for speed: the
//!   `qrcode` crate took milliseconds and `fast_qr` hundreds of microseconds per BR Code
//!   (`benches/qr_encoders.rs`), most of it scoring masks module by module. Its output is checked
//!   module for module against `fast_qr` for every version, level and mask, and decoded with
//!   `rqrr`.
//! * **PNG size:** at least [`MIN_PIXELS_PER_MODULE`] pixels per module. Below that, browsers and
//!   printers resample module edges into grey and phone cameras start to miss codes; a typical
//!   static code (version 8, 49 + 8 modules) therefore needs at least 228 pixels.
//!
//! ```
//! use domain::qr::{EcLevel, QrMatrix};
//!
//! let payload = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D";
//! let qr = QrMatrix::encode(payload, EcLevel::M)?;
//! let svg = qr.to_svg();
//! assert!(svg.contains(r#"shape-rendering="crispEdges""#));
//! let png = qr.to_png(400)?;
//! assert_eq!(&png[1..4], b"PNG");
//! # Ok::<(), domain::qr::QrError>(())
//! ```

mod encode;
mod line;
mod penalty;

use std::str::FromStr;

/// Modules of white border on every side.
///
/// ```
/// assert_eq!(domain::qr::QUIET_ZONE, 4);
/// ```
pub const QUIET_ZONE: usize = 4;
/// The fewest pixels per module a PNG may have (see the [module docs](self)).
///
/// ```
/// assert_eq!(domain::qr::MIN_PIXELS_PER_MODULE, 4);
/// ```
pub const MIN_PIXELS_PER_MODULE: u32 = 4;
/// The largest PNG side we render, to bound memory.
///
/// ```
/// assert!(domain::qr::png("000201", domain::qr::EcLevel::M, domain::qr::MAX_PNG_SIZE + 1).is_err());
/// ```
pub const MAX_PNG_SIZE: u32 = 8192;

/// Error-correction level: how much of the symbol can be damaged and still read.
///
/// `FromStr` accepts `m`/`tela`/`screen` and `q`/`impressao`/`impressão`/`print`.
///
/// ```
/// use domain::qr::EcLevel;
/// assert_eq!("impressão".parse::<EcLevel>(), Ok(EcLevel::Q));
/// assert_eq!("M".parse::<EcLevel>(), Ok(EcLevel::M));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum EcLevel {
    /// About 15 % recovery: screens and clean print.
    #[default]
    M,
    /// About 25 % recovery: printed signs that get worn, glared or laminated.
    Q,
}

impl FromStr for EcLevel {
    type Err = QrError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_lowercase().as_str() {
            "m" | "tela" | "screen" => Ok(Self::M),
            "q" | "impressao" | "impressão" | "print" => Ok(Self::Q),
            other => Err(QrError::UnknownLevel(other.to_owned())),
        }
    }
}

/// Why a QR image could not be made. Messages are pt-BR.
///
/// ```
/// use domain::qr::{EcLevel, QrError, QrMatrix};
/// let qr = QrMatrix::encode("00020101", EcLevel::M)?;
/// assert!(matches!(qr.to_png(20), Err(QrError::PngTooSmall { .. })));
/// # Ok::<(), QrError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QrError {
    /// The data does not fit in any QR version at this level.
    #[error("O código é longo demais para caber em um QR Code.")]
    DataTooLong,
    /// The requested PNG is too small to scan.
    #[error(
        "Uma imagem de {size} pixels é pequena demais para ler com o celular; use pelo menos {min} pixels."
    )]
    PngTooSmall {
        /// The size asked for.
        size: u32,
        /// The smallest size allowed for this code.
        min: u32,
    },
    /// The requested PNG is larger than we render.
    #[error("Uma imagem de {size} pixels é grande demais; o máximo é {max}.")]
    PngTooLarge {
        /// The size asked for.
        size: u32,
        /// The largest size allowed.
        max: u32,
    },
    /// The PNG encoder failed (writing to memory; not expected).
    #[error("Não foi possível gerar a imagem PNG: {0}")]
    Png(String),
    /// An unknown error-correction level name.
    #[error("Nível de correção desconhecido: “{0}”. Use M (tela) ou Q (impressão).")]
    UnknownLevel(String),
}

impl QrError {
    /// A stable machine-readable code.
    ///
    /// ```
    /// assert_eq!(domain::qr::QrError::DataTooLong.code(), "qr-data-too-long");
    /// ```
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            Self::DataTooLong => "qr-data-too-long",
            Self::PngTooSmall { .. } => "qr-png-too-small",
            Self::PngTooLarge { .. } => "qr-png-too-large",
            Self::Png(_) => "qr-png-failed",
            Self::UnknownLevel(_) => "qr-unknown-level",
        }
    }
}

/// An encoded QR symbol: a square of dark and light modules (quiet zone not included).
///
/// ```
/// use domain::qr::{EcLevel, QrMatrix};
/// let qr = QrMatrix::encode("000201", EcLevel::Q)?;
/// assert_eq!(qr.width(), 21); // version 1
/// assert_eq!(qr.version(), 1);
/// # Ok::<(), domain::qr::QrError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QrMatrix {
    width: usize,
    version: u8,
    mask: u8,
    level: EcLevel,
    /// One bitset per row: bit `x` of row `y` is set when that module is dark.
    rows: Vec<[u64; 3]>,
}

impl QrMatrix {
    /// Encodes a payload.
    ///
    /// # Errors
    /// [`QrError::DataTooLong`] when it does not fit in version 40.
    ///
    /// ```
    /// # use domain::qr::{EcLevel, QrMatrix};
    /// assert!(QrMatrix::encode("x".repeat(3000), EcLevel::Q).is_err());
    /// ```
    pub fn encode(payload: impl AsRef<[u8]>, level: EcLevel) -> Result<Self, QrError> {
        let symbol =
            encode::encode(payload.as_ref(), level, None, None).ok_or(QrError::DataTooLong)?;
        Ok(Self {
            width: symbol.size,
            version: symbol.version,
            mask: symbol.mask,
            level,
            rows: symbol.rows,
        })
    }

    /// Modules per side, without the quiet zone.
    ///
    /// ```
    /// # let qr = domain::qr::QrMatrix::encode("000201", domain::qr::EcLevel::M).unwrap();
    /// assert_eq!(qr.width(), 21);
    /// ```
    #[must_use]
    pub fn width(&self) -> usize {
        self.width
    }

    /// Modules per side, with the 4-module quiet zone on each side.
    ///
    /// ```
    /// # let qr = domain::qr::QrMatrix::encode("000201", domain::qr::EcLevel::M).unwrap();
    /// assert_eq!(qr.width_with_quiet_zone(), 29);
    /// ```
    #[must_use]
    pub fn width_with_quiet_zone(&self) -> usize {
        self.width + 2 * QUIET_ZONE
    }

    /// The QR version, 1–40.
    ///
    /// ```
    /// # let qr = domain::qr::QrMatrix::encode("000201", domain::qr::EcLevel::M).unwrap();
    /// assert_eq!(qr.version(), 1);
    /// ```
    #[must_use]
    pub fn version(&self) -> u8 {
        self.version
    }

    /// The data mask chosen (0–7), the one with the lowest ISO/IEC 18004 penalty.
    ///
    /// ```
    /// # let qr = domain::qr::QrMatrix::encode("000201", domain::qr::EcLevel::M).unwrap();
    /// assert!(qr.mask() < 8);
    /// ```
    #[must_use]
    pub fn mask(&self) -> u8 {
        self.mask
    }

    /// The error-correction level.
    ///
    /// ```
    /// # use domain::qr::{EcLevel, QrMatrix};
    /// assert_eq!(QrMatrix::encode("000201", EcLevel::Q).unwrap().level(), EcLevel::Q);
    /// ```
    #[must_use]
    pub fn level(&self) -> EcLevel {
        self.level
    }

    /// True when the module at column `x`, row `y` (quiet zone excluded) is dark.
    ///
    /// ```
    /// # let qr = domain::qr::QrMatrix::encode("000201", domain::qr::EcLevel::M).unwrap();
    /// assert!(qr.is_dark(0, 0)); // the corner of a finder pattern
    /// ```
    #[must_use]
    pub fn is_dark(&self, x: usize, y: usize) -> bool {
        x < self.width && y < self.width && self.rows[y][x / 64] >> (x % 64) & 1 == 1
    }

    /// The smallest PNG side allowed for this symbol: [`MIN_PIXELS_PER_MODULE`] per module,
    /// quiet zone included.
    ///
    /// ```
    /// # let qr = domain::qr::QrMatrix::encode("000201", domain::qr::EcLevel::M).unwrap();
    /// assert_eq!(qr.min_png_size(), 29 * 4);
    /// ```
    #[must_use]
    pub fn min_png_size(&self) -> u32 {
        self.width_with_quiet_zone() as u32 * MIN_PIXELS_PER_MODULE
    }

    /// An SVG document: `viewBox` in modules (quiet zone included), a white background and one
    /// `<path>` of dark runs with `shape-rendering="crispEdges"`. It has no fixed size, so it
    /// fills whatever box the page or print template gives it.
    ///
    /// ```
    /// # let qr = domain::qr::QrMatrix::encode("000201", domain::qr::EcLevel::M).unwrap();
    /// let svg = qr.to_svg();
    /// assert!(svg.starts_with(r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 29 29""#));
    /// assert_eq!(svg.matches("<path").count(), 1);
    /// ```
    #[must_use]
    pub fn to_svg(&self) -> String {
        let side = self.width_with_quiet_zone();
        // Built as bytes: only ASCII goes in, and pushing bytes skips per-char UTF-8 work.
        let mut svg: Vec<u8> = Vec::with_capacity(256 + self.width * self.width * 4);
        svg.extend_from_slice(br#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 "#);
        push_number(&mut svg, side);
        svg.push(b' ');
        push_number(&mut svg, side);
        svg.extend_from_slice(br#"" shape-rendering="crispEdges"><rect width=""#);
        push_number(&mut svg, side);
        svg.extend_from_slice(br#"" height=""#);
        push_number(&mut svg, side);
        svg.extend_from_slice(br##"" fill="#fff"/><path fill="#000" d=""##);
        for (y, row) in self.rows.iter().enumerate() {
            for (start, len) in dark_runs(row, self.width) {
                // One rectangle per horizontal run: "M x y h len v 1 h -len z".
                svg.push(b'M');
                push_number(&mut svg, start + QUIET_ZONE);
                svg.push(b' ');
                push_number(&mut svg, y + QUIET_ZONE);
                svg.push(b'h');
                push_number(&mut svg, len);
                svg.extend_from_slice(b"v1h-");
                push_number(&mut svg, len);
                svg.push(b'z');
            }
        }
        svg.extend_from_slice(br#""/></svg>"#);
        // Every byte pushed above is ASCII, so this conversion cannot fail.
        String::from_utf8(svg).unwrap_or_default()
    }

    /// A square 1-bit greyscale PNG of `size` × `size` pixels. Modules are whole pixels (no
    /// blurred edges); pixels left over after the largest whole module size are added to the
    /// white border, split evenly.
    ///
    /// # Errors
    /// [`QrError::PngTooSmall`] below [`QrMatrix::min_png_size`], [`QrError::PngTooLarge`] above
    /// [`MAX_PNG_SIZE`].
    ///
    /// ```
    /// # let qr = domain::qr::QrMatrix::encode("000201", domain::qr::EcLevel::M).unwrap();
    /// let png = qr.to_png(300)?;
    /// assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    /// # Ok::<(), domain::qr::QrError>(())
    /// ```
    pub fn to_png(&self, size: u32) -> Result<Vec<u8>, QrError> {
        if size > MAX_PNG_SIZE {
            return Err(QrError::PngTooLarge {
                size,
                max: MAX_PNG_SIZE,
            });
        }
        let min = self.min_png_size();
        if size < min {
            return Err(QrError::PngTooSmall { size, min });
        }
        let side = size as usize;
        let modules = self.width_with_quiet_zone();
        let scale = side / modules;
        let offset = (side - scale * self.width) / 2;
        let row_bytes = side.div_ceil(8);
        let mut pixels = vec![0xFF_u8; row_bytes * side];
        let mut row = vec![0xFF_u8; row_bytes];
        for (my, modules) in self.rows.iter().enumerate() {
            row.fill(0xFF);
            for (start, len) in dark_runs(modules, self.width) {
                for px in offset + start * scale..offset + (start + len) * scale {
                    row[px / 8] &= !(0x80 >> (px % 8));
                }
            }
            for py in offset + my * scale..offset + (my + 1) * scale {
                pixels[py * row_bytes..(py + 1) * row_bytes].copy_from_slice(&row);
            }
        }
        let mut out = Vec::with_capacity(pixels.len() / 8 + 128);
        let mut encoder = png::Encoder::new(&mut out, size, size);
        // Two-colour images compress well even at the fast setting.
        encoder.set_compression(png::Compression::Fast);
        encoder.set_color(png::ColorType::Grayscale);
        encoder.set_depth(png::BitDepth::One);
        let png_error = |e: png::EncodingError| QrError::Png(e.to_string());
        let mut writer = encoder.write_header().map_err(png_error)?;
        writer.write_image_data(&pixels).map_err(png_error)?;
        writer.finish().map_err(png_error)?;
        Ok(out)
    }
}

/// The runs of dark modules in a row, as `(first module, length)`, found a word at a time.
fn dark_runs(row: &[u64; 3], width: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut x = 0;
    std::iter::from_fn(move || {
        let next = |from: usize, dark: bool| -> usize {
            let mut at = from;
            while at < width {
                let bits = if dark { !row[at / 64] } else { row[at / 64] };
                let word = bits >> (at % 64);
                if word != 0 {
                    return (at + word.trailing_zeros() as usize).min(width);
                }
                at = (at / 64 + 1) * 64;
            }
            width
        };
        let start = next(x, false);
        if start >= width {
            return None;
        }
        let end = next(start, true);
        x = end;
        Some((start, end - start))
    })
}

/// Appends a non-negative integer below 1000 (symbol coordinates are at most 185) without
/// going through `fmt`: the SVG path has thousands of them.
fn push_number(out: &mut Vec<u8>, n: usize) {
    debug_assert!(n < 1000);
    let digit = |d: usize| b'0' + (d % 10) as u8;
    if n >= 100 {
        out.extend_from_slice(&[digit(n / 100), digit(n / 10), digit(n)]);
    } else if n >= 10 {
        out.extend_from_slice(&[digit(n / 10), digit(n)]);
    } else {
        out.push(digit(n));
    }
}

/// Encodes a payload and returns its SVG.
///
/// # Errors
/// [`QrError::DataTooLong`].
///
/// ```
/// let svg = domain::qr::svg("000201", domain::qr::EcLevel::M)?;
/// assert!(svg.ends_with("</svg>"));
/// # Ok::<(), domain::qr::QrError>(())
/// ```
pub fn svg(payload: &str, level: EcLevel) -> Result<String, QrError> {
    QrMatrix::encode(payload, level).map(|qr| qr.to_svg())
}

/// Encodes a payload and returns a `size` × `size` PNG.
///
/// # Errors
/// [`QrError::DataTooLong`], [`QrError::PngTooSmall`] or [`QrError::PngTooLarge`].
///
/// ```
/// let png = domain::qr::png("000201", domain::qr::EcLevel::Q, 256)?;
/// assert!(png.len() > 60);
/// # Ok::<(), domain::qr::QrError>(())
/// ```
pub fn png(payload: &str, level: EcLevel, size: u32) -> Result<Vec<u8>, QrError> {
    QrMatrix::encode(payload, level)?.to_png(size)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MANUAL_STATIC: &str = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D";

    #[test]
    fn uses_a_larger_symbol_for_q_than_for_m() {
        let m = QrMatrix::encode(MANUAL_STATIC, EcLevel::M).unwrap();
        let q = QrMatrix::encode(MANUAL_STATIC, EcLevel::Q).unwrap();
        assert!(
            q.version() > m.version(),
            "M v{} Q v{}",
            m.version(),
            q.version()
        );
    }

    #[test]
    fn matches_the_reference_byte_mode_versions() {
        // pix-brcode.md §6.1, computed with segno in byte mode: manual static v8 (M) / v10 (Q),
        // manual dynamic v9 (M) / v11 (Q).
        let dynamic = "00020101021226700014br.gov.bcb.pix2548pix.example.com/8b3da2f39a4140d1a91abd93113bd4415204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***630464E4";
        let version = |p: &str, l| QrMatrix::encode(p, l).unwrap().version();
        assert_eq!(version(MANUAL_STATIC, EcLevel::M), 8);
        assert_eq!(version(MANUAL_STATIC, EcLevel::Q), 10);
        assert_eq!(version(dynamic, EcLevel::M), 9);
        assert_eq!(version(dynamic, EcLevel::Q), 11);
        assert_eq!(
            QrMatrix::encode(MANUAL_STATIC, EcLevel::M).unwrap().width(),
            49
        );
    }

    #[test]
    fn draws_exactly_the_dark_modules_in_the_svg() {
        let qr = QrMatrix::encode(MANUAL_STATIC, EcLevel::M).unwrap();
        let svg = qr.to_svg();
        let d = svg
            .split(" d=\"")
            .nth(1)
            .unwrap()
            .trim_end_matches("\"/></svg>");
        let mut painted = 0;
        for rect in d.split('z').filter(|s| !s.is_empty()) {
            let (_, rest) = rect.split_once('h').unwrap();
            let len: usize = rest.split_once('v').unwrap().0.parse().unwrap();
            painted += len;
        }
        let dark = (0..qr.width())
            .flat_map(|y| (0..qr.width()).map(move |x| (x, y)))
            .filter(|(x, y)| qr.is_dark(*x, *y))
            .count();
        assert_eq!(painted, dark);
    }

    #[test]
    fn refuses_a_png_with_fewer_than_four_pixels_per_module() {
        let qr = QrMatrix::encode(MANUAL_STATIC, EcLevel::M).unwrap();
        let min = qr.min_png_size();
        assert!(qr.to_png(min).is_ok());
        assert_eq!(
            qr.to_png(min - 1),
            Err(QrError::PngTooSmall { size: min - 1, min })
        );
        assert!(matches!(
            qr.to_png(MAX_PNG_SIZE + 1),
            Err(QrError::PngTooLarge { .. })
        ));
    }

    #[test]
    fn reads_level_names_from_the_ui() {
        assert_eq!("tela".parse(), Ok(EcLevel::M));
        assert_eq!("print".parse(), Ok(EcLevel::Q));
        assert!("h".parse::<EcLevel>().is_err());
    }
}
