//! Bank statements through the API (issue 35): the owner previews a file, picks the code of an
//! ambiguous line, imports, imports again, undoes; the webhook and the statement report one
//! payment once; broken files and the wrong role write nothing.

use base64::Engine as _;
use chrono::{DateTime, Duration, FixedOffset, SecondsFormat, Utc};
use reqwest::StatusCode;
use serde_json::{Value, json};
use tests::TestApp;

use super::support::{
    assert_replay_equals_live, delivery, entry, payment_events, post_delivery, read_models,
    register_key, turn_on, wait_for_payments,
};
use tests::browser::Answer;

use crate::workspace::support::{Person, join, qrcode_body, sign_up};

/// Brasília time, as the banks write it.
fn brt(at: DateTime<Utc>) -> DateTime<FixedOffset> {
    at.with_timezone(&FixedOffset::west_opt(3 * 3600).expect("offset"))
}

/// One OFX transaction posted `minutes_ago`.
fn stmttrn(fitid: &str, minutes_ago: i64, amount: &str, memo: &str) -> String {
    let at = brt(Utc::now() - Duration::minutes(minutes_ago)).format("%Y%m%d%H%M%S");
    let kind = if amount.starts_with('-') {
        "DEBIT"
    } else {
        "CREDIT"
    };
    format!(
        "<STMTTRN>\n<TRNTYPE>{kind}\n<DTPOSTED>{at}[-3:BRT]\n<TRNAMT>{amount}\n<FITID>{fitid}\n<MEMO>{memo}\n</STMTTRN>\n"
    )
}

/// An OFX 1.x file of a made-up account holding `transactions`.
fn ofx(transactions: &[String]) -> String {
    format!(
        "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nCHARSET:1252\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS>\n<BANKACCTFROM>\n<BANKID>0260\n<BRANCHID>0001\n<ACCTID>7654321\n</BANKACCTFROM>\n<BANKTRANLIST>\n{}</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n",
        transactions.concat()
    )
}

fn upload(name: &str, file: &[u8], picks: Value) -> Value {
    json!({
        "arquivo": name,
        "conteudo": base64::engine::general_purpose::STANDARD.encode(file),
        "escolhas": picks,
    })
}

async fn preview(person: &mut Person, account: &str, file: &str) -> Answer {
    person
        .post(
            &Person::in_account(account, "/extratos/previa"),
            &upload("extrato.ofx", file.as_bytes(), json!([])),
        )
        .await
}

async fn import(person: &mut Person, account: &str, file: &str, picks: Value) -> Answer {
    person
        .post(
            &Person::in_account(account, "/extratos"),
            &upload("extrato.ofx", file.as_bytes(), picks),
        )
        .await
}

/// A code of `amount` made through the API; with a txid when given. Answers its id.
async fn code(person: &mut Person, account: &str, amount: &str, txid: Option<&str>) -> String {
    let mut body = qrcode_body("Padaria");
    body["amount"] = json!(amount);
    if let Some(txid) = txid {
        body["txid"] = json!(txid);
    }
    let made = person
        .post(&Person::in_account(account, "/qrcodes"), &body)
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    made.json["id"].as_str().expect("id").to_owned()
}

fn line(preview: &Answer, number: u64) -> &Value {
    preview.json["linhas"]
        .as_array()
        .and_then(|lines| lines.iter().find(|l| l["linha"] == number))
        .unwrap_or_else(|| panic!("line {number} in {}", preview.text))
}

/// The 1-based line of the file where the transaction holding `memo` starts.
fn line_of(file: &str, memo: &str) -> u64 {
    let at = file.find(memo).expect("memo in file");
    let start = file[..at].rfind("<STMTTRN>").expect("transaction");
    u64::try_from(file[..start].lines().count() + 1).expect("small")
}

