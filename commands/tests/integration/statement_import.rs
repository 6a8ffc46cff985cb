//! Recording the Pix credits of a bank statement as payments (issue 35): each line once per
//! account, whatever is imported again, whatever crashed, whatever the bank reported.

use commands::CommandMetadata;
use commands::payments::record_reports;
use commands::payments::statement_import::{
    BatchOutcome, ImportLine, LineResult, LineTarget, StatementBatch, record_statement_batch,
};
use domain::money::Centavos;
use domain::payment::{PaymentSource, ReportPayment};
use domain::statement::reconcile::{Book, Decision, RecordedPayment, Rules, reconcile};
use domain::statement::{Statement, parse};

use crate::common::TestDb;

const ACCOUNT: &str = "0190f1a2-0000-7000-8000-00000000000a";
const E2E: &str = "E12345678202403021030abcdefghijk";

/// An OFX 1.x statement of three Pix received (the second carries its end-to-end id) and a debit.
fn ofx() -> Vec<u8> {
    let line = |fitid: &str, at: &str, amount: &str, memo: &str| {
        format!(
            "<STMTTRN>\n<TRNTYPE>CREDIT\n<DTPOSTED>{at}[-3:BRT]\n<TRNAMT>{amount}\n<FITID>{fitid}\n<MEMO>{memo}\n</STMTTRN>\n"
        )
    };
    let mut text = String::from(
        "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nCHARSET:1252\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS>\n<BANKACCTFROM>\n<BANKID>0260\n<BRANCHID>0001\n<ACCTID>1234567\n</BANKACCTFROM>\n<BANKTRANLIST>\n",
    );
    text += &line("A1", "20240302091500", "12,50", "PIX RECEBIDO - Maria");
    text += &line(
        "A2",
        "20240302103000",
        "30,00",
        &format!("PIX RECEBIDO - Joao {E2E}"),
    );
    text += "<STMTTRN>\n<TRNTYPE>DEBIT\n<DTPOSTED>20240302110000[-3:BRT]\n<TRNAMT>-5,00\n<FITID>A3\n<MEMO>PIX ENVIADO - Padaria\n</STMTTRN>\n";
    text += &line("A4", "20240302143000", "7,00", "PIX RECEBIDO - Ana");
    text += "</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n";
    text.into_bytes()
}

fn statement() -> Statement {
    parse(&ofx()).expect("the sample statement parses")
}

/// Every Pix credit of `statement` reconciled against `book`, as the owner would confirm it:
/// a duplicate linked to its payment, everything else recorded "sem QR code".
fn confirmed(statement: &Statement, book: &Book) -> Vec<ImportLine> {
    reconcile(statement, book, Rules::default())
        .iter()
        .filter_map(|r| {
            let target = match &r.decision {
                Decision::Duplicate { payment } | Decision::AlreadyImported { payment } => {
                    LineTarget::SameAs {
                        payment: payment.clone(),
                    }
                }
                _ => LineTarget::Record {
                    qrcode_id: None,
                    payment_link_id: None,
                },
            };
            ImportLine::of(r, target)
        })
        .collect()
}

fn batch(lines: Vec<ImportLine>) -> StatementBatch {
    StatementBatch {
        account_id: ACCOUNT.to_owned(),
        import_id: "0190f1a2-0000-7000-8000-0000000000ff".to_owned(),
        file_name: "extrato-marco.ofx".to_owned(),
        recorded_by: ACCOUNT.to_owned(),
        recorded_at: "2024-03-05T12:00:00Z".to_owned(),
        lines,
    }
}

async fn import(db: &TestDb, lines: Vec<ImportLine>) -> BatchOutcome {
    record_statement_batch(&db.store(), &batch(lines), &CommandMetadata::start())
        .await
        .expect("the batch is recorded")
}

/// (stream id, event type, source) of every Payment event, in log order.
async fn payment_events(db: &TestDb) -> Vec<(String, String, Option<String>)> {
    sqlx::query_as(
        "select stream_id, event_type, payload::jsonb ->> 'source'
           from events where stream_type = 'payment' order by global_position",
    )
    .fetch_all(&db.pool)
    .await
    .expect("read the log")
}

