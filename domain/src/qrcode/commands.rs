//! What can be asked of a QR code.

use crate::brcode::StaticCodeRequest;

/// Commands of the QR-code aggregate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QrCodeCommand {
    /// Make a static Pix QR code.
    CreateQrCode(CreateQrCode),
    /// Make a code for a visitor without an account, with a private management link.
    CreateAnonymousQrCode(CreateAnonymousQrCode),
    /// Move a visitor's code into an account, proving it with the management link's token.
    ClaimQrCode(ClaimQrCode),
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