async fn payments(person: &mut Person, account: &str, query: &str) -> Vec<Value> {
    let list = person
        .get(&Person::in_account(account, &format!("/payments?{query}")))
        .await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.text);
    list.json["payments"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

async fn totals(person: &mut Person, account: &str) -> Value {
    let summary = person
        .get(&Person::in_account(account, "/payments/summary"))
        .await;
    assert_eq!(summary.status, StatusCode::OK, "{}", summary.text);
    summary.json["total"].clone()
}

#[tokio::test]
async fn a_statement_matches_codes_by_txid_by_amount_and_time_and_by_the_owners_pick_among_two() {
    let app = TestApp::spawn().await;
    let db = app.db().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona da Padaria").await;
    let account = owner.account_id.clone();
    let by_txid = code(&mut owner, &account, "12,50", Some("PEDIDO0042")).await;
    let by_amount = code(&mut owner, &account, "30,00", None).await;
    let first_of_two = code(&mut owner, &account, "7,00", None).await;
    let second_of_two = code(&mut owner, &account, "7,00", None).await;
    let file = ofx(&[
        stmttrn("T1", 3, "12,50", "PIX RECEBIDO - Maria TXID: PEDIDO0042"),
        stmttrn("T2", 2, "30,00", "PIX RECEBIDO - Joao"),
        stmttrn("T3", 2, "-5,00", "PIX ENVIADO - Mercado"),
        stmttrn("T4", 1, "7,00", "PIX RECEBIDO - Ana"),
    ]);
    let seen = preview(&mut owner, &account, &file).await;
    assert_eq!(seen.status, StatusCode::OK, "{}", seen.text);
    assert_eq!(
        (
            &seen.json["linhasLidas"],
            &seen.json["creditosPix"],
            &seen.json["ignorados"]
        ),
        (&json!(4), &json!(3), &json!(1)),
        "{}",
        seen.text
    );
    let txid_line = line(&seen, line_of(&file, "Maria"));
    assert_eq!(txid_line["decisao"], "qrcode");
    assert_eq!(txid_line["qrcode"]["id"], by_txid.as_str());
    assert_eq!(txid_line["confianca"], "txid");
    assert_eq!(txid_line["valorCentavos"], 1_250);
    let amount_line = line(&seen, line_of(&file, "Joao"));
    assert_eq!(amount_line["qrcode"]["id"], by_amount.as_str());
    assert_eq!(amount_line["confianca"], "valor_e_horario");
    let review = line_of(&file, "Ana");
    let two = line(&seen, review);
    assert_eq!(two["decisao"], "ambiguo", "{}", seen.text);
    let candidates: Vec<&str> = two["candidatos"]
        .as_array()
        .expect("candidates")
        .iter()
        .filter_map(|c| c["id"].as_str())
        .collect();
    assert!(
        candidates.contains(&first_of_two.as_str()) && candidates.contains(&second_of_two.as_str())
    );
    assert_eq!(payment_events(&db).await, 0, "a preview writes nothing");

    // Without the owner's pick, nothing is imported.
    let refused = import(&mut owner, &account, &file, json!([])).await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.text
    );
    assert!(refused.message().contains(&format!("Linha {review}")));
    // A code of another account is no pick.
    let mut neighbour = sign_up(&app, "vizinho@outra.test", "Vizinho").await;
    let neighbours = neighbour.account_id.clone();
    let foreign = code(&mut neighbour, &neighbours, "7,00", None).await;
    let refused = import(
        &mut owner,
        &account,
        &file,
        json!([{"linha": review, "qrcode": foreign}]),
    )
    .await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.text
    );
    assert_eq!(payment_events(&db).await, 0);

    let done = import(
        &mut owner,
        &account,
        &file,
        json!([{"linha": review, "qrcode": second_of_two}]),
    )
    .await;
    assert_eq!(done.status, StatusCode::CREATED, "{}", done.text);
    assert_eq!(done.json["registrados"], 3, "{}", done.text);
    wait_for_payments(&db, 3).await;
    let listed = payments(&mut owner, &account, "origem=extrato").await;
    let code_of = |amount: i64| {
        listed
            .iter()
            .find(|p| p["amountCentavos"] == amount)
            .map(|p| p["qrcodeId"].clone())
    };
    assert_eq!(code_of(1_250), Some(json!(by_txid)));
    assert_eq!(code_of(3_000), Some(json!(by_amount)));
    assert_eq!(code_of(700), Some(json!(second_of_two)));
}