fn webhook(e2e: &str, paid_at: &str, amount: u64) -> ReportPayment {
    ReportPayment {
        account_id: ACCOUNT.to_owned(),
        end_to_end_id: e2e.to_owned(),
        amount: Centavos::new(amount),
        paid_at: paid_at.to_owned(),
        txid: None,
        qrcode_id: None,
        payment_link_id: None,
        pix_key: Some("dona@padaria.test".to_owned()),
        source: PaymentSource::ApiPix,
        payer_name: None,
        payer_document: None,
        payer_info: None,
        refunds: vec![],
        received_at: paid_at.to_owned(),
    }
}

#[tokio::test]
async fn each_pix_credit_of_a_statement_is_recorded_as_a_payment_from_the_extrato() {
    let db = TestDb::new().await;
    let statement = statement();
    let outcome = import(&db, confirmed(&statement, &Book::default())).await;
    assert_eq!(outcome.lines, vec![LineResult::Recorded; 3]);
    assert!(outcome.position.is_some());
    let events = payment_events(&db).await;
    assert_eq!(events.len(), 3, "{events:?}");
    assert!(
        events
            .iter()
            .all(|(_, t, s)| t == "PaymentRecorded" && s.as_deref() == Some("extrato"))
    );
    // The line with an end-to-end id is that payment's stream, as the bank's report would be.
    assert!(
        events
            .iter()
            .any(|(id, _, _)| *id == format!("{ACCOUNT}:{E2E}"))
    );
    let origin: serde_json::Value = sqlx::query_scalar(
        "select payload::jsonb -> 'statement' from events
          where stream_id = $1",
    )
    .bind(format!("{ACCOUNT}:{E2E}"))
    .fetch_one(&db.pool)
    .await
    .expect("the payment's event");
    assert_eq!(origin["file_name"], "extrato-marco.ofx");
    assert_eq!(origin["line_key"], "0260/0001/1234567#fitid:A2");
}

#[tokio::test]
async fn importing_the_same_statement_again_records_nothing() {
    let db = TestDb::new().await;
    let statement = statement();
    import(&db, confirmed(&statement, &Book::default())).await;
    // Reconciled against nothing again (as a stale read model would): the claims still hold.
    let again = import(&db, confirmed(&statement, &Book::default())).await;
    assert_eq!(again.lines, vec![LineResult::AlreadyImported; 3]);
    assert_eq!(again.position, None);
    assert_eq!(payment_events(&db).await.len(), 3);
}

#[tokio::test]
async fn a_crash_mid_file_resumes_without_counting_a_line_twice() {
    let db = TestDb::new().await;
    let statement = statement();
    let lines = confirmed(&statement, &Book::default());
    // The first batch committed, then the import stopped.
    import(&db, lines[..1].to_vec()).await;
    // A batch that fails (a line of zero) writes nothing, not even the claims of its good lines.
    let mut broken = lines[1..].to_vec();
    broken[1].amount = Centavos::new(0);
    let failed =
        record_statement_batch(&db.store(), &batch(broken), &CommandMetadata::start()).await;
    assert!(failed.is_err(), "{failed:?}");
    assert_eq!(payment_events(&db).await.len(), 1);
    // The whole file again, in batches of two.
    let first = import(&db, lines[..2].to_vec()).await;
    let second = import(&db, lines[2..].to_vec()).await;
    assert_eq!(
        first.lines,
        vec![LineResult::AlreadyImported, LineResult::Recorded]
    );
    assert_eq!(second.lines, vec![LineResult::Recorded]);
    assert_eq!(payment_events(&db).await.len(), 3);
}

