//! Why an account command is refused.

use crate::subscription::limits::PlanLimitReached;

/// A refused account command. Messages are pt-BR, for the person using the dashboard; [`code`]
/// is stable for the API.
///
/// [`code`]: AccountError::code
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum AccountError {
    /// The account was never opened.
    #[error("Conta não encontrada.")]
    NotOpen,
    /// `OpenAccount` on an account that is already open.
    #[error("Esta conta já existe.")]
    AlreadyOpen,
    /// The account was deleted; nothing more can happen to it.
    #[error("Esta conta foi excluída.")]
    Deleted,
    /// The account is disabled: only enabling or deleting it is possible.
    #[error("Esta conta está desativada.")]
    Disabled,
    /// No invitation with that id in this account.
    #[error("Convite não encontrado.")]
    InvitationNotFound,
    /// The invitation was already accepted or cancelled.
    #[error("Este convite já foi aceito ou cancelado.")]
    InvitationNotPending,
    /// An invitation with that id already exists in this account.
    #[error("Este convite já existe.")]
    InvitationAlreadyExists,
    /// Invitations offer manager or operator, never owner.
    #[error("Não é possível convidar alguém como proprietário da conta.")]
    RoleNotInvitable,
    /// The owner cannot join their own account's team.
    #[error("Você não pode fazer parte da equipe da sua própria conta.")]
    CannotInviteSelf,
    /// The accepting account is already an active member of this team.
    #[error("Você já faz parte desta equipe.")]
    AlreadyMember,
    /// The owner typed their own sign-in address in an invitation (decided by the invitation
    /// workflow; the aggregate never sees the plain address).
    #[error("Você não pode convidar o seu próprio e-mail: você já é o titular desta conta.")]
    OwnAddressInvited,
    /// The address already has a pending or active invitation in this team (decided by the
    /// invitation workflow's claim, not by the aggregate).
    #[error("Este e-mail já foi convidado para esta conta.")]
    AlreadyInvited,
    /// The invitation is being accepted by an account whose sign-in address is not the invited
    /// one (decided by the acceptance workflow).
    #[error(
        "Este convite foi enviado para outro e-mail. Saia desta conta e abra o link de novo para entrar, ou criar uma conta, com o e-mail que recebeu o convite."
    )]
    InvitationForAnotherEmail,
    /// The team's account is disabled: nothing can be done in it until it is enabled again (its
    /// own `Disabled`, as the team sees it).
    #[error("Esta conta está desativada: nada pode ser feito nela até que seja reativada.")]
    TeamDisabled,
    /// The plan allows no more people in the team (members and open invitations): 402.
    #[error("{0}")]
    PlanLimit(PlanLimitReached),
}

impl AccountError {
    /// A stable, machine-readable code (kebab-case).
    pub fn code(&self) -> &'static str {
        match self {
            AccountError::NotOpen => "account-not-open",
            AccountError::AlreadyOpen => "account-already-open",
            AccountError::Deleted => "account-deleted",
            AccountError::Disabled => "user-disabled",
            AccountError::InvitationNotFound => "invitation-not-found",
            AccountError::InvitationNotPending => "invitation-not-pending",
            AccountError::InvitationAlreadyExists => "invitation-already-exists",
            AccountError::RoleNotInvitable => "role-not-invitable",
            AccountError::CannotInviteSelf => "cannot-invite-self",
            AccountError::AlreadyMember => "already-member",
            AccountError::OwnAddressInvited => "cannot-invite-self",
            AccountError::AlreadyInvited => "member-already-invited",
            AccountError::InvitationForAnotherEmail => "invitation-for-another-email",
            AccountError::TeamDisabled => "account-disabled",
            AccountError::PlanLimit(_) => "plan-limit-reached",
        }
    }
}

/// As the edges read it. Two refusals answer with the API's general codes, because the person
/// meets them as a dead link and as a bad form value: an invitation already accepted or cancelled
/// is `expired-action-code`, and inviting someone as owner is `invalid-argument` on `role`.
impl crate::refusal::Refusal for AccountError {
    fn code(&self) -> &'static str {
        match self {
            AccountError::InvitationNotPending => "expired-action-code",
            AccountError::RoleNotInvitable => "invalid-argument",
            other => other.code(),
        }
    }

    fn kind(&self) -> crate::refusal::RefusalKind {
        use crate::refusal::RefusalKind;
        match self {
            AccountError::NotOpen | AccountError::Deleted | AccountError::InvitationNotFound => {
                RefusalKind::NotFound
            }
            AccountError::Disabled
            | AccountError::TeamDisabled
            | AccountError::InvitationForAnotherEmail => RefusalKind::Forbidden,
            AccountError::InvitationNotPending => RefusalKind::Gone,
            AccountError::AlreadyOpen
            | AccountError::InvitationAlreadyExists
            | AccountError::AlreadyMember
            | AccountError::AlreadyInvited => RefusalKind::Conflict,
            AccountError::RoleNotInvitable
            | AccountError::CannotInviteSelf
            | AccountError::OwnAddressInvited => RefusalKind::Invalid,
            AccountError::PlanLimit(_) => RefusalKind::PlanLimit,
        }
    }

    fn field(&self) -> Option<&'static str> {
        match self {
            AccountError::RoleNotInvitable => Some("role"),
            AccountError::AlreadyInvited | AccountError::OwnAddressInvited => Some("email"),
            _ => None,
        }
    }
}
