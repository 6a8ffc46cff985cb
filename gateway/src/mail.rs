//! Outgoing e-mail (lettre): the pt-BR messages Balcão sends and the transport that carries them.
//!
//! The transport comes from one URL, `BALCAO_MAIL_URL`:
//!
//! | URL | transport |
//! |---|---|
//! | `smtp://host:port` | SMTP without TLS (a relay on the same machine or network; port 25 by default) |
//! | `smtps://user:pass@host:port` | SMTP over implicit TLS (port 465 by default) |
//! | `smtp+starttls://user:pass@host:port` | SMTP upgraded with STARTTLS, refused if the server cannot (port 587 by default) |
//! | `file:///abs/path` or `file://relative/path` | one `.eml` file per message in that folder (created when missing) |
//!
//! The default, `file://.data/outbox`, needs no mail server: `make run` writes the messages there
//! and logs each message's link at info level ("link de verificação: …"), so a developer can
//! follow it. TLS uses rustls with the system's root certificates.
//!
//! Sending never decides a request's answer: a failure is logged and counted
//! (`balcao_mail_total{outcome="failed"}`) and the caller carries on (recovery answers 204 either
//! way, so it cannot reveal which e-mails have accounts).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use askama::Template;
use lettre::message::{Mailbox, MultiPart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Tls, TlsParameters};
use lettre::{AsyncFileTransport, AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

/// How long one SMTP conversation may take before it is abandoned.
const SMTP_TIMEOUT: Duration = Duration::from_secs(15);
/// The counter of messages by kind and outcome.
pub(crate) const MAIL_COUNTER: &str = "balcao_mail_total";

/// Why the mail settings cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum MailConfigError {
    /// The URL is not one of the accepted forms.
    #[error("BALCAO_MAIL_URL {url:?} is not usable: {reason}")]
    Url {
        /// The URL, with any password hidden.
        url: String,
        /// What is wrong.
        reason: String,
    },
    /// The sender is not an e-mail address (with an optional name).
    #[error(
        "BALCAO_MAIL_FROM {0:?} is not an address such as \"Balcão <nao-responda@balcao.app>\""
    )]
    From(String),
    /// The outbox folder cannot be created.
    #[error("could not create the mail folder {path}: {source}")]
    Folder {
        /// The folder.
        path: PathBuf,
        /// What the file system said.
        source: std::io::Error,
    },
}

/// How SMTP is protected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SmtpSecurity {
    /// No TLS at all (`smtp://`).
    None,
    /// TLS from the first byte (`smtps://`).
    Implicit,
    /// Plain connection upgraded with STARTTLS, which is required (`smtp+starttls://`).
    StartTls,
}

/// `BALCAO_MAIL_URL`, parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MailUrl {
    /// An SMTP server.
    Smtp {
        /// Host name or address.
        host: String,
        /// Port.
        port: u16,
        /// TLS mode.
        security: SmtpSecurity,
        /// User name and password, when the URL has them (percent-decoded).
        credentials: Option<(String, String)>,
    },
    /// A folder that receives one `.eml` file per message.
    File(PathBuf),
}

impl MailUrl {
    /// Parses a mail URL (see the module documentation for the forms).
    ///
    /// # Errors
    ///
    /// [`MailConfigError::Url`] for any other scheme, a missing host or path, or a bad port.
    pub fn parse(text: &str) -> Result<MailUrl, MailConfigError> {
        let invalid = |reason: &str| MailConfigError::Url {
            url: redact(text),
            reason: reason.to_owned(),
        };
        if let Some(path) = text.strip_prefix("file://") {
            if path.is_empty() {
                return Err(invalid(
                    "a file URL needs a folder, e.g. file://.data/outbox",
                ));
            }
            return Ok(MailUrl::File(PathBuf::from(path)));
        }
        let url = url::Url::parse(text).map_err(|e| invalid(&e.to_string()))?;
        let (security, default_port) = match url.scheme() {
            "smtp" => (SmtpSecurity::None, 25),
            "smtps" => (SmtpSecurity::Implicit, 465),
            "smtp+starttls" => (SmtpSecurity::StartTls, 587),
            _ => {
                return Err(invalid(
                    "use smtp://, smtps://, smtp+starttls:// or file://",
                ));
            }
        };
        let host = url
            .host_str()
            .filter(|h| !h.is_empty())
            .ok_or_else(|| invalid("the URL names no host"))?
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_owned();
        let decode = |s: &str| {
            percent_encoding::percent_decode_str(s)
                .decode_utf8()
                .map(|c| c.into_owned())
                .map_err(|_| invalid("the user name or password is not UTF-8"))
        };
        let credentials = if url.username().is_empty() {
            None
        } else {
            Some((
                decode(url.username())?,
                decode(url.password().unwrap_or_default())?,
            ))
        };
        Ok(MailUrl::Smtp {
            host,
            port: url.port().unwrap_or(default_port),
            security,
            credentials,
        })
    }
}

