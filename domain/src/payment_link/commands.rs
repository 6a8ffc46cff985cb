//! What can be asked of a payment link.

use crate::brcode::StaticCodeRequest;

/// Commands of the payment-link aggregate.
#[derive(Debug, Clone, PartialEq, Eq)]
// A creation carries the whole code; a revocation a few ids. Both live for one command, so
// boxing the creation would only add noise.
#[allow(clippy::large_enum_variant)]
pub enum PaymentLinkCommand {
    /// Make a link.
    CreatePaymentLink(CreatePaymentLink),
    /// Stop a link from taking payments.
    RevokePaymentLink(RevokePaymentLink),
}

/// Make a payment link from values already parsed at the edge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreatePaymentLink {
    /// The link's id (a UUID chosen by the caller).
    pub link_id: String,
    /// The account that owns it.
    pub owner_id: String,
    /// The signed-in person who made it.
    pub created_by: String,
    /// Key, name, city, amount (required), description and txid.
    pub request: StaticCodeRequest,
    /// When the link stops taking payments, RFC 3339; `None` for never.
    pub expires_at: Option<String>,
    /// When it was asked for, RFC 3339 (the domain reads no clock).
    pub requested_at: String,
}

/// Revoke a link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RevokePaymentLink {
    /// The person revoking it.
    pub revoked_by: String,
    /// When, RFC 3339.
    pub requested_at: String,
}
