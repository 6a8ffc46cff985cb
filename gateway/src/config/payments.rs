//! Payments: the API Pix receiver's second factor and size limit, and the sandbox.

use clap::Args;

/// Default of `BALCAO_API_PIX_MAX_BODY_BYTES`: up to 10,699 of the smallest Pix entries (the
/// intake's bound in entries lets them all in), far beyond any batch a bank sends for one key.
pub const DEFAULT_API_PIX_MAX_BODY_BYTES: usize = 1024 * 1024;

/// Payments: the API Pix receiver's second factor and limit, and the sandbox.
#[derive(Clone, Args)]
pub struct PaymentSettings {
    /// Whether payer pages offer "Simular pagamento" (off unless configured; `make run` turns it
    /// on).
    #[arg(
        long,
        env = "BALCAO_SANDBOX_PAYMENTS",
        default_value_t = false,
        action = clap::ArgAction::Set,
        global = true
    )]
    pub sandbox_payments: bool,
    /// Secret of the `X-Balcao-Signature` HMAC every API Pix delivery must carry (unset: none).
    #[arg(
        long,
        env = "BALCAO_API_PIX_HMAC_SECRET",
        hide_env_values = true,
        global = true
    )]
    pub api_pix_hmac_secret: Option<String>,
    /// Largest API Pix delivery accepted, in bytes.
    #[arg(
        long,
        env = "BALCAO_API_PIX_MAX_BODY_BYTES",
        default_value_t = DEFAULT_API_PIX_MAX_BODY_BYTES,
        global = true
    )]
    pub api_pix_max_body_bytes: usize,
}

impl std::fmt::Debug for PaymentSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PaymentSettings")
            .field("sandbox_payments", &self.sandbox_payments)
            .field(
                "api_pix_hmac_secret",
                &self.api_pix_hmac_secret.as_ref().map(|_| "(set)"),
            )
            .field("api_pix_max_body_bytes", &self.api_pix_max_body_bytes)
            .finish()
    }
}

impl Default for PaymentSettings {
    fn default() -> Self {
        PaymentSettings {
            sandbox_payments: false,
            api_pix_hmac_secret: None,
            api_pix_max_body_bytes: DEFAULT_API_PIX_MAX_BODY_BYTES,
        }
    }
}
