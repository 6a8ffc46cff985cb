//! Charges through the connected bank (issue 33, `cob`): the bank makes an immediate charge,
//! Balcão records its dynamic code, the payer page counts its validity down and says "Pagamento
//! recebido" when the bank reports the payment; past its validity the page offers no code.

use reqwest::StatusCode;
use serde_json::{Value, json};
use tests::api_pix_bank::{BankSimulator, Failure, SimulatorConfig};
use tests::{TestApp, eventually};

use super::support::{
    app_beside, app_beside_with, connect_sicredi, connection_path, owner_with_the_banks_key,
    sicredi,
};
use crate::workspace::support::Person;

/// A bank shaped like Sicredi, an app beside it, and an owner whose key is connected to it;
/// answers the key's id too.
async fn connected() -> (BankSimulator, TestApp, Person, String) {
    let bank = BankSimulator::start(sicredi()).await;
    let app = app_beside(&bank).await;
    let (mut owner, key_id) = owner_with_the_banks_key(&app).await;
    connect_sicredi(&mut owner, &bank, &key_id).await;
    (bank, app, owner, key_id)
}

fn charges_path(owner: &Person) -> String {
    Person::in_account(&owner.account_id, "/qrcodes/cobrancas")
}

async fn payer_page(app: &TestApp, id: &str) -> String {
    let response = reqwest::get(format!("{}/pagamento/{id}", app.base_url))
        .await
        .expect("the payer page answers");
    assert_eq!(response.status(), StatusCode::OK);
    response.text().await.expect("its body")
}

/// The payment `e2e` once the transactions have it.
async fn payment_once_shown(owner: &mut Person, e2e: &str) -> Value {
    eventually("the charge's payment in the transactions", async || {
        let shown = owner
            .get(&Person::in_account(
                &owner.account_id,
                &format!("/payments/{e2e}"),
            ))
            .await;
        (shown.status == StatusCode::OK).then_some(shown.json)
    })
    .await
}

/// The fields a 422 names, in order.
fn problem_fields(answer: &tests::browser::Answer) -> Vec<String> {
    answer.json["error"]["problems"]
        .as_array()
        .expect("problems")
        .iter()
        .filter_map(|p| p["field"].as_str().map(str::to_owned))
        .collect()
}

