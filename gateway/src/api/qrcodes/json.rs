//! One QR code as the dashboard's API shows it, and the request shapes it sends.

use chrono::{DateTime, SecondsFormat, Utc};
use projections::qrcodes::QrCodeView;
use serde::{Deserialize, Serialize};

use crate::state::AppState;

/// One QR code as the API shows it (a superset of the first list's shape: the dashboard's
/// older screens read the same names).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct CodeJson {
    /// The code's id.
    pub id: String,
    /// `cpf`, `cnpj`, `email`, `phone` or `evp`.
    pub key_kind: &'static str,
    /// The key in DICT form, as written in the code.
    pub pix_key: String,
    /// The registered key it was made from, if any.
    pub key_id: Option<String>,
    /// Field 59 as written.
    pub merchant_name: String,
    /// Field 60 as written.
    pub merchant_city: String,
    /// The fixed amount, or `null` when the payer types it.
    pub amount_centavos: Option<i64>,
    /// The message for the payer.
    pub description: Option<String>,
    /// Field 62-05: how the bank reports payments to this code.
    pub txid: String,
    /// The BR Code ("Pix Copia e Cola").
    pub payload: String,
    /// When it was made, RFC 3339.
    pub created_at: String,
    /// The account of the person who made it.
    pub created_by: Option<String>,
    /// The batch it was made in, if any.
    pub batch_id: Option<String>,
    /// The code it duplicates, if any.
    pub duplicate_of: Option<String>,
    /// When it was archived; `null` while it takes payments.
    pub archived_at: Option<String>,
    /// The code's version (1 when made, +1 per archive or unarchive).
    pub version: i64,
    /// The payer page, absolute (to share or print).
    pub payment_url: String,
    /// Made for one sale: once paid, its payer page says "já foi pago" to everyone.
    pub single_use: bool,
    /// When a single-use code was paid (its earliest payment that stands), RFC 3339; `null`
    /// while it waits for its payment, and always for a reusable code.
    pub paid_at: Option<String>,
    /// When the dynamic code of a connected bank's charge stops being offered, RFC 3339; `null`
    /// for every code Balcão writes itself (they never expire).
    pub charge_expires_at: Option<String>,
    /// The QR code as SVG markup, in a creation's answer only (the dashboard shows it at once).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qr_svg: Option<String>,
}

/// The QR code of `payload` as SVG (level M, as the payer page draws it); `None` if it cannot
/// be drawn, which a valid payload never is.
pub fn qr_svg(payload: &str) -> Option<String> {
    domain::qr::QrMatrix::encode(payload, domain::qr::EcLevel::M)
        .ok()
        .map(|matrix| matrix.to_svg())
}

/// RFC 3339 with milliseconds, as the rest of the API writes times.
pub fn rfc3339(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// The payer page of `id`, absolute.
pub fn payment_url(state: &AppState, id: &str) -> String {
    format!("{}/pagamento/{id}", state.site.url.trim_end_matches('/'))
}

impl CodeJson {
    /// The read model's row as the API shows it.
    pub fn from_view(state: &AppState, view: QrCodeView) -> CodeJson {
        let id = view.qrcode_id.to_string();
        CodeJson {
            payment_url: payment_url(state, &id),
            id,
            key_kind: view.key_kind.as_str(),
            pix_key: view.pix_key,
            key_id: view.key_id.map(|k| k.to_string()),
            merchant_name: view.merchant_name,
            merchant_city: view.merchant_city,
            amount_centavos: view.amount_centavos,
            description: view.description,
            txid: view.txid,
            payload: view.payload,
            created_at: rfc3339(view.created_at),
            created_by: view.created_by,
            batch_id: view.batch_id.map(|b| b.to_string()),
            duplicate_of: view.duplicate_of.map(|d| d.to_string()),
            archived_at: view.archived_at.map(rfc3339),
            version: view.version,
            single_use: view.single_use,
            paid_at: view.paid_at.map(rfc3339),
            charge_expires_at: view.charge_expires_at.map(rfc3339),
            qr_svg: None,
        }
    }
}

/// What a creation, a batch and a preview send: the key (registered or typed), the receiver,
/// and the values of one code (or, for a batch, the lines).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CodeBody {
    /// A registered key of the account (`pix_keys.key_id`); when given, `pixKey` is ignored.
    #[serde(default)]
    pub key_id: Option<String>,
    /// A key typed by hand (CPF, CNPJ, e-mail, phone or random key).
    #[serde(default)]
    pub pix_key: Option<String>,
    /// The kind of the typed key (`cpf`, `cnpj`, `email`, `telefone`, `aleatoria`); detected
    /// when blank.
    #[serde(default)]
    pub key_kind: Option<String>,
    /// The receiver's name as typed; blank takes the registered key's holder name.
    #[serde(default)]
    pub merchant_name: String,
    /// The city as typed.
    #[serde(default)]
    pub merchant_city: String,
    /// The amount in pt-BR (`"12,50"`); blank lets the payer type it. In a batch, the amount of
    /// the lines that give none.
    #[serde(default)]
    pub amount: Option<String>,
    /// The message for the payer (a single code).
    #[serde(default)]
    pub description: Option<String>,
    /// A txid typed by the person (a single code); blank: Balcão generates one.
    #[serde(default)]
    pub txid: Option<String>,
    /// Made for one sale (each code of a batch): needs an amount; once paid, its payer page says
    /// "já foi pago" to everyone. Absent: a reusable code.
    #[serde(default)]
    pub single_use: bool,
    /// Batch: the prefix of numbered lines (`MESA`), with `count`.
    #[serde(default)]
    pub prefix: Option<String>,
    /// Batch: how many numbered lines.
    #[serde(default)]
    pub count: Option<usize>,
    /// Batch: a pasted list, one code per line (`label` or `label;price`).
    #[serde(default)]
    pub lines: Option<String>,
}

/// One problem of a request, for forms that show every problem at once (the API error's
/// `problems` entries). Fields: `pixKey`, `keyId`, `merchantName`, `merchantCity`, `amount`,
/// `description`, `txid`, `lines`, `prefix`, `count`.
pub use domain::refusal::FieldProblem;
