//! Plans and billing: the Asaas adapter.

use clap::Args;

/// Asaas's sandbox base URL: the default of `BALCAO_ASAAS_BASE_URL`.
pub const ASAAS_SANDBOX_URL: &str = "https://api-sandbox.asaas.com/v3";

/// Plans and billing: the Asaas adapter (see the module table).
#[derive(Clone, Args)]
pub struct BillingSettings {
    /// Asaas API v3 key (unset: the sandbox provider, or billing off).
    #[arg(
        long,
        env = "BALCAO_ASAAS_API_KEY",
        hide_env_values = true,
        global = true
    )]
    pub asaas_api_key: Option<String>,
    /// Asaas base URL (sandbox or production).
    #[arg(
        long,
        env = "BALCAO_ASAAS_BASE_URL",
        default_value = ASAAS_SANDBOX_URL,
        global = true
    )]
    pub asaas_base_url: String,
    /// The token Asaas sends in `asaas-access-token`.
    #[arg(
        long,
        env = "BALCAO_ASAAS_WEBHOOK_TOKEN",
        hide_env_values = true,
        global = true
    )]
    pub asaas_webhook_token: Option<String>,
    /// Our `User-Agent` towards Asaas.
    #[arg(
        long,
        env = "BALCAO_ASAAS_USER_AGENT",
        default_value = "Balcao/1.0 (+https://balcao.app)",
        global = true
    )]
    pub asaas_user_agent: String,
    /// Longest one Asaas request may take, in milliseconds.
    #[arg(
        long,
        env = "BALCAO_ASAAS_TIMEOUT_MS",
        default_value_t = 10_000,
        global = true
    )]
    pub asaas_timeout_ms: u64,
    /// Tries per Asaas call.
    #[arg(
        long,
        env = "BALCAO_ASAAS_ATTEMPTS",
        default_value_t = 3,
        global = true
    )]
    pub asaas_attempts: u32,
}

impl std::fmt::Debug for BillingSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BillingSettings")
            .field(
                "asaas_api_key",
                &self.asaas_api_key.as_ref().map(|_| "(set)"),
            )
            .field("asaas_base_url", &self.asaas_base_url)
            .field(
                "asaas_webhook_token",
                &self.asaas_webhook_token.as_ref().map(|_| "(set)"),
            )
            .field("asaas_timeout_ms", &self.asaas_timeout_ms)
            .field("asaas_attempts", &self.asaas_attempts)
            .finish_non_exhaustive()
    }
}

impl Default for BillingSettings {
    fn default() -> Self {
        BillingSettings {
            asaas_api_key: None,
            asaas_base_url: ASAAS_SANDBOX_URL.to_owned(),
            asaas_webhook_token: None,
            asaas_user_agent: "Balcao/1.0 (+https://balcao.app)".to_owned(),
            asaas_timeout_ms: 10_000,
            asaas_attempts: 3,
        }
    }
}
