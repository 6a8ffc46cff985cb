//! Given the account's codes and payments, when a statement is reconciled, then each Pix
//! credit gets the decision the Proof asks for.

use chrono::{DateTime, FixedOffset};

use super::{
    Book, CandidateCode, Confidence, Decision, RecordedPayment, Rules, line_key, reconcile,
};
use crate::money::Centavos;
use crate::statement::{Statement, parse};

/// An OFX statement of Pix credits: (DTPOSTED, TRNAMT, FITID, MEMO).
fn statement(lines: &[(&str, &str, &str, &str)]) -> Statement {
    let mut ofx = String::from(
        "OFXHEADER:100\n\n<OFX><BANKACCTFROM><BANKID>341<ACCTID>1-2</BANKACCTFROM><BANKTRANLIST>\n",
    );
    for (posted, amount, fitid, memo) in lines {
        ofx.push_str(&format!(
            "<STMTTRN>\n<TRNTYPE>CREDIT\n<DTPOSTED>{posted}\n<TRNAMT>{amount}\n<FITID>{fitid}\n<MEMO>{memo}\n</STMTTRN>\n"
        ));
    }
    ofx.push_str("</BANKTRANLIST></OFX>");
    parse(ofx.as_bytes()).unwrap()
}

fn at(text: &str) -> DateTime<FixedOffset> {
    DateTime::parse_from_rfc3339(text).unwrap()
}

fn code(id: &str, amount: Option<u64>, txid: Option<&str>) -> CandidateCode {
    CandidateCode {
        id: id.to_owned(),
        txid: txid.map(str::to_owned),
        amount: amount.map(Centavos::new),
        pix_key: Some("loja@example.com".to_owned()),
        created_at: at("2024-03-01T08:00:00-03:00"),
        valid_until: None,
        single_use: false,
    }
}

fn webhook_payment(reference: &str, amount: u64, paid_at: &str) -> RecordedPayment {
    RecordedPayment {
        reference: reference.to_owned(),
        amount: Centavos::new(amount),
        paid_at: at(paid_at),
        pix_key: Some("loja@example.com".to_owned()),
        end_to_end_id: Some(reference.to_owned()),
        from_statement: false,
        statement_lines: Vec::new(),
    }
}

fn decisions(statement: &Statement, book: &Book) -> Vec<Decision> {
    reconcile(statement, book, Rules::default())
        .into_iter()
        .map(|r| r.decision)
        .collect()
}

#[test]
fn a_line_carrying_a_codes_txid_matches_it_exactly() {
    // Given two codes of R$ 12,50, one with txid PEDIDO42
    let book = Book {
        codes: vec![
            code("qr-a", Some(1250), Some("PEDIDO41")),
            code("qr-b", Some(1250), Some("PEDIDO42")),
        ],
        ..Book::default()
    };
    // When the statement's Pix names the txid
    let s = statement(&[(
        "20240302103000[-3:BRT]",
        "12.50",
        "F1",
        "PIX RECEBIDO TXID: PEDIDO42",
    )]);
    // Then it is that code's, by txid
    assert_eq!(
        decisions(&s, &book),
        [Decision::Matched {
            code: "qr-b".into(),
            confidence: Confidence::Txid
        }]
    );
}

#[test]
fn the_only_code_of_that_amount_valid_at_that_time_matches_by_amount_and_time() {
    // Given a R$ 12,50 code, a R$ 30,00 code and a R$ 12,50 code that expired the day before
    let mut expired = code("qr-old", Some(1250), None);
    expired.valid_until = Some(at("2024-03-01T12:00:00-03:00"));
    let book = Book {
        codes: vec![
            code("qr-1250", Some(1250), None),
            code("qr-3000", Some(3000), None),
            expired,
        ],
        ..Book::default()
    };
    // When a Pix of R$ 12,50 is in the statement on 2 March
    let s = statement(&[("20240302103000[-3:BRT]", "12,50", "F1", "PIX RECEBIDO")]);
    // Then it is the live R$ 12,50 code's
    assert_eq!(
        decisions(&s, &book),
        [Decision::Matched {
            code: "qr-1250".into(),
            confidence: Confidence::AmountAndTime
        }]
    );
}

#[test]
fn two_codes_that_fit_send_the_line_to_review() {
    // Given two live codes of R$ 12,50
    let book = Book {
        codes: vec![
            code("qr-a", Some(1250), None),
            code("qr-b", Some(1250), None),
        ],
        ..Book::default()
    };
    // When a Pix of R$ 12,50 arrives
    let s = statement(&[("20240302103000[-3:BRT]", "12,50", "F1", "PIX RECEBIDO")]);
    // Then the owner picks
    assert_eq!(
        decisions(&s, &book),
        [Decision::Ambiguous {
            candidates: vec!["qr-a".into(), "qr-b".into()]
        }]
    );
}

