//! The printable Pix sign (placa Pix): one pure layout that turns a code's facts and the
//! buyer's choices into one SVG document, in millimetres, that the gateway renders to SVG, to
//! vector PDF and to PNG. No I/O: the font is compiled in ([`font`]).
//!
//! | piece | holds |
//! |---|---|
//! | [`SignContent`] | what the sign says: the BR Code, name, city, amount, description, key line, headline, footer |
//! | [`SignOptions`] | [`Template`] × [`PaperSize`] × [`Theme`] |
//! | [`layout`] | the layout itself → [`SignDocument`] (the SVG plus where every text, code and logo landed) |
//! | [`logo`] | the shop's logo: PNG, JPEG or sanitised SVG, checked by content |
//!
//! Guarantees, checked by the tests of every template × size:
//! * the code is the engine's QR at error correction Q, black on white, with its 4-module
//!   quiet zone, and nothing is drawn over it or its quiet zone;
//! * the code's symbol is never smaller than [`MIN_SYMBOL_MM`] (3 cm) on a printed page;
//! * text is measured with the font's advances and shrunk or wrapped into its box, so a
//!   25-character name or a 15-character city never leaves the sign;
//! * every sign prints "Confira o nome do recebedor antes de confirmar: NOME";
//! * a logo is part of the stack above the code, so it never covers the code or its quiet
//!   zone, and never leaves its panel.
//!
//! **The Pix mark.** Balcão is not a Pix participant and does not ship the BCB's artwork, so no
//! template draws the Pix symbol or logotype (never the logotype alone, never a redrawn or
//! distorted symbol). "Pix" appears only as a word of the headline, spelt "Pix", in the sign's
//! own font and colours.

// Layout is geometry in millimetres, not money: floating point is the right tool here.
#![allow(clippy::float_arithmetic)]

mod fit;
pub mod font;
mod layout;
pub mod logo;
mod options;

pub use fit::{Fitted, Give, fit, wrap};
pub use layout::layout;
pub use options::{PaperSize, SignOptions, Template, Theme};

use crate::money::Centavos;
use crate::qr::QrError;

/// The smallest printed side of the code's symbol (without its quiet zone), in millimetres.
pub const MIN_SYMBOL_MM: f64 = 30.0;
/// The headline every sign gets unless the buyer writes another.
pub const DEFAULT_HEADLINE: &str = "Pague com Pix";
/// The longest headline accepted, in characters.
pub const MAX_HEADLINE_CHARS: usize = 40;
/// The longest footer accepted, in characters.
pub const MAX_FOOTER_CHARS: usize = 80;
/// How the payer pays, printed on every sign.
pub const INSTRUCTION: &str = "Abra o app do seu banco, escolha Pix e depois Pagar com QR Code. Aponte a câmera para o código.";

/// The anti-fraud line every sign prints: the name the payer's bank app will show, which is the
/// key holder's as registered in the DICT (field 59, the code's merchant name, is not shown by
/// the payer's app). When that name is not known (a visitor's sign, a key typed without
/// registering it), the line says plainly which name to expect instead of naming one.
///
/// ```
/// assert_eq!(
///     domain::sign::anti_fraud_line(Some("Beatriz Lima")),
///     "Confira o nome do recebedor antes de confirmar: Beatriz Lima"
/// );
/// assert_eq!(
///     domain::sign::anti_fraud_line(None),
///     "Antes de confirmar, confira no app do banco o nome do titular da chave."
/// );
/// ```
pub fn anti_fraud_line(holder: Option<&str>) -> String {
    match holder.map(str::trim).filter(|h| !h.is_empty()) {
        Some(holder) => format!("Confira o nome do recebedor antes de confirmar: {holder}"),
        None => UNKNOWN_HOLDER_LINE.to_owned(),
    }
}

/// The anti-fraud line of a sign whose key holder's name is not known ([`anti_fraud_line`]).
pub const UNKNOWN_HOLDER_LINE: &str =
    "Antes de confirmar, confira no app do banco o nome do titular da chave.";

/// What a sign says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignContent {
    /// The BR Code the QR carries (the copy-and-paste string).
    pub payload: String,
    /// The recipient's name (field 59, up to 25 characters).
    pub name: String,
    /// The recipient's city (field 60, up to 15 characters).
    pub city: String,
    /// The key holder's name as the payer's bank shows it (the registered key's holder), when
    /// known; the anti-fraud line names it ([`anti_fraud_line`]).
    pub holder: Option<String>,
    /// The fixed amount, when the code has one.
    pub amount: Option<Centavos>,
    /// What the payment is for.
    pub description: Option<String>,
    /// The key as text with its type ("Chave aleatória: …"), already masked where it must be.
    pub key_line: Option<String>,
    /// The big line at the top ([`DEFAULT_HEADLINE`] unless the buyer wrote another).
    pub headline: String,
    /// A line at the bottom (opening hours, a social handle…).
    pub footer: Option<String>,
    /// The shop's logo, drawn above the headline (not on the bare code).
    pub logo: Option<logo::Logo>,
}

