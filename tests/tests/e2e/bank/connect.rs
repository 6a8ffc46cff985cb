//! Connecting a key's bank: tested at the bank before anything is kept, the credentials sealed,
//! the webhook registered at Balcão's own receiver, and a Pix the bank reports arriving through
//! it; every refusal a pt-BR message with nothing written.

use reqwest::StatusCode;
use serde_json::json;
use tests::api_pix_bank::{BankSimulator, Failure, SimulatorConfig};
use tests::eventually;

use super::support::{
    app_beside, connection_path, file, owner_with_the_banks_key, p12_form, sicredi,
};
use crate::workspace::support::Person;

/// Rows of the log and of the side table, to prove a refusal wrote nothing.
async fn written(db: &sqlx::PgPool) -> (i64, i64) {
    let events: i64 =
        sqlx::query_scalar("select count(*) from events where stream_type = 'bank_connection'")
            .fetch_one(db)
            .await
            .expect("events");
    let credentials: i64 = sqlx::query_scalar("select count(*) from bank_credentials")
        .fetch_one(db)
        .await
        .expect("credentials");
    (events, credentials)
}

#[tokio::test]
async fn a_key_connected_with_a_p12_has_its_webhook_registered_and_the_banks_pix_arrives_through_it()
 {
    let bank = BankSimulator::start(sicredi()).await;
    let app = app_beside(&bank).await;
    let db = app.db().await;
    let (mut owner, key_id) = owner_with_the_banks_key(&app).await;
    let bundle = bank.pki().client("balcao-teste");

    let connected = owner
        .put(
            &connection_path(&owner, &key_id),
            &p12_form("sicredi", &bundle),
        )
        .await;
    assert_eq!(connected.status, StatusCode::OK, "{}", connected.text);
    assert_eq!(connected.json["bank"], "sicredi");
    assert_eq!(connected.json["bankName"], "Sicredi");
    assert_eq!(connected.json["environment"], "homologacao");
    assert_eq!(connected.json["webhook"]["state"], "registered");
    assert_eq!(connected.json["lastTest"]["ok"], true);

    // The bank holds Balcão's receiver address for the key, on this app.
    let webhook = bank
        .registered_webhook(SimulatorConfig::KEY)
        .expect("a webhook registered at the bank");
    assert!(
        webhook.starts_with(&format!("{}/webhooks/api-pix/", app.base_url)),
        "{webhook}"
    );

    // A Pix with a txid reaches the transactions through the registered address.
    let e2e = bank.receive_pix(
        SimulatorConfig::KEY,
        4_250,
        Some("PEDIDO42"),
        Some("Pão de queijo"),
    );
    eventually("the bank's Pix in the transactions", async || {
        let list = owner
            .get(&Person::in_account(&owner.account_id, "/payments"))
            .await;
        list.json["payments"]
            .as_array()?
            .iter()
            .find(|p| p["endToEndId"] == e2e.as_str())
            .filter(|p| p["amountCentavos"] == 4_250 && p["source"] == "api-pix")
            .map(|_| ())
    })
    .await;

    // The list and the key's page say the same; no credential comes back.
    let list = owner
        .get(&Person::in_account(&owner.account_id, "/bank-connections"))
        .await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.text);
    assert_eq!(list.json["connections"][0]["keyId"], key_id.as_str());
    for secret in [
        SimulatorConfig::CLIENT_SECRET,
        SimulatorConfig::CLIENT_ID,
        "PRIVATE KEY",
    ] {
        assert!(!list.text.contains(secret), "the answer shows {secret}");
        assert!(
            !connected.text.contains(secret),
            "the answer shows {secret}"
        );
    }
    // Sealed at rest, and absent from the log.
    let stored: String = sqlx::query_scalar(
        "select client_secret || certificate || private_key || client_id from bank_credentials",
    )
    .fetch_one(&db)
    .await
    .expect("one row");
    let log: String = sqlx::query_scalar(
        "select string_agg(payload::text || metadata::text, ' ') from events
          where stream_type = 'bank_connection'",
    )
    .fetch_one(&db)
    .await
    .expect("events");
    for secret in [
        SimulatorConfig::CLIENT_SECRET,
        SimulatorConfig::CLIENT_ID,
        "BEGIN",
    ] {
        assert!(
            !stored.contains(secret),
            "the side table holds {secret} in the clear"
        );
        assert!(!log.contains(secret), "the log holds {secret}");
    }
    bank.assert_every_request_was_valid();
}

#[tokio::test]
async fn a_pem_certificate_with_its_key_apart_connects_and_a_test_and_a_disconnection_follow() {
    let bank = BankSimulator::start(sicredi()).await;
    let app = app_beside(&bank).await;
    let db = app.db().await;
    let (mut owner, key_id) = owner_with_the_banks_key(&app).await;
    let bundle = bank.pki().client("balcao-pem");
    let path = connection_path(&owner, &key_id);
    let connected = owner
        .put(
            &path,
            &json!({
                "bank": "sicredi",
                "environment": "homologacao",
                "clientId": SimulatorConfig::CLIENT_ID,
                "clientSecret": SimulatorConfig::CLIENT_SECRET,
                "certificate": file("cliente.cer", bundle.cert_pem.as_bytes()),
                "certificateKey": file("cliente.key", bundle.key_pem.as_bytes()),
            }),
        )
        .await;
    assert_eq!(connected.status, StatusCode::OK, "{}", connected.text);

    // The bank down: the test is noted as failed, with the bank's words, and answered 200.
    bank.fail_next(1, Failure::ServerError { status: 503 });
    let tested = owner.post(&format!("{path}/test"), &json!({})).await;
    assert_eq!(tested.status, StatusCode::OK, "{}", tested.text);
    assert_eq!(tested.json["lastTest"]["ok"], false);
    assert!(
        tested.json["lastTest"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("fora do ar")),
        "{}",
        tested.text
    );
    let again = owner.post(&format!("{path}/test"), &json!({})).await;
    assert_eq!(again.json["lastTest"]["ok"], true, "{}", again.text);

    let gone = owner.delete(&path).await;
    assert_eq!(gone.status, StatusCode::NO_CONTENT, "{}", gone.text);
    assert_eq!(bank.registered_webhook(SimulatorConfig::KEY), None);
    let (_, credentials) = written(&db).await;
    assert_eq!(credentials, 0, "the credentials are deleted");
    let page = owner.get(&path).await;
    assert_eq!(
        page.json["connection"],
        serde_json::Value::Null,
        "{}",
        page.text
    );
    assert_eq!(owner.delete(&path).await.status, StatusCode::NOT_FOUND);
    bank.assert_every_request_was_valid();
}