#[tokio::test]
async fn a_line_carrying_the_end_to_end_id_of_a_payment_the_bank_reported_adds_nothing() {
    let db = TestDb::new().await;
    record_reports(
        &db.store(),
        &[webhook(E2E, "2024-03-02T10:30:04-03:00", 3_000)],
        &CommandMetadata::start(),
    )
    .await
    .expect("the webhook's report is recorded");
    // Even when the owner's screen did not know of it yet (nothing in the book).
    let outcome = import(&db, confirmed(&statement(), &Book::default())).await;
    assert_eq!(
        outcome.lines,
        vec![
            LineResult::Recorded,
            LineResult::Linked,
            LineResult::Recorded
        ]
    );
    let on_stream: Vec<_> = payment_events(&db)
        .await
        .into_iter()
        .filter(|(id, _, _)| *id == format!("{ACCOUNT}:{E2E}"))
        .collect();
    assert_eq!(on_stream.len(), 1, "{on_stream:?}");
    assert_eq!(on_stream[0].2.as_deref(), Some("api-pix"));
}

#[tokio::test]
async fn a_line_reconciled_as_a_webhook_payment_is_linked_to_it_and_stays_linked() {
    let db = TestDb::new().await;
    let bank_e2e = "E99999999202403020915zzzzzzzzzzz";
    record_reports(
        &db.store(),
        &[webhook(bank_e2e, "2024-03-02T09:16:10-03:00", 1_250)],
        &CommandMetadata::start(),
    )
    .await
    .expect("the webhook's report is recorded");
    let book = Book {
        payments: vec![RecordedPayment {
            reference: bank_e2e.to_owned(),
            amount: Centavos::new(1_250),
            paid_at: "2024-03-02T09:16:10-03:00".parse().expect("a time"),
            pix_key: Some("dona@padaria.test".to_owned()),
            end_to_end_id: Some(bank_e2e.to_owned()),
            from_statement: false,
            statement_lines: vec![],
        }],
        ..Book::default()
    };
    let statement = statement();
    let outcome = import(&db, confirmed(&statement, &book)).await;
    assert_eq!(outcome.lines[0], LineResult::Linked);
    let events = payment_events(&db).await;
    // The webhook's payment and the two other lines: the R$ 12,50 line added nothing.
    assert_eq!(events.len(), 3, "{events:?}");
    let owner: String =
        sqlx::query_scalar("select owner from unique_claims where scope = $1 and value = $2")
            .bind(format!("statement:{ACCOUNT}"))
            .bind(commands::claims::digest("0260/0001/1234567#fitid:A1"))
            .fetch_one(&db.pool)
            .await
            .expect("the line's claim");
    assert_eq!(owner, format!("{ACCOUNT}:{bank_e2e}"));
    // Imported again, even against a book that forgot the payment, the line stays linked.
    let again = import(&db, confirmed(&statement, &Book::default())).await;
    assert_eq!(again.lines, vec![LineResult::AlreadyImported; 3]);
    assert_eq!(payment_events(&db).await.len(), 3);
}

#[tokio::test]
async fn the_banks_later_report_of_a_line_confirms_its_payment_instead_of_adding_one() {
    let db = TestDb::new().await;
    import(&db, confirmed(&statement(), &Book::default())).await;
    record_reports(
        &db.store(),
        &[webhook(E2E, "2024-03-02T10:30:04-03:00", 3_000)],
        &CommandMetadata::start(),
    )
    .await
    .expect("the webhook's report is recorded");
    let on_stream: Vec<String> = payment_events(&db)
        .await
        .into_iter()
        .filter(|(id, _, _)| *id == format!("{ACCOUNT}:{E2E}"))
        .map(|(_, t, _)| t)
        .collect();
    assert_eq!(on_stream, vec!["PaymentRecorded", "PaymentConfirmed"]);
}

#[tokio::test]
async fn a_line_linked_to_a_payment_the_account_does_not_have_is_refused_and_nothing_is_written() {
    let db = TestDb::new().await;
    let mut lines = confirmed(&statement(), &Book::default());
    lines[0].target = LineTarget::SameAs {
        payment: "E00000000202403020000nonexisten1".to_owned(),
    };
    let refused = record_statement_batch(
        &db.store(),
        &batch(lines.clone()),
        &CommandMetadata::start(),
    )
    .await;
    assert!(
        matches!(
            refused,
            Err(commands::CommandError::Rejected(
                domain::payment::PaymentError::NotFound
            ))
        ),
        "{refused:?}"
    );
    assert!(payment_events(&db).await.is_empty());
    let claims: i64 = sqlx::query_scalar("select count(*) from unique_claims")
        .fetch_one(&db.pool)
        .await
        .expect("count the claims");
    assert_eq!(claims, 0);
}

