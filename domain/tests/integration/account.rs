//! The Account aggregate, command by command: given past events, when a command, then the events
//! it emits or the error it answers.

use cqrs_es::test::TestFramework;
use cqrs_es::{Aggregate, DomainEvent};
use domain::account::{
    AcceptInvitation, Account, AccountCommand, AccountDeleted, AccountDisabled, AccountEnabled,
    AccountError, AccountEvent, AccountOpened, ChangeEmail, ChangePassword, ChangePhoto,
    DeleteAccount, DisableAccount, EmailChanged, EmailVerified, EnableAccount, InviteMember,
    MemberInvited, MemberJoined, MemberRemoved, MemberStatus, OpenAccount, PasswordChangeReason,
    PasswordChanged, PhotoChanged, ProfileUpdated, RemoveMember, UpdateProfile, VerifyEmail,
};
use domain::sealed::Sealed;
use domain::team::Role;

type AccountTest = TestFramework<Account>;

const ID: &str = "0190f1a2-3b4c-7d5e-8f60-718293a4b5c6";
const OTHER: &str = "0190f1a2-3b4c-7d5e-8f60-000000000002";
const THIRD: &str = "0190f1a2-3b4c-7d5e-8f60-000000000003";
const INVITATION: &str = "0190f1a2-3b4c-7d5e-8f60-0000000000a1";
const AT: &str = "2026-11-21T10:00:00Z";
const LATER: &str = "2026-11-21T11:00:00Z";

fn sealed(text: &str) -> Sealed {
    Sealed::from_text(format!("v1.{text}"))
}

fn opened() -> AccountEvent {
    AccountEvent::AccountOpened(AccountOpened {
        account_id: ID.to_owned(),
        email: sealed("ana-email"),
        display_name: sealed("ana-name"),
        password_hash: "$argon2id$v=19$primeira".to_owned(),
        at: AT.to_owned(),
    })
}

fn verified() -> AccountEvent {
    AccountEvent::EmailVerified(EmailVerified {
        account_id: ID.to_owned(),
        at: AT.to_owned(),
    })
}

fn disabled() -> AccountEvent {
    AccountEvent::AccountDisabled(AccountDisabled {
        account_id: ID.to_owned(),
        at: AT.to_owned(),
    })
}

fn deleted() -> AccountEvent {
    AccountEvent::AccountDeleted(AccountDeleted {
        account_id: ID.to_owned(),
        at: AT.to_owned(),
    })
}

fn invited(invitation_id: &str, role: Role) -> AccountEvent {
    AccountEvent::MemberInvited(MemberInvited {
        account_id: ID.to_owned(),
        invitation_id: invitation_id.to_owned(),
        email: sealed("bruno-email"),
        role,
        at: AT.to_owned(),
    })
}

fn joined(invitation_id: &str, member_account_id: &str) -> AccountEvent {
    AccountEvent::MemberJoined(MemberJoined {
        account_id: ID.to_owned(),
        invitation_id: invitation_id.to_owned(),
        member_account_id: member_account_id.to_owned(),
        at: AT.to_owned(),
    })
}

fn removed(invitation_id: &str) -> AccountEvent {
    AccountEvent::MemberRemoved(MemberRemoved {
        account_id: ID.to_owned(),
        invitation_id: invitation_id.to_owned(),
        at: AT.to_owned(),
    })
}

fn open() -> AccountCommand {
    AccountCommand::OpenAccount(OpenAccount {
        account_id: ID.to_owned(),
        email: sealed("ana-email"),
        display_name: sealed("ana-name"),
        password_hash: "$argon2id$v=19$primeira".to_owned(),
        at: AT.to_owned(),
    })
}

fn verify() -> AccountCommand {
    AccountCommand::VerifyEmail(VerifyEmail {
        at: LATER.to_owned(),
    })
}

fn change_password() -> AccountCommand {
    AccountCommand::ChangePassword(ChangePassword {
        password_hash: "$argon2id$v=19$segunda".to_owned(),
        reason: PasswordChangeReason::Reset,
        at: LATER.to_owned(),
    })
}

