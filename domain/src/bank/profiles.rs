//! The banks Balcão knows how to reach through the API Pix, and how each one is reached.
//!
//! Every bank here implements the Central Bank's API Pix with OAuth2 client credentials and a
//! mutual-TLS client certificate it issues; what differs is pure data, kept in one
//! [`BankProfile`] per [`BankId`]: hosts per [`Environment`], where the client id and secret go
//! on the token call ([`TokenAuth`], [`TokenBody`]), whether the token call is mTLS too, the one
//! extra value some banks want on every call ([`ExtraField`]), the certificate file the bank hands
//! out, and the scopes to ask for.
//!
//! The facts come from each bank's public documentation and SDKs as gathered in November 2026;
//! a fact marked *unverified* in a profile's rustdoc was seen only in third-party code and should
//! be checked against the bank before it is relied on. A bank outside the list is
//! [`BankId::Outro`]: the owner types its two URLs, parsed by [`BankUrls::custom`].
//!
//! A bank's "base URL" is everything before the API Pix paths: the client appends
//! `/webhook/{chave}`, `/cob/{txid}`… to it, so a bank that serves the API under `/pix/v2` or
//! `/api/v2` has that in its base.

use std::fmt;
use std::str::FromStr;

use url::Url;

use crate::refusal::{Refusal, RefusalKind};

/// A bank (or any PSP) Balcão can connect to. Stable slugs for URLs, forms and events.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BankId {
    /// Efí (formerly Gerencianet).
    Efi,
    /// Banco do Brasil.
    BancoDoBrasil,
    /// Itaú Unibanco.
    Itau,
    /// Banco Inter.
    Inter,
    /// Sicredi.
    Sicredi,
    /// Sicoob.
    Sicoob,
    /// Santander.
    Santander,
    /// Any other PSP that follows the API Pix: the owner types its URLs.
    Outro,
}

impl BankId {
    /// Every bank, in the order the form lists them ("Outro" last).
    pub const ALL: [BankId; 8] = [
        BankId::Efi,
        BankId::BancoDoBrasil,
        BankId::Itau,
        BankId::Inter,
        BankId::Sicredi,
        BankId::Sicoob,
        BankId::Santander,
        BankId::Outro,
    ];

    /// The stable slug: `efi`, `banco-do-brasil`, `itau`, `inter`, `sicredi`, `sicoob`,
    /// `santander`, `outro`.
    pub fn slug(self) -> &'static str {
        match self {
            BankId::Efi => "efi",
            BankId::BancoDoBrasil => "banco-do-brasil",
            BankId::Itau => "itau",
            BankId::Inter => "inter",
            BankId::Sicredi => "sicredi",
            BankId::Sicoob => "sicoob",
            BankId::Santander => "santander",
            BankId::Outro => "outro",
        }
    }

    /// The bank for a slug, if it is one of [`BankId::slug`]'s.
    pub fn from_slug(slug: &str) -> Option<BankId> {
        BankId::ALL.into_iter().find(|bank| bank.slug() == slug)
    }

    /// The name shown to the owner (pt-BR).
    pub fn name(self) -> &'static str {
        match self {
            BankId::Efi => "Efí",
            BankId::BancoDoBrasil => "Banco do Brasil",
            BankId::Itau => "Itaú",
            BankId::Inter => "Inter",
            BankId::Sicredi => "Sicredi",
            BankId::Sicoob => "Sicoob",
            BankId::Santander => "Santander",
            BankId::Outro => "Outro PSP (API Pix padrão)",
        }
    }

    /// How this bank is reached.
    pub fn profile(self) -> &'static BankProfile {
        match self {
            BankId::Efi => &EFI,
            BankId::BancoDoBrasil => &BANCO_DO_BRASIL,
            BankId::Itau => &ITAU,
            BankId::Inter => &INTER,
            BankId::Sicredi => &SICREDI,
            BankId::Sicoob => &SICOOB,
            BankId::Santander => &SANTANDER,
            BankId::Outro => &OUTRO,
        }
    }
}