fn undo_of(import_id: &str) -> commands::payments::statement_import::UndoImport {
    commands::payments::statement_import::UndoImport {
        account_id: ACCOUNT.to_owned(),
        import_id: import_id.to_owned(),
        undone_by: ACCOUNT.to_owned(),
        undone_at: "2024-03-06T12:00:00Z".to_owned(),
    }
}

async fn undo(
    db: &TestDb,
    import_id: &str,
) -> Result<
    commands::payments::statement_import::UndoOutcome,
    commands::CommandError<domain::payment::PaymentError>,
> {
    commands::payments::statement_import::undo_statement_import(
        &db.store(),
        &undo_of(import_id),
        &CommandMetadata::start(),
    )
    .await
}

#[tokio::test]
async fn undoing_an_import_voids_what_it_recorded_and_a_later_import_records_it_again() {
    let db = TestDb::new().await;
    let statement = statement();
    let first = batch(confirmed(&statement, &Book::default()));
    record_statement_batch(&db.store(), &first, &CommandMetadata::start())
        .await
        .expect("imported");
    let undone = undo(&db, &first.import_id).await.expect("undone");
    assert_eq!((undone.voided, undone.released), (3, 3));
    let voids: Vec<(String, Option<String>)> = sqlx::query_as(
        "select payload::jsonb ->> 'reason', payload::jsonb ->> 'undone_import'
           from events where event_type = 'PaymentVoided' order by global_position",
    )
    .fetch_all(&db.pool)
    .await
    .expect("read the voids");
    assert_eq!(
        voids,
        vec![
            (
                "Importação desfeita".to_owned(),
                Some(first.import_id.clone())
            );
            3
        ]
    );
    // Undone once: asked again, it says so and writes nothing.
    assert!(matches!(
        undo(&db, &first.import_id).await,
        Err(commands::CommandError::Rejected(
            domain::payment::PaymentError::ImportAlreadyUndone
        ))
    ));
    assert!(matches!(
        undo(&db, "0190f1a2-0000-7000-8000-0000000000aa").await,
        Err(commands::CommandError::Rejected(
            domain::payment::PaymentError::ImportNotFound
        ))
    ));
    // The same file, imported again under a new import: every line is recorded anew.
    let mut second = batch(confirmed(&statement, &Book::default()));
    second.import_id = "0190f1a2-0000-7000-8000-0000000000fe".to_owned();
    let again = record_statement_batch(&db.store(), &second, &CommandMetadata::start())
        .await
        .expect("imported again");
    assert_eq!(again.lines, vec![LineResult::Recorded; 3]);
    let recorded: i64 =
        sqlx::query_scalar("select count(*) from events where event_type = 'PaymentRecorded'")
            .fetch_one(&db.pool)
            .await
            .expect("count");
    assert_eq!(recorded, 6, "three, undone, then three again");
    // And that import can be undone in turn.
    let undone = undo(&db, &second.import_id).await.expect("undone");
    assert_eq!(undone.voided, 3);
}

#[tokio::test]
async fn undoing_an_import_leaves_a_linked_payment_and_one_the_bank_confirmed_standing() {
    let db = TestDb::new().await;
    let statement = statement();
    // The bank reported the 12,50 before the import (linked by amount and time).
    record_reports(
        &db.store(),
        &[webhook(
            "E99999999202403021215zzzzzzzzzzz",
            "2024-03-02T12:16:00Z",
            1_250,
        )],
        &CommandMetadata::start(),
    )
    .await
    .expect("webhook");
    let book = Book {
        payments: vec![RecordedPayment {
            reference: "E99999999202403021215zzzzzzzzzzz".to_owned(),
            amount: Centavos::new(1_250),
            paid_at: chrono::DateTime::parse_from_rfc3339("2024-03-02T12:16:00Z").unwrap(),
            pix_key: None,
            end_to_end_id: Some("E99999999202403021215zzzzzzzzzzz".to_owned()),
            from_statement: false,
            statement_lines: vec![],
        }],
        ..Book::default()
    };
    let imported = batch(confirmed(&statement, &book));
    let outcome = record_statement_batch(&db.store(), &imported, &CommandMetadata::start())
        .await
        .expect("imported");
    assert_eq!(outcome.linked(), 1);
    assert_eq!(outcome.recorded(), 2);
    // The bank then reports the line that carried its end-to-end id.
    record_reports(
        &db.store(),
        &[webhook(E2E, "2024-03-02T13:30:00Z", 3_000)],
        &CommandMetadata::start(),
    )
    .await
    .expect("webhook");
    let undone = undo(&db, &imported.import_id).await.expect("undone");
    assert_eq!(
        (undone.voided, undone.released),
        (1, 3),
        "only the 7,00 is the import's alone"
    );
}