fn update_profile() -> AccountCommand {
    AccountCommand::UpdateProfile(UpdateProfile {
        display_name: sealed("ana-new-name"),
        phone_number: Some(sealed("ana-phone")),
        default_merchant_name: Some(sealed("ana-shop")),
        default_merchant_city: None,
        at: LATER.to_owned(),
    })
}

fn change_photo() -> AccountCommand {
    AccountCommand::ChangePhoto(ChangePhoto {
        photo_url: Some(format!("/fotos/{ID}?v=abc123")),
        at: LATER.to_owned(),
    })
}

fn change_email() -> AccountCommand {
    AccountCommand::ChangeEmail(ChangeEmail {
        email: sealed("ana-new-email"),
        at: LATER.to_owned(),
    })
}

fn disable() -> AccountCommand {
    AccountCommand::DisableAccount(DisableAccount {
        at: LATER.to_owned(),
    })
}

fn enable() -> AccountCommand {
    AccountCommand::EnableAccount(EnableAccount {
        at: LATER.to_owned(),
    })
}

fn delete() -> AccountCommand {
    AccountCommand::DeleteAccount(DeleteAccount {
        at: LATER.to_owned(),
    })
}

fn invite(invitation_id: &str, role: Role) -> AccountCommand {
    AccountCommand::InviteMember(InviteMember {
        invitation_id: invitation_id.to_owned(),
        email: sealed("bruno-email"),
        role,
        plan: domain::subscription::plans::PlanId::PremiumMensal,
        at: LATER.to_owned(),
    })
}

fn accept(invitation_id: &str, member_account_id: &str) -> AccountCommand {
    AccountCommand::AcceptInvitation(AcceptInvitation {
        invitation_id: invitation_id.to_owned(),
        member_account_id: member_account_id.to_owned(),
        at: LATER.to_owned(),
    })
}

fn remove(invitation_id: &str) -> AccountCommand {
    AccountCommand::RemoveMember(RemoveMember {
        invitation_id: invitation_id.to_owned(),
        at: LATER.to_owned(),
    })
}

/// Every command, for the rules that hold for all of them.
fn every_command() -> Vec<AccountCommand> {
    vec![
        open(),
        verify(),
        change_password(),
        update_profile(),
        change_photo(),
        change_email(),
        disable(),
        enable(),
        delete(),
        invite(INVITATION, Role::Operator),
        accept(INVITATION, OTHER),
        remove(INVITATION),
    ]
}

/// The state after `events`, folded the way the framework folds them.
fn state_after(events: Vec<AccountEvent>) -> Account {
    let mut account = Account::default();
    for event in events {
        account.apply(event);
    }
    account
}

// OpenAccount

#[test]
fn opening_an_account_records_the_sealed_email_name_and_password_hash() {
    AccountTest::with(())
        .given_no_previous_events()
        .when(open())
        .then_expect_events(vec![opened()]);
}

#[test]
fn an_opened_account_is_open_with_an_unverified_email() {
    let account = state_after(vec![opened()]);
    assert!(account.is_open());
    assert_eq!(account.account_id(), Some(ID));
    assert_eq!(account.email(), Some(&sealed("ana-email")));
    assert!(!account.email_verified());
    assert_eq!(account.password_hash(), Some("$argon2id$v=19$primeira"));
    assert!(!account.is_disabled());
    assert!(!account.is_deleted());
    assert!(account.members().is_empty());
}

#[test]
fn opening_an_account_twice_is_refused_as_already_open() {
    AccountTest::with(())
        .given(vec![opened()])
        .when(open())
        .then_expect_error(AccountError::AlreadyOpen);
}

#[test]
fn every_command_but_open_is_refused_on_an_account_never_opened() {
    for command in every_command().into_iter().skip(1) {
        let error = AccountTest::with(())
            .given_no_previous_events()
            .when(command.clone())
            .inspect_result()
            .expect_err("refused");
        assert_eq!(error, AccountError::NotOpen, "{command:?}");
    }
}

// VerifyEmail

#[test]
fn verifying_the_email_records_it() {
    AccountTest::with(())
        .given(vec![opened()])
        .when(verify())
        .then_expect_events(vec![AccountEvent::EmailVerified(EmailVerified {
            account_id: ID.to_owned(),
            at: LATER.to_owned(),
        })]);
    assert!(state_after(vec![opened(), verified()]).email_verified());
}