impl fmt::Display for BankId {
    /// Writes the pt-BR name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for BankId {
    type Err = UnknownSlug;

    fn from_str(slug: &str) -> Result<Self, Self::Err> {
        BankId::from_slug(slug).ok_or(UnknownSlug)
    }
}

/// Which of the bank's environments: real money, or the bank's test environment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Environment {
    /// Production: real Pix, real money.
    Producao,
    /// The bank's homologação (test) environment.
    Homologacao,
}

impl Environment {
    /// Both, production first.
    pub const ALL: [Environment; 2] = [Environment::Producao, Environment::Homologacao];

    /// The stable slug: `producao` or `homologacao`.
    pub fn slug(self) -> &'static str {
        match self {
            Environment::Producao => "producao",
            Environment::Homologacao => "homologacao",
        }
    }

    /// The environment for a slug.
    pub fn from_slug(slug: &str) -> Option<Environment> {
        Environment::ALL.into_iter().find(|env| env.slug() == slug)
    }

    /// The name shown to the owner (pt-BR).
    pub fn name(self) -> &'static str {
        match self {
            Environment::Producao => "Produção",
            Environment::Homologacao => "Homologação (testes)",
        }
    }
}

impl fmt::Display for Environment {
    /// Writes the pt-BR name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Environment {
    type Err = UnknownSlug;

    fn from_str(slug: &str) -> Result<Self, Self::Err> {
        Environment::from_slug(slug).ok_or(UnknownSlug)
    }
}

/// A slug that names no bank or environment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("Escolha um banco e um ambiente da lista.")]
pub struct UnknownSlug;

/// Where the client id and secret go on the token call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenAuth {
    /// `Authorization: Basic base64(client_id:client_secret)` (RFC 6749 §2.3.1's preferred way).
    Basic,
    /// `client_id` and `client_secret` as fields of the body, next to `grant_type`.
    Body,
}

/// How the token call's body is encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenBody {
    /// `application/x-www-form-urlencoded`, as RFC 6749 has it.
    Form,
    /// `application/json` (`{"grant_type":"client_credentials"}`), as Efí documents it.
    Json,
}

/// Where an [`ExtraField`] travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExtraFieldPlace {
    /// A query parameter on every API call (not on the token call).
    Query,
    /// A request header on every API call and on the token call.
    Header,
}

/// A value some banks want on every call besides the token: the form asks the owner for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExtraField {
    /// Query parameter or header.
    pub place: ExtraFieldPlace,
    /// The parameter's or header's name, as the bank spells it.
    pub name: &'static str,
    /// The form field's label (pt-BR).
    pub label: &'static str,
    /// The help under the field: where the owner finds the value (pt-BR).
    pub hint: &'static str,
    /// Whether the connection cannot work without it.
    pub required: bool,
}

/// A bank's two URLs in one environment, as the profile states them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Endpoints {
    /// Everything before the API Pix paths (`/webhook/{chave}`, `/cob/{txid}`…).
    pub api_base: &'static str,
    /// The OAuth2 token endpoint.
    pub token_url: &'static str,
}

/// How one bank is reached. Pure data: see the module doc.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BankProfile {
    /// Which bank.
    pub id: BankId,
    /// Production URLs; `None` for [`BankId::Outro`], whose URLs the owner types.
    pub producao: Option<Endpoints>,
    /// Homologação URLs; `None` where the bank has no such environment reachable with its own
    /// client id, secret and certificate (and for [`BankId::Outro`]).
    pub homologacao: Option<Endpoints>,
    /// Where the client id and secret go on the token call.
    pub token_auth: TokenAuth,
    /// How the token call's body is encoded.
    pub token_body: TokenBody,
    /// Whether the token call needs the client certificate too (the API calls always do).
    pub token_mtls: bool,
    /// Whether the bank issues a client secret; when not, the form hides the field and the
    /// token call identifies the app by its client id and certificate alone.
    pub uses_client_secret: bool,
    /// The value the owner must type besides id, secret and certificate, if any.
    pub extra_field: Option<ExtraField>,
    /// The certificate as the bank hands it out, and where to find it (pt-BR help text).
    pub certificate_hint: &'static str,
    /// The scopes asked for on the token call, joined by spaces; empty when the bank grants the
    /// app's configured scopes and takes no `scope` parameter.
    pub scopes: &'static [&'static str],
}