/// The R$ 12,50 line (`A1`, 09:15 in Brasília) names no end-to-end id.
const A1_STREAM_PREFIX: &str = "extrato-";
const LATER_E2E: &str = "E99999999202403021216laterbanker";

/// The stream ids of the account's Payment streams, with their event types in order.
async fn streams(db: &TestDb) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for (id, event_type, _) in payment_events(db).await {
        let id = id.trim_start_matches(&format!("{ACCOUNT}:")).to_owned();
        match out.iter_mut().find(|(s, _)| *s == id) {
            Some((_, types)) => types.push(event_type),
            None => out.push((id, vec![event_type])),
        }
    }
    out.sort();
    out
}

async fn report(db: &TestDb, reports: &[ReportPayment]) {
    record_reports(&db.store(), reports, &CommandMetadata::start())
        .await
        .expect("the webhook's reports are recorded");
}

#[tokio::test]
async fn the_banks_report_of_a_line_that_named_no_end_to_end_id_confirms_that_payment_instead_of_adding_one()
 {
    let db = TestDb::new().await;
    import(&db, confirmed(&statement(), &Book::default())).await;
    // The bank reports the 12,50 ninety seconds after the statement's time, then repeats itself,
    // then reports a refund of it.
    let paid = webhook(LATER_E2E, "2024-03-02T09:16:30-03:00", 1_250);
    report(&db, std::slice::from_ref(&paid)).await;
    report(&db, std::slice::from_ref(&paid)).await;
    let refunded = ReportPayment {
        refunds: vec![domain::payment::RefundReport {
            refund_id: "D1".to_owned(),
            rtr_id: "D99999999202403031000refundrtr01".to_owned(),
            amount: Centavos::new(250),
            status: domain::payment::RefundStatus::Devolvido,
            nature: None,
            requested_at: Some("2024-03-03T10:00:00-03:00".to_owned()),
            settled_at: Some("2024-03-03T10:00:01-03:00".to_owned()),
            reason: None,
        }],
        ..paid.clone()
    };
    report(&db, &[refunded]).await;
    let streams = streams(&db).await;
    assert_eq!(streams.len(), 3, "no stream of its own: {streams:?}");
    let line = streams
        .iter()
        .find(|(_, types)| types.len() > 1)
        .expect("the line's payment got the bank's events");
    assert!(line.0.starts_with(A1_STREAM_PREFIX), "{line:?}");
    assert_eq!(
        line.1,
        vec!["PaymentRecorded", "PaymentConfirmed", "PaymentRefunded"]
    );
    let learnt: Option<String> = sqlx::query_scalar(
        "select payload::jsonb ->> 'end_to_end_id' from events
          where event_type = 'PaymentConfirmed'",
    )
    .fetch_one(&db.pool)
    .await
    .expect("the confirmation");
    assert_eq!(learnt.as_deref(), Some(LATER_E2E));
    // A person typing the receipt of it is told it is recorded.
    let typed = commands::payments::record_manual(
        &commands::CommandService::<domain::payment::Payment>::new(db.store(), ()),
        commands::payments::ManualPayment {
            account_id: ACCOUNT.to_owned(),
            end_to_end_id: Some(LATER_E2E.to_owned()),
            manual_id: uuid::Uuid::now_v7(),
            amount: Centavos::new(1_250),
            paid_at: "2024-03-02T09:16:30-03:00".to_owned(),
            qrcode: None,
            note: None,
            recorded_by: ACCOUNT.to_owned(),
            recorded_at: "2024-03-04T12:00:00Z".to_owned(),
        },
        CommandMetadata::start(),
    )
    .await;
    assert!(
        matches!(
            typed,
            Err(commands::CommandError::Rejected(
                domain::payment::PaymentError::AlreadyRecorded
            ))
        ),
        "{typed:?}"
    );
    // A statement that carries that id later is the same payment.
    let mut carrying = confirmed(&statement(), &Book::default());
    carrying.truncate(1);
    carrying[0].key = "another-export#A1".to_owned();
    carrying[0].end_to_end_id = Some(LATER_E2E.to_owned());
    assert_eq!(import(&db, carrying).await.lines, vec![LineResult::Linked]);
    assert_eq!(self::streams(&db).await.len(), 3);
}