#[test]
fn verifying_an_already_verified_email_emits_nothing() {
    AccountTest::with(())
        .given(vec![opened(), verified()])
        .when(verify())
        .then_expect_events(vec![]);
}

// ChangePassword

#[test]
fn changing_the_password_records_the_new_hash_and_why() {
    AccountTest::with(())
        .given(vec![opened()])
        .when(change_password())
        .then_expect_events(vec![AccountEvent::PasswordChanged(PasswordChanged {
            account_id: ID.to_owned(),
            password_hash: "$argon2id$v=19$segunda".to_owned(),
            reason: PasswordChangeReason::Reset,
            at: LATER.to_owned(),
        })]);
}

#[test]
fn the_new_password_hash_replaces_the_old_one_in_the_state() {
    let events = AccountTest::with(())
        .given(vec![opened()])
        .when(change_password())
        .inspect_result()
        .expect("accepted");
    let account = state_after([vec![opened()], events].concat());
    assert_eq!(account.password_hash(), Some("$argon2id$v=19$segunda"));
}

// UpdateProfile

#[test]
fn updating_the_profile_records_every_sealed_field() {
    AccountTest::with(())
        .given(vec![opened()])
        .when(update_profile())
        .then_expect_events(vec![AccountEvent::ProfileUpdated(ProfileUpdated {
            account_id: ID.to_owned(),
            display_name: sealed("ana-new-name"),
            phone_number: Some(sealed("ana-phone")),
            default_merchant_name: Some(sealed("ana-shop")),
            default_merchant_city: None,
            at: LATER.to_owned(),
        })]);
}

// ChangePhoto

#[test]
fn changing_the_photo_records_its_url() {
    AccountTest::with(())
        .given(vec![opened()])
        .when(change_photo())
        .then_expect_events(vec![AccountEvent::PhotoChanged(PhotoChanged {
            account_id: ID.to_owned(),
            photo_url: Some(format!("/fotos/{ID}?v=abc123")),
            at: LATER.to_owned(),
        })]);
}

#[test]
fn removing_the_photo_records_no_url() {
    AccountTest::with(())
        .given(vec![opened()])
        .when(AccountCommand::ChangePhoto(ChangePhoto {
            photo_url: None,
            at: LATER.to_owned(),
        }))
        .then_expect_events(vec![AccountEvent::PhotoChanged(PhotoChanged {
            account_id: ID.to_owned(),
            photo_url: None,
            at: LATER.to_owned(),
        })]);
}

// ChangeEmail

#[test]
fn changing_the_email_records_the_new_sealed_address() {
    AccountTest::with(())
        .given(vec![opened(), verified()])
        .when(change_email())
        .then_expect_events(vec![AccountEvent::EmailChanged(EmailChanged {
            account_id: ID.to_owned(),
            email: sealed("ana-new-email"),
            at: LATER.to_owned(),
        })]);
}

#[test]
fn a_changed_email_is_unverified_until_verified_again() {
    let changed = AccountEvent::EmailChanged(EmailChanged {
        account_id: ID.to_owned(),
        email: sealed("ana-new-email"),
        at: LATER.to_owned(),
    });
    let account = state_after(vec![opened(), verified(), changed.clone()]);
    assert_eq!(account.email(), Some(&sealed("ana-new-email")));
    assert!(!account.email_verified());
    // And verifying now is not a no-op.
    AccountTest::with(())
        .given(vec![opened(), verified(), changed])
        .when(verify())
        .then_expect_events(vec![AccountEvent::EmailVerified(EmailVerified {
            account_id: ID.to_owned(),
            at: LATER.to_owned(),
        })]);
}

// DisableAccount and EnableAccount

#[test]
fn disabling_an_account_records_it() {
    AccountTest::with(())
        .given(vec![opened()])
        .when(disable())
        .then_expect_events(vec![AccountEvent::AccountDisabled(AccountDisabled {
            account_id: ID.to_owned(),
            at: LATER.to_owned(),
        })]);
    assert!(state_after(vec![opened(), disabled()]).is_disabled());
}

