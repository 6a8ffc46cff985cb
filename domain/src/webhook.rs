//! Outgoing webhooks: what an account's systems may be told ([`EventKind`]), where a delivery may
//! go ([`EndpointUrl`]), how each is signed ([`signature`]) and when a failed one is tried again
//! ([`retry_after_ms`]).
//!
//! A delivery's body is signed with HMAC-SHA256 over `"{t}.{body}"`, where `t` is the Unix time
//! of the attempt, and sent as `Balcao-Assinatura: t={t},v1={hex}`; while a secret is being
//! replaced, a second `v1=` carries the signature under the previous one. The receiver recomputes
//! it with its secret, compares in constant time and refuses a `t` far from its clock (replays).
//!
//! ```
//! use domain::webhook::{signature, signature_header};
//! let header = signature_header(1_795_000_000, br#"{"id":"1"}"#, &[b"segredo"]);
//! assert_eq!(header, format!("t=1795000000,v1={}", signature(b"segredo", 1_795_000_000, br#"{"id":"1"}"#)));
//! ```

use std::net::IpAddr;

use serde::{Deserialize, Serialize};

/// What an endpoint can be told of. Stored and sent as its pt-BR name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum EventKind {
    /// A payment reached the account (from the bank, a statement or typed in).
    #[serde(rename = "pagamento.recebido")]
    PaymentReceived,
    /// A payment was paid back (the bank reported the refund settled).
    #[serde(rename = "pagamento.devolvido")]
    PaymentRefunded,
}

impl EventKind {
    /// Every kind, in the order the screen lists them.
    pub const ALL: [EventKind; 2] = [EventKind::PaymentReceived, EventKind::PaymentRefunded];

    /// The stored and sent name.
    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::PaymentReceived => "pagamento.recebido",
            EventKind::PaymentRefunded => "pagamento.devolvido",
        }
    }

    /// The kind its name names.
    pub fn parse(text: &str) -> Option<EventKind> {
        EventKind::ALL
            .into_iter()
            .find(|kind| kind.as_str() == text)
    }
}

/// The longest endpoint address, in bytes.
pub const MAX_URL_BYTES: usize = 2_000;

/// An address deliveries may be sent to: `https`, with a host that is not this machine nor a
/// private network's (unless `allow_private`, for a test or a sandbox, where `http` is taken too).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndpointUrl(String);

/// Why an address is refused (pt-BR, for the field `url`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct UrlRefused(pub &'static str);

impl EndpointUrl {
    /// Checks `text` as an endpoint's address.
    ///
    /// # Errors
    ///
    /// When it is not an absolute `https` address of a public host.
    pub fn parse(text: &str, allow_private: bool) -> Result<EndpointUrl, UrlRefused> {
        let text = text.trim();
        if text.is_empty() {
            return Err(UrlRefused("Informe o endereço que vai receber os avisos."));
        }
        if text.len() > MAX_URL_BYTES {
            return Err(UrlRefused("O endereço pode ter até 2.000 caracteres."));
        }
        let url = url::Url::parse(text).map_err(|_| {
            UrlRefused("Informe um endereço completo, como https://loja.com.br/avisos-pix.")
        })?;
        let plain_allowed = allow_private && url.scheme() == "http";
        if url.scheme() != "https" && !plain_allowed {
            return Err(UrlRefused("O endereço precisa começar com https://."));
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err(UrlRefused(
                "O endereço não pode levar usuário e senha; a assinatura de cada aviso prova que ele veio do Balcão.",
            ));
        }
        let private = match url.host() {
            None => return Err(UrlRefused("O endereço precisa ter um domínio.")),
            Some(url::Host::Domain(domain)) => {
                let domain = domain.trim_end_matches('.').to_ascii_lowercase();
                domain == "localhost" || domain.ends_with(".localhost") || !domain.contains('.')
            }
            Some(url::Host::Ipv4(ip)) => is_private(IpAddr::V4(ip)),
            Some(url::Host::Ipv6(ip)) => is_private(IpAddr::V6(ip)),
        };
        if private && !allow_private {
            return Err(UrlRefused(
                "O endereço precisa ser público na internet: não pode ser desta máquina nem de uma rede interna.",
            ));
        }
        Ok(EndpointUrl(url.into()))
    }

    /// The address, as it will be called.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Whether `ip` is this machine, a private network, link-local or otherwise not the public
/// internet (where a delivery must never be sent on an owner's word).
pub fn is_private(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(ip) => {
            ip.is_loopback()
                || ip.is_private()
                || ip.is_link_local()
                || ip.is_unspecified()
                || ip.is_broadcast()
                || ip.is_documentation()
                // 100.64.0.0/10, shared address space (carrier-grade NAT).
                || (ip.octets()[0] == 100 && (ip.octets()[1] & 0xc0) == 64)
        }
        IpAddr::V6(ip) => {
            ip.is_loopback()
                || ip.is_unspecified()
                // fc00::/7 unique local, fe80::/10 link-local.
                || (ip.segments()[0] & 0xfe00) == 0xfc00
                || (ip.segments()[0] & 0xffc0) == 0xfe80
                || ip.to_ipv4_mapped().is_some_and(|v4| is_private(IpAddr::V4(v4)))
        }
    }
}