impl BankProfile {
    /// The URLs of `environment`, when the profile states them.
    pub fn endpoints(&self, environment: Environment) -> Option<Endpoints> {
        match environment {
            Environment::Producao => self.producao,
            Environment::Homologacao => self.homologacao,
        }
    }

    /// Whether the owner types the URLs (only "Outro").
    pub fn owner_types_urls(&self) -> bool {
        self.id == BankId::Outro
    }

    /// The `scope` parameter of the token call, when the bank takes one.
    pub fn scope_parameter(&self) -> Option<String> {
        (!self.scopes.is_empty()).then(|| self.scopes.join(" "))
    }
}

/// What Balcão does through the API Pix: webhooks, immediate and due-date charges, received Pix
/// and refunds. The banks that take a `scope` parameter get this list.
const STANDARD_SCOPES: &[&str] = &[
    "cob.read",
    "cob.write",
    "cobv.read",
    "cobv.write",
    "pix.read",
    "pix.write",
    "webhook.read",
    "webhook.write",
];

/// Efí: Basic auth and a JSON body on the token call, which is mTLS too; one `.p12` per
/// environment, without a password. Efí grants the scopes ticked on the app, so no `scope` is
/// sent. Paths under `/v2`.
pub const EFI: BankProfile = BankProfile {
    id: BankId::Efi,
    producao: Some(Endpoints {
        api_base: "https://pix.api.efipay.com.br/v2",
        token_url: "https://pix.api.efipay.com.br/oauth/token",
    }),
    homologacao: Some(Endpoints {
        api_base: "https://pix-h.api.efipay.com.br/v2",
        token_url: "https://pix-h.api.efipay.com.br/oauth/token",
    }),
    token_auth: TokenAuth::Basic,
    token_body: TokenBody::Json,
    token_mtls: true,
    uses_client_secret: true,
    extra_field: None,
    certificate_hint: "Arquivo .p12 gerado na sua conta Efí (API → Meus certificados); há um para produção e outro para homologação, sem senha.",
    scopes: &[],
};

/// Banco do Brasil: Basic auth on the token call (not mTLS), and the application's
/// `gw-dev-app-key` as a query parameter on every API call. The homologação API host
/// `api-pix.hm.bb.com.br` (the mTLS one) is *unverified*: BB also documents `api.hm.bb.com.br`
/// for calls without a certificate.
pub const BANCO_DO_BRASIL: BankProfile = BankProfile {
    id: BankId::BancoDoBrasil,
    producao: Some(Endpoints {
        api_base: "https://api-pix.bb.com.br/pix/v2",
        token_url: "https://oauth.bb.com.br/oauth/token",
    }),
    homologacao: Some(Endpoints {
        api_base: "https://api-pix.hm.bb.com.br/pix/v2",
        token_url: "https://oauth.hm.bb.com.br/oauth/token",
    }),
    token_auth: TokenAuth::Basic,
    token_body: TokenBody::Form,
    token_mtls: false,
    uses_client_secret: true,
    extra_field: Some(ExtraField {
        place: ExtraFieldPlace::Query,
        name: "gw-dev-app-key",
        label: "Chave de desenvolvedor (gw-dev-app-key)",
        hint: "No Portal Developers BB, na sua aplicação, é a \"developer_application_key\".",
        required: true,
    }),
    certificate_hint: "O certificado e-CNPJ A1 (.pfx ou .p12) que você cadastrou na aplicação do Portal Developers BB, com a senha dele.",
    scopes: STANDARD_SCOPES,
};

