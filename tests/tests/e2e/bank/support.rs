//! What the bank-connection tests share: a simulated bank shaped like one profile, an app that
//! calls it and whose address the bank can call back, and the connect form's body.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};
use tests::TestApp;
use tests::api_pix_bank::{BankSimulator, ClientBundle, Quirks, SimulatorConfig};

use crate::workspace::support::{Person, register_key_as, sign_up};

/// Sicredi's paths (`/api/v2`, `/oauth/token`, Basic auth, mTLS on the token call too): the
/// plain spec's shape, with a base path of its own.
pub fn sicredi() -> SimulatorConfig {
    SimulatorConfig::with_quirks(Quirks {
        base_path: "/api/v2".to_owned(),
        ..Quirks::default()
    })
}

/// An app whose bank calls go to `bank`, trusting its server certificate, and whose site URL is
/// its own listener, so the addresses it registers at the bank reach it.
pub async fn app_beside(bank: &BankSimulator) -> TestApp {
    app_beside_with(bank, |_| {}).await
}

/// [`app_beside`], with `adjust` changing the settings too.
pub async fn app_beside_with(
    bank: &BankSimulator,
    adjust: impl FnOnce(&mut gateway::config::Settings) + Send + 'static,
) -> TestApp {
    // The listener's port must be known before the app starts: the site URL names it.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .expect("a free port")
        .local_addr()
        .expect("its address")
        .port();
    let origin = bank.origin();
    let ca = bank.server_ca_pem();
    TestApp::spawn_with(move |settings| {
        settings.listen = std::net::SocketAddr::from(([127, 0, 0, 1], port));
        settings.site_url = format!("http://127.0.0.1:{port}");
        settings.payments.bank_api_origin = Some(origin);
        settings.payments.bank_extra_root_pem = Some(ca);
        adjust(settings);
    })
    .await
}

/// An owner with the simulator's key registered; answers the person and the key's id.
pub async fn owner_with_the_banks_key(app: &TestApp) -> (Person, String) {
    let mut owner = sign_up(app, "dona@padaria.test", "Dona da Padaria").await;
    let key_id = register_key_as(&mut owner, SimulatorConfig::KEY, "Padaria").await;
    (owner, key_id)
}

/// A file as the connect form sends it.
pub fn file(name: &str, bytes: &[u8]) -> Value {
    json!({ "name": name, "base64": STANDARD.encode(bytes) })
}

/// The connect form for `bank` in homologação with the simulator's default client and `bundle`
/// as a `.p12` without password.
pub fn p12_form(bank: &str, bundle: &ClientBundle) -> Value {
    json!({
        "bank": bank,
        "environment": "homologacao",
        "clientId": SimulatorConfig::CLIENT_ID,
        "clientSecret": SimulatorConfig::CLIENT_SECRET,
        "certificate": file("homologacao.p12", &bundle.pkcs12(None)),
    })
}

/// The key's bank-connection path.
pub fn connection_path(owner: &Person, key_id: &str) -> String {
    Person::in_account(&owner.account_id, &format!("/bank-connections/{key_id}"))
}

/// Connects the owner's key `key_id` to `bank` as Sicredi with the simulator's client `.p12`,
/// asserting it connected.
pub async fn connect_sicredi(owner: &mut Person, bank: &BankSimulator, key_id: &str) {
    let connected = owner
        .put(
            &connection_path(owner, key_id),
            &p12_form("sicredi", &bank.pki().client("balcao-teste")),
        )
        .await;
    assert_eq!(
        connected.status,
        reqwest::StatusCode::OK,
        "{}",
        connected.text
    );
}
