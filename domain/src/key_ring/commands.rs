//! What can be asked of an account's key ring.
//!
//! Every command carries `by` (the account id of the person asking: the owner or a manager) and
//! `at` (RFC 3339): the domain reads no clock. Personal values arrive sealed by the command layer.

use crate::pix_key::PixKeyKind;
use crate::sealed::Sealed;
use crate::subscription::plans::PlanId;

/// Commands of the key ring.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyRingCommand {
    /// Register a Pix key in the account.
    RegisterPixKey(RegisterPixKey),
    /// Change a key's label or holder name.
    RenamePixKey(RenamePixKey),
    /// Make a key the account's default.
    ChooseDefaultPixKey(ChooseDefaultPixKey),
    /// Remove a key from the account.
    RemovePixKey(RemovePixKey),
}

/// Register a Pix key, already parsed into its DICT form and sealed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegisterPixKey {
    /// The account (also the stream id).
    pub account_id: String,
    /// The new key's id (a UUID chosen by the caller).
    pub key_id: String,
    /// The kind of key.
    pub kind: PixKeyKind,
    /// A keyed hash of the key's DICT form (`commands::vault::AccountKey::fingerprint`): equal
    /// for equal keys of one account, unreadable without the account's key.
    pub fingerprint: String,
    /// The key in DICT form, sealed.
    pub pix_key: Sealed,
    /// The holder's name as the bank shows it, sealed.
    pub holder_name: Sealed,
    /// A label for people ("Caixa da loja"), sealed; `None` when none was given.
    pub label: Option<Sealed>,
    /// Make it the default key (the first active key always becomes the default).
    pub make_default: bool,
    /// The account's plan in force, whose number of keys the ring checks against its own
    /// active keys (the log's count, exact whatever the read models have applied).
    pub plan: PlanId,
    /// Who asked (an account id).
    pub by: String,
    /// When, RFC 3339.
    pub at: String,
}

/// Replace a key's label and holder name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenamePixKey {
    /// The key.
    pub key_id: String,
    /// The holder's name, sealed.
    pub holder_name: Sealed,
    /// The label, sealed; `None` clears it.
    pub label: Option<Sealed>,
    /// Who asked.
    pub by: String,
    /// When, RFC 3339.
    pub at: String,
}

/// Make a key the account's default (the one new codes start with).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChooseDefaultPixKey {
    /// The key.
    pub key_id: String,
    /// Who asked.
    pub by: String,
    /// When, RFC 3339.
    pub at: String,
}

/// Remove a key from the account. Codes made with it keep working.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemovePixKey {
    /// The key.
    pub key_id: String,
    /// Who asked.
    pub by: String,
    /// When, RFC 3339.
    pub at: String,
}
