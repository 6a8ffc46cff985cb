//! The shop's logo on a sign: what an uploaded file must be, and the SVG it becomes.
//!
//! A logo is PNG, JPEG or SVG, at most [`MAX_LOGO_BYTES`], and of the type its **bytes** say
//! (the file name and the declared type are not trusted). An SVG is parsed (no DTD, so no
//! entities) and written back with drawing elements only: no `<script>`, no `<foreignObject>`,
//! no `<style>`, no `<image>`, no links, no event attributes (`on…`), and no reference that
//! leaves the file (`href` and `url(…)` may only point at `#ids` inside it). What is left is
//! drawn by the layout ([`super::layout`]) from a base64 data URI, so rendering never reads
//! anything from disk or network.
//!
//! ```
//! use domain::sign::logo::{Logo, LogoFormat};
//!
//! let svg = br#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100"><script>alert(1)</script><rect width="200" height="100" fill="red" onclick="x()"/></svg>"#;
//! let logo = Logo::check(svg)?;
//! assert_eq!(logo.format(), LogoFormat::Svg);
//! let clean = String::from_utf8(logo.bytes().to_vec()).unwrap();
//! assert!(!clean.contains("script") && !clean.contains("onclick"));
//! assert_eq!(logo.aspect_milli(), 2000);
//! # Ok::<(), domain::sign::logo::LogoError>(())
//! ```

use base64::Engine as _;

/// The largest logo accepted, in bytes (2 MiB).
pub const MAX_LOGO_BYTES: usize = 2 * 1024 * 1024;

/// The widest and the tallest logo the layout draws, as width ÷ height in thousandths: a logo
/// outside 1:5 … 5:1 is drawn within these proportions (letterboxed, never distorted).
const ASPECT_RANGE: (u32, u32) = (200, 5_000);

/// A logo format Balcão accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogoFormat {
    /// `image/png`: starts with the 8-byte PNG signature.
    Png,
    /// `image/jpeg`: starts `FF D8 FF`.
    Jpeg,
    /// `image/svg+xml`: an XML document whose root is `<svg>` in the SVG namespace.
    Svg,
}

impl LogoFormat {
    /// The media type stored and served.
    pub fn mime(self) -> &'static str {
        match self {
            LogoFormat::Png => "image/png",
            LogoFormat::Jpeg => "image/jpeg",
            LogoFormat::Svg => "image/svg+xml",
        }
    }

    /// The file extension.
    pub fn extension(self) -> &'static str {
        match self {
            LogoFormat::Png => "png",
            LogoFormat::Jpeg => "jpg",
            LogoFormat::Svg => "svg",
        }
    }

    /// The format the bytes are, by their content alone.
    pub fn sniff(bytes: &[u8]) -> Option<LogoFormat> {
        if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
            return Some(LogoFormat::Png);
        }
        if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
            return Some(LogoFormat::Jpeg);
        }
        let text = std::str::from_utf8(bytes).ok()?;
        let text = text.trim_start_matches('\u{feff}').trim_start();
        (text.starts_with('<') && text.contains("<svg")).then_some(LogoFormat::Svg)
    }
}

/// Why an uploaded logo was refused. The messages are pt-BR, for the dashboard.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum LogoError {
    /// Nothing was sent.
    #[error("Escolha um arquivo de imagem para o logotipo.")]
    Empty,
    /// Over [`MAX_LOGO_BYTES`].
    #[error("O logotipo passa de 2 MB. Escolha uma imagem menor.")]
    TooLarge,
    /// The bytes are not PNG, JPEG or SVG (whatever the name or the declared type said).
    #[error("O arquivo não é uma imagem PNG, JPEG ou SVG. Envie o logotipo num desses formatos.")]
    UnsupportedType,
    /// PNG or JPEG whose header cannot be read.
    #[error("Não foi possível ler a imagem {0}. Salve-a de novo e tente outra vez.")]
    Unreadable(&'static str),
    /// An SVG that does not parse, or has no size.
    #[error("Não foi possível ler o SVG: {0}")]
    BadSvg(String),
}

/// A checked logo: its format, its bytes (an SVG already sanitised) and its proportions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Logo {
    format: LogoFormat,
    bytes: Vec<u8>,
    aspect_milli: u32,
}

