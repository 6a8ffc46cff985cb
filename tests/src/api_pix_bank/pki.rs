//! The simulated bank's certificates, made with rcgen when a test starts: a test CA that signs
//! the server's identity and the clients' certificates, and a second CA that the bank does not
//! know (its clients are refused during the TLS handshake).

use chrono::{DateTime, Utc};
use p12_keystore::{
    Certificate as P12Certificate, EncryptionAlgorithm, KeyStore, KeyStoreEntry, MacAlgorithm,
    PrivateKey as P12PrivateKey, PrivateKeyChain,
};
use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DistinguishedName, DnType,
    ExtendedKeyUsagePurpose, IsCa, KeyPair, KeyUsagePurpose,
};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use time::{Duration as TimeDuration, OffsetDateTime};

/// A certificate authority made for one test: its certificate and the key that signs with it.
struct TestCa {
    issuer: CertifiedIssuer<'static, KeyPair>,
}

impl TestCa {
    fn new(common_name: &str) -> TestCa {
        let mut params = CertificateParams::new(Vec::<String>::new()).expect("CA parameters");
        params.distinguished_name = name(common_name);
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.key_usages = vec![
            KeyUsagePurpose::KeyCertSign,
            KeyUsagePurpose::CrlSign,
            KeyUsagePurpose::DigitalSignature,
        ];
        params.not_before = OffsetDateTime::now_utc() - TimeDuration::days(1);
        params.not_after = OffsetDateTime::now_utc() + TimeDuration::days(3650);
        let key = KeyPair::generate().expect("a CA key");
        TestCa {
            issuer: CertifiedIssuer::self_signed(params, key).expect("a self-signed CA"),
        }
    }

    fn pem(&self) -> String {
        self.issuer.pem()
    }

    fn der(&self) -> Vec<u8> {
        self.issuer.der().to_vec()
    }

    /// A client certificate for `common_name`, valid from `not_before` to `not_after`.
    fn client(
        &self,
        common_name: &str,
        not_before: OffsetDateTime,
        not_after: OffsetDateTime,
    ) -> ClientBundle {
        let mut params = CertificateParams::new(Vec::<String>::new()).expect("client parameters");
        params.distinguished_name = name(common_name);
        params.key_usages = vec![KeyUsagePurpose::DigitalSignature];
        params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ClientAuth];
        params.not_before = not_before;
        params.not_after = not_after;
        let key = KeyPair::generate().expect("a client key");
        let cert = params
            .signed_by(&key, &*self.issuer)
            .expect("a signed client certificate");
        ClientBundle {
            cert_pem: cert.pem(),
            key_pem: key.serialize_pem(),
            not_after: DateTime::<Utc>::from_timestamp(not_after.unix_timestamp(), 0)
                .expect("a representable expiry"),
            cert_der: cert.der().to_vec(),
            key_der: key.serialize_der(),
            ca_der: self.der(),
        }
    }
}

fn name(common_name: &str) -> DistinguishedName {
    let mut name = DistinguishedName::new();
    name.push(DnType::CommonName, common_name);
    name.push(DnType::OrganizationName, "Banco Simulado de Testes");
    name.push(DnType::CountryName, "BR");
    name
}

/// The certificates of one simulated bank, made when the test starts: a test CA, the server's
/// identity for `127.0.0.1` and `localhost` signed by it, and client certificates on demand:
/// valid ones, expired ones, and ones from another CA the bank does not trust.
pub struct TestPki {
    ca: TestCa,
    other_ca: TestCa,
    server_cert_der: Vec<u8>,
    server_key_der: Vec<u8>,
    /// What the bank presents when it calls a webhook over HTTPS (the spec's mTLS callback).
    callback_identity: ClientBundle,
}

impl Default for TestPki {
    fn default() -> Self {
        TestPki::new()
    }
}

impl TestPki {
    /// A new CA, server identity and the bank's own callback certificate.
    ///
    /// # Panics
    ///
    /// When rcgen cannot make a key or sign (it does not, short of a broken build).
    pub fn new() -> TestPki {
        let ca = TestCa::new("Banco Simulado CA de Testes");
        let other_ca = TestCa::new("Outra CA Desconhecida");
        let mut params =
            CertificateParams::new(vec!["localhost".to_owned(), "127.0.0.1".to_owned()])
                .expect("server parameters");
        params.distinguished_name = name("localhost");
        params.key_usages = vec![KeyUsagePurpose::DigitalSignature];
        params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
        params.not_before = OffsetDateTime::now_utc() - TimeDuration::days(1);
        params.not_after = OffsetDateTime::now_utc() + TimeDuration::days(365);
        let key = KeyPair::generate().expect("a server key");
        let cert = params
            .signed_by(&key, &*ca.issuer)
            .expect("a server certificate");
        let callback_identity = ca.client(
            "Banco Simulado (notificações)",
            OffsetDateTime::now_utc() - TimeDuration::days(1),
            OffsetDateTime::now_utc() + TimeDuration::days(365),
        );
        TestPki {
            server_cert_der: cert.der().to_vec(),
            server_key_der: key.serialize_der(),
            ca,
            other_ca,
            callback_identity,
        }
    }

