//! The recorded comparison behind the choice of QR encoder: the `qrcode` crate, `fast_qr` and
//! Balcão's own encoder (`domain::qr`), on the same BR Code at level M. Results:
//! notes/bench-domain.md.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};

const PAYLOAD: &str = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865406\
                       12.505802BR5916PADARIA SAO JOAO6009SAO PAULO62120508PEDIDO426304E5C3";

fn encoders(c: &mut Criterion) {
    c.bench_function("encoder/qrcode 0.14 (M)", |b| {
        b.iter(|| {
            qrcode::QrCode::with_error_correction_level(black_box(PAYLOAD), qrcode::EcLevel::M)
        })
    });
    c.bench_function("encoder/fast_qr 0.14 (M)", |b| {
        b.iter(|| {
            fast_qr::QRBuilder::new(black_box(PAYLOAD))
                .ecl(fast_qr::ECL::M)
                .build()
        })
    });
    c.bench_function("encoder/domain::qr (M)", |b| {
        b.iter(|| domain::qr::QrMatrix::encode(black_box(PAYLOAD), domain::qr::EcLevel::M))
    });
}

criterion_group!(encoder_benches, encoders);
criterion_main!(encoder_benches);
