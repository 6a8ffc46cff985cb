//! What a sign's buyer chooses: the design ([`Template`]), the paper ([`PaperSize`]) and the
//! colours ([`Theme`]), each with the slug the URLs use (`?modelo=faixa&tamanho=a5&tema=azul`).

use std::fmt;
use std::str::FromStr;

use super::SignError;

/// A sign design. Every design prints the same facts (headline, code, name, city, amount,
/// anti-fraud line, how to pay); they differ in decoration only. [`Template::CodeOnly`] is the
/// bare code, for the dashboard's plain QR download.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Template {
    /// Coloured headline over a thin rule; the rest in dark text on white.
    Classic,
    /// A coloured band across the top holding the headline in white.
    Band,
    /// A coloured rounded frame around the whole sign.
    Frame,
    /// Dark text only, no colour but the theme's accent on the amount.
    Minimal,
    /// The code alone, as large as the page allows, with its quiet zone.
    CodeOnly,
}

impl Template {
    /// Every template, in the order the sign creator lists them.
    pub const ALL: [Template; 5] = [
        Template::Classic,
        Template::Band,
        Template::Frame,
        Template::Minimal,
        Template::CodeOnly,
    ];

    /// The URL slug (`modelo=`).
    pub fn slug(self) -> &'static str {
        match self {
            Template::Classic => "classico",
            Template::Band => "faixa",
            Template::Frame => "moldura",
            Template::Minimal => "minimalista",
            Template::CodeOnly => "codigo",
        }
    }

    /// The pt-BR label shown in forms.
    pub fn label(self) -> &'static str {
        match self {
            Template::Classic => "Clássico",
            Template::Band => "Faixa",
            Template::Frame => "Moldura",
            Template::Minimal => "Minimalista",
            Template::CodeOnly => "Só o QR code",
        }
    }
}

impl FromStr for Template {
    type Err = SignError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.trim().to_ascii_lowercase();
        Template::ALL
            .into_iter()
            .find(|t| t.slug() == wanted)
            .ok_or_else(|| SignError::UnknownTemplate(s.to_owned()))
    }
}

impl fmt::Display for Template {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.slug())
    }
}

/// The paper a sign is printed on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PaperSize {
    /// 210 × 297 mm: wall or door poster.
    A4,
    /// 148 × 210 mm: the common counter display.
    A5,
    /// 105 × 148 mm: small counter or table display.
    A6,
    /// 100 × 150 mm: photo paper, acrylic photo displays.
    Photo10x15,
    /// A4 folded across the middle into a table tent: two faces, the upper one printed upside
    /// down so both read upright once folded.
    TableTent,
    /// A4 sheet of six 90 × 88 mm stickers with cut marks.
    Stickers,
    /// 80 × 80 mm: a single square, the natural page for the bare code.
    Square,
}

impl PaperSize {
    /// Every size, in the order the sign creator lists them.
    pub const ALL: [PaperSize; 7] = [
        PaperSize::A4,
        PaperSize::A5,
        PaperSize::A6,
        PaperSize::Photo10x15,
        PaperSize::TableTent,
        PaperSize::Stickers,
        PaperSize::Square,
    ];