impl Logo {
    /// Checks an uploaded file: size, type by content, readable dimensions; an SVG is
    /// sanitised.
    ///
    /// # Errors
    ///
    /// [`LogoError`], whose message says what to do.
    pub fn check(bytes: &[u8]) -> Result<Logo, LogoError> {
        if bytes.is_empty() {
            return Err(LogoError::Empty);
        }
        if bytes.len() > MAX_LOGO_BYTES {
            return Err(LogoError::TooLarge);
        }
        let format = LogoFormat::sniff(bytes).ok_or(LogoError::UnsupportedType)?;
        let (bytes, (w, h)) = match format {
            LogoFormat::Png => (
                bytes.to_vec(),
                png_size(bytes).ok_or(LogoError::Unreadable("PNG"))?,
            ),
            LogoFormat::Jpeg => (
                bytes.to_vec(),
                jpeg_size(bytes).ok_or(LogoError::Unreadable("JPEG"))?,
            ),
            LogoFormat::Svg => {
                let text = std::str::from_utf8(bytes)
                    .map_err(|_| LogoError::BadSvg("o arquivo não está em UTF-8.".to_owned()))?;
                let (clean, size) = sanitize_svg(text)?;
                (clean.into_bytes(), size)
            }
        };
        if !(w > 0.0 && h > 0.0 && w.is_finite() && h.is_finite()) {
            return Err(LogoError::BadSvg(
                "a imagem não tem largura e altura.".to_owned(),
            ));
        }
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let aspect = ((w / h) * 1000.0).round().clamp(1.0, 1e9) as u32;
        Ok(Logo {
            format,
            bytes,
            aspect_milli: aspect,
        })
    }

    /// The format.
    pub fn format(&self) -> LogoFormat {
        self.format
    }

    /// The bytes as stored and drawn (an SVG sanitised).
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Width ÷ height, in thousandths.
    pub fn aspect_milli(&self) -> u32 {
        self.aspect_milli
    }

    /// The proportions the layout draws it at (within 1:5 … 5:1).
    pub fn drawn_aspect(&self) -> f64 {
        f64::from(self.aspect_milli.clamp(ASPECT_RANGE.0, ASPECT_RANGE.1)) / 1000.0
    }

    /// `data:{mime};base64,…`, for the layout's `<image>`.
    pub fn data_uri(&self) -> String {
        format!(
            "data:{};base64,{}",
            self.format.mime(),
            base64::engine::general_purpose::STANDARD.encode(&self.bytes)
        )
    }
}

/// A PNG's width and height from its IHDR chunk.
fn png_size(bytes: &[u8]) -> Option<(f64, f64)> {
    if bytes.len() < 24 || &bytes[12..16] != b"IHDR" {
        return None;
    }
    let w = u32::from_be_bytes(bytes[16..20].try_into().ok()?);
    let h = u32::from_be_bytes(bytes[20..24].try_into().ok()?);
    Some((f64::from(w), f64::from(h)))
}

/// A JPEG's width and height from its first start-of-frame marker.
fn jpeg_size(bytes: &[u8]) -> Option<(f64, f64)> {
    let mut i = 2;
    while i + 4 <= bytes.len() {
        if bytes[i] != 0xFF {
            return None;
        }
        let marker = bytes[i + 1];
        if marker == 0xFF {
            i += 1;
            continue;
        }
        let len = usize::from(u16::from_be_bytes([bytes[i + 2], bytes[i + 3]]));
        let is_sof = matches!(marker, 0xC0..=0xCF) && !matches!(marker, 0xC4 | 0xC8 | 0xCC);
        if is_sof {
            let at = i + 5;
            let h = u16::from_be_bytes([*bytes.get(at)?, *bytes.get(at + 1)?]);
            let w = u16::from_be_bytes([*bytes.get(at + 2)?, *bytes.get(at + 3)?]);
            return Some((f64::from(w), f64::from(h)));
        }
        i += 2 + len;
    }
    None
}

const SVG_NS: &str = "http://www.w3.org/2000/svg";
const XLINK_NS: &str = "http://www.w3.org/1999/xlink";

/// The elements a logo may keep: shapes, text, grouping, gradients, clipping and masks.
const ALLOWED_ELEMENTS: &[&str] = &[
    "svg",
    "g",
    "defs",
    "title",
    "desc",
    "symbol",
    "use",
    "path",
    "rect",
    "circle",
    "ellipse",
    "line",
    "polyline",
    "polygon",
    "text",
    "tspan",
    "linearGradient",
    "radialGradient",
    "stop",
    "clipPath",
    "mask",
    "pattern",
];

/// Parses `text` and writes back only what `ALLOWED_ELEMENTS` and the attribute rules keep;
/// returns the clean SVG and its width and height (from `viewBox`, else `width`/`height`).
///
/// # Errors
///
/// [`LogoError::BadSvg`] when it does not parse (a DTD included), its root is not an SVG
/// `<svg>`, or it has no size.
pub fn sanitize_svg(text: &str) -> Result<(String, (f64, f64)), LogoError> {
    let doc = roxmltree::Document::parse(text).map_err(|e| {
        LogoError::BadSvg(match e {
            roxmltree::Error::DtdDetected => "declarações DOCTYPE não são aceitas.".to_owned(),
            _ => "o arquivo não é um XML válido.".to_owned(),
        })
    })?;
    let root = doc.root_element();
    if root.tag_name().name() != "svg" || root.tag_name().namespace() != Some(SVG_NS) {
        return Err(LogoError::BadSvg(
            "o elemento principal não é um <svg>.".to_owned(),
        ));
    }
    let size = svg_size(&root).ok_or_else(|| {
        LogoError::BadSvg("informe viewBox ou largura e altura no <svg>.".to_owned())
    })?;
    let mut out = String::with_capacity(text.len());
    write_element(&mut out, root, true);
    Ok((out, size))
}

