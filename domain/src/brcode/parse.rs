//! Reading BR Codes at three depths:
//!
//! * [`decode`]: structure only (TLV walk, templates), no rules, not even the CRC;
//! * [`parse`] (lenient): well-formed TLV, a matching CRC and every mandatory field — what real
//!   payer apps accept. Broken BCB rules that payer apps tolerate come back as warnings
//!   ([`Warning::BreaksStrictRule`]);
//! * [`validate_strict`]: every BCB rule; each violation is an error. This is the `valid` flag
//!   of the shared test vectors.
//!
//! [`inspect`] runs everything and reports it all at once (the CLI's `parse` command).
//!
//! Surrounding whitespace is trimmed first, as copy-and-paste adds it.
//!
//! ```
//! use domain::brcode::parse;
//!
//! // A dynamic code from a large PSP that (against the manual) carries a txid:
//! let stone = "00020101021226820014br.gov.bcb.pix2560pix.stone.com.br/pix/v2/234e3f9d-7cb3-4b29-9d46-974796d0bb29520400005303986540527.005802BR5925PERFECT PAY TECNOLOGIA SE6014RIO DE JANEIRO622905255ddb94f8bd33c3bfd1ad38e3b6304AE32";
//! let lenient = parse::parse(stone).unwrap();
//! assert!(lenient.warnings.iter().any(|w| w.code() == "dynamic-txid-not-stars"));
//! let strict = parse::validate_strict(stone).unwrap_err();
//! assert_eq!(strict[0].code(), "dynamic-txid-not-stars");
//! ```

use super::error::{BrCodeError, Field, Warning};
use super::fields::BrCode;
use super::tlv;
use super::validate::{self, CrcState, Findings, Severity};

/// A code that passed a parse, with what deserves attention.
///
/// ```
/// let parsed = domain::brcode::parse::parse("00020126580014BR.GOV.BCB.PIX0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D");
/// assert!(parsed.is_err()); // CRC computed over the lower-case GUI: the code was altered
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parsed {
    /// The decoded code.
    pub code: BrCode,
    /// Interoperability risks (and, from [`parse`], tolerated rule breaks).
    pub warnings: Vec<Warning>,
}

/// The full report on a payload: used by the CLI and by anything that shows a diagnosis.
///
/// ```
/// use domain::brcode::parse::inspect;
///
/// let report = inspect("00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D");
/// assert!(report.valid && report.crc_valid);
/// assert!(report.errors.is_empty());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inspection {
    /// The decoded code, when the TLV structure could be walked.
    pub code: Option<BrCode>,
    /// True when the payload ends with `6304` + a CRC that matches.
    pub crc_valid: bool,
    /// True when no rule is broken (strict validity).
    pub valid: bool,
    /// True when the lenient parser accepts the code (what payer apps accept).
    pub accepted: bool,
    /// Every broken rule, in field order.
    pub errors: Vec<BrCodeError>,
    /// Interoperability risks.
    pub warnings: Vec<Warning>,
}

/// Walks the TLV structure and builds the typed view, checking nothing else.
///
/// # Errors
/// [`BrCodeError::PayloadEmpty`] or [`BrCodeError::Tlv`] when the structure is broken.
///
/// ```
/// use domain::brcode::parse::decode;
/// assert_eq!(decode("00020126990014br.gov.bcb.pix6304BEFF").unwrap_err().code(), "tlv-value-too-short");
/// ```
pub fn decode(payload: &str) -> Result<BrCode, BrCodeError> {
    let payload = payload.trim();
    if payload.is_empty() {
        return Err(BrCodeError::PayloadEmpty);
    }
    let objects = tlv::parse(payload)?;
    Ok(BrCode::from_objects(objects)?)
}

/// Runs every check and keeps the severities.
fn findings(payload: &str) -> (Option<BrCode>, CrcState, Findings) {
    let payload = payload.trim();
    let mut findings = Findings::default();
    if payload.is_empty() {
        findings
            .errors
            .push((Severity::Fatal, BrCodeError::PayloadEmpty));
        return (None, CrcState::Missing, findings);
    }
    let crc = validate::crc_state(payload);
    validate::check_crc(&crc, &mut findings);
    let code = match decode(payload) {
        Ok(code) => {
            validate::examine(payload, &code, &crc, &mut findings);
            Some(code)
        }
        Err(e) => {
            findings.errors.push((Severity::Fatal, e));
            name_stray_character(payload, &mut findings);
            None
        }
    };
    (code, crc, findings)
}

