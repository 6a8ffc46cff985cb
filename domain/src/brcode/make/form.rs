//! The web form's raw inputs made into a code, and the preview shown while it is filled in.

use super::*;

/// The web form's raw inputs, exactly as submitted (blank strings for empty inputs).
///
/// ```
/// use domain::brcode::{make_static_from_form, StaticCodeForm};
///
/// let form = StaticCodeForm {
///     key: "(11) 91234-5678".into(),
///     key_kind: "telefone".into(),
///     merchant_name: "Açaí da Praça".into(),
///     merchant_city: "Belém".into(),
///     amount: "R$ 15,00".into(),
///     ..StaticCodeForm::default()
/// };
/// let made = make_static_from_form(&form).unwrap();
/// assert_eq!(made.merchant_name, "ACAI DA PRACA");
/// assert_eq!(made.changes.len(), 3); // key, name, city
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StaticCodeForm {
    /// The key as typed.
    pub key: String,
    /// The key kind chosen (`cpf`, `cnpj`, `email`, `telefone`, `aleatoria`); blank to detect.
    pub key_kind: String,
    /// The receiver's name.
    pub merchant_name: String,
    /// The city.
    pub merchant_city: String,
    /// The amount in pt-BR (`12,50`); blank to let the payer type it.
    pub amount: String,
    /// The txid; blank for none.
    pub txid: String,
    /// The message for the payer; blank for none.
    pub additional_info: String,
    /// The CEP; blank for none.
    pub postal_code: String,
    /// Single payment only.
    pub single_use: bool,
}

/// What the form's values will become, and what is wrong with them, field by field — for live
/// feedback before the code is made. Values that are fine are filled in even when others fail.
///
/// ```
/// use domain::brcode::{preview_form, Field, StaticCodeForm};
///
/// let preview = preview_form(&StaticCodeForm {
///     key: "529.982.247-24".into(),
///     merchant_name: "São Paulo Doces".into(),
///     merchant_city: "São Paulo".into(),
///     ..StaticCodeForm::default()
/// });
/// assert_eq!(preview.merchant_name.as_deref(), Some("SAO PAULO DOCES"));
/// assert_eq!(preview.errors.len(), 1);
/// assert_eq!(preview.errors[0].field(), Field::PixKey);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FormPreview {
    /// The key in DICT form.
    pub key: Option<PixKey>,
    /// Field 59 as it will be written.
    pub merchant_name: Option<String>,
    /// Field 60 as it will be written.
    pub merchant_city: Option<String>,
    /// Field 26-02 as it will be written.
    pub additional_info: Option<String>,
    /// The amount.
    pub amount: Option<Centavos>,
    /// The txid (`None` → `***`).
    pub txid: Option<String>,
    /// The CEP.
    pub postal_code: Option<String>,
    /// What will be written differently from how it was typed.
    pub changes: Vec<Change>,
    /// Everything that must be fixed, one entry per problem, each naming its field.
    pub errors: Vec<BrCodeError>,
}