/// Itaú: the token comes from `sts.itau.com.br` over mTLS, with the id and secret in the body.
/// Itaú's sandbox takes other credentials and no certificate, so no homologação here (use
/// "Outro" to point at it). The token path `/api/oauth/token` is *unverified*.
pub const ITAU: BankProfile = BankProfile {
    id: BankId::Itau,
    producao: Some(Endpoints {
        api_base: "https://secure.api.itau/pix_recebimentos/v2",
        token_url: "https://sts.itau.com.br/api/oauth/token",
    }),
    homologacao: None,
    token_auth: TokenAuth::Body,
    token_body: TokenBody::Form,
    token_mtls: true,
    uses_client_secret: true,
    extra_field: None,
    certificate_hint: "O arquivo .pfx (ou o .crt com a chave .key) gerado no portal Itaú for Developers para a sua aplicação.",
    scopes: &[],
};

/// Inter: mTLS on the token call, id and secret in the body, `scope` required; the
/// `x-conta-corrente` header picks the account when the app's owner has more than one.
pub const INTER: BankProfile = BankProfile {
    id: BankId::Inter,
    producao: Some(Endpoints {
        api_base: "https://cdpj.partners.bancointer.com.br/pix/v2",
        token_url: "https://cdpj.partners.bancointer.com.br/oauth/v2/token",
    }),
    homologacao: Some(Endpoints {
        api_base: "https://cdpj-sandbox.partners.uatinter.co/pix/v2",
        token_url: "https://cdpj-sandbox.partners.uatinter.co/oauth/v2/token",
    }),
    token_auth: TokenAuth::Body,
    token_body: TokenBody::Form,
    token_mtls: true,
    uses_client_secret: true,
    extra_field: Some(ExtraField {
        place: ExtraFieldPlace::Header,
        name: "x-conta-corrente",
        label: "Conta corrente",
        hint: "O número da conta no Inter, só dígitos. Necessário se a sua empresa tem mais de uma conta.",
        required: false,
    }),
    certificate_hint: "O .crt e a .key que o Internet Banking PJ do Inter entrega ao criar a integração (baixe o .zip e envie os dois).",
    scopes: STANDARD_SCOPES,
};

/// Sicredi: Basic auth on an mTLS token call at the API's own host. Sicredi's homologação
/// server certificate is signed by a CA Sicredi publishes (*unverified* whether still so): add
/// it as an extra trusted root.
pub const SICREDI: BankProfile = BankProfile {
    id: BankId::Sicredi,
    producao: Some(Endpoints {
        api_base: "https://api-pix.sicredi.com.br/api/v2",
        token_url: "https://api-pix.sicredi.com.br/oauth/token",
    }),
    homologacao: Some(Endpoints {
        api_base: "https://api-pix-h.sicredi.com.br/api/v2",
        token_url: "https://api-pix-h.sicredi.com.br/oauth/token",
    }),
    token_auth: TokenAuth::Basic,
    token_body: TokenBody::Form,
    token_mtls: true,
    uses_client_secret: true,
    extra_field: None,
    certificate_hint: "O .cer e a .key gerados no portal do desenvolvedor Sicredi a partir do seu pedido de certificado (CSR).",
    scopes: STANDARD_SCOPES,
};

/// Sicoob: an OpenID Connect token endpoint (realm `cooperado`) that identifies the app by its
/// client id and the ICP-Brasil certificate (no client secret). Hosts as used by several SDKs
/// (*unverified* against Sicoob's portal, which needs a login). Sicoob's sandbox takes a fixed
/// token and no certificate, so no homologação here.
pub const SICOOB: BankProfile = BankProfile {
    id: BankId::Sicoob,
    producao: Some(Endpoints {
        api_base: "https://api.sicoob.com.br/pix/api/v2",
        token_url: "https://auth.sicoob.com.br/auth/realms/cooperado/protocol/openid-connect/token",
    }),
    homologacao: None,
    token_auth: TokenAuth::Body,
    token_body: TokenBody::Form,
    token_mtls: true,
    uses_client_secret: false,
    extra_field: None,
    certificate_hint: "O certificado e-CNPJ A1 (.pfx) cadastrado no aplicativo do portal developers.sicoob.com.br, com a senha dele.",
    scopes: STANDARD_SCOPES,
};

