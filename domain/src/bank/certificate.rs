//! The client certificate a bank issues for its API Pix, read from the file as the bank hands it
//! out, so the owner never runs `openssl`.
//!
//! Two ways in, one result:
//!
//! - [`ClientCertificate::from_pkcs12`]: a `.p12`/`.pfx`, with or without a password, modern
//!   (PBES2 with AES) or legacy (3DES for the key, RC2-40 for the certificates, as OpenSSL 1.x
//!   and Windows wrote them by default).
//! - [`ClientCertificate::from_pem`]: a certificate (`.crt`/`.cer`/`.pem`, PEM or DER) and its
//!   private key (`.key`: PKCS#8, PKCS#1 RSA or SEC1 EC), or one PEM file holding both.
//!
//! Either way the result is the chain as PEM (the certificate that matches the key first, then
//! its issuers found in the file), the key as PKCS#8 PEM (wiped from memory on drop), and what the
//! screens show: validity, subject, issuer, and the leaf's SHA-256 fingerprint.
//!
//! The key is checked twice over with ring, the library rustls signs with: that it is a key
//! rustls can use (RSA of 2048 bits or more, ECDSA P-256 or P-384, Ed25519), and that its public
//! half is the certificate's. Whether the certificate is expired is the caller's call, with its
//! own clock: [`ClientCertificate::check_valid_at`].

use std::fmt;

use base64::Engine as _;
use chrono::{DateTime, FixedOffset, Utc};
use p12_keystore::Pkcs12Archive;
use p12_keystore::error::Error as P12Error;
use ring::signature::{self, KeyPair as _};
use zeroize::Zeroizing;

use crate::refusal::{Refusal, RefusalKind};

/// A bank-issued client certificate with its private key, ready for an mTLS client.
///
/// `Debug` shows the public facts only: never the key.
#[derive(Clone)]
pub struct ClientCertificate {
    chain_pem: String,
    key_pem: Zeroizing<String>,
    not_before: DateTime<Utc>,
    not_after: DateTime<Utc>,
    subject: String,
    issuer: String,
    fingerprint_sha256: String,
}

impl ClientCertificate {
    /// Reads a PKCS#12 file (`.p12`/`.pfx`). `password` is the file's; `None` (or empty) for a
    /// file without one. A PEM file handed in here is read as [`ClientCertificate::from_pem`]
    /// would, since owners pick the wrong upload field as often as the right one.
    pub fn from_pkcs12(bytes: &[u8], password: Option<&str>) -> Result<Self, CertificateError> {
        if looks_like_pem(bytes) {
            return Self::from_pem(bytes, None);
        }
        if !looks_like_pfx(bytes) {
            return Err(CertificateError::Unreadable);
        }
        let typed = password.filter(|p| !p.is_empty());
        let archive = match Pkcs12Archive::from_pkcs12(bytes, typed.unwrap_or("")) {
            Ok(archive) => archive,
            // A password typed for a file that has none: the empty password opens it.
            Err(error) if typed.is_some() && is_password_error(&error) => {
                Pkcs12Archive::from_pkcs12(bytes, "")
                    .map_err(|_| CertificateError::WrongPassword)?
            }
            Err(error) if is_password_error(&error) => {
                return Err(CertificateError::PasswordRequired);
            }
            Err(P12Error::UnsupportedEncryptionScheme | P12Error::UnsupportedMacAlgorithm) => {
                return Err(CertificateError::UnsupportedFile);
            }
            Err(_) => return Err(CertificateError::Unreadable),
        };
        let certificates: Vec<Vec<u8>> = archive
            .certs
            .iter()
            .map(|bag| bag.cert.as_der().to_vec())
            .collect();
        let keys: Vec<Zeroizing<Vec<u8>>> = archive
            .keys
            .iter()
            .map(|bag| Zeroizing::new(bag.key.as_der().to_vec()))
            .collect();
        assemble(&certificates, &keys)
    }

