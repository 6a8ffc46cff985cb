//! Certificate lifecycle (issue 33): a connected key's certificate that ends within 30, 7 or 1
//! days is warned of once per threshold, by e-mail to the owner and in the connection's log; new
//! credentials start the count over. Replacing the certificate moves the bank to a new address
//! without losing what the bank had queued for the old one.

use chrono::{Duration, Utc};
use reqwest::StatusCode;
use serde_json::json;
use tests::api_pix_bank::{BankSimulator, Failure, SimulatorConfig};
use tests::eventually;

use super::support::{
    app_beside, app_beside_with, connect_sicredi, connection_path, file, owner_with_the_banks_key,
    p12_form, sicredi,
};
use crate::workspace::support::Person;

/// The payloads of the log's events of `event_type`, oldest first.
async fn events_of_type(db: &sqlx::PgPool, event_type: &str) -> Vec<serde_json::Value> {
    let texts: Vec<String> = sqlx::query_scalar(
        "select payload::text from events where event_type = $1 order by stream_version",
    )
    .bind(event_type)
    .fetch_all(db)
    .await
    .expect("the log reads");
    texts
        .iter()
        .map(|text| serde_json::from_str(text).expect("JSON"))
        .collect()
}

#[tokio::test]
async fn a_certificate_ending_in_five_days_is_warned_of_once_by_e_mail_with_the_way_to_replace_it()
{
    let bank = BankSimulator::start(sicredi()).await;
    let app = app_beside_with(&bank, |settings| settings.payments.bank_catch_up_secs = 1).await;
    let db = app.db().await;
    let (mut owner, key_id) = owner_with_the_banks_key(&app).await;
    let ending = bank
        .pki()
        .client_until("balcao-vencendo", Utc::now() + Duration::days(5));
    let form = json!({
        "bank": "sicredi",
        "environment": "homologacao",
        "clientId": tests::api_pix_bank::SimulatorConfig::CLIENT_ID,
        "clientSecret": tests::api_pix_bank::SimulatorConfig::CLIENT_SECRET,
        "certificate": file("vencendo.p12", &ending.pkcs12(None)),
    });
    let connected = owner.put(&connection_path(&owner, &key_id), &form).await;
    assert_eq!(connected.status, StatusCode::OK, "{}", connected.text);

    let warning = eventually("the warning e-mail", async || {
        app.mail
            .messages_to(&owner.email)
            .into_iter()
            .find(|m| m.subject.contains("certificado"))
    })
    .await;
    assert_eq!(
        warning.subject,
        "O certificado do seu banco no Balcão está vencendo"
    );
    assert!(warning.text.contains("Sicredi"), "{}", warning.text);
    assert!(
        warning.text.contains("vence em 4 dias") || warning.text.contains("vence em 5 dias"),
        "{}",
        warning.text
    );
    assert!(
        warning
            .link(&format!("/painel/chaves/{key_id}/banco"))
            .is_some(),
        "{}",
        warning.text
    );

    // The catch-up ticks every second: the same threshold is never warned of again.
    tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    let warnings = events_of_type(&db, "BankCertificateExpiring").await;
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(warnings[0]["threshold_days"], 7, "{:?}", warnings[0]);
    let mails = app
        .mail
        .messages_to(&owner.email)
        .into_iter()
        .filter(|m| m.subject.contains("certificado"))
        .count();
    assert_eq!(mails, 1);
}

#[tokio::test]
async fn a_certificate_far_from_its_end_is_not_warned_of() {
    let bank = BankSimulator::start(sicredi()).await;
    let app = app_beside_with(&bank, |settings| settings.payments.bank_catch_up_secs = 1).await;
    let db = app.db().await;
    let (mut owner, key_id) = owner_with_the_banks_key(&app).await;
    connect_sicredi(&mut owner, &bank, &key_id).await;
    // A few ticks of the catch-up, which looks at the certificates too.
    eventually("a catch-up run", async || {
        let page = owner.get(&connection_path(&owner, &key_id)).await;
        page.json["connection"]["catchUp"]["lastSuccessAt"]
            .is_string()
            .then_some(())
    })
    .await;
    tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    assert!(
        events_of_type(&db, "BankCertificateExpiring")
            .await
            .is_empty()
    );
}

#[tokio::test]
async fn a_new_certificate_moves_the_bank_to_a_new_address_while_the_old_one_still_takes_what_the_bank_queued()
 {
    let bank = BankSimulator::start(sicredi()).await;
    let app = app_beside(&bank).await;
    let (mut owner, key_id) = owner_with_the_banks_key(&app).await;
    connect_sicredi(&mut owner, &bank, &key_id).await;
    let old = bank
        .registered_webhook(SimulatorConfig::KEY)
        .expect("the webhook registered");
    // A Pix whose notice the bank has queued for the address it knew (not sent yet).
    bank.fail_next(1, Failure::DropCallbacks);
    let queued = bank.receive_pix(SimulatorConfig::KEY, 3_300, Some("PEDIDO7"), None);
    let entry = bank.pix(&queued).expect("the Pix at the bank");

    // The owner sends the bank's new certificate: tested, kept, the webhook registered anew.
    let replaced = owner
        .put(
            &connection_path(&owner, &key_id),
            &p12_form("sicredi", &bank.pki().client("balcao-certificado-novo")),
        )
        .await;
    assert_eq!(replaced.status, StatusCode::OK, "{}", replaced.text);
    let new = bank
        .registered_webhook(SimulatorConfig::KEY)
        .expect("the webhook registered");
    assert_ne!(new, old, "a new address");

    // The bank delivers what it had queued to the old address: taken, recorded once.
    let late = reqwest::Client::new()
        .post(format!("{}/pix", old.trim_end_matches('/')))
        .json(&json!({ "pix": [entry] }))
        .send()
        .await
        .expect("the old address answers");
    assert_eq!(late.status(), StatusCode::OK);
    let shown = eventually("the queued Pix in the transactions", async || {
        let shown = owner
            .get(&Person::in_account(
                &owner.account_id,
                &format!("/payments/{queued}"),
            ))
            .await;
        (shown.status == StatusCode::OK).then_some(shown.json)
    })
    .await;
    assert_eq!(shown["source"], "api-pix", "{shown}");
    // An address that was never the key's answers nothing.
    let unknown = reqwest::Client::new()
        .post(format!(
            "{}/webhooks/api-pix/{}/pix",
            app.base_url, "nao-e-um-token-desta-chave"
        ))
        .json(&json!({ "pix": [] }))
        .send()
        .await
        .expect("the app answers");
    assert_ne!(unknown.status(), StatusCode::OK);
    bank.assert_every_request_was_valid();
}