/// Reads and checks every input of the form at once.
///
/// ```
/// use domain::brcode::{preview_form, StaticCodeForm};
/// let preview = preview_form(&StaticCodeForm { amount: "0,00".into(), ..StaticCodeForm::default() });
/// let codes: Vec<_> = preview.errors.iter().map(|e| e.code()).collect();
/// assert_eq!(codes, ["key-empty", "merchant-name-missing", "merchant-city-missing", "amount-zero"]);
/// ```
#[must_use]
pub fn preview_form(form: &StaticCodeForm) -> FormPreview {
    let mut p = FormPreview::default();
    let errors = &mut p.errors;
    let kind = if form.key_kind.trim().is_empty() {
        Ok(None)
    } else {
        form.key_kind.parse::<PixKeyKind>().map(Some)
    };
    p.key = take(
        kind.and_then(|kind| PixKey::parse(&form.key, kind))
            .map_err(BrCodeError::from),
        errors,
    );
    if let Some(key) = &p.key
        && key.as_str() != form.key
    {
        p.changes.push(Change {
            field: Field::PixKey,
            before: form.key.clone(),
            after: key.as_str().to_owned(),
            reasons: vec![ChangeReason::KeyFormatted],
        });
    }
    for (result, slot) in [
        (normalise_name(&form.merchant_name), &mut p.merchant_name),
        (normalise_city(&form.merchant_city), &mut p.merchant_city),
    ] {
        if let Some(n) = take(result, errors) {
            p.changes.extend(n.change);
            *slot = Some(n.text);
        }
    }
    if !form.amount.trim().is_empty() {
        let amount = Centavos::parse_br(&form.amount).map_err(BrCodeError::from);
        p.amount = take(amount.and_then(|a| check_amount(a).map(|_| a)), errors);
    }
    if let Some(info) = take(normalise_info(&form.additional_info), errors).flatten() {
        let max = p.key.as_ref().map_or(72, max_additional_info_len);
        if info.text.len() > max {
            errors.push(BrCodeError::AdditionalInfoTooLong {
                len: info.text.len(),
                max,
            });
        } else {
            p.changes.extend(info.change);
            p.additional_info = Some(info.text);
        }
    }
    p.txid = take(check_txid(&form.txid), errors).flatten();
    if let Some((cep, change)) = take(check_postal_code(&form.postal_code), errors).flatten() {
        p.changes.extend(change);
        p.postal_code = Some(cep);
    }
    p
}

/// Makes a static code straight from the form's raw inputs, reporting every field error at once.
///
/// # Errors
/// Every problem, each naming its [`Field`], in form order.
///
/// ```
/// use domain::brcode::{make_static_from_form, StaticCodeForm};
///
/// let errors = make_static_from_form(&StaticCodeForm {
///     key: "11999999975".into(), // a valid CPF *and* a plausible mobile
///     merchant_name: "Ana".into(),
///     merchant_city: "Natal".into(),
///     txid: "pedido 1".into(),
///     ..StaticCodeForm::default()
/// }).unwrap_err();
/// assert_eq!(errors.iter().map(|e| e.code()).collect::<Vec<_>>(), ["key-ambiguous", "txid-invalid-character"]);
/// ```
pub fn make_static_from_form(form: &StaticCodeForm) -> Result<Made, Vec<BrCodeError>> {
    let preview = preview_form(form);
    let changes = preview.changes.clone();
    let request = preview.into_request(form.single_use)?;
    // The values are already normalised, so this second pass reports no changes of its own.
    make_static(&request).map(|mut made| {
        made.changes = changes;
        made
    })
}

impl FormPreview {
    /// The request the previewed values make, for a caller that shows the review first and makes
    /// the code (or sends a command) later.
    ///
    /// # Errors
    /// The preview's errors, when it has any.
    ///
    /// ```
    /// use domain::brcode::{preview_form, StaticCodeForm};
    ///
    /// let preview = preview_form(&StaticCodeForm {
    ///     key: "loja@example.com".into(),
    ///     merchant_name: "Açaí".into(),
    ///     merchant_city: "Belém".into(),
    ///     ..StaticCodeForm::default()
    /// });
    /// let request = preview.into_request(false).unwrap();
    /// assert_eq!(request.merchant_name, "ACAI");
    /// ```
    pub fn into_request(self, single_use: bool) -> Result<StaticCodeRequest, Vec<BrCodeError>> {
        if !self.errors.is_empty() {
            return Err(self.errors);
        }
        let (Some(key), Some(merchant_name), Some(merchant_city)) =
            (self.key, self.merchant_name, self.merchant_city)
        else {
            unreachable!("preview_form reports an error for every missing mandatory value");
        };
        Ok(StaticCodeRequest {
            key,
            merchant_name,
            merchant_city,
            amount: self.amount,
            txid: self.txid,
            additional_info: self.additional_info,
            postal_code: self.postal_code,
            single_use,
        })
    }
}