/// The URL without its password, for messages and logs.
pub fn redact(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut parsed) if parsed.password().is_some() => {
            let _ = parsed.set_password(Some("***"));
            parsed.to_string()
        }
        _ => url.to_owned(),
    }
}

/// What a message is for (the `kind` label of the metric, and the log line under the file
/// transport).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MailKind {
    /// Confirm the address of a new account.
    VerifyEmail,
    /// Choose a new password.
    ResetPassword,
    /// Confirm a new address for an existing account.
    ConfirmNewEmail,
    /// Join someone's account as a member.
    Invitation,
    /// The private management link of a sign made without an account.
    SignManagementLink,
    /// A connected bank's certificate ends soon (30, 7 or 1 days).
    BankCertificateExpiring,
}

impl MailKind {
    /// The metric label.
    pub fn label(self) -> &'static str {
        match self {
            MailKind::VerifyEmail => "verify_email",
            MailKind::ResetPassword => "reset_password",
            MailKind::ConfirmNewEmail => "confirm_new_email",
            MailKind::Invitation => "invitation",
            MailKind::SignManagementLink => "sign_management_link",
            MailKind::BankCertificateExpiring => "bank_certificate_expiring",
        }
    }

    /// How the link is named in the log under the file transport.
    fn link_name(self) -> &'static str {
        match self {
            MailKind::VerifyEmail => "link de verificação",
            MailKind::ResetPassword => "link de redefinição de senha",
            MailKind::ConfirmNewEmail => "link de confirmação do novo e-mail",
            MailKind::Invitation => "link do convite",
            MailKind::SignManagementLink => "link de gestão da placa",
            MailKind::BankCertificateExpiring => "link da conexão com o banco",
        }
    }
}

/// One message, ready to send: the recipient, the subject, a plain-text body and an HTML one.
#[derive(Debug, Clone)]
pub struct Email {
    /// What it is for.
    pub kind: MailKind,
    /// The recipient's address.
    pub to: String,
    /// The subject, pt-BR.
    pub subject: String,
    /// The plain-text body.
    pub text: String,
    /// The HTML body.
    pub html: String,
    /// The one link the message carries.
    pub link: String,
}

impl Email {
    /// "Confirme seu e-mail": sent after sign-up (and on request) to verify the address. Whoever
    /// signed up typed both the address and the name, so the name is shown only as quoted data.
    pub fn verify_email(to: &str, display_name: &str, link: &str, valid_for: Duration) -> Email {
        let message = Fill {
            subject: "Confirme seu e-mail no Balcão",
            link,
            validity: describe_duration(valid_for),
            name: quoted(display_name),
            role: "",
        };
        message.render(
            MailKind::VerifyEmail,
            to,
            VerifyEmailHtml { m: &message },
            VerifyEmailText { m: &message },
        )
    }

    /// "O link da sua placa Pix": the private management link of a sign made without an
    /// account, sent to the address the visitor typed on `/placa-pix-criada/{id}`.
    pub fn sign_management_link(to: &str, link: &str) -> Email {
        let message = Fill {
            subject: "O link da sua placa Pix no Balcão",
            link,
            validity: String::new(),
            name: None,
            role: "",
        };
        message.render(
            MailKind::SignManagementLink,
            to,
            SignManagementLinkHtml { m: &message },
            SignManagementLinkText { m: &message },
        )
    }

    /// "O certificado do banco vence em …": sent to the account's owner 30, 7 and 1 days before
    /// the certificate of a connected key ends (`crate::bank_certificates`). `bank` is the
    /// profile's name (fixed text), `ends` says when in words ("em 7 dias, em 05/12/2026").
    pub fn bank_certificate_expiring(
        to: &str,
        bank: &'static str,
        ends: String,
        link: &str,
    ) -> Email {
        let message = Fill {
            subject: "O certificado do seu banco no Balcão está vencendo",
            link,
            validity: ends,
            name: None,
            role: bank,
        };
        message.render(
            MailKind::BankCertificateExpiring,
            to,
            BankCertificateExpiringHtml { m: &message },
            BankCertificateExpiringText { m: &message },
        )
    }

