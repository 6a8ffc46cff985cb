//! The fixtures are throwaway test certificates made by `domain/tests/fixtures/bank/make.sh`
//! (OpenSSL 3.0): a CA, an RSA and an EC leaf, and the RSA leaf packed as banks hand it out.

use super::*;

macro_rules! fixture {
    ($name:literal) => {
        include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/bank/",
            $name
        ))
        .as_slice()
    };
}

const CA: &[u8] = fixture!("ca.crt");
const LEAF: &[u8] = fixture!("leaf.crt");
const LEAF_DER: &[u8] = fixture!("leaf.der");
const LEAF_KEY: &[u8] = fixture!("leaf.key");
const LEAF_KEY_PKCS1: &[u8] = fixture!("leaf-pkcs1.key");
const LEAF_KEY_ENCRYPTED: &[u8] = fixture!("leaf-encrypted.key");
const EC: &[u8] = fixture!("ec.crt");
const EC_KEY_SEC1: &[u8] = fixture!("ec-sec1.key");
const OTHER_KEY: &[u8] = fixture!("other.key");
const MODERN_P12: &[u8] = fixture!("modern.p12");
const LEGACY_P12: &[u8] = fixture!("legacy.p12");
const NO_PASSWORD_P12: &[u8] = fixture!("no-password.p12");
const NO_KEY_P12: &[u8] = fixture!("no-key.p12");

/// `openssl x509 -in leaf.crt -noout -fingerprint -sha256`, colons dropped.
const LEAF_FINGERPRINT: &str = "63307322a2feefc8432efba7d3e43c5d871f7c4c2a2ea048cccd5ad4b978922a";
/// The same for ec.crt.
const EC_FINGERPRINT: &str = "ac5367993be8b74464885240e4c3950254963e8b2329d297540e48a7f2fdffe8";

fn at(text: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(text)
        .unwrap()
        .with_timezone(&Utc)
}

fn pem_blocks_labelled(pem: &str, label: &str) -> usize {
    pem.matches(&format!("-----BEGIN {label}-----")).count()
}

fn assert_is_the_rsa_leaf(certificate: &ClientCertificate) {
    assert_eq!(certificate.fingerprint_sha256(), LEAF_FINGERPRINT);
    assert_eq!(
        certificate.subject(),
        "C=BR, O=Loja de Testes LTDA, CN=loja-de-testes"
    );
    assert_eq!(
        certificate.issuer(),
        "C=BR, O=Balcao Testes, CN=Banco de Testes CA"
    );
    assert_eq!(certificate.not_before(), at("2026-11-28T17:40:01Z"));
    assert_eq!(certificate.not_after(), at("2036-11-25T17:40:01Z"));
    assert!(
        certificate
            .key_pem()
            .starts_with("-----BEGIN PRIVATE KEY-----\n")
    );
    assert_eq!(pem_blocks_labelled(certificate.key_pem(), "PRIVATE KEY"), 1);
}

#[test]
fn a_modern_p12_opens_with_its_password_and_keeps_the_chain_leaf_first() {
    let certificate = ClientCertificate::from_pkcs12(MODERN_P12, Some("senha123")).unwrap();

    assert_is_the_rsa_leaf(&certificate);
    assert_eq!(
        pem_blocks_labelled(certificate.chain_pem(), "CERTIFICATE"),
        2
    );
    let leaf_from_pem = ClientCertificate::from_pem(LEAF, Some(LEAF_KEY)).unwrap();
    assert!(
        certificate
            .chain_pem()
            .starts_with(leaf_from_pem.chain_pem()),
        "leaf first"
    );
}

#[test]
fn a_legacy_p12_with_rc2_40_certificates_and_a_3des_key_opens_too() {
    let legacy = ClientCertificate::from_pkcs12(LEGACY_P12, Some("senha123")).unwrap();
    let modern = ClientCertificate::from_pkcs12(MODERN_P12, Some("senha123")).unwrap();

    assert_is_the_rsa_leaf(&legacy);
    assert_eq!(legacy.chain_pem(), modern.chain_pem());
    assert_eq!(legacy.key_pem(), modern.key_pem());
}