#[test]
fn disabling_a_disabled_account_emits_nothing() {
    AccountTest::with(())
        .given(vec![opened(), disabled()])
        .when(disable())
        .then_expect_events(vec![]);
}

#[test]
fn enabling_a_disabled_account_records_it() {
    AccountTest::with(())
        .given(vec![opened(), disabled()])
        .when(enable())
        .then_expect_events(vec![AccountEvent::AccountEnabled(AccountEnabled {
            account_id: ID.to_owned(),
            at: LATER.to_owned(),
        })]);
}

#[test]
fn enabling_an_account_that_is_not_disabled_emits_nothing() {
    AccountTest::with(())
        .given(vec![opened()])
        .when(enable())
        .then_expect_events(vec![]);
}

#[test]
fn an_enabled_account_takes_changes_again() {
    let enabled = AccountEvent::AccountEnabled(AccountEnabled {
        account_id: ID.to_owned(),
        at: LATER.to_owned(),
    });
    assert!(!state_after(vec![opened(), disabled(), enabled.clone()]).is_disabled());
    AccountTest::with(())
        .given(vec![opened(), disabled(), enabled])
        .when(change_photo())
        .then_expect_events(vec![AccountEvent::PhotoChanged(PhotoChanged {
            account_id: ID.to_owned(),
            photo_url: Some(format!("/fotos/{ID}?v=abc123")),
            at: LATER.to_owned(),
        })]);
}

#[test]
fn a_disabled_account_refuses_profile_email_password_and_member_changes_as_user_disabled() {
    let refused = vec![
        verify(),
        change_password(),
        update_profile(),
        change_photo(),
        change_email(),
        invite(INVITATION, Role::Operator),
        accept(INVITATION, OTHER),
        remove(INVITATION),
    ];
    for command in refused {
        let error = AccountTest::with(())
            .given(vec![
                opened(),
                invited(INVITATION, Role::Operator),
                disabled(),
            ])
            .when(command.clone())
            .inspect_result()
            .expect_err("refused");
        assert_eq!(error, AccountError::Disabled, "{command:?}");
        assert_eq!(error.code(), "user-disabled");
    }
}

#[test]
fn a_disabled_account_can_still_be_deleted() {
    AccountTest::with(())
        .given(vec![opened(), disabled()])
        .when(delete())
        .then_expect_events(vec![AccountEvent::AccountDeleted(AccountDeleted {
            account_id: ID.to_owned(),
            at: LATER.to_owned(),
        })]);
}

#[test]
fn opening_a_disabled_account_is_refused_as_already_open() {
    AccountTest::with(())
        .given(vec![opened(), disabled()])
        .when(open())
        .then_expect_error(AccountError::AlreadyOpen);
}

// DeleteAccount

#[test]
fn deleting_an_account_records_it() {
    AccountTest::with(())
        .given(vec![opened(), verified()])
        .when(delete())
        .then_expect_events(vec![AccountEvent::AccountDeleted(AccountDeleted {
            account_id: ID.to_owned(),
            at: LATER.to_owned(),
        })]);
}

#[test]
fn a_deleted_account_keeps_nothing_but_the_fact() {
    let account = state_after(vec![
        opened(),
        invited(INVITATION, Role::Manager),
        joined(INVITATION, OTHER),
        deleted(),
    ]);
    assert!(account.is_deleted());
    assert!(!account.is_open());
    assert_eq!(account.email(), None);
    assert_eq!(account.password_hash(), None);
    assert!(account.members().is_empty());
    assert!(account.active_member(OTHER).is_none());
}

#[test]
fn a_deleted_account_refuses_every_command_as_account_deleted() {
    for command in every_command() {
        let error = AccountTest::with(())
            .given(vec![opened(), deleted()])
            .when(command.clone())
            .inspect_result()
            .expect_err("refused");
        assert_eq!(error, AccountError::Deleted, "{command:?}");
        assert_eq!(error.code(), "account-deleted");
    }
}

// InviteMember

#[test]
fn inviting_a_member_records_the_sealed_address_and_the_role() {
    AccountTest::with(())
        .given(vec![opened()])
        .when(invite(INVITATION, Role::Manager))
        .then_expect_events(vec![AccountEvent::MemberInvited(MemberInvited {
            account_id: ID.to_owned(),
            invitation_id: INVITATION.to_owned(),
            email: sealed("bruno-email"),
            role: Role::Manager,
            at: LATER.to_owned(),
        })]);
}

