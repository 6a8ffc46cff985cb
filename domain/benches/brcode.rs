//! Speed of the BR Code engine: making a payload (normalisation + TLV + CRC), parsing it, and
//! making it plus its QR matrix plus the SVG. Targets on the 2-core reference machine: make
//! < 2 µs, parse < 3 µs, make + QR + SVG < 50 µs (medians). Results: notes/bench-domain.md.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use domain::brcode::{self, StaticCodeRequest};
use domain::money::Centavos;
use domain::pix_key::PixKey;
use domain::qr::{EcLevel, QrMatrix};

/// A typical counter sign: random key, accented name and city, amount and txid.
fn request() -> StaticCodeRequest {
    StaticCodeRequest::new(
        PixKey::detect("123e4567-e12b-12d1-a456-426655440000").expect("a valid key"),
        "Padaria São João",
        "São Paulo",
    )
    .with_amount(Centavos::new(1_250))
    .with_txid("PEDIDO42")
}

fn benches(c: &mut Criterion) {
    let request = request();
    let payload = brcode::make_static(&request)
        .expect("a valid request")
        .payload;

    c.bench_function("brcode/make_static (normalise + TLV + CRC)", |b| {
        b.iter(|| brcode::make_static(black_box(&request)))
    });
    c.bench_function("brcode/crc16 of the payload", |b| {
        b.iter(|| brcode::crc::crc16(black_box(payload.as_bytes())))
    });
    c.bench_function("brcode/parse (lenient)", |b| {
        b.iter(|| brcode::parse(black_box(&payload)))
    });
    c.bench_function("brcode/validate_strict", |b| {
        b.iter(|| brcode::validate_strict(black_box(&payload)))
    });
    c.bench_function("brcode/make_static + QR (M) + SVG", |b| {
        b.iter(|| {
            let made = brcode::make_static(black_box(&request)).expect("valid");
            QrMatrix::encode(&made.payload, EcLevel::M)
                .expect("fits")
                .to_svg()
        })
    });
    c.bench_function("qr/encode (M)", |b| {
        b.iter(|| QrMatrix::encode(black_box(&payload), EcLevel::M))
    });
    let qr = QrMatrix::encode(&payload, EcLevel::M).expect("fits");
    c.bench_function("qr/to_svg", |b| b.iter(|| black_box(&qr).to_svg()));
    c.bench_function("qr/to_png 512 px", |b| {
        b.iter(|| black_box(&qr).to_png(512))
    });
}

criterion_group!(brcode_benches, benches);
criterion_main!(brcode_benches);
