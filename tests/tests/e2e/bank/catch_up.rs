//! "Nothing missed": the Pix whose webhook never arrived are read back from the bank's `GET /pix`
//! by the catch-up and recorded once, beside what the webhook delivered; a bank that fails is
//! shown as "sem contato" with its words and nothing is recorded twice.

use reqwest::StatusCode;
use serde_json::Value;
use tests::api_pix_bank::{BankSimulator, Failure, SimulatorConfig};
use tests::process::RoleProcess;
use tests::{eventually, eventually_within};

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

/// How many lost Pix the killed catch-up reads back: two pages of the spec's largest.
const LOST: usize = 1_200;

#[tokio::test]
async fn a_catch_up_killed_with_sigkill_mid_way_records_every_pix_exactly_once_when_a_new_process_runs_it()
 {
    let bank = BankSimulator::start(sicredi()).await;
    // The test's own gateway reads the bank back only hours from now: the catch-up here runs in
    // the `balcao serve` processes started below.
    let app = app_beside_with(&bank, |settings| {
        settings.payments.bank_catch_up_secs = 3_600
    })
    .await;
    let db = app.db().await;
    let (mut owner, key_id) = owner_with_the_banks_key(&app).await;
    connect_sicredi(&mut owner, &bank, &key_id).await;
    // Pix the bank never notified (no txid): only the catch-up can find them.
    bank.receive_many_pix(chrono::Utc::now(), LOST, SimulatorConfig::KEY, 1_000);
    let recorded = async || -> i64 {
        sqlx::query_scalar(
            "select count(*) from events
              where stream_type = 'payment' and event_type = 'PaymentRecorded'",
        )
        .fetch_one(&db)
        .await
        .expect("count")
    };

    let env = [
        ("BALCAO_BANK_API_ORIGIN", bank.origin()),
        ("BALCAO_BANK_EXTRA_ROOT_PEM", bank.server_ca_pem()),
        ("BALCAO_BANK_CATCH_UP_SECS", "1".to_owned()),
    ];
    // Every page answers four seconds late (inside the client's timeout): the first page's
    // payments are recorded while the second is still on its way, and the kill lands there.
    bank.fail_next(4, Failure::Timeout(std::time::Duration::from_secs(4)));
    let first = RoleProcess::start(&app, "serve", &env);
    // Generous bounds: a debug build appends the first 1,000 in about a minute here, and a
    // loaded CI machine runs this beside the whole suite.
    let at_kill = eventually_within(
        std::time::Duration::from_secs(600),
        "the first process recording the lost Pix",
        async || {
            let n = recorded().await;
            (n > 0).then_some(n)
        },
    )
    .await;
    let log = first.output();
    first.kill_9().await;
    assert!(
        usize::try_from(at_kill).unwrap_or(LOST) < LOST,
        "the kill came after the whole run ({at_kill}): {log}"
    );
    let after_kill = recorded().await;

    // A new process reads the same window again (the mark moves only after every page).
    let second = RoleProcess::start(&app, "serve", &env);
    eventually_within(
        std::time::Duration::from_secs(600),
        "every lost Pix recorded",
        async || (recorded().await == i64::try_from(LOST).unwrap_or(i64::MAX)).then_some(()),
    )
    .await;
    // Runs go on every second: nothing more is appended.
    tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    let per_stream: Vec<i64> = sqlx::query_scalar(
        "select count(*) from events where stream_type = 'payment' group by stream_id
          having count(*) > 1",
    )
    .fetch_all(&db)
    .await
    .expect("streams");
    assert!(
        per_stream.is_empty(),
        "a payment recorded twice: {per_stream:?}"
    );
    assert_eq!(
        recorded().await,
        i64::try_from(LOST).unwrap_or(i64::MAX),
        "killed at {at_kill} (then {after_kill}); second process: {}",
        second.output()
    );
    let sources: Vec<String> = sqlx::query_scalar(
        "select distinct payload->>'source' from events where event_type = 'PaymentRecorded'",
    )
    .fetch_all(&db)
    .await
    .expect("sources");
    assert_eq!(sources, ["api-pix-consulta"]);
    crate::payments::support::wait_for_payments(&db, i64::try_from(LOST).unwrap_or(0)).await;
    second.kill_9().await;
    bank.assert_every_request_was_valid();
}
