//! Why a key-ring command (or what was typed for one) is refused.

use crate::pix_key::PixKeyError;
use crate::refusal::{Refusal, RefusalKind};
use crate::subscription::limits::PlanLimitReached;

use super::{MAX_ACTIVE_KEYS, MAX_HOLDER_NAME_LEN, MAX_LABEL_LEN};

/// A refused key-ring command. Messages are pt-BR, for the person at the keys screen.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeyRingError {
    /// What was typed is not a Pix key (the BR Code engine's own reason).
    #[error("{0}")]
    InvalidKey(PixKeyError),
    /// No holder name.
    #[error("Informe o nome do titular, como o banco mostra a quem paga.")]
    HolderNameMissing,
    /// A holder name over [`MAX_HOLDER_NAME_LEN`] characters.
    #[error("O nome do titular pode ter até {max} caracteres; este tem {0}.", max = MAX_HOLDER_NAME_LEN)]
    HolderNameTooLong(usize),
    /// A label over [`MAX_LABEL_LEN`] characters.
    #[error("O apelido pode ter até {max} caracteres; este tem {0}.", max = MAX_LABEL_LEN)]
    LabelTooLong(usize),
    /// The key is already an active key of this account.
    #[error("Esta chave Pix já está cadastrada nesta conta.")]
    AlreadyRegistered,
    /// A key with this id is already in the ring (a key id is never reused).
    #[error("Já existe uma chave com este identificador nesta conta.")]
    KeyIdTaken,
    /// The account already holds [`MAX_ACTIVE_KEYS`] active keys.
    #[error(
        "Esta conta já tem {max} chaves Pix cadastradas, o máximo. Remova uma para cadastrar outra.",
        max = MAX_ACTIVE_KEYS
    )]
    TooManyKeys,
    /// No key with this id in the account.
    #[error("Chave Pix não encontrada nesta conta.")]
    KeyNotFound,
    /// The key was removed: it can no longer be renamed or made the default.
    #[error("Esta chave Pix foi removida da conta.")]
    KeyRemoved,
    /// The account has no key ring: it was never opened, or it was deleted.
    #[error("Conta não encontrada.")]
    AccountNotFound,
    /// The account's plan allows no more keys (402).
    #[error("{0}")]
    PlanLimit(PlanLimitReached),
}

impl KeyRingError {
    /// A stable, machine-readable code (kebab-case); an invalid key keeps the engine's own code
    /// (`key-cpf-check-digits`, …).
    pub fn code(&self) -> &'static str {
        match self {
            KeyRingError::InvalidKey(error) => error.code(),
            KeyRingError::HolderNameMissing => "holder-name-missing",
            KeyRingError::HolderNameTooLong(_) => "holder-name-too-long",
            KeyRingError::LabelTooLong(_) => "label-too-long",
            KeyRingError::AlreadyRegistered => "pix-key-already-registered",
            KeyRingError::KeyIdTaken => "pix-key-id-taken",
            KeyRingError::TooManyKeys => "too-many-pix-keys",
            KeyRingError::KeyNotFound => "pix-key-not-found",
            KeyRingError::KeyRemoved => "pix-key-removed",
            KeyRingError::AccountNotFound => "not-found",
            KeyRingError::PlanLimit(refused) => Refusal::code(refused),
        }
    }
}

impl Refusal for KeyRingError {
    fn code(&self) -> &'static str {
        KeyRingError::code(self)
    }

    fn kind(&self) -> RefusalKind {
        match self {
            KeyRingError::InvalidKey(_)
            | KeyRingError::HolderNameMissing
            | KeyRingError::HolderNameTooLong(_)
            | KeyRingError::LabelTooLong(_) => RefusalKind::Invalid,
            KeyRingError::AlreadyRegistered
            | KeyRingError::KeyIdTaken
            | KeyRingError::TooManyKeys => RefusalKind::Conflict,
            KeyRingError::KeyNotFound | KeyRingError::AccountNotFound => RefusalKind::NotFound,
            KeyRingError::KeyRemoved => RefusalKind::Gone,
            KeyRingError::PlanLimit(_) => RefusalKind::PlanLimit,
        }
    }

    fn field(&self) -> Option<&'static str> {
        match self {
            KeyRingError::InvalidKey(PixKeyError::UnknownKind(_)) => Some("keyKind"),
            KeyRingError::InvalidKey(_) | KeyRingError::AlreadyRegistered => Some("pixKey"),
            KeyRingError::HolderNameMissing | KeyRingError::HolderNameTooLong(_) => {
                Some("holderName")
            }
            KeyRingError::LabelTooLong(_) => Some("label"),
            KeyRingError::KeyIdTaken
            | KeyRingError::PlanLimit(_)
            | KeyRingError::TooManyKeys
            | KeyRingError::KeyNotFound
            | KeyRingError::KeyRemoved
            | KeyRingError::AccountNotFound => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_duplicate_key_is_a_conflict_on_the_key_field_with_a_portuguese_message() {
        let error = KeyRingError::AlreadyRegistered;
        assert_eq!(error.kind().http_status(), 409);
        assert_eq!(Refusal::field(&error), Some("pixKey"));
        assert_eq!(
            error.to_string(),
            "Esta chave Pix já está cadastrada nesta conta."
        );
    }

    #[test]
    fn an_invalid_key_keeps_the_engines_code_and_message() {
        let error = KeyRingError::InvalidKey(PixKeyError::CpfCheckDigits);
        assert_eq!(Refusal::code(&error), "key-cpf-check-digits");
        assert_eq!(error.kind().http_status(), 422);
        assert_eq!(error.to_string(), PixKeyError::CpfCheckDigits.to_string());
    }

    #[test]
    fn limits_are_named_in_the_messages() {
        assert!(
            KeyRingError::HolderNameTooLong(130)
                .to_string()
                .contains("100")
        );
        assert!(KeyRingError::LabelTooLong(50).to_string().contains("40"));
        assert!(KeyRingError::TooManyKeys.to_string().contains("50"));
    }
}
