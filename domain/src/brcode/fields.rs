//! The decoded BR Code: every field the Pix profile names, the Pix and Pix Automático templates,
//! and every other data object kept as it came (unknown tags are never dropped).

use std::fmt;

use serde_json::{Map, Value};

use super::tlv::{self, DataObject};
use crate::money::Centavos;

/// The GUI that marks the Pix template, as BCB writes it. Compared case-insensitively.
///
/// ```
/// assert!("BR.GOV.BCB.PIX".eq_ignore_ascii_case(domain::brcode::PIX_GUI));
/// ```
pub const PIX_GUI: &str = "br.gov.bcb.pix";

/// The 26–51 template that carries `br.gov.bcb.pix`.
///
/// ```
/// use domain::brcode::parse;
///
/// let code = parse::decode("00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D")?;
/// let account = code.merchant_account.unwrap();
/// assert_eq!(account.id, 26);
/// assert_eq!(account.key.as_deref(), Some("123e4567-e12b-12d1-a456-426655440000"));
/// # Ok::<(), domain::brcode::BrCodeError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PixAccount {
    /// Where it was found (26 in every real code).
    pub id: u8,
    /// The GUI as written (`br.gov.bcb.pix`, sometimes upper-case).
    pub gui: String,
    /// 26-01, the Pix key (static codes).
    pub key: Option<String>,
    /// 26-02, free text shown to the payer.
    pub additional_info: Option<String>,
    /// 26-03, ISPB of the Pix Saque/Troco facilitator.
    pub fss: Option<String>,
    /// 26-25, the location of a dynamic code (without scheme).
    pub url: Option<String>,
    /// Any other sub-field, kept in order.
    pub other: Vec<DataObject>,
    /// All sub-fields as they came, for checks that need the raw list.
    pub(crate) children: Vec<DataObject>,
}

/// Template 62, Additional Data Field.
///
/// ```
/// use domain::brcode::AdditionalData;
/// let data = AdditionalData { txid: Some("***".into()), other: vec![] };
/// assert!(data.txid.is_some());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AdditionalData {
    /// 62-05, the txid (`***` when there is none).
    pub txid: Option<String>,
    /// Any other sub-field (e.g. 62-50, the BR Code version template), kept in order.
    pub other: Vec<DataObject>,
}

/// An 80–99 template carrying the Pix GUI: the Pix Automático (recurrence) location.
///
/// ```
/// use domain::brcode::parse;
///
/// let code = parse::decode("00020126180014br.gov.bcb.pix5204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***80740014br.gov.bcb.pix2552pix.example.com/rec/2353c790eefb11eaadc10242ac1200026304F2DA")?;
/// let rec = code.recurrence.unwrap();
/// assert_eq!(rec.id, 80);
/// assert_eq!(rec.url.as_deref(), Some("pix.example.com/rec/2353c790eefb11eaadc10242ac120002"));
/// # Ok::<(), domain::brcode::BrCodeError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recurrence {
    /// Where it was found (80 in every known code).
    pub id: u8,
    /// The GUI as written.
    pub gui: String,
    /// Sub-field 25, the recurrence location (without scheme).
    pub url: Option<String>,
    /// Any other sub-field, kept in order.
    pub other: Vec<DataObject>,
}

/// What kind of Pix code this is.
///
/// ```
/// use domain::brcode::CodeKind;
/// assert_eq!(CodeKind::DynamicWithRecurrence.as_str(), "dynamic+rec");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CodeKind {
    /// A key in 26-01: the payer's app looks the key up in the DICT.
    Static,
    /// A location in 26-25: the payer's app fetches the signed charge.
    Dynamic,
    /// A static code plus a Pix Automático location.
    StaticWithRecurrence,
    /// A dynamic code plus a Pix Automático location.
    DynamicWithRecurrence,
    /// Only a Pix Automático location (26 holds just the GUI).
    RecurrenceOnly,
}

