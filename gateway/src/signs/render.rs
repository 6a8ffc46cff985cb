//! From the layout's SVG to the three formats. Pure CPU work with no I/O: the handlers run it
//! on the blocking pool under the render permits (see [`super::limit`]).
//!
//! * **SVG:** the layout parsed by usvg (text set in the bundled DejaVu Sans) and written back
//!   with every glyph as a path, so the file looks the same on a machine without the font.
//! * **PDF:** vector, one page per sign, the font embedded and subset (svg2pdf), the page the
//!   sign's paper size exactly.
//! * **PNG:** rasterised by resvg at the requested dpi on white, RGB, with the dpi recorded in
//!   the file (`pHYs`) so image viewers and print dialogs know its printed size.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use domain::sign::{SignDocument, font};
use pdf_writer::{Content, Finish, Name, Pdf, Rect, Ref};
use resvg::tiny_skia;
use usvg::{ImageHrefResolver, Options, Tree, WriteOptions, fontdb};

/// The lowest dpi a PNG may be asked for.
pub const MIN_DPI: u32 = 72;
/// The highest dpi a PNG may be asked for (an A4 at 600 dpi is about 35 megapixels).
pub const MAX_DPI: u32 = 600;
/// The dpi a PNG gets when none is asked for: print quality.
pub const DEFAULT_DPI: u32 = 300;

/// usvg's user unit: CSS pixels, 96 to the inch.
const CSS_DPI: f32 = 96.0;

