//! The application services (`commands::{sign_up, team, account_deletion, qrcodes, payments}`)
//! on a real PostgreSQL: each takes parsed input and answers an outcome or a refusal the
//! gateway maps through the one `Refusal` mapping; what a workflow writes beside the log commits
//! with its command, or not at all.

use crate::common;

use commands::account_deletion::{self, Deletion};
use commands::action_codes::{self, Purpose};
use commands::claims::{self, EMAIL_SCOPE, digest, invite_scope, txid_scope};
use commands::payments::{self, ManualPayment};
use commands::qrcodes::{self, NewCode, txid_claim};
use commands::sign_up::{self, NewAccount, Opened};
use commands::team::{self, Acceptance, Invitation};
use commands::vault::{invitation_key_id, load_key};
use commands::{CommandError, CommandMetadata, CommandService};
use common::TestDb;
use common::codes::{new_code_at, unsubscribed};
use domain::account::{Account, AccountCommand, AccountError, DisableAccount, MemberStatus};
use domain::money::Centavos;
use domain::payment::{Payment, PaymentError};
use domain::qrcode::{QrCode, QrCodeError};
use domain::refusal::{Refusal, RefusalKind};
use domain::subscription::plans::PlanId;
use domain::team::Role;

const AT: &str = "2026-11-26T00:00:00Z";

fn accounts(db: &TestDb) -> CommandService<Account> {
    CommandService::new(db.store(), ())
}

fn by(account: &str) -> CommandMetadata {
    CommandMetadata::start().by(account.to_owned())
}

async fn open(accounts: &CommandService<Account>, email: &str) -> Opened {
    sign_up::open_account(
        accounts,
        NewAccount {
            email: email.to_owned(),
            display_name: "Dona".to_owned(),
            password_hash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA".to_owned(),
            user_agent: Some("teste".to_owned()),
            at: AT.to_owned(),
        },
    )
    .await
    .expect("the account opens")
}

async fn invite(
    accounts: &CommandService<Account>,
    owner: &str,
    email: &str,
    role: Role,
) -> Result<team::Invited, CommandError<AccountError>> {
    team::invite(
        accounts,
        Invitation {
            owner: owner.to_owned(),
            email: email.to_owned(),
            role,
            plan: domain::subscription::plans::PlanId::PremiumMensal,
            at: AT.to_owned(),
        },
        by(owner),
    )
    .await
}

async fn accept(
    accounts: &CommandService<Account>,
    code: &str,
    member: &str,
) -> Result<team::Accepted, CommandError<AccountError>> {
    team::accept(
        accounts,
        Acceptance {
            code: code.to_owned(),
            member: member.to_owned(),
            at: AT.to_owned(),
        },
    )
    .await
}