impl CodeKind {
    /// The name used in JSON (`static`, `dynamic`, `static+rec`, `dynamic+rec`, `rec-only`).
    ///
    /// ```
    /// assert_eq!(domain::brcode::CodeKind::RecurrenceOnly.as_str(), "rec-only");
    /// ```
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Static => "static",
            Self::Dynamic => "dynamic",
            Self::StaticWithRecurrence => "static+rec",
            Self::DynamicWithRecurrence => "dynamic+rec",
            Self::RecurrenceOnly => "rec-only",
        }
    }

    /// True when the payment data comes from a location (the txid must be `***`).
    ///
    /// ```
    /// assert!(domain::brcode::CodeKind::Dynamic.is_dynamic());
    /// assert!(!domain::brcode::CodeKind::RecurrenceOnly.is_dynamic());
    /// ```
    #[must_use]
    pub const fn is_dynamic(self) -> bool {
        matches!(self, Self::Dynamic | Self::DynamicWithRecurrence)
    }
}

impl fmt::Display for CodeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A decoded BR Code. Field values are raw, exactly as in the payload: decoding checks structure
/// only, and the rules are applied by [`parse`](super::parse::parse) and
/// [`validate_strict`](super::parse::validate_strict).
///
/// ```
/// use domain::brcode::{parse, CodeKind};
///
/// let code = parse::decode("00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D")?;
/// assert_eq!(code.kind(), Some(CodeKind::Static));
/// assert_eq!(code.merchant_name.as_deref(), Some("Fulano de Tal"));
/// assert_eq!(code.txid(), Some("***"));
/// # Ok::<(), domain::brcode::BrCodeError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrCode {
    /// 00.
    pub payload_format_indicator: Option<String>,
    /// 01 (`11` reusable, `12` single use).
    pub point_of_initiation_method: Option<String>,
    /// The Pix template (26–51).
    pub merchant_account: Option<PixAccount>,
    /// 52.
    pub merchant_category_code: Option<String>,
    /// 53.
    pub transaction_currency: Option<String>,
    /// 54, raw.
    pub transaction_amount: Option<String>,
    /// 58.
    pub country_code: Option<String>,
    /// 59.
    pub merchant_name: Option<String>,
    /// 60.
    pub merchant_city: Option<String>,
    /// 61.
    pub postal_code: Option<String>,
    /// 62.
    pub additional_data: Option<AdditionalData>,
    /// The Pix Automático template (80–99 with the Pix GUI).
    pub recurrence: Option<Recurrence>,
    /// 63, as written.
    pub crc: Option<String>,
    /// Every top-level object in payload order, including the ones above.
    pub(crate) objects: Vec<DataObject>,
}

impl BrCode {
    /// Builds the typed view over a list of top-level objects.
    ///
    /// # Errors
    /// A [`tlv::TlvError`] when a template (26–51, 62, 64, 80–99) is not well-formed TLV.
    pub(crate) fn from_objects(objects: Vec<DataObject>) -> Result<Self, tlv::TlvError> {
        let mut code = Self {
            payload_format_indicator: None,
            point_of_initiation_method: None,
            merchant_account: None,
            merchant_category_code: None,
            transaction_currency: None,
            transaction_amount: None,
            country_code: None,
            merchant_name: None,
            merchant_city: None,
            postal_code: None,
            additional_data: None,
            recurrence: None,
            crc: None,
            objects: Vec::new(),
        };
        let mut offset = 0;
        for object in &objects {
            let value_at = offset + 4;
            offset = value_at + object.len();
            let text = || Some(object.value.clone());
            match object.id {
                0 => code.payload_format_indicator = text(),
                1 => code.point_of_initiation_method = text(),
                52 => code.merchant_category_code = text(),
                53 => code.transaction_currency = text(),
                54 => code.transaction_amount = text(),
                58 => code.country_code = text(),
                59 => code.merchant_name = text(),
                60 => code.merchant_city = text(),
                61 => code.postal_code = text(),
                63 => code.crc = text(),
                62 => {
                    let children = tlv::parse_at(&object.value, value_at, "62")?;
                    let mut data = AdditionalData::default();
                    for child in children {
                        if child.id == 5 {
                            data.txid = Some(child.value);
                        } else {
                            data.other.push(child);
                        }
                    }
                    code.additional_data = Some(data);
                }
                26..=51 | 64 | 80..=99 => {
                    let children = tlv::parse_at(&object.value, value_at, tlv::id_str(object.id))?;
                    let gui = children
                        .iter()
                        .find(|c| c.id == 0)
                        .filter(|c| c.value.eq_ignore_ascii_case(PIX_GUI))
                        .map(|c| c.value.clone());
                    match (object.id, gui) {
                        (26..=51, Some(gui)) if code.merchant_account.is_none() => {
                            code.merchant_account =
                                Some(PixAccount::from_children(object.id, gui, children));
                        }
                        (80..=99, Some(gui)) if code.recurrence.is_none() => {
                            code.recurrence =
                                Some(Recurrence::from_children(object.id, gui, children));
                        }
                        _ => {}
                    }
                }
                _ => {}
            }
        }
        code.objects = objects;
        Ok(code)
    }

