//! Payments recorded from an imported bank statement (issue 35, the command layer; the upload
//! routes are still to come): they reach the transactions screen with their source, `extrato`.

use commands::payments::statement_import::{
    ImportLine, LineTarget, StatementBatch, record_statement_batch,
};
use commands::{CommandMetadata, PgEventStore};
use domain::statement::reconcile::{Book, Rules, reconcile};
use tests::TestApp;

use super::support::wait_for_payments;
use crate::workspace::support::{Person, sign_up};

/// A statement of one Pix received yesterday (the free plan lists the last 90 days).
fn ofx() -> String {
    let day = (chrono::Utc::now() - chrono::Duration::days(1)).format("%Y%m%d");
    OFX.replace("20240302", &day.to_string())
}

const OFX: &str = "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nCHARSET:1252\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS>\n<BANKTRANLIST>\n<STMTTRN>\n<TRNTYPE>CREDIT\n<DTPOSTED>20240302103000[-3:BRT]\n<TRNAMT>12,50\n<FITID>A1\n<MEMO>PIX RECEBIDO - Maria\n</STMTTRN>\n</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n";

#[tokio::test]
async fn a_payment_recorded_from_a_statement_is_listed_with_the_extrato_as_its_source() {
    let app = TestApp::spawn().await;
    let db = app.db().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona da Padaria").await;
    let account = owner.account_id.clone();
    let statement = domain::statement::parse(ofx().as_bytes()).expect("the statement parses");
    let lines: Vec<ImportLine> = reconcile(&statement, &Book::default(), Rules::default())
        .iter()
        .filter_map(|r| {
            ImportLine::of(
                r,
                LineTarget::Record {
                    qrcode_id: None,
                    payment_link_id: None,
                },
            )
        })
        .collect();
    let batch = StatementBatch {
        account_id: account.clone(),
        import_id: uuid::Uuid::now_v7().to_string(),
        file_name: "extrato.ofx".to_owned(),
        recorded_by: account.clone(),
        recorded_at: "2024-03-05T12:00:00Z".to_owned(),
        lines,
    };
    let outcome = record_statement_batch(
        &PgEventStore::new(db.clone()),
        &batch,
        &CommandMetadata::start(),
    )
    .await
    .expect("the batch is recorded");
    assert_eq!(outcome.recorded(), 1);
    wait_for_payments(&db, 1).await;
    let list = owner.get(&Person::in_account(&account, "/payments")).await;
    let payment = &list.json["payments"][0];
    assert_eq!(payment["source"], "extrato", "{}", list.text);
    assert_eq!(payment["amountCentavos"], 1_250);
    let filtered = owner
        .get(&Person::in_account(&account, "/payments?origem=extrato"))
        .await;
    assert_eq!(
        filtered.json["payments"].as_array().map(Vec::len),
        Some(1),
        "{}",
        filtered.text
    );
}
