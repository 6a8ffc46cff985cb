//! Payments: the API Pix receiver's second factor and size limit, the sandbox, and the calls to
//! owners' banks (issue 33).

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
    /// Sends every bank profile's calls to this origin (`https://host:port`), keeping each
    /// profile's paths: a bank's sandbox behind one address, or the tests' bank simulator.
    /// Unset: each profile's own hosts.
    #[arg(long, env = "BALCAO_BANK_API_ORIGIN", global = true)]
    pub bank_api_origin: Option<String>,
    /// A certificate authority (PEM text) trusted for bank calls besides the system's roots: a
    /// bank's homologation CA, or the tests' simulator.
    #[arg(
        long,
        env = "BALCAO_BANK_EXTRA_ROOT_PEM",
        hide_env_values = true,
        global = true
    )]
    pub bank_extra_root_pem: Option<String>,
    /// How long one call to a bank may take, in milliseconds.
    #[arg(
        long,
        env = "BALCAO_BANK_TIMEOUT_MS",
        default_value_t = DEFAULT_BANK_TIMEOUT_MS,
        global = true
    )]
    pub bank_timeout_ms: u64,
    /// How often each connected key's bank is read back through `GET /pix` (the catch-up of
    /// webhooks that did not arrive), in seconds.
    #[arg(
        long,
        env = "BALCAO_BANK_CATCH_UP_SECS",
        default_value_t = DEFAULT_BANK_CATCH_UP_SECS,
        global = true
    )]
    pub bank_catch_up_secs: u64,
}

/// Default of `BALCAO_BANK_CATCH_UP_SECS`: a Pix whose webhook was lost shows within five
/// minutes, and a bank is asked twelve times an hour per key.
pub const DEFAULT_BANK_CATCH_UP_SECS: u64 = 300;

/// Default of `BALCAO_BANK_TIMEOUT_MS`: banks' token and webhook calls answer in a second or two;
/// fifteen lets a slow homologation environment through while a request still ends well within
/// the API's 30 s.
pub const DEFAULT_BANK_TIMEOUT_MS: u64 = 15_000;

impl std::fmt::Debug for PaymentSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PaymentSettings")
            .field("sandbox_payments", &self.sandbox_payments)
            .field(
                "api_pix_hmac_secret",
                &self.api_pix_hmac_secret.as_ref().map(|_| "(set)"),
            )
            .field("api_pix_max_body_bytes", &self.api_pix_max_body_bytes)
            .field("bank_api_origin", &self.bank_api_origin)
            .field(
                "bank_extra_root_pem",
                &self.bank_extra_root_pem.as_ref().map(|_| "(set)"),
            )
            .field("bank_timeout_ms", &self.bank_timeout_ms)
            .field("bank_catch_up_secs", &self.bank_catch_up_secs)
            .finish()
    }
}

impl Default for PaymentSettings {
    fn default() -> Self {
        PaymentSettings {
            sandbox_payments: false,
            api_pix_hmac_secret: None,
            api_pix_max_body_bytes: DEFAULT_API_PIX_MAX_BODY_BYTES,
            bank_api_origin: None,
            bank_extra_root_pem: None,
            bank_timeout_ms: DEFAULT_BANK_TIMEOUT_MS,
            bank_catch_up_secs: DEFAULT_BANK_CATCH_UP_SECS,
        }
    }
}