/// Santander: mTLS throughout, id and secret in the body. Token path and the `/api/v1` base are
/// *unverified* (third-party code only).
pub const SANTANDER: BankProfile = BankProfile {
    id: BankId::Santander,
    producao: Some(Endpoints {
        api_base: "https://trust-pix.santander.com.br/api/v1",
        token_url: "https://trust-pix.santander.com.br/oauth/token",
    }),
    homologacao: Some(Endpoints {
        api_base: "https://trust-pix-h.santander.com.br/api/v1",
        token_url: "https://trust-pix-h.santander.com.br/oauth/token",
    }),
    token_auth: TokenAuth::Body,
    token_body: TokenBody::Form,
    token_mtls: true,
    uses_client_secret: true,
    extra_field: None,
    certificate_hint: "O certificado (PEM: .crt/.pem e a chave .key) que você cadastrou no portal do desenvolvedor Santander.",
    scopes: STANDARD_SCOPES,
};

/// Any PSP that follows the API Pix: RFC 6749's defaults (Basic auth, form body), mTLS
/// throughout, the standard scopes, the URLs typed by the owner.
pub const OUTRO: BankProfile = BankProfile {
    id: BankId::Outro,
    producao: None,
    homologacao: None,
    token_auth: TokenAuth::Basic,
    token_body: TokenBody::Form,
    token_mtls: true,
    uses_client_secret: true,
    extra_field: None,
    certificate_hint: "O certificado de cliente que o seu banco emitiu para a API Pix: .p12/.pfx com a senha, ou o certificado e a chave em PEM.",
    scopes: STANDARD_SCOPES,
};

/// A connection's two URLs, parsed: https, a host, no user or password in them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BankUrls {
    api_base: Url,
    token_url: Url,
}

impl BankUrls {
    /// The URLs a listed bank states for `environment`; `None` for "Outro" and for an
    /// environment the bank's profile has no URLs for.
    pub fn of(bank: BankId, environment: Environment) -> Option<BankUrls> {
        let endpoints = bank.profile().endpoints(environment)?;
        // The profiles' literals are checked by a unit test; a failure here is a typo in them.
        Some(BankUrls {
            api_base: Url::parse(endpoints.api_base).ok()?,
            token_url: Url::parse(endpoints.token_url).ok()?,
        })
    }

    /// The URLs the owner typed for "Outro": both required, https only, no user or password,
    /// no fragment; the base takes no query either (the API paths go after it).
    pub fn custom(api_base: &str, token_url: &str) -> Result<BankUrls, BankUrlError> {
        let api_base = parse_https(api_base, UrlField::ApiBase)?;
        if api_base.query().is_some() {
            return Err(BankUrlError::Invalid(UrlField::ApiBase));
        }
        let token_url = parse_https(token_url, UrlField::TokenUrl)?;
        Ok(BankUrls {
            api_base,
            token_url,
        })
    }

    /// The URLs a new connection uses: the profile's for a listed bank (the typed ones are
    /// ignored), the typed ones for "Outro".
    ///
    /// # Errors
    ///
    /// [`BankUrlError::NoEnvironment`] when the listed bank has no URLs for `environment`; for
    /// "Outro", as [`BankUrls::custom`].
    pub fn for_connection(
        bank: BankId,
        environment: Environment,
        typed_api_base: &str,
        typed_token_url: &str,
    ) -> Result<BankUrls, BankUrlError> {
        if bank.profile().owner_types_urls() {
            return BankUrls::custom(typed_api_base, typed_token_url);
        }
        BankUrls::of(bank, environment).ok_or(BankUrlError::NoEnvironment)
    }

    /// The base of the API Pix paths.
    pub fn api_base(&self) -> &Url {
        &self.api_base
    }

    /// The OAuth2 token endpoint.
    pub fn token_url(&self) -> &Url {
        &self.token_url
    }

