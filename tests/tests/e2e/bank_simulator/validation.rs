//! Every request is checked against the official OpenAPI: what the spec does not allow is
//! answered 400 and recorded, so a test of Balcão's client fails on it.

use reqwest::StatusCode;
use serde_json::json;
use tests::api_pix_bank::SimulatorConfig;

use super::support::{assert_problem, assert_spec_kept, bank_with, txid};

#[tokio::test]
async fn a_charge_as_the_spec_describes_it_is_created_with_its_location() {
    let (sim, api) = bank_with(SimulatorConfig::new()).await;
    let txid = txid(7);

    let (status, charge) = api
        .put(
            &format!("/cob/{txid}"),
            &json!({
                "calendario": { "expiracao": 900 },
                "devedor": { "cpf": "12345678909", "nome": "Francisco da Silva" },
                "valor": { "original": "37.00", "modalidadeAlteracao": 0 },
                "chave": SimulatorConfig::KEY,
                "solicitacaoPagador": "Pedido 42",
                "infoAdicionais": [{ "nome": "Pedido", "valor": "42" }],
            }),
        )
        .await;

    assert_eq!(status, StatusCode::CREATED, "{charge}");
    assert_eq!(charge["status"], "ATIVA");
    assert_eq!(charge["revisao"], 0);
    assert_eq!(charge["txid"], txid);
    assert_eq!(charge["calendario"]["expiracao"], 900);
    assert!(charge["calendario"]["criacao"].is_string());
    let location = charge["location"].as_str().expect("a location");
    let host = sim.origin().trim_start_matches("https://").to_owned();
    assert!(
        location.starts_with(&format!("{host}/qr/v2/")),
        "{location}"
    );
    assert_eq!(charge["loc"]["tipoCob"], "cob");
    let (read, again) = api.get(&format!("/cob/{txid}")).await;
    assert_eq!(read, StatusCode::OK);
    assert_eq!(again["location"], location);
    assert_spec_kept(&sim);
    // The bank's copy-and-paste code is a dynamic BR Code that Balcão's engine accepts.
    let copia_e_cola = charge["pixCopiaECola"].as_str().expect("a BR Code");
    let parsed = domain::brcode::validate_strict(copia_e_cola).expect("a valid BR Code");
    assert_eq!(parsed.code.url(), Some(location));
}

#[tokio::test]
async fn a_field_the_spec_does_not_allow_is_refused_and_recorded() {
    let (sim, api) = bank_with(SimulatorConfig::new()).await;

    let (status, problem) = api
        .put(
            &format!("/cob/{}", txid(8)),
            &json!({
                "calendario": { "expiracao": 900, "vencimento": "amanhã" },
                "valor": { "original": "10.00" },
                "chave": SimulatorConfig::KEY,
            }),
        )
        .await;

    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_problem(&problem, StatusCode::BAD_REQUEST, "CobOperacaoInvalida");
    let invalid = sim.invalid_requests();
    assert_eq!(invalid.len(), 1);
    assert_eq!(invalid[0].method, "PUT");
    assert!(
        invalid[0].violations[0]
            .propriedade
            .starts_with("cob.calendario"),
        "{:?}",
        invalid[0].violations
    );
    assert!(sim.charge(&txid(8)).is_none());
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        assert_spec_kept(&sim);
    }));
    assert!(caught.is_err(), "the invalid request passed the assertion");
}

#[tokio::test]
async fn an_amount_as_a_number_a_short_txid_and_an_unknown_query_parameter_are_each_invalid() {
    let (sim, api) = bank_with(SimulatorConfig::new()).await;

    let (number, _) = api
        .put(
            &format!("/cob/{}", txid(9)),
            &json!({ "valor": { "original": 10.5 }, "chave": SimulatorConfig::KEY, "calendario": {} }),
        )
        .await;
    let (short, _) = api
        .put(
            "/cob/curto",
            &json!({ "valor": { "original": "10.50" }, "chave": SimulatorConfig::KEY, "calendario": {} }),
        )
        .await;
    let (unknown, _) = api
        .get("/pix?inicio=2026-01-01T00:00:00Z&fim=2026-01-02T00:00:00Z&pagina=2")
        .await;
    let (missing, _) = api.get("/pix?inicio=2026-01-01T00:00:00Z").await;

    assert_eq!(
        [number, short, unknown, missing],
        [StatusCode::BAD_REQUEST; 4]
    );
    let invalid = sim.invalid_requests();
    assert_eq!(invalid.len(), 4, "{invalid:#?}");
    assert_eq!(invalid[0].violations[0].propriedade, "cob.valor.original");
    assert_eq!(invalid[1].violations[0].propriedade, "txid");
    assert_eq!(invalid[2].violations[0].propriedade, "pagina");
    assert_eq!(invalid[3].violations[0].propriedade, "fim");
}

#[tokio::test]
async fn a_due_date_charge_needs_its_debtor_and_answers_with_the_receiver() {
    let (sim, api) = bank_with(SimulatorConfig::new()).await;
    let path = format!("/cobv/{}", txid(10));

    let (without_debtor, _) = api
        .put(
            &path,
            &json!({
                "calendario": { "dataDeVencimento": "2026-12-31" },
                "valor": { "original": "123.45" },
                "chave": SimulatorConfig::KEY,
            }),
        )
        .await;
    let (created, charge) = api
        .put(
            &path,
            &json!({
                "calendario": { "dataDeVencimento": "2026-12-31", "validadeAposVencimento": 10 },
                "devedor": { "cnpj": "12345678000195", "nome": "Empresa de Serviços SA" },
                "valor": {
                    "original": "123.45",
                    "multa": { "modalidade": 2, "valorPerc": "2.00" },
                    "juros": { "modalidade": 2, "valorPerc": "0.30" },
                },
                "chave": SimulatorConfig::KEY,
            }),
        )
        .await;

    assert_eq!(without_debtor, StatusCode::BAD_REQUEST);
    assert_eq!(created, StatusCode::CREATED, "{charge}");
    assert_eq!(charge["recebedor"]["cnpj"], "12345678000195");
    assert_eq!(charge["loc"]["tipoCob"], "cobv");
    assert_eq!(charge["calendario"]["validadeAposVencimento"], 10);
    assert_eq!(sim.invalid_requests().len(), 1);
}
