//! The transactions screen's API (issue 15 item 6): filters, keyset pages, totals with their
//! São Paulo days, the streamed CSV in pt-BR formats, and each payment's audit trail read from
//! the event log.

use reqwest::StatusCode;
use serde_json::{Value, json};
use sqlx::PgPool;
use tests::{TestApp, eventually};

use super::support::{
    PIX_KEY, code_with_txid, delivery, post_delivery, register_key, spec_example, turn_on,
    wait_for_payments,
};
use crate::billing::support::{go_premium, sandbox_app};
use crate::workspace::support::{Person, sign_up, team};

/// The references of a list answer, in order.
fn references(answer: &Value) -> Vec<String> {
    answer["payments"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|p| p["reference"].as_str().expect("reference").to_owned())
        .collect()
}

/// `GET path` with a bearer token, the body as bytes (reqwest's text() drops a BOM).
async fn bytes_of(
    app: &TestApp,
    person: &Person,
    path: &str,
) -> (StatusCode, Vec<(String, String)>, Vec<u8>) {
    let response = app
        .client()
        .get(app.url(path))
        .bearer_auth(person.browser.access_token.as_deref().expect("signed in"))
        .send()
        .await
        .expect("the gateway answers");
    let status = response.status();
    let headers = response
        .headers()
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_str().unwrap_or_default().to_owned()))
        .collect();
    (
        status,
        headers,
        response.bytes().await.expect("a body").to_vec(),
    )
}

fn header<'h>(headers: &'h [(String, String)], name: &str) -> Option<&'h str> {
    headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

async fn record(person: &mut Person, account: &str, body: Value) -> String {
    let made = person
        .post(&Person::in_account(account, "/payments"), &body)
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    made.json["reference"]
        .as_str()
        .expect("reference")
        .to_owned()
}

/// Five payments over three São Paulo days, of every source and status:
/// a (owner's code, R$ 12,50, 1 Nov, a note with `;`), b (no code, R$ 1.234,56, 23:30 of 1 Nov
/// in São Paulo, 02:30 of the 2nd in UTC), e (owner's code, R$ 7,00, 2 Nov, voided),
/// c (operator's code, R$ 5,00, 3 Nov), d (the bank, operator's code, R$ 20,00, 3 Nov, a payer).
struct Fixture {
    a: String,
    b: String,
    c: String,
    d: String,
    e: String,
    owners_code: String,
    key: uuid::Uuid,
}

async fn five_payments(
    app: &TestApp,
    db: &PgPool,
    people: &mut crate::workspace::support::Team,
) -> Fixture {
    let account = people.owner.account_id.clone();
    let key = register_key(&mut people.owner).await;
    let owners_code = code_with_txid(&mut people.owner, &account, "dona1").await;
    let operators_code = code_with_txid(&mut people.operator, &account, "caixa1").await;
    let a = record(
        &mut people.owner,
        &account,
        json!({"qrcodeId": owners_code, "amount": "12,50", "paidAt": "2026-11-01T12:00:00Z",
               "note": "mesa 4; sem troco"}),
    )
    .await;
    let b = record(
        &mut people.owner,
        &account,
        json!({"amount": "1.234,56", "paidAt": "2026-11-02T02:30:00Z"}),
    )
    .await;
    let e = record(
        &mut people.manager,
        &account,
        json!({"qrcodeId": owners_code, "amount": "7,00", "paidAt": "2026-11-02T12:00:00Z"}),
    )
    .await;
    let c = record(
        &mut people.operator,
        &account,
        json!({"qrcodeId": operators_code, "amount": "5,00", "paidAt": "2026-11-03T15:00:00Z"}),
    )
    .await;
    let url = turn_on(&mut people.owner, key).await;
    let d = "E87654321202611031000transacao01".to_owned();
    let mut entry = spec_example("pixWebhook2");
    entry["endToEndId"] = json!(d);
    entry["txid"] = json!("caixa1");
    entry["valor"] = json!("20.00");
    entry["horario"] = json!("2026-11-03T13:00:00.000Z");
    entry["chave"] = json!(PIX_KEY);
    entry["infoPagador"] = json!("=1+1 obrigado");
    entry["pagador"] = json!({"nome": "Maria Cliente", "cpf": "12345678909"});
    let (status, body) = post_delivery(app, &url, delivery(vec![entry]), None).await;
    assert!(status.is_success(), "{status} {body}");
    wait_for_payments(db, 5).await;
    let voided = people
        .owner
        .post(
            &Person::in_account(&account, &format!("/payments/{e}/void")),
            &json!({"reason": "digitado duas vezes"}),
        )
        .await;
    assert_eq!(voided.status, StatusCode::OK, "{}", voided.text);
    eventually("the void in the read model", async || {
        let status: String = sqlx::query_scalar("select status from payments where reference = $1")
            .bind(&e)
            .fetch_one(db)
            .await
            .ok()?;
        (status == "voided").then_some(())
    })
    .await;
    Fixture {
        a,
        b,
        c,
        d,
        e,
        owners_code,
        key,
    }
}