#[tokio::test]
async fn a_report_of_the_same_amount_outside_the_window_or_of_another_amount_is_a_payment_of_its_own()
 {
    let db = TestDb::new().await;
    import(&db, confirmed(&statement(), &Book::default())).await;
    report(
        &db,
        &[
            // Eleven minutes after the line.
            webhook(LATER_E2E, "2024-03-02T09:26:00-03:00", 1_250),
            // On time, one centavo apart.
            webhook(
                "E99999999202403021215onecentavo1",
                "2024-03-02T09:15:00-03:00",
                1_251,
            ),
        ],
    )
    .await;
    let streams = streams(&db).await;
    assert_eq!(streams.len(), 5, "{streams:?}");
    assert!(
        streams
            .iter()
            .all(|(_, types)| *types == vec!["PaymentRecorded"])
    );
}

#[tokio::test]
async fn two_reports_of_the_line_s_amount_give_it_to_the_closest_and_the_other_stays_a_payment() {
    let db = TestDb::new().await;
    import(&db, confirmed(&statement(), &Book::default())).await;
    // The farther one comes first in the delivery (and in stream order).
    let far = "E99999999202403021216aaaaaaaafar";
    let near = "E99999999202403021216nearnear001";
    report(
        &db,
        &[
            webhook(far, "2024-03-02T09:23:00-03:00", 1_250),
            webhook(near, "2024-03-02T09:14:00-03:00", 1_250),
        ],
    )
    .await;
    let streams = streams(&db).await;
    assert!(streams.iter().any(|(id, _)| id == far), "{streams:?}");
    assert!(!streams.iter().any(|(id, _)| id == near), "{streams:?}");
    let confirmed_by: String = sqlx::query_scalar(
        "select payload::jsonb ->> 'end_to_end_id' from events
          where event_type = 'PaymentConfirmed'",
    )
    .fetch_one(&db.pool)
    .await
    .expect("one confirmation");
    assert_eq!(confirmed_by, near);
}

#[tokio::test]
async fn a_line_that_gave_only_the_day_is_confirmed_by_a_report_of_that_day_in_brasilia() {
    let db = TestDb::new().await;
    let text = String::from_utf8(ofx())
        .expect("utf-8")
        .replace("20240302091500[-3:BRT]", "20240302");
    let statement = parse(text.as_bytes()).expect("parses");
    import(&db, confirmed(&statement, &Book::default())).await;
    report(
        &db,
        &[
            // 23:40 in Brasília is the next day in UTC, still the line's day.
            webhook(LATER_E2E, "2024-03-03T02:40:00Z", 1_250),
            // The next day in Brasília.
            webhook(
                "E99999999202403031000nextday0001",
                "2024-03-03T10:00:00-03:00",
                1_250,
            ),
        ],
    )
    .await;
    let streams = streams(&db).await;
    assert!(
        !streams.iter().any(|(id, _)| id == LATER_E2E),
        "{streams:?}"
    );
    assert!(
        streams
            .iter()
            .any(|(id, _)| id == "E99999999202403031000nextday0001"),
        "{streams:?}"
    );
}

