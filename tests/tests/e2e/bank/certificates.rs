//! Certificate lifecycle (issue 33): a connected key's certificate that ends within 30, 7 or 1
//! days is warned of once per threshold, by e-mail to the owner and in the connection's log; new
//! credentials start the count over.

use chrono::{Duration, Utc};
use reqwest::StatusCode;
use serde_json::json;
use tests::api_pix_bank::BankSimulator;
use tests::eventually;

use super::support::{
    app_beside_with, connect_sicredi, connection_path, file, owner_with_the_banks_key, sicredi,
};

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
