//! Each bank's quirks are enforced, and the faults a test asks for happen.

use std::time::Duration;

use reqwest::StatusCode;
use tests::api_pix_bank::{BankSimulator, Failure, Quirks, SimulatorConfig};

use super::support::{assert_problem, assert_spec_kept, bank_with, client, token_answer};

#[tokio::test]
async fn banco_do_brasil_refuses_a_call_without_its_gw_dev_app_key() {
    let (sim, api) = bank_with(SimulatorConfig::with_quirks(Quirks {
        base_path: "/pix/v2".to_owned(),
        required_query: Some(("gw-dev-app-key".to_owned(), "chave-do-app".to_owned())),
        ..Quirks::default()
    }))
    .await;

    let (without, _) = api.get("/webhook").await;
    let (wrong, _) = api.get("/webhook?gw-dev-app-key=outra").await;
    let (with, _) = api.get("/webhook?gw-dev-app-key=chave-do-app").await;

    assert!(sim.api_base().ends_with("/pix/v2"));
    assert_eq!(without, StatusCode::UNAUTHORIZED);
    assert_eq!(wrong, StatusCode::UNAUTHORIZED);
    assert_eq!(with, StatusCode::OK);
    assert_spec_kept(&sim);
}

#[tokio::test]
async fn inter_refuses_a_call_without_its_x_conta_corrente_header() {
    let (sim, api) = bank_with(SimulatorConfig::with_quirks(Quirks {
        required_header: Some(("x-conta-corrente".to_owned(), "1234567".to_owned())),
        ..Quirks::default()
    }))
    .await;
    let url = format!("{}/webhook", sim.api_base());

    let (without, problem) = api.get("/webhook").await;
    let (with, _) = api
        .send(api.http.get(&url).header("x-conta-corrente", "1234567"))
        .await;

    assert_eq!(without, StatusCode::FORBIDDEN);
    assert!(
        problem["detail"]
            .as_str()
            .expect("a detail")
            .contains("x-conta-corrente")
    );
    assert_eq!(with, StatusCode::OK);
}

#[tokio::test]
async fn a_call_outside_the_banks_base_path_is_not_found_and_recorded() {
    let (sim, api) = bank_with(SimulatorConfig::with_quirks(Quirks {
        base_path: "/pix_recebimentos/v2".to_owned(),
        token_path: "/api/oauth/token".to_owned(),
        ..Quirks::default()
    }))
    .await;

    let (status, _) = api
        .send(api.http.get(format!("{}/v2/webhook", sim.origin())))
        .await;

    assert!(sim.token_url().ends_with("/api/oauth/token"));
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(sim.invalid_requests().len(), 1);
}

#[tokio::test]
async fn server_errors_answer_the_specs_problem_and_then_the_bank_recovers() {
    let (sim, api) = bank_with(SimulatorConfig::new()).await;
    sim.fail_next(1, Failure::ServerError { status: 503 });
    sim.fail_next(1, Failure::ServerError { status: 500 });

    let (unavailable, problem) = api.get("/webhook").await;
    let (internal, _) = api.get("/webhook").await;
    let (recovered, _) = api.get("/webhook").await;

    assert_eq!(unavailable, StatusCode::SERVICE_UNAVAILABLE);
    assert_problem(
        &problem,
        StatusCode::SERVICE_UNAVAILABLE,
        "ServicoIndisponivel",
    );
    assert_eq!(internal, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(recovered, StatusCode::OK);
}

#[tokio::test]
async fn a_held_answer_makes_a_client_with_a_short_timeout_give_up() {
    let (sim, api) = bank_with(SimulatorConfig::new()).await;
    sim.fail_next(1, Failure::Timeout(Duration::from_secs(3)));

    let held = api
        .http
        .get(format!("{}/webhook", sim.api_base()))
        .bearer_auth(&api.token)
        .timeout(Duration::from_millis(300))
        .send()
        .await;

    assert!(held.expect_err("the client gave up").is_timeout());
}

#[tokio::test]
async fn a_failing_token_call_issues_no_token() {
    let sim = BankSimulator::start(SimulatorConfig::new()).await;
    sim.fail_next_token(1, Failure::ServerError { status: 503 });

    let (failed, _) = token_answer(&sim, &client(&sim)).await;
    let (status, _) = token_answer(&sim, &client(&sim)).await;

    assert_eq!(failed, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(status, StatusCode::OK);
    assert_eq!(sim.tokens_issued(), 1);
}
