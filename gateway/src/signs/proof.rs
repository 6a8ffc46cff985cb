//! The proof that every sign scans: every template × paper size is rendered to PNG and to PDF,
//! the PDF is rasterised at 150 dpi by poppler's `pdftoppm` (an independent PDF reader), and
//! every code on every page is decoded by `rqrr` (an independent QR decoder); each payload
//! must pass the engine's strict validation and be the sign's code.

use std::process::Command;

use domain::brcode::{StaticCodeRequest, make_static, validate_strict};
use domain::money::Centavos;
use domain::pix_key::PixKey;
use domain::sign::{self, PaperSize, SignContent, SignDocument, SignOptions, Template, Theme};

use super::render;

fn content() -> SignContent {
    let key = PixKey::detect("123e4567-e12b-12d1-a456-426655440000").expect("key");
    let made = make_static(
        &StaticCodeRequest::new(key.clone(), "W".repeat(25), "Sao Jose dos Ca")
            .with_amount(Centavos::new(1_500))
            .with_txid("MESA07"),
    )
    .expect("code");
    let mut content = SignContent::new(made.payload, made.merchant_name, made.merchant_city);
    content.amount = Some(Centavos::new(1_500));
    content.key_line = Some(format!("Chave aleatória: {}", key.as_str()));
    content.description = Some("Almoço executivo".to_owned());
    content
}

/// Decodes every code in a greyscale image.
fn decode(width: usize, height: usize, luma: &[u8]) -> Vec<String> {
    let mut image =
        rqrr::PreparedImage::prepare_from_greyscale(width, height, |x, y| luma[y * width + x]);
    image
        .detect_grids()
        .into_iter()
        .filter_map(|grid| grid.decode().ok().map(|(_, text)| text))
        .collect()
}

fn png_luma(bytes: &[u8]) -> (usize, usize, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().expect("png header");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("png frame");
    let (w, h) = (info.width as usize, info.height as usize);
    let channels = info.color_type.samples();
    let luma = buf[..info.buffer_size()]
        .chunks_exact(channels)
        .map(|px| {
            if channels >= 3 {
                // Integer luma (BT.601), enough for black on white.
                ((u32::from(px[0]) * 299 + u32::from(px[1]) * 587 + u32::from(px[2]) * 114) / 1000)
                    as u8
            } else {
                px[0]
            }
        })
        .collect();
    (w, h, luma)
}

/// Decodes each panel of the page (a sign face, a sticker) on its own, as a phone sees one
/// sign at a time: every panel must give exactly one code.
// Millimetres to pixels: the layout is in millimetres (floats), the raster in pixels.
#[allow(
    clippy::float_arithmetic,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]
fn decode_panels(doc: &SignDocument, width: usize, height: usize, luma: &[u8]) -> Vec<Vec<String>> {
    let px = |mm: f64, total: usize, page_mm: f64| ((mm / page_mm) * total as f64).round() as usize;
    doc.panels
        .iter()
        .map(|panel| {
            let x0 = px(panel.x, width, doc.width_mm).min(width);
            let x1 = px(panel.x + panel.w, width, doc.width_mm).min(width);
            let y0 = px(panel.y, height, doc.height_mm).min(height);
            let y1 = px(panel.y + panel.h, height, doc.height_mm).min(height);
            let (w, h) = (x1 - x0, y1 - y0);
            let mut crop = Vec::with_capacity(w * h);
            for y in y0..y1 {
                crop.extend_from_slice(&luma[y * width + x0..y * width + x1]);
            }
            decode(w, h, &crop)
        })
        .collect()
}

fn assert_scans(panels: &[Vec<String>], content: &SignContent, expected: usize, what: &str) {
    assert_eq!(panels.len(), expected, "{what}: one decode per panel");
    for (i, decoded) in panels.iter().enumerate() {
        assert_eq!(
            decoded.len(),
            1,
            "{what}: panel {i} gives one code: {decoded:?}"
        );
        let payload = &decoded[0];
        assert_eq!(payload, &content.payload, "{what}");
        assert!(
            validate_strict(payload).is_ok(),
            "{what}: strict validation"
        );
    }
}

fn expected_codes(size: PaperSize) -> usize {
    match size {
        PaperSize::TableTent => 2,
        PaperSize::Stickers => 6,
        _ => 1,
    }
}

