//! Each bank profile's quirks against a simulator configured with them: where the token call
//! puts the credentials, whether it is mTLS too, the bank's paths, and the extra value some
//! banks want on every call (a query parameter or a header). The key connects and its webhook is
//! registered; without the extra value, the bank refuses and nothing is kept.

use reqwest::StatusCode;
use serde_json::json;
use tests::api_pix_bank::{BankSimulator, Quirks, RegisteredClient, SimulatorConfig, TokenAuth};

use super::support::{app_beside, connection_path, file, owner_with_the_banks_key, p12_form};

/// A profile's slug, how its bank differs from the plain spec, and the extra value it needs
/// (`required`: the profile refuses to connect without it).
struct Case {
    bank: &'static str,
    quirks: Quirks,
    extra: Option<&'static str>,
    required: bool,
}

impl Case {
    /// A listed bank without an extra value.
    fn plain(bank: &'static str, quirks: Quirks) -> Case {
        Case {
            bank,
            quirks,
            extra: None,
            required: false,
        }
    }
}

fn cases() -> Vec<Case> {
    vec![
        // Efí: the token call's body is JSON, the credentials by Basic auth, mTLS too.
        Case::plain(
            "efi",
            Quirks {
                token_json_body: true,
                ..Quirks::default()
            },
        ),
        // Sicoob: no client secret; the id in the body and the certificate identify the app.
        Case::plain(
            "sicoob",
            Quirks {
                base_path: "/pix/api/v2".to_owned(),
                token_path: "/auth/realms/cooperado/protocol/openid-connect/token".to_owned(),
                token_auth: TokenAuth::FormBody,
                ..Quirks::default()
            },
        ),
        Case {
            bank: "banco-do-brasil",
            quirks: Quirks {
                base_path: "/pix/v2".to_owned(),
                token_requires_client_cert: false,
                required_query: Some(("gw-dev-app-key".to_owned(), "chave-do-app-bb".to_owned())),
                ..Quirks::default()
            },
            extra: Some("chave-do-app-bb"),
            required: true,
        },
        Case {
            bank: "inter",
            quirks: Quirks {
                base_path: "/pix/v2".to_owned(),
                token_path: "/oauth/v2/token".to_owned(),
                token_auth: TokenAuth::FormBody,
                required_header: Some(("x-conta-corrente".to_owned(), "12345678".to_owned())),
                ..Quirks::default()
            },
            extra: Some("12345678"),
            // Inter asks for it only of applications with several accounts: optional on the form.
            required: false,
        },
        Case {
            bank: "itau",
            quirks: Quirks {
                base_path: "/pix_recebimentos/v2".to_owned(),
                token_path: "/api/oauth/token".to_owned(),
                token_auth: TokenAuth::FormBody,
                ..Quirks::default()
            },
            extra: None,
            required: false,
        },
        Case {
            bank: "santander",
            quirks: Quirks {
                base_path: "/api/v1".to_owned(),
                token_auth: TokenAuth::FormBody,
                ..Quirks::default()
            },
            extra: None,
            required: false,
        },
        Case {
            bank: "sicredi",
            quirks: Quirks {
                base_path: "/api/v2".to_owned(),
                ..Quirks::default()
            },
            extra: None,
            required: false,
        },
    ]
}

#[tokio::test]
async fn every_listed_banks_quirks_are_met_and_its_webhook_registered() {
    for case in cases() {
        let mut config = SimulatorConfig::with_quirks(case.quirks);
        if case.bank == "sicoob" {
            config.clients = vec![RegisteredClient::new(SimulatorConfig::CLIENT_ID, "")];
        }
        let bank = BankSimulator::start(config).await;
        let app = app_beside(&bank).await;
        let (mut owner, key_id) = owner_with_the_banks_key(&app).await;
        let path = connection_path(&owner, &key_id);
        let mut form = p12_form(case.bank, &bank.pki().client("balcao-teste"));
        // Itaú's and Sicoob's profiles have no homologação through the API: their production
        // addresses, moved to the simulator like every profile's.
        if ["itau", "sicoob"].contains(&case.bank) {
            form["environment"] = json!("producao");
        }
        if case.bank == "sicoob" {
            form["clientSecret"] = json!("");
        }
        if case.extra.is_some() && case.required {
            let without = owner.put(&path, &form).await;
            assert_eq!(
                without.status,
                StatusCode::UNPROCESSABLE_ENTITY,
                "{}: {}",
                case.bank,
                without.text
            );
            assert_eq!(
                without.field(),
                Some("extra"),
                "{}: {}",
                case.bank,
                without.text
            );
        }
        if let Some(extra) = case.extra {
            form["extra"] = json!(extra);
        }
        let connected = owner.put(&path, &form).await;
        assert_eq!(
            connected.status,
            StatusCode::OK,
            "{}: {}",
            case.bank,
            connected.text
        );
        assert_eq!(
            connected.json["webhook"]["state"], "registered",
            "{}: {}",
            case.bank, connected.text
        );
        assert!(
            bank.registered_webhook(SimulatorConfig::KEY).is_some(),
            "{}",
            case.bank
        );
        bank.assert_every_request_was_valid();
        app.stop().await;
    }
}

#[tokio::test]
async fn another_psp_is_reached_at_the_addresses_the_owner_typed() {
    let bank = BankSimulator::start(SimulatorConfig::with_quirks(Quirks {
        base_path: "/api-pix/v2".to_owned(),
        token_path: "/auth/token".to_owned(),
        ..Quirks::default()
    }))
    .await;
    let app = app_beside(&bank).await;
    let (mut owner, key_id) = owner_with_the_banks_key(&app).await;
    let path = connection_path(&owner, &key_id);
    let bundle = bank.pki().client("balcao-outro");
    let mut form = p12_form("outro", &bundle);
    form["apiBaseUrl"] = json!("http://psp.exemplo.com.br/api-pix/v2");
    let plain = owner.put(&path, &form).await;
    assert_eq!(
        plain.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        plain.text
    );
    assert_eq!(plain.field(), Some("apiBaseUrl"), "{}", plain.text);
    assert_eq!(plain.code(), "bank-url-not-https", "{}", plain.text);

    form["apiBaseUrl"] = json!("https://psp.exemplo.com.br/api-pix/v2");
    form["tokenUrl"] = json!("https://psp.exemplo.com.br/auth/token");
    form["certificate"] = file(
        "cliente.pem",
        format!("{}{}", bundle.cert_pem, bundle.key_pem).as_bytes(),
    );
    let connected = owner.put(&path, &form).await;
    assert_eq!(connected.status, StatusCode::OK, "{}", connected.text);
    assert_eq!(connected.json["bankName"], "Outro PSP (API Pix padrão)");
    assert!(bank.registered_webhook(SimulatorConfig::KEY).is_some());
    bank.assert_every_request_was_valid();
}