#[tokio::test]
async fn each_refusal_while_connecting_says_what_to_fix_and_writes_nothing() {
    let bank = BankSimulator::start(sicredi()).await;
    let app = app_beside(&bank).await;
    let db = app.db().await;
    let (mut owner, key_id) = owner_with_the_banks_key(&app).await;
    let path = connection_path(&owner, &key_id);
    let good = bank.pki().client("balcao-teste");

    let mut wrong_secret = p12_form("sicredi", &good);
    wrong_secret["clientSecret"] = json!("segredo-errado");
    let mut foreign = p12_form("sicredi", &bank.pki().foreign_client("intruso"));
    foreign["clientId"] = json!(SimulatorConfig::CLIENT_ID);
    let expired = p12_form("sicredi", &bank.pki().expired_client("vencido"));
    let mut with_password = p12_form("sicredi", &good);
    with_password["certificate"] = file("senha.p12", &good.pkcs12(Some("senha-certa")));
    with_password["certificatePassword"] = json!("senha-errada");
    let mut not_a_certificate = p12_form("sicredi", &good);
    not_a_certificate["certificate"] = file("nota.pem", b"isto nao e um certificado");
    let mut unknown_bank = p12_form("banco-imaginario", &good);
    unknown_bank["environment"] = json!("homologacao");

    let cases = [
        (
            wrong_secret,
            StatusCode::UNPROCESSABLE_ENTITY,
            "bank-invalid-client",
            Some("clientSecret"),
        ),
        (
            foreign,
            StatusCode::UNPROCESSABLE_ENTITY,
            "bank-certificate-refused",
            Some("certificate"),
        ),
        (
            expired,
            StatusCode::UNPROCESSABLE_ENTITY,
            "bank-certificate-expired",
            Some("certificate"),
        ),
        (
            with_password,
            StatusCode::UNPROCESSABLE_ENTITY,
            "bank-certificate-password",
            Some("certificatePassword"),
        ),
        (
            not_a_certificate,
            StatusCode::UNPROCESSABLE_ENTITY,
            "bank-certificate-unreadable",
            Some("certificate"),
        ),
        (
            unknown_bank,
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid-argument",
            Some("bank"),
        ),
    ];
    for (body, status, code, field) in cases {
        let answer = owner.put(&path, &body).await;
        assert_eq!(answer.status, status, "{code}: {}", answer.text);
        assert_eq!(answer.code(), code, "{}", answer.text);
        assert_eq!(answer.field(), field, "{}", answer.text);
        assert!(!answer.message().is_empty());
    }

    // The bank down, then slow: 502 and 504, in pt-BR.
    bank.fail_next_token(1, Failure::ServerError { status: 500 });
    let down = owner.put(&path, &p12_form("sicredi", &good)).await;
    assert_eq!(down.status, StatusCode::BAD_GATEWAY, "{}", down.text);
    assert_eq!(down.code(), "bank-unavailable");
    assert!(down.message().contains("fora do ar"), "{}", down.text);

    assert_eq!(written(&db).await, (0, 0), "nothing was kept");
    assert_eq!(bank.registered_webhook(SimulatorConfig::KEY), None);
    bank.assert_every_request_was_valid();
}

#[tokio::test]
async fn a_bank_that_does_not_answer_in_time_is_a_504_and_nothing_is_kept() {
    let bank = BankSimulator::start(sicredi()).await;
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .expect("a free port")
        .local_addr()
        .expect("its address")
        .port();
    let (origin, ca) = (bank.origin(), bank.server_ca_pem());
    let app = tests::TestApp::spawn_with(move |settings| {
        settings.listen = std::net::SocketAddr::from(([127, 0, 0, 1], port));
        settings.site_url = format!("http://127.0.0.1:{port}");
        settings.payments.bank_api_origin = Some(origin);
        settings.payments.bank_extra_root_pem = Some(ca);
        settings.payments.bank_timeout_ms = 500;
    })
    .await;
    let db = app.db().await;
    let (mut owner, key_id) = owner_with_the_banks_key(&app).await;
    bank.fail_next_token(1, Failure::Timeout(std::time::Duration::from_secs(3)));
    let slow = owner
        .put(
            &connection_path(&owner, &key_id),
            &p12_form("sicredi", &bank.pki().client("lento")),
        )
        .await;
    assert_eq!(slow.status, StatusCode::GATEWAY_TIMEOUT, "{}", slow.text);
    assert_eq!(slow.code(), "bank-timeout");
    assert_eq!(written(&db).await, (0, 0));
}