fn rasterise_pdf(pdf: &[u8], name: &str, antialias: bool) -> Vec<u8> {
    let dir = std::env::temp_dir().join(format!("balcao-signs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let input = dir.join(format!("{name}.pdf"));
    std::fs::write(&input, pdf).expect("write pdf");
    let prefix = dir.join(name);
    let aa = if antialias { "yes" } else { "no" };
    let status = Command::new("pdftoppm")
        .args([
            "-r",
            "150",
            "-gray",
            "-aa",
            aa,
            "-aaVector",
            aa,
            "-png",
            "-singlefile",
        ])
        .arg(&input)
        .arg(&prefix)
        .status()
        .expect("pdftoppm runs (Debian's poppler-utils; .ci/run installs it)");
    assert!(status.success(), "pdftoppm failed on {name}");
    let png = std::fs::read(prefix.with_extension("png")).expect("pdftoppm wrote a PNG");
    let _ = std::fs::remove_file(&input);
    let _ = std::fs::remove_file(prefix.with_extension("png"));
    png
}

/// Decodes the PDF rasterised at 150 dpi as a screen does (anti-aliased) and, for a panel
/// that rqrr misses there, as a printer does (no anti-aliasing). At 150 dpi a 0.6 mm module
/// is about 4 pixels, where rqrr's sampling is at its limit; every panel must decode from
/// one of the two rasters of the same page.
fn decode_pdf(doc: &SignDocument, pdf: &[u8], name: &str) -> (Vec<Vec<String>>, Vec<u8>) {
    let smooth = rasterise_pdf(pdf, name, true);
    let (w, h, luma) = png_luma(&smooth);
    let mut panels = decode_panels(doc, w, h, &luma);
    if panels.iter().any(Vec::is_empty) {
        let sharp = rasterise_pdf(pdf, name, false);
        let (w, h, luma) = png_luma(&sharp);
        for (panel, again) in panels.iter_mut().zip(decode_panels(doc, w, h, &luma)) {
            if panel.is_empty() {
                *panel = again;
            }
        }
    }
    (panels, smooth)
}

#[test]
fn every_template_and_size_scans_from_its_png_and_its_pdf_at_150_dpi() {
    let content = content();
    for template in Template::ALL {
        for size in PaperSize::ALL {
            let options = SignOptions {
                template,
                size,
                theme: Theme::Wine,
            };
            let what = format!("{}-{}", template.slug(), size.slug());
            let doc = sign::layout(&content, &options).expect("layout");
            let expected = expected_codes(size);

            let png = render::png(&doc, 150).expect("png");
            let (w, h, luma) = png_luma(&png);
            assert_scans(
                &decode_panels(&doc, w, h, &luma),
                &content,
                expected,
                &format!("{what}.png"),
            );

            let pdf = render::pdf(std::slice::from_ref(&doc)).expect("pdf");
            assert!(pdf.starts_with(b"%PDF-"));
            let (decoded, raster) = decode_pdf(&doc, &pdf, &what);
            // `BALCAO_SIGN_SAMPLES=/some/dir` keeps the files, to look at them.
            if let Some(dir) = std::env::var_os("BALCAO_SIGN_SAMPLES") {
                let dir = std::path::PathBuf::from(dir);
                std::fs::create_dir_all(&dir).expect("samples dir");
                std::fs::write(dir.join(format!("{what}.png")), &png).expect("write");
                std::fs::write(dir.join(format!("{what}.pdf")), &pdf).expect("write");
                std::fs::write(dir.join(format!("{what}.pdf.png")), &raster).expect("write");
            }
            assert_scans(&decoded, &content, expected, &format!("{what}.pdf"));
        }
    }
}

#[test]
fn a_300_dpi_a4_png_is_2480_by_3508_pixels_and_says_so() {
    let doc = sign::layout(&content(), &SignOptions::default()).expect("layout");
    let png_bytes = render::png(&doc, 300).expect("png");
    let decoder = png::Decoder::new(std::io::Cursor::new(&png_bytes));
    let reader = decoder.read_info().expect("png header");
    let info = reader.info();
    assert_eq!((info.width, info.height), (2480, 3508));
    let dims = info.pixel_dims.expect("pHYs");
    assert_eq!(dims.xppu, 11_811, "300 dpi in pixels per metre");
}

#[test]
fn the_pdf_page_is_the_paper_size_and_embeds_the_font() {
    let doc = sign::layout(
        &content(),
        &SignOptions {
            size: PaperSize::A5,
            ..SignOptions::default()
        },
    )
    .expect("layout");
    let pdf = render::pdf(std::slice::from_ref(&doc)).expect("pdf");
    let dir = std::env::temp_dir().join(format!("balcao-signs-info-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let file = dir.join("a5.pdf");
    std::fs::write(&file, &pdf).expect("write");
    let info = Command::new("pdfinfo")
        .arg(&file)
        .output()
        .expect("pdfinfo");
    let info = String::from_utf8_lossy(&info.stdout).to_string();
    assert!(
        info.contains("419.528 x 595.276 pts"),
        "A5 in points: {info}"
    );
    let fonts = Command::new("pdffonts")
        .arg(&file)
        .output()
        .expect("pdffonts");
    let fonts = String::from_utf8_lossy(&fonts.stdout).to_string();
    assert!(fonts.contains("DejaVuSans"), "{fonts}");
    for line in fonts.lines().skip(2) {
        assert!(line.contains(" yes "), "every font embedded: {line}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_batch_is_one_pdf_with_a_page_per_sign() {
    let doc = sign::layout(&content(), &SignOptions::default()).expect("layout");
    let docs = vec![doc; 3];
    let pdf = render::pdf(&docs).expect("pdf");
    let raster_dir =
        std::env::temp_dir().join(format!("balcao-signs-batch-{}", std::process::id()));
    std::fs::create_dir_all(&raster_dir).expect("dir");
    let file = raster_dir.join("batch.pdf");
    std::fs::write(&file, &pdf).expect("write");
    let info = Command::new("pdfinfo")
        .arg(&file)
        .output()
        .expect("pdfinfo");
    let info = String::from_utf8_lossy(&info.stdout).to_string();
    let pages = info
        .lines()
        .find_map(|l| l.strip_prefix("Pages:"))
        .map(str::trim);
    assert_eq!(pages, Some("3"), "{info}");
    let _ = std::fs::remove_dir_all(&raster_dir);
}

#[test]
fn the_svg_file_draws_text_as_paths_and_keeps_the_paper_size() {
    let doc = sign::layout(&content(), &SignOptions::default()).expect("layout");
    let svg = render::svg(&doc).expect("svg");
    assert!(svg.contains(r#"width="210mm""#) && svg.contains(r#"height="297mm""#));
    assert!(
        !svg.contains("<text"),
        "no text elements: the file needs no font"
    );
}

/// A solid red PNG of `w` × `h` pixels, as an uploaded logo.
fn red_png(w: u32, h: u32) -> Vec<u8> {
    let mut bytes = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut bytes, w, h);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().expect("header");
        let pixels: Vec<u8> = (0..w * h).flat_map(|_| [220_u8, 20, 20]).collect();
        writer.write_image_data(&pixels).expect("pixels");
    }
    bytes
}

/// The share of the logo's box (shrunk by a tenth on each side) whose grey is the red's
/// (BT.601 luma of #dc1414 ≈ 79), in a greyscale raster of the page.
#[allow(
    clippy::float_arithmetic,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss
)]
fn red_share(
    doc: &SignDocument,
    rect: &sign::Rect,
    width: usize,
    height: usize,
    luma: &[u8],
) -> f64 {
    let px = |mm: f64, total: usize, page: f64| ((mm / page) * total as f64).round() as usize;
    let (inset_w, inset_h) = (rect.w * 0.1, rect.h * 0.1);
    let x0 = px(rect.x + inset_w, width, doc.width_mm);
    let x1 = px(rect.x + rect.w - inset_w, width, doc.width_mm);
    let y0 = px(rect.y + inset_h, height, doc.height_mm);
    let y1 = px(rect.y + rect.h - inset_h, height, doc.height_mm);
    let mut red = 0_usize;
    let mut all = 0_usize;
    for y in y0..y1 {
        for x in x0..x1 {
            all += 1;
            if (55..=105).contains(&luma[y * width + x]) {
                red += 1;
            }
        }
    }
    red as f64 / all.max(1) as f64
}

#[test]
fn a_logo_is_drawn_in_the_png_the_pdf_and_the_svg_and_every_code_still_scans() {
    let svg_logo = br##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 30 10"><rect width="30" height="10" fill="#dc1414"/><script>alert(1)</script></svg>"##;
    for (what, bytes) in [("png", red_png(60, 20)), ("svg", svg_logo.to_vec())] {
        let mut content = content();
        content.logo = Some(sign::logo::Logo::check(&bytes).expect("logo"));
        for size in [PaperSize::A5, PaperSize::TableTent, PaperSize::Stickers] {
            let options = SignOptions {
                template: Template::Band,
                size,
                theme: Theme::Blue,
            };
            let name = format!("logo-{what}-{}", size.slug());
            let doc = sign::layout(&content, &options).expect("layout");
            let expected = expected_codes(size);
            // A4/A5 always print it; small panels drop it before the code would shrink.
            if size == PaperSize::A5 {
                assert_eq!(doc.logos.len(), 1, "{name}: the logo is printed");
            }

            let png = render::png(&doc, 150).expect("png");
            let (w, h, luma) = png_luma(&png);
            assert_scans(&decode_panels(&doc, w, h, &luma), &content, expected, &name);
            for logo in &doc.logos {
                let share = red_share(&doc, logo, w, h, &luma);
                assert!(
                    share > 0.9,
                    "{name}.png: the logo is drawn ({share:.2} red)"
                );
            }

            let pdf = render::pdf(std::slice::from_ref(&doc)).expect("pdf");
            let (decoded, raster) = decode_pdf(&doc, &pdf, &name);
            assert_scans(&decoded, &content, expected, &format!("{name}.pdf"));
            let (w, h, luma) = png_luma(&raster);
            for logo in &doc.logos {
                let share = red_share(&doc, logo, w, h, &luma);
                assert!(
                    share > 0.9,
                    "{name}.pdf: the logo is drawn ({share:.2} red)"
                );
            }

            let svg = render::svg(&doc).expect("svg");
            assert!(!svg.contains("script"), "{name}.svg");
            if what == "png" && !doc.logos.is_empty() {
                assert!(
                    svg.contains("data:image/png;base64,"),
                    "{name}.svg keeps the image"
                );
            }
        }
    }
}
