//! Mutual TLS: only a certificate signed by the bank's CA, and still valid, gets through.

use p12_keystore::{KeyStore, Pkcs12ImportPolicy};
use reqwest::StatusCode;
use tests::api_pix_bank::{BankSimulator, SimulatorConfig};

use super::support::{client, client_with, token_answer};

#[tokio::test]
async fn a_client_with_a_certificate_from_the_banks_ca_gets_a_token() {
    let sim = BankSimulator::start(SimulatorConfig::new()).await;

    let (status, answer) = token_answer(&sim, &client(&sim)).await;

    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["token_type"], "Bearer");
    assert_eq!(answer["expires_in"], 3600);
    assert!(
        answer["scope"]
            .as_str()
            .expect("scopes")
            .contains("webhook.write")
    );
    assert_eq!(sim.tokens_issued(), 1);
    assert_eq!(sim.refused_handshakes(), 0);
}

#[tokio::test]
async fn a_client_without_a_certificate_is_refused_during_the_handshake() {
    let sim = BankSimulator::start(SimulatorConfig::new()).await;

    let sent = client_with(&sim, None).post(sim.token_url()).send().await;

    assert!(
        sent.is_err(),
        "the bank answered a client without a certificate"
    );
    tests::eventually("the refused handshake", async || {
        (sim.refused_handshakes() == 1).then_some(())
    })
    .await;
    assert_eq!(sim.tokens_issued(), 0);
}

#[tokio::test]
async fn a_certificate_from_another_ca_is_refused_during_the_handshake() {
    let sim = BankSimulator::start(SimulatorConfig::new()).await;
    let foreign = sim.pki().foreign_client("Loja de Testes");

    let sent = client_with(&sim, Some(&foreign))
        .post(sim.token_url())
        .form(&[("grant_type", "client_credentials")])
        .send()
        .await;

    assert!(
        sent.is_err(),
        "the bank answered a certificate from another CA"
    );
    tests::eventually("the refused handshake", async || {
        (sim.refused_handshakes() == 1).then_some(())
    })
    .await;
}

#[tokio::test]
async fn an_expired_certificate_is_refused_during_the_handshake() {
    let sim = BankSimulator::start(SimulatorConfig::new()).await;
    let expired = sim.pki().expired_client("Loja de Testes");
    assert!(expired.not_after < chrono::Utc::now());

    let sent = client_with(&sim, Some(&expired))
        .post(sim.token_url())
        .form(&[("grant_type", "client_credentials")])
        .send()
        .await;

    assert!(sent.is_err(), "the bank answered an expired certificate");
}

#[tokio::test]
async fn the_pkcs12_files_hold_the_key_and_certificate_with_or_without_a_password() {
    let sim = BankSimulator::start(SimulatorConfig::new()).await;
    let bundle = sim.pki().client("Loja de Testes");
    let files = [
        (bundle.pkcs12(Some("s3nh4")), "s3nh4"),
        (bundle.pkcs12(None), ""),
        (bundle.pkcs12_legacy(Some("s3nh4")), "s3nh4"),
        (bundle.pkcs12_legacy(None), ""),
    ];

    for (file, password) in files {
        let store = KeyStore::from_pkcs12(&file, password, Pkcs12ImportPolicy::default())
            .expect("the file opens with its password");
        let (_, chain) = store.private_key_chain().expect("a key with its chain");
        assert!(chain.certs()[0].subject().contains("Loja de Testes"));
        assert!(
            KeyStore::from_pkcs12(&file, "outra", Pkcs12ImportPolicy::default()).is_err(),
            "a wrong password opened the file"
        );
    }
}