fn svg_size(root: &roxmltree::Node<'_, '_>) -> Option<(f64, f64)> {
    if let Some(view_box) = root.attribute("viewBox") {
        let numbers: Vec<f64> = view_box
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|s| !s.is_empty())
            .filter_map(|s| s.parse().ok())
            .collect();
        if let [_, _, w, h] = numbers[..]
            && w > 0.0
            && h > 0.0
        {
            return Some((w, h));
        }
    }
    let length = |name| {
        root.attribute(name)
            .map(|v: &str| v.trim().trim_end_matches("px"))
            .and_then(|v| v.parse::<f64>().ok())
            .filter(|v| *v > 0.0)
    };
    Some((length("width")?, length("height")?))
}

/// Whether a reference stays inside the file (`#id`).
fn is_local_reference(value: &str) -> bool {
    value.trim().starts_with('#')
}

/// Whether every `url(…)` in `value` points at an `#id`.
fn urls_are_local(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    let mut rest = lower.as_str();
    while let Some(at) = rest.find("url(") {
        let inner = rest[at + 4..].trim_start().trim_start_matches(['"', '\'']);
        if !inner.starts_with('#') {
            return false;
        }
        rest = &rest[at + 4..];
    }
    true
}

fn keep_attribute(attribute: &roxmltree::Attribute<'_, '_>) -> Option<String> {
    let name = attribute.name();
    let value = attribute.value();
    let lower = name.to_ascii_lowercase();
    if lower.starts_with("on") {
        return None;
    }
    match attribute.namespace() {
        None => {}
        Some(XLINK_NS) if name == "href" => {
            return is_local_reference(value).then(|| "xlink:href".to_owned());
        }
        // xml:space and friends are harmless; any other namespace is dropped.
        Some("http://www.w3.org/XML/1998/namespace") => return Some(format!("xml:{name}")),
        Some(_) => return None,
    }
    if name == "href" && !is_local_reference(value) {
        return None;
    }
    if !urls_are_local(value) {
        return None;
    }
    if lower == "style"
        && (value.contains('@') || value.to_ascii_lowercase().contains("expression"))
    {
        return None;
    }
    Some(name.to_owned())
}