    /// Static, dynamic, composite or recurrence-only; `None` when the Pix template has neither
    /// a key nor a location (or has both), or is missing.
    ///
    /// ```
    /// use domain::brcode::{parse, CodeKind};
    /// let code = parse::decode("00020101021226700014br.gov.bcb.pix2548pix.example.com/8b3da2f39a4140d1a91abd93113bd4415204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***630464E4")?;
    /// assert_eq!(code.kind(), Some(CodeKind::Dynamic));
    /// # Ok::<(), domain::brcode::BrCodeError>(())
    /// ```
    #[must_use]
    pub fn kind(&self) -> Option<CodeKind> {
        let account = self.merchant_account.as_ref()?;
        let rec = self.recurrence_url().is_some();
        match (account.key.is_some(), account.url.is_some(), rec) {
            (true, false, false) => Some(CodeKind::Static),
            (true, false, true) => Some(CodeKind::StaticWithRecurrence),
            (false, true, false) => Some(CodeKind::Dynamic),
            (false, true, true) => Some(CodeKind::DynamicWithRecurrence),
            (false, false, true) => Some(CodeKind::RecurrenceOnly),
            _ => None,
        }
    }

    /// The Pix key (26-01) as written.
    ///
    /// ```
    /// # let code = domain::brcode::parse::decode("00020126360014br.gov.bcb.pix011412ABC34501DE35520400005303986540549.905802BR5912LOJA EXEMPLO6009SAO PAULO62150511PEDIDO1234563042AA8").unwrap();
    /// assert_eq!(code.pix_key(), Some("12ABC34501DE35"));
    /// ```
    #[must_use]
    pub fn pix_key(&self) -> Option<&str> {
        self.merchant_account.as_ref()?.key.as_deref()
    }

    /// The dynamic location (26-25) as written.
    ///
    /// ```
    /// # let code = domain::brcode::parse::decode("00020101021226700014br.gov.bcb.pix2548pix.example.com/8b3da2f39a4140d1a91abd93113bd4415204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***630464E4").unwrap();
    /// assert_eq!(code.url(), Some("pix.example.com/8b3da2f39a4140d1a91abd93113bd441"));
    /// ```
    #[must_use]
    pub fn url(&self) -> Option<&str> {
        self.merchant_account.as_ref()?.url.as_deref()
    }

    /// The Pix Automático location (25 inside the 80–99 Pix template).
    ///
    /// ```
    /// # let code = domain::brcode::parse::decode("00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D").unwrap();
    /// assert_eq!(code.recurrence_url(), None);
    /// ```
    #[must_use]
    pub fn recurrence_url(&self) -> Option<&str> {
        self.recurrence.as_ref()?.url.as_deref()
    }

    /// The txid (62-05) as written.
    ///
    /// ```
    /// # let code = domain::brcode::parse::decode("00020126360014br.gov.bcb.pix011412ABC34501DE35520400005303986540549.905802BR5912LOJA EXEMPLO6009SAO PAULO62150511PEDIDO1234563042AA8").unwrap();
    /// assert_eq!(code.txid(), Some("PEDIDO12345"));
    /// ```
    #[must_use]
    pub fn txid(&self) -> Option<&str> {
        self.additional_data.as_ref()?.txid.as_deref()
    }

