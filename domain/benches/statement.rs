//! Speed of statement import's pure part (issue 35): reading a 100,000-line OFX (SGML, Windows-1252)
//! and a 100,000-line CSV, and reconciling 100,000 Pix credits against 100,000 recorded payments
//! and 1,000 codes. Results: BENCHMARKS.md, "Statement import".

use std::hint::black_box;

use chrono::{DateTime, Duration, FixedOffset};
use criterion::{Criterion, criterion_group, criterion_main};
use domain::money::Centavos;
use domain::statement::reconcile::{Book, CandidateCode, RecordedPayment, Rules, reconcile};
use domain::statement::{brasilia, parse};

const LINES: usize = 100_000;

fn start() -> DateTime<FixedOffset> {
    DateTime::parse_from_rfc3339("2024-01-01T08:00:00-03:00").expect("a valid instant")
}

/// Line `i`: every 5 minutes from 1 January, amounts cycling through 1,000 values, one in ten a
/// debit.
fn line(i: usize) -> (DateTime<FixedOffset>, i64) {
    let at = start() + Duration::minutes(5 * i as i64);
    let amount = 100 + (i % 1000) as i64 * 7;
    (at, if i % 10 == 9 { -amount } else { amount })
}

fn ofx() -> Vec<u8> {
    let mut text = String::from(
        "OFXHEADER:100\r\nDATA:OFXSGML\r\nVERSION:102\r\nCHARSET:1252\r\n\r\n<OFX>\r\n<BANKMSGSRSV1><STMTTRNRS><STMTRS>\r\n<BANKACCTFROM>\r\n<BANKID>001\r\n<ACCTID>12345-6\r\n</BANKACCTFROM>\r\n<BANKTRANLIST>\r\n",
    );
    for i in 0..LINES {
        let (at, amount) = line(i);
        let memo = if amount > 0 {
            "Pix - Recebido Padaria São João"
        } else {
            "Pagamento de boleto"
        };
        text.push_str(&format!(
            "<STMTTRN>\r\n<TRNTYPE>{}\r\n<DTPOSTED>{}[-3:BRT]\r\n<TRNAMT>{},{:02}\r\n<FITID>{i:08}\r\n<MEMO>{memo}\r\n</STMTTRN>\r\n",
            if amount > 0 { "CREDIT" } else { "DEBIT" },
            at.with_timezone(&brasilia()).format("%Y%m%d%H%M%S"),
            amount / 100,
            amount.abs() % 100,
        ));
    }
    text.push_str("</BANKTRANLIST>\r\n</STMTRS></STMTTRNRS></BANKMSGSRSV1>\r\n</OFX>\r\n");
    encoding_1252(&text)
}

/// The text as Windows-1252 (its only non-ASCII character here is "ã").
fn encoding_1252(text: &str) -> Vec<u8> {
    text.chars()
        .map(|c| if c == 'ã' { 0xe3 } else { c as u8 })
        .collect()
}

fn csv() -> Vec<u8> {
    let mut text = String::from("Data Lançamento;Histórico;Descrição;Valor;Saldo\n");
    for i in 0..LINES {
        let (at, amount) = line(i);
        text.push_str(&format!(
            "{};{};\"Cp :00000000-Fulano de Tal\";{}{},{:02};1.000,00\n",
            at.with_timezone(&brasilia()).format("%d/%m/%Y"),
            if amount > 0 {
                "Pix recebido"
            } else {
                "Pix enviado"
            },
            if amount < 0 { "-" } else { "" },
            amount.abs() / 100,
            amount.abs() % 100,
        ));
    }
    text.into_bytes()
}

/// Half the credits already recorded by the webhook, a minute after the statement's time;
/// 1,000 fixed-amount codes and one open-amount sign.
fn book() -> Book {
    let payments = (0..LINES)
        .filter(|i| i % 2 == 0 && line(*i).1 > 0)
        .map(|i| {
            let (at, amount) = line(i);
            RecordedPayment {
                reference: format!("E{i:031}"),
                amount: Centavos::new(amount.unsigned_abs()),
                paid_at: at + Duration::minutes(1),
                pix_key: None,
                end_to_end_id: Some(format!("E{i:031}")),
                from_statement: false,
                statement_lines: Vec::new(),
            }
        })
        .collect();
    let mut codes: Vec<CandidateCode> = (0..1000)
        .map(|k| CandidateCode {
            id: format!("qr-{k}"),
            txid: None,
            amount: Some(Centavos::new(100 + k * 7)),
            pix_key: None,
            created_at: start(),
            valid_until: None,
            single_use: false,
        })
        .collect();
    codes.push(CandidateCode {
        id: "sign".into(),
        txid: None,
        amount: None,
        pix_key: None,
        created_at: start(),
        valid_until: None,
        single_use: false,
    });
    Book {
        codes,
        payments,
        statement_keys: Vec::new(),
    }
}

fn benches(c: &mut Criterion) {
    let ofx = ofx();
    let csv = csv();
    let statement = parse(&ofx).expect("the generated OFX reads");
    assert_eq!(statement.lines.len(), LINES);
    assert_eq!(
        parse(&csv).expect("the generated CSV reads").lines.len(),
        LINES
    );
    let book = book();

    let mut group = c.benchmark_group("statement");
    group.sample_size(10);
    group.bench_function("parse OFX SGML 1252, 100k lines", |b| {
        b.iter(|| parse(black_box(&ofx)))
    });
    group.bench_function("parse CSV (Inter), 100k lines", |b| {
        b.iter(|| parse(black_box(&csv)))
    });
    group.bench_function("reconcile 90k Pix credits, 45k payments, 1k codes", |b| {
        b.iter(|| reconcile(black_box(&statement), black_box(&book), Rules::default()))
    });
    group.finish();
}

criterion_group!(statement_benches, benches);
criterion_main!(statement_benches);