    /// Reads a certificate and its private key in PEM (or the certificate alone in DER, as some
    /// banks hand out `.cer` files). `key_pem` is the `.key` file; `None` when `cert_pem` holds
    /// both. Blocks are recognised by their labels, so swapped files work too.
    pub fn from_pem(cert_pem: &[u8], key_pem: Option<&[u8]>) -> Result<Self, CertificateError> {
        let mut certificates = Vec::new();
        let mut keys = Vec::new();
        let mut saw_key_block = false;
        for input in std::iter::once(cert_pem).chain(key_pem) {
            if !looks_like_pem(input) {
                // A DER certificate; a DER key is not something banks hand out.
                if x509_parser::parse_x509_certificate(input).is_ok() {
                    certificates.push(input.to_vec());
                    continue;
                }
                return Err(CertificateError::Unreadable);
            }
            let blocks = pem_blocks(input)?;
            let mut ec_parameters: Option<Vec<u8>> = None;
            for block in blocks {
                match block.label.as_str() {
                    "CERTIFICATE" | "X509 CERTIFICATE" => {
                        certificates.push(block.contents.to_vec())
                    }
                    "EC PARAMETERS" => ec_parameters = Some(block.contents.to_vec()),
                    "PRIVATE KEY" | "RSA PRIVATE KEY" | "EC PRIVATE KEY" if block.encrypted => {
                        return Err(CertificateError::EncryptedKey);
                    }
                    "ENCRYPTED PRIVATE KEY" => return Err(CertificateError::EncryptedKey),
                    "PRIVATE KEY" => {
                        saw_key_block = true;
                        keys.push(block.contents);
                    }
                    "RSA PRIVATE KEY" => {
                        saw_key_block = true;
                        keys.push(pkcs8_from_pkcs1(&block.contents));
                    }
                    "EC PRIVATE KEY" => {
                        saw_key_block = true;
                        let key = pkcs8_from_sec1(&block.contents, ec_parameters.as_deref())
                            .ok_or(CertificateError::UnsupportedKey)?;
                        keys.push(key);
                    }
                    _ => {}
                }
            }
        }
        if certificates.is_empty() {
            return Err(CertificateError::Unreadable);
        }
        if !saw_key_block {
            return Err(CertificateError::NoPrivateKey);
        }
        assemble(&certificates, &keys)
    }

    /// The chain, PEM: the client certificate first, then the issuers the file had.
    pub fn chain_pem(&self) -> &str {
        &self.chain_pem
    }

    /// The private key, PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`). Secret: seal it before it
    /// is stored, never log it.
    pub fn key_pem(&self) -> &str {
        &self.key_pem
    }

    /// Key and chain in one PEM buffer, the form TLS clients load an identity from (reqwest's
    /// `Identity::from_pem`). Wiped on drop like the key.
    pub fn identity_pem(&self) -> Zeroizing<String> {
        let mut pem = Zeroizing::new(String::with_capacity(
            self.key_pem.len() + self.chain_pem.len(),
        ));
        pem.push_str(&self.key_pem);
        pem.push_str(&self.chain_pem);
        pem
    }

    /// The first instant the certificate is valid.
    pub fn not_before(&self) -> DateTime<Utc> {
        self.not_before
    }

    /// The last instant the certificate is valid.
    pub fn not_after(&self) -> DateTime<Utc> {
        self.not_after
    }

    /// The certificate's subject, as `C=BR, O=…, CN=…`.
    pub fn subject(&self) -> &str {
        &self.subject
    }

    /// Who issued it, as `C=BR, O=…, CN=…`.
    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    /// The SHA-256 of the client certificate's DER, lowercase hex (64 characters): what tells two
    /// certificates apart on the screen and in the audit trail.
    pub fn fingerprint_sha256(&self) -> &str {
        &self.fingerprint_sha256
    }

    /// Whether `now` is inside the validity period.
    pub fn is_valid_at(&self, now: DateTime<Utc>) -> bool {
        self.check_valid_at(now).is_ok()
    }

