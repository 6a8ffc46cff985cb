//! What can be asked of a bank connection. Values arrive parsed at the edge: the certificate
//! already read (fingerprint and expiry), the bank's answers already translated.

/// Commands of the bank-connection aggregate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BankConnectionCommand {
    /// Connect the key, or replace the credentials of its connection.
    ConnectBank(ConnectBank),
    /// Note what a connection test found.
    RecordConnectionTest(RecordConnectionTest),
    /// Note what the bank answered to the webhook registration.
    RecordWebhookRegistration(RecordWebhookRegistration),
    /// Remove the connection.
    DisconnectBank(DisconnectBank),
    /// Warn that the certificate ends soon, when a threshold has been crossed and not warned of.
    WarnCertificateExpiring(WarnCertificateExpiring),
}

/// Connect a key to its bank (the test against the bank has already passed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConnectBank {
    /// The registered key's id.
    pub key_id: String,
    /// The owning account.
    pub account_id: String,
    /// The key in DICT form.
    pub pix_key: String,
    /// The bank's profile slug.
    pub bank: String,
    /// `producao` or `homologacao`.
    pub environment: String,
    /// Hex SHA-256 of the client certificate.
    pub certificate_fingerprint: String,
    /// When the certificate stops being valid, RFC 3339.
    pub certificate_not_after: String,
    /// The signed-in person.
    pub connected_by: String,
    /// When it was asked for, RFC 3339 (the domain reads no clock).
    pub requested_at: String,
}

/// A connection test's outcome: `Ok(())`, or the problem's stable code and pt-BR message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordConnectionTest {
    /// What the bank answered.
    pub outcome: Result<(), (String, String)>,
    /// Who ran it (`balcao` for Balcão's own checks).
    pub by: String,
    /// When, RFC 3339.
    pub requested_at: String,
}

/// The webhook registration's outcome: `Ok(())`, or the problem's code and pt-BR message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordWebhookRegistration {
    /// What the bank answered.
    pub outcome: Result<(), (String, String)>,
    /// Who asked for it.
    pub by: String,
    /// When, RFC 3339.
    pub requested_at: String,
}

/// Remove the connection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DisconnectBank {
    /// Who removes it.
    pub by: String,
    /// When, RFC 3339.
    pub requested_at: String,
}

/// Look at the standing certificate's end from `now`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WarnCertificateExpiring {
    /// Now, RFC 3339 (the domain reads no clock).
    pub now: String,
}