    /// "Redefina sua senha": sent by `POST /api/auth/recover` when the account exists.
    pub fn reset_password(to: &str, link: &str, valid_for: Duration) -> Email {
        let message = Fill {
            subject: "Redefina sua senha do Balcão",
            link,
            validity: describe_duration(valid_for),
            name: None,
            role: "",
        };
        message.render(
            MailKind::ResetPassword,
            to,
            ResetPasswordHtml { m: &message },
            ResetPasswordText { m: &message },
        )
    }

    /// "Confirme seu novo e-mail": sent to the new address when a signed-in person changes it.
    /// The account's name is shown only as quoted data.
    pub fn confirm_new_email(
        to: &str,
        display_name: &str,
        link: &str,
        valid_for: Duration,
    ) -> Email {
        let message = Fill {
            subject: "Confirme seu novo e-mail no Balcão",
            link,
            validity: describe_duration(valid_for),
            name: quoted(display_name),
            role: "",
        };
        message.render(
            MailKind::ConfirmNewEmail,
            to,
            ConfirmNewEmailHtml { m: &message },
            ConfirmNewEmailText { m: &message },
        )
    }

    /// "Você recebeu um convite": the account named `inviter` invites the recipient as `role`
    /// (the role's pt-BR name, e.g. "gerente" or "operador").
    ///
    /// The subject is fixed: the inviter's name is typed by whoever owns the account and sent to
    /// an address of their choosing, so it never goes where a mail client shows it as the
    /// message's own words. In the body it is quoted and cut short ([`quoted`]), as data.
    pub fn invitation(
        to: &str,
        inviter: &str,
        role: &str,
        link: &str,
        valid_for: Duration,
    ) -> Email {
        let message = Fill {
            subject: INVITATION_SUBJECT,
            link,
            validity: describe_duration(valid_for),
            name: quoted(inviter),
            role,
        };
        message.render(
            MailKind::Invitation,
            to,
            InvitationHtml { m: &message },
            InvitationText { m: &message },
        )
    }
}

/// What the templates under `templates/mail/` fill in. Each message's words are in its two
/// templates (`NAME.html` extending `layout.html`, `NAME.txt` extending `layout.txt`); askama
/// escapes every value in the HTML ones, so a typed name or a link's `&` cannot become markup.
struct Fill<'a> {
    /// Fixed text per message, never a typed name.
    subject: &'static str,
    /// The one link.
    link: &'a str,
    /// How long the link works ([`describe_duration`]).
    validity: String,
    /// A typed name, already [`quoted`]; `None` when blank or when the message names no one.
    name: Option<String>,
    /// The invitation's role, in pt-BR; the bank's name in a certificate warning; empty elsewhere.
    role: &'a str,
}

impl Fill<'_> {
    /// Renders both bodies.
    fn render(&self, kind: MailKind, to: &str, html: impl Template, text: impl Template) -> Email {
        // Rendering only writes `String`s into a `String`, which cannot fail.
        const INFALLIBLE: &str = "a mail template writes only strings";
        Email {
            kind,
            to: to.to_owned(),
            subject: self.subject.to_owned(),
            text: text.render().expect(INFALLIBLE),
            html: html.render().expect(INFALLIBLE),
            link: self.link.to_owned(),
        }
    }
}

/// Declares one template over a [`Fill`].
macro_rules! mail_template {
    ($name:ident, $path:literal) => {
        #[derive(Template)]
        #[template(path = $path)]
        struct $name<'a> {
            m: &'a Fill<'a>,
        }
    };
}

mail_template!(VerifyEmailHtml, "mail/verify_email.html");
mail_template!(VerifyEmailText, "mail/verify_email.txt");
mail_template!(ResetPasswordHtml, "mail/reset_password.html");
mail_template!(ResetPasswordText, "mail/reset_password.txt");
mail_template!(ConfirmNewEmailHtml, "mail/confirm_new_email.html");
mail_template!(ConfirmNewEmailText, "mail/confirm_new_email.txt");
mail_template!(InvitationHtml, "mail/invitation.html");
mail_template!(InvitationText, "mail/invitation.txt");
mail_template!(SignManagementLinkHtml, "mail/sign_management_link.html");
mail_template!(SignManagementLinkText, "mail/sign_management_link.txt");
mail_template!(
    BankCertificateExpiringHtml,
    "mail/bank_certificate_expiring.html"
);
mail_template!(
    BankCertificateExpiringText,
    "mail/bank_certificate_expiring.txt"
);

