//! Where e-mail goes, and where uploaded files are stored.

use clap::Args;

/// Default of `BALCAO_MAIL_URL`.
pub const DEFAULT_MAIL_URL: &str = "file://.data/outbox";
/// Default of `BALCAO_MAIL_FROM`.
pub const DEFAULT_MAIL_FROM: &str = "Balcão <nao-responda@balcao.app>";

/// Where e-mail goes and who sends it.
#[derive(Clone, Args)]
pub struct MailSettings {
    /// Mail transport URL: `smtp://`, `smtps://`, `smtp+starttls://` or `file://`.
    #[arg(long, env = "BALCAO_MAIL_URL", default_value = DEFAULT_MAIL_URL, global = true)]
    pub mail_url: String,
    /// Sender of every e-mail.
    #[arg(long, env = "BALCAO_MAIL_FROM", default_value = DEFAULT_MAIL_FROM, global = true)]
    pub mail_from: String,
}

impl std::fmt::Debug for MailSettings {
    /// The URL without its password.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MailSettings")
            .field("mail_url", &crate::mail::redact(&self.mail_url))
            .field("mail_from", &self.mail_from)
            .finish()
    }
}

impl Default for MailSettings {
    fn default() -> Self {
        MailSettings {
            mail_url: DEFAULT_MAIL_URL.to_owned(),
            mail_from: DEFAULT_MAIL_FROM.to_owned(),
        }
    }
}

/// Where uploaded files (the sign logos) are stored: see [`crate::storage`].
#[derive(Debug, Clone, Args)]
pub struct StorageSettings {
    /// `file://FOLDER` (default `file://.data/objects`) or `s3://BUCKET[/PREFIX]` (credentials
    /// and endpoint from `AWS_*`).
    #[arg(long, env = "BALCAO_STORAGE_URL", default_value = crate::storage::DEFAULT_STORAGE_URL, global = true)]
    pub storage_url: String,
}

impl Default for StorageSettings {
    fn default() -> Self {
        StorageSettings {
            storage_url: crate::storage::DEFAULT_STORAGE_URL.to_owned(),
        }
    }
}