#[tokio::test]
async fn after_an_import_is_undone_the_banks_report_of_its_line_is_a_payment_of_its_own() {
    let db = TestDb::new().await;
    let imported = batch(confirmed(&statement(), &Book::default()));
    record_statement_batch(&db.store(), &imported, &CommandMetadata::start())
        .await
        .expect("imported");
    undo(&db, &imported.import_id).await.expect("undone");
    report(
        &db,
        &[webhook(LATER_E2E, "2024-03-02T09:16:30-03:00", 1_250)],
    )
    .await;
    let streams = streams(&db).await;
    let own = streams
        .iter()
        .find(|(id, _)| id == LATER_E2E)
        .expect("its own payment");
    assert_eq!(own.1, vec!["PaymentRecorded"]);
    let unconfirmed: i64 = sqlx::query_scalar(
        "select count(*) from unique_claims where scope like 'statement-unconfirmed:%'",
    )
    .fetch_one(&db.pool)
    .await
    .expect("count");
    assert_eq!(unconfirmed, 0);
}

/// Index entries of `events_pkey` read so far, once every connection that read them has ended.
async fn events_key_reads(db: &TestDb) -> i64 {
    sqlx::query_scalar(
        "select idx_tup_read from pg_stat_user_indexes
          where relname = 'events' and indexrelname = 'events_pkey'",
    )
    .fetch_one(&db.pool)
    .await
    .expect("index statistics")
}

#[tokio::test]
async fn the_intake_looks_payments_up_by_their_key_however_the_log_grew_since_its_connection_planned_it()
 {
    let db = TestDb::new().await;
    // One connection, so every statement the intake sends is planned, and kept, on it while the
    // log is nearly empty (autovacuum is off here, and nothing runs `analyze` on `events`).
    let pool = sqlx::postgres::PgPoolOptions::new()
        .max_connections(1)
        .connect_with(db.options())
        .await
        .expect("a pool of one");
    let store = commands::PgEventStore::new(pool.clone());
    let report_of = |n: usize| {
        webhook(
            &format!("E99999999202403021216{n:011}"),
            "2024-03-02T09:16:30-03:00",
            100 + u64::try_from(n).unwrap_or_default(),
        )
    };
    for n in 0..8 {
        record_reports(&store, &[report_of(n)], &CommandMetadata::start())
            .await
            .expect("a report");
    }
    // The log grows by 6,000 payments, then ten more deliveries of one report each.
    for first in (8..6_008).step_by(1_000) {
        let reports: Vec<ReportPayment> = (first..first + 1_000).map(report_of).collect();
        record_reports(&store, &reports, &CommandMetadata::start())
            .await
            .expect("a delivery");
    }
    // And `unique_claims` by 9,000 claims: a statement of 3,000 lines, each claimed for the
    // account, for its import and as waiting for the bank.
    let lines: Vec<ImportLine> = (0..3_000u64)
        .map(|n| ImportLine {
            key: format!("0260/0001/1234567#fitid:G{n}"),
            line: n + 1,
            amount: Centavos::new(50_000 + n),
            paid_at: "2024-02-10T12:00:00-03:00".to_owned(),
            day_only: false,
            end_to_end_id: None,
            txid: None,
            target: LineTarget::Record {
                qrcode_id: None,
                payment_link_id: None,
            },
        })
        .collect();
    for chunk in lines.chunks(1_000) {
        record_statement_batch(&store, &batch(chunk.to_vec()), &CommandMetadata::start())
            .await
            .expect("a batch");
    }
    // The import's own reads are reported now, so only the deliveries' are counted below.
    sqlx::query("select pg_stat_force_next_flush()")
        .execute(&pool)
        .await
        .expect("flush the statistics");
    let seq_before = claims_seq_reads(&db).await;
    for n in 6_008..6_018 {
        let report = ReportPayment {
            txid: Some(format!("TXID{n:026}")),
            ..report_of(n)
        };
        record_reports(&store, &[report], &CommandMetadata::start())
            .await
            .expect("a report");
    }
    pool.close().await;
    // Each connection reports its reads as it ends.
    let reads = settled_key_reads(&db).await;
    // Looked up by key: 36,072 entries here. Scanning every payment of the log per delivery (the
    // plan the connection made early) read 126,215.
    assert!(reads < 60_000, "events_pkey entries read: {reads}");
    // The claims are looked up by key too: the plans the connection made early hashed the
    // whole table per look-up (180,000 rows read by scans in these ten deliveries).
    let seq = claims_seq_reads(&db).await - seq_before;
    assert!(seq < 1_000, "unique_claims rows read by scans: {seq}");
}

