//! The layout: the page is cut into panels (one sign, two faces of a table tent, six stickers),
//! and each panel is a vertical stack: headline, the code, then name, city, amount,
//! description, key, the anti-fraud line, how to pay and the footer. The code gets whatever
//! height the text leaves, up to the panel's width; when that is too little, the optional
//! lines go first (how to pay, key, description, footer) and only then does the text shrink.

use std::fmt::Write as _;

use super::fit::{Fitted, Give, fit};
use super::font::{FAMILY, Weight, ascent, descent, text_width};
use super::{
    INSTRUCTION, MAX_FOOTER_CHARS, MAX_HEADLINE_CHARS, MIN_SYMBOL_MM, PaperSize, PlacedCode,
    PlacedText, Rect, Role, SignContent, SignDocument, SignError, SignOptions, Template,
    anti_fraud_line, escape_xml,
};
use crate::qr::{EcLevel, QUIET_ZONE, QrMatrix};

mod draw;
mod stack;

use draw::{draw_block, draw_code, draw_logo};
use stack::Stack;

const DARK: &str = "#1a1a1a";
const MUTED: &str = "#4d4d4d";
const LINE_HEIGHT: f64 = 1.2;
/// The space after each block below the code, as a share of the panel's base size.
const GAP: f64 = 0.014;

/// Lays out `content` with `options` into one SVG page.
///
/// ```
/// use domain::sign::{layout, PaperSize, SignContent, SignOptions, Template, Theme};
///
/// let payload = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913FULANO DE TAL6008BRASILIA62070503***63041D3D";
/// let doc = layout(
///     &SignContent::new(payload, "FULANO DE TAL", "BRASILIA"),
///     &SignOptions { template: Template::Classic, size: PaperSize::A5, theme: Theme::Green },
/// )?;
/// assert_eq!((doc.width_mm, doc.height_mm), (148.0, 210.0));
/// assert!(doc.codes[0].symbol_mm >= 30.0);
/// assert!(doc.svg.starts_with("<svg"));
/// # Ok::<(), domain::sign::SignError>(())
/// ```
pub fn layout(content: &SignContent, options: &SignOptions) -> Result<SignDocument, SignError> {
    if content.headline.chars().count() > MAX_HEADLINE_CHARS {
        return Err(SignError::HeadlineTooLong);
    }
    if content
        .footer
        .as_deref()
        .is_some_and(|f| f.chars().count() > MAX_FOOTER_CHARS)
    {
        return Err(SignError::FooterTooLong);
    }
    let matrix = QrMatrix::encode(&content.payload, EcLevel::Q)?;
    let (width, height) = options.size.page_mm();
    let mut page = Page {
        svg: String::with_capacity(32 * 1024),
        panels: Vec::new(),
        codes: Vec::new(),
        texts: Vec::new(),
        logos: Vec::new(),
        logo_href: content.logo.as_ref().map(|logo| logo.data_uri()),
    };
    let _ = write!(
        page.svg,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}mm" height="{height}mm" viewBox="0 0 {width} {height}" font-family="{FAMILY}"><rect width="{width}" height="{height}" fill="#fff"/>"##
    );
    match options.size {
        PaperSize::TableTent => {
            let half = height / 2.0;
            let upper = Rect {
                x: 0.0,
                y: 0.0,
                w: width,
                h: half,
            };
            let lower = Rect {
                x: 0.0,
                y: half,
                w: width,
                h: half,
            };
            page.panel(content, &matrix, options, upper, true)?;
            page.panel(content, &matrix, options, lower, false)?;
            let _ = write!(
                page.svg,
                r##"<line x1="0" y1="{half}" x2="{width}" y2="{half}" stroke="#9a9a9a" stroke-width="0.2" stroke-dasharray="2 2"/>"##
            );
        }
        PaperSize::Stickers => {
            let (cols, rows, w, h, gap_x, gap_y) = (2_u8, 3_u8, 90.0, 88.0, 10.0, 8.0);
            let x0 = (width - f64::from(cols) * w - f64::from(cols - 1) * gap_x) / 2.0;
            let y0 = (height - f64::from(rows) * h - f64::from(rows - 1) * gap_y) / 2.0;
            for row in 0..rows {
                for col in 0..cols {
                    let area = Rect {
                        x: x0 + f64::from(col) * (w + gap_x),
                        y: y0 + f64::from(row) * (h + gap_y),
                        w,
                        h,
                    };
                    page.panel(content, &matrix, options, area, false)?;
                    page.cut_marks(area);
                }
            }
        }
        _ => {
            let area = Rect {
                x: 0.0,
                y: 0.0,
                w: width,
                h: height,
            };
            page.panel(content, &matrix, options, area, false)?;
        }
    }
    page.svg.push_str("</svg>");
    Ok(SignDocument {
        svg: page.svg,
        width_mm: width,
        height_mm: height,
        panels: page.panels,
        codes: page.codes,
        texts: page.texts,
        logos: page.logos,
    })
}