#[test]
fn a_p12_without_a_password_opens_whether_or_not_one_is_typed() {
    for password in [None, Some(""), Some("digitada sem precisar")] {
        let certificate = ClientCertificate::from_pkcs12(NO_PASSWORD_P12, password).unwrap();
        assert_is_the_rsa_leaf(&certificate);
        assert_eq!(
            pem_blocks_labelled(certificate.chain_pem(), "CERTIFICATE"),
            1
        );
    }
}

#[test]
fn a_p12_with_a_password_asks_for_it_and_refuses_a_wrong_one() {
    for p12 in [MODERN_P12, LEGACY_P12] {
        assert_eq!(
            ClientCertificate::from_pkcs12(p12, None).unwrap_err(),
            CertificateError::PasswordRequired
        );
        assert_eq!(
            ClientCertificate::from_pkcs12(p12, Some("")).unwrap_err(),
            CertificateError::PasswordRequired
        );
        assert_eq!(
            ClientCertificate::from_pkcs12(p12, Some("Senha123")).unwrap_err(),
            CertificateError::WrongPassword
        );
    }
}

#[test]
fn a_p12_without_the_private_key_says_the_key_is_missing() {
    assert_eq!(
        ClientCertificate::from_pkcs12(NO_KEY_P12, Some("senha123")).unwrap_err(),
        CertificateError::NoPrivateKey
    );
}

#[test]
fn bytes_that_are_no_certificate_are_unreadable() {
    let truncated = &MODERN_P12[..MODERN_P12.len() / 2];
    for bytes in [
        &b""[..],
        b"isto nao e um certificado",
        &[0x30, 0x03, 0x02, 0x01, 0x02],
        truncated,
    ] {
        assert_eq!(
            ClientCertificate::from_pkcs12(bytes, Some("senha123")).unwrap_err(),
            CertificateError::Unreadable,
            "{bytes:?}"
        );
    }
    assert_eq!(
        ClientCertificate::from_pem(b"nada", None).unwrap_err(),
        CertificateError::Unreadable
    );
    let broken = b"-----BEGIN CERTIFICATE-----\n!!!!\n-----END CERTIFICATE-----\n";
    assert_eq!(
        ClientCertificate::from_pem(broken, Some(LEAF_KEY)).unwrap_err(),
        CertificateError::Unreadable
    );
    let unclosed = b"-----BEGIN CERTIFICATE-----\nMIIB\n";
    assert_eq!(
        ClientCertificate::from_pem(unclosed, Some(LEAF_KEY)).unwrap_err(),
        CertificateError::Unreadable
    );
}

#[test]
fn a_pem_certificate_with_a_pkcs8_key_reads_like_the_p12() {
    let certificate = ClientCertificate::from_pem(LEAF, Some(LEAF_KEY)).unwrap();

    assert_is_the_rsa_leaf(&certificate);
    assert_eq!(
        certificate.key_pem(),
        std::str::from_utf8(LEAF_KEY).unwrap()
    );
    assert_eq!(
        pem_blocks_labelled(certificate.chain_pem(), "CERTIFICATE"),
        1
    );
}

#[test]
fn a_pkcs1_rsa_key_comes_out_as_the_same_key_in_pkcs8() {
    let from_pkcs1 = ClientCertificate::from_pem(LEAF, Some(LEAF_KEY_PKCS1)).unwrap();
    let from_pkcs8 = ClientCertificate::from_pem(LEAF, Some(LEAF_KEY)).unwrap();

    assert!(
        std::str::from_utf8(LEAF_KEY_PKCS1)
            .unwrap()
            .contains("BEGIN RSA PRIVATE KEY")
    );
    assert_eq!(from_pkcs1.key_pem(), from_pkcs8.key_pem());
}

#[test]
fn a_sec1_ec_key_comes_out_as_pkcs8_with_or_without_its_parameters_block() {
    let with_parameters = ClientCertificate::from_pem(EC, Some(EC_KEY_SEC1)).unwrap();
    assert_eq!(with_parameters.fingerprint_sha256(), EC_FINGERPRINT);
    assert!(
        with_parameters
            .key_pem()
            .starts_with("-----BEGIN PRIVATE KEY-----")
    );

    let text = std::str::from_utf8(EC_KEY_SEC1).unwrap();
    let key_only = &text[text.find("-----BEGIN EC PRIVATE KEY-----").unwrap()..];
    let without = ClientCertificate::from_pem(EC, Some(key_only.as_bytes())).unwrap();
    assert_eq!(without.key_pem(), with_parameters.key_pem());
}