    /// The amount in centavos, when field 54 is in a form EMV allows (`10`, `10.`, `10.5`,
    /// `10.50`).
    ///
    /// ```
    /// # let code = domain::brcode::parse::decode("00020126360014br.gov.bcb.pix011412ABC34501DE35520400005303986540549.905802BR5912LOJA EXEMPLO6009SAO PAULO62150511PEDIDO1234563042AA8").unwrap();
    /// assert_eq!(code.amount().map(|c| c.get()), Some(4_990));
    /// ```
    #[must_use]
    pub fn amount(&self) -> Option<Centavos> {
        Centavos::parse_emv(self.transaction_amount.as_deref()?).ok()
    }

    /// True when field 01 is `12`: the code is meant for one payment only.
    ///
    /// ```
    /// # let code = domain::brcode::parse::decode("00020101021226700014br.gov.bcb.pix2548pix.example.com/8b3da2f39a4140d1a91abd93113bd4415204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***630464E4").unwrap();
    /// assert!(code.is_single_use());
    /// ```
    #[must_use]
    pub fn is_single_use(&self) -> bool {
        self.point_of_initiation_method.as_deref() == Some("12")
    }

    /// Every top-level data object in payload order (unknown ones included).
    ///
    /// ```
    /// # let code = domain::brcode::parse::decode("00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D").unwrap();
    /// assert_eq!(code.objects().len(), 9);
    /// ```
    #[must_use]
    pub fn objects(&self) -> &[DataObject] {
        &self.objects
    }

    /// Top-level objects the Pix profile does not name (e.g. `04` card data, `27` another
    /// arrangement, `80` templates), in payload order. The Pix Automático template is listed
    /// here too, as well as in [`BrCode::recurrence`].
    ///
    /// ```
    /// # let code = domain::brcode::parse::decode("00020126180014br.gov.bcb.pix5204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***80740014br.gov.bcb.pix2552pix.example.com/rec/2353c790eefb11eaadc10242ac1200026304F2DA").unwrap();
    /// assert_eq!(code.other_objects().map(|o| o.id()).collect::<Vec<_>>(), [80]);
    /// ```
    pub fn other_objects(&self) -> impl Iterator<Item = &DataObject> {
        let account_id = self.merchant_account.as_ref().map(|a| a.id);
        self.objects.iter().filter(move |o| {
            !matches!(o.id, 0 | 1 | 52 | 53 | 54 | 58 | 59 | 60 | 61 | 62 | 63)
                && Some(o.id) != account_id
        })
    }

    /// Writes the objects back exactly as decoded (no normalisation): for a decoded payload this
    /// gives the payload back byte for byte.
    ///
    /// ```
    /// let payload = "00020126580014BR.GOV.BCB.PIX0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***6304ABCD";
    /// assert_eq!(domain::brcode::parse::decode(payload)?.to_payload(), payload);
    /// # Ok::<(), domain::brcode::BrCodeError>(())
    /// ```
    #[must_use]
    pub fn to_payload(&self) -> String {
        tlv::write(&self.objects)
    }

