//! The settings form's values as the account stores them: a display name, a Brazilian phone in
//! `+55DDNNNNNNNNN` form, and the default receiver name and city in BR Code form.
//!
//! Pure functions; every refusal is a 422 `invalid-argument` naming the request's field.

use domain::brcode::normalise::{normalise_city, normalise_name};
use domain::pix_key::{Phone, PixKeyError};

use crate::api::brcode::brcode_error;
use crate::error::ApiError;

/// A Brazilian phone number typed with or without its mask (`(11) 91234-5678`, `11912345678`,
/// `+55 11 3456-7890`), as `+55` + DDD + number. Blank means "no phone".
///
/// Ten digits after removing the mask (and a leading `55`) are a landline, eleven a mobile. The
/// DDD and the mobile's leading 9 are checked by the same rules as phone Pix keys
/// ([`Phone::parse`]), so the list of area codes lives in one place; a landline starts with 2
/// to 5 after the DDD.
///
/// # Errors
///
/// 422 on `phoneNumber`.
pub fn phone_number(input: &str) -> Result<Option<String>, ApiError> {
    let typed = input.trim();
    if typed.is_empty() {
        return Ok(None);
    }
    let refuse = |message: String| ApiError::invalid_argument("phoneNumber", message);
    let (international, rest) = match typed.strip_prefix('+') {
        Some(rest) => (true, rest),
        None => (false, typed),
    };
    let mut digits = String::with_capacity(13);
    for ch in rest.chars() {
        match ch {
            '0'..='9' => digits.push(ch),
            ' ' | '(' | ')' | '-' | '.' => {}
            other => {
                return Err(refuse(format!(
                    "O telefone só pode ter números, espaços, parênteses e traço; “{other}” não é aceito."
                )));
            }
        }
    }
    let national = if international {
        digits
            .strip_prefix("55")
            .ok_or_else(|| refuse("Informe um telefone do Brasil (+55).".to_owned()))?
    } else if digits.len() > 11 && digits.starts_with("55") {
        &digits[2..]
    } else {
        &digits
    };
    match national.len() {
        11 => Phone::parse(national)
            .map(|phone| Some(phone.as_str().to_owned()))
            .map_err(|error| refuse(phone_message(&error))),
        10 => {
            // The DDD is checked by reading the number as a mobile: only the area code can then
            // be wrong, and the list of codes stays in the domain.
            let as_mobile = format!("{}9{}", &national[..2], &national[2..]);
            if let Err(error @ PixKeyError::PhoneUnknownAreaCode(_)) = Phone::parse(&as_mobile) {
                return Err(refuse(error.to_string()));
            }
            if !matches!(national.as_bytes()[2], b'2'..=b'5') {
                return Err(refuse(
                    "Telefone fixo começa com 2, 3, 4 ou 5 depois do DDD; celular tem 9 dígitos depois do DDD."
                        .to_owned(),
                ));
            }
            Ok(Some(format!("+55{national}")))
        }
        n => Err(refuse(format!(
            "Informe o telefone com DDD: 10 dígitos (fixo) ou 11 (celular); este tem {n}."
        ))),
    }
}

fn phone_message(error: &PixKeyError) -> String {
    match error {
        PixKeyError::PhoneNotMobile => {
            "Celular tem 9 depois do DDD, como (11) 91234-5678.".to_owned()
        }
        other => other.to_string(),
    }
}

/// The default receiver name as a BR Code will carry it; blank means "none".
///
/// # Errors
///
/// 422 on `defaultMerchantName` with the BR Code engine's message.
pub fn merchant_name(input: Option<&str>) -> Result<Option<String>, ApiError> {
    match input.map(str::trim) {
        None | Some("") => Ok(None),
        Some(name) => normalise_name(name)
            .map(|n| Some(n.text))
            .map_err(|e| brcode_error("defaultMerchantName", &e)),
    }
}

/// The default city as a BR Code will carry it; blank means "none".
///
/// # Errors
///
/// 422 on `defaultMerchantCity` with the BR Code engine's message.
pub fn merchant_city(input: Option<&str>) -> Result<Option<String>, ApiError> {
    match input.map(str::trim) {
        None | Some("") => Ok(None),
        Some(city) => normalise_city(city)
            .map(|n| Some(n.text))
            .map_err(|e| brcode_error("defaultMerchantCity", &e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masked_and_bare_phones_are_stored_with_plus_55_once() {
        for typed in [
            "(11) 91234-5678",
            "11912345678",
            "+55 (11) 91234-5678",
            "5511912345678",
        ] {
            assert_eq!(
                phone_number(typed).unwrap().as_deref(),
                Some("+5511912345678"),
                "{typed}"
            );
        }
        assert_eq!(
            phone_number("(61) 3456-7890").unwrap().as_deref(),
            Some("+556134567890")
        );
        assert_eq!(phone_number("   ").unwrap(), None);
    }

    #[test]
    fn wrong_lengths_area_codes_and_characters_are_refused_on_the_phone_field() {
        for typed in [
            "1234",
            "(11) 81234-5678",
            "(20) 3456-7890",
            "(20) 91234-5678",
            "(11) 9456-7890",
            "+1 415 555 0100",
            "11 91234-567a",
            "(11) 91234-56789",
        ] {
            let error = phone_number(typed).expect_err(typed);
            assert_eq!(error.field(), Some("phoneNumber"), "{typed}");
            assert_eq!(error.code(), "invalid-argument");
        }
    }

    #[test]
    fn defaults_are_written_as_the_code_will_carry_them() {
        assert_eq!(
            merchant_name(Some(" Padaria São João "))
                .unwrap()
                .as_deref(),
            Some("PADARIA SAO JOAO")
        );
        assert_eq!(
            merchant_city(Some("Belém")).unwrap().as_deref(),
            Some("BELEM")
        );
        assert_eq!(merchant_city(Some("  ")).unwrap(), None);
        assert_eq!(merchant_name(None).unwrap(), None);
        let error = merchant_city(Some("Vila Bela da Santíssima Trindade")).expect_err("long");
        assert_eq!(error.field(), Some("defaultMerchantCity"));
    }
}