#[test]
fn one_pem_file_holding_certificate_and_key_is_enough() {
    let both = [LEAF_KEY, CA, LEAF].concat();
    let certificate = ClientCertificate::from_pem(&both, None).unwrap();

    assert_is_the_rsa_leaf(&certificate);
    assert_eq!(
        pem_blocks_labelled(certificate.chain_pem(), "CERTIFICATE"),
        2
    );
    let leaf_only = ClientCertificate::from_pem(LEAF, Some(LEAF_KEY)).unwrap();
    assert!(
        certificate.chain_pem().starts_with(leaf_only.chain_pem()),
        "the leaf comes before its CA"
    );
}

#[test]
fn swapped_uploads_and_a_der_certificate_are_read_too() {
    assert_is_the_rsa_leaf(&ClientCertificate::from_pem(LEAF_KEY, Some(LEAF)).unwrap());
    assert_is_the_rsa_leaf(&ClientCertificate::from_pem(LEAF_DER, Some(LEAF_KEY)).unwrap());
    assert_is_the_rsa_leaf(
        &ClientCertificate::from_pkcs12(&[LEAF, LEAF_KEY].concat(), None).unwrap(),
    );
}

#[test]
fn a_key_that_belongs_to_another_certificate_is_refused() {
    for (certificate, key) in [(LEAF, OTHER_KEY), (EC, LEAF_KEY), (LEAF, EC_KEY_SEC1)] {
        assert_eq!(
            ClientCertificate::from_pem(certificate, Some(key)).unwrap_err(),
            CertificateError::KeyMismatch
        );
    }
}

#[test]
fn a_certificate_alone_asks_for_its_key() {
    assert_eq!(
        ClientCertificate::from_pem(LEAF, None).unwrap_err(),
        CertificateError::NoPrivateKey
    );
    assert_eq!(
        ClientCertificate::from_pem(LEAF, Some(CA)).unwrap_err(),
        CertificateError::NoPrivateKey
    );
}

#[test]
fn an_encrypted_pem_key_is_told_apart() {
    assert_eq!(
        ClientCertificate::from_pem(LEAF, Some(LEAF_KEY_ENCRYPTED)).unwrap_err(),
        CertificateError::EncryptedKey
    );
    let traditional = b"-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00112233445566778899AABBCCDDEEFF\n\nAAAA\n-----END RSA PRIVATE KEY-----\n";
    assert_eq!(
        ClientCertificate::from_pem(LEAF, Some(traditional)).unwrap_err(),
        CertificateError::EncryptedKey
    );
}

#[test]
fn a_key_ring_cannot_sign_with_is_unsupported() {
    let junk = b"-----BEGIN PRIVATE KEY-----\nMAMCAQA=\n-----END PRIVATE KEY-----\n";
    assert_eq!(
        ClientCertificate::from_pem(LEAF, Some(junk)).unwrap_err(),
        CertificateError::UnsupportedKey
    );
    let curveless = b"-----BEGIN EC PRIVATE KEY-----\nMAMCAQE=\n-----END EC PRIVATE KEY-----\n";
    assert_eq!(
        ClientCertificate::from_pem(EC, Some(curveless)).unwrap_err(),
        CertificateError::UnsupportedKey
    );
}

#[test]
fn validity_is_decided_with_the_callers_clock() {
    let certificate = ClientCertificate::from_pem(LEAF, Some(LEAF_KEY)).unwrap();

    assert_eq!(
        certificate.check_valid_at(at("2030-01-01T00:00:00Z")),
        Ok(())
    );
    assert!(
        certificate.is_valid_at(at("2036-11-25T17:40:01Z")),
        "the last second still counts"
    );
    let expired = certificate
        .check_valid_at(at("2036-11-25T17:40:02Z"))
        .unwrap_err();
    assert_eq!(
        expired,
        CertificateError::Expired {
            not_after: at("2036-11-25T17:40:01Z")
        }
    );
    assert_eq!(
        expired.to_string(),
        "Este certificado venceu em 25/11/2036. Peça um novo ao banco."
    );
    let early = certificate
        .check_valid_at(at("2026-11-28T17:40:00Z"))
        .unwrap_err();
    assert_eq!(
        early.to_string(),
        "Este certificado só vale a partir de 28/11/2026."
    );
}

