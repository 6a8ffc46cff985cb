//! What a simulated bank is: its clients, the keys its account holds, and its quirks (one
//! simulator per bank profile).

use std::time::Duration;

/// Every scope of the operations the simulator serves.
pub const ALL_SCOPES: [&str; 8] = [
    "cob.write",
    "cob.read",
    "cobv.write",
    "cobv.read",
    "pix.write",
    "pix.read",
    "webhook.write",
    "webhook.read",
];

/// A client the bank issued credentials to.
#[derive(Debug, Clone)]
pub struct RegisteredClient {
    /// The OAuth2 `client_id`.
    pub client_id: String,
    /// The OAuth2 `client_secret`.
    pub client_secret: String,
    /// The scopes its tokens may carry.
    pub scopes: Vec<String>,
}

impl RegisteredClient {
    /// A client with every scope in [`ALL_SCOPES`].
    pub fn new(client_id: &str, client_secret: &str) -> RegisteredClient {
        RegisteredClient::with_scopes(client_id, client_secret, &ALL_SCOPES)
    }

    /// A client with only `scopes` (to prove a missing scope is refused).
    pub fn with_scopes(client_id: &str, client_secret: &str, scopes: &[&str]) -> RegisteredClient {
        RegisteredClient {
            client_id: client_id.to_owned(),
            client_secret: client_secret.to_owned(),
            scopes: scopes.iter().map(|scope| (*scope).to_owned()).collect(),
        }
    }
}

/// How the token call carries the client's credentials.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenAuth {
    /// `Authorization: Basic base64(client_id:client_secret)` (most banks).
    Basic,
    /// `client_id` and `client_secret` in the form body.
    FormBody,
}

/// How a bank differs from the plain spec.
#[derive(Debug, Clone)]
pub struct Quirks {
    /// Where the API lives on the host: `/v2`, `/pix/v2`, `/api/v2`, `/pix_recebimentos/v2`.
    pub base_path: String,
    /// Where the token endpoint lives on the host: `/oauth/token`.
    pub token_path: String,
    /// How the token call authenticates the client.
    pub token_auth: TokenAuth,
    /// Whether the token call's body is JSON (`{"grant_type": …}`, Efí) instead of a form.
    pub token_json_body: bool,
    /// Whether the token call demands the client certificate too. When false, a connection
    /// without a certificate may ask for a token, and the API refuses it (403); a certificate
    /// from an unknown CA is refused during the handshake either way.
    pub token_requires_client_cert: bool,
    /// A query parameter every API call must carry (Banco do Brasil's `gw-dev-app-key`).
    pub required_query: Option<(String, String)>,
    /// A header every API call must carry (Inter's `x-conta-corrente`).
    pub required_header: Option<(String, String)>,
    /// Whether the bank POSTs to `{webhookUrl}/pix` (the spec's callback) rather than to the
    /// URL as registered.
    pub appends_pix_to_webhook_url: bool,
    /// Whether `PUT /cob/{txid}` (and `/cobv`) only creates: a txid the bank already has is
    /// refused (400) instead of revised, as several banks answer a retried creation.
    pub put_charge_creates_only: bool,
}

impl Default for Quirks {
    /// The plain spec: `/v2`, `/oauth/token`, Basic auth, mTLS everywhere, `/pix` appended.
    fn default() -> Self {
        Quirks {
            base_path: "/v2".to_owned(),
            token_path: "/oauth/token".to_owned(),
            token_auth: TokenAuth::Basic,
            token_json_body: false,
            token_requires_client_cert: true,
            required_query: None,
            required_header: None,
            appends_pix_to_webhook_url: true,
            put_charge_creates_only: false,
        }
    }
}

/// What becomes of a refund the bank accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RefundOutcome {
    /// It stays `EM_PROCESSAMENTO` until the test calls
    /// [`BankSimulator::settle_refund`](super::BankSimulator::settle_refund) or
    /// [`BankSimulator::reject_refund`](super::BankSimulator::reject_refund).
    #[default]
    Manual,
    /// It is `DEVOLVIDO` a moment after it was asked for.
    SettleAtOnce,
    /// It is `NAO_REALIZADO` a moment after it was asked for.
    RejectAtOnce,
}

/// The account holder a due-date charge (`cobv`) names as its `recebedor`.
#[derive(Debug, Clone)]
pub struct AccountHolder {
    /// CNPJ, 14 characters.
    pub cnpj: String,
    /// Legal name.
    pub nome: String,
    /// Street address.
    pub logradouro: String,
    /// City.
    pub cidade: String,
    /// State, two letters.
    pub uf: String,
    /// Postal code, 8 digits.
    pub cep: String,
}

impl Default for AccountHolder {
    fn default() -> Self {
        AccountHolder {
            cnpj: "12345678000195".to_owned(),
            nome: "Loja de Testes Ltda".to_owned(),
            logradouro: "Rua das Flores, 100".to_owned(),
            cidade: "São Paulo".to_owned(),
            uf: "SP".to_owned(),
            cep: "01001000".to_owned(),
        }
    }
}

/// One simulated bank.
#[derive(Debug, Clone)]
pub struct SimulatorConfig {
    /// The clients with credentials (default: [`SimulatorConfig::CLIENT_ID`] with every scope).
    pub clients: Vec<RegisteredClient>,
    /// The Pix keys the account holds: a webhook or a charge for any other key is refused.
    pub keys: Vec<String>,
    /// How this bank differs from the plain spec.
    pub quirks: Quirks,
    /// How long a token lives (`expires_in`).
    pub token_lifetime: Duration,
    /// What becomes of a refund the bank accepted.
    pub refunds: RefundOutcome,
    /// The `recebedor` of due-date charges.
    pub holder: AccountHolder,
    /// The bank's ISPB, the 8 digits after the `E` of its end-to-end ids.
    pub ispb: String,
}

impl SimulatorConfig {
    /// The default client's id.
    pub const CLIENT_ID: &'static str = "Client_Id_balcao_teste";
    /// The default client's secret.
    pub const CLIENT_SECRET: &'static str = "Client_Secret_balcao_teste";
    /// The key the account holds by default (a random key, EVP).
    pub const KEY: &'static str = "7d9f0335-8dcc-4054-9bf9-0dbd61d36906";

    /// The plain spec's bank with the default client and key.
    pub fn new() -> SimulatorConfig {
        SimulatorConfig {
            clients: vec![RegisteredClient::new(Self::CLIENT_ID, Self::CLIENT_SECRET)],
            keys: vec![Self::KEY.to_owned()],
            quirks: Quirks::default(),
            token_lifetime: Duration::from_secs(3600),
            refunds: RefundOutcome::Manual,
            holder: AccountHolder::default(),
            ispb: "12345678".to_owned(),
        }
    }

    /// The default bank with other quirks.
    pub fn with_quirks(quirks: Quirks) -> SimulatorConfig {
        SimulatorConfig {
            quirks,
            ..SimulatorConfig::new()
        }
    }
}

impl Default for SimulatorConfig {
    fn default() -> Self {
        SimulatorConfig::new()
    }
}
