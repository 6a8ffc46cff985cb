//! Rendered QR codes are read back with an independent decoder (`rqrr`) from the PNG bytes and
//! must give the payload back exactly.

use std::io::Cursor;

use domain::brcode::{self, DynamicCodeRequest, StaticCodeRequest};
use domain::money::Centavos;
use domain::pix_key::PixKey;
use domain::qr::{self, EcLevel, QrMatrix};

/// Decodes a PNG into 8-bit greyscale, then finds and decodes every QR symbol in it.
fn read_png(png_bytes: &[u8]) -> Vec<String> {
    let mut decoder = png::Decoder::new(Cursor::new(png_bytes));
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().expect("a PNG header");
    let mut buf = vec![0; reader.output_buffer_size().expect("a buffer size")];
    let info = reader.next_frame(&mut buf).expect("one frame");
    assert_eq!(info.color_type, png::ColorType::Grayscale);
    let (w, h) = (info.width as usize, info.height as usize);
    let stride = info.line_size;
    let mut image = rqrr::PreparedImage::prepare_from_greyscale(w, h, |x, y| buf[y * stride + x]);
    image
        .detect_grids()
        .into_iter()
        .map(|grid| grid.decode().expect("a readable grid").1)
        .collect()
}

fn payloads() -> Vec<String> {
    let key = PixKey::detect("123e4567-e12b-12d1-a456-426655440000").expect("a key");
    let long = StaticCodeRequest::new(key.clone(), "Padaria Pão Quente", "São Paulo")
        .with_amount(Centavos::new(123_456))
        .with_txid("PEDIDO123456789")
        .with_info("Pedido de pães e doces")
        .with_postal_code("01310-100");
    vec![
        brcode::make_static(&StaticCodeRequest::new(key, "Fulano de Tal", "Brasília"))
            .unwrap()
            .payload,
        brcode::make_static(&long).unwrap().payload,
        brcode::make_dynamic(&DynamicCodeRequest::new(
            "pix.example.com/qr/v2/cobv/1e6c54d3ec9449b7a7fc53b6b0f998e7",
            "Fulano de Tal",
            "Brasília",
        ))
        .unwrap()
        .payload,
    ]
}

#[test]
fn a_png_at_the_minimum_size_reads_back_as_the_payload_at_both_levels() {
    for payload in payloads() {
        for level in [EcLevel::M, EcLevel::Q] {
            let qr = QrMatrix::encode(&payload, level).unwrap();
            let png = qr.to_png(qr.min_png_size()).unwrap();
            assert_eq!(read_png(&png), vec![payload.clone()], "{level:?}");
        }
    }
}

#[test]
fn the_decoder_reads_the_level_and_version_we_asked_for() {
    let payload = &payloads()[0];
    for (level, ecc_bits) in [(EcLevel::M, 0), (EcLevel::Q, 3)] {
        let qr = QrMatrix::encode(payload, level).unwrap();
        let png = qr.to_png(qr.min_png_size()).unwrap();
        let (meta, text) = decode_meta(&png);
        // rqrr reports the two format bits as stored: M = 00, Q = 11.
        assert_eq!(
            (meta.ecc_level, meta.version.0, text.as_str()),
            (ecc_bits, usize::from(qr.version()), payload.as_str())
        );
    }
}

fn decode_meta(png_bytes: &[u8]) -> (rqrr::MetaData, String) {
    let mut decoder = png::Decoder::new(Cursor::new(png_bytes));
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let stride = info.line_size;
    let mut image = rqrr::PreparedImage::prepare_from_greyscale(
        info.width as usize,
        info.height as usize,
        |x, y| buf[y * stride + x],
    );
    let grids = image.detect_grids();
    assert_eq!(grids.len(), 1);
    grids[0].decode().unwrap()
}

#[test]
fn a_png_whose_size_is_not_a_multiple_of_the_modules_still_reads_back() {
    for payload in payloads() {
        let png = qr::png(&payload, EcLevel::M, 513).unwrap();
        assert_eq!(read_png(&png), vec![payload]);
    }
}

#[test]
fn a_png_is_exactly_the_size_asked_for() {
    let png = qr::png("000201", EcLevel::M, 301).unwrap();
    let decoder = png::Decoder::new(Cursor::new(&png[..]));
    let reader = decoder.read_info().unwrap();
    assert_eq!((reader.info().width, reader.info().height), (301, 301));
}

#[test]
fn the_svg_matrix_is_the_one_the_png_shows() {
    // Rasterise the SVG path ourselves (1 pixel per module ×4) and decode it with rqrr too.
    for payload in payloads() {
        let qr = QrMatrix::encode(&payload, EcLevel::Q).unwrap();
        let svg = qr.to_svg();
        let side = qr.width_with_quiet_zone();
        let scale = 4;
        let mut dark = vec![false; side * side];
        let d = svg
            .split(" d=\"")
            .nth(1)
            .unwrap()
            .trim_end_matches("\"/></svg>");
        for rect in d.split('z').filter(|s| !s.is_empty()) {
            let rect = rect.trim_start_matches('M');
            let (xy, rest) = rect.split_once('h').unwrap();
            let (x, y) = xy.split_once(' ').unwrap();
            let (x, y): (usize, usize) = (x.parse().unwrap(), y.parse().unwrap());
            let len: usize = rest.split_once('v').unwrap().0.parse().unwrap();
            for dx in 0..len {
                dark[y * side + x + dx] = true;
            }
        }
        let px = side * scale;
        let mut image = rqrr::PreparedImage::prepare_from_greyscale(px, px, |x, y| {
            if dark[(y / scale) * side + x / scale] {
                0
            } else {
                255
            }
        });
        let decoded: Vec<String> = image
            .detect_grids()
            .into_iter()
            .map(|g| g.decode().unwrap().1)
            .collect();
        assert_eq!(decoded, vec![payload]);
    }
}

#[test]
fn codes_of_every_width_class_read_back_with_the_mask_we_chose() {
    // One-, two- and three-word lines (versions up to 11, up to 27, and beyond), with and
    // without version information (versions 7 and up).
    for (len, level) in [
        (10, EcLevel::M),
        (120, EcLevel::Q),
        (400, EcLevel::M),
        (1200, EcLevel::Q),
    ] {
        let payload: String = (0..len)
            .map(|i| char::from(b"Pix0123456789abc"[i % 16]))
            .collect();
        let qr = QrMatrix::encode(&payload, level).unwrap();
        let side = qr.width_with_quiet_zone();
        let scale = 3;
        let mut image =
            rqrr::PreparedImage::prepare_from_greyscale(side * scale, side * scale, |x, y| {
                let (mx, my) = ((x / scale).checked_sub(4), (y / scale).checked_sub(4));
                match (mx, my) {
                    (Some(mx), Some(my)) if qr.is_dark(mx, my) => 0,
                    _ => 255,
                }
            });
        let grids = image.detect_grids();
        assert_eq!(grids.len(), 1, "v{}", qr.version());
        let (meta, text) = grids[0].decode().unwrap();
        assert_eq!(text, payload);
        assert_eq!(
            (meta.version.0, meta.mask),
            (usize::from(qr.version()), u16::from(qr.mask()))
        );
    }
}
