//! A big bank statement imported in the background (issue 35): answered 202 at once, followed by
//! its progress to the last line, each line once however often the same import is sent.

use base64::Engine as _;
use reqwest::StatusCode;
use serde_json::{Value, json};
use tests::TestApp;

use crate::workspace::support::{Person, sign_up};

/// A Nubank CSV of `lines` Pix received in November 2026, amounts from R$ 1,00 up.
fn statement(lines: usize) -> String {
    let mut csv = String::from("Data,Valor,Identificador,Descrição\n");
    for n in 0..lines {
        csv.push_str(&format!(
            "{:02}/11/2026,{}.{:02},bg{n},Transferência recebida pelo Pix - CLIENTE {n}\n",
            n % 27 + 1,
            n / 100 + 1,
            n % 100
        ));
    }
    csv
}

fn upload(file: &str) -> Value {
    json!({
        "arquivo": "extrato-novembro.csv",
        "conteudo": base64::engine::general_purpose::STANDARD.encode(file),
        "escolhas": [],
    })
}

async fn progress(owner: &mut Person, account: &str, import: &str) -> Value {
    let answer = owner
        .get(&Person::in_account(
            account,
            &format!("/extratos/{import}/andamento"),
        ))
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    answer.json
}

#[tokio::test]
async fn a_statement_of_thousands_of_pix_is_written_in_the_background_and_its_progress_reaches_every_line()
 {
    let app = TestApp::spawn().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona da Padaria").await;
    let account = owner.account_id.clone();
    let file = statement(2_600);
    owner
        .browser
        .set_header("idempotency-key", "extrato-novembro-1");
    let started = owner
        .post(&Person::in_account(&account, "/extratos"), &upload(&file))
        .await;
    assert_eq!(started.status, StatusCode::ACCEPTED, "{}", started.text);
    assert_eq!(started.json["emAndamento"], true);
    assert_eq!(started.json["total"], 2_600);
    let import = started.json["importacao"]
        .as_str()
        .expect("the import's id")
        .to_owned();
    // The same import sent again (a retry): the same import, nothing written twice.
    let again = owner
        .post(&Person::in_account(&account, "/extratos"), &upload(&file))
        .await;
    assert!(
        again.status == StatusCode::ACCEPTED || again.status == StatusCode::CREATED,
        "{}",
        again.text
    );
    assert_eq!(again.json["importacao"], json!(import));
    let done = tests::eventually("the import runs to its last line", async || {
        let now = progress(&mut owner, &account, &import).await;
        (now["concluida"] == true).then_some(now)
    })
    .await;
    assert_eq!(done["feitas"], 2_600, "{done}");
    assert_eq!(done["arquivo"], "extrato-novembro.csv");
    assert!(done.get("incompleta").is_none(), "{done}");
    assert_eq!(
        done["registrados"].as_u64().unwrap_or_default()
            + done["jaImportados"].as_u64().unwrap_or_default(),
        2_600,
        "{done}"
    );
    // Every line once, in the list's totals and in the imports.
    let summary = owner
        .get(&Person::in_account(&account, "/payments/summary"))
        .await;
    assert_eq!(summary.json["total"]["payments"], 2_600, "{}", summary.text);
    let imports = owner.get(&Person::in_account(&account, "/extratos")).await;
    assert_eq!(imports.json["importacoes"][0]["registrados"], 2_600);
    // An import this account has no run of is not found.
    let unknown = owner
        .get(&Person::in_account(
            &account,
            "/extratos/0190f1a2-0000-7000-8000-00000000abcd/andamento",
        ))
        .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND, "{}", unknown.text);
    app.stop().await;
}