impl SignContent {
    /// A sign for `payload` with the default headline and nothing optional.
    pub fn new(
        payload: impl Into<String>,
        name: impl Into<String>,
        city: impl Into<String>,
    ) -> Self {
        Self {
            payload: payload.into(),
            name: name.into(),
            city: city.into(),
            holder: None,
            amount: None,
            description: None,
            key_line: None,
            headline: DEFAULT_HEADLINE.to_owned(),
            footer: None,
            logo: None,
        }
    }
}

/// Why a sign could not be laid out, or an option was not understood. The messages are pt-BR
/// and name the accepted values, for the 400 page.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SignError {
    /// `modelo=` names no template.
    #[error("O modelo \"{0}\" não existe. Use classico, faixa, moldura, minimalista ou codigo.")]
    UnknownTemplate(String),
    /// `tamanho=` names no paper size.
    #[error(
        "O tamanho \"{0}\" não existe. Use a4, a5, a6, 10x15, display-de-mesa, adesivos ou quadrado."
    )]
    UnknownSize(String),
    /// `tema=` names no theme.
    #[error("O tema \"{0}\" não existe. Use verde, azul, grafite ou vinho.")]
    UnknownTheme(String),
    /// The headline is longer than [`MAX_HEADLINE_CHARS`].
    #[error("O título pode ter até {MAX_HEADLINE_CHARS} caracteres.")]
    HeadlineTooLong,
    /// The footer is longer than [`MAX_FOOTER_CHARS`].
    #[error("O rodapé pode ter até {MAX_FOOTER_CHARS} caracteres.")]
    FooterTooLong,
    /// The payload does not fit a QR code.
    #[error("Não foi possível gerar o QR code: {0}")]
    Qr(#[from] QrError),
    /// The text left less than [`MIN_SYMBOL_MM`] for the code (never for the shipped sizes).
    #[error("O texto não deixa espaço para um QR code de 3 cm nesta folha.")]
    NoRoomForCode,
}

/// A rectangle in page millimetres, y downwards.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
}

impl Rect {
    /// Whether `other` lies within this rectangle (edges included, with a micron of slack
    /// for rounding).
    pub fn contains(&self, other: &Rect) -> bool {
        const EPS: f64 = 1e-3;
        other.x >= self.x - EPS
            && other.y >= self.y - EPS
            && other.x + other.w <= self.x + self.w + EPS
            && other.y + other.h <= self.y + self.h + EPS
    }

    /// Whether the two rectangles share any area.
    pub fn intersects(&self, other: &Rect) -> bool {
        self.x < other.x + other.w
            && other.x < self.x + self.w
            && self.y < other.y + other.h
            && other.y < self.y + self.h
    }
}

/// What a line of text on the sign is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// "Pague com Pix" or the buyer's headline.
    Headline,
    /// The recipient's name.
    Name,
    /// The recipient's city.
    City,
    /// "Valor: R$ 15,00".
    Amount,
    /// What the payment is for.
    Description,
    /// The key as text.
    Key,
    /// "Confira o nome do recebedor antes de confirmar: NOME".
    AntiFraud,
    /// How to pay.
    Instruction,
    /// The buyer's footer.
    Footer,
}

/// One line of text as laid out.
#[derive(Debug, Clone, PartialEq)]
pub struct PlacedText {
    /// What it is.
    pub role: Role,
    /// Which panel of the page (0 for single signs).
    pub panel: usize,
    /// The line.
    pub text: String,
    /// Its em size in mm.
    pub size: f64,
    /// Its ink box (advance width × ascent + descent), in page coordinates.
    pub rect: Rect,
}

/// A code as laid out.
#[derive(Debug, Clone, PartialEq)]
pub struct PlacedCode {
    /// Which panel of the page.
    pub panel: usize,
    /// The white square: the symbol plus its quiet zone, in page coordinates.
    pub rect: Rect,
    /// The printed side of the symbol without its quiet zone, in mm.
    pub symbol_mm: f64,
    /// One module's side, in mm.
    pub module_mm: f64,
}

/// A laid-out sign: the SVG (user units are millimetres) and where everything went.
#[derive(Debug, Clone, PartialEq)]
pub struct SignDocument {
    /// The SVG document.
    pub svg: String,
    /// Page width in mm.
    pub width_mm: f64,
    /// Page height in mm.
    pub height_mm: f64,
    /// The panels (one per sign face or sticker), in page coordinates.
    pub panels: Vec<Rect>,
    /// Every code on the page.
    pub codes: Vec<PlacedCode>,
    /// Every line of text on the page.
    pub texts: Vec<PlacedText>,
    /// Where each logo was drawn (one per panel that has one), in page coordinates.
    pub logos: Vec<Rect>,
}

/// Escapes text for SVG character data and attribute values.
pub(crate) fn escape_xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests;