/// The lower-case hex HMAC-SHA256 of `"{t}.{body}"` under `secret`.
pub fn signature(secret: &[u8], t: i64, body: &[u8]) -> String {
    let key = ring::hmac::Key::new(ring::hmac::HMAC_SHA256, secret);
    let mut context = ring::hmac::Context::with_key(&key);
    context.update(t.to_string().as_bytes());
    context.update(b".");
    context.update(body);
    context
        .sign()
        .as_ref()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The `Balcao-Assinatura` header of a delivery at time `t`: one `v1=` per secret in force (the
/// current one first).
pub fn signature_header(t: i64, body: &[u8], secrets: &[&[u8]]) -> String {
    let mut header = format!("t={t}");
    for secret in secrets {
        header.push_str(",v1=");
        header.push_str(&signature(secret, t, body));
    }
    header
}

/// How long deliveries are tried before they are given up: three days.
pub const GIVE_UP_AFTER_SECS: i64 = 3 * 24 * 3600;

/// The first wait after a failed delivery, in milliseconds (a test or a sandbox may set less).
pub const FIRST_RETRY_MS: i64 = 30_000;

/// The longest wait between two attempts, in milliseconds: 6 hours.
pub const MAX_RETRY_MS: i64 = 6 * 3600 * 1000;

/// How long to wait after failed attempt number `attempts` (1 after the first), in milliseconds:
/// `first_ms`, doubled each time, at most [`MAX_RETRY_MS`]; from [`FIRST_RETRY_MS`] a receiver
/// down for three days is tried about twenty times.
pub fn retry_after_ms(first_ms: i64, attempts: u32) -> i64 {
    let doubled = first_ms.saturating_mul(1_i64 << attempts.saturating_sub(1).min(30));
    doubled.min(MAX_RETRY_MS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_read_back_from_their_names_and_serde_agrees() {
        for kind in EventKind::ALL {
            assert_eq!(EventKind::parse(kind.as_str()), Some(kind));
            assert_eq!(
                serde_json::to_value(kind).unwrap(),
                serde_json::json!(kind.as_str())
            );
        }
        assert_eq!(EventKind::parse("qualquer.coisa"), None);
    }

    #[test]
    fn only_public_https_addresses_are_taken_unless_private_ones_are_allowed() {
        assert!(EndpointUrl::parse("https://loja.com.br/avisos", false).is_ok());
        for refused in [
            "",
            "loja.com.br",
            "http://loja.com.br/avisos",
            "https://localhost/avisos",
            "https://127.0.0.1/avisos",
            "https://10.0.0.8/avisos",
            "https://192.168.0.10/avisos",
            "https://169.254.169.254/latest",
            "https://[::1]/avisos",
            "https://[fd00::1]/avisos",
            "https://intranet/avisos",
            "https://usuario:senha@loja.com.br/avisos",
        ] {
            assert!(EndpointUrl::parse(refused, false).is_err(), "{refused}");
        }
        assert!(EndpointUrl::parse("http://127.0.0.1:8080/avisos", true).is_ok());
        assert!(EndpointUrl::parse("ftp://127.0.0.1/avisos", true).is_err());
    }

    #[test]
    fn the_signature_is_the_hmac_of_the_time_and_body_and_changes_with_either() {
        // HMAC-SHA256("segredo", "1795000000.{}"), computed elsewhere (Python's hmac module).
        let known = signature(b"segredo", 1_795_000_000, b"{}");
        assert_eq!(
            known,
            "6066ceff41ea3a487ff2e69b8162a14fe126ad32c60335dc004dabc30fa843d6"
        );
        assert_ne!(known, signature(b"segredo", 1_795_000_001, b"{}"));
        assert_ne!(known, signature(b"segredo", 1_795_000_000, b"{ }"));
        assert_ne!(known, signature(b"outro", 1_795_000_000, b"{}"));
        let both = signature_header(1_795_000_000, b"{}", &[b"novo", b"velho"]);
        assert_eq!(both.matches(",v1=").count(), 2);
    }

    #[test]
    fn retries_back_off_from_half_a_minute_to_six_hours() {
        assert_eq!(retry_after_ms(FIRST_RETRY_MS, 1), 30_000);
        assert_eq!(retry_after_ms(FIRST_RETRY_MS, 2), 60_000);
        assert_eq!(retry_after_ms(FIRST_RETRY_MS, 5), 480_000);
        assert_eq!(retry_after_ms(FIRST_RETRY_MS, 40), MAX_RETRY_MS);
    }
}