    /// `Ok` when `now` is inside the validity period; otherwise why not
    /// ([`CertificateError::Expired`] or [`CertificateError::NotYetValid`]).
    pub fn check_valid_at(&self, now: DateTime<Utc>) -> Result<(), CertificateError> {
        if now > self.not_after {
            Err(CertificateError::Expired {
                not_after: self.not_after,
            })
        } else if now < self.not_before {
            Err(CertificateError::NotYetValid {
                not_before: self.not_before,
            })
        } else {
            Ok(())
        }
    }

    /// Whole days from `now` until the certificate expires (0 on its last day, negative once
    /// expired): what the 30/7/1-day warnings count.
    pub fn days_until_expiry(&self, now: DateTime<Utc>) -> i64 {
        let left = self.not_after - now;
        if left < chrono::Duration::zero() {
            // Rounded away from zero: a certificate that expired an hour ago is one day gone.
            left.num_days() - 1
        } else {
            left.num_days()
        }
    }
}

impl fmt::Debug for ClientCertificate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientCertificate")
            .field("subject", &self.subject)
            .field("issuer", &self.issuer)
            .field("not_before", &self.not_before)
            .field("not_after", &self.not_after)
            .field("fingerprint_sha256", &self.fingerprint_sha256)
            .field("key_pem", &"<secret>")
            .finish_non_exhaustive()
    }
}

/// Why a certificate upload cannot be used. Messages are pt-BR, for the owner at the form.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CertificateError {
    /// The `.p12` has a password and none was typed.
    #[error("Este certificado tem senha: digite a senha do arquivo .p12/.pfx.")]
    PasswordRequired,
    /// The typed password does not open the `.p12`.
    #[error(
        "A senha não abre este certificado. Confira maiúsculas e minúsculas: é a senha do arquivo, não a do banco."
    )]
    WrongPassword,
    /// Neither a PKCS#12 file nor PEM/DER holding a certificate, or a damaged one.
    #[error(
        "Não conseguimos ler este arquivo como certificado. Envie o .p12/.pfx que o banco entregou, ou o certificado (.crt, .cer ou .pem) com a chave (.key)."
    )]
    Unreadable,
    /// A PKCS#12 file protected with a cipher this reader does not know.
    #[error(
        "Este .p12 usa uma proteção que não conseguimos abrir. Peça ao banco o certificado em outro formato, como .crt e .key."
    )]
    UnsupportedFile,
    /// A certificate without its private key.
    #[error("Falta a chave privada: envie também o arquivo .key, ou o .p12/.pfx completo.")]
    NoPrivateKey,
    /// The PEM key is encrypted (PKCS#8 `ENCRYPTED PRIVATE KEY` or OpenSSL's `Proc-Type`).
    #[error(
        "A chave privada está protegida por senha. Envie o .p12/.pfx com a senha dele, ou a chave .key sem senha."
    )]
    EncryptedKey,
    /// A key type or size TLS clients here cannot sign with.
    #[error("Este tipo de chave não é aceito: use RSA de 2048 bits ou mais, ou ECDSA P-256/P-384.")]
    UnsupportedKey,
    /// The private key belongs to no certificate in the upload.
    #[error("A chave privada não é a deste certificado. Envie a chave gerada junto com ele.")]
    KeyMismatch,
    /// The certificate's validity ended before the caller's `now`.
    #[error("Este certificado venceu em {}. Peça um novo ao banco.", pt_br_date(.not_after))]
    Expired {
        /// When it stopped being valid.
        not_after: DateTime<Utc>,
    },
    /// The certificate's validity starts after the caller's `now`.
    #[error("Este certificado só vale a partir de {}.", pt_br_date(.not_before))]
    NotYetValid {
        /// When it starts being valid.
        not_before: DateTime<Utc>,
    },
}

/// `dd/mm/aaaa`, Brasília time (UTC−3 all year since 2019).
fn pt_br_date(at: &DateTime<Utc>) -> String {
    let brasilia = FixedOffset::west_opt(3 * 3600).expect("3 hours is a valid offset");
    at.with_timezone(&brasilia).format("%d/%m/%Y").to_string()
}