    /// The URL slug (`tamanho=`).
    pub fn slug(self) -> &'static str {
        match self {
            PaperSize::A4 => "a4",
            PaperSize::A5 => "a5",
            PaperSize::A6 => "a6",
            PaperSize::Photo10x15 => "10x15",
            PaperSize::TableTent => "display-de-mesa",
            PaperSize::Stickers => "adesivos",
            PaperSize::Square => "quadrado",
        }
    }

    /// The pt-BR label shown in forms.
    pub fn label(self) -> &'static str {
        match self {
            PaperSize::A4 => "A4 (21 × 29,7 cm)",
            PaperSize::A5 => "A5 (14,8 × 21 cm)",
            PaperSize::A6 => "A6 (10,5 × 14,8 cm)",
            PaperSize::Photo10x15 => "Foto 10 × 15 cm",
            PaperSize::TableTent => "Display de mesa (A4 dobrada)",
            PaperSize::Stickers => "Adesivos (6 por folha A4)",
            PaperSize::Square => "Quadrado 8 × 8 cm",
        }
    }

    /// The sheet's width and height in millimetres, portrait.
    pub fn page_mm(self) -> (f64, f64) {
        match self {
            PaperSize::A4 | PaperSize::TableTent | PaperSize::Stickers => (210.0, 297.0),
            PaperSize::A5 => (148.0, 210.0),
            PaperSize::A6 => (105.0, 148.0),
            PaperSize::Photo10x15 => (100.0, 150.0),
            PaperSize::Square => (80.0, 80.0),
        }
    }

    /// The CSS `@page size` value for the print page.
    pub fn css_page_size(self) -> &'static str {
        match self {
            PaperSize::A4 | PaperSize::TableTent | PaperSize::Stickers => "A4",
            PaperSize::A5 => "A5",
            PaperSize::A6 => "A6",
            PaperSize::Photo10x15 => "100mm 150mm",
            PaperSize::Square => "80mm 80mm",
        }
    }
}

impl FromStr for PaperSize {
    type Err = SignError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.trim().to_ascii_lowercase();
        PaperSize::ALL
            .into_iter()
            .find(|p| p.slug() == wanted)
            .ok_or_else(|| SignError::UnknownSize(s.to_owned()))
    }
}

impl fmt::Display for PaperSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.slug())
    }
}

/// A colour theme. The code itself is always black on white, whatever the theme: contrast is
/// what makes it scan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Theme {
    /// Deep teal.
    #[default]
    Green,
    /// Navy blue.
    Blue,
    /// Graphite: prints well on black-and-white printers.
    Graphite,
    /// Wine red.
    Wine,
}

impl Theme {
    /// Every theme.
    pub const ALL: [Theme; 4] = [Theme::Green, Theme::Blue, Theme::Graphite, Theme::Wine];

    /// The URL slug (`tema=`).
    pub fn slug(self) -> &'static str {
        match self {
            Theme::Green => "verde",
            Theme::Blue => "azul",
            Theme::Graphite => "grafite",
            Theme::Wine => "vinho",
        }
    }

    /// The pt-BR label shown in forms.
    pub fn label(self) -> &'static str {
        match self {
            Theme::Green => "Verde",
            Theme::Blue => "Azul",
            Theme::Graphite => "Grafite",
            Theme::Wine => "Vinho",
        }
    }

    /// The strong colour (headline, band, frame), dark enough for white text on it.
    pub fn primary(self) -> &'static str {
        match self {
            Theme::Green => "#0b6e64",
            Theme::Blue => "#1d4e89",
            Theme::Graphite => "#2b2b2b",
            Theme::Wine => "#7a1f3d",
        }
    }

    /// The pale tint (panel backgrounds behind text, never behind the code).
    pub fn tint(self) -> &'static str {
        match self {
            Theme::Green => "#e3f2f0",
            Theme::Blue => "#e8eef7",
            Theme::Graphite => "#efefef",
            Theme::Wine => "#f6e9ee",
        }
    }
}

impl FromStr for Theme {
    type Err = SignError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.trim().to_ascii_lowercase();
        Theme::ALL
            .into_iter()
            .find(|t| t.slug() == wanted)
            .ok_or_else(|| SignError::UnknownTheme(s.to_owned()))
    }
}

impl fmt::Display for Theme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.slug())
    }
}

/// The three choices together.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SignOptions {
    /// The design.
    pub template: Template,
    /// The paper.
    pub size: PaperSize,
    /// The colours.
    pub theme: Theme,
}

impl Default for SignOptions {
    fn default() -> Self {
        Self {
            template: Template::Classic,
            size: PaperSize::A4,
            theme: Theme::Green,
        }
    }
}