#[test]
fn a_fixed_amount_code_beats_the_open_amount_sign_and_the_sign_takes_the_rest() {
    // Given a printed sign (open amount) and a R$ 12,50 code
    let book = Book {
        codes: vec![code("sign", None, None), code("qr-1250", Some(1250), None)],
        ..Book::default()
    };
    // When Pix of R$ 12,50 and R$ 7,00 arrive
    let s = statement(&[
        ("20240302103000", "12,50", "F1", "PIX RECEBIDO"),
        ("20240302110000", "7,00", "F2", "PIX RECEBIDO"),
    ]);
    // Then the first is the code's, the second (weakly) the sign's
    assert_eq!(
        decisions(&s, &book),
        [
            Decision::Matched {
                code: "qr-1250".into(),
                confidence: Confidence::AmountAndTime
            },
            Decision::Matched {
                code: "sign".into(),
                confidence: Confidence::OpenAmount
            }
        ]
    );
}

#[test]
fn a_pix_no_code_fits_is_a_payment_without_qr_code() {
    let book = Book {
        codes: vec![code("qr-3000", Some(3000), None)],
        ..Book::default()
    };
    let s = statement(&[("20240302103000", "12,50", "F1", "PIX RECEBIDO")]);
    assert_eq!(decisions(&s, &book), [Decision::Unmatched]);
}

#[test]
fn the_same_payment_reported_by_the_webhook_and_the_statement_is_one_payment() {
    // Given the webhook recorded R$ 12,50 at 10:31
    let book = Book {
        codes: vec![code("qr-1250", Some(1250), None)],
        payments: vec![webhook_payment(
            "E00000000202403021331aaaaaaaaaaa",
            1250,
            "2024-03-02T10:31:40-03:00",
        )],
        ..Book::default()
    };
    // When the statement shows R$ 12,50 at 10:30
    let s = statement(&[("20240302103000[-3:BRT]", "12,50", "F1", "PIX RECEBIDO")]);
    // Then the line is linked to that payment, not added
    assert_eq!(
        decisions(&s, &book),
        [Decision::Duplicate {
            payment: "E00000000202403021331aaaaaaaaaaa".into()
        }]
    );
}

#[test]
fn two_equal_pix_minutes_apart_are_two_payments_even_when_the_webhook_saw_one() {
    // Given the webhook recorded one R$ 10,00 at 10:30
    let book = Book {
        payments: vec![webhook_payment("E1", 1000, "2024-03-02T10:30:05-03:00")],
        ..Book::default()
    };
    // When the statement has R$ 10,00 at 10:28 and at 10:30
    let s = statement(&[
        ("20240302102800", "10,00", "F1", "PIX RECEBIDO"),
        ("20240302103000", "10,00", "F2", "PIX RECEBIDO"),
    ]);
    // Then the closer one (10:30) is the webhook's and the other is new
    assert_eq!(
        decisions(&s, &book),
        [
            Decision::Unmatched,
            Decision::Duplicate {
                payment: "E1".into()
            }
        ]
    );
}

#[test]
fn a_payment_outside_the_window_or_to_another_key_is_not_the_same_payment() {
    let mut other_key = webhook_payment("E2", 1250, "2024-03-02T10:30:00-03:00");
    other_key.pix_key = Some("outra@example.com".into());
    let book = Book {
        payments: vec![
            webhook_payment("E1", 1250, "2024-03-02T10:45:00-03:00"),
            other_key,
        ],
        statement_keys: vec!["loja@example.com".into()],
        ..Book::default()
    };
    let s = statement(&[("20240302103000", "12,50", "F1", "PIX RECEBIDO")]);
    assert_eq!(decisions(&s, &book), [Decision::Unmatched]);
}

#[test]
fn a_line_with_only_a_day_is_the_same_payment_as_one_that_day() {
    let book = Book {
        payments: vec![webhook_payment("E1", 1250, "2024-03-02T22:30:00-03:00")],
        ..Book::default()
    };
    let s = statement(&[("20240302", "12,50", "F1", "PIX RECEBIDO")]);
    assert_eq!(
        decisions(&s, &book),
        [Decision::Duplicate {
            payment: "E1".into()
        }]
    );
}

#[test]
fn an_end_to_end_id_in_the_memo_finds_the_payment_whatever_the_time() {
    let book = Book {
        payments: vec![webhook_payment(
            "E00000000202403021331aaaaaaaaaaa",
            1250,
            "2024-03-01T10:00:00-03:00",
        )],
        ..Book::default()
    };
    let s = statement(&[(
        "20240302",
        "12,50",
        "F1",
        "PIX RECEBIDO E00000000202403021331aaaaaaaaaaa",
    )]);
    assert_eq!(
        decisions(&s, &book),
        [Decision::Duplicate {
            payment: "E00000000202403021331aaaaaaaaaaa".into()
        }]
    );
}