#[tokio::test]
async fn importing_again_changes_nothing_undoing_puts_the_list_and_totals_back_and_a_new_import_records_again()
 {
    let app = TestApp::spawn().await;
    let db = app.db().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona da Padaria").await;
    let account = owner.account_id.clone();
    // A payment typed in by hand before any import.
    let typed = owner
        .post(
            &Person::in_account(&account, "/payments"),
            &json!({"amount": "99,00"}),
        )
        .await;
    assert_eq!(typed.status, StatusCode::CREATED, "{}", typed.text);
    wait_for_payments(&db, 1).await;
    let before_totals = totals(&mut owner, &account).await;
    let before_list = payments(&mut owner, &account, "situacao=received").await;
    let file = ofx(&[
        stmttrn("R1", 30, "15,00", "PIX RECEBIDO - Carla"),
        stmttrn("R2", 20, "25,00", "PIX RECEBIDO - Beto"),
    ]);
    let first = import(&mut owner, &account, &file, json!([])).await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text);
    assert_eq!(first.json["registrados"], 2);
    wait_for_payments(&db, 3).await;
    let after_totals = totals(&mut owner, &account).await;
    assert_eq!(after_totals["receivedCentavos"], 9_900 + 4_000);

    // The same file again: nothing new.
    let events = payment_events(&db).await;
    let seen = preview(&mut owner, &account, &file).await;
    assert_eq!(seen.json["jaImportados"], 2, "{}", seen.text);
    let again = import(&mut owner, &account, &file, json!([])).await;
    assert_eq!(again.status, StatusCode::CREATED, "{}", again.text);
    assert_eq!(
        (&again.json["registrados"], &again.json["jaImportados"]),
        (&json!(0), &json!(2))
    );
    assert_eq!(payment_events(&db).await, events);

    // Undo: the list of standing payments and the totals are as before the import.
    let import_id = first.json["importacao"]
        .as_str()
        .expect("import id")
        .to_owned();
    let undone = owner
        .delete(&Person::in_account(
            &account,
            &format!("/extratos/{import_id}"),
        ))
        .await;
    assert_eq!(undone.status, StatusCode::OK, "{}", undone.text);
    assert_eq!(undone.json["anulados"], 2);
    let back = totals(&mut owner, &account).await;
    assert_eq!(
        back["receivedCentavos"], before_totals["receivedCentavos"],
        "{back}"
    );
    assert_eq!(back["payments"], before_totals["payments"], "{back}");
    let list = payments(&mut owner, &account, "situacao=received").await;
    assert_eq!(list, before_list);
    let voided = payments(&mut owner, &account, "situacao=voided").await;
    assert!(
        voided
            .iter()
            .all(|p| p["voidReason"] == "Importação desfeita"),
        "{voided:?}"
    );
    let imports = owner.get(&Person::in_account(&account, "/extratos")).await;
    assert_eq!(imports.status, StatusCode::OK, "{}", imports.text);
    let listed = &imports.json["importacoes"];
    assert_eq!(listed.as_array().map(Vec::len), Some(1), "{}", imports.text);
    assert_eq!(listed[0]["importacao"], import_id.as_str());
    assert_eq!(listed[0]["arquivo"], "extrato.ofx");
    assert_eq!(listed[0]["registrados"], 2);
    assert_eq!(listed[0]["desfeita"], true);
    // Undone once.
    let twice = owner
        .delete(&Person::in_account(
            &account,
            &format!("/extratos/{import_id}"),
        ))
        .await;
    assert_eq!(twice.status, StatusCode::CONFLICT, "{}", twice.text);
    assert_eq!(twice.code(), "statement-import-already-undone");

    // Imported again after the undo: the lines are payments again.
    let seen = preview(&mut owner, &account, &file).await;
    assert_eq!(seen.json["semQrcode"], 2, "{}", seen.text);
    let renewed = import(&mut owner, &account, &file, json!([])).await;
    assert_eq!(renewed.json["registrados"], 2, "{}", renewed.text);
    let renewed_totals = totals(&mut owner, &account).await;
    assert_eq!(
        renewed_totals["receivedCentavos"],
        9_900 + 4_000,
        "{renewed_totals}"
    );

    // A replay of the payments (recorded, undone, recorded again) and of the imports equals live.
    let imports = async || -> Vec<String> {
        sqlx::query_scalar(
            "select row_to_json(i)::text from (select * from statement_imports
               order by account_id, import_id) i",
        )
        .fetch_all(&db)
        .await
        .expect("imports")
    };
    let live = (read_models(&db).await, imports().await);
    assert_eq!(live.1.len(), 2, "{:?}", live.1);
    gateway::roles::replay(
        &app.settings,
        &["payments".to_owned(), "statement_imports".to_owned()],
        false,
    )
    .await
    .expect("replay");
    assert_eq!(
        (read_models(&db).await, imports().await),
        live,
        "replay equals live"
    );
    app.stop().await;
}