/// The invitation's subject: fixed text, never a name someone typed.
pub const INVITATION_SUBJECT: &str = "Você recebeu um convite para o Balcão";

/// The most characters of a typed name an e-mail shows.
pub const MAX_NAME_IN_EMAIL: usize = 40;

/// A name someone typed, as data inside a sentence: on one line, at most [`MAX_NAME_IN_EMAIL`]
/// characters (longer ones end in "…"), between quotation marks. `None` when blank.
pub fn quoted(name: &str) -> Option<String> {
    let one_line: String = name
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    if one_line.is_empty() {
        return None;
    }
    let mut shown: String = one_line.chars().take(MAX_NAME_IN_EMAIL).collect();
    if one_line.chars().count() > MAX_NAME_IN_EMAIL {
        shown = shown.trim_end().to_owned();
        shown.push('…');
    }
    Some(format!("“{shown}”"))
}

/// "1 hora", "24 horas", "3 dias": how long a link is valid, in pt-BR.
pub fn describe_duration(duration: Duration) -> String {
    let hours = duration.as_secs().div_ceil(3600).max(1);
    if hours <= 48 {
        if hours == 1 {
            "1 hora".to_owned()
        } else {
            format!("{hours} horas")
        }
    } else {
        let days = hours.div_ceil(24);
        format!("{days} dias")
    }
}

