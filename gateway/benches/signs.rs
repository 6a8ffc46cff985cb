//! Sign rendering speed: one A4 PDF (target < 20 ms), one A4 PNG at 300 dpi, and a batch of
//! 50 signs (each its own code and txid) in one PDF (target < 1 s). Layout included, as a
//! request pays it.

use criterion::{Criterion, criterion_group, criterion_main};
use domain::brcode::{StaticCodeRequest, make_static};
use domain::money::Centavos;
use domain::pix_key::PixKey;
use domain::sign::{self, SignContent, SignOptions};
use gateway::signs::render;

fn content(txid: &str) -> SignContent {
    let key = PixKey::detect("123e4567-e12b-12d1-a456-426655440000").expect("key");
    let made = make_static(
        &StaticCodeRequest::new(key.clone(), "Loja da Ana", "Natal")
            .with_amount(Centavos::new(1_500))
            .with_txid(txid),
    )
    .expect("code");
    let mut content = SignContent::new(made.payload, made.merchant_name, made.merchant_city);
    content.amount = Some(Centavos::new(1_500));
    content.key_line = Some(format!("Chave aleatória: {}", key.as_str()));
    content
}

fn signs(c: &mut Criterion) {
    let one = content("MESA01");
    let options = SignOptions::default();
    // Parse the bundled fonts once, as the first request of a running server does.
    let warm = sign::layout(&one, &options).expect("layout");
    render::pdf(std::slice::from_ref(&warm)).expect("pdf");

    c.bench_function("sign_a4_pdf", |b| {
        b.iter(|| {
            let doc = sign::layout(&one, &options).expect("layout");
            render::pdf(std::slice::from_ref(&doc)).expect("pdf")
        });
    });

    let mut group = c.benchmark_group("sign_slow");
    group.sample_size(10);
    group.bench_function("sign_a4_png_300dpi", |b| {
        b.iter(|| {
            let doc = sign::layout(&one, &options).expect("layout");
            render::png(&doc, 300).expect("png")
        });
    });
    let batch: Vec<SignContent> = (1..=50).map(|n| content(&format!("MESA{n:02}"))).collect();
    group.bench_function("sign_batch_50_pdf", |b| {
        b.iter(|| {
            let docs: Vec<_> = batch
                .iter()
                .map(|c| sign::layout(c, &options).expect("layout"))
                .collect();
            render::pdf(&docs).expect("pdf")
        });
    });
    group.finish();
}

criterion_group!(benches, signs);
criterion_main!(benches);
