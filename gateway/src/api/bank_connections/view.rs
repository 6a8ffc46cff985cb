//! What the API answers about bank connections: the banks offered and each connected key, never
//! a credential.

use domain::bank::profiles::{BankId, Environment};
use domain::bank_connection::{BankConnection, WebhookState};
use serde::Serialize;

/// A bank the connect form offers.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BankJson {
    /// The profile's slug.
    pub id: &'static str,
    /// Its name, pt-BR.
    pub name: &'static str,
    /// What to ask the bank for (the certificate's format, the permissions), pt-BR.
    pub instructions: String,
    /// The one more value the bank needs, if any.
    pub extra: Option<ExtraJson>,
    /// Whether the owner types the API's and the token's addresses (profile `outro`).
    pub typed_addresses: bool,
    /// Whether the bank issues a client secret (the form hides the field when not).
    pub uses_client_secret: bool,
    /// The environments the bank offers through its API Pix (`producao`, `homologacao`).
    pub environments: Vec<&'static str>,
}

/// The profile's extra field, as the form asks for it.
#[derive(Debug, Serialize)]
pub struct ExtraJson {
    /// The field's label, pt-BR.
    pub label: &'static str,
    /// Help under it, pt-BR.
    pub hint: &'static str,
}

/// The last connection test.
#[derive(Debug, Serialize)]
pub struct TestJson {
    /// Whether the bank answered.
    pub ok: bool,
    /// What failed, pt-BR.
    pub message: Option<String>,
    /// When, RFC 3339.
    pub at: String,
}

/// The webhook at the bank.
#[derive(Debug, Serialize)]
pub struct WebhookJson {
    /// `registered`, `failed` or `not-registered`.
    pub state: &'static str,
    /// Why it failed, pt-BR.
    pub message: Option<String>,
    /// When it was registered or failed, RFC 3339.
    pub at: Option<String>,
}

/// How the catch-up (`crate::bank_catch_up`) of the key stands.
#[derive(Debug, Serialize, sqlx::FromRow)]
#[serde(rename_all = "camelCase")]
pub struct CatchUpJson {
    /// Every Pix the bank listed before this instant is recorded.
    pub checked_until: Option<chrono::DateTime<chrono::Utc>>,
    /// The last run that read every page.
    pub last_success_at: Option<chrono::DateTime<chrono::Utc>>,
    /// The first failure since then: "sem contato com o banco desde …".
    pub failing_since: Option<chrono::DateTime<chrono::Utc>>,
    /// What the bank answered last, pt-BR.
    pub last_problem: Option<String>,
}

/// One connected key.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConnectionJson {
    /// The key's id.
    pub key_id: String,
    /// The key in DICT form.
    pub pix_key: String,
    /// The profile's slug.
    pub bank: String,
    /// The bank's name.
    pub bank_name: String,
    /// `producao` or `homologacao`.
    pub environment: String,
    /// When the certificate stops being valid, RFC 3339.
    pub certificate_not_after: String,
    /// When it was connected, RFC 3339.
    pub connected_at: String,
    /// The last test since it was connected.
    pub last_test: Option<TestJson>,
    /// The webhook at the bank.
    pub webhook: WebhookJson,
    /// The catch-up through `GET /pix`; `null` before its first run.
    pub catch_up: Option<CatchUpJson>,
}

/// The `GET` answer.
#[derive(Debug, Serialize)]
pub struct ConnectionsJson {
    /// The banks offered, in the form's order.
    pub banks: Vec<BankJson>,
    /// The account's connected keys.
    pub connections: Vec<ConnectionJson>,
}

/// One key's page.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KeyPageJson {
    /// The key's id.
    pub key_id: String,
    /// The key in DICT form.
    pub pix_key: String,
    /// The banks offered.
    pub banks: Vec<BankJson>,
    /// Its connection; `null` while it is not connected.
    pub connection: Option<ConnectionJson>,
}

/// Every bank the form offers.
pub fn banks() -> Vec<BankJson> {
    BankId::ALL
        .iter()
        .map(|&id| {
            let profile = id.profile();
            let instructions = match profile.scope_parameter() {
                Some(scopes) => format!(
                    "{} Peça ao banco as permissões (escopos): {}.",
                    profile.certificate_hint,
                    scopes.replace(' ', ", ")
                ),
                None => profile.certificate_hint.to_owned(),
            };
            BankJson {
                id: id.slug(),
                name: id.name(),
                instructions,
                extra: profile.extra_field.map(|extra| ExtraJson {
                    label: extra.label,
                    hint: extra.hint,
                }),
                typed_addresses: profile.owner_types_urls(),
                uses_client_secret: profile.uses_client_secret,
                environments: Environment::ALL
                    .iter()
                    .filter(|&&environment| {
                        profile.owner_types_urls() || profile.endpoints(environment).is_some()
                    })
                    .map(|environment| environment.slug())
                    .collect(),
            }
        })
        .collect()
}

/// A standing connection as the API shows it; `None` when the key is not connected.
pub fn connection(state: &BankConnection, catch_up: Option<CatchUpJson>) -> Option<ConnectionJson> {
    let connected = state.connected.as_ref()?;
    let bank_name = BankId::from_slug(&connected.bank)
        .map_or_else(|| connected.bank.clone(), |id| id.name().to_owned());
    let environment = Environment::from_slug(&connected.environment)
        .map_or_else(|| connected.environment.clone(), |e| e.slug().to_owned());
    let webhook = match &state.webhook {
        WebhookState::NotRegistered => WebhookJson {
            state: "not-registered",
            message: None,
            at: None,
        },
        WebhookState::Registered { at } => WebhookJson {
            state: "registered",
            message: None,
            at: Some(at.clone()),
        },
        WebhookState::Failed { message, at, .. } => WebhookJson {
            state: "failed",
            message: Some(message.clone()),
            at: Some(at.clone()),
        },
    };
    Some(ConnectionJson {
        key_id: connected.key_id.clone(),
        pix_key: connected.pix_key.clone(),
        bank: connected.bank.clone(),
        bank_name,
        environment,
        certificate_not_after: connected.certificate_not_after.clone(),
        connected_at: connected.at.clone(),
        last_test: state.last_test.as_ref().map(|test| TestJson {
            ok: test.ok,
            message: test.message.clone(),
            at: test.at.clone(),
        }),
        webhook,
        catch_up,
    })
}