impl Refusal for CertificateError {
    fn code(&self) -> &'static str {
        match self {
            CertificateError::PasswordRequired => "bank-certificate-password-required",
            CertificateError::WrongPassword => "bank-certificate-password",
            CertificateError::Unreadable => "bank-certificate-unreadable",
            CertificateError::UnsupportedFile => "bank-certificate-unsupported",
            CertificateError::NoPrivateKey => "bank-certificate-no-key",
            CertificateError::EncryptedKey => "bank-certificate-key-encrypted",
            CertificateError::UnsupportedKey => "bank-certificate-key-unsupported",
            CertificateError::KeyMismatch => "bank-certificate-key-mismatch",
            CertificateError::Expired { .. } => "bank-certificate-expired",
            CertificateError::NotYetValid { .. } => "bank-certificate-not-yet-valid",
        }
    }

    fn kind(&self) -> RefusalKind {
        RefusalKind::Invalid
    }

    /// `certificatePassword`, `certificateKey` or `certificate`: the connect form's fields.
    fn field(&self) -> Option<&'static str> {
        Some(match self {
            CertificateError::PasswordRequired | CertificateError::WrongPassword => {
                "certificatePassword"
            }
            CertificateError::NoPrivateKey
            | CertificateError::EncryptedKey
            | CertificateError::UnsupportedKey
            | CertificateError::KeyMismatch => "certificateKey",
            CertificateError::Unreadable
            | CertificateError::UnsupportedFile
            | CertificateError::Expired { .. }
            | CertificateError::NotYetValid { .. } => "certificate",
        })
    }
}

/// A MAC that does not verify, or a decryption whose padding is wrong: what a wrong password
/// looks like from inside (a file without a MAC only shows it when decrypting).
fn is_password_error(error: &P12Error) -> bool {
    matches!(
        error,
        P12Error::MacError(_) | P12Error::UnpadError | P12Error::Pkcs5Error(_)
    )
}

/// A PFX is a DER SEQUENCE whose first element is the INTEGER 3.
fn looks_like_pfx(bytes: &[u8]) -> bool {
    let Some((0x30, content, _)) = der_read(bytes) else {
        return false;
    };
    matches!(der_read(content), Some((0x02, [3], _)))
}

fn looks_like_pem(bytes: &[u8]) -> bool {
    bytes.windows(11).any(|w| w == b"-----BEGIN ")
}

/// Matches key to certificate, orders the chain, and writes the PEM.
fn assemble(
    certificates: &[Vec<u8>],
    keys: &[Zeroizing<Vec<u8>>],
) -> Result<ClientCertificate, CertificateError> {
    let parsed: Vec<_> = certificates
        .iter()
        .map(|der| x509_parser::parse_x509_certificate(der).map(|(_, cert)| cert))
        .collect::<Result<_, _>>()
        .map_err(|_| CertificateError::Unreadable)?;
    if parsed.is_empty() {
        return Err(CertificateError::Unreadable);
    }
    if keys.is_empty() {
        return Err(CertificateError::NoPrivateKey);
    }
    let public_keys: Vec<Option<Vec<u8>>> = keys.iter().map(|key| public_key_of(key)).collect();
    if public_keys.iter().all(Option::is_none) {
        return Err(CertificateError::UnsupportedKey);
    }
    let (key_index, leaf_index) = public_keys
        .iter()
        .enumerate()
        .filter_map(|(k, public)| Some((k, public.as_deref()?)))
        .find_map(|(k, public)| {
            let leaf = parsed
                .iter()
                .position(|cert| cert.public_key().subject_public_key.data.as_ref() == public)?;
            Some((k, leaf))
        })
        .ok_or(CertificateError::KeyMismatch)?;

    // The leaf, then each issuer found among the others (by the raw DER of the names), stopping
    // at a self-signed one or when the file has no more.
    let mut chain = vec![leaf_index];
    loop {
        let current = &parsed[*chain.last().expect("the chain starts with the leaf")];
        if current.issuer().as_raw() == current.subject().as_raw() {
            break;
        }
        let next = (0..parsed.len()).find(|i| {
            !chain.contains(i) && parsed[*i].subject().as_raw() == current.issuer().as_raw()
        });
        match next {
            Some(i) => chain.push(i),
            None => break,
        }
    }

    let leaf = &parsed[leaf_index];
    let timestamp = |t: i64| DateTime::from_timestamp(t, 0).ok_or(CertificateError::Unreadable);
    let chain_pem = chain
        .iter()
        .map(|i| pem_encode("CERTIFICATE", &certificates[*i]))
        .collect::<String>();
    Ok(ClientCertificate {
        chain_pem,
        key_pem: Zeroizing::new(pem_encode("PRIVATE KEY", &keys[key_index])),
        not_before: timestamp(leaf.validity().not_before.timestamp())?,
        not_after: timestamp(leaf.validity().not_after.timestamp())?,
        subject: leaf.subject().to_string(),
        issuer: leaf.issuer().to_string(),
        fingerprint_sha256: hex(ring::digest::digest(
            &ring::digest::SHA256,
            &certificates[leaf_index],
        )
        .as_ref()),
    })
}

