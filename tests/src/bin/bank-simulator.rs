//! The API Pix bank simulator as a process of its own, for the browser tests (and for trying
//! "Conectar banco" by hand): a bank shaped like Sicredi's API (`/api/v2`, `/oauth/token`, Basic
//! auth, mTLS everywhere) holding the simulator's default key and client.
//!
//! It prints one line of JSON to stdout and then serves until it is killed:
//! `{origin, serverCaPem, key, clientId, clientSecret, clientP12Base64, clientCertPem,
//! clientKeyPem, expiredP12Base64, endingP12Base64}` (the last valid for six and a half days).
//! Start Balcão with `BALCAO_BANK_API_ORIGIN=<origin>` and
//! `BALCAO_BANK_EXTRA_ROOT_PEM=<serverCaPem>`, register the key, and connect it as "Sicredi",
//! homologação, with the printed client and the `.p12` written from `clientP12Base64`.
//!
//! Then each line on stdin is an order, answered with one line of JSON on stdout:
//! `pix <centavos> <txid>` receives a Pix of that amount with that txid on the key (the webhook
//! hears of it) and answers `{"e2eid": …}`; `cob <txid>` pays the charge `txid` in full (as a
//! payer's app would) and answers the same; refunds settle a moment after they are asked for.

use std::io::Write;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use tests::api_pix_bank::{BankSimulator, Quirks, RefundOutcome, SimulatorConfig};
use tokio::io::{AsyncBufReadExt, BufReader};

#[tokio::main]
async fn main() {
    let bank = BankSimulator::start(SimulatorConfig {
        refunds: RefundOutcome::SettleAtOnce,
        ..SimulatorConfig::with_quirks(Quirks {
            base_path: "/api/v2".to_owned(),
            ..Quirks::default()
        })
    })
    .await;
    let client = bank.pki().client("balcao-navegador");
    let expired = bank.pki().expired_client("balcao-vencido");
    // Valid for six and a half more days: the dashboard warns of it ("vence em 6 dias").
    let ending = bank.pki().client_until(
        "balcao-terminando",
        chrono::Utc::now() + chrono::Duration::hours(6 * 24 + 12),
    );
    let line = serde_json::json!({
        "origin": bank.origin(),
        "serverCaPem": bank.server_ca_pem(),
        "key": SimulatorConfig::KEY,
        "clientId": SimulatorConfig::CLIENT_ID,
        "clientSecret": SimulatorConfig::CLIENT_SECRET,
        "clientP12Base64": STANDARD.encode(client.pkcs12(None)),
        "clientCertPem": client.cert_pem,
        "clientKeyPem": client.key_pem,
        "expiredP12Base64": STANDARD.encode(expired.pkcs12(None)),
        "endingP12Base64": STANDARD.encode(ending.pkcs12(None)),
    });
    let mut out = std::io::stdout().lock();
    // The harness waits for this one line, then one line per order.
    writeln!(out, "{line}").expect("stdout is open");
    out.flush().expect("stdout is open");
    drop(out);
    let mut orders = BufReader::new(tokio::io::stdin()).lines();
    while let Ok(Some(order)) = orders.next_line().await {
        let answer = match order.split_whitespace().collect::<Vec<_>>().as_slice() {
            ["pix", centavos, txid] => match centavos.parse::<i64>() {
                Ok(centavos) => serde_json::json!({
                    "e2eid": bank.receive_pix(SimulatorConfig::KEY, centavos, Some(txid), None)
                }),
                Err(_) => serde_json::json!({"error": "centavos must be a whole number"}),
            },
            ["cob", txid] => match bank.charge(txid) {
                Some(charge) if charge["status"] == "ATIVA" => {
                    serde_json::json!({"e2eid": bank.pay_charge(txid)})
                }
                Some(_) => serde_json::json!({"error": "the charge is not ATIVA"}),
                None => serde_json::json!({"error": format!("no charge {txid}")}),
            },
            _ => serde_json::json!({"error": format!("unknown order: {order}")}),
        };
        let mut out = std::io::stdout().lock();
        writeln!(out, "{answer}").expect("stdout is open");
        out.flush().expect("stdout is open");
    }
    // stdin closed: serve until killed, as before orders existed.
    std::future::pending::<()>().await;
}