fn write_element(out: &mut String, node: roxmltree::Node<'_, '_>, root: bool) {
    let name = node.tag_name().name();
    out.push('<');
    out.push_str(name);
    if root {
        out.push_str(
            r#" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink""#,
        );
    }
    for attribute in node.attributes() {
        if let Some(kept) = keep_attribute(&attribute) {
            out.push(' ');
            out.push_str(&kept);
            out.push_str("=\"");
            out.push_str(&super::escape_xml(attribute.value()));
            out.push('"');
        }
    }
    out.push('>');
    for child in node.children() {
        if child.is_element() {
            let allowed = child.tag_name().namespace() == Some(SVG_NS)
                && ALLOWED_ELEMENTS.contains(&child.tag_name().name());
            if allowed {
                write_element(out, child, false);
            }
        } else if child.is_text()
            && let Some(text) = child.text()
        {
            out.push_str(&super::escape_xml(text));
        }
    }
    out.push_str("</");
    out.push_str(name);
    out.push('>');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(w: u32, h: u32) -> Vec<u8> {
        let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
        bytes.extend_from_slice(&w.to_be_bytes());
        bytes.extend_from_slice(&h.to_be_bytes());
        bytes.extend_from_slice(&[8, 6, 0, 0, 0]);
        bytes
    }

    fn clean(svg: &str) -> String {
        String::from_utf8(
            Logo::check(svg.as_bytes())
                .expect("accepted")
                .bytes()
                .to_vec(),
        )
        .expect("utf-8")
    }

    #[test]
    fn the_type_comes_from_the_bytes_not_from_the_name() {
        assert_eq!(LogoFormat::sniff(&png(1, 1)), Some(LogoFormat::Png));
        assert_eq!(
            LogoFormat::sniff(&[0xFF, 0xD8, 0xFF, 0xE0]),
            Some(LogoFormat::Jpeg)
        );
        assert_eq!(
            LogoFormat::sniff(b"<?xml version=\"1.0\"?><svg/>"),
            Some(LogoFormat::Svg)
        );
        assert_eq!(LogoFormat::sniff(b"GIF89a"), None);
        assert_eq!(LogoFormat::sniff(b"<html><body>oi</body></html>"), None);
        assert_eq!(
            Logo::check(b"%PDF-1.7 not a logo"),
            Err(LogoError::UnsupportedType)
        );
    }

    #[test]
    fn a_png_logo_keeps_its_proportions_and_a_jpeg_reads_its_frame_size() {
        let logo = Logo::check(&png(400, 100)).expect("png");
        assert_eq!(
            (logo.format(), logo.aspect_milli()),
            (LogoFormat::Png, 4000)
        );
        // SOI, an APP0 of 16 bytes, then SOF0: precision 8, height 50, width 150.
        let mut jpeg = vec![0xFF, 0xD8, 0xFF, 0xE0, 0, 16];
        jpeg.extend_from_slice(&[0; 14]);
        jpeg.extend_from_slice(&[0xFF, 0xC0, 0, 17, 8, 0, 50, 0, 150, 3]);
        let logo = Logo::check(&jpeg).expect("jpeg");
        assert_eq!(
            (logo.format(), logo.aspect_milli()),
            (LogoFormat::Jpeg, 3000)
        );
        assert_eq!(
            Logo::check(&[0xFF, 0xD8, 0xFF]),
            Err(LogoError::Unreadable("JPEG"))
        );
    }

    #[test]
    fn empty_and_oversized_files_are_refused_with_their_reason() {
        assert_eq!(Logo::check(b""), Err(LogoError::Empty));
        let mut big = png(10, 10);
        big.resize(MAX_LOGO_BYTES + 1, 0);
        assert_eq!(Logo::check(&big), Err(LogoError::TooLarge));
        assert!(LogoError::TooLarge.to_string().contains("2 MB"));
    }

    #[test]
    fn scripts_foreign_objects_styles_and_event_handlers_are_removed() {
        let out = clean(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50" onload="steal()">
                <script>alert(1)</script>
                <style>@import url(https://example.com/x.css);</style>
                <foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml">oi</div></foreignObject>
                <circle cx="5" cy="5" r="4" fill="blue" onclick="x()" OnMouseOver="y()"/>
                <text x="1" y="40">Loja &amp; Cia</text>
            </svg>"#,
        );
        for gone in [
            "script",
            "alert",
            "style",
            "@import",
            "foreignObject",
            "onload",
            "onclick",
            "OnMouseOver",
            "div",
        ] {
            assert!(!out.contains(gone), "{gone} left in {out}");
        }
        assert!(
            out.contains(r#"<circle cx="5" cy="5" r="4" fill="blue">"#),
            "{out}"
        );
        assert!(out.contains("Loja &amp; Cia"), "{out}");
    }

    #[test]
    fn references_outside_the_file_are_removed_and_local_ones_kept() {
        let out = clean(
            r##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">
                <defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient></defs>
                <image href="https://example.com/tracker.png" width="10" height="10"/>
                <a href="javascript:alert(1)"><rect width="5" height="5"/></a>
                <use xlink:href="https://example.com/sprite.svg#x"/>
                <use href="#g"/>
                <rect width="10" height="10" fill="url(#g)"/>
                <rect width="10" height="10" fill="url(https://example.com/p.svg#x)" style="fill: url('http://x/y')"/>
            </svg>"##,
        );
        for gone in ["example.com", "javascript", "<image", "<a ", "http://x"] {
            assert!(!out.contains(gone), "{gone} left in {out}");
        }
        assert!(out.contains(r##"<use href="#g">"##), "{out}");
        assert!(out.contains(r##"fill="url(#g)""##), "{out}");
    }

    #[test]
    fn a_doctype_or_a_root_that_is_not_svg_is_refused() {
        let entity = r#"<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg" width="1" height="1">&x;</svg>"#;
        assert!(
            matches!(Logo::check(entity.as_bytes()), Err(LogoError::BadSvg(m)) if m.contains("DOCTYPE"))
        );
        let html = r#"<svg><html xmlns="http://www.w3.org/1999/xhtml"/></svg>"#;
        assert!(matches!(
            Logo::check(html.as_bytes()),
            Err(LogoError::BadSvg(_))
        ));
        let sizeless =
            r#"<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>"#;
        assert!(
            matches!(Logo::check(sizeless.as_bytes()), Err(LogoError::BadSvg(m)) if m.contains("viewBox"))
        );
    }

    #[test]
    fn the_data_uri_carries_the_type_and_the_bytes() {
        let logo = Logo::check(&png(2, 1)).expect("png");
        assert!(
            logo.data_uri()
                .starts_with("data:image/png;base64,iVBORw0KGgo")
        );
        assert!((logo.drawn_aspect() - 2.0).abs() < 1e-9);
        let tall = Logo::check(&png(1, 100)).expect("png");
        assert!((tall.drawn_aspect() - 0.2).abs() < 1e-9);
    }
}