/// The public half of a PKCS#8 key, in the form a certificate's SubjectPublicKeyInfo carries it,
/// if ring (rustls's signer) accepts the key.
fn public_key_of(pkcs8: &[u8]) -> Option<Vec<u8>> {
    if let Ok(pair) = signature::RsaKeyPair::from_pkcs8(pkcs8) {
        return Some(pair.public_key().as_ref().to_vec());
    }
    let rng = ring::rand::SystemRandom::new();
    for algorithm in [
        &signature::ECDSA_P256_SHA256_ASN1_SIGNING,
        &signature::ECDSA_P384_SHA384_ASN1_SIGNING,
    ] {
        if let Ok(pair) = signature::EcdsaKeyPair::from_pkcs8(algorithm, pkcs8, &rng) {
            return Some(pair.public_key().as_ref().to_vec());
        }
    }
    signature::Ed25519KeyPair::from_pkcs8_maybe_unchecked(pkcs8)
        .ok()
        .map(|pair| pair.public_key().as_ref().to_vec())
}

/// `rsaEncryption` (1.2.840.113549.1.1.1), DER.
const OID_RSA_ENCRYPTION: &[u8] = &[
    0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01,
];
/// `id-ecPublicKey` (1.2.840.10045.2.1), DER.
const OID_EC_PUBLIC_KEY: &[u8] = &[0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01];

/// PKCS#1 `RSAPrivateKey` wrapped as PKCS#8 `PrivateKeyInfo` (RFC 5208): version 0, the RSA
/// algorithm with NULL parameters, the PKCS#1 bytes as the key.
fn pkcs8_from_pkcs1(pkcs1: &[u8]) -> Zeroizing<Vec<u8>> {
    let algorithm = der_write(0x30, &[OID_RSA_ENCRYPTION, &[0x05, 0x00]].concat());
    wrap_pkcs8(&algorithm, pkcs1)
}

/// SEC1 `ECPrivateKey` (RFC 5915) wrapped as PKCS#8: the curve comes from the key's own
/// `[0] parameters`, or else from the `EC PARAMETERS` block OpenSSL writes before it.
fn pkcs8_from_sec1(sec1: &[u8], ec_parameters: Option<&[u8]>) -> Option<Zeroizing<Vec<u8>>> {
    let (0x30, mut fields, _) = der_read(sec1)? else {
        return None;
    };
    let mut curve = ec_parameters.map(<[u8]>::to_vec);
    while let Some((tag, content, rest)) = der_read(fields) {
        if tag == 0xa0 {
            curve = Some(content.to_vec());
        }
        fields = rest;
    }
    let curve = curve.filter(|oid| oid.first() == Some(&0x06))?;
    let algorithm = der_write(0x30, &[OID_EC_PUBLIC_KEY, &curve].concat());
    Some(wrap_pkcs8(&algorithm, sec1))
}