    /// The same paths at another origin (scheme, host and port of `origin`): tests point every
    /// profile at the bank simulator and keep the profile's paths.
    pub fn at_origin(&self, origin: &Url) -> BankUrls {
        let move_to = |url: &Url| {
            let mut moved = origin.clone();
            moved.set_path(url.path());
            moved.set_query(url.query());
            moved
        };
        BankUrls {
            api_base: move_to(&self.api_base),
            token_url: move_to(&self.token_url),
        }
    }
}

fn parse_https(text: &str, field: UrlField) -> Result<Url, BankUrlError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(BankUrlError::Required(field));
    }
    let url = Url::parse(text).map_err(|_| BankUrlError::Invalid(field))?;
    if url.scheme() != "https" {
        return Err(BankUrlError::NotHttps(field));
    }
    let has_host = url.host_str().is_some_and(|host| !host.is_empty());
    if !has_host
        || !url.username().is_empty()
        || url.password().is_some()
        || url.fragment().is_some()
    {
        return Err(BankUrlError::Invalid(field));
    }
    Ok(url)
}

/// Which typed URL a [`BankUrlError`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UrlField {
    /// The API Pix base URL (form field `apiBaseUrl`).
    ApiBase,
    /// The token URL (form field `tokenUrl`).
    TokenUrl,
}

impl UrlField {
    /// The request field's name.
    pub fn field_name(self) -> &'static str {
        match self {
            UrlField::ApiBase => "apiBaseUrl",
            UrlField::TokenUrl => "tokenUrl",
        }
    }

    fn what(self) -> &'static str {
        match self {
            UrlField::ApiBase => "o endereço da API Pix",
            UrlField::TokenUrl => "o endereço do token (OAuth)",
        }
    }
}

/// A URL typed for "Outro" that cannot be used. Messages are pt-BR.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum BankUrlError {
    /// Left blank.
    #[error("Informe {}; o seu banco mostra no manual da API Pix.", .0.what())]
    Required(UrlField),
    /// Not a full URL, or with a user, password or fragment (or a query on the base).
    #[error("Não entendemos {}: escreva o endereço completo, como https://api.seubanco.com.br/pix/v2.", .0.what())]
    Invalid(UrlField),
    /// `http://` or another scheme.
    #[error("Use {} com https://: a API Pix só funciona em conexão segura.", .0.what())]
    NotHttps(UrlField),
    /// A listed bank without the chosen environment (Itaú's and Sicoob's sandboxes take other
    /// credentials).
    #[error(
        "Este banco não oferece homologação com certificado por aqui. Escolha produção, ou \"Outro PSP\" com os endereços de testes do banco."
    )]
    NoEnvironment,
}