/// When the structure is broken, a character outside the alphabet is the likeliest cause (a
/// generator that counted UTF-8 bytes): name the field it sits in, as far as the walk reaches,
/// unless that is template 64. A decoded code gets the same check field by field instead.
fn name_stray_character(payload: &str, findings: &mut Findings) {
    let stray = payload
        .chars()
        .enumerate()
        .filter(|(_, c)| !validate::in_alphabet(*c))
        .map(|(at, ch)| (at, ch, tlv::path_at(payload, at)))
        .find(|(_, _, path)| !path.as_deref().is_some_and(|p| p.starts_with("64")));
    if let Some((at, ch, path)) = stray {
        let field = path
            .as_deref()
            .map_or(Field::Payload, validate::field_of_guessed_path);
        findings.errors.push((
            Severity::Strict,
            BrCodeError::CharacterOutsideAlphabet {
                path,
                field,
                ch,
                at,
            },
        ));
    }
}

/// Lenient parse: accepts what real payer apps accept (well-formed TLV, matching CRC, every
/// mandatory field). BCB rules that are broken but tolerated come back as
/// [`Warning::BreaksStrictRule`], after the interoperability warnings.
///
/// # Errors
/// The fatal problems, in field order.
///
/// ```
/// use domain::brcode::parse::parse;
///
/// let parsed = parse(" 00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D\n")?;
/// assert_eq!(parsed.code.pix_key(), Some("123e4567-e12b-12d1-a456-426655440000"));
/// assert!(parsed.warnings.is_empty());
/// # Ok::<(), Vec<domain::brcode::BrCodeError>>(())
/// ```
pub fn parse(payload: &str) -> Result<Parsed, Vec<BrCodeError>> {
    let (code, _, findings) = findings(payload);
    let (fatal, strict): (Vec<_>, Vec<_>) = findings
        .errors
        .into_iter()
        .partition(|(severity, _)| *severity == Severity::Fatal);
    match code {
        Some(code) if fatal.is_empty() => {
            let mut warnings = findings.warnings;
            warnings.extend(
                strict
                    .into_iter()
                    .map(|(_, e)| Warning::BreaksStrictRule(e)),
            );
            Ok(Parsed { code, warnings })
        }
        _ => Err(fatal.into_iter().map(|(_, e)| e).collect()),
    }
}

/// Strict validation: every BCB rule; each violation is an error.
///
/// # Errors
/// Every broken rule (fatal or not), in field order.
///
/// ```
/// use domain::brcode::parse::validate_strict;
///
/// let underscore = "00020126380014BR.GOV.BCB.PIX0116test@mail.com.br5204000053039865802BR5913FULANO DE TAL6009SAO PAULO62210517my_transaction_id630461CE";
/// let errors = validate_strict(underscore).unwrap_err();
/// assert_eq!(errors[0].to_string(), "O identificador da transação (txid) só aceita letras sem acento e números; “_” não é aceito.");
/// ```
pub fn validate_strict(payload: &str) -> Result<Parsed, Vec<BrCodeError>> {
    let (code, _, findings) = findings(payload);
    match code {
        Some(code) if findings.errors.is_empty() => Ok(Parsed {
            code,
            warnings: findings.warnings,
        }),
        _ => Err(findings.errors.into_iter().map(|(_, e)| e).collect()),
    }
}

