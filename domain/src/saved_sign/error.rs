//! Why a saved-sign command is refused.

use super::MAX_NAME_CHARS;
use crate::refusal::{Refusal, RefusalKind};
use crate::sign::{MAX_FOOTER_CHARS, MAX_HEADLINE_CHARS};

/// A refused saved-sign command. Messages are pt-BR, for the person who typed the values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SavedSignError {
    /// The sign was already saved under this id.
    #[error("Esta placa já foi salva.")]
    AlreadySaved,
    /// There is no such sign, or it was deleted.
    #[error("Placa não encontrada.")]
    NotFound,
    /// The name is blank.
    #[error("Dê um nome à placa, como \"Balcão da frente\".")]
    NameRequired,
    /// The name is longer than [`MAX_NAME_CHARS`].
    #[error("O nome da placa pode ter até {MAX_NAME_CHARS} caracteres.")]
    NameTooLong,
    /// The headline is longer than the sign allows.
    #[error("O título pode ter até {MAX_HEADLINE_CHARS} caracteres.")]
    HeadlineTooLong,
    /// The footer is longer than the sign allows.
    #[error("O rodapé pode ter até {MAX_FOOTER_CHARS} caracteres.")]
    FooterTooLong,
}

impl Refusal for SavedSignError {
    fn code(&self) -> &'static str {
        match self {
            SavedSignError::AlreadySaved => "sign-already-saved",
            SavedSignError::NotFound => "not-found",
            SavedSignError::NameRequired
            | SavedSignError::NameTooLong
            | SavedSignError::HeadlineTooLong
            | SavedSignError::FooterTooLong => "invalid-argument",
        }
    }

    fn kind(&self) -> RefusalKind {
        match self {
            SavedSignError::AlreadySaved => RefusalKind::Conflict,
            SavedSignError::NotFound => RefusalKind::NotFound,
            SavedSignError::NameRequired
            | SavedSignError::NameTooLong
            | SavedSignError::HeadlineTooLong
            | SavedSignError::FooterTooLong => RefusalKind::Invalid,
        }
    }

    fn field(&self) -> Option<&'static str> {
        match self {
            SavedSignError::NameRequired | SavedSignError::NameTooLong => Some("name"),
            SavedSignError::HeadlineTooLong => Some("headline"),
            SavedSignError::FooterTooLong => Some("footer"),
            SavedSignError::AlreadySaved | SavedSignError::NotFound => None,
        }
    }
}