#[test]
fn an_invitation_is_pending_until_accepted() {
    let account = state_after(vec![opened(), invited(INVITATION, Role::Operator)]);
    let member = account.member(INVITATION).expect("the invitation is kept");
    assert_eq!(member.status, MemberStatus::Invited);
    assert_eq!(member.role, Role::Operator);
    assert_eq!(member.email, sealed("bruno-email"));
    assert_eq!(member.member_account_id, None);
    assert_eq!(member.invited_at, AT);
    assert_eq!(member.joined_at, None);
}

#[test]
fn nobody_can_be_invited_as_owner() {
    AccountTest::with(())
        .given(vec![opened()])
        .when(invite(INVITATION, Role::Owner))
        .then_expect_error(AccountError::RoleNotInvitable);
}

#[test]
fn an_invitation_id_cannot_be_used_twice_even_after_removal() {
    AccountTest::with(())
        .given(vec![opened(), invited(INVITATION, Role::Operator)])
        .when(invite(INVITATION, Role::Manager))
        .then_expect_error(AccountError::InvitationAlreadyExists);
    AccountTest::with(())
        .given(vec![
            opened(),
            invited(INVITATION, Role::Operator),
            removed(INVITATION),
        ])
        .when(invite(INVITATION, Role::Operator))
        .then_expect_error(AccountError::InvitationAlreadyExists);
}

// AcceptInvitation

#[test]
fn accepting_a_pending_invitation_makes_the_person_a_member() {
    AccountTest::with(())
        .given(vec![opened(), invited(INVITATION, Role::Operator)])
        .when(accept(INVITATION, OTHER))
        .then_expect_events(vec![AccountEvent::MemberJoined(MemberJoined {
            account_id: ID.to_owned(),
            invitation_id: INVITATION.to_owned(),
            member_account_id: OTHER.to_owned(),
            at: LATER.to_owned(),
        })]);
}

#[test]
fn a_joined_member_is_active_with_their_account_and_joining_time() {
    let account = state_after(vec![
        opened(),
        invited(INVITATION, Role::Operator),
        joined(INVITATION, OTHER),
    ]);
    let member = account.member(INVITATION).expect("kept");
    assert_eq!(member.status, MemberStatus::Active);
    assert_eq!(member.member_account_id.as_deref(), Some(OTHER));
    assert_eq!(member.joined_at.as_deref(), Some(AT));
    assert_eq!(account.active_member(OTHER), Some(member));
}

#[test]
fn accepting_an_unknown_invitation_is_refused_as_not_found() {
    AccountTest::with(())
        .given(vec![opened()])
        .when(accept(INVITATION, OTHER))
        .then_expect_error(AccountError::InvitationNotFound);
}

#[test]
fn accepting_an_invitation_already_accepted_is_refused_as_not_pending() {
    AccountTest::with(())
        .given(vec![
            opened(),
            invited(INVITATION, Role::Operator),
            joined(INVITATION, OTHER),
        ])
        .when(accept(INVITATION, THIRD))
        .then_expect_error(AccountError::InvitationNotPending);
}

#[test]
fn accepting_a_cancelled_invitation_is_refused_as_not_pending() {
    AccountTest::with(())
        .given(vec![
            opened(),
            invited(INVITATION, Role::Operator),
            removed(INVITATION),
        ])
        .when(accept(INVITATION, OTHER))
        .then_expect_error(AccountError::InvitationNotPending);
}

#[test]
fn the_owner_cannot_accept_an_invitation_to_their_own_account() {
    AccountTest::with(())
        .given(vec![opened(), invited(INVITATION, Role::Manager)])
        .when(accept(INVITATION, ID))
        .then_expect_error(AccountError::CannotInviteSelf);
}

#[test]
fn someone_already_in_the_team_cannot_accept_a_second_invitation() {
    let second = "0190f1a2-3b4c-7d5e-8f60-0000000000a2";
    AccountTest::with(())
        .given(vec![
            opened(),
            invited(INVITATION, Role::Operator),
            joined(INVITATION, OTHER),
            invited(second, Role::Manager),
        ])
        .when(accept(second, OTHER))
        .then_expect_error(AccountError::AlreadyMember);
}

