//! The Pix keys workflow: what the keys API asks, from parsed input to the key ring's events.
//!
//! Each call takes values already parsed at the edge ([`domain::key_ring::KeyInput::parse`],
//! [`HolderName`], [`KeyLabel`]), loads the account's vault key, seals the personal values (the
//! key in DICT form, the holder's name, the label) and fingerprints the key, then runs the
//! [`PixKeyRing`] command on the account's stream (stream type `pix_keys`, stream id = the
//! account id). The handler only extracts, authorises, calls this and maps the outcome.
//!
//! An account without a vault key (never opened, or deleted and shredded) has no key ring: every
//! call answers [`KeyRingError::AccountNotFound`].

use domain::key_ring::{
    ChooseDefaultPixKey, HolderName, KeyLabel, KeyRingCommand, KeyRingError, ParsedKeyInput,
    PixKeyRing, RegisterPixKey, RemovePixKey, RenamePixKey,
};
use domain::sealed::Sealed;
use domain::subscription::plans::PlanId;

use crate::error::CommandError;
use crate::expected_version::ExpectedVersion;
use crate::metadata::{CommandMetadata, RequestDigest};
use crate::outcome::CommandOutcome;
use crate::service::CommandService;
use crate::store::PgEventStore;
use crate::vault::{AccountKey, VaultError, load_key};

/// The purpose under which a Pix key's DICT form is fingerprinted
/// ([`AccountKey::fingerprint`]).
pub const FINGERPRINT_PURPOSE: &str = "pix-key";

/// A registration, as the keys API asks for it.
#[derive(Debug, Clone)]
pub struct Registration {
    /// The account (its key ring's stream id).
    pub account_id: String,
    /// The new key's id (a UUID; derived from an idempotency key when there is one).
    pub key_id: String,
    /// The parsed key, holder name and label.
    pub input: ParsedKeyInput,
    /// Make it the default key.
    pub make_default: bool,
    /// The account's plan in force: the ring refuses a key past its limit.
    pub plan: PlanId,
    /// Who asks (an account id).
    pub by: String,
    /// When, RFC 3339.
    pub at: String,
}

impl Registration {
    /// What the registration asks for, for an idempotency key's record: the same key sent again
    /// with other values is refused rather than answered with the first key.
    pub fn digest(&self) -> RequestDigest {
        let values = format!(
            "{}\n{}\n{:?}\n{}",
            self.input.key.as_str(),
            self.input.holder_name.as_str(),
            self.input.label.as_ref().map(KeyLabel::as_str),
            self.make_default,
        );
        RequestDigest::of(values.as_bytes())
    }
}

/// Runs the key ring's commands for the keys API.
pub struct PixKeys {
    service: CommandService<PixKeyRing>,
}

impl PixKeys {
    /// Over `store`.
    pub fn new(store: PgEventStore) -> Self {
        PixKeys {
            service: CommandService::new(store, ()),
        }
    }

    /// The command service underneath (tests, benchmarks).
    pub fn service(&self) -> &CommandService<PixKeyRing> {
        &self.service
    }

    /// Registers a key.
    ///
    /// # Errors
    ///
    /// [`CommandError::Rejected`] with the ring's refusal (a key already registered: 409), or
    /// [`KeyRingError::AccountNotFound`]; storage failures as [`CommandService::execute`].
    pub async fn register(
        &self,
        registration: Registration,
        metadata: CommandMetadata,
    ) -> Result<CommandOutcome, CommandError<KeyRingError>> {
        let key = self.vault_key(&registration.account_id).await?;
        let input = &registration.input;
        let command = KeyRingCommand::RegisterPixKey(RegisterPixKey {
            account_id: registration.account_id.clone(),
            key_id: registration.key_id,
            kind: input.key.kind(),
            fingerprint: key.fingerprint(FINGERPRINT_PURPOSE, input.key.as_str()),
            pix_key: key.seal(input.key.as_str()),
            holder_name: key.seal(input.holder_name.as_str()),
            label: seal_label(&key, input.label.as_ref()),
            make_default: registration.make_default,
            plan: registration.plan,
            by: registration.by,
            at: registration.at,
        });
        self.service
            .execute(&registration.account_id, command, metadata)
            .await
    }

    /// Replaces a key's holder name and label.
    ///
    /// # Errors
    ///
    /// [`KeyRingError::KeyNotFound`], [`KeyRingError::KeyRemoved`],
    /// [`KeyRingError::AccountNotFound`]; storage failures.
    #[allow(clippy::too_many_arguments)]
    pub async fn rename(
        &self,
        account_id: &str,
        key_id: &str,
        holder_name: &HolderName,
        label: Option<&KeyLabel>,
        by: &str,
        at: &str,
        metadata: CommandMetadata,
    ) -> Result<CommandOutcome, CommandError<KeyRingError>> {
        let key = self.vault_key(account_id).await?;
        let command = KeyRingCommand::RenamePixKey(RenamePixKey {
            key_id: key_id.to_owned(),
            holder_name: key.seal(holder_name.as_str()),
            label: seal_label(&key, label),
            by: by.to_owned(),
            at: at.to_owned(),
        });
        self.existing(account_id, command, metadata).await
    }

    /// Makes a key the account's default.
    ///
    /// # Errors
    ///
    /// [`KeyRingError::KeyNotFound`], [`KeyRingError::KeyRemoved`]; storage failures.
    pub async fn choose_default(
        &self,
        account_id: &str,
        key_id: &str,
        by: &str,
        at: &str,
        metadata: CommandMetadata,
    ) -> Result<CommandOutcome, CommandError<KeyRingError>> {
        let command = KeyRingCommand::ChooseDefaultPixKey(ChooseDefaultPixKey {
            key_id: key_id.to_owned(),
            by: by.to_owned(),
            at: at.to_owned(),
        });
        self.existing(account_id, command, metadata).await
    }

    /// Removes a key (again: nothing happens).
    ///
    /// # Errors
    ///
    /// [`KeyRingError::KeyNotFound`]; storage failures.
    pub async fn remove(
        &self,
        account_id: &str,
        key_id: &str,
        by: &str,
        at: &str,
        metadata: CommandMetadata,
    ) -> Result<CommandOutcome, CommandError<KeyRingError>> {
        let command = KeyRingCommand::RemovePixKey(RemovePixKey {
            key_id: key_id.to_owned(),
            by: by.to_owned(),
            at: at.to_owned(),
        });
        self.existing(account_id, command, metadata).await
    }

    /// Runs a command on a ring that must exist already (a key is named).
    async fn existing(
        &self,
        account_id: &str,
        command: KeyRingCommand,
        metadata: CommandMetadata,
    ) -> Result<CommandOutcome, CommandError<KeyRingError>> {
        self.service
            .execute_expecting(account_id, command, ExpectedVersion::Any, metadata)
            .await
    }

    /// The account's vault key; none means the account is gone.
    async fn vault_key(&self, account_id: &str) -> Result<AccountKey, CommandError<KeyRingError>> {
        match load_key(self.service.store().pool(), account_id).await {
            Ok(Some(key)) => Ok(key),
            Ok(None) => Err(CommandError::Rejected(KeyRingError::AccountNotFound)),
            Err(VaultError::Storage(error)) => Err(CommandError::Storage(error)),
            Err(other) => Err(CommandError::Storage(sqlx::Error::Decode(Box::new(other)))),
        }
    }
}

fn seal_label(key: &AccountKey, label: Option<&KeyLabel>) -> Option<Sealed> {
    label.map(|label| key.seal(label.as_str()))
}