#[tokio::test]
async fn a_payment_the_webhook_reported_and_the_statement_lists_is_one_payment_in_either_order() {
    let app = TestApp::spawn().await;
    let db = app.db().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona da Padaria").await;
    let account = owner.account_id.clone();
    let key = register_key(&mut owner).await;
    let url = turn_on(&mut owner, key).await;

    // Webhook first: the statement's line (no end-to-end id in it) is the same amount within
    // minutes, so it is linked, not added.
    let mut reported = entry(1);
    reported["valor"] = json!("42.00");
    reported["horario"] =
        json!((Utc::now() - Duration::minutes(6)).to_rfc3339_opts(SecondsFormat::Millis, true));
    let (status, body) = post_delivery(&app, &url, delivery(vec![reported]), None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    wait_for_payments(&db, 1).await;
    let file = ofx(&[stmttrn("W1", 5, "42,00", "PIX RECEBIDO - Davi")]);
    let seen = preview(&mut owner, &account, &file).await;
    let linked = line(&seen, line_of(&file, "Davi"));
    assert_eq!(linked["decisao"], "mesmo_pagamento", "{}", seen.text);
    assert_eq!(linked["pagamento"], "E8765432120200909122100000000001");
    let done = import(&mut owner, &account, &file, json!([])).await;
    assert_eq!(
        (&done.json["registrados"], &done.json["vinculados"]),
        (&json!(0), &json!(1)),
        "{}",
        done.text
    );

    // Statement first, its line carrying the end-to-end id: the bank's later report confirms it.
    let e2e = "E87654321202009091221000000000x2";
    let file = ofx(&[stmttrn(
        "W2",
        4,
        "18,00",
        &format!("PIX RECEBIDO - Eva {e2e}"),
    )]);
    let done = import(&mut owner, &account, &file, json!([])).await;
    assert_eq!(done.json["registrados"], 1, "{}", done.text);
    let mut reported = entry(0);
    reported["endToEndId"] = json!(e2e);
    reported["valor"] = json!("18.00");
    reported["horario"] =
        json!((Utc::now() - Duration::minutes(4)).to_rfc3339_opts(SecondsFormat::Millis, true));
    let (status, body) = post_delivery(&app, &url, delivery(vec![reported]), None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    wait_for_payments(&db, 2).await;
    let confirmed = tests::eventually(
        "the bank's report confirms the statement's payment",
        async || {
            let found: Option<(String, Option<String>)> =
                sqlx::query_as("select source, confirmed_by from payments where reference = $1")
                    .bind(e2e)
                    .fetch_optional(&db)
                    .await
                    .ok()?;
            found.filter(|(_, by)| by.is_some())
        },
    )
    .await;
    assert_eq!(
        confirmed,
        ("extrato".to_owned(), Some("api-pix".to_owned()))
    );
    let listed = payments(&mut owner, &account, "").await;
    assert_eq!(listed.len(), 2, "{listed:?}");
}

#[tokio::test]
async fn a_line_without_an_end_to_end_id_imported_before_the_webhook_is_the_payment_the_webhook_then_reports()
 {
    let app = TestApp::spawn().await;
    let db = app.db().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona da Padaria").await;
    let account = owner.account_id.clone();
    let key = register_key(&mut owner).await;
    let url = turn_on(&mut owner, key).await;
    // The statement names no end-to-end id: the line is recorded on a stream of its own.
    let file = ofx(&[stmttrn("S1", 9, "27,50", "PIX RECEBIDO - Davi")]);
    let done = import(&mut owner, &account, &file, json!([])).await;
    assert_eq!(done.json["registrados"], 1, "{}", done.text);
    wait_for_payments(&db, 1).await;
    // The bank then reports it, a minute off the statement's time, and again (a retry).
    let mut reported = entry(7);
    reported["valor"] = json!("27.50");
    reported["horario"] =
        json!((Utc::now() - Duration::minutes(8)).to_rfc3339_opts(SecondsFormat::Millis, true));
    for _ in 0..2 {
        let (status, body) =
            post_delivery(&app, &url, delivery(vec![reported.clone()]), None).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    let e2e = reported["endToEndId"].as_str().expect("e2e").to_owned();
    let shown = tests::eventually(
        "the statement's payment learns its end-to-end id",
        async || {
            let listed = payments(&mut owner, &account, "").await;
            (listed.len() == 1 && listed[0]["endToEndId"] == json!(e2e)).then_some(listed)
        },
    )
    .await;
    assert_eq!(shown[0]["source"], "extrato", "{shown:?}");
    assert_eq!(shown[0]["confirmedBy"], "api-pix", "{shown:?}");
    // Its history names the file and line it came from, then the bank's id it learnt.
    let reference = shown[0]["reference"].as_str().expect("a reference");
    let history = owner
        .get(&Person::in_account(
            &account,
            &format!("/payments/{reference}/history"),
        ))
        .await;
    assert_eq!(history.status, StatusCode::OK, "{}", history.text);
    let events = &history.json["events"];
    assert_eq!(events[0]["statement"]["arquivo"], "extrato.ofx", "{events}");
    assert_eq!(
        events[0]["statement"]["linha"],
        line_of(&file, "Davi"),
        "{events}"
    );
    assert_eq!(events[1]["type"], "PaymentConfirmed", "{events}");
    assert_eq!(events[1]["endToEndId"], json!(e2e), "{events}");
    assert_eq!(
        totals(&mut owner, &account).await["receivedCentavos"],
        2_750
    );
    // On the log: one payment recorded, confirmed once; no stream under the bank's id.
    let streams: Vec<(String, String)> = sqlx::query_as(
        "select stream_id, event_type from events
          where stream_type = 'payment' order by global_position",
    )
    .fetch_all(&db)
    .await
    .expect("the log");
    assert_eq!(streams.len(), 2, "{streams:?}");
    assert_eq!(streams[0].0, streams[1].0, "{streams:?}");
    assert_eq!(streams[1].1, "PaymentConfirmed", "{streams:?}");
    assert!(!streams[0].0.contains(&e2e), "{streams:?}");
    // The read models equal a replay of the log.
    assert_replay_equals_live(&app, &db).await;
    app.stop().await;
}

#[tokio::test]
async fn a_broken_or_unknown_or_oversized_file_is_refused_in_portuguese_and_nothing_is_written() {
    let app = TestApp::spawn().await;
    let db = app.db().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona da Padaria").await;
    let account = owner.account_id.clone();
    let broken = ofx(&[
        stmttrn("B1", 3, "12,50", "PIX RECEBIDO - Maria"),
        stmttrn("B2", 2, "12,5x", "PIX RECEBIDO - Joao"),
    ]);
    for answer in [
        preview(&mut owner, &account, &broken).await,
        import(&mut owner, &account, &broken, json!([])).await,
    ] {
        assert_eq!(
            answer.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            answer.text
        );
        assert_eq!(answer.code(), "statement-invalid-amount");
        let message = answer.message();
        assert!(
            message.starts_with("Linha ") && message.contains("12,5x"),
            "{message}"
        );
    }
    let unknown = "Quando;Quanto;Oque\n01/03/2026;10,00;PIX RECEBIDO\n";
    let refused = import(&mut owner, &account, unknown, json!([])).await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.text
    );
    assert_eq!(refused.code(), "statement-unknown-csv-layout");
    assert!(
        refused.message().contains("Quando;Quanto;Oque"),
        "{}",
        refused.text
    );
    let huge = "x".repeat(5 * 1024 * 1024 + 1);
    let refused = import(&mut owner, &account, &huge, json!([])).await;
    assert_eq!(
        refused.status,
        StatusCode::PAYLOAD_TOO_LARGE,
        "{}",
        refused.text
    );
    assert_eq!(refused.code(), "statement-too-large");
    assert_eq!(payment_events(&db).await, 0);
}

#[tokio::test]
async fn a_manager_imports_and_undoes_a_statement_and_an_operator_cannot() {
    let app = TestApp::spawn().await;
    let db = app.db().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona da Padaria").await;
    let account = owner.account_id.clone();
    let (mut manager, _) = join(
        &app,
        &mut owner,
        "gerente@padaria.test",
        "Gerente",
        "manager",
    )
    .await;
    let (mut operator, _) = join(&app, &mut owner, "caixa@padaria.test", "Caixa", "operator").await;
    let file = ofx(&[stmttrn("M1", 3, "12,50", "PIX RECEBIDO - Maria")]);
    let refused = preview(&mut operator, &account, &file).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.text);
    let refused = import(&mut operator, &account, &file, json!([])).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.text);
    assert_eq!(payment_events(&db).await, 0);
    let done = import(&mut manager, &account, &file, json!([])).await;
    assert_eq!(done.status, StatusCode::CREATED, "{}", done.text);
    assert_eq!(done.json["registrados"], 1);
    let import_id = done.json["importacao"].as_str().expect("id").to_owned();
    let path = Person::in_account(&account, &format!("/extratos/{import_id}"));
    let refused = operator.delete(&path).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.text);
    let undone = manager.delete(&path).await;
    assert_eq!(undone.status, StatusCode::OK, "{}", undone.text);
}

