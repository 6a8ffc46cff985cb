//! The connect form's body, parsed at the edge into what the command side and the bank client
//! take: the profile, the environment, the credentials and the certificate read from its file.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use chrono::{DateTime, Utc};
use commands::bank_credentials::BankCredentials;
use domain::bank::certificate::ClientCertificate;
use domain::bank::profiles::{BankId, BankUrls, Environment};
use serde::Deserialize;
use zeroize::Zeroizing;

use crate::error::{ApiError, Failure};

/// The largest certificate or key file taken, decoded (banks' files are a few KB).
pub const MAX_FILE_BYTES: usize = 64 * 1024;

/// A file as the form sends it.
#[derive(Deserialize)]
pub struct UploadedFile {
    /// The file's name as chosen (`.p12`, `.pfx`, `.pem`, `.crt`, `.cer`, `.key`).
    #[serde(default)]
    pub name: String,
    /// Its bytes, base64.
    #[serde(default)]
    pub base64: String,
}

/// `PUT …/bank-connections/{keyId}` body. `Debug` is not derived: it holds secrets.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConnectForm {
    /// The profile's slug.
    #[serde(default)]
    pub bank: String,
    /// `producao` or `homologacao`.
    #[serde(default)]
    pub environment: String,
    /// The OAuth2 client id.
    #[serde(default)]
    pub client_id: String,
    /// The OAuth2 client secret.
    #[serde(default)]
    pub client_secret: String,
    /// `.p12`/`.pfx`, or a PEM certificate (which may hold its key too).
    pub certificate: Option<UploadedFile>,
    /// The PEM private key, when it came apart from the certificate.
    pub certificate_key: Option<UploadedFile>,
    /// The `.p12`'s password (or an encrypted PEM key's), if any.
    pub certificate_password: Option<String>,
    /// The profile's extra value.
    pub extra: Option<String>,
    /// Profile `outro`: the API's base address.
    pub api_base_url: Option<String>,
    /// Profile `outro`: the token address.
    pub token_url: Option<String>,
}

/// The form, parsed.
pub struct Connection {
    /// The bank's profile.
    pub bank: BankId,
    /// Its environment.
    pub environment: Environment,
    /// What calling the bank needs.
    pub credentials: BankCredentials,
    /// The certificate as read (its fingerprint and expiry go in the event).
    pub certificate: ClientCertificate,
}

fn required(value: &str, field: &'static str, message: &'static str) -> Result<String, ApiError> {
    let value = value.trim();
    if value.is_empty() {
        return Err(ApiError::invalid_argument(field, message));
    }
    Ok(value.to_owned())
}

fn decoded(file: &UploadedFile, field: &'static str) -> Result<Zeroizing<Vec<u8>>, ApiError> {
    let bytes = STANDARD.decode(file.base64.trim()).map_err(|_| {
        ApiError::invalid_argument(
            field,
            "Não foi possível ler o arquivo enviado. Escolha-o de novo.",
        )
    })?;
    if bytes.is_empty() {
        return Err(ApiError::invalid_argument(
            field,
            "O arquivo enviado está vazio.",
        ));
    }
    if bytes.len() > MAX_FILE_BYTES {
        return Err(ApiError::invalid_argument(
            field,
            "O arquivo passa de 64 KB: confira se é o certificado que o banco entregou.",
        ));
    }
    Ok(Zeroizing::new(bytes))
}

/// Whether the file is a PKCS#12 bundle, by its name: a DER `.cer` starts with the same ASN.1
/// SEQUENCE byte, so the bytes cannot tell.
fn is_pkcs12(file: &UploadedFile) -> bool {
    let name = file.name.trim().to_ascii_lowercase();
    name.ends_with(".p12") || name.ends_with(".pfx")
}

fn blank_to_none(value: Option<&String>) -> Option<String> {
    value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty())
}

/// Parses the form; `now` judges the certificate's validity.
///
/// # Errors
///
/// 422 `invalid-argument` naming the field at fault, in pt-BR; the certificate's own refusals
/// (`bank-certificate-…`: wrong password, not a certificate, key that does not match, expired)
/// under `certificate`, `certificateKey` or `certificatePassword`; the typed addresses' under
/// `apiBaseUrl` or `tokenUrl`.
pub fn parse(form: &ConnectForm, now: DateTime<Utc>) -> Result<Connection, ApiError> {
    let bank = BankId::from_slug(form.bank.trim())
        .ok_or_else(|| ApiError::invalid_argument("bank", "Escolha o banco da lista."))?;
    let environment = Environment::from_slug(form.environment.trim()).ok_or_else(|| {
        ApiError::invalid_argument("environment", "Escolha produção ou homologação.")
    })?;
    let profile = bank.profile();
    let (api_base, token_url) = if profile.owner_types_urls() {
        let typed = BankUrls::custom(
            form.api_base_url.as_deref().unwrap_or_default(),
            form.token_url.as_deref().unwrap_or_default(),
        )
        .map_err(|refused| ApiError::from(Failure::refused(&refused)))?;
        (
            Some(typed.api_base().to_string()),
            Some(typed.token_url().to_string()),
        )
    } else {
        if BankUrls::of(bank, environment).is_none() {
            return Err(ApiError::invalid_argument(
                "environment",
                format!(
                    "O {} não oferece o ambiente de {} pela API Pix: escolha o outro.",
                    bank.name(),
                    environment.name()
                ),
            ));
        }
        (None, None)
    };
    let client_id = required(
        &form.client_id,
        "clientId",
        "Informe o Client ID que o banco entregou.",
    )?;
    // A bank that issues no secret identifies the app by its client id and certificate.
    let client_secret = if profile.uses_client_secret {
        required(
            &form.client_secret,
            "clientSecret",
            "Informe o Client Secret que o banco entregou.",
        )?
    } else {
        String::new()
    };
    let extra = blank_to_none(form.extra.as_ref());
    if let Some(asked) = profile.extra_field
        && asked.required
        && extra.is_none()
    {
        return Err(ApiError::invalid_argument(
            "extra",
            format!("Informe: {}.", asked.label),
        ));
    }
    let file = form.certificate.as_ref().ok_or_else(|| {
        ApiError::invalid_argument(
            "certificate",
            "Escolha o arquivo do certificado que o banco entregou.",
        )
    })?;
    let bytes = decoded(file, "certificate")?;
    let password = form
        .certificate_password
        .as_deref()
        .filter(|p| !p.is_empty());
    let certificate = if is_pkcs12(file) {
        ClientCertificate::from_pkcs12(&bytes, password)
    } else {
        // A PEM file may hold the key after the certificate: then no second file comes.
        let key = form
            .certificate_key
            .as_ref()
            .map(|key| decoded(key, "certificateKey"))
            .transpose()?;
        ClientCertificate::from_pem(&bytes, key.as_deref().map(Vec::as_slice))
    }
    .and_then(|certificate| certificate.check_valid_at(now).map(|()| certificate))
    .map_err(|refused| ApiError::from(Failure::refused(&refused)))?;
    Ok(Connection {
        bank,
        environment,
        credentials: BankCredentials {
            bank: bank.slug().to_owned(),
            environment: environment.slug().to_owned(),
            api_base,
            token_url,
            client_id: Zeroizing::new(client_id),
            client_secret: Zeroizing::new(client_secret),
            certificate_pem: Zeroizing::new(certificate.chain_pem().to_owned()),
            private_key_pem: Zeroizing::new(certificate.key_pem().to_owned()),
            extra: extra.map(Zeroizing::new),
        },
        certificate,
    })
}