#[test]
fn days_until_expiry_count_whole_days_and_go_negative_once_expired() {
    let certificate = ClientCertificate::from_pem(LEAF, Some(LEAF_KEY)).unwrap();

    assert_eq!(
        certificate.days_until_expiry(at("2036-10-26T17:40:01Z")),
        30
    );
    assert_eq!(certificate.days_until_expiry(at("2036-11-18T18:00:00Z")), 6);
    assert_eq!(certificate.days_until_expiry(at("2036-11-25T10:00:00Z")), 0);
    assert_eq!(
        certificate.days_until_expiry(at("2036-11-25T18:40:01Z")),
        -1
    );
}

#[test]
fn debug_output_never_shows_the_key() {
    let certificate = ClientCertificate::from_pkcs12(MODERN_P12, Some("senha123")).unwrap();
    let debug = format!("{certificate:?}");

    assert!(debug.contains(LEAF_FINGERPRINT), "{debug}");
    assert!(!debug.contains("PRIVATE KEY"), "{debug}");
    let key_line = certificate.key_pem().lines().nth(1).unwrap();
    assert!(!debug.contains(key_line), "{debug}");
}

#[test]
fn the_identity_pem_holds_the_key_and_the_chain() {
    let certificate = ClientCertificate::from_pkcs12(MODERN_P12, Some("senha123")).unwrap();
    let identity = certificate.identity_pem();

    assert_eq!(pem_blocks_labelled(&identity, "PRIVATE KEY"), 1);
    assert_eq!(pem_blocks_labelled(&identity, "CERTIFICATE"), 2);
}

#[test]
fn every_refusal_has_a_code_a_field_and_a_pt_br_message() {
    let when = at("2030-01-01T12:00:00Z");
    let table = [
        (
            CertificateError::PasswordRequired,
            "bank-certificate-password-required",
            "certificatePassword",
        ),
        (
            CertificateError::WrongPassword,
            "bank-certificate-password",
            "certificatePassword",
        ),
        (
            CertificateError::Unreadable,
            "bank-certificate-unreadable",
            "certificate",
        ),
        (
            CertificateError::UnsupportedFile,
            "bank-certificate-unsupported",
            "certificate",
        ),
        (
            CertificateError::NoPrivateKey,
            "bank-certificate-no-key",
            "certificateKey",
        ),
        (
            CertificateError::EncryptedKey,
            "bank-certificate-key-encrypted",
            "certificateKey",
        ),
        (
            CertificateError::UnsupportedKey,
            "bank-certificate-key-unsupported",
            "certificateKey",
        ),
        (
            CertificateError::KeyMismatch,
            "bank-certificate-key-mismatch",
            "certificateKey",
        ),
        (
            CertificateError::Expired { not_after: when },
            "bank-certificate-expired",
            "certificate",
        ),
        (
            CertificateError::NotYetValid { not_before: when },
            "bank-certificate-not-yet-valid",
            "certificate",
        ),
    ];
    for (error, code, field) in table {
        assert_eq!(error.code(), code);
        assert_eq!(error.field(), Some(field), "{code}");
        assert_eq!(error.kind(), RefusalKind::Invalid, "{code}");
        assert!(error.to_string().ends_with('.'), "{code}: {error}");
    }
}

#[test]
fn der_lengths_round_trip_across_the_short_and_long_forms() {
    for length in [0, 1, 127, 128, 255, 256, 70_000] {
        let content = vec![7u8; length];
        let written = der_write(0x04, &content);
        let (tag, read, rest) = der_read(&written).unwrap();
        assert_eq!((tag, read.len(), rest.len()), (0x04, length, 0));
    }
    assert_eq!(
        der_read(&[0x04, 0x85, 1, 1, 1, 1, 1]),
        None,
        "lengths past 4 bytes are refused"
    );
    assert_eq!(
        der_read(&[0x04, 0x05, 1]),
        None,
        "content shorter than its length"
    );
}