    /// The test CA's certificate (PEM): what a client must trust to talk to the bank, and what
    /// the bank trusts in its clients' certificates.
    pub fn ca_pem(&self) -> String {
        self.ca.pem()
    }

    /// The certificate (PEM) of the other CA, which the bank does not trust.
    pub fn other_ca_pem(&self) -> String {
        self.other_ca.pem()
    }

    /// A client certificate signed by the test CA, valid from yesterday for a year.
    pub fn client(&self, common_name: &str) -> ClientBundle {
        let now = OffsetDateTime::now_utc();
        self.ca.client(
            common_name,
            now - TimeDuration::days(1),
            now + TimeDuration::days(365),
        )
    }

    /// A client certificate signed by the test CA that stops being valid at `not_after`
    /// (a certificate about to expire, for the expiry warnings).
    pub fn client_until(&self, common_name: &str, not_after: DateTime<Utc>) -> ClientBundle {
        let not_after = OffsetDateTime::from_unix_timestamp(not_after.timestamp())
            .expect("a representable expiry");
        let not_before = (OffsetDateTime::now_utc() - TimeDuration::days(1))
            .min(not_after - TimeDuration::days(30));
        self.ca.client(common_name, not_before, not_after)
    }

    /// A client certificate signed by the test CA that expired yesterday: the bank refuses it
    /// during the handshake.
    pub fn expired_client(&self, common_name: &str) -> ClientBundle {
        let now = OffsetDateTime::now_utc();
        self.ca.client(
            common_name,
            now - TimeDuration::days(400),
            now - TimeDuration::days(1),
        )
    }

    /// A valid client certificate signed by another CA: the bank refuses it during the
    /// handshake.
    pub fn foreign_client(&self, common_name: &str) -> ClientBundle {
        let now = OffsetDateTime::now_utc();
        self.other_ca.client(
            common_name,
            now - TimeDuration::days(1),
            now + TimeDuration::days(365),
        )
    }

    pub(crate) fn ca_der(&self) -> CertificateDer<'static> {
        CertificateDer::from(self.ca.der())
    }

    pub(crate) fn server_chain(&self) -> Vec<CertificateDer<'static>> {
        vec![CertificateDer::from(self.server_cert_der.clone())]
    }

    pub(crate) fn server_key(&self) -> PrivateKeyDer<'static> {
        PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(self.server_key_der.clone()))
    }

    pub(crate) fn callback_identity(&self) -> &ClientBundle {
        &self.callback_identity
    }
}

/// A client certificate and its private key, in the forms banks hand them out.
#[derive(Clone)]
pub struct ClientBundle {
    /// The certificate, PEM.
    pub cert_pem: String,
    /// The private key, PEM (PKCS#8, `-----BEGIN PRIVATE KEY-----`).
    pub key_pem: String,
    /// When the certificate stops being valid (whole seconds).
    pub not_after: DateTime<Utc>,
    cert_der: Vec<u8>,
    key_der: Vec<u8>,
    ca_der: Vec<u8>,
}

/// The key never shows in a test's output.
impl std::fmt::Debug for ClientBundle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientBundle")
            .field("not_after", &self.not_after)
            .finish_non_exhaustive()
    }
}

impl ClientBundle {
    /// The certificate followed by the key, as `reqwest::Identity::from_pem` reads them.
    pub fn identity_pem(&self) -> String {
        format!("{}{}", self.cert_pem, self.key_pem)
    }

    /// A PKCS#12 file (`.p12`/`.pfx`) with the key, the certificate and the CA's certificate,
    /// encrypted as current tools do (PBES2 with AES-256, HMAC-SHA-256). Without a password the
    /// file is protected by the empty password, as banks' "no password" files are.
    ///
    /// # Panics
    ///
    /// When the file cannot be written (it can, short of a broken build).
    pub fn pkcs12(&self, password: Option<&str>) -> Vec<u8> {
        self.keystore()
            .writer(password.unwrap_or(""))
            .write()
            .expect("a PKCS#12 file")
    }

    /// A PKCS#12 file encrypted the legacy way (3DES, HMAC-SHA-1), as many banks' files still
    /// are (older OpenSSL and Java tools write them).
    ///
    /// # Panics
    ///
    /// As [`ClientBundle::pkcs12`].
    pub fn pkcs12_legacy(&self, password: Option<&str>) -> Vec<u8> {
        self.keystore()
            .writer(password.unwrap_or(""))
            .encryption_algorithm(EncryptionAlgorithm::PbeWithShaAnd3KeyTripleDesCbc)
            .mac_algorithm(MacAlgorithm::HmacSha1)
            .write()
            .expect("a legacy PKCS#12 file")
    }

    fn keystore(&self) -> KeyStore {
        let key = P12PrivateKey::from_der(&self.key_der).expect("a PKCS#8 key");
        let chain = PrivateKeyChain::new(
            b"balcao-teste".to_vec(),
            key,
            [
                P12Certificate::from_der(&self.cert_der).expect("the client certificate"),
                P12Certificate::from_der(&self.ca_der).expect("the CA certificate"),
            ],
        );
        let mut store = KeyStore::new();
        store.add_entry("balcao", KeyStoreEntry::PrivateKeyChain(chain));
        store
    }
}