/// Runs every check and reports everything, whatever the outcome.
///
/// ```
/// use domain::brcode::parse::inspect;
///
/// let report = inspect("00020126730014br.gov.bcb.pix0136e57b119f-3f91-4734-93f0-29d6a9c02b0a0211CestaLivres520400005303986540522.005802BR5913Milena Savini6009Sao Paulo622605221wDQuczihqxiuSkkkLu0aS6304EA9");
/// assert!(!report.crc_valid);
/// assert_eq!(report.errors[0].code(), "crc-missing");
/// ```
#[must_use]
pub fn inspect(payload: &str) -> Inspection {
    let (code, crc, findings) = findings(payload);
    let accepted = code.is_some() && findings.errors.iter().all(|(s, _)| *s != Severity::Fatal);
    let errors: Vec<BrCodeError> = findings.errors.into_iter().map(|(_, e)| e).collect();
    Inspection {
        valid: code.is_some() && errors.is_empty(),
        accepted,
        crc_valid: matches!(crc, CrcState::Valid { .. }),
        code,
        errors,
        warnings: findings.warnings,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MANUAL_STATIC: &str = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D";

    /// Rewrites the CRC so a test can change a field and still isolate the rule it targets.
    fn with_crc(body_up_to_6304: &str) -> String {
        let crc = super::super::crc::crc_hex(body_up_to_6304);
        format!("{body_up_to_6304}{}", String::from_utf8_lossy(&crc))
    }

    fn codes(errors: &[BrCodeError]) -> Vec<&'static str> {
        errors.iter().map(BrCodeError::code).collect()
    }

    #[test]
    fn accepts_the_manual_static_example_at_both_levels() {
        assert!(parse(MANUAL_STATIC).is_ok());
        assert!(validate_strict(MANUAL_STATIC).is_ok());
    }

    #[test]
    fn refuses_a_tampered_crc_at_both_levels() {
        let tampered = MANUAL_STATIC.replace("1D3D", "1D3E");
        assert_eq!(codes(&parse(&tampered).unwrap_err()), ["crc-mismatch"]);
        assert_eq!(
            codes(&validate_strict(&tampered).unwrap_err()),
            ["crc-mismatch"]
        );
    }

    #[test]
    fn accepts_a_lower_case_crc_with_a_warning() {
        let lower = MANUAL_STATIC.replace("1D3D", "1d3d");
        let parsed = validate_strict(&lower).unwrap();
        assert_eq!(parsed.warnings, vec![Warning::CrcLowercase]);
    }

    #[test]
    fn refuses_a_code_whose_crc_is_not_the_last_object() {
        let body = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***6304";
        // A template after 63 whose value ends like a CRC, so the CRC itself matches.
        let payload = with_crc(&format!("{body}ABCD99086304"));
        assert_eq!(
            codes(&validate_strict(&payload).unwrap_err()),
            ["crc-missing"]
        );
    }

    #[test]
    fn reports_a_missing_txid_as_fatal() {
        let body = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA6304";
        assert_eq!(
            codes(&parse(&with_crc(body)).unwrap_err()),
            ["txid-missing"]
        );
    }

    #[test]
    fn tolerates_a_bad_txid_when_lenient_and_refuses_it_when_strict() {
        let body = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62090505ab-cd6304";
        let payload = with_crc(body);
        let lenient = parse(&payload).unwrap();
        assert_eq!(lenient.warnings.len(), 1);
        assert_eq!(lenient.warnings[0].code(), "txid-invalid-character");
        assert_eq!(
            codes(&validate_strict(&payload).unwrap_err()),
            ["txid-invalid-character"]
        );
    }

    #[test]
    fn refuses_a_txid_over_25_characters_when_strict() {
        let body = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62300526abcdefghijklmnopqrstuvwxyz6304";
        assert_eq!(
            codes(&validate_strict(&with_crc(body)).unwrap_err()),
            ["txid-too-long"]
        );
    }

    #[test]
    fn refuses_a_key_and_a_url_together() {
        let body = "00020126800014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400002518pix.example.com/ab5204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***6304";
        assert_eq!(
            codes(&parse(&with_crc(body)).unwrap_err()),
            ["pix-account-with-key-and-url"]
        );
    }

    #[test]
    fn refuses_a_code_without_the_pix_gui() {
        let body = "00020126580014br.gov.bcb.spi0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***6304";
        assert_eq!(
            codes(&parse(&with_crc(body)).unwrap_err()),
            ["pix-account-missing"]
        );
    }

    #[test]
    fn finds_the_pix_template_in_any_id_from_26_to_51() {
        let body = "00020127580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***6304";
        let parsed = validate_strict(&with_crc(body)).unwrap();
        assert_eq!(parsed.code.merchant_account.unwrap().id, 27);
    }

    #[test]
    fn allows_a_zero_amount_in_a_pix_saque_code_only() {
        let saque = "00020126700014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-42665544000003089999900852040000530398654040.005802BR5903Pix6008BRASILIA62070503***6304";
        assert!(validate_strict(&with_crc(saque)).is_ok());
        let plain = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-42665544000052040000530398654040.005802BR5903Pix6008BRASILIA62070503***6304";
        assert_eq!(
            codes(&validate_strict(&with_crc(plain)).unwrap_err()),
            ["amount-zero"]
        );
    }

    #[test]
    fn refuses_an_amount_over_13_characters() {
        let body = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000520400005303986541499999999999.995802BR5903Pix6008BRASILIA62070503***6304";
        assert_eq!(
            codes(&validate_strict(&with_crc(body)).unwrap_err()),
            ["amount-too-long"]
        );
    }

    #[test]
    fn warns_about_amounts_without_two_decimals() {
        let body = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-42665544000052040000530398654031985802BR5903Pix6008BRASILIA62070503***6304";
        let parsed = validate_strict(&with_crc(body)).unwrap();
        assert_eq!(
            parsed.warnings,
            vec![Warning::AmountNotCanonical {
                found: "198".into()
            }]
        );
    }

    #[test]
    fn refuses_https_inside_the_url_field() {
        let body = "00020101021226540014br.gov.bcb.pix2532https://pix.thalesogliari.com.br5204000053039865802BR5914Thales Ogliari6009SAO PAULO62070503***6304";
        assert_eq!(
            validate_strict(&with_crc(body)).unwrap_err(),
            vec![BrCodeError::UrlHasScheme {
                scheme: "https://".into()
            }]
        );
    }

    #[test]
    fn reports_every_problem_at_once_when_inspecting() {
        let report = inspect(
            "00020126700014br.gov.bcb.pix0136403f6c37-bb1d-48aa-a61c-0f6a205764d80208[Pix.ae]5204000053039865802BR5903Pix6003Pix63040000",
        );
        assert!(!report.crc_valid && !report.valid && !report.accepted);
        assert_eq!(codes(&report.errors), ["crc-mismatch", "txid-missing"]);
        assert!(report.code.is_some());
    }

    #[test]
    fn writes_back_a_decoded_code_with_an_empty_field() {
        // Found by cargo-fuzz in its first seconds: "0000" (ID 00, length 00) decoded, but
        // writing it back tripped the builder's non-empty assertion.
        let code = decode("0000").unwrap();
        assert_eq!(code.to_payload(), "0000");
        let report = inspect("0000");
        assert!(report.errors.iter().any(|e| e.code() == "empty-value"));
    }

    #[test]
    fn warns_about_a_near_miss_key_with_its_dict_form() {
        let body = "00020126330014br.gov.bcb.pix0111719960747345204000053039865802BR5910LOJA TESTE6009SAO PAULO62070503***6304";
        let parsed = validate_strict(&with_crc(body)).unwrap();
        assert_eq!(
            parsed.warnings,
            vec![Warning::KeyNotCanonical {
                found: "71996074734".into(),
                dict_form: Ok("+5571996074734".into()),
            }]
        );
    }

    #[test]
    fn refuses_a_key_no_dict_kind_can_hold_at_both_levels() {
        let body = "00020126300014br.gov.bcb.pix0108912345675204000053039865802BR5910LOJA TESTE6009SAO PAULO62070503***6304";
        let expected = vec![BrCodeError::KeyInvalid {
            found: "91234567".into(),
            ch: None,
        }];
        assert_eq!(parse(&with_crc(body)).unwrap_err(), expected);
        assert_eq!(validate_strict(&with_crc(body)).unwrap_err(), expected);
    }

    #[test]
    fn names_the_accented_field_when_a_byte_counted_length_breaks_the_walk() {
        // "BRASÍLIA" is 8 characters and 9 UTF-8 bytes; the generator wrote 09.
        let body = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5910LOJA TESTE6009BRASÍLIA62070503***6304";
        let report = inspect(&with_crc(body));
        assert!(report.code.is_none());
        assert_eq!(
            codes(&report.errors),
            ["tlv-value-too-short", "character-outside-alphabet"]
        );
        assert_eq!(
            report.errors[1],
            BrCodeError::CharacterOutsideAlphabet {
                path: Some("60".into()),
                field: Field::MerchantCity,
                ch: 'Í',
                at: 111,
            }
        );
    }

    #[test]
    fn tolerates_an_accent_when_lenient_and_refuses_it_when_strict() {
        let body = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5910LOJA TESTE6006MACEIÓ62070503***6304";
        let payload = with_crc(body);
        let lenient = parse(&payload).unwrap();
        assert_eq!(
            lenient
                .warnings
                .iter()
                .map(Warning::code)
                .collect::<Vec<_>>(),
            ["character-outside-alphabet"]
        );
        assert_eq!(
            codes(&validate_strict(&payload).unwrap_err()),
            ["character-outside-alphabet"]
        );
    }

    #[test]
    fn accepts_any_character_in_the_language_template_64() {
        let body = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5910LOJA TESTE6006MACEIO64180002pt0108SÃO JOÃO62070503***6304";
        assert!(validate_strict(&with_crc(body)).is_ok());
    }

    #[test]
    fn reports_an_empty_payload() {
        assert_eq!(parse("  ").unwrap_err(), vec![BrCodeError::PayloadEmpty]);
        assert_eq!(decode(""), Err(BrCodeError::PayloadEmpty));
    }
}