#[tokio::test]
async fn every_filter_narrows_the_list_and_its_totals_alike_and_operators_see_only_their_codes() {
    let app = sandbox_app().await;
    let db = app.db().await;
    let mut people = team(&app).await;
    // Premium shows the whole history: the fixture's dates are fixed (November 2026), and
    // Grátis would hide them once they are more than 90 days old.
    go_premium(&mut people.owner).await;
    let account = people.owner.account_id.clone();
    let f = five_payments(&app, &db, &mut people).await;
    let list = |query: &str| Person::in_account(&account, &format!("/payments?{query}"));
    let summary = |query: &str| Person::in_account(&account, &format!("/payments/summary?{query}"));
    let period = "de=2026-11-01&ate=2026-11-03";

    let cases: Vec<(String, Vec<&String>)> = vec![
        (period.to_owned(), vec![&f.c, &f.d, &f.e, &f.b, &f.a]),
        // 02:30 UTC of the 2nd is 23:30 of the 1st in São Paulo.
        ("de=2026-11-01&ate=2026-11-01".to_owned(), vec![&f.b, &f.a]),
        (format!("{period}&origem=api-pix"), vec![&f.d]),
        (
            format!("{period}&origem=manual"),
            vec![&f.c, &f.e, &f.b, &f.a],
        ),
        (format!("{period}&situacao=voided"), vec![&f.e]),
        (
            format!("{period}&situacao=received"),
            vec![&f.c, &f.d, &f.b, &f.a],
        ),
        (
            format!("{period}&minimo=10,00&maximo=100"),
            vec![&f.d, &f.a],
        ),
        (format!("{period}&qrcode=sem"), vec![&f.b]),
        (
            format!("{period}&qrcode={}", f.owners_code),
            vec![&f.e, &f.a],
        ),
        (format!("{period}&chave={}", f.key), vec![&f.d]),
        (format!("{period}&busca=MESA"), vec![&f.a]),
        (format!("{period}&busca=Maria"), vec![&f.d]),
        (format!("{period}&busca=1.234,56"), vec![&f.b]),
        (format!("{period}&busca=dona1"), vec![&f.e, &f.a]),
        // An identifier is matched whole, in any case.
        (format!("{period}&busca=DONA1"), vec![&f.e, &f.a]),
        (
            format!("{period}&busca=queijo"),
            vec![&f.c, &f.d, &f.e, &f.a],
        ),
        ("de=2026-11-04".to_owned(), vec![]),
    ];
    let mut failures = Vec::new();
    for (query, expected) in &cases {
        let answer = people.owner.get(&list(query)).await;
        assert_eq!(answer.status, StatusCode::OK, "{query}: {}", answer.text);
        let expected: Vec<String> = expected.iter().map(|r| (*r).clone()).collect();
        if references(&answer.json) != expected {
            failures.push(format!(
                "{query}: expected {expected:?}, got {:?}",
                references(&answer.json)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));

    // The owner sees who paid; the list names the code's description.
    let bank = people
        .owner
        .get(&list(&format!("{period}&origem=api-pix")))
        .await;
    assert_eq!(bank.json["payments"][0]["payer"]["name"], "Maria Cliente");
    let owners = people
        .owner
        .get(&list(&format!("qrcode={}", f.owners_code)))
        .await;
    assert_eq!(
        owners.json["payments"][0]["codeDescription"],
        "Pao de queijo"
    );

    // Totals: the standing payments (voided ones counted apart), per São Paulo day, every day
    // of the period listed.
    let totals = people.owner.get(&summary(period)).await;
    assert_eq!(totals.status, StatusCode::OK, "{}", totals.text);
    assert_eq!(
        totals.json["total"],
        json!({"payments": 4, "receivedCentavos": 127_206, "refundedCentavos": 0,
               "netCentavos": 127_206, "voided": 1})
    );
    assert_eq!(
        totals.json["days"],
        json!([
            {"day": "2026-11-01", "payments": 2, "receivedCentavos": 124_706, "refundedCentavos": 0, "voided": 0},
            {"day": "2026-11-02", "payments": 0, "receivedCentavos": 0, "refundedCentavos": 0, "voided": 1},
            {"day": "2026-11-03", "payments": 2, "receivedCentavos": 2_500, "refundedCentavos": 0, "voided": 0},
        ])
    );
    let manual = people
        .owner
        .get(&summary(&format!("{period}&origem=manual")))
        .await;
    assert_eq!(manual.json["total"]["payments"], 3);
    assert_eq!(manual.json["total"]["receivedCentavos"], 124_706 + 500);
    let week = people
        .owner
        .get(&summary("de=2026-10-28&ate=2026-11-03"))
        .await;
    assert_eq!(
        week.json["days"].as_array().map(Vec::len),
        Some(7),
        "one bar per day"
    );

    // The operator: only payments to the codes they made, never who paid, not even by search.
    let theirs = people.operator.get(&list(period)).await;
    assert_eq!(references(&theirs.json), vec![f.c.clone(), f.d.clone()]);
    assert!(theirs.json["payments"][1].get("payer").is_none());
    let probe = people.operator.get(&list("busca=Maria")).await;
    assert_eq!(references(&probe.json), Vec::<String>::new());
    let their_totals = people.operator.get(&summary(period)).await;
    assert_eq!(their_totals.json["total"]["payments"], 2);
    assert_eq!(their_totals.json["total"]["receivedCentavos"], 2_500);
    app.stop().await;
}

#[tokio::test]
async fn a_filter_that_cannot_be_read_is_refused_in_portuguese_naming_its_parameter() {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona da Padaria").await;
    let account = owner.account_id.clone();
    let date = "Use uma data no formato AAAA-MM-DD.";
    let money = "Use um valor em reais, como 12,50.";
    let cases = [
        ("de=01/11/2026", "de", date),
        ("ate=ontem", "ate", date),
        (
            "de=2026-11-05&ate=2026-11-01",
            "ate",
            "A data final não pode vir antes da inicial.",
        ),
        ("qrcode=nao-e-um-id", "qrcode", "Este QR code não existe."),
        ("chave=123", "chave", "Chave Pix desconhecida."),
        (
            "origem=banco",
            "origem",
            "Use origem=api-pix, api-pix-consulta, manual, sandbox ou extrato.",
        ),
        (
            "situacao=pago",
            "situacao",
            "Use situacao=received, voided ou refunded.",
        ),
        ("minimo=abc", "minimo", money),
        (
            "minimo=10,00&maximo=5,00",
            "maximo",
            "O valor máximo não pode ser menor que o mínimo.",
        ),
        (
            "depois=qualquer-coisa",
            "depois",
            "Esta página da lista não existe mais. Volte ao início.",
        ),
        ("limite=0", "limite", "Use um número de 1 a 200."),
        ("limite=muitos", "limite", "Use um número de 1 a 200."),
    ];
    let mut failures = Vec::new();
    for (query, field, message) in cases {
        for route in ["/payments", "/payments/summary", "/payments/csv"] {
            if route != "/payments" && (query.starts_with("depois") || query.starts_with("limite"))
            {
                continue;
            }
            let answer = owner
                .get(&Person::in_account(&account, &format!("{route}?{query}")))
                .await;
            if answer.status != StatusCode::UNPROCESSABLE_ENTITY
                || answer.field() != Some(field)
                || answer.message() != message
            {
                failures.push(format!(
                    "{route}?{query}: {} {:?} {:?}",
                    answer.status,
                    answer.field(),
                    answer.message()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    app.stop().await;
}

/// `n` payments reported by the bank through `owner`'s API Pix receiver in one delivery, three to
/// an instant so that pages must break ties by reference.
async fn many_payments(app: &TestApp, db: &PgPool, owner: &mut Person, n: i64) {
    let key_id = register_key(owner).await;
    let url = turn_on(owner, key_id).await;
    let entries: Vec<Value> = (1..=n)
        .map(|i| {
            let (cents, seconds) = (100 + i, i / 3);
            json!({
                "endToEndId": format!("E{i:031}"),
                "valor": format!("{}.{:02}", cents / 100, cents % 100),
                "horario": format!("2026-11-10T12:{:02}:{:02}Z", seconds / 60, seconds % 60),
                "chave": PIX_KEY,
            })
        })
        .collect();
    let (status, answer) = post_delivery(app, &url, delivery(entries), None).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    wait_for_payments(db, n).await;
}

#[tokio::test]
async fn keyset_pages_and_the_streamed_csv_hold_every_payment_exactly_once_in_order() {
    let app = sandbox_app().await;
    let db = app.db().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona da Padaria").await;
    // Premium shows the whole history: the fixture's dates are fixed (November 2026), and
    // Grátis would hide them once they are more than 90 days old.
    go_premium(&mut owner).await;
    let account = owner.account_id.clone();
    // Across three of the CSV's chunks (500 rows, then 1,000, then 2,000).
    let n = 2_345;
    many_payments(&app, &db, &mut owner, n).await;

    let mut seen: Vec<String> = Vec::new();
    let mut after: Option<String> = None;
    let mut pages = 0;
    loop {
        let query = match &after {
            Some(cursor) => format!("/payments?limite=200&depois={cursor}"),
            None => "/payments?limite=200".to_owned(),
        };
        let page = owner.get(&Person::in_account(&account, &query)).await;
        assert_eq!(page.status, StatusCode::OK, "{}", page.text);
        seen.extend(references(&page.json));
        pages += 1;
        match page.json["next"].as_str() {
            Some(next) => after = Some(next.to_owned()),
            None => break,
        }
    }
    assert_eq!(pages, 12, "2,345 payments in pages of 200");
    let mut expected: Vec<String> = (1..=n).map(|i| format!("E{i:031}")).collect();
    // Newest first, then by reference, descending.
    expected.sort_by_key(|r| std::cmp::Reverse((r[1..].parse::<i64>().expect("n") / 3, r.clone())));
    assert_eq!(seen, expected);

    let (status, headers, body) =
        bytes_of(&app, &owner, &Person::in_account(&account, "/payments/csv")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        header(&headers, "content-type"),
        Some("text/csv; charset=utf-8")
    );
    let text = String::from_utf8(body).expect("UTF-8");
    let lines: Vec<&str> = text.trim_end_matches("\r\n").split("\r\n").collect();
    assert_eq!(lines.len(), 1 + 2_345, "a header and every payment");
    let in_csv: Vec<String> = lines[1..]
        .iter()
        .map(|l| l.split(';').nth(8).expect("the E2E column").to_owned())
        .collect();
    assert_eq!(in_csv, expected);
    app.stop().await;
}

#[tokio::test]
async fn the_csv_is_utf8_with_a_bom_semicolons_and_brazilian_dates_and_amounts() {
    let app = sandbox_app().await;
    let db = app.db().await;
    let mut people = team(&app).await;
    // Premium shows the whole history: the fixture's dates are fixed (November 2026), and
    // Grátis would hide them once they are more than 90 days old.
    go_premium(&mut people.owner).await;
    let account = people.owner.account_id.clone();
    let f = five_payments(&app, &db, &mut people).await;
    let path = Person::in_account(&account, "/payments/csv?de=2026-11-01&ate=2026-11-03");

    let (status, headers, body) = bytes_of(&app, &people.owner, &path).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(&body[..3], b"\xEF\xBB\xBF", "UTF-8 with a BOM");
    assert_eq!(
        header(&headers, "content-disposition"),
        Some("attachment; filename=\"transacoes-2026-11-01-a-2026-11-03.csv\"")
    );
    let text = String::from_utf8(body[3..].to_vec()).expect("UTF-8");
    let lines: Vec<&str> = text.split("\r\n").collect();
    assert_eq!(
        lines,
        vec![
            "Data;Valor;Devolvido;Situação;Origem;QR code;Txid;Chave Pix;Identificador (E2E);Pagador;CPF/CNPJ do pagador;Mensagem do pagador;Observação",
            "03/11/2026 12:00;5,00;0,00;Recebido;Registrado à mão;Pao de queijo;caixa1;;;;;;",
            &format!(
                "03/11/2026 10:00;20,00;0,00;Recebido;Banco (API Pix);Pao de queijo;caixa1;{PIX_KEY};{};Maria Cliente;12345678909;'=1+1 obrigado;",
                f.d
            ),
            "02/11/2026 09:00;7,00;0,00;Anulado;Registrado à mão;Pao de queijo;dona1;;;;;;",
            "01/11/2026 23:30;1.234,56;0,00;Recebido;Registrado à mão;sem QR code;;;;;;;",
            "01/11/2026 09:00;12,50;0,00;Recebido;Registrado à mão;Pao de queijo;dona1;;;;;;\"mesa 4; sem troco\"",
            "",
        ]
    );
    assert!([&f.a, &f.b, &f.c, &f.e].iter().all(|r| !r.is_empty()));

    // As browsers ask for it, compressed: the streamed body ends cleanly (the compression layer
    // polls it once more after its end).
    let compressed = app
        .client()
        .get(app.url(&path))
        .bearer_auth(
            people
                .owner
                .browser
                .access_token
                .as_deref()
                .expect("signed in"),
        )
        .header("accept-encoding", "gzip")
        .send()
        .await
        .expect("the gateway answers");
    assert_eq!(compressed.status(), StatusCode::OK);
    assert_eq!(
        compressed
            .headers()
            .get("content-encoding")
            .and_then(|v| v.to_str().ok()),
        Some("gzip")
    );
    let gzipped = compressed.bytes().await.expect("the whole body arrives");
    assert_eq!(&gzipped[..2], b"\x1f\x8b");

    // An operator's file: their codes' payments, and no payer columns.
    let (status, _, body) = bytes_of(&app, &people.operator, &path).await;
    assert_eq!(status, StatusCode::OK);
    let text = String::from_utf8(body[3..].to_vec()).expect("UTF-8");
    let lines: Vec<&str> = text.trim_end_matches("\r\n").split("\r\n").collect();
    assert_eq!(
        lines[0],
        "Data;Valor;Devolvido;Situação;Origem;QR code;Txid;Chave Pix;Identificador (E2E);Observação"
    );
    assert_eq!(lines.len(), 3);
    assert!(!text.contains("Maria"));
    app.stop().await;
}

#[tokio::test]
async fn the_history_lists_every_event_of_the_payment_from_the_log_with_who_and_its_ids() {
    let app = TestApp::spawn().await;
    let db = app.db().await;
    let mut people = team(&app).await;
    let account = people.owner.account_id.clone();
    let key = register_key(&mut people.owner).await;
    let owners_code = code_with_txid(&mut people.owner, &account, "dona1").await;
    let url = turn_on(&mut people.owner, key).await;

    // The manager types a payment in, the owner voids it, then the bank reports it: recorded,
    // voided, confirmed.
    let e2e = "E12345678202611051200historia001";
    let reference = record(
        &mut people.manager,
        &account,
        json!({"qrcodeId": owners_code, "amount": "30,00", "endToEndId": e2e}),
    )
    .await;
    let history_path = Person::in_account(&account, &format!("/payments/{reference}/history"));
    let voided = people
        .owner
        .post(
            &Person::in_account(&account, &format!("/payments/{reference}/void")),
            &json!({"reason": "cliente desistiu"}),
        )
        .await;
    assert_eq!(voided.status, StatusCode::OK, "{}", voided.text);
    let mut entry = spec_example("pixWebhook1");
    entry["endToEndId"] = json!(e2e);
    entry["txid"] = json!("dona1");
    entry["chave"] = json!(PIX_KEY);
    let (status, body) = post_delivery(&app, &url, delivery(vec![entry]), None).await;
    assert!(status.is_success(), "{status} {body}");

    let history = eventually("four events in the history", async || {
        let answer = people.owner.get(&history_path).await;
        (answer.json["events"].as_array().map(Vec::len) == Some(4)).then_some(answer)
    })
    .await;
    let events = history.json["events"].as_array().expect("events");
    let kinds: Vec<&str> = events
        .iter()
        .map(|e| e["type"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(
        kinds,
        [
            "PaymentRecorded",
            "PaymentVoided",
            "PaymentConfirmed",
            "PaymentRefunded"
        ]
    );
    assert_eq!(events[0]["source"], "manual");
    assert_eq!(events[0]["amountCentavos"], 3_000);
    assert_eq!(events[0]["by"]["kind"], "person");
    assert_eq!(events[0]["by"]["name"], "Gerente");
    assert_eq!(events[1]["reason"], "cliente desistiu");
    assert_eq!(events[1]["by"]["name"], "Dona da Padaria");
    assert_eq!(events[2]["source"], "api-pix");
    assert_eq!(events[2]["amountCentavos"], 11_000);
    assert_eq!(events[2]["by"]["kind"], "bank");
    assert_eq!(events[3]["refund"]["status"], "EM_PROCESSAMENTO");
    assert_eq!(events[3]["refund"]["amountCentavos"], 1_000);

    // The ids are the log's own: each event's id and correlation id as stored, and the bank's
    // one delivery shares one correlation.
    let stored: Vec<(uuid::Uuid, Option<String>)> = sqlx::query_as(
        "select event_id, metadata->>'correlation_id' from events
          where stream_type = 'payment' and stream_id = $1 order by stream_version",
    )
    .bind(format!("{account}:{reference}"))
    .fetch_all(&db)
    .await
    .expect("the stream");
    let answered: Vec<(uuid::Uuid, Option<String>)> = events
        .iter()
        .map(|e| {
            (
                e["eventId"]
                    .as_str()
                    .and_then(|s| s.parse().ok())
                    .expect("an id"),
                e["correlationId"].as_str().map(str::to_owned),
            )
        })
        .collect();
    assert_eq!(answered, stored);
    assert_eq!(events[2]["correlationId"], events[3]["correlationId"]);
    assert_ne!(events[0]["correlationId"], events[1]["correlationId"]);
    assert!(events.iter().all(|e| e.get("causationId").is_some()));
    assert!(
        !history.text.contains("0123456789"),
        "no payer data in the trail"
    );

    // Who may read it: as the payment itself.
    let operator = people.operator.get(&history_path).await;
    assert_eq!(operator.status, StatusCode::FORBIDDEN, "{}", operator.text);
    let missing = people
        .owner
        .get(&Person::in_account(
            &account,
            "/payments/manual-nao-existe/history",
        ))
        .await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    app.stop().await;
}