/// Why one message was not sent.
#[derive(Debug, thiserror::Error)]
pub enum SendError {
    /// The recipient is not an e-mail address lettre accepts.
    #[error("the recipient is not a valid address: {0}")]
    Recipient(#[from] lettre::address::AddressError),
    /// The message could not be built.
    #[error("the message could not be built: {0}")]
    Message(#[from] lettre::error::Error),
    /// The SMTP server refused or could not be reached.
    #[error("SMTP failed: {0}")]
    Smtp(#[from] lettre::transport::smtp::Error),
    /// The file could not be written.
    #[error("the message file could not be written: {0}")]
    File(#[from] lettre::transport::file::Error),
}

enum Transport {
    Smtp(AsyncSmtpTransport<Tokio1Executor>),
    File(AsyncFileTransport<Tokio1Executor>),
}

/// Sends [`Email`]s through the configured transport. Share it in an [`Arc`].
pub struct Mailer {
    transport: Transport,
    from: Mailbox,
    description: String,
}

impl std::fmt::Debug for Mailer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mailer")
            .field("transport", &self.description)
            .field("from", &self.from.to_string())
            .finish()
    }
}

impl Mailer {
    /// A mailer for `url` (see [`MailUrl`]) sending as `from` (e.g. `Balcão <nao-responda@balcao.app>`).
    ///
    /// # Errors
    ///
    /// When the URL or the sender is not usable, or the outbox folder cannot be created.
    pub fn new(url: &str, from: &str) -> Result<Mailer, MailConfigError> {
        let sender: Mailbox = from
            .parse()
            .map_err(|_| MailConfigError::From(from.to_owned()))?;
        let transport = match MailUrl::parse(url)? {
            MailUrl::File(folder) => {
                std::fs::create_dir_all(&folder).map_err(|source| MailConfigError::Folder {
                    path: folder.clone(),
                    source,
                })?;
                Transport::File(AsyncFileTransport::<Tokio1Executor>::new(folder))
            }
            MailUrl::Smtp {
                host,
                port,
                security,
                credentials,
            } => {
                let mut builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&host)
                    .port(port)
                    .timeout(Some(SMTP_TIMEOUT));
                let tls = |host: &str| {
                    TlsParameters::new(host.to_owned()).map_err(|e| MailConfigError::Url {
                        url: redact(url),
                        reason: format!("TLS could not be set up: {e}"),
                    })
                };
                builder = match security {
                    SmtpSecurity::None => builder.tls(Tls::None),
                    SmtpSecurity::Implicit => builder.tls(Tls::Wrapper(tls(&host)?)),
                    SmtpSecurity::StartTls => builder.tls(Tls::Required(tls(&host)?)),
                };
                if let Some((user, password)) = credentials {
                    builder = builder.credentials(Credentials::new(user, password));
                }
                Transport::Smtp(builder.build())
            }
        };
        metrics::describe_counter!(
            MAIL_COUNTER,
            "E-mail messages handed to the transport, by kind and outcome (sent, failed)."
        );
        Ok(Mailer {
            transport,
            from: sender,
            description: redact(url),
        })
    }

    /// Sends `email` now. The outcome is logged and counted here; the caller only decides
    /// whether the error changes its answer (it should not, for recovery).
    ///
    /// # Errors
    ///
    /// When the message cannot be built or the transport refuses it.
    pub async fn send(&self, email: &Email) -> Result<(), SendError> {
        let result = self.try_send(email).await;
        let outcome = if result.is_ok() { "sent" } else { "failed" };
        metrics::counter!(MAIL_COUNTER, "kind" => email.kind.label(), "outcome" => outcome)
            .increment(1);
        match &result {
            Ok(()) => {
                if matches!(self.transport, Transport::File(_)) {
                    // Only the development transport logs the link: it is the developer's inbox.
                    tracing::info!("{}: {}", email.kind.link_name(), email.link);
                } else {
                    tracing::debug!(kind = email.kind.label(), "e-mail sent");
                }
            }
            Err(error) => {
                tracing::warn!(kind = email.kind.label(), %error, transport = %self.description, "e-mail not sent");
            }
        }
        result
    }

    /// Sends `email` on a task of its own, so the request does not wait for the mail server (and
    /// its timing does not depend on it). Failures are logged and counted by [`Mailer::send`].
    pub fn send_in_background(self: &Arc<Self>, email: Email) {
        let mailer = Arc::clone(self);
        tokio::spawn(async move {
            let _ = mailer.send(&email).await;
        });
    }

    async fn try_send(&self, email: &Email) -> Result<(), SendError> {
        let message = Message::builder()
            .from(self.from.clone())
            .to(email.to.parse::<Mailbox>()?)
            .subject(email.subject.clone())
            .multipart(MultiPart::alternative_plain_html(
                email.text.clone(),
                email.html.clone(),
            ))?;
        match &self.transport {
            Transport::Smtp(smtp) => {
                smtp.send(message).await?;
            }
            Transport::File(file) => {
                file.send(message).await?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_documented_url_form_parses() {
        assert_eq!(
            MailUrl::parse("smtp://127.0.0.1:2525").unwrap(),
            MailUrl::Smtp {
                host: "127.0.0.1".into(),
                port: 2525,
                security: SmtpSecurity::None,
                credentials: None
            }
        );
        assert_eq!(
            MailUrl::parse("smtps://ana%40x.com:s%3Acr%C3%A9t@mail.x.com").unwrap(),
            MailUrl::Smtp {
                host: "mail.x.com".into(),
                port: 465,
                security: SmtpSecurity::Implicit,
                credentials: Some(("ana@x.com".into(), "s:crét".into()))
            }
        );
        assert_eq!(
            MailUrl::parse("smtp+starttls://u:p@mail.x.com").unwrap(),
            MailUrl::Smtp {
                host: "mail.x.com".into(),
                port: 587,
                security: SmtpSecurity::StartTls,
                credentials: Some(("u".into(), "p".into()))
            }
        );
        assert_eq!(
            MailUrl::parse("file:///var/mail/balcao").unwrap(),
            MailUrl::File(PathBuf::from("/var/mail/balcao"))
        );
        assert_eq!(
            MailUrl::parse("file://.data/outbox").unwrap(),
            MailUrl::File(PathBuf::from(".data/outbox"))
        );
    }

    #[test]
    fn unknown_schemes_and_empty_places_are_refused_without_showing_the_password() {
        for bad in ["http://x", "file://", "smtp://", "imap://u:segredo@x"] {
            let error = MailUrl::parse(bad).expect_err(bad).to_string();
            assert!(!error.contains("segredo"), "{error}");
        }
    }

    #[test]
    fn messages_are_in_portuguese_carry_the_link_and_escape_the_html() {
        let email = Email::invitation(
            "b@x.com",
            "Ana <Admin>",
            "gerente",
            "https://balcao.app/painel/convite?codigo=abc&x=1",
            Duration::from_secs(7 * 24 * 3600),
        );
        assert_eq!(email.subject, "Você recebeu um convite para o Balcão");
        assert!(email.text.contains("como gerente"));
        assert!(
            email
                .text
                .contains("https://balcao.app/painel/convite?codigo=abc&x=1")
        );
        assert!(email.text.contains("7 dias"));
        // askama's escaper writes numeric references (`&#60;` for `<`, `&#38;` for `&`).
        assert!(
            email.html.contains("“Ana &#60;Admin&#62;”"),
            "{}",
            email.html
        );
        assert!(!email.html.contains("<Admin>"), "{}", email.html);
        assert!(email.html.contains("codigo=abc&#38;x=1"), "{}", email.html);
        assert!(!email.html.contains("abc&x=1"), "{}", email.html);
        assert!(email.html.contains("lang=\"pt-BR\""));
        let reset = Email::reset_password("a@x.com", "https://x/r", Duration::from_secs(3600));
        assert!(reset.text.contains("1 hora"));
    }

    #[test]
    fn typed_names_stay_out_of_subjects_and_are_quoted_and_cut_short_in_bodies() {
        let phishing =
            "Banco Central: sua conta será bloqueada, acesse https://golpe.example agora mesmo";
        let link = "https://balcao.app/painel/convite?codigo=abc";
        let week = Duration::from_secs(7 * 24 * 3600);
        let invitation = Email::invitation("b@x.com", phishing, "operador", link, week);
        let verify = Email::verify_email("b@x.com", phishing, link, week);
        let confirm = Email::confirm_new_email("b@x.com", phishing, link, week);
        for email in [&invitation, &verify, &confirm] {
            assert!(!email.subject.contains("Banco"), "{}", email.subject);
            assert!(
                email
                    .text
                    .contains("“Banco Central: sua conta será bloqueada,…”"),
                "{}",
                email.text
            );
            assert!(!email.text.contains("golpe.example"), "{}", email.text);
            assert!(!email.html.contains("golpe.example"));
        }
        assert_eq!(quoted("  Ana\n  Souza "), Some("“Ana Souza”".to_owned()));
        assert_eq!(quoted(" \t "), None);
        let blank = Email::invitation("b@x.com", "", "gerente", link, week);
        assert!(blank.text.contains("como gerente."), "{}", blank.text);
    }

    #[test]
    fn durations_read_naturally() {
        assert_eq!(describe_duration(Duration::from_secs(3600)), "1 hora");
        assert_eq!(
            describe_duration(Duration::from_secs(24 * 3600)),
            "24 horas"
        );
        assert_eq!(
            describe_duration(Duration::from_secs(3 * 24 * 3600)),
            "3 dias"
        );
    }

    #[tokio::test]
    async fn the_file_transport_writes_one_eml_per_message() {
        let folder = std::env::temp_dir().join(format!("balcao-mail-{}", uuid::Uuid::new_v4()));
        let url = format!("file://{}", folder.display());
        let mailer = Mailer::new(&url, "Balcão <nao-responda@balcao.app>").expect("mailer");
        let email = Email::verify_email(
            "ana@example.com",
            "Ana",
            "http://x/v?c=1",
            Duration::from_secs(3600),
        );
        mailer.send(&email).await.expect("written");
        let files: Vec<_> = std::fs::read_dir(&folder).expect("folder").collect();
        assert_eq!(files.len(), 1);
        let _ = std::fs::remove_dir_all(&folder);
    }

    #[test]
    fn the_plain_text_body_is_paragraphs_then_the_link_then_the_signature() {
        // Pins the text layout's blank lines (askama drops a template file's last newline).
        let reset = Email::reset_password("a@x.com", "https://x/r?c=1", Duration::from_secs(3600));
        assert_eq!(
            reset.text,
            "Olá!\n\n\
             Recebemos um pedido para redefinir a senha da sua conta no Balcão. Para escolher uma nova senha, abra o link:\n\n\
             https://x/r?c=1\n\n\
             O link vale por 1 hora e só pode ser usado uma vez.\n\n\
             Se você não pediu para redefinir a senha, ignore esta mensagem: sua senha continua a mesma.\n\n\
             Equipe Balcão\n"
        );
        assert!(
            reset
                .html
                .ends_with("<p>Equipe Balcão</p>\n</body>\n</html>\n")
        );
    }
}
