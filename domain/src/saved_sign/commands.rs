//! What can be asked of a saved sign.

use crate::sign::{PaperSize, Template, Theme};

/// Commands of the saved-sign aggregate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SavedSignCommand {
    /// Keep a new sign (also a duplicate of another).
    SaveSign(SaveSign),
    /// Change a kept sign's choices.
    ChangeSign(ChangeSign),
    /// Remove a kept sign.
    DeleteSign(DeleteSign),
}

/// The choices a sign is printed with, already parsed at the edge (slugs read into their
/// types); the aggregate checks the free text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignSettings {
    /// What the owner calls it ("Balcão da frente").
    pub name: String,
    /// The design.
    pub template: Template,
    /// The paper.
    pub size: PaperSize,
    /// The colours.
    pub theme: Theme,
    /// The headline; `None` prints the default ("Pague com Pix").
    pub headline: Option<String>,
    /// The line at the bottom.
    pub footer: Option<String>,
    /// Whether the account's logo is drawn (when the plan allows one).
    pub with_logo: bool,
}

/// Keep a new sign.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SaveSign {
    /// The sign's id (a UUID chosen by the caller).
    pub sign_id: String,
    /// The account that keeps it.
    pub owner_id: String,
    /// The signed-in person who saved it.
    pub created_by: String,
    /// The account's QR code it prints.
    pub qrcode_id: String,
    /// The sign it was copied from, for a duplicate.
    pub duplicate_of: Option<String>,
    /// Its choices.
    pub settings: SignSettings,
    /// When it was asked for, RFC 3339 (the domain reads no clock).
    pub requested_at: String,
}

/// Change a sign's choices (the code it prints stays).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangeSign {
    /// The person changing it.
    pub changed_by: String,
    /// Every choice, as it is to be.
    pub settings: SignSettings,
    /// When, RFC 3339.
    pub requested_at: String,
}

/// Delete a sign.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeleteSign {
    /// The person deleting it.
    pub deleted_by: String,
    /// When, RFC 3339.
    pub requested_at: String,
}
