//! What can be asked of a QR code.

use crate::brcode::StaticCodeRequest;
use crate::qrcode::events::DueDateTerms;

/// Commands of the QR-code aggregate.
#[allow(
    clippy::large_enum_variant,
    reason = "a creation is the first and usual event; boxing it would change every match for a few bytes"
)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QrCodeCommand {
    /// Make a static Pix QR code.
    CreateQrCode(CreateQrCode),
    /// Make a static Pix QR code in an account, from the dashboard: a txid is required.
    CreateAccountQrCode(CreateAccountQrCode),
    /// Archive a code.
    ArchiveQrCode(ArchiveQrCode),
    /// Bring an archived code back.
    UnarchiveQrCode(UnarchiveQrCode),
    /// Make a code for a visitor without an account, with a private management link.
    CreateAnonymousQrCode(CreateAnonymousQrCode),
    /// Move a visitor's code into an account, proving it with the management link's token.
    ClaimQrCode(ClaimQrCode),
    /// Record the dynamic code of a charge the account's connected bank made (`PUT /cob`).
    CreateBankCharge(CreateBankCharge),
}

/// Record a charge (`cob`) the account's connected bank made: its dynamic code carries the
/// bank's location (26-25) and `***` (62-05); the bank keeps the amount, the txid and the
/// validity behind the location, and reports the payment with the charge's txid.
///
/// The code is single-use by nature (one charge, one payment) and needs the sale's amount; the
/// charge's txid follows the API Pix rule of `PUT /cob/{txid}` (26 to 35 letters and digits),
/// and it is claimed in the account like any code's, so the payment finds its code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreateBankCharge {
    /// The code as the account asked for it: key, name, city, amount, the payer's message as
    /// `description`, and the charge's txid.
    pub create: CreateAccountQrCode,
    /// The location the bank answered (`loc.location`, with or without `https://`).
    pub location: String,
    /// What the bank was asked for: an immediate charge or one with a due date.
    pub terms: ChargeTerms,
}

/// The kind of charge and its terms, as sent to the bank.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChargeTerms {
    /// `cob`: payable for `calendario.expiracao` seconds from `create.requested_at`.
    Immediate {
        /// `calendario.expiracao`.
        expires_in_seconds: u32,
    },
    /// `cobv`: payable up to its due date with the amount, after it with the fine and interest,
    /// for some days more.
    DueDate(DueDateTerms),
}

/// Make a static Pix QR code from values already parsed at the edge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreateQrCode {
    /// The code's id (a UUID chosen by the caller, so a retried request names the same code).
    pub qrcode_id: String,
    /// The account that owns it; `None` for a visitor without an account.
    pub owner_id: Option<String>,
    /// The signed-in person who made it: in a team, a member's own account id while `owner_id`
    /// is the workspace's account. `None` for a visitor.
    pub created_by: Option<String>,
    /// Key, name, city, amount, description and txid.
    pub request: StaticCodeRequest,
    /// When it was asked for, RFC 3339 (the domain reads no clock).
    pub requested_at: String,
}

/// Make a code in an account from the dashboard (alone, in a batch, or as a duplicate).
///
/// Unlike [`CreateQrCode`] (the public sign form), the request must carry a txid: a code of an
/// account is how its payments are matched (by txid, unique in the account), so it is never
/// written with `***`. Uniqueness itself is a constraint across streams, kept by a claim in the
/// command's transaction (see `commands::claims::txid_scope`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreateAccountQrCode {
    /// The code's id.
    pub qrcode_id: String,
    /// The account that owns it.
    pub owner_id: String,
    /// The signed-in person who made it.
    pub created_by: String,
    /// The registered key it was made from (`pix_keys.key_id`), if any.
    pub key_id: Option<String>,
    /// The batch it belongs to, if made in one.
    pub batch_id: Option<String>,
    /// The code it duplicates, if any.
    pub duplicate_of: Option<String>,
    /// Key, name, city, amount, description and txid (required).
    pub request: StaticCodeRequest,
    /// When it was asked for, RFC 3339.
    pub requested_at: String,
}

/// Archive a code: it stays listed (under "arquivados") and its payer page stops offering it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArchiveQrCode {
    /// Who asks (account id).
    pub by: String,
    /// When, RFC 3339.
    pub at: String,
}

/// Bring an archived code back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnarchiveQrCode {
    /// Who asks (account id).
    pub by: String,
    /// When, RFC 3339.
    pub at: String,
}
/// Make a visitor's code (no owner, no creator) together with its management link: only the
/// SHA-256 of the link's secret token is recorded, so the log can never hand the link out again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreateAnonymousQrCode {
    /// The code itself; `owner_id` and `created_by` must be `None`.
    pub create: CreateQrCode,
    /// Hex SHA-256 of the management token given to the visitor.
    pub management_digest: String,
}

/// Claim a visitor's code for an account ("Salvar na minha conta").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimQrCode {
    /// The code's id (its stream id).
    pub qrcode_id: String,
    /// The account that will own the code.
    pub owner_id: String,
    /// The signed-in person who claimed it (their own account id).
    pub claimed_by: String,
    /// Hex SHA-256 of the management token the person presented.
    pub management_digest: String,
    /// When it was asked for, RFC 3339.
    pub requested_at: String,
}