struct Page {
    svg: String,
    panels: Vec<Rect>,
    codes: Vec<PlacedCode>,
    texts: Vec<PlacedText>,
    logos: Vec<Rect>,
    /// The logo as a data URI, encoded once for every panel.
    logo_href: Option<String>,
}

/// A block of text in the stack.
struct Block {
    role: Role,
    fitted: Fitted,
    weight: Weight,
    colour: String,
    /// Padding around the text inside a tinted box (the anti-fraud line), else 0.
    boxed: f64,
}

impl Block {
    fn height(&self) -> f64 {
        self.fitted.lines.len() as f64 * self.fitted.size * LINE_HEIGHT + 2.0 * self.boxed
    }
}

/// Which optional lines a layout attempt keeps, and how much it scales the text. The code
/// comes first: on a panel too small for both, the logo goes (after the how-to-pay line, the
/// key and the description) before the text shrinks further.
struct Attempt {
    scale: f64,
    instruction: bool,
    key: bool,
    description: bool,
    footer: bool,
    logo: bool,
}

const ATTEMPTS: [Attempt; 9] = [
    Attempt::new(1.0, true, true, true, true, true),
    Attempt::new(0.9, true, true, true, true, true),
    Attempt::new(0.9, false, true, true, true, true),
    Attempt::new(0.9, false, false, true, true, true),
    Attempt::new(0.9, false, false, false, true, true),
    Attempt::new(0.9, false, false, false, true, false),
    Attempt::new(0.9, false, false, false, false, false),
    Attempt::new(0.8, false, false, false, false, false),
    Attempt::new(0.7, false, false, false, false, false),
];

impl Attempt {
    const fn new(
        scale: f64,
        instruction: bool,
        key: bool,
        description: bool,
        footer: bool,
        logo: bool,
    ) -> Self {
        Self {
            scale,
            instruction,
            key,
            description,
            footer,
            logo,
        }
    }
}

