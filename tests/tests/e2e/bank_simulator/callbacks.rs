//! The bank calls the registered webhook with the spec's body: for a Pix with a txid, a paid
//! charge, and a refund's final status; and drops callbacks when told to.

use reqwest::StatusCode;
use serde_json::json;
use tests::api_pix_bank::{BankSimulator, CallbackOutcome, Failure, Quirks, SimulatorConfig};

use super::support::{Api, Receiver, assert_spec_kept, txid};

async fn register(sim: &BankSimulator, receiver: &Receiver) -> Api {
    let api = Api::connect(sim).await;
    let (status, _) = api
        .put(
            &format!("/webhook/{}", SimulatorConfig::KEY),
            &json!({ "webhookUrl": receiver.url }),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    api
}

#[tokio::test]
async fn a_paid_charge_reaches_the_webhook_with_pix_appended() {
    let sim = BankSimulator::start(SimulatorConfig::new()).await;
    let receiver = Receiver::start().await;
    let api = register(&sim, &receiver).await;
    let txid = txid(1);
    let (created, _) = api
        .put(
            &format!("/cob/{txid}"),
            &json!({
                "calendario": { "expiracao": 3600 },
                "valor": { "original": "25.90" },
                "chave": SimulatorConfig::KEY,
            }),
        )
        .await;
    assert_eq!(created, StatusCode::CREATED);

    let e2eid = sim.pay_charge(&txid);

    let received = receiver.wait_for(1).await;
    assert_eq!(received[0].0, "/webhooks/banco/pix");
    let pix = &received[0].1["pix"][0];
    assert_eq!(pix["endToEndId"], e2eid);
    assert_eq!(pix["txid"], txid);
    assert_eq!(pix["valor"], "25.90");
    assert_eq!(pix["chave"], SimulatorConfig::KEY);
    let (_, charge) = api.get(&format!("/cob/{txid}")).await;
    assert_eq!(charge["status"], "CONCLUIDA");
    assert_eq!(charge["pix"][0]["endToEndId"], e2eid);
    assert_spec_kept(&sim);
}

#[tokio::test]
async fn a_bank_that_does_not_append_pix_posts_to_the_url_as_registered() {
    let sim = BankSimulator::start(SimulatorConfig::with_quirks(Quirks {
        appends_pix_to_webhook_url: false,
        ..Quirks::default()
    }))
    .await;
    let receiver = Receiver::start().await;
    register(&sim, &receiver).await;

    sim.receive_pix(
        SimulatorConfig::KEY,
        1_000,
        Some("pedido123"),
        Some("obrigado"),
    );

    let received = receiver.wait_for(1).await;
    assert_eq!(received[0].0, "/webhooks/banco");
    assert_eq!(received[0].1["pix"][0]["infoPagador"], "obrigado");
}

#[tokio::test]
async fn a_pix_without_txid_is_not_notified() {
    let sim = BankSimulator::start(SimulatorConfig::new()).await;
    let receiver = Receiver::start().await;
    register(&sim, &receiver).await;

    sim.receive_pix(SimulatorConfig::KEY, 500, None, None);
    sim.receive_pix(SimulatorConfig::KEY, 700, Some("comtxid"), None);

    let received = receiver.wait_for(1).await;
    assert_eq!(received.len(), 1);
    assert_eq!(received[0].1["pix"][0]["valor"], "7.00");
}

#[tokio::test]
async fn dropped_callbacks_are_recorded_and_not_delivered() {
    let sim = BankSimulator::start(SimulatorConfig::new()).await;
    let receiver = Receiver::start().await;
    register(&sim, &receiver).await;
    sim.fail_next(2, Failure::DropCallbacks);

    let first = sim.receive_pix(SimulatorConfig::KEY, 100, Some("um"), None);
    sim.receive_pix(SimulatorConfig::KEY, 200, Some("dois"), None);
    let third = sim.receive_pix(SimulatorConfig::KEY, 300, Some("tres"), None);

    let received = receiver.wait_for(1).await;
    assert_eq!(received[0].1["pix"][0]["endToEndId"], third);
    let callbacks = sim.callbacks();
    assert_eq!(callbacks[0].outcome, CallbackOutcome::Dropped);
    assert_eq!(callbacks[0].body["pix"][0]["endToEndId"], first);
    assert_eq!(callbacks[1].outcome, CallbackOutcome::Dropped);
    assert!(
        sim.pix(&first).is_some(),
        "a dropped Pix is still at the bank"
    );
}

#[tokio::test]
async fn a_settled_refund_reaches_the_webhook_with_its_devolucoes() {
    let sim = BankSimulator::start(SimulatorConfig::new()).await;
    let receiver = Receiver::start().await;
    let api = register(&sim, &receiver).await;
    let e2eid = sim.receive_pix(SimulatorConfig::KEY, 5_000, Some("pedido77"), None);
    receiver.wait_for(1).await;

    let (created, refund) = api
        .put(
            &format!("/pix/{e2eid}/devolucao/dev1"),
            &json!({ "valor": "20.00", "natureza": "ORIGINAL", "descricao": "Troca" }),
        )
        .await;
    assert_eq!(created, StatusCode::CREATED);
    assert_eq!(refund["status"], "EM_PROCESSAMENTO");
    sim.settle_refund(&e2eid, "dev1");

    let received = receiver.wait_for(2).await;
    let devolucao = &received[1].1["pix"][0]["devolucoes"][0];
    assert_eq!(devolucao["id"], "dev1");
    assert_eq!(devolucao["status"], "DEVOLVIDO");
    assert!(devolucao["horario"]["liquidacao"].is_string());
    let (_, read) = api.get(&format!("/pix/{e2eid}/devolucao/dev1")).await;
    assert_eq!(read["status"], "DEVOLVIDO");
    assert_eq!(read["valor"], "20.00");
    assert_spec_kept(&sim);
}