fn wrap_pkcs8(algorithm: &[u8], private_key: &[u8]) -> Zeroizing<Vec<u8>> {
    let octets = Zeroizing::new(der_write(0x04, private_key));
    let body = Zeroizing::new([&[0x02, 0x01, 0x00][..], algorithm, &octets].concat());
    Zeroizing::new(der_write(0x30, &body))
}

/// One DER element: tag, content, and what follows. Single-byte tags and definite lengths only
/// (all that keys and PFX headers use).
fn der_read(input: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let (&tag, rest) = input.split_first()?;
    let (&first, rest) = rest.split_first()?;
    let (length, rest) = if first < 0x80 {
        (usize::from(first), rest)
    } else {
        let count = usize::from(first & 0x7f);
        if count == 0 || count > 4 || rest.len() < count {
            return None;
        }
        let (bytes, rest) = rest.split_at(count);
        (
            bytes.iter().fold(0usize, |n, b| (n << 8) | usize::from(*b)),
            rest,
        )
    };
    if rest.len() < length {
        return None;
    }
    let (content, rest) = rest.split_at(length);
    Some((tag, content, rest))
}

fn der_write(tag: u8, content: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(content.len() + 6);
    out.push(tag);
    let length = content.len();
    if length < 0x80 {
        out.push(length as u8);
    } else {
        let bytes = length.to_be_bytes();
        let skip = bytes.iter().take_while(|b| **b == 0).count();
        out.push(0x80 | (bytes.len() - skip) as u8);
        out.extend_from_slice(&bytes[skip..]);
    }
    out.extend_from_slice(content);
    out
}

/// One PEM block (RFC 7468), with whether OpenSSL's legacy encryption headers were on it.
struct PemBlock {
    label: String,
    contents: Zeroizing<Vec<u8>>,
    encrypted: bool,
}

/// Every PEM block in `input`; text outside blocks (OpenSSL's `Bag Attributes`, comments) is
/// skipped. A block whose base64 does not decode makes the whole file unreadable.
fn pem_blocks(input: &[u8]) -> Result<Vec<PemBlock>, CertificateError> {
    let text = String::from_utf8_lossy(input);
    let mut blocks = Vec::new();
    let mut lines = text.lines().map(str::trim);
    while let Some(line) = lines.next() {
        let Some(label) = line
            .strip_prefix("-----BEGIN ")
            .and_then(|l| l.strip_suffix("-----"))
        else {
            continue;
        };
        let end = format!("-----END {label}-----");
        let mut base64 = Zeroizing::new(String::new());
        let mut encrypted = false;
        let mut closed = false;
        for line in lines.by_ref() {
            if line == end {
                closed = true;
                break;
            }
            if line.contains(':') {
                // RFC 1421 headers (`Proc-Type: 4,ENCRYPTED`, `DEK-Info: …`).
                encrypted |= line.starts_with("Proc-Type:") && line.contains("ENCRYPTED");
                continue;
            }
            base64.push_str(line);
        }
        if !closed {
            return Err(CertificateError::Unreadable);
        }
        let contents = base64::engine::general_purpose::STANDARD
            .decode(base64.as_bytes())
            .map_err(|_| CertificateError::Unreadable)?;
        blocks.push(PemBlock {
            label: label.to_owned(),
            contents: Zeroizing::new(contents),
            encrypted,
        });
    }
    Ok(blocks)
}

fn pem_encode(label: &str, der: &[u8]) -> String {
    let base64 = Zeroizing::new(base64::engine::general_purpose::STANDARD.encode(der));
    let mut pem = format!("-----BEGIN {label}-----\n");
    for line in base64.as_bytes().chunks(64) {
        pem.push_str(std::str::from_utf8(line).expect("base64 is ASCII"));
        pem.push('\n');
    }
    pem.push_str(&format!("-----END {label}-----\n"));
    pem
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests;