/// A body with the owner's `colunas`.
fn mapped(file: &str, columns: Value) -> Value {
    let mut body = upload("extrato-banco-exemplo.csv", file.as_bytes(), json!([]));
    body["colunas"] = columns;
    body
}

/// The preview of `file` read with the owner's `columns`.
async fn preview_mapped(person: &mut Person, account: &str, file: &str, columns: Value) -> Answer {
    person
        .post(
            &Person::in_account(account, "/extratos/previa"),
            &mapped(file, columns),
        )
        .await
}

#[tokio::test]
async fn a_csv_of_a_bank_balcao_does_not_know_is_read_with_the_columns_the_owner_names() {
    let app = TestApp::spawn().await;
    let db = app.db().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona da Padaria").await;
    let account = owner.account_id.clone();
    let today = brt(Utc::now() - Duration::minutes(30)).format("%d/%m/%Y");
    let file = format!(
        "Banco Exemplo S.A.;Extrato de conta\n;;;;\nQuando;Histórico;Entrada;Saída;Quem\n\
         {today};PIX RECEBIDO;12,50;;Fulano\n{today};PIX ENVIADO;;8,00;Padaria\n\
         {today};Pix recebido;30,00;;Beltrana\n"
    );
    // (The empty row after the bank's name, as a spreadsheet writes it, is not a row of the sample,
    // nor counted in `cabecalho`.)
    // Unknown: refused, with the first rows for the owner to name the columns.
    let refused = preview(&mut owner, &account, &file).await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.text
    );
    assert_eq!(refused.code(), "statement-unknown-csv-layout");
    let sample = &refused.json["error"]["details"]["amostra"];
    assert_eq!(sample["separador"], ";", "{}", refused.text);
    assert_eq!(
        sample["linhas"][1],
        json!(["Quando", "Histórico", "Entrada", "Saída", "Quem"])
    );
    // Columns that cannot be right are refused naming the field.
    let good = json!({"separador": ";", "cabecalho": 2, "data": 1, "entrada": 3, "saida": 4,
                      "descricao": [2, 5]});
    for (change, field) in [
        (json!({"separador": "|"}), "colunas.separador"),
        (json!({"data": 0}), "colunas.data"),
        (json!({"valor": 3}), "colunas.valor"),
        (json!({"descricao": []}), "colunas.descricao"),
        (json!({"descricao": [1]}), "colunas"),
        (json!({"identificador": 99}), "colunas.identificador"),
    ] {
        let mut columns = good.clone();
        for (k, v) in change.as_object().expect("an object") {
            columns[k] = v.clone();
        }
        let answer = preview_mapped(&mut owner, &account, &file, columns).await;
        assert_eq!(
            answer.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            answer.text
        );
        assert_eq!(answer.json["error"]["field"], field, "{}", answer.text);
    }
    // A column the rows do not have: the parser's message names the line.
    let mut columns = good.clone();
    columns["saida"] = json!(9);
    let answer = preview_mapped(&mut owner, &account, &file, columns).await;
    assert_eq!(
        answer.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        answer.text
    );
    assert_eq!(answer.code(), "statement-chosen-column-missing");
    assert_eq!(answer.field(), Some("colunas"));
    assert_eq!(
        answer.message(),
        "Linha 4: a linha tem 5 colunas, mas a coluna 9 foi indicada para a saída. Confira as colunas escolhidas.",
        "{}",
        answer.text
    );
    assert_eq!(payment_events(&db).await, 0);
    // Named right: previewed and imported.
    let seen = preview_mapped(&mut owner, &account, &file, good.clone()).await;
    assert_eq!(seen.status, StatusCode::OK, "{}", seen.text);
    assert_eq!(seen.json["formato"], "CSV com as colunas escolhidas");
    assert_eq!(
        (&seen.json["creditosPix"], &seen.json["semQrcode"]),
        (&json!(2), &json!(2)),
        "{}",
        seen.text
    );
    let done = owner
        .post(
            &Person::in_account(&account, "/extratos"),
            &mapped(&file, good),
        )
        .await;
    assert_eq!(done.status, StatusCode::CREATED, "{}", done.text);
    assert_eq!(done.json["registrados"], 2, "{}", done.text);
    let listed = payments(&mut owner, &account, "").await;
    assert_eq!(listed.len(), 2, "{listed:?}");
    assert!(
        listed.iter().all(|p| p["source"] == "extrato"),
        "{listed:?}"
    );
    app.stop().await;
}
