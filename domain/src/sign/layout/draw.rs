//! Writing the SVG: a block of text lines, the logo, the QR code's modules.

use super::stack::LOGO_GAP;
use super::*;

/// Draws a block centred on `cx` from `top`; returns the y below it (plus the gap).
#[allow(clippy::too_many_arguments)]
pub(super) fn draw_block(
    svg: &mut String,
    texts: &mut Vec<PlacedText>,
    block: &Block,
    cx: f64,
    top: f64,
    inner_w: f64,
    gap: f64,
    tint: &str,
    panel: usize,
) -> f64 {
    let size = block.fitted.size;
    if block.boxed > 0.0 {
        let _ = write!(
            svg,
            r#"<rect x="{:.3}" y="{top:.3}" width="{inner_w:.3}" height="{:.3}" rx="{:.3}" fill="{tint}"/>"#,
            cx - inner_w / 2.0,
            block.height(),
            block.boxed,
        );
    }
    let weight_attr = match block.weight {
        Weight::Bold => r#" font-weight="bold""#,
        Weight::Regular => "",
    };
    let (asc, desc) = (ascent(block.weight), descent(block.weight));
    let line_h = size * LINE_HEIGHT;
    // Centre the ink (ascent + descent) in each line box.
    let lead = (line_h - (asc + desc) * size) / 2.0;
    let mut y = top + block.boxed;
    for line in &block.fitted.lines {
        let baseline = y + lead + asc * size;
        let width = text_width(line, block.weight, size);
        let _ = write!(
            svg,
            r#"<text x="{cx:.3}" y="{baseline:.3}" font-size="{size:.3}"{weight_attr} fill="{}" text-anchor="middle">{}</text>"#,
            block.colour,
            escape_xml(line),
        );
        texts.push(PlacedText {
            role: block.role,
            panel,
            text: line.clone(),
            size,
            rect: Rect {
                x: cx - width / 2.0,
                y: baseline - asc * size,
                w: width,
                h: (asc + desc) * size,
            },
        });
        y += line_h;
    }
    top + block.height() + gap
}

/// Draws the logo centred on `cx` from `top` at `size` (width, height), letterboxed within
/// it; on a coloured band, on a white rounded card. Returns the y below it and its gap.
#[allow(clippy::too_many_arguments)]
pub(super) fn draw_logo(
    svg: &mut String,
    logos: &mut Vec<Rect>,
    href: &str,
    (w, h): (f64, f64),
    cx: f64,
    top: f64,
    base: f64,
    on_band: bool,
) -> f64 {
    let rect = Rect {
        x: cx - w / 2.0,
        y: top,
        w,
        h,
    };
    if on_band {
        let pad = h * 0.08;
        let _ = write!(
            svg,
            r##"<rect x="{:.3}" y="{:.3}" width="{:.3}" height="{:.3}" rx="{:.3}" fill="#fff"/>"##,
            rect.x - pad,
            rect.y - pad,
            rect.w + 2.0 * pad,
            rect.h + 2.0 * pad,
            pad,
        );
    }
    let _ = write!(
        svg,
        r#"<image x="{:.3}" y="{:.3}" width="{:.3}" height="{:.3}" preserveAspectRatio="xMidYMid meet" href="{href}"/>"#,
        rect.x, rect.y, rect.w, rect.h,
    );
    logos.push(rect);
    top + h + base * LOGO_GAP
}

/// Draws the code in `rect` (the white square, quiet zone included): one path of dark runs.
pub(super) fn draw_code(
    svg: &mut String,
    matrix: &QrMatrix,
    rect: Rect,
    panel: usize,
) -> PlacedCode {
    let modules = matrix.width_with_quiet_zone();
    let module = rect.w / modules as f64;
    let quiet = QUIET_ZONE as f64 * module;
    let _ = write!(
        svg,
        r##"<rect x="{:.4}" y="{:.4}" width="{:.4}" height="{:.4}" fill="#fff"/><path transform="translate({:.4} {:.4}) scale({:.5})" fill="#000" shape-rendering="crispEdges" d=""##,
        rect.x,
        rect.y,
        rect.w,
        rect.h,
        rect.x + quiet,
        rect.y + quiet,
        module,
    );
    let width = matrix.width();
    for y in 0..width {
        let mut x = 0;
        while x < width {
            if !matrix.is_dark(x, y) {
                x += 1;
                continue;
            }
            let start = x;
            while x < width && matrix.is_dark(x, y) {
                x += 1;
            }
            // Each run reaches a hair (2 % of a module) into the row below, so anti-aliasing
            // PDF readers leave no pale seam between rows of dark modules.
            let _ = write!(svg, "M{start} {y}h{}v1.02h-{}z", x - start, x - start);
        }
    }
    svg.push_str(r#""/>"#);
    PlacedCode {
        panel,
        rect,
        symbol_mm: module * width as f64,
        module_mm: module,
    }
}
