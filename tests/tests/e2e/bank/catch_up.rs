//! "Nothing missed": the Pix whose webhook never arrived are read back from the bank's `GET /pix`
//! by the catch-up and recorded once, beside what the webhook delivered; a bank that fails is
//! shown as "sem contato" with its words and nothing is recorded twice.

use reqwest::StatusCode;
use serde_json::Value;
use tests::api_pix_bank::{BankSimulator, Failure, SimulatorConfig};
use tests::eventually;

use super::support::{
    app_beside_with, connect_sicredi, connection_path, owner_with_the_banks_key, sicredi,
};
use crate::payments::support::payment_events;
use crate::workspace::support::Person;

/// The account's payments as the list shows them.
async fn payments(owner: &mut Person) -> Vec<Value> {
    let list = owner
        .get(&Person::in_account(&owner.account_id, "/payments"))
        .await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.text);
    list.json["payments"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

#[tokio::test]
async fn pix_whose_webhook_was_lost_or_never_sent_are_recorded_once_by_the_catch_up() {
    let bank = BankSimulator::start(sicredi()).await;
    let app = app_beside_with(&bank, |settings| settings.payments.bank_catch_up_secs = 1).await;
    let db = app.db().await;
    let (mut owner, key_id) = owner_with_the_banks_key(&app).await;
    connect_sicredi(&mut owner, &bank, &key_id).await;

    // Two webhooks lost, one Pix without a txid (never notified), one delivered as usual.
    bank.fail_next(2, Failure::DropCallbacks);
    let lost = [
        bank.receive_pix(SimulatorConfig::KEY, 1_500, Some("PEDIDO1"), None),
        bank.receive_pix(SimulatorConfig::KEY, 2_500, Some("PEDIDO2"), Some("Mesa 4")),
    ];
    let plain = bank.receive_pix(SimulatorConfig::KEY, 990, None, None);
    let delivered = bank.receive_pix(SimulatorConfig::KEY, 4_000, Some("PEDIDO3"), None);

    let found = eventually("the four Pix in the transactions", async || {
        let listed = payments(&mut owner).await;
        (listed.len() == 4).then_some(listed)
    })
    .await;
    let source_of = |e2e: &str| {
        found
            .iter()
            .find(|p| p["endToEndId"] == e2e)
            .map(|p| p["source"].as_str().unwrap_or_default().to_owned())
    };
    for e2e in lost.iter().chain([&plain]) {
        assert_eq!(source_of(e2e).as_deref(), Some("api-pix-consulta"), "{e2e}");
    }
    assert!(
        source_of(&delivered).is_some(),
        "the delivered Pix is there once, whoever reported it first"
    );

    // Runs go on every second: what is recorded stays as it is.
    let events = payment_events(&db).await;
    tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    assert_eq!(payments(&mut owner).await.len(), 4);
    assert_eq!(payment_events(&db).await, events, "nothing appended twice");

    let page = owner.get(&connection_path(&owner, &key_id)).await;
    let catch_up = &page.json["connection"]["catchUp"];
    assert!(catch_up["lastSuccessAt"].is_string(), "{}", page.text);
    assert_eq!(catch_up["failingSince"], Value::Null, "{}", page.text);
    bank.assert_every_request_was_valid();
}

#[tokio::test]
async fn a_bank_that_fails_the_catch_up_is_shown_as_out_of_reach_with_its_words() {
    let bank = BankSimulator::start(sicredi()).await;
    let app = app_beside_with(&bank, |settings| settings.payments.bank_catch_up_secs = 1).await;
    let (mut owner, key_id) = owner_with_the_banks_key(&app).await;
    let path = connection_path(&owner, &key_id);
    connect_sicredi(&mut owner, &bank, &key_id).await;
    bank.fail_next(50, Failure::ServerError { status: 503 });
    bank.fail_next(5, Failure::DropCallbacks);
    bank.receive_pix(SimulatorConfig::KEY, 1_000, Some("PEDIDO9"), None);

    let catch_up = eventually("the catch-up failing", async || {
        let page = owner.get(&path).await;
        let catch_up = page.json["connection"]["catchUp"].clone();
        catch_up["failingSince"].is_string().then_some(catch_up)
    })
    .await;
    assert!(
        catch_up["lastProblem"]
            .as_str()
            .is_some_and(|words| words.contains("fora do ar")),
        "{catch_up}"
    );
    assert!(payments(&mut owner).await.is_empty(), "nothing recorded");
    // The alert's series: this connection, failing for some seconds now.
    let metrics = app.metrics().await;
    let series = format!("balcao_bank_catch_up_failing_seconds{{key=\"{key_id}\"}}");
    assert!(metrics.contains(&series), "no {series} in /metrics");
}
