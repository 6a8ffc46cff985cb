//! `GET /pix` (paged), `GET /pix/{e2eid}` and refunds.

use chrono::{Duration, Utc};
use reqwest::StatusCode;
use serde_json::json;
use tests::api_pix_bank::{RefundOutcome, SimulatorConfig};

use super::support::{assert_problem, assert_spec_kept, bank_with};

fn window(from: chrono::DateTime<Utc>, to: chrono::DateTime<Utc>) -> String {
    let format = |at: chrono::DateTime<Utc>| at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    format!("inicio={}&fim={}", format(from), format(to))
}

#[tokio::test]
async fn received_pix_are_read_in_pages_within_the_window() {
    let (sim, api) = bank_with(SimulatorConfig::new()).await;
    let start = Utc::now() - Duration::hours(2);
    sim.receive_many_pix(start, 5, SimulatorConfig::KEY, 1_250);
    let outside = sim.receive_pix_at(
        start - Duration::days(1),
        SimulatorConfig::KEY,
        999,
        None,
        None,
    );
    let query = window(start - Duration::minutes(1), Utc::now());

    let (first, page0) = api
        .get(&format!(
            "/pix?{query}&paginacao.paginaAtual=0&paginacao.itensPorPagina=2"
        ))
        .await;
    let (_, page2) = api
        .get(&format!(
            "/pix?{query}&paginacao.paginaAtual=2&paginacao.itensPorPagina=2"
        ))
        .await;

    assert_eq!(first, StatusCode::OK, "{page0}");
    let paginacao = &page0["parametros"]["paginacao"];
    assert_eq!(paginacao["paginaAtual"], 0);
    assert_eq!(paginacao["itensPorPagina"], 2);
    assert_eq!(paginacao["quantidadeDePaginas"], 3);
    assert_eq!(paginacao["quantidadeTotalDeItens"], 5);
    assert_eq!(page0["pix"].as_array().expect("a page").len(), 2);
    assert_eq!(page0["pix"][0]["valor"], "12.50");
    assert_eq!(page2["pix"].as_array().expect("the last page").len(), 1);
    let every = [&page0, &page2]
        .iter()
        .flat_map(|page| page["pix"].as_array().expect("a page").clone())
        .collect::<Vec<_>>();
    assert!(
        every
            .iter()
            .all(|pix| pix["endToEndId"] != outside.as_str())
    );
    let (one, pix) = api.get(&format!("/pix/{outside}")).await;
    assert_eq!(one, StatusCode::OK);
    assert_eq!(pix["valor"], "9.99");
    assert_spec_kept(&sim);
}

#[tokio::test]
async fn more_than_a_thousand_per_page_and_an_end_before_the_start_are_refused() {
    let (sim, api) = bank_with(SimulatorConfig::new()).await;
    let now = Utc::now();

    let (too_many, _) = api
        .get(&format!(
            "/pix?{}&paginacao.itensPorPagina=1001",
            window(now - Duration::hours(1), now)
        ))
        .await;
    let (backwards, problem) = api
        .get(&format!("/pix?{}", window(now, now - Duration::hours(1))))
        .await;

    assert_eq!(too_many, StatusCode::BAD_REQUEST);
    assert_eq!(sim.invalid_requests().len(), 1);
    assert_eq!(backwards, StatusCode::BAD_REQUEST);
    assert_problem(&problem, StatusCode::BAD_REQUEST, "PixConsultaInvalida");
}

#[tokio::test]
async fn refunds_beyond_what_the_pix_paid_are_refused_as_the_spec_says() {
    let (sim, api) = bank_with(SimulatorConfig::new()).await;
    let e2eid = sim.receive_pix(SimulatorConfig::KEY, 10_000, Some("pedido9"), None);

    let refund = async |id: &str, valor: &str| {
        api.put(
            &format!("/pix/{e2eid}/devolucao/{id}"),
            &json!({ "valor": valor }),
        )
        .await
    };

    let (first, _) = refund("a1", "60.00").await;
    let (over, problem) = refund("a2", "40.01").await;
    let (reused, _) = refund("a1", "1.00").await;
    let (rest, _) = refund("a3", "40.00").await;

    assert_eq!(first, StatusCode::CREATED);
    assert_eq!(over, StatusCode::BAD_REQUEST);
    assert_problem(&problem, StatusCode::BAD_REQUEST, "PixDevolucaoInvalida");
    assert_eq!(problem["violacoes"][0]["propriedade"], "devolucao.valor");
    assert_eq!(reused, StatusCode::BAD_REQUEST);
    assert_eq!(rest, StatusCode::CREATED);
    assert_spec_kept(&sim);
}

#[tokio::test]
async fn a_bank_that_settles_at_once_answers_devolvido_on_the_next_read() {
    let mut config = SimulatorConfig::new();
    config.refunds = RefundOutcome::SettleAtOnce;
    let (sim, api) = bank_with(config).await;
    let e2eid = sim.receive_pix(SimulatorConfig::KEY, 3_000, None, None);

    let (created, refund) = api
        .put(
            &format!("/pix/{e2eid}/devolucao/x1"),
            &json!({ "valor": "30.00" }),
        )
        .await;

    assert_eq!(created, StatusCode::CREATED);
    assert_eq!(refund["status"], "EM_PROCESSAMENTO");
    tests::eventually("the refund settled", async || {
        let (_, read) = api.get(&format!("/pix/{e2eid}/devolucao/x1")).await;
        (read["status"] == "DEVOLVIDO").then_some(())
    })
    .await;
    let (_, pix) = api.get(&format!("/pix/{e2eid}")).await;
    assert_eq!(pix["devolucoes"][0]["status"], "DEVOLVIDO");
}