#[test]
fn a_removed_member_can_join_again_through_a_new_invitation() {
    let second = "0190f1a2-3b4c-7d5e-8f60-0000000000a2";
    AccountTest::with(())
        .given(vec![
            opened(),
            invited(INVITATION, Role::Operator),
            joined(INVITATION, OTHER),
            removed(INVITATION),
            invited(second, Role::Manager),
        ])
        .when(accept(second, OTHER))
        .then_expect_events(vec![AccountEvent::MemberJoined(MemberJoined {
            account_id: ID.to_owned(),
            invitation_id: second.to_owned(),
            member_account_id: OTHER.to_owned(),
            at: LATER.to_owned(),
        })]);
}

// RemoveMember

#[test]
fn cancelling_a_pending_invitation_records_the_removal() {
    AccountTest::with(())
        .given(vec![opened(), invited(INVITATION, Role::Operator)])
        .when(remove(INVITATION))
        .then_expect_events(vec![AccountEvent::MemberRemoved(MemberRemoved {
            account_id: ID.to_owned(),
            invitation_id: INVITATION.to_owned(),
            at: LATER.to_owned(),
        })]);
}

#[test]
fn removing_an_active_member_records_the_removal_and_ends_the_membership() {
    AccountTest::with(())
        .given(vec![
            opened(),
            invited(INVITATION, Role::Operator),
            joined(INVITATION, OTHER),
        ])
        .when(remove(INVITATION))
        .then_expect_events(vec![removed_later(INVITATION)]);
    let account = state_after(vec![
        opened(),
        invited(INVITATION, Role::Operator),
        joined(INVITATION, OTHER),
        removed(INVITATION),
    ]);
    assert_eq!(
        account.member(INVITATION).map(|m| m.status),
        Some(MemberStatus::Removed)
    );
    assert!(account.active_member(OTHER).is_none());
}

fn removed_later(invitation_id: &str) -> AccountEvent {
    AccountEvent::MemberRemoved(MemberRemoved {
        account_id: ID.to_owned(),
        invitation_id: invitation_id.to_owned(),
        at: LATER.to_owned(),
    })
}

#[test]
fn removing_an_unknown_invitation_is_refused_as_not_found() {
    AccountTest::with(())
        .given(vec![opened()])
        .when(remove(INVITATION))
        .then_expect_error(AccountError::InvitationNotFound);
}

#[test]
fn removing_an_already_removed_invitation_emits_nothing() {
    AccountTest::with(())
        .given(vec![
            opened(),
            invited(INVITATION, Role::Operator),
            removed(INVITATION),
        ])
        .when(remove(INVITATION))
        .then_expect_events(vec![]);
}

// Errors and the stored form

#[test]
fn every_error_has_a_stable_code_and_a_portuguese_message() {
    let errors = [
        (
            AccountError::NotOpen,
            "account-not-open",
            "Conta não encontrada.",
        ),
        (
            AccountError::AlreadyOpen,
            "account-already-open",
            "Esta conta já existe.",
        ),
        (
            AccountError::Deleted,
            "account-deleted",
            "Esta conta foi excluída.",
        ),
        (
            AccountError::Disabled,
            "user-disabled",
            "Esta conta está desativada.",
        ),
        (
            AccountError::InvitationNotFound,
            "invitation-not-found",
            "Convite não encontrado.",
        ),
        (
            AccountError::InvitationNotPending,
            "invitation-not-pending",
            "Este convite já foi aceito ou cancelado.",
        ),
        (
            AccountError::InvitationAlreadyExists,
            "invitation-already-exists",
            "Este convite já existe.",
        ),
        (
            AccountError::RoleNotInvitable,
            "role-not-invitable",
            "Não é possível convidar alguém como proprietário da conta.",
        ),
        (
            AccountError::CannotInviteSelf,
            "cannot-invite-self",
            "Você não pode fazer parte da equipe da sua própria conta.",
        ),
        (
            AccountError::AlreadyMember,
            "already-member",
            "Você já faz parte desta equipe.",
        ),
    ];
    for (error, code, message) in errors {
        assert_eq!(error.code(), code);
        assert_eq!(error.to_string(), message);
    }
}