    /// The decoded fields as a JSON object, with the field names of the shared test vectors'
    /// `expected` objects; absent fields are omitted.
    ///
    /// Keys: `payload_format_indicator`, `point_of_initiation_method`,
    /// `merchant_account_information_id`, `gui`, `pix_key`, `url`, `additional_info`, `fss`,
    /// `merchant_category_code`, `transaction_currency`, `transaction_amount`, `country_code`,
    /// `merchant_name`, `merchant_city`, `postal_code`, `txid`, `crc`, `other_fields` (unknown
    /// objects by ID, templates as nested objects, plus `26_other_subfields` and
    /// `62_other_subfields`), `recurrence_url`, `detected_type`.
    ///
    /// ```
    /// let code = domain::brcode::parse::decode("00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D")?;
    /// let fields = code.fields_json();
    /// assert_eq!(fields["merchant_city"], "BRASILIA");
    /// assert_eq!(fields["detected_type"], "static");
    /// assert!(fields.get("transaction_amount").is_none());
    /// # Ok::<(), domain::brcode::BrCodeError>(())
    /// ```
    #[must_use]
    pub fn fields_json(&self) -> Value {
        let mut map = Map::new();
        let mut put = |name: &str, value: Option<&str>| {
            if let Some(v) = value {
                map.insert(name.to_owned(), Value::String(v.to_owned()));
            }
        };
        let account = self.merchant_account.as_ref();
        put(
            "payload_format_indicator",
            self.payload_format_indicator.as_deref(),
        );
        put(
            "point_of_initiation_method",
            self.point_of_initiation_method.as_deref(),
        );
        let account_id = account.map(|a| format!("{:02}", a.id));
        put("merchant_account_information_id", account_id.as_deref());
        put("gui", account.map(|a| a.gui.as_str()));
        put("pix_key", account.and_then(|a| a.key.as_deref()));
        put("url", account.and_then(|a| a.url.as_deref()));
        put(
            "additional_info",
            account.and_then(|a| a.additional_info.as_deref()),
        );
        put("fss", account.and_then(|a| a.fss.as_deref()));
        put(
            "merchant_category_code",
            self.merchant_category_code.as_deref(),
        );
        put("transaction_currency", self.transaction_currency.as_deref());
        put("transaction_amount", self.transaction_amount.as_deref());
        put("country_code", self.country_code.as_deref());
        put("merchant_name", self.merchant_name.as_deref());
        put("merchant_city", self.merchant_city.as_deref());
        put("postal_code", self.postal_code.as_deref());
        put("txid", self.txid());
        put("crc", self.crc.as_deref());
        put("recurrence_url", self.recurrence_url());
        put("detected_type", self.kind().map(CodeKind::as_str));
        let other = self.other_fields_json();
        if !other.is_empty() {
            map.insert("other_fields".to_owned(), Value::Object(other));
        }
        Value::Object(map)
    }

    fn other_fields_json(&self) -> Map<String, Value> {
        let mut other = Map::new();
        for object in self.other_objects() {
            let value = match object.id {
                26..=51 | 64 | 80..=99 => match object.children() {
                    Ok(children) => Value::Object(flat_json(&children)),
                    Err(_) => Value::String(object.value.clone()),
                },
                _ => Value::String(object.value.clone()),
            };
            other.insert(format!("{:02}", object.id), value);
        }
        if let Some(account) = self
            .merchant_account
            .as_ref()
            .filter(|a| !a.other.is_empty())
        {
            other.insert(
                format!("{:02}_other_subfields", account.id),
                Value::Object(flat_json(&account.other)),
            );
        }
        if let Some(data) = self
            .additional_data
            .as_ref()
            .filter(|d| !d.other.is_empty())
        {
            other.insert(
                "62_other_subfields".to_owned(),
                Value::Object(flat_json(&data.other)),
            );
        }
        other
    }
}

fn flat_json(objects: &[DataObject]) -> Map<String, Value> {
    objects
        .iter()
        .map(|o| (format!("{:02}", o.id), Value::String(o.value.clone())))
        .collect()
}

impl PixAccount {
    fn from_children(id: u8, gui: String, children: Vec<DataObject>) -> Self {
        let mut account = Self {
            id,
            gui,
            key: None,
            additional_info: None,
            fss: None,
            url: None,
            other: Vec::new(),
            children: Vec::new(),
        };
        for child in &children {
            let value = Some(child.value.clone());
            match child.id {
                0 => {}
                1 => account.key = value,
                2 => account.additional_info = value,
                3 => account.fss = value,
                25 => account.url = value,
                _ => account.other.push(child.clone()),
            }
        }
        account.children = children;
        account
    }
}

impl Recurrence {
    fn from_children(id: u8, gui: String, children: Vec<DataObject>) -> Self {
        let mut rec = Self {
            id,
            gui,
            url: None,
            other: Vec::new(),
        };
        for child in children {
            match child.id {
                0 => {}
                25 => rec.url = Some(child.value),
                _ => rec.other.push(child),
            }
        }
        rec
    }
}