/// Why rendering failed. Never the caller's input (the layout made the SVG): a bug.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// usvg refused the layout's SVG.
    #[error("the sign's SVG does not parse: {0}")]
    Svg(#[from] usvg::Error),
    /// svg2pdf failed.
    #[error("PDF conversion failed: {0}")]
    Pdf(String),
    /// The raster would be empty or too large.
    #[error("no pixmap of {0}×{1} pixels")]
    Pixmap(u32, u32),
    /// Writing the PNG failed.
    #[error("PNG encoding failed: {0}")]
    Png(#[from] png::EncodingError),
}

/// The parse options every sign shares: the bundled font only, and `<image>` only from a data
/// URI of a PNG, a JPEG or an SVG (the logo the layout embeds; an embedded SVG may not load
/// images of its own). Nothing is ever read from disk or network.
fn options() -> &'static Options<'static> {
    static OPTIONS: OnceLock<Options<'static>> = OnceLock::new();
    OPTIONS.get_or_init(|| {
        let mut db = fontdb::Database::new();
        db.load_font_data(font::REGULAR.to_vec());
        db.load_font_data(font::BOLD.to_vec());
        db.set_sans_serif_family(font::FAMILY);
        Options {
            font_family: font::FAMILY.to_owned(),
            fontdb: Arc::new(db),
            image_href_resolver: ImageHrefResolver {
                resolve_data: {
                    let default = ImageHrefResolver::default_data_resolver();
                    Box::new(move |mime, data, options| match mime {
                        "image/png" | "image/jpeg" | "image/svg+xml" => {
                            default(mime, data, options)
                        }
                        _ => None,
                    })
                },
                resolve_string: Box::new(|_, _| None),
            },
            ..Options::default()
        }
    })
}

/// Parses a laid-out sign.
pub fn tree(doc: &SignDocument) -> Result<Tree, RenderError> {
    Ok(Tree::from_str(&doc.svg, options())?)
}

/// The sign as a standalone SVG file: text drawn as paths, sized in millimetres.
pub fn svg(doc: &SignDocument) -> Result<String, RenderError> {
    let written = tree(doc)?.to_string(&WriteOptions::default());
    // usvg writes the size in CSS pixels; put the paper size back so the file prints true.
    Ok(with_mm_size(&written, doc.width_mm, doc.height_mm))
}

fn with_mm_size(svg: &str, width_mm: f64, height_mm: f64) -> String {
    let Some(start) = svg.find("<svg") else {
        return svg.to_owned();
    };
    let Some(end) = svg[start..].find('>') else {
        return svg.to_owned();
    };
    let head = &svg[start..start + end];
    let mut new_head = String::with_capacity(head.len() + 16);
    for (i, part) in head.split(' ').enumerate() {
        if i > 0 {
            new_head.push(' ');
        }
        if part.starts_with("width=\"") {
            new_head.push_str(&format!("width=\"{width_mm}mm\""));
        } else if part.starts_with("height=\"") {
            new_head.push_str(&format!("height=\"{height_mm}mm\""));
        } else {
            new_head.push_str(part);
        }
    }
    format!("{}{new_head}{}", &svg[..start], &svg[start + end..])
}

/// One PDF with one page per sign, each page the sign's paper size.
pub fn pdf(docs: &[SignDocument]) -> Result<Vec<u8>, RenderError> {
    let mut alloc = Ref::new(1);
    let catalog_id = alloc.bump();
    let tree_id = alloc.bump();
    let mut pdf = Pdf::new();
    let mut page_ids = Vec::with_capacity(docs.len());
    for doc in docs {
        let tree = tree(doc)?;
        let (chunk, form) = svg2pdf::to_chunk(&tree, svg2pdf::ConversionOptions::default())
            .map_err(|e| RenderError::Pdf(e.to_string()))?;
        let mut renumbered = HashMap::new();
        let chunk = chunk.renumber(|old| *renumbered.entry(old).or_insert_with(|| alloc.bump()));
        let form = renumbered
            .get(&form)
            .copied()
            .ok_or_else(|| RenderError::Pdf("the page's form was not renumbered".to_owned()))?;
        let page_id = alloc.bump();
        let content_id = alloc.bump();
        let (w, h) = (points(doc.width_mm), points(doc.height_mm));
        let name = Name(b"S1");
        let mut page = pdf.page(page_id);
        page.media_box(Rect::new(0.0, 0.0, w, h));
        page.parent(tree_id);
        page.contents(content_id);
        page.resources().x_objects().pair(name, form);
        page.finish();
        let mut content = Content::new();
        // svg2pdf's form is the unit square; stretch it over the page.
        content.transform([w, 0.0, 0.0, h, 0.0, 0.0]).x_object(name);
        pdf.stream(content_id, &content.finish());
        pdf.extend(&chunk);
        page_ids.push(page_id);
    }
    pdf.catalog(catalog_id).pages(tree_id);
    let count = i32::try_from(page_ids.len()).unwrap_or(i32::MAX);
    pdf.pages(tree_id).kids(page_ids).count(count);
    Ok(pdf.finish())
}

/// Millimetres to PDF points.
fn points(mm: f64) -> f32 {
    // Page sizes are a few hundred millimetres: f32 holds them to far below a micron.
    #[allow(clippy::cast_possible_truncation, clippy::float_arithmetic)]
    let pt = (mm * 72.0 / 25.4) as f32;
    pt
}

/// The sign as a PNG at `dpi` (the caller bounds it to [`MIN_DPI`]..=[`MAX_DPI`]).
#[allow(clippy::float_arithmetic)]
pub fn png(doc: &SignDocument, dpi: u32) -> Result<Vec<u8>, RenderError> {
    let tree = tree(doc)?;
    // dpi ≤ 600 and the page ≤ A4: both fit f32 exactly enough.
    #[allow(clippy::cast_precision_loss)]
    let scale = dpi as f32 / CSS_DPI;
    let size = tree.size();
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let (w, h) = (
        (size.width() * scale).round() as u32,
        (size.height() * scale).round() as u32,
    );
    let mut pixmap = tiny_skia::Pixmap::new(w, h).ok_or(RenderError::Pixmap(w, h))?;
    pixmap.fill(tiny_skia::Color::WHITE);
    #[allow(clippy::cast_precision_loss)]
    let (sx, sy) = (w as f32 / size.width(), h as f32 / size.height());
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(sx, sy),
        &mut pixmap.as_mut(),
    );
    // Opaque white background: premultiplied RGBA is plain RGBA, and alpha carries nothing.
    let rgb: Vec<u8> = pixmap
        .data()
        .chunks_exact(4)
        .flat_map(|px| [px[0], px[1], px[2]])
        .collect();
    let mut out = Vec::with_capacity(rgb.len() / 8);
    {
        let mut encoder = png::Encoder::new(&mut out, w, h);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_compression(png::Compression::Fast);
        // Pixels per metre, rounded: 300 dpi is 11811.
        let ppm = (u64::from(dpi) * 10_000 + 127) / 254;
        let ppm = u32::try_from(ppm).unwrap_or(u32::MAX);
        encoder.set_pixel_dims(Some(png::PixelDimensions {
            xppu: ppm,
            yppu: ppm,
            unit: png::Unit::Meter,
        }));
        let mut writer = encoder.write_header()?;
        writer.write_image_data(&rgb)?;
        writer.finish()?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_svg_head_gets_the_paper_size_in_millimetres() {
        let svg =
            r#"<svg width="793.7" height="1122.5" viewBox="0 0 210 297" xmlns="x"><g/></svg>"#;
        let out = with_mm_size(svg, 210.0, 297.0);
        assert!(out.starts_with(r#"<svg width="210mm" height="297mm" viewBox="0 0 210 297""#));
        assert!(out.ends_with("<g/></svg>"));
    }

    #[test]
    fn an_a4_page_is_595_by_842_points() {
        assert!((points(210.0) - 595.276).abs() < 0.01);
        assert!((points(297.0) - 841.89).abs() < 0.01);
    }
}