/// Rows of `unique_claims` read by sequential scans so far.
async fn claims_seq_reads(db: &TestDb) -> i64 {
    tokio::time::sleep(std::time::Duration::from_millis(1_100)).await;
    sqlx::query_scalar(
        "select seq_tup_read from pg_stat_user_tables where relname = 'unique_claims'",
    )
    .fetch_one(&db.pool)
    .await
    .expect("table statistics")
}

/// The index reads, once they stop changing (connections flush them as they end).
async fn settled_key_reads(db: &TestDb) -> i64 {
    let mut last = -1;
    for _ in 0..50 {
        let now = events_key_reads(db).await;
        if now == last && now > 0 {
            return now;
        }
        last = now;
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    last
}

#[tokio::test]
async fn a_line_the_bank_reported_first_is_linked_to_its_payment_whatever_the_screens_book_held() {
    let db = TestDb::new().await;
    let bank = "E99999999202403021216bankfirst01";
    report(&db, &[webhook(bank, "2024-03-02T09:18:00-03:00", 1_250)]).await;
    // Imported against a book that does not hold the payment yet (its read model lagged).
    let first = batch(confirmed(&statement(), &Book::default()));
    let outcome = record_statement_batch(&db.store(), &first, &CommandMetadata::start())
        .await
        .expect("imported");
    assert_eq!(
        outcome.lines,
        vec![
            LineResult::Linked,
            LineResult::Recorded,
            LineResult::Recorded
        ]
    );
    let recorded_by_bank = |streams: &[(String, Vec<String>)]| {
        streams
            .iter()
            .filter(|(id, _)| id == bank)
            .map(|(_, types)| types.clone())
            .collect::<Vec<_>>()
    };
    let streams = streams(&db).await;
    assert_eq!(
        streams.len(),
        3,
        "no payment of its own for the line: {streams:?}"
    );
    assert_eq!(
        recorded_by_bank(&streams),
        [vec!["PaymentRecorded".to_owned()]]
    );
    // Undone, the bank's payment stands; imported again, the line finds it again.
    undo(&db, &first.import_id).await.expect("undone");
    let mut second = batch(confirmed(&statement(), &Book::default()));
    second.import_id = "0190f1a2-0000-7000-8000-0000000000fe".to_owned();
    let again = record_statement_batch(&db.store(), &second, &CommandMetadata::start())
        .await
        .expect("imported again");
    assert_eq!(again.lines[0], LineResult::Linked);
    // A second line of the same amount within the window is a payment of its own: the bank's
    // payment is one line's.
    let twin = ImportLine {
        key: "0260/0001/1234567#fitid:A9".to_owned(),
        line: 99,
        ..confirmed(&statement(), &Book::default())[0].clone()
    };
    let third = batch(vec![twin]);
    let outcome = record_statement_batch(&db.store(), &third, &CommandMetadata::start())
        .await
        .expect("imported");
    assert_eq!(outcome.lines, vec![LineResult::Recorded]);
}

#[tokio::test]
async fn a_day_only_line_is_linked_to_the_payment_a_bank_reported_that_day_in_brasilia() {
    let db = TestDb::new().await;
    let bank = "E99999999202403022340bankdaily01";
    // 23:40 on 2 March in Brasília, already 3 March in UTC.
    report(&db, &[webhook(bank, "2024-03-03T02:40:00Z", 1_250)]).await;
    let text = String::from_utf8(ofx())
        .expect("utf-8")
        .replace("20240302091500[-3:BRT]", "20240302");
    let statement = parse(text.as_bytes()).expect("parses");
    let outcome = import(&db, confirmed(&statement, &Book::default())).await;
    assert_eq!(outcome.lines[0], LineResult::Linked);
    assert_eq!(streams(&db).await.len(), 3);
}