#[test]
fn stored_events_carry_their_type_fields_and_version_one_and_read_back() {
    let events = vec![
        opened(),
        verified(),
        AccountEvent::PasswordChanged(PasswordChanged {
            account_id: ID.to_owned(),
            password_hash: "h".to_owned(),
            reason: PasswordChangeReason::Changed,
            at: AT.to_owned(),
        }),
        AccountEvent::ProfileUpdated(ProfileUpdated {
            account_id: ID.to_owned(),
            display_name: sealed("n"),
            phone_number: None,
            default_merchant_name: None,
            default_merchant_city: Some(sealed("c")),
            at: AT.to_owned(),
        }),
        AccountEvent::PhotoChanged(PhotoChanged {
            account_id: ID.to_owned(),
            photo_url: None,
            at: AT.to_owned(),
        }),
        AccountEvent::EmailChanged(EmailChanged {
            account_id: ID.to_owned(),
            email: sealed("e"),
            at: AT.to_owned(),
        }),
        disabled(),
        AccountEvent::AccountEnabled(AccountEnabled {
            account_id: ID.to_owned(),
            at: AT.to_owned(),
        }),
        deleted(),
        invited(INVITATION, Role::Manager),
        joined(INVITATION, OTHER),
        removed(INVITATION),
    ];
    for event in events {
        let json = serde_json::to_value(&event).expect("serialisable");
        assert_eq!(json["type"], event.event_type());
        assert_eq!(json["type"], event.type_name());
        assert_eq!(json["account_id"], ID);
        assert_eq!(json["at"], event.at());
        assert_eq!(event.account_id(), ID);
        assert_eq!(event.event_version(), "1");
        let back: AccountEvent = serde_json::from_value(json).expect("reads back");
        assert_eq!(back, event);
    }
}

#[test]
fn personal_fields_are_stored_only_in_sealed_form() {
    let json = serde_json::to_value(opened()).expect("serialisable");
    assert_eq!(json["email"], "v1.ana-email");
    assert_eq!(json["display_name"], "v1.ana-name");
    let json = serde_json::to_value(invited(INVITATION, Role::Operator)).expect("serialisable");
    assert_eq!(json["email"], "v1.bruno-email");
    assert_eq!(json["role"], "operator");
}

#[test]
fn on_gratis_a_sixth_person_is_refused_by_the_plan_counting_open_invitations_and_a_removal_frees_a_place()
 {
    use domain::subscription::limits::{Limit, PlanLimitReached};
    use domain::subscription::plans::PlanId;
    let on_gratis = |command: AccountCommand| match command {
        AccountCommand::InviteMember(invite) => AccountCommand::InviteMember(InviteMember {
            plan: PlanId::Gratis,
            ..invite
        }),
        other => other,
    };
    let invited_now = AccountEvent::MemberInvited(MemberInvited {
        account_id: ID.to_owned(),
        invitation_id: "i6".to_owned(),
        email: sealed("bruno-email"),
        role: Role::Operator,
        at: LATER.to_owned(),
    });
    let ids = ["i1", "i2", "i3", "i4", "i5"];
    let mut given = vec![opened()];
    given.extend(ids.iter().map(|id| invited(id, Role::Operator)));
    given.push(joined("i1", "0196a1b2-0000-7000-8000-0000000000c1"));
    AccountTest::with(())
        .given(given.clone())
        .when(on_gratis(invite("i6", Role::Operator)))
        .then_expect_error(AccountError::PlanLimit(PlanLimitReached {
            plan: PlanId::Gratis,
            limit: Limit::ExtraAccounts,
            allowed: 5,
            premium_allows: 20,
        }));
    AccountTest::with(())
        .given(given.clone())
        .when(invite("i6", Role::Operator))
        .then_expect_events(vec![invited_now.clone()]);
    given.push(removed("i3"));
    AccountTest::with(())
        .given(given)
        .when(on_gratis(invite("i6", Role::Operator)))
        .then_expect_events(vec![invited_now.clone()]);
}
