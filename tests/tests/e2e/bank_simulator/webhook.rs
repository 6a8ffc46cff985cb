//! `PUT`/`GET`/`DELETE /webhook/{chave}` and `GET /webhook`.

use reqwest::StatusCode;
use serde_json::json;
use tests::api_pix_bank::SimulatorConfig;

use super::support::{assert_problem, assert_spec_kept, bank_with};

const URL: &str = "https://balcao.test/api-pix/webhook/abc";

#[tokio::test]
async fn a_webhook_registered_with_a_token_is_read_back_listed_and_removed() {
    let (sim, api) = bank_with(SimulatorConfig::new()).await;
    let path = format!("/webhook/{}", SimulatorConfig::KEY);

    let (put, _) = api.put(&path, &json!({ "webhookUrl": URL })).await;
    let (get, webhook) = api.get(&path).await;
    let (list, listed) = api.get("/webhook").await;
    let (delete, _) = api.delete(&path).await;
    let (gone, problem) = api.get(&path).await;

    assert_eq!(put, StatusCode::OK);
    assert_eq!(get, StatusCode::OK);
    assert_eq!(webhook["webhookUrl"], URL);
    assert_eq!(webhook["chave"], SimulatorConfig::KEY);
    assert!(webhook["criacao"].is_string());
    assert_eq!(list, StatusCode::OK);
    assert_eq!(listed["webhooks"][0]["webhookUrl"], URL);
    assert_eq!(
        listed["parametros"]["paginacao"]["quantidadeTotalDeItens"],
        1
    );
    assert_eq!(delete, StatusCode::NO_CONTENT);
    assert_eq!(gone, StatusCode::NOT_FOUND);
    assert_problem(&problem, StatusCode::NOT_FOUND, "WebhookNaoEncontrado");
    assert_eq!(sim.registered_webhook(SimulatorConfig::KEY), None);
    assert_spec_kept(&sim);
}

#[tokio::test]
async fn a_webhook_for_a_key_the_account_does_not_hold_is_refused_as_the_spec_says() {
    let (sim, api) = bank_with(SimulatorConfig::new()).await;

    let (status, problem) = api
        .put(
            "/webhook/loja@exemplo.com.br",
            &json!({ "webhookUrl": URL }),
        )
        .await;

    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_problem(&problem, StatusCode::BAD_REQUEST, "WebhookOperacaoInvalida");
    assert_eq!(problem["violacoes"][0]["propriedade"], "chave");
    assert_eq!(sim.registered_webhook("loja@exemplo.com.br"), None);
    assert_spec_kept(&sim);
}
