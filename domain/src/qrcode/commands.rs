//! What can be asked of a QR code.

use crate::brcode::StaticCodeRequest;

/// Commands of the QR-code aggregate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QrCodeCommand {
    /// Make a static Pix QR code.
    CreateQrCode(CreateQrCode),
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
