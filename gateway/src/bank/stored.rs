//! A client for a connected key, from its credentials as `commands::bank_credentials` keeps
//! them (opened) and the deployment's bank settings.

use commands::bank_credentials::BankCredentials;
use domain::bank::certificate::ClientCertificate;
use domain::bank::profiles::{BankId, BankUrls, Environment};

use super::{ApiPixClient, ApiPixSettings, BankError, Credentials};
use crate::clock::Clock;

/// How owners' banks are called (`BALCAO_BANK_*`).
#[derive(Clone)]
pub struct BankCalls {
    /// Every profile's calls go to this origin instead of the profile's hosts, when set.
    pub origin: Option<url::Url>,
    /// A CA (PEM) trusted besides the system's roots.
    pub extra_root_pem: Option<String>,
    /// Longest wait for one call.
    pub timeout: std::time::Duration,
    /// How often each connected key's bank is read back (`crate::bank_catch_up`).
    pub catch_up_every: std::time::Duration,
}

/// The client for a connected key's `credentials`.
///
/// # Errors
///
/// [`BankError::Setup`] when the stored credentials cannot be read back (they were checked when
/// connected: a bug or a damaged row, logged), or as [`ApiPixClient::new`].
pub fn client_for(
    calls: &BankCalls,
    clock: &Clock,
    credentials: &BankCredentials,
) -> Result<ApiPixClient, BankError> {
    let stored = |what: &str| {
        tracing::error!(what, "stored bank credentials cannot be read back");
        BankError::Setup
    };
    let bank = BankId::from_slug(&credentials.bank).ok_or_else(|| stored("bank"))?;
    let environment =
        Environment::from_slug(&credentials.environment).ok_or_else(|| stored("environment"))?;
    let urls = BankUrls::for_connection(
        bank,
        environment,
        credentials.api_base.as_deref().unwrap_or_default(),
        credentials.token_url.as_deref().unwrap_or_default(),
    )
    .map_err(|_| stored("addresses"))?;
    let certificate = ClientCertificate::from_pem(
        credentials.certificate_pem.as_bytes(),
        Some(credentials.private_key_pem.as_bytes()),
    )
    .map_err(|_| stored("certificate"))?;
    let mut settings = ApiPixSettings::new(
        bank,
        urls,
        Credentials {
            client_id: credentials.client_id.to_string(),
            client_secret: credentials.client_secret.clone(),
            certificate,
            extra_value: credentials.extra.as_deref().map(ToString::to_string),
        },
    );
    settings.extra_root_pem = calls.extra_root_pem.clone();
    settings.origin = calls.origin.clone();
    settings.timeout = calls.timeout;
    settings.clock = clock.clone();
    ApiPixClient::new(settings)
}
