//! The OAuth2 token call: client credentials, scopes, and how each bank takes them.

use reqwest::StatusCode;
use serde_json::json;
use tests::api_pix_bank::{BankSimulator, Quirks, RegisteredClient, SimulatorConfig, TokenAuth};

use super::support::{Api, assert_problem, bank_with, client, client_with, token_answer};

#[tokio::test]
async fn a_wrong_secret_is_refused_with_invalid_client() {
    let sim = BankSimulator::start(SimulatorConfig::new()).await;

    let response = client(&sim)
        .post(sim.token_url())
        .basic_auth(SimulatorConfig::CLIENT_ID, Some("segredo-errado"))
        .form(&[("grant_type", "client_credentials")])
        .send()
        .await
        .expect("the token call answers");

    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    let body: serde_json::Value = response.json().await.expect("a JSON body");
    assert_eq!(body["error"], "invalid_client");
    assert_eq!(sim.tokens_issued(), 0);
}

#[tokio::test]
async fn a_bank_that_takes_credentials_in_the_body_refuses_them_in_basic_auth() {
    let sim = BankSimulator::start(SimulatorConfig::with_quirks(Quirks {
        token_auth: TokenAuth::FormBody,
        ..Quirks::default()
    }))
    .await;
    let http = client(&sim);

    let (basic, _) = token_answer(&sim, &http).await;
    let in_body = http
        .post(sim.token_url())
        .form(&[
            ("grant_type", "client_credentials"),
            ("client_id", SimulatorConfig::CLIENT_ID),
            ("client_secret", SimulatorConfig::CLIENT_SECRET),
        ])
        .send()
        .await
        .expect("the token call answers");

    assert_eq!(basic, StatusCode::UNAUTHORIZED);
    assert_eq!(in_body.status(), StatusCode::OK);
    assert_eq!(sim.tokens_issued(), 1);
}

#[tokio::test]
async fn a_token_without_the_operations_scope_is_refused_with_acesso_negado() {
    let mut config = SimulatorConfig::new();
    config.clients = vec![RegisteredClient::with_scopes(
        SimulatorConfig::CLIENT_ID,
        SimulatorConfig::CLIENT_SECRET,
        &["webhook.read"],
    )];
    let (sim, api) = bank_with(config).await;

    let (status, problem) = api
        .put(
            &format!("/webhook/{}", SimulatorConfig::KEY),
            &json!({ "webhookUrl": "https://balcao.test/api-pix/webhook" }),
        )
        .await;

    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_problem(&problem, StatusCode::FORBIDDEN, "AcessoNegado");
    assert!(
        problem["detail"]
            .as_str()
            .expect("a detail")
            .contains("webhook.write")
    );
    assert_eq!(sim.registered_webhook(SimulatorConfig::KEY), None);
}

#[tokio::test]
async fn an_expired_token_is_refused_and_a_new_one_works() {
    let (sim, api) = bank_with(SimulatorConfig::new()).await;
    sim.expire_tokens();

    let (expired, _) = api.get("/webhook").await;
    let fresh = Api::connect(&sim).await;
    let (renewed, _) = fresh.get("/webhook").await;

    assert_eq!(expired, StatusCode::UNAUTHORIZED);
    assert_eq!(renewed, StatusCode::OK);
    assert_eq!(sim.tokens_issued(), 2);
}

#[tokio::test]
async fn a_bank_without_mtls_on_the_token_call_still_demands_the_certificate_on_the_api() {
    let sim = BankSimulator::start(SimulatorConfig::with_quirks(Quirks {
        token_requires_client_cert: false,
        ..Quirks::default()
    }))
    .await;
    let bare = client_with(&sim, None);

    let (status, answer) = token_answer(&sim, &bare).await;
    let token = answer["access_token"].as_str().expect("a token");
    let api = bare
        .get(format!("{}/webhook", sim.api_base()))
        .bearer_auth(token)
        .send()
        .await
        .expect("the bank answers");

    assert_eq!(status, StatusCode::OK);
    assert_eq!(api.status(), StatusCode::FORBIDDEN);
    let foreign = client_with(&sim, Some(&sim.pki().foreign_client("Outra")));
    assert!(foreign.post(sim.token_url()).send().await.is_err());
}