fn refusal<T: std::fmt::Debug, E: Refusal + std::fmt::Debug>(
    result: Result<T, CommandError<E>>,
) -> E {
    match result {
        Err(CommandError::Rejected(refusal)) => refusal,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

async fn count(db: &TestDb, sql: &str) -> i64 {
    sqlx::query_scalar(sqlx::AssertSqlSafe(sql.to_owned()))
        .fetch_one(&db.pool)
        .await
        .expect("count")
}

#[tokio::test]
async fn a_sign_up_opens_the_account_with_its_claim_key_session_and_verification_code_together() {
    // Given a fresh database
    let db = TestDb::new().await;
    let accounts = accounts(&db);

    // When a person signs up
    let opened = open(&accounts, " Dona@Padaria.test ").await;

    // Then the address is claimed by the account, normalised, and the account is open
    assert_eq!(opened.email, "dona@padaria.test");
    assert_eq!(
        claims::owner_of(&db.pool, EMAIL_SCOPE, &digest("dona@padaria.test"))
            .await
            .unwrap(),
        Some(opened.account_id.clone())
    );
    assert!(
        sign_up::address_taken(&accounts, "DONA@padaria.test")
            .await
            .unwrap()
    );
    let loaded = accounts.load(&opened.account_id).await.unwrap();
    assert!(loaded.aggregate.is_open());
    // and its vault key, its session and its verification link exist
    assert!(
        load_key(&db.pool, &opened.account_id)
            .await
            .unwrap()
            .is_some()
    );
    assert_eq!(count(&db, "select count(*) from auth_sessions").await, 1);
    let pending = action_codes::peek(&db.pool, opened.verification.as_str(), Purpose::VerifyEmail)
        .await
        .unwrap()
        .expect("the verification code is live");
    assert_eq!(pending.account_id, opened.account_id);
    assert!(opened.position.is_some());
}

#[tokio::test]
async fn a_second_sign_up_with_the_same_address_is_refused_and_writes_nothing() {
    // Given an account for an address
    let db = TestDb::new().await;
    let accounts = accounts(&db);
    open(&accounts, "dona@padaria.test").await;

    // When another sign-up names the same address in another case
    let again = sign_up::open_account(
        &accounts,
        NewAccount {
            email: "DONA@padaria.test".to_owned(),
            display_name: "Outra".to_owned(),
            password_hash: "x".to_owned(),
            user_agent: None,
            at: AT.to_owned(),
        },
    )
    .await;

    // Then it is refused as the address's claim, and no second account, session or code exists
    assert!(
        matches!(&again, Err(CommandError::ClaimTaken { scope }) if scope == EMAIL_SCOPE),
        "{again:?}"
    );
    assert_eq!(count(&db, "select count(*) from auth_sessions").await, 1);
    assert_eq!(count(&db, "select count(*) from action_codes").await, 1);
    assert_eq!(count(&db, "select count(*) from account_keys").await, 1);
}

#[tokio::test]
async fn an_invitation_and_its_link_commit_together_and_the_invited_address_accepts_it() {
    // Given an owner and the person they will invite, both with accounts
    let db = TestDb::new().await;
    let accounts = accounts(&db);
    let owner = open(&accounts, "dona@padaria.test").await.account_id;
    let caixa = open(&accounts, "caixa@padaria.test").await.account_id;

    // When the owner invites the address
    let invited = invite(&accounts, &owner, "Caixa@Padaria.test", Role::Operator)
        .await
        .expect("invited");

    // Then the invitation, its claim, its key and its live link exist together
    assert_eq!(invited.email, "caixa@padaria.test");
    let team = accounts.load(&owner).await.unwrap();
    let member = team
        .aggregate
        .member(&invited.invitation_id)
        .expect("pending");
    assert_eq!(member.status, MemberStatus::Invited);
    assert_eq!(
        claims::owner_of(
            &db.pool,
            &invite_scope(&owner),
            &digest("caixa@padaria.test")
        )
        .await
        .unwrap(),
        Some(owner.clone())
    );
    assert!(
        load_key(&db.pool, &invitation_key_id(&invited.invitation_id))
            .await
            .unwrap()
            .is_some()
    );
    let pending = action_codes::peek(&db.pool, invited.code.as_str(), Purpose::Invitation)
        .await
        .unwrap()
        .expect("the link works");
    assert_eq!(pending.account_id, owner);

    // And when the invited address accepts with the link
    let accepted = accept(&accounts, &format!(" {} ", invited.code.as_str()), &caixa)
        .await
        .expect("accepted");

    // Then the person joined with the role offered, the address is verified and the link is spent
    assert_eq!(accepted.owner, owner);
    assert_eq!(accepted.role, Role::Operator);
    assert!(accepted.verified_address);
    let team = accounts.load(&owner).await.unwrap();
    assert!(team.aggregate.active_member(&caixa).is_some());
    assert!(
        accounts
            .load(&caixa)
            .await
            .unwrap()
            .aggregate
            .email_verified()
    );
    assert!(
        action_codes::peek(&db.pool, invited.code.as_str(), Purpose::Invitation)
            .await
            .unwrap()
            .is_none()
    );
    let again = accept(&accounts, invited.code.as_str(), &caixa).await;
    assert!(
        matches!(again, Err(CommandError::ActionCodeExpired)),
        "{again:?}"
    );
}

#[tokio::test]
async fn inviting_ones_own_address_or_an_address_twice_is_refused_on_the_email_field() {
    // Given an owner who invited an address once
    let db = TestDb::new().await;
    let accounts = accounts(&db);
    let owner = open(&accounts, "dona@padaria.test").await.account_id;
    invite(&accounts, &owner, "caixa@padaria.test", Role::Operator)
        .await
        .expect("invited");

    // When the owner invites their own address, then the same address again
    let own = refusal(invite(&accounts, &owner, "DONA@padaria.test", Role::Manager).await);
    let twice = refusal(invite(&accounts, &owner, "caixa@padaria.test ", Role::Manager).await);

    // Then each is a refusal naming the e-mail field, and nothing more was written
    assert_eq!(
        (own.code(), own.kind(), own.field()),
        ("cannot-invite-self", RefusalKind::Invalid, Some("email"))
    );
    assert_eq!(
        (twice.code(), twice.kind(), twice.field()),
        (
            "member-already-invited",
            RefusalKind::Conflict,
            Some("email")
        )
    );
    assert_eq!(
        count(
            &db,
            "select count(*) from action_codes where purpose = 'invitation'"
        )
        .await,
        1
    );
    assert_eq!(
        accounts
            .load(&owner)
            .await
            .unwrap()
            .aggregate
            .members()
            .len(),
        1
    );
}

#[tokio::test]
async fn an_invitation_is_refused_to_another_address_and_its_link_stays_unspent() {
    // Given an invitation to one address, and an account with another
    let db = TestDb::new().await;
    let accounts = accounts(&db);
    let owner = open(&accounts, "dona@padaria.test").await.account_id;
    let stranger = open(&accounts, "outra@loja.test").await.account_id;
    let invited = invite(&accounts, &owner, "caixa@padaria.test", Role::Manager)
        .await
        .expect("invited");

    // When the other account accepts with the link
    let refused = refusal(accept(&accounts, invited.code.as_str(), &stranger).await);

    // Then it is forbidden, nobody joined, and the link still works for the invited address
    assert_eq!(refused.code(), "invitation-for-another-email");
    assert_eq!(refused.kind(), RefusalKind::Forbidden);
    assert!(
        accounts
            .load(&owner)
            .await
            .unwrap()
            .aggregate
            .active_member(&stranger)
            .is_none()
    );
    assert!(
        action_codes::peek(&db.pool, invited.code.as_str(), Purpose::Invitation)
            .await
            .unwrap()
            .is_some()
    );
}

#[tokio::test]
async fn accepting_a_disabled_teams_invitation_says_the_team_is_disabled_and_an_unknown_code_is_a_dead_link()
 {
    // Given an invitation from an owner whose account was then disabled
    let db = TestDb::new().await;
    let accounts = accounts(&db);
    let owner = open(&accounts, "dona@padaria.test").await.account_id;
    let caixa = open(&accounts, "caixa@padaria.test").await.account_id;
    let invited = invite(&accounts, &owner, "caixa@padaria.test", Role::Operator)
        .await
        .expect("invited");
    accounts
        .execute(
            &owner,
            AccountCommand::DisableAccount(DisableAccount { at: AT.to_owned() }),
            by("admin"),
        )
        .await
        .expect("disabled");

    // When the invitee accepts, and when someone uses a made-up code
    let disabled = refusal(accept(&accounts, invited.code.as_str(), &caixa).await);
    let unknown = accept(&accounts, "nao-existe", &caixa).await;

    // Then the first is the team's own "disabled" (not the invitee's), the second a dead link
    assert_eq!(disabled.code(), "account-disabled");
    assert_eq!(disabled.kind(), RefusalKind::Forbidden);
    assert!(
        matches!(unknown, Err(CommandError::ActionCodeExpired)),
        "{unknown:?}"
    );
}

#[tokio::test]
async fn removing_a_member_releases_the_address_and_shreds_the_invitations_key_in_one_go() {
    // Given a pending invitation
    let db = TestDb::new().await;
    let accounts = accounts(&db);
    let owner = open(&accounts, "dona@padaria.test").await.account_id;
    let invited = invite(&accounts, &owner, "caixa@padaria.test", Role::Operator)
        .await
        .expect("invited");

    // When the owner removes it, and asks to remove an invitation that never existed
    team::remove_member(
        &accounts,
        &owner,
        &invited.invitation_id,
        AT.to_owned(),
        by(&owner),
    )
    .await
    .expect("removed");
    let unknown = refusal(
        team::remove_member(&accounts, &owner, "nao-existe", AT.to_owned(), by(&owner)).await,
    );

    // Then the address is free to invite again and its key is gone; the unknown one is not found
    assert!(
        load_key(&db.pool, &invitation_key_id(&invited.invitation_id))
            .await
            .unwrap()
            .is_none()
    );
    assert_eq!(
        claims::owner_of(
            &db.pool,
            &invite_scope(&owner),
            &digest("caixa@padaria.test")
        )
        .await
        .unwrap(),
        None
    );
    assert_eq!(unknown.kind(), RefusalKind::NotFound);
    invite(&accounts, &owner, "caixa@padaria.test", Role::Manager)
        .await
        .expect("invited again");
}

#[tokio::test]
async fn deleting_an_account_leaves_its_teams_then_erases_everything_it_held_beside_the_log() {
    // Given a member of another team who also invited someone to their own
    let db = TestDb::new().await;
    let accounts = accounts(&db);
    let owner = open(&accounts, "dona@padaria.test").await.account_id;
    let caixa = open(&accounts, "caixa@padaria.test").await.account_id;
    let joined = invite(&accounts, &owner, "caixa@padaria.test", Role::Operator)
        .await
        .expect("invited");
    accept(&accounts, joined.code.as_str(), &caixa)
        .await
        .expect("joined");
    let sent = invite(&accounts, &caixa, "ajudante@padaria.test", Role::Manager)
        .await
        .expect("invited by the member");

    // When the member deletes their account, naming the team they work in
    let deleted = account_deletion::delete_account(
        &accounts,
        Deletion {
            account_id: caixa.clone(),
            teams: vec![owner.clone()],
            at: AT.to_owned(),
        },
    )
    .await
    .expect("deleted");

    // Then they left the team, whose claim and invitation key are gone
    assert_eq!(deleted.teams_left, 1);
    assert!(deleted.position.is_some());
    let team = accounts.load(&owner).await.unwrap();
    assert!(team.aggregate.active_member(&caixa).is_none());
    assert!(
        load_key(&db.pool, &invitation_key_id(&joined.invitation_id))
            .await
            .unwrap()
            .is_none()
    );
    // and the account is deleted with its key, its claims, its sessions, its codes and the
    // keys of the invitations it sent
    assert!(accounts.load(&caixa).await.unwrap().aggregate.is_deleted());
    assert!(load_key(&db.pool, &caixa).await.unwrap().is_none());
    assert!(
        load_key(&db.pool, &invitation_key_id(&sent.invitation_id))
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        !sign_up::address_taken(&accounts, "caixa@padaria.test")
            .await
            .unwrap()
    );
    let caixa_sql = format!("select count(*) from auth_sessions where account_id = '{caixa}'");
    assert_eq!(count(&db, &caixa_sql).await, 0);
    let codes_sql = format!("select count(*) from action_codes where account_id = '{caixa}'");
    assert_eq!(count(&db, &codes_sql).await, 0);

    // And a second deletion is refused as an account that is gone
    let again = refusal(
        account_deletion::delete_account(
            &accounts,
            Deletion {
                account_id: caixa.clone(),
                teams: Vec::new(),
                at: AT.to_owned(),
            },
        )
        .await,
    );
    assert_eq!(again.kind(), RefusalKind::NotFound);
}

fn new_code(owner: &str, txid: &str, typed: bool) -> NewCode {
    new_code_at(owner, txid, typed, PlanId::Gratis, AT)
}

#[tokio::test]
async fn a_typed_txid_is_claimed_with_its_code_and_a_second_code_with_it_is_refused_on_the_txid_field()
 {
    // Given an account's code with a typed txid
    let db = TestDb::new().await;
    let codes: CommandService<QrCode> = CommandService::new(db.store(), ());
    let owner = uuid::Uuid::now_v7().to_string();
    let made = qrcodes::create(&codes, new_code(&owner, "PEDIDO42", true), |_| by(&owner))
        .await
        .expect("made");
    assert_eq!(
        claims::owner_of(&db.pool, &txid_scope(&owner), &txid_claim("pedido42"))
            .await
            .unwrap(),
        Some(made.qrcode_id.clone())
    );

    // When another code of the account types the same txid in another case
    let again =
        refusal(qrcodes::create(&codes, new_code(&owner, "Pedido42", true), |_| by(&owner)).await);

    // Then it is refused on the txid field, naming the txid, and no second code exists
    assert_eq!(
        (again.code(), again.kind(), again.field()),
        ("txid-taken", RefusalKind::Conflict, Some("txid"))
    );
    assert!(again.to_string().contains("Pedido42"));
    assert_eq!(
        count(
            &db,
            "select count(*) from events where stream_type = 'qrcode'"
        )
        .await,
        1
    );
}

#[tokio::test]
async fn a_generated_txid_that_is_taken_is_drawn_again() {
    // Given an account whose code holds a txid
    let db = TestDb::new().await;
    let codes: CommandService<QrCode> = CommandService::new(db.store(), ());
    let owner = uuid::Uuid::now_v7().to_string();
    qrcodes::create(&codes, new_code(&owner, "GERADO1", true), |_| by(&owner))
        .await
        .expect("made");

    // When a creation whose generated txid happens to be the same runs
    let made = qrcodes::create(&codes, new_code(&owner, "GERADO1", false), |_| by(&owner))
        .await
        .expect("made with another txid");

    // Then it was made with a fresh txid
    let txid = made.request.txid.expect("a txid");
    assert_ne!(txid, "GERADO1");
}

#[tokio::test]
async fn a_batch_whose_txid_is_taken_makes_nothing_and_a_good_batch_makes_every_code() {
    // Given an account's code with a txid
    let db = TestDb::new().await;
    let codes: CommandService<QrCode> = CommandService::new(db.store(), ());
    let owner = uuid::Uuid::now_v7().to_string();
    qrcodes::create(&codes, new_code(&owner, "LOTE2", true), |_| by(&owner))
        .await
        .expect("made");
    let batch = |txids: &[&str]| {
        txids
            .iter()
            .map(|txid| new_code(&owner, txid, false).create)
            .collect::<Vec<_>>()
    };

    // When a batch reuses it, and when a batch does not
    let clash = refusal(
        qrcodes::create_batch(
            &codes,
            batch(&["LOTE1", "LOTE2"]),
            unsubscribed(PlanId::Gratis),
            by(&owner),
        )
        .await,
    );
    let made = qrcodes::create_batch(
        &codes,
        batch(&["LOTE3", "LOTE4"]),
        unsubscribed(PlanId::Gratis),
        by(&owner),
    )
    .await
    .expect("made");

    // Then the first made nothing (refused as a conflict), the second made both
    assert_eq!(clash, QrCodeError::BatchTxidsTaken);
    assert_eq!(clash.kind(), RefusalKind::Conflict);
    assert_eq!(made.outcomes.len(), 2);
    assert_eq!(
        count(
            &db,
            "select count(distinct stream_id) from events where stream_type = 'qrcode'"
        )
        .await,
        3
    );
}

#[tokio::test]
async fn a_payment_typed_in_by_hand_is_recorded_under_its_end_to_end_id_or_a_manual_reference() {
    // Given an account
    let db = TestDb::new().await;
    let payments_service: CommandService<Payment> = CommandService::new(db.store(), ());
    let account = uuid::Uuid::now_v7().to_string();
    let manual = |e2e: Option<&str>| ManualPayment {
        account_id: account.clone(),
        end_to_end_id: e2e.map(str::to_owned),
        manual_id: uuid::Uuid::now_v7(),
        amount: Centavos::new(1250),
        paid_at: AT.to_owned(),
        qrcode: None,
        note: Some("no balcão".to_owned()),
        recorded_by: account.clone(),
        recorded_at: AT.to_owned(),
    };
    let e2e = "E00000000202611260000abcdefghijk";

    // When one is recorded with an end-to-end id, one without, and the first again
    let with_id = payments::record_manual(&payments_service, manual(Some(e2e)), by(&account))
        .await
        .expect("recorded");
    let without = payments::record_manual(&payments_service, manual(None), by(&account))
        .await
        .expect("recorded");
    let twice = refusal::<_, PaymentError>(
        payments::record_manual(&payments_service, manual(Some(e2e)), by(&account)).await,
    );

    // Then each has its reference, and the repeat is refused as already recorded
    assert_eq!(with_id.reference, e2e);
    assert!(without.reference.starts_with("manual-"));
    assert!(with_id.position.is_some() && without.position.is_some());
    assert_eq!(twice.code(), "payment-already-recorded");
    assert_eq!(twice.kind(), RefusalKind::Conflict);
}
