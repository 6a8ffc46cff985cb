//! No credential leaves the vault (issue 33): through a whole bank journey (connect with a
//! password-protected `.p12`, test, a Pix read back by the catch-up, a refund, disconnect), the
//! client secret, the certificate's password, the private key and the `.p12` itself are in no
//! log line the app writes (at every level), no answer it gives, no event of the log, and not in
//! plain text in the table that keeps them.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use reqwest::StatusCode;
use serde_json::json;
use tests::api_pix_bank::{BankSimulator, SimulatorConfig};
use tests::eventually;
use tests::log_capture::LogCapture;

use super::support::{app_beside_with, connection_path, file, owner_with_the_banks_key, sicredi};
use crate::workspace::support::Person;

/// The key's lines between the PEM armour: the private key itself.
fn key_lines(pem: &str) -> Vec<String> {
    pem.lines()
        .filter(|line| !line.starts_with("-----") && line.len() >= 32)
        .map(str::to_owned)
        .collect()
}

// A current-thread runtime (the default): the app's tasks run on this thread, under the
// capturing subscriber set for it.
#[tokio::test]
async fn no_secret_or_key_material_reaches_a_log_line_an_answer_or_the_event_log() {
    let logs = LogCapture::start();

    let bank = BankSimulator::start(sicredi()).await;
    let app = app_beside_with(&bank, |settings| settings.payments.bank_catch_up_secs = 1).await;
    let db = app.db().await;
    let (mut owner, key_id) = owner_with_the_banks_key(&app).await;
    let client = bank.pki().client("balcao-segredos");
    let password = "senha-do-p12-7Qx";
    let p12 = client.pkcs12(Some(password));
    let mut answers = Vec::new();

    let path = connection_path(&owner, &key_id);
    let connected = owner
        .put(
            &path,
            &json!({
                "bank": "sicredi",
                "environment": "homologacao",
                "clientId": SimulatorConfig::CLIENT_ID,
                "clientSecret": SimulatorConfig::CLIENT_SECRET,
                "certificate": file("homologacao.p12", &p12),
                "certificatePassword": password,
            }),
        )
        .await;
    assert_eq!(connected.status, StatusCode::OK, "{}", connected.text);
    answers.push(connected.text);
    answers.push(owner.post(&format!("{path}/test"), &json!({})).await.text);
    answers.push(owner.get(&path).await.text);
    answers.push(
        owner
            .get(&Person::in_account(&owner.account_id, "/bank-connections"))
            .await
            .text,
    );

    // A Pix without txid (no webhook): the catch-up reads it back; then it is refunded.
    let e2e = bank.receive_pix(SimulatorConfig::KEY, 1_000, None, None);
    let payment = Person::in_account(&owner.account_id, &format!("/payments/{e2e}"));
    eventually("the Pix read back", async || {
        let shown = owner.get(&payment).await;
        (shown.status == StatusCode::OK).then_some(())
    })
    .await;
    let refund = owner
        .post(&format!("{payment}/refunds"), &json!({"amount": "5,00"}))
        .await;
    assert_eq!(refund.status, StatusCode::CREATED, "{}", refund.text);
    answers.push(refund.text);
    answers.push(owner.get(&format!("{payment}/history")).await.text);
    answers.push(owner.delete(&path).await.text);

    let events: Vec<String> = sqlx::query_scalar("select payload::text from events")
        .fetch_all(&db)
        .await
        .expect("the log reads");
    let logged = logs.text();
    assert!(
        logged.contains("bank API call"),
        "the capture sees the bank client's debug lines: {} bytes",
        logged.len()
    );

    let mut secrets = vec![
        SimulatorConfig::CLIENT_SECRET.to_owned(),
        password.to_owned(),
        STANDARD.encode(&p12)[..48].to_owned(),
    ];
    secrets.extend(key_lines(&client.key_pem));
    for secret in &secrets {
        assert!(
            !logged.contains(secret.as_str()),
            "a log line holds {secret:?}"
        );
        for answer in &answers {
            assert!(
                !answer.contains(secret.as_str()),
                "an answer holds {secret:?}: {answer}"
            );
        }
        for event in &events {
            assert!(
                !event.contains(secret.as_str()),
                "an event holds {secret:?}: {event}"
            );
        }
    }
}

#[tokio::test]
async fn the_stored_credentials_are_sealed_not_plain() {
    let bank = BankSimulator::start(sicredi()).await;
    let app = app_beside_with(&bank, |_| {}).await;
    let db = app.db().await;
    let (mut owner, key_id) = owner_with_the_banks_key(&app).await;
    let client = bank.pki().client("balcao-cofre");
    let connected = owner
        .put(
            &connection_path(&owner, &key_id),
            &super::support::p12_form("sicredi", &client),
        )
        .await;
    assert_eq!(connected.status, StatusCode::OK, "{}", connected.text);
    let row: String = sqlx::query_scalar("select row_to_json(c)::text from bank_credentials c")
        .fetch_one(&db)
        .await
        .expect("one connected key");
    for secret in [SimulatorConfig::CLIENT_SECRET, SimulatorConfig::CLIENT_ID]
        .into_iter()
        .map(str::to_owned)
        .chain(key_lines(&client.key_pem))
    {
        assert!(
            !row.contains(secret.as_str()),
            "the row holds {secret:?} in plain text"
        );
    }
}