impl Page {
    fn panel(
        &mut self,
        content: &SignContent,
        matrix: &QrMatrix,
        options: &SignOptions,
        area: Rect,
        upside_down: bool,
    ) -> Result<(), SignError> {
        let index = self.panels.len();
        self.panels.push(area);
        let mut svg = String::with_capacity(16 * 1024);
        let mut texts = Vec::new();
        let mut logos = Vec::new();
        let code = if options.template == Template::CodeOnly {
            // The quiet zone is the margin: the white square fills the panel's short side.
            let side = area.w.min(area.h);
            let rect = Rect {
                x: area.x + (area.w - side) / 2.0,
                y: area.y + (area.h - side) / 2.0,
                w: side,
                h: side,
            };
            draw_code(&mut svg, matrix, rect, index)
        } else {
            self.sign_panel(
                &mut svg, &mut texts, &mut logos, content, matrix, options, area, index,
            )?
        };
        if upside_down {
            let (cx, cy) = (area.x + area.w / 2.0, area.y + area.h / 2.0);
            let _ = write!(self.svg, r#"<g transform="rotate(180 {cx} {cy})">"#);
            self.svg.push_str(&svg);
            self.svg.push_str("</g>");
            let flip = |r: Rect| Rect {
                x: 2.0 * cx - r.x - r.w,
                y: 2.0 * cy - r.y - r.h,
                w: r.w,
                h: r.h,
            };
            self.codes.push(PlacedCode {
                rect: flip(code.rect),
                ..code
            });
            self.texts.extend(texts.into_iter().map(|t| PlacedText {
                rect: flip(t.rect),
                ..t
            }));
            self.logos.extend(logos.into_iter().map(flip));
        } else {
            self.svg.push_str(&svg);
            self.codes.push(code);
            self.texts.extend(texts);
            self.logos.extend(logos);
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn sign_panel(
        &self,
        svg: &mut String,
        texts: &mut Vec<PlacedText>,
        logos: &mut Vec<Rect>,
        content: &SignContent,
        matrix: &QrMatrix,
        options: &SignOptions,
        area: Rect,
        index: usize,
    ) -> Result<PlacedCode, SignError> {
        let theme = options.theme;
        let template = options.template;
        let base = area.w.min(area.h / 1.42);
        let margin = (base * 0.07).max(4.0);
        let frame_inset = margin * 0.45;
        let side_margin = if template == Template::Frame {
            margin * 1.35
        } else {
            margin
        };
        let inner_w = area.w - 2.0 * side_margin;
        let modules = matrix.width_with_quiet_zone() as f64;
        let symbol_share = matrix.width() as f64 / modules;
        // Small panels (stickers, the square) give the code a bigger share: a phone reads a
        // sticker from close up, but a 3 cm code with 0.6 mm modules is at the edge of what
        // worn print and cheap cameras resolve.
        let short = area.w.min(area.h);
        let share = if short < 100.0 { 0.45 } else { 0.35 };
        let target_symbol = MIN_SYMBOL_MM.max(share * short);
        if area.w > area.h * 1.2 {
            let logo = self.logo_href.as_deref();
            return landscape_panel(
                svg, texts, logos, logo, content, matrix, options, area, index, base,
            );
        }

        let mut chosen = None;
        for attempt in &ATTEMPTS {
            let stack = Stack::build(content, options, base * attempt.scale, inner_w, attempt);
            let fixed = stack.height(base * attempt.scale);
            let avail = area.h - 2.0 * side_margin - fixed;
            let side = inner_w.min(avail);
            let good = side * symbol_share >= target_symbol;
            let last = std::ptr::eq(attempt, &ATTEMPTS[ATTEMPTS.len() - 1]);
            if good || last {
                if side * symbol_share < MIN_SYMBOL_MM {
                    return Err(SignError::NoRoomForCode);
                }
                chosen = Some((stack, side, avail - side, base * attempt.scale));
                break;
            }
        }
        let Some((stack, side, extra, scaled)) = chosen else {
            return Err(SignError::NoRoomForCode);
        };

        // Decoration first, so it lies behind everything.
        let primary = theme.primary();
        let cx = area.x + area.w / 2.0;
        let mut y = area.y + side_margin;
        let code_gap = scaled * 0.03;
        match template {
            Template::Band => {
                let band_h = side_margin + stack.above_height();
                let _ = write!(
                    svg,
                    r#"<rect x="{}" y="{}" width="{}" height="{band_h:.3}" fill="{primary}"/>"#,
                    area.x, area.y, area.w
                );
                y = area.y + side_margin * 0.5;
            }
            Template::Frame => {
                let stroke = (base * 0.014).max(0.8);
                let _ = write!(
                    svg,
                    r#"<rect x="{:.3}" y="{:.3}" width="{:.3}" height="{:.3}" rx="{:.3}" fill="{}" stroke="{primary}" stroke-width="{stroke:.3}"/>"#,
                    area.x + frame_inset,
                    area.y + frame_inset,
                    area.w - 2.0 * frame_inset,
                    area.h - 2.0 * frame_inset,
                    base * 0.04,
                    theme.tint(),
                );
            }
            _ => {}
        }
        // The spare height goes around the code, a little to the very top and bottom.
        let above_gap = extra * 0.3;
        if template != Template::Band {
            y += extra * 0.15;
        }
        if let (Some(href), Some(size)) = (self.logo_href.as_deref(), stack.logo) {
            y = draw_logo(
                svg,
                logos,
                href,
                size,
                cx,
                y,
                scaled,
                template == Template::Band,
            );
        }
        for block in &stack.above {
            y = draw_block(svg, texts, block, cx, y, inner_w, 0.0, theme.tint(), index);
        }
        if template == Template::Classic {
            let rule_w = inner_w * 0.35;
            let _ = write!(
                svg,
                r#"<rect x="{:.3}" y="{:.3}" width="{rule_w:.3}" height="{:.3}" fill="{primary}"/>"#,
                cx - rule_w / 2.0,
                y + code_gap * 0.4,
                (scaled * 0.008).max(0.4),
            );
        }
        y += code_gap + above_gap;
        let code_rect = Rect {
            x: cx - side / 2.0,
            y,
            w: side,
            h: side,
        };
        let code = draw_code(svg, matrix, code_rect, index);
        y += side + code_gap + extra * 0.3;
        for block in &stack.below {
            y = draw_block(
                svg,
                texts,
                block,
                cx,
                y,
                inner_w,
                scaled * GAP,
                theme.tint(),
                index,
            );
        }
        Ok(code)
    }

    /// Crop marks just outside each corner, so the sticker sheet can be cut along them.
    fn cut_marks(&mut self, area: Rect) {
        const OFFSET: f64 = 1.0;
        const LEN: f64 = 3.0;
        self.svg
            .push_str(r##"<path fill="none" stroke="#000" stroke-width="0.15" d=""##);
        for (x, dx) in [(area.x, -1.0), (area.x + area.w, 1.0)] {
            for (y, dy) in [(area.y, -1.0), (area.y + area.h, 1.0)] {
                let _ = write!(
                    self.svg,
                    "M{:.2} {y:.2}h{:.2}M{x:.2} {:.2}v{:.2}",
                    x + dx * OFFSET,
                    dx * LEN,
                    y + dy * OFFSET,
                    dy * LEN
                );
            }
        }
        self.svg.push_str(r#""/>"#);
    }
}

/// A landscape panel (a table tent's face): the code on the left as tall as the panel allows,
/// the text in a column on the right, centred vertically.
#[allow(clippy::too_many_arguments)]
fn landscape_panel(
    svg: &mut String,
    texts: &mut Vec<PlacedText>,
    logos: &mut Vec<Rect>,
    logo_href: Option<&str>,
    content: &SignContent,
    matrix: &QrMatrix,
    options: &SignOptions,
    area: Rect,
    index: usize,
    base: f64,
) -> Result<PlacedCode, SignError> {
    let theme = options.theme;
    let template = options.template;
    let margin = (base * 0.07).max(4.0);
    let margin = if template == Template::Frame {
        margin * 1.35
    } else {
        margin
    };
    let side = (area.h - 2.0 * margin).min(area.w * 0.48);
    let column_x = area.x + 2.0 * margin + side;
    let column_w = area.x + area.w - margin - column_x;
    let room = area.h - 2.0 * margin;
    let mut chosen = None;
    for attempt in &ATTEMPTS {
        let scaled = base * attempt.scale;
        let stack = Stack::build(content, options, scaled, column_w, attempt);
        let height = stack.height(scaled) - 2.0 * scaled * 0.03 + scaled * 0.03;
        let last = std::ptr::eq(attempt, &ATTEMPTS[ATTEMPTS.len() - 1]);
        if height <= room || last {
            chosen = Some((stack, height, scaled));
            break;
        }
    }
    let Some((stack, height, scaled)) = chosen else {
        return Err(SignError::NoRoomForCode);
    };
    let primary = theme.primary();
    let cx = column_x + column_w / 2.0;
    let mut y = area.y + margin + ((room - height) / 2.0).max(0.0);
    match template {
        Template::Band => {
            y = area.y + margin * 0.5;
            let band_h = margin + stack.above_height();
            let _ = write!(
                svg,
                r#"<rect x="{:.3}" y="{}" width="{:.3}" height="{band_h:.3}" fill="{primary}"/>"#,
                column_x - margin * 0.5,
                area.y,
                area.x + area.w - (column_x - margin * 0.5),
            );
        }
        Template::Frame => {
            let inset = margin / 1.35 * 0.45;
            let stroke = (base * 0.014).max(0.8);
            let _ = write!(
                svg,
                r#"<rect x="{:.3}" y="{:.3}" width="{:.3}" height="{:.3}" rx="{:.3}" fill="{}" stroke="{primary}" stroke-width="{stroke:.3}"/>"#,
                area.x + inset,
                area.y + inset,
                area.w - 2.0 * inset,
                area.h - 2.0 * inset,
                base * 0.04,
                theme.tint(),
            );
        }
        _ => {}
    }
    if let (Some(href), Some(size)) = (logo_href, stack.logo) {
        y = draw_logo(
            svg,
            logos,
            href,
            size,
            cx,
            y,
            scaled,
            template == Template::Band,
        );
    }
    for block in &stack.above {
        y = draw_block(svg, texts, block, cx, y, column_w, 0.0, theme.tint(), index);
    }
    if template == Template::Classic {
        let rule_w = column_w * 0.35;
        let _ = write!(
            svg,
            r#"<rect x="{:.3}" y="{:.3}" width="{rule_w:.3}" height="{:.3}" fill="{primary}"/>"#,
            cx - rule_w / 2.0,
            y + scaled * 0.012,
            (scaled * 0.008).max(0.4),
        );
    }
    y += scaled * 0.03;
    for block in &stack.below {
        y = draw_block(
            svg,
            texts,
            block,
            cx,
            y,
            column_w,
            scaled * GAP,
            theme.tint(),
            index,
        );
    }
    let code_rect = Rect {
        x: area.x + margin,
        y: area.y + (area.h - side) / 2.0,
        w: side,
        h: side,
    };
    let code = draw_code(svg, matrix, code_rect, index);
    if code.symbol_mm < MIN_SYMBOL_MM {
        return Err(SignError::NoRoomForCode);
    }
    Ok(code)
}