impl Refusal for BankUrlError {
    fn code(&self) -> &'static str {
        match self {
            BankUrlError::Required(_) => "bank-url-required",
            BankUrlError::Invalid(_) => "bank-url-invalid",
            BankUrlError::NotHttps(_) => "bank-url-not-https",
            BankUrlError::NoEnvironment => "bank-environment-unavailable",
        }
    }

    fn kind(&self) -> RefusalKind {
        RefusalKind::Invalid
    }

    fn field(&self) -> Option<&'static str> {
        match self {
            BankUrlError::Required(field)
            | BankUrlError::Invalid(field)
            | BankUrlError::NotHttps(field) => Some(field.field_name()),
            BankUrlError::NoEnvironment => Some("environment"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bank_round_trips_through_its_slug_and_serde() {
        for bank in BankId::ALL {
            assert_eq!(BankId::from_slug(bank.slug()), Some(bank));
            assert_eq!(bank.slug().parse::<BankId>(), Ok(bank));
            let json = serde_json::to_string(&bank).unwrap();
            assert_eq!(json, format!("\"{}\"", bank.slug()));
            assert_eq!(
                bank.profile().id,
                bank,
                "{bank:?} points at another bank's profile"
            );
        }
        assert_eq!(BankId::from_slug("nubank"), None);
        assert_eq!("".parse::<BankId>(), Err(UnknownSlug));
    }

    #[test]
    fn banks_are_named_in_pt_br_as_the_form_lists_them() {
        let names: Vec<&str> = BankId::ALL.iter().map(|bank| bank.name()).collect();
        assert_eq!(
            names,
            [
                "Efí",
                "Banco do Brasil",
                "Itaú",
                "Inter",
                "Sicredi",
                "Sicoob",
                "Santander",
                "Outro PSP (API Pix padrão)"
            ]
        );
        assert_eq!(BankId::BancoDoBrasil.to_string(), "Banco do Brasil");
    }

    #[test]
    fn environments_have_stable_slugs() {
        assert_eq!(Environment::Producao.slug(), "producao");
        assert_eq!(Environment::Homologacao.slug(), "homologacao");
        for env in Environment::ALL {
            assert_eq!(env.slug().parse::<Environment>(), Ok(env));
            assert_eq!(
                serde_json::to_string(&env).unwrap(),
                format!("\"{}\"", env.slug())
            );
        }
        assert_eq!(Environment::from_slug("sandbox"), None);
    }

    #[test]
    fn every_stated_url_is_https_and_parses() {
        for bank in BankId::ALL {
            for env in Environment::ALL {
                let Some(endpoints) = bank.profile().endpoints(env) else {
                    continue;
                };
                for text in [endpoints.api_base, endpoints.token_url] {
                    let url = Url::parse(text)
                        .unwrap_or_else(|e| panic!("{bank:?} {env:?}: {text}: {e}"));
                    assert_eq!(url.scheme(), "https", "{text}");
                    assert!(!text.ends_with('/'), "{text}: the client adds the slash");
                }
                let urls = BankUrls::of(bank, env).expect("stated URLs parse");
                assert_eq!(urls.api_base().as_str(), endpoints.api_base);
            }
        }
    }

    #[test]
    fn only_outro_leaves_the_urls_to_the_owner() {
        for bank in BankId::ALL {
            let profile = bank.profile();
            assert_eq!(profile.owner_types_urls(), bank == BankId::Outro);
            assert_eq!(
                profile.producao.is_none(),
                bank == BankId::Outro,
                "{bank:?}"
            );
        }
        assert_eq!(BankUrls::of(BankId::Outro, Environment::Producao), None);
    }

    #[test]
    fn the_quirks_of_each_bank_are_in_its_profile() {
        let bb = BankId::BancoDoBrasil.profile();
        let key = bb.extra_field.expect("BB asks for gw-dev-app-key");
        assert_eq!(
            (key.place, key.name, key.required),
            (ExtraFieldPlace::Query, "gw-dev-app-key", true)
        );
        assert!(!bb.token_mtls);

        let inter = BankId::Inter
            .profile()
            .extra_field
            .expect("Inter has x-conta-corrente");
        assert_eq!(
            (inter.place, inter.name),
            (ExtraFieldPlace::Header, "x-conta-corrente")
        );

        assert_eq!(BankId::Sicredi.profile().token_auth, TokenAuth::Basic);
        assert_eq!(BankId::Efi.profile().token_body, TokenBody::Json);
        assert!(BankId::Efi.profile().token_mtls);
        assert!(!BankId::Sicoob.profile().uses_client_secret);
        for bank in BankId::ALL {
            let profile = bank.profile();
            if let Some(extra) = profile.extra_field {
                assert!(!extra.label.is_empty() && !extra.hint.is_empty());
            }
            assert!(!profile.certificate_hint.is_empty());
        }
    }

    #[test]
    fn the_scope_parameter_is_the_profiles_scopes_joined_by_spaces() {
        let scope = BankId::Inter.profile().scope_parameter().unwrap();
        assert!(scope.split(' ').any(|s| s == "webhook.write"), "{scope}");
        assert!(scope.split(' ').any(|s| s == "cob.write"), "{scope}");
        assert_eq!(BankId::Efi.profile().scope_parameter(), None);
    }

    #[test]
    fn an_owner_typed_url_must_be_https_with_a_host() {
        let urls = BankUrls::custom(
            " https://pix.meubanco.com.br/api/v2 ",
            "https://auth.meubanco.com.br/token?realm=x",
        )
        .unwrap();
        assert_eq!(
            urls.api_base().as_str(),
            "https://pix.meubanco.com.br/api/v2"
        );
        assert_eq!(urls.token_url().query(), Some("realm=x"));

        let cases = [
            (
                "",
                "https://a.b/t",
                BankUrlError::Required(UrlField::ApiBase),
            ),
            (
                "https://a.b/pix",
                "   ",
                BankUrlError::Required(UrlField::TokenUrl),
            ),
            (
                "http://a.b/pix",
                "https://a.b/t",
                BankUrlError::NotHttps(UrlField::ApiBase),
            ),
            (
                "https://a.b/pix",
                "ftp://a.b/t",
                BankUrlError::NotHttps(UrlField::TokenUrl),
            ),
            (
                "api.banco.com.br/pix",
                "https://a.b/t",
                BankUrlError::Invalid(UrlField::ApiBase),
            ),
            (
                "https://user:pw@a.b/pix",
                "https://a.b/t",
                BankUrlError::Invalid(UrlField::ApiBase),
            ),
            (
                "https://a.b/pix?x=1",
                "https://a.b/t",
                BankUrlError::Invalid(UrlField::ApiBase),
            ),
            (
                "https://a.b/pix",
                "https://a.b/t#frag",
                BankUrlError::Invalid(UrlField::TokenUrl),
            ),
        ];
        for (base, token, expected) in cases {
            assert_eq!(
                BankUrls::custom(base, token),
                Err(expected),
                "{base:?} {token:?}"
            );
        }
    }

    #[test]
    fn a_url_refusal_names_its_field_and_speaks_pt_br() {
        let error = BankUrlError::NotHttps(UrlField::TokenUrl);
        assert_eq!(error.code(), "bank-url-not-https");
        assert_eq!(error.field(), Some("tokenUrl"));
        assert_eq!(error.kind().http_status(), 422);
        assert!(error.to_string().contains("https://"), "{error}");
        assert_eq!(
            BankUrlError::Required(UrlField::ApiBase).field(),
            Some("apiBaseUrl")
        );
        assert!(
            BankUrlError::Invalid(UrlField::ApiBase)
                .to_string()
                .contains("endereço da API Pix")
        );
    }

    #[test]
    fn a_connection_takes_the_profiles_urls_or_the_typed_ones_for_outro() {
        let bb =
            BankUrls::for_connection(BankId::BancoDoBrasil, Environment::Homologacao, "x", "y");
        assert_eq!(
            bb,
            Ok(BankUrls::of(BankId::BancoDoBrasil, Environment::Homologacao).unwrap())
        );
        let outro = BankUrls::for_connection(
            BankId::Outro,
            Environment::Producao,
            "https://pix.psp.com.br/v2",
            "https://pix.psp.com.br/oauth/token",
        )
        .unwrap();
        assert_eq!(outro.api_base().as_str(), "https://pix.psp.com.br/v2");
        assert_eq!(
            BankUrls::for_connection(
                BankId::Outro,
                Environment::Producao,
                "http://a.b",
                "https://a.b/t"
            ),
            Err(BankUrlError::NotHttps(UrlField::ApiBase))
        );
        let missing =
            BankUrls::for_connection(BankId::Itau, Environment::Homologacao, "", "").unwrap_err();
        assert_eq!(missing, BankUrlError::NoEnvironment);
        assert_eq!(
            (missing.code(), missing.field()),
            ("bank-environment-unavailable", Some("environment"))
        );
    }

    #[test]
    fn moving_a_profile_to_another_origin_keeps_its_paths() {
        let urls = BankUrls::of(BankId::Sicoob, Environment::Producao).unwrap();
        let origin = Url::parse("https://127.0.0.1:40123").unwrap();
        let moved = urls.at_origin(&origin);
        assert_eq!(
            moved.api_base().as_str(),
            "https://127.0.0.1:40123/pix/api/v2"
        );
        assert_eq!(
            moved.token_url().as_str(),
            "https://127.0.0.1:40123/auth/realms/cooperado/protocol/openid-connect/token"
        );
    }
}