async fn codes(owner: &mut Person) -> Vec<Value> {
    let listed = owner
        .get(&Person::in_account(&owner.account_id, "/qrcodes"))
        .await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.text);
    listed.json["qrcodes"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

#[tokio::test]
async fn a_charge_made_through_the_bank_is_the_banks_dynamic_code_and_its_page_shows_the_payment() {
    let (bank, app, mut owner, key_id) = connected().await;
    owner
        .browser
        .set_header("Idempotency-Key", "cobranca-mesa-7");
    let body = json!({
        "keyId": key_id, "merchantCity": "Porto Alegre",
        "amount": "45,90",
        "description": "Pedido 42",
        "expiresInMinutes": 30,
    });
    let made = owner.post(&charges_path(&owner), &body).await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    let id = made.json["id"].as_str().expect("an id").to_owned();
    let txid = made.json["txid"].as_str().expect("a txid").to_owned();
    assert_eq!(made.json["amountCentavos"], 4_590);
    assert_eq!(made.json["singleUse"], true);
    assert!(made.json["chargeExpiresAt"].is_string(), "{}", made.text);

    // The bank holds the charge as the spec says, and the code is the dynamic code of its
    // location, with `***` for the txid.
    let at_bank = bank.charge(&txid).expect("the charge at the bank");
    assert_eq!(at_bank["valor"]["original"], "45.90");
    assert_eq!(at_bank["calendario"]["expiracao"], 1_800);
    assert_eq!(at_bank["solicitacaoPagador"], "Pedido 42");
    let location = at_bank["loc"]["location"]
        .as_str()
        .or(at_bank["location"].as_str())
        .expect("a location");
    let payload = made.json["payload"].as_str().expect("a payload");
    let parsed = domain::brcode::validate_strict(payload).expect("a code every bank app reads");
    assert_eq!(parsed.code.kind(), Some(domain::brcode::CodeKind::Dynamic));
    assert_eq!(parsed.code.txid(), Some("***"));
    assert!(
        payload.contains(location.trim_start_matches("https://")),
        "{payload} / {location}"
    );

    // The same request again (a lost answer) is the same charge: the bank is not asked twice.
    let again = owner.post(&charges_path(&owner), &body).await;
    assert_eq!(again.status, StatusCode::CREATED, "{}", again.text);
    assert_eq!(again.json["id"], id.as_str());
    assert_eq!(again.header("idempotent-replayed"), Some("true"));
    assert_eq!(bank.charge(&txid).expect("still there")["revisao"], 0);
    // The same key with other values is refused, nothing made.
    let other = owner
        .post(&charges_path(&owner), &json!({"keyId": key_id, "merchantCity": "Porto Alegre", "amount": "10,00", "expiresInMinutes": 30}))
        .await;
    assert_eq!(other.status, StatusCode::CONFLICT, "{}", other.text);
    assert_eq!(codes(&mut owner).await.len(), 1);

    let page = payer_page(&app, &id).await;
    assert!(page.contains("Pague até"), "{page}");
    assert!(page.contains("data-restam=\""), "{page}");
    assert!(page.contains(payload), "the page offers the code");
    assert!(
        !page.contains("Imprimir placa"),
        "a charge of minutes is no sign to print"
    );

    // The payer pays; the bank says so by webhook: the payment is the code's, and its page says
    // it was paid to everyone.
    let e2e = bank.pay_charge(&txid);
    let shown = payment_once_shown(&mut owner, &e2e).await;
    assert_eq!(shown["qrcodeId"], id.as_str(), "{shown}");
    assert_eq!(shown["amountCentavos"], 4_590, "{shown}");
    let paid = eventually("the payer page says it was paid", async || {
        let page = payer_page(&app, &id).await;
        page.contains("Este QR code já foi pago").then_some(page)
    })
    .await;
    assert!(paid.contains("Pagamento recebido"), "{paid}");
    assert!(!paid.contains(payload), "a paid charge offers no code");
    bank.assert_every_request_was_valid();
}

#[tokio::test]
async fn a_charge_past_its_validity_is_no_longer_offered_on_its_page() {
    let (bank, app, mut owner, key_id) = connected().await;
    let made = owner
        .post(
            &charges_path(&owner),
            &json!({"keyId": key_id, "merchantCity": "Porto Alegre", "amount": "12,00", "expiresInMinutes": 1}),
        )
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    let id = made.json["id"].as_str().expect("an id").to_owned();
    let payload = made.json["payload"].as_str().expect("a payload").to_owned();
    assert!(payer_page(&app, &id).await.contains(&payload));

    app.settings.clock.advance(chrono::Duration::seconds(61));
    let page = payer_page(&app, &id).await;
    assert!(page.contains("Esta cobrança expirou"), "{page}");
    assert!(!page.contains(&payload), "an expired charge offers no code");
    bank.assert_every_request_was_valid();
}

#[tokio::test]
async fn a_charge_is_refused_with_every_problem_or_the_banks_words_and_nothing_is_recorded() {
    let (bank, app, mut owner, key_id) = connected().await;
    let bad = owner
        .post(
            &charges_path(&owner),
            &json!({
                "keyId": key_id, "merchantCity": "Porto Alegre",
                "amount": "quarenta",
                "description": "x".repeat(141),
                "expiresInMinutes": 0,
            }),
        )
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
    let fields = problem_fields(&bad);
    assert_eq!(
        fields,
        ["amount", "description", "expiresInMinutes"],
        "{}",
        bad.text
    );

    // The bank down: a clear answer, and no code the bank never made.
    // Two: the background catch-up may take one of them.
    bank.fail_next(2, Failure::ServerError { status: 503 });
    let down = owner
        .post(
            &charges_path(&owner),
            &json!({"keyId": key_id, "merchantCity": "Porto Alegre", "amount": "40,00", "expiresInMinutes": 15}),
        )
        .await;
    assert_eq!(down.status, StatusCode::BAD_GATEWAY, "{}", down.text);
    assert_eq!(down.code(), "bank-unavailable", "{}", down.text);
    assert!(
        down.message().starts_with("O banco não criou a cobrança."),
        "{}",
        down.text
    );
    assert!(codes(&mut owner).await.is_empty());
    let metrics = app.metrics().await;
    // The recorder is the process's: other tests' charges count there too.
    assert!(
        metrics.contains("balcao_bank_charges_total{outcome=\"failed\"}"),
        "no failed charge in /metrics"
    );

    // A key with no connected bank.
    let removed = owner.delete(&connection_path(&owner, &key_id)).await;
    assert_eq!(removed.status, StatusCode::NO_CONTENT, "{}", removed.text);
    let unconnected = owner
        .post(
            &charges_path(&owner),
            &json!({"keyId": key_id, "merchantCity": "Porto Alegre", "amount": "40,00", "expiresInMinutes": 15}),
        )
        .await;
    assert_eq!(
        unconnected.status,
        StatusCode::CONFLICT,
        "{}",
        unconnected.text
    );
    assert_eq!(unconnected.code(), "bank-not-connected");
    assert!(codes(&mut owner).await.is_empty());
    bank.assert_every_request_was_valid();
}

/// `days` from today in Brasília, `YYYY-MM-DD`.
fn brasilia_day(days: i64) -> String {
    let brasilia = chrono::FixedOffset::west_opt(3 * 3600).expect("an offset");
    (chrono::Utc::now().with_timezone(&brasilia) + chrono::Duration::days(days))
        .format("%Y-%m-%d")
        .to_string()
}

/// `YYYY-MM-DD` as the page writes it, `DD/MM/YYYY`.
fn written(day: &str) -> String {
    let parts: Vec<&str> = day.split('-').collect();
    format!("{}/{}/{}", parts[2], parts[1], parts[0])
}

#[tokio::test]
async fn a_due_date_charge_carries_its_terms_to_the_bank_keeps_the_debtor_sealed_and_shows_them_to_the_payer()
 {
    let (bank, app, mut owner, key_id) = connected().await;
    let due = brasilia_day(10);
    let until = brasilia_day(8);
    let until_early = brasilia_day(3);
    let made = owner
        .post(
            &charges_path(&owner),
            &json!({
                "keyId": key_id, "merchantCity": "Porto Alegre",
                "amount": "150,00",
                "description": "Mensalidade de dezembro",
                "dueDate": due,
                "daysAfterDue": 15,
                "debtor": {"name": "Maria da Silva", "document": "123.456.789-09"},
                "fine": {"modality": 2, "value": "2,00"},
                "interest": {"modality": 3, "value": "1,00"},
                "discount": {"modality": 1, "dates": [
                    {"until": until_early, "value": "8,00"},
                    {"until": until, "value": "5,00"},
                ]},
                "abatement": {"modality": 1, "value": "10,00"},
            }),
        )
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    let id = made.json["id"].as_str().expect("an id").to_owned();
    let txid = made.json["txid"].as_str().expect("a txid").to_owned();
    let payload = made.json["payload"].as_str().expect("a payload").to_owned();
    let parsed = domain::brcode::validate_strict(&payload).expect("a code every bank app reads");
    assert_eq!(parsed.code.kind(), Some(domain::brcode::CodeKind::Dynamic));

    // The bank holds a `cobv` with the spec's modalities.
    let at_bank = bank.charge(&txid).expect("the charge at the bank");
    assert_eq!(at_bank["loc"]["tipoCob"], "cobv", "{at_bank}");
    assert_eq!(at_bank["calendario"]["dataDeVencimento"], due.as_str());
    assert_eq!(at_bank["calendario"]["validadeAposVencimento"], 15);
    assert_eq!(at_bank["devedor"]["cpf"], "12345678909");
    assert_eq!(at_bank["devedor"]["nome"], "Maria da Silva");
    assert_eq!(at_bank["valor"]["original"], "150.00");
    assert_eq!(
        at_bank["valor"]["multa"],
        json!({"modalidade": 2, "valorPerc": "2.00"})
    );
    assert_eq!(
        at_bank["valor"]["juros"],
        json!({"modalidade": 3, "valorPerc": "1.00"})
    );
    assert_eq!(
        at_bank["valor"]["desconto"],
        json!({"modalidade": 1, "descontoDataFixa": [
            {"data": until_early, "valorPerc": "8.00"},
            {"data": until, "valorPerc": "5.00"},
        ]})
    );
    assert_eq!(
        at_bank["valor"]["abatimento"],
        json!({"modalidade": 1, "valorPerc": "10.00"})
    );
    assert_eq!(at_bank["solicitacaoPagador"], "Mensalidade de dezembro");

    // The debtor is in the log only sealed with the account's key.
    let db = app.db().await;
    let plain: i64 = sqlx::query_scalar(
        "select count(*) from events
          where payload::text like '%Maria da Silva%' or payload::text like '%12345678909%'",
    )
    .fetch_one(&db)
    .await
    .expect("count");
    assert_eq!(plain, 0, "the debtor in the clear in the log");

    let page = payer_page(&app, &id).await;
    assert!(
        page.contains(&format!("Vencimento: {}", written(&due))),
        "{page}"
    );
    for (day, value) in [(&until_early, "8,00"), (&until, "5,00")] {
        let line = format!("Pagando até {}, desconto de R$ {value}.", written(day));
        assert!(page.contains(&line), "{line}: {page}");
    }
    assert!(
        page.contains("Abatimento de R$ 10,00 sobre o valor."),
        "{page}"
    );
    assert!(
        page.contains("Depois do vencimento, multa de 2,00% e juros de 1,00% ao mês."),
        "{page}"
    );
    assert!(page.contains("Pode ser paga até"), "{page}");
    assert!(
        !page.contains("data-restam"),
        "no countdown for a charge of days"
    );
    assert!(page.contains(&payload));

    let e2e = bank.pay_charge(&txid);
    let shown = payment_once_shown(&mut owner, &e2e).await;
    assert_eq!(shown["qrcodeId"], id.as_str(), "{shown}");
    eventually("its page says it was paid", async || {
        payer_page(&app, &id)
            .await
            .contains("Este QR code já foi pago")
            .then_some(())
    })
    .await;
    bank.assert_every_request_was_valid();
}

#[tokio::test]
async fn a_due_date_charge_with_bad_terms_names_every_field_and_reaches_no_bank() {
    let (bank, _app, mut owner, key_id) = connected().await;
    let tokens = bank.tokens_issued();
    let bad = owner
        .post(
            &charges_path(&owner),
            &json!({
                "keyId": key_id, "merchantCity": "Porto Alegre",
                "amount": "150,00",
                "dueDate": brasilia_day(-1),
                "daysAfterDue": 400,
                "debtor": {"name": "", "document": "111.111.111-12"},
                "fine": {"modality": 2, "value": "150,00"},
                "interest": {"modality": 9, "value": "1,00"},
                "discount": {"modality": 1, "dates": [{"until": brasilia_day(30), "value": "5,00"}]},
                "abatement": {"modality": 1, "value": "zero"},
            }),
        )
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
    let fields = problem_fields(&bad);
    assert_eq!(
        fields,
        [
            "dueDate",
            "daysAfterDue",
            "debtor.name",
            "debtor.document",
            "fine",
            "interest",
            "discount",
            "abatement"
        ],
        "{}",
        bad.text
    );
    // A discount per day paid early (modalities 3 to 6) is refused in words: the official
    // schema makes it ambiguous (`domain::qrcode::charge_terms::discount_offered`).
    let early = owner
        .post(
            &charges_path(&owner),
            &json!({
                "keyId": key_id, "merchantCity": "Porto Alegre",
                "amount": "150,00",
                "dueDate": brasilia_day(10),
                "debtor": {"name": "Maria da Silva", "document": "123.456.789-09"},
                "discount": {"modality": 3, "value": "0,50"},
            }),
        )
        .await;
    assert_eq!(
        early.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        early.text
    );
    assert_eq!(problem_fields(&early), ["discount"]);
    // A rule that needs the amount (the abatement takes it all) is the aggregate's own, checked
    // before the bank hears of the charge: no charge at the bank that could never be recorded.
    let whole = owner
        .post(
            &charges_path(&owner),
            &json!({
                "keyId": key_id, "merchantCity": "Porto Alegre",
                "amount": "150,00",
                "dueDate": brasilia_day(10),
                "debtor": {"name": "Maria da Silva", "document": "123.456.789-09"},
                "abatement": {"modality": 1, "value": "150,00"},
            }),
        )
        .await;
    assert_eq!(
        whole.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        whole.text
    );
    assert_eq!(problem_fields(&whole), ["abatement"]);
    assert!(codes(&mut owner).await.is_empty());
    assert_eq!(bank.tokens_issued(), tokens, "the bank was not called");
    bank.assert_every_request_was_valid();
}

#[tokio::test]
async fn the_spec_modalities_balcao_offers_reach_the_bank_as_written_and_the_payer_reads_them_in_portuguese()
 {
    let (bank, app, mut owner, key_id) = connected().await;
    let made = owner
        .post(
            &charges_path(&owner),
            &json!({
                "keyId": key_id, "merchantCity": "Porto Alegre",
                "amount": "200,00",
                "dueDate": brasilia_day(20),
                "debtor": {"name": "Padaria Sol Ltda", "document": "11.222.333/0001-81"},
                "fine": {"modality": 1, "value": "7,50"},
                "interest": {"modality": 7, "value": "2,50"},
                "discount": {"modality": 2, "dates": [{"until": brasilia_day(5), "value": "3,00"}]},
                "abatement": {"modality": 2, "value": "5,00"},
            }),
        )
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    let txid = made.json["txid"].as_str().expect("a txid").to_owned();
    let id = made.json["id"].as_str().expect("an id").to_owned();
    let at_bank = bank.charge(&txid).expect("the charge at the bank");
    assert_eq!(at_bank["devedor"]["cnpj"], "11222333000181", "{at_bank}");
    assert_eq!(
        at_bank["calendario"]["validadeAposVencimento"], 30,
        "the spec's default"
    );
    assert_eq!(
        at_bank["valor"]["multa"],
        json!({"modalidade": 1, "valorPerc": "7.50"})
    );
    assert_eq!(
        at_bank["valor"]["juros"],
        json!({"modalidade": 7, "valorPerc": "2.50"})
    );
    assert_eq!(
        at_bank["valor"]["desconto"],
        json!({"modalidade": 2, "descontoDataFixa": [{"data": brasilia_day(5), "valorPerc": "3.00"}]})
    );
    assert_eq!(
        at_bank["valor"]["abatimento"],
        json!({"modalidade": 2, "valorPerc": "5.00"})
    );

    let page = payer_page(&app, &id).await;
    let discount = format!(
        "Pagando até {}, desconto de 3,00%.",
        written(&brasilia_day(5))
    );
    assert!(page.contains(&discount), "{discount}: {page}");
    assert!(
        page.contains("Abatimento de 5,00% sobre o valor."),
        "{page}"
    );
    assert!(
        page.contains(
            "Depois do vencimento, multa de R$ 7,50 e juros de 2,50% ao mês (dias úteis)."
        ),
        "{page}"
    );
    bank.assert_every_request_was_valid();
}

#[tokio::test]
async fn a_charge_whose_answer_was_lost_is_read_back_from_a_bank_that_refuses_its_txid_again() {
    // A bank that only creates on `PUT /cob/{txid}`, and answers the first one too late.
    let bank = BankSimulator::start(SimulatorConfig {
        quirks: tests::api_pix_bank::Quirks {
            put_charge_creates_only: true,
            ..sicredi().quirks
        },
        ..sicredi()
    })
    .await;
    let app = app_beside_with(&bank, |settings| settings.payments.bank_timeout_ms = 1_000).await;
    let (mut owner, key_id) = owner_with_the_banks_key(&app).await;
    connect_sicredi(&mut owner, &bank, &key_id).await;
    owner
        .browser
        .set_header("Idempotency-Key", "cobranca-resposta-perdida");
    let body = json!({"keyId": key_id, "merchantCity": "Porto Alegre", "amount": "30,00", "expiresInMinutes": 30});
    bank.fail_next(1, Failure::AnswerLate(std::time::Duration::from_secs(2)));
    let lost = owner.post(&charges_path(&owner), &body).await;
    assert_eq!(lost.status, StatusCode::GATEWAY_TIMEOUT, "{}", lost.text);
    assert!(
        codes(&mut owner).await.is_empty(),
        "nothing recorded without the bank's answer"
    );
    // The bank made the charge all the same; its answer is still on its way.
    tokio::time::sleep(std::time::Duration::from_millis(1_500)).await;

    let again = owner.post(&charges_path(&owner), &body).await;
    assert_eq!(again.status, StatusCode::CREATED, "{}", again.text);
    let txid = again.json["txid"].as_str().expect("a txid");
    let at_bank = bank.charge(txid).expect("the one charge at the bank");
    assert_eq!(at_bank["revisao"], 0);
    let location = at_bank["location"].as_str().expect("a location");
    let payload = again.json["payload"].as_str().expect("a payload");
    assert!(
        payload.contains(location.trim_start_matches("https://")),
        "{payload}"
    );
    assert_eq!(codes(&mut owner).await.len(), 1);
}
