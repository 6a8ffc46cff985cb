//! What every handler shares.

use std::sync::Arc;

use commands::{CommandService, PgEventStore};
use domain::payment::Payment;
use sqlx::PgPool;

use crate::assets::webapp::Webapp;
use crate::auth::Auth;
use crate::config::PaymentSettings;
use crate::html::Site;
use crate::mail::Mailer;
use crate::rate_limit::RateLimiter;

/// Shared state; cheap to clone.
#[derive(Clone)]
pub struct AppState(Arc<Inner>);

/// The fields behind [`AppState`].
pub struct Inner {
    /// Site-wide facts from configuration.
    pub site: Site,
    /// The application's PostgreSQL pool.
    pub pool: PgPool,
    /// Runs the QR-code aggregate's commands.
    pub qrcodes: commands::CommandService<domain::qrcode::QrCode>,
    /// Runs the Account aggregate's commands (and loads accounts, authoritatively).
    pub accounts: commands::CommandService<domain::account::Account>,
    /// Runs the Pix key ring's workflow (seal, fingerprint, command).
    pub pix_keys: commands::pix_keys::PixKeys,
    /// Identity: token keys, password hashing and policy, cookie flags, rate limits.
    pub auth: Auth,
    /// Sends e-mail.
    pub mailer: Arc<Mailer>,
    /// The built dashboard.
    pub webapp: Webapp,
    /// The NATS connection, for `/readyz`.
    pub nats: Option<async_nats::Client>,
    /// Limits public QR-code creation per client address.
    pub create_limiter: RateLimiter,
    /// Limits the developer API's calls per key (`crate::api::v1`).
    pub key_limiter: RateLimiter<uuid::Uuid>,
    /// Outgoing webhooks: which addresses may be called, how soon a failed delivery is tried again.
    pub webhooks: crate::webhook_sender::SenderSettings,
    /// Proxies of ours in front of the gateway (`BALCAO_TRUSTED_PROXIES`): which
    /// `X-Forwarded-For` entry is the client ([`crate::client_address`]).
    pub trusted_proxies: u8,
    /// The read models' progress (waiting holds no database connection).
    pub progress: crate::read_your_writes::progress::Progress,
    /// Payments: the Payment aggregate's commands, the API Pix receiver's settings, the sandbox.
    pub payments: Payments,
    /// Live updates (server-sent events) fed from the payments projection's progress.
    pub live: crate::live::Live,
    /// Plans and billing: the subscription commands and the billing provider.
    pub billing: crate::billing::Billing,
    /// Uploaded files (sign logos), with the storage retry policy and error catalogue.
    pub storage: crate::storage::Storage,
    /// Payer pages kept rendered and compressed (`crate::payer_cache`).
    pub payer_pages: crate::payer_cache::PayerPages,
    /// The clock calendar decisions read (`Settings::clock`'s, shared).
    pub clock: crate::clock::Clock,
}

impl AppState {
    /// Wraps the shared fields.
    pub fn new(inner: Inner) -> Self {
        AppState(Arc::new(inner))
    }

    /// The QR code `qrcode_id` from its read model or, when the projector has not written it
    /// yet, from its own stream ([`projections::qrcodes::find_or_from_log`]): pages and answers
    /// about a code never 404 because a projector is stopped or behind.
    ///
    /// # Errors
    ///
    /// When PostgreSQL fails.
    pub async fn qrcode(
        &self,
        qrcode_id: uuid::Uuid,
    ) -> Result<Option<projections::qrcodes::QrCodeView>, projections::Error> {
        projections::qrcodes::find_or_from_log(&self.pool, self.qrcodes.store(), qrcode_id).await
    }
}

impl AsRef<crate::read_your_writes::Progress> for AppState {
    fn as_ref(&self) -> &crate::read_your_writes::Progress {
        &self.progress
    }
}

impl std::ops::Deref for AppState {
    type Target = Inner;

    fn deref(&self) -> &Inner {
        &self.0
    }
}

/// What the payment routes share (`crate::api::payments`).
pub struct Payments {
    /// Runs the Payment aggregate's commands (manual records and voids).
    pub commands: CommandService<Payment>,
    /// Whether payer pages offer "Simular pagamento".
    pub sandbox: bool,
    /// The secret of the `X-Balcao-Signature` HMAC, when configured.
    pub hmac_secret: Option<Vec<u8>>,
    /// Largest delivery accepted, in bytes.
    pub max_body_bytes: usize,
    /// Where owners' banks are called, and how ("Conectar banco").
    pub banks: crate::bank::BankCalls,
}

impl Payments {
    /// From the settings, over `pool`.
    ///
    /// # Errors
    ///
    /// When `BALCAO_BANK_API_ORIGIN` is set and is not a URL: a typo fails the start instead of
    /// sending owners' credentials somewhere else.
    pub fn new(settings: &PaymentSettings, pool: &PgPool) -> anyhow::Result<Self> {
        let origin = match settings
            .bank_api_origin
            .as_deref()
            .filter(|o| !o.is_empty())
        {
            Some(origin) => Some(url::Url::parse(origin).map_err(|error| {
                anyhow::anyhow!("BALCAO_BANK_API_ORIGIN is not a URL ({error}): {origin}")
            })?),
            None => None,
        };
        Ok(Payments {
            commands: CommandService::new(PgEventStore::new(pool.clone()), ()),
            sandbox: settings.sandbox_payments,
            hmac_secret: settings
                .api_pix_hmac_secret
                .as_ref()
                .filter(|s| !s.is_empty())
                .map(|s| s.as_bytes().to_vec()),
            max_body_bytes: settings.api_pix_max_body_bytes,
            banks: crate::bank::BankCalls {
                origin,
                extra_root_pem: settings
                    .bank_extra_root_pem
                    .clone()
                    .filter(|p| !p.is_empty()),
                timeout: std::time::Duration::from_millis(settings.bank_timeout_ms),
                catch_up_every: std::time::Duration::from_secs(settings.bank_catch_up_secs.max(1)),
            },
        })
    }
}