#[test]
fn re_importing_the_same_or_an_overlapping_file_changes_nothing() {
    // Given a first import: one line linked to a webhook payment, one recorded from the statement
    let first = statement(&[
        ("20240302103000", "12,50", "F1", "PIX RECEBIDO"),
        ("20240302110000", "7,00", "F2", "PIX RECEBIDO"),
    ]);
    let mut book = Book {
        codes: vec![code("qr-1250", Some(1250), None)],
        payments: vec![webhook_payment("E1", 1250, "2024-03-02T10:30:30-03:00")],
        ..Book::default()
    };
    let decided = reconcile(&first, &book, Rules::default());
    assert_eq!(
        decided[0].decision,
        Decision::Duplicate {
            payment: "E1".into()
        }
    );
    assert_eq!(decided[1].decision, Decision::Unmatched);
    // (what the import records)
    book.payments[0]
        .statement_lines
        .push(decided[0].key.clone());
    book.payments.push(RecordedPayment {
        reference: "extrato-F2".into(),
        amount: Centavos::new(700),
        paid_at: at("2024-03-02T11:00:00-03:00"),
        pix_key: None,
        end_to_end_id: None,
        from_statement: true,
        statement_lines: vec![decided[1].key.clone()],
    });
    // When a file overlapping it is imported
    let overlapping = statement(&[
        ("20240302103000", "12,50", "F1", "PIX RECEBIDO"),
        ("20240302110000", "7,00", "F2", "PIX RECEBIDO"),
        ("20240303090000", "12,50", "F3", "PIX RECEBIDO"),
    ]);
    // Then the two known lines are already imported and only the new one is decided
    assert_eq!(
        decisions(&overlapping, &book),
        [
            Decision::AlreadyImported {
                payment: "E1".into()
            },
            Decision::AlreadyImported {
                payment: "extrato-F2".into()
            },
            Decision::Matched {
                code: "qr-1250".into(),
                confidence: Confidence::AmountAndTime
            },
        ]
    );
}

#[test]
fn a_payment_from_a_statement_is_never_taken_for_another_equal_line() {
    let book = Book {
        payments: vec![RecordedPayment {
            reference: "extrato-F1".into(),
            amount: Centavos::new(1000),
            paid_at: at("2024-03-02T10:30:00-03:00"),
            pix_key: None,
            end_to_end_id: None,
            from_statement: true,
            statement_lines: vec!["341//1-2#fitid:F1".into()],
        }],
        ..Book::default()
    };
    let s = statement(&[("20240302103100", "10,00", "F9", "PIX RECEBIDO")]);
    assert_eq!(decisions(&s, &book), [Decision::Unmatched]);
}

#[test]
fn a_single_use_code_is_matched_by_one_line_only() {
    let mut single = code("qr-once", Some(1250), None);
    single.single_use = true;
    let book = Book {
        codes: vec![single],
        ..Book::default()
    };
    let s = statement(&[
        ("20240302103000", "12,50", "F1", "PIX RECEBIDO"),
        ("20240302104000", "12,50", "F2", "PIX RECEBIDO"),
    ]);
    assert_eq!(
        decisions(&s, &book),
        [
            Decision::Matched {
                code: "qr-once".into(),
                confidence: Confidence::AmountAndTime
            },
            Decision::Unmatched
        ]
    );
}

#[test]
fn line_keys_are_scoped_by_the_bank_account_the_file_names() {
    let s = statement(&[("20240302103000", "12,50", "F1", "PIX RECEBIDO")]);
    assert_eq!(line_key(&s, &s.lines[0]), "341//1-2#fitid:F1");
}

#[test]
fn debits_and_credits_that_are_not_pix_are_not_reconciled() {
    let s = statement(&[
        ("20240302103000", "-12,50", "F1", "PIX ENVIADO"),
        ("20240302103000", "12,50", "F2", "TED RECEBIDA"),
    ]);
    assert!(reconcile(&s, &Book::default(), Rules::default()).is_empty());
}

#[test]
fn a_file_whose_every_line_is_at_noon_is_read_by_day_so_the_webhooks_payment_is_not_counted_twice()
{
    // Given the webhook recorded R$ 12,50 at 15:42
    let book = Book {
        payments: vec![webhook_payment("E1", 1250, "2024-03-02T15:42:00-03:00")],
        ..Book::default()
    };
    // When the bank writes every line at 12:00:00
    let s = statement(&[
        ("20240302120000[-3:BRT]", "12,50", "F1", "PIX RECEBIDO"),
        ("20240303120000[-3:BRT]", "7,00", "F2", "PIX RECEBIDO"),
    ]);
    // Then the times are taken for padding and the line is that day's payment
    assert!(s.lines.iter().all(|l| !l.posted.has_time));
    assert_eq!(
        decisions(&s, &book)[0],
        Decision::Duplicate {
            payment: "E1".into()
        }
    );
}
