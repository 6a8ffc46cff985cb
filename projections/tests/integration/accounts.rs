//! The `accounts` read model: Account commands run through the real command service and event
//! store (keys stored and shredded as effects of the same transaction), relayed through NATS and
//! projected, then read back with the query helpers.

use crate::support;

use std::sync::Arc;

use commands::vault::AccountKey;
use commands::{
    CommandMetadata, CommandService, Effects, ExpectedVersion, PgEventStore, Upcasters,
};
use domain::account::{
    AcceptInvitation, Account, AccountCommand, ChangeEmail, ChangePhoto, DeleteAccount,
    DisableAccount, InviteMember, MemberStatus, OpenAccount, RemoveMember, UpdateProfile,
    VerifyEmail,
};
use domain::team::Role;
use projections::accounts::{self, WorkspaceView};
use projections::replay::{self, ReplayOptions};
use projections::{CancellationToken, Projection, TableSet};
use support::{NewEvent, TestEnv, read_feed};
use tokio::task::JoinHandle;
use uuid::Uuid;

const AT: &str = "2026-11-21T10:00:00Z";

/// A test database with the relay and the `accounts` projector running, and the Account command
/// service on the same database.
struct Harness {
    env: TestEnv,
    service: CommandService<Account>,
    shutdown: CancellationToken,
    tasks: Vec<JoinHandle<Result<(), projections::Error>>>,
}

/// An account opened in a test, with its key (to seal values as the command layer does).
struct Person {
    id: Uuid,
    key: AccountKey,
}

impl Person {
    fn id(&self) -> String {
        self.id.to_string()
    }
}

impl Harness {
    async fn start() -> Harness {
        let env = TestEnv::start().await;
        let service = CommandService::new(PgEventStore::new(env.pool.clone()), ());
        let shutdown = CancellationToken::new();
        let tasks = vec![
            env.spawn_relay(env.relay_config("a"), &shutdown),
            env.spawn_projector(vec![Arc::new(accounts::Accounts)], &shutdown),
        ];
        Harness {
            env,
            service,
            shutdown,
            tasks,
        }
    }

    /// Runs `command` on `account`'s stream with `effects`, then waits until the read model
    /// shows it.
    async fn run(&self, account: &str, command: AccountCommand, effects: Effects) {
        let outcome = self
            .service
            .execute_with(
                account,
                command,
                ExpectedVersion::Any,
                CommandMetadata::start(),
                &effects,
            )
            .await
            .expect("the command is accepted");
        if let Some(position) = outcome.position {
            self.env.wait_for_projection(accounts::NAME, position).await;
        }
    }

    /// Opens an account for `name` / `email` the way sign-up does: key stored with the events.
    async fn open(&self, name: &str, email: &str) -> Person {
        let id = Uuid::now_v7();
        let key = AccountKey::generate(id.to_string());
        let command = AccountCommand::OpenAccount(OpenAccount {
            account_id: id.to_string(),
            email: key.seal(email),
            display_name: key.seal(name),
            password_hash: "$argon2id$v=19$teste".to_owned(),
            at: AT.to_owned(),
        });
        self.run(&id.to_string(), command, Effects::new().store_key(&key))
            .await;
        Person { id, key }
    }

    /// `owner` invites `email` as `role`, sealing it with the invitation's own key as the gateway
    /// does; returns the invitation id.
    async fn invite(&self, owner: &Person, email: &str, role: Role) -> String {
        let invitation_id = Uuid::now_v7().to_string();
        let key = AccountKey::generate(commands::vault::invitation_key_id(&invitation_id));
        let command = AccountCommand::InviteMember(InviteMember {
            invitation_id: invitation_id.clone(),
            email: key.seal(email),
            role,
            plan: domain::subscription::plans::PlanId::PremiumMensal,
            at: "2026-11-21T11:00:00Z".to_owned(),
        });
        self.run(&owner.id(), command, Effects::new().store_key(&key))
            .await;
        invitation_id
    }

    async fn accept(&self, owner: &Person, invitation_id: &str, member: &Person, at: &str) {
        let command = AccountCommand::AcceptInvitation(AcceptInvitation {
            invitation_id: invitation_id.to_owned(),
            member_account_id: member.id(),
            at: at.to_owned(),
        });
        self.run(&owner.id(), command, Effects::new()).await;
    }

    async fn delete(&self, person: &Person) {
        let command = AccountCommand::DeleteAccount(DeleteAccount { at: AT.to_owned() });
        self.run(&person.id(), command, Effects::new().shred_key(person.id()))
            .await;
    }

    async fn stop(self) {
        self.shutdown.cancel();
        for task in self.tasks {
            task.await.expect("task").expect("stops cleanly");
        }
    }
}

#[tokio::test]
async fn an_opened_account_shows_with_its_sealed_fields_opened() {
    let h = Harness::start().await;
    let ana = h.open("Ana Souza", "ana@exemplo.com.br").await;

    let view = accounts::find(&h.env.pool, ana.id)
        .await
        .unwrap()
        .expect("the account is in the read model");
    assert_eq!(view.account_id, ana.id);
    assert_eq!(view.email.as_deref(), Some("ana@exemplo.com.br"));
    assert_eq!(view.display_name.as_deref(), Some("Ana Souza"));
    assert!(!view.email_verified);
    assert!(!view.disabled);
    assert_eq!(view.phone_number, None);
    assert_eq!(view.photo_url, None);
    assert_eq!(view.created_at.to_rfc3339(), "2026-11-21T10:00:00+00:00");
    assert_eq!(view.updated_at, view.created_at);
    assert_eq!(view.version, 1);
    // Nothing personal is stored in plain text in the log.
    let plain: i64 = sqlx::query_scalar(
        "select count(*) from events where payload::text like '%ana@exemplo%'
                                      or payload::text like '%Souza%'",
    )
    .fetch_one(&h.env.pool)
    .await
    .unwrap();
    assert_eq!(plain, 0);
    assert!(
        accounts::find(&h.env.pool, Uuid::now_v7())
            .await
            .unwrap()
            .is_none()
    );
    h.stop().await;
}

#[tokio::test]
async fn profile_photo_email_verification_and_disabling_fold_into_the_row() {
    let h = Harness::start().await;
    let ana = h.open("Ana", "ana@exemplo.com.br").await;
    let id = ana.id();
    let later = "2026-11-22T09:30:00Z";
    h.run(
        &id,
        AccountCommand::VerifyEmail(VerifyEmail { at: AT.to_owned() }),
        Effects::new(),
    )
    .await;
    assert!(
        accounts::find(&h.env.pool, ana.id)
            .await
            .unwrap()
            .unwrap()
            .email_verified
    );

    h.run(
        &id,
        AccountCommand::UpdateProfile(UpdateProfile {
            display_name: ana.key.seal("Ana Souza"),
            phone_number: Some(ana.key.seal("+5511987654321")),
            default_merchant_name: Some(ana.key.seal("PADARIA DA ANA")),
            default_merchant_city: Some(ana.key.seal("SAO PAULO")),
            at: later.to_owned(),
        }),
        Effects::new(),
    )
    .await;
    h.run(
        &id,
        AccountCommand::ChangePhoto(ChangePhoto {
            photo_url: Some(format!("/fotos/{id}?v=abc")),
            at: later.to_owned(),
        }),
        Effects::new(),
    )
    .await;
    h.run(
        &id,
        AccountCommand::ChangeEmail(ChangeEmail {
            email: ana.key.seal("ana.souza@exemplo.com.br"),
            at: later.to_owned(),
        }),
        Effects::new(),
    )
    .await;
    h.run(
        &id,
        AccountCommand::DisableAccount(DisableAccount {
            at: later.to_owned(),
        }),
        Effects::new(),
    )
    .await;

    let view = accounts::find(&h.env.pool, ana.id).await.unwrap().unwrap();
    assert_eq!(view.display_name.as_deref(), Some("Ana Souza"));
    assert_eq!(view.phone_number.as_deref(), Some("+5511987654321"));
    assert_eq!(
        view.default_merchant_name.as_deref(),
        Some("PADARIA DA ANA")
    );
    assert_eq!(view.default_merchant_city.as_deref(), Some("SAO PAULO"));
    assert_eq!(view.photo_url, Some(format!("/fotos/{id}?v=abc")));
    assert_eq!(view.email.as_deref(), Some("ana.souza@exemplo.com.br"));
    assert!(!view.email_verified, "a new address starts unverified");
    assert!(view.disabled);
    assert_eq!(view.version, 6);
    assert_eq!(view.updated_at.to_rfc3339(), "2026-11-22T09:30:00+00:00");
    assert_eq!(view.created_at.to_rfc3339(), "2026-11-21T10:00:00+00:00");
    h.stop().await;
}

#[tokio::test]
async fn members_of_lists_pending_and_active_invitations_and_forgets_removed_ones() {
    let h = Harness::start().await;
    let ana = h.open("Ana", "ana@exemplo.com.br").await;
    let bruno = h.open("Bruno", "bruno@exemplo.com.br").await;
    let first = h.invite(&ana, "bruno@exemplo.com.br", Role::Manager).await;
    let second = h.invite(&ana, "carla@exemplo.com.br", Role::Operator).await;
    let third = h.invite(&ana, "davi@exemplo.com.br", Role::Operator).await;
    h.accept(&ana, &first, &bruno, "2026-11-21T12:00:00Z").await;
    h.run(
        &ana.id(),
        AccountCommand::RemoveMember(RemoveMember {
            invitation_id: third.clone(),
            at: AT.to_owned(),
        }),
        Effects::new(),
    )
    .await;

    let members = accounts::members_of(&h.env.pool, ana.id).await.unwrap();
    assert_eq!(members.len(), 2, "{members:?}");
    assert_eq!(members[0].invitation_id, first);
    assert_eq!(members[0].account_id, ana.id);
    assert_eq!(members[0].email.as_deref(), Some("bruno@exemplo.com.br"));
    assert_eq!(members[0].role, Role::Manager);
    assert_eq!(members[0].status, MemberStatus::Active);
    assert_eq!(members[0].member_account_id, Some(bruno.id));
    assert_eq!(
        members[0].joined_at.map(|t| t.to_rfc3339()).as_deref(),
        Some("2026-11-21T12:00:00+00:00")
    );
    assert_eq!(members[1].invitation_id, second);
    assert_eq!(members[1].email.as_deref(), Some("carla@exemplo.com.br"));
    assert_eq!(members[1].role, Role::Operator);
    assert_eq!(members[1].status, MemberStatus::Invited);
    assert_eq!(members[1].member_account_id, None);
    assert_eq!(members[1].joined_at, None);
    assert!(
        accounts::members_of(&h.env.pool, bruno.id)
            .await
            .unwrap()
            .is_empty()
    );
    // The workspace's row followed the stream: open + 3 invitations + join + removal.
    let view = accounts::find(&h.env.pool, ana.id).await.unwrap().unwrap();
    assert_eq!(view.version, 6);
    h.stop().await;
}

#[tokio::test]
async fn role_in_answers_owner_for_oneself_the_role_of_an_active_member_and_none_otherwise() {
    let h = Harness::start().await;
    let ana = h.open("Ana", "ana@exemplo.com.br").await;
    let bruno = h.open("Bruno", "bruno@exemplo.com.br").await;
    let carla = h.open("Carla", "carla@exemplo.com.br").await;
    let pool = &h.env.pool;

    assert_eq!(
        accounts::role_in(pool, ana.id, ana.id).await.unwrap(),
        Some(Role::Owner)
    );
    let nobody = Uuid::now_v7();
    assert_eq!(accounts::role_in(pool, nobody, nobody).await.unwrap(), None);
    assert_eq!(
        accounts::role_in(pool, ana.id, bruno.id).await.unwrap(),
        None
    );

    let to_bruno = h.invite(&ana, "bruno@exemplo.com.br", Role::Operator).await;
    let to_carla = h.invite(&ana, "carla@exemplo.com.br", Role::Manager).await;
    assert_eq!(
        accounts::role_in(pool, ana.id, bruno.id).await.unwrap(),
        None,
        "a pending invitation gives no role"
    );
    h.accept(&ana, &to_bruno, &bruno, "2026-11-21T12:00:00Z")
        .await;
    h.accept(&ana, &to_carla, &carla, "2026-11-21T12:05:00Z")
        .await;
    assert_eq!(
        accounts::role_in(pool, ana.id, bruno.id).await.unwrap(),
        Some(Role::Operator)
    );
    assert_eq!(
        accounts::role_in(pool, ana.id, carla.id).await.unwrap(),
        Some(Role::Manager)
    );
    // Membership goes one way only.
    assert_eq!(
        accounts::role_in(pool, bruno.id, ana.id).await.unwrap(),
        None
    );

    h.run(
        &ana.id(),
        AccountCommand::RemoveMember(RemoveMember {
            invitation_id: to_bruno,
            at: AT.to_owned(),
        }),
        Effects::new(),
    )
    .await;
    assert_eq!(
        accounts::role_in(pool, ana.id, bruno.id).await.unwrap(),
        None
    );
    assert_eq!(
        accounts::role_in(pool, ana.id, carla.id).await.unwrap(),
        Some(Role::Manager)
    );
    h.stop().await;
}

#[tokio::test]
async fn workspaces_of_lists_the_own_account_first_then_the_teams_joined_in_order() {
    let h = Harness::start().await;
    let ana = h.open("Ana", "ana@exemplo.com.br").await;
    let bruno = h.open("Bruno", "bruno@exemplo.com.br").await;
    let carla = h.open("Carla", "carla@exemplo.com.br").await;
    // Carla joins Bruno's team before Ana's.
    let from_ana = h.invite(&ana, "carla@exemplo.com.br", Role::Manager).await;
    let from_bruno = h
        .invite(&bruno, "carla@exemplo.com.br", Role::Operator)
        .await;
    h.accept(&bruno, &from_bruno, &carla, "2026-11-21T12:00:00Z")
        .await;
    h.accept(&ana, &from_ana, &carla, "2026-11-21T13:00:00Z")
        .await;

    let workspaces = accounts::workspaces_of(&h.env.pool, carla.id)
        .await
        .unwrap();
    assert_eq!(
        workspaces,
        vec![
            WorkspaceView {
                account_id: carla.id,
                display_name: Some("Carla".to_owned()),
                role: Role::Owner
            },
            WorkspaceView {
                account_id: bruno.id,
                display_name: Some("Bruno".to_owned()),
                role: Role::Operator
            },
            WorkspaceView {
                account_id: ana.id,
                display_name: Some("Ana".to_owned()),
                role: Role::Manager
            },
        ]
    );
    assert_eq!(
        accounts::workspaces_of(&h.env.pool, ana.id).await.unwrap(),
        vec![WorkspaceView {
            account_id: ana.id,
            display_name: Some("Ana".to_owned()),
            role: Role::Owner
        }]
    );
    assert!(
        accounts::workspaces_of(&h.env.pool, Uuid::now_v7())
            .await
            .unwrap()
            .is_empty()
    );
    h.stop().await;
}

#[tokio::test]
async fn a_deleted_account_leaves_no_row_no_team_and_no_place_in_other_teams() {
    let h = Harness::start().await;
    let ana = h.open("Ana", "ana@exemplo.com.br").await;
    let bruno = h.open("Bruno", "bruno@exemplo.com.br").await;
    // Bruno is in Ana's team and has a team of his own.
    let to_bruno = h.invite(&ana, "bruno@exemplo.com.br", Role::Manager).await;
    h.accept(&ana, &to_bruno, &bruno, "2026-11-21T12:00:00Z")
        .await;
    h.invite(&ana, "carla@exemplo.com.br", Role::Operator).await;
    h.invite(&bruno, "davi@exemplo.com.br", Role::Operator)
        .await;

    h.delete(&bruno).await;

    let pool = &h.env.pool;
    assert!(accounts::find(pool, bruno.id).await.unwrap().is_none());
    assert!(
        accounts::members_of(pool, bruno.id)
            .await
            .unwrap()
            .is_empty()
    );
    assert!(
        accounts::workspaces_of(pool, bruno.id)
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        accounts::role_in(pool, ana.id, bruno.id).await.unwrap(),
        None
    );
    let rows: i64 = sqlx::query_scalar(
        "select count(*) from account_members where account_id = $1 or member_account_id = $1",
    )
    .bind(bruno.id)
    .fetch_one(pool)
    .await
    .unwrap();
    assert_eq!(rows, 0);
    // Ana and the rest of her team are untouched.
    assert!(accounts::find(pool, ana.id).await.unwrap().is_some());
    let left = accounts::members_of(pool, ana.id).await.unwrap();
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].email.as_deref(), Some("carla@exemplo.com.br"));
    // The key went in the same transaction as the event.
    let keys: i64 = sqlx::query_scalar("select count(*) from account_keys where account_id = $1")
        .bind(bruno.id())
        .fetch_one(pool)
        .await
        .unwrap();
    assert_eq!(keys, 0);
    h.stop().await;
}

fn replay_options() -> ReplayOptions {
    ReplayOptions {
        page_size: 100,
        ..ReplayOptions::default()
    }
}

#[tokio::test]
async fn on_replay_a_shredded_key_reads_as_null_personal_fields_and_deleted_accounts_stay_gone() {
    let h = Harness::start().await;
    let ana = h.open("Ana", "ana@exemplo.com.br").await;
    let bruno = h.open("Bruno", "bruno@exemplo.com.br").await;
    let carla = h.open("Carla", "carla@exemplo.com.br").await;
    h.run(
        &ana.id(),
        AccountCommand::UpdateProfile(UpdateProfile {
            display_name: ana.key.seal("Ana Souza"),
            phone_number: Some(ana.key.seal("+5511987654321")),
            default_merchant_name: None,
            default_merchant_city: None,
            at: AT.to_owned(),
        }),
        Effects::new(),
    )
    .await;
    h.run(
        &ana.id(),
        AccountCommand::ChangePhoto(ChangePhoto {
            photo_url: Some("/fotos/ana?v=1".to_owned()),
            at: AT.to_owned(),
        }),
        Effects::new(),
    )
    .await;
    let invitation = h.invite(&ana, "bruno@exemplo.com.br", Role::Operator).await;
    h.accept(&ana, &invitation, &bruno, AT).await;
    h.delete(&carla).await;
    let live = accounts::find(&h.env.pool, ana.id).await.unwrap().unwrap();
    assert_eq!(live.display_name.as_deref(), Some("Ana Souza"));

    // Ana's key is destroyed (as an operator would, by LGPD request) but her stream goes on.
    sqlx::query("delete from account_keys where account_id = $1")
        .bind(ana.id())
        .execute(&h.env.pool)
        .await
        .unwrap();
    let reports = replay::replay(
        &h.env.pool,
        &[Arc::new(accounts::Accounts) as Arc<dyn Projection>],
        &replay_options(),
    )
    .await
    .expect("replay succeeds");
    assert_eq!(reports.len(), 1);

    let pool = &h.env.pool;
    let replayed = accounts::find(pool, ana.id).await.unwrap().unwrap();
    assert_eq!(replayed.email, None);
    assert_eq!(replayed.display_name, None);
    assert_eq!(replayed.phone_number, None);
    // What was never sealed, and the state, survive.
    assert_eq!(replayed.photo_url.as_deref(), Some("/fotos/ana?v=1"));
    assert_eq!(replayed.version, live.version);
    assert_eq!(replayed.created_at, live.created_at);
    let members = accounts::members_of(pool, ana.id).await.unwrap();
    assert_eq!(members.len(), 1);
    assert_eq!(
        members[0].email.as_deref(),
        Some("bruno@exemplo.com.br"),
        "Bruno's address is sealed with the invitation's own key, which lives until it ends"
    );
    assert_eq!(members[0].member_account_id, Some(bruno.id));
    // Bruno's key is intact: his fields still open; Carla stays deleted.
    let bruno_view = accounts::find(pool, bruno.id).await.unwrap().unwrap();
    assert_eq!(bruno_view.email.as_deref(), Some("bruno@exemplo.com.br"));
    assert!(accounts::find(pool, carla.id).await.unwrap().is_none());
    assert_eq!(
        accounts::workspaces_of(pool, bruno.id).await.unwrap(),
        vec![
            WorkspaceView {
                account_id: bruno.id,
                display_name: Some("Bruno".to_owned()),
                role: Role::Owner
            },
            WorkspaceView {
                account_id: ana.id,
                display_name: None,
                role: Role::Operator
            },
        ]
    );
    h.stop().await;
}

#[tokio::test]
async fn replay_rebuilds_exactly_what_the_live_projector_built() {
    let h = Harness::start().await;
    let ana = h.open("Ana", "ana@exemplo.com.br").await;
    let bruno = h.open("Bruno", "bruno@exemplo.com.br").await;
    let carla = h.open("Carla", "carla@exemplo.com.br").await;
    let first = h.invite(&ana, "bruno@exemplo.com.br", Role::Manager).await;
    h.invite(&ana, "davi@exemplo.com.br", Role::Operator).await;
    h.accept(&ana, &first, &bruno, AT).await;
    let to_ana = h.invite(&carla, "ana@exemplo.com.br", Role::Operator).await;
    h.accept(&carla, &to_ana, &ana, AT).await;
    h.delete(&carla).await;

    let rows = |table: &'static str| {
        let pool = h.env.pool.clone();
        async move {
            let rows: Vec<String> = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
                "select t::text from {table} t order by t::text"
            )))
            .fetch_all(&pool)
            .await
            .unwrap();
            rows
        }
    };
    let live_accounts = rows("accounts").await;
    let live_members = rows("account_members").await;
    assert_eq!(live_accounts.len(), 2);
    assert_eq!(live_members.len(), 2);

    replay::replay(
        &h.env.pool,
        &[Arc::new(accounts::Accounts) as Arc<dyn Projection>],
        &replay_options(),
    )
    .await
    .expect("replay succeeds");
    assert_eq!(rows("accounts").await, live_accounts);
    assert_eq!(rows("account_members").await, live_members);
    h.stop().await;
}

/// Applies `events` straight to a fresh table set, as replay does, in one transaction.
async fn apply_directly(env: &TestEnv, events: &[NewEvent]) -> Result<(), projections::ApplyError> {
    env.insert(events).await;
    // The whole log so far (earlier calls' events too), once all of it is below the horizon.
    let total: i64 = sqlx::query_scalar("select count(*) from events")
        .fetch_one(&env.pool)
        .await
        .unwrap();
    let feed = read_feed(&env.pool, usize::try_from(total).unwrap()).await;
    let mut tx = env.pool.begin().await.unwrap();
    let target = TableSet::rebuild(4242);
    for live in accounts::Accounts.tables() {
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "create table {} (like {live} including all)",
            target.table(live)
        )))
        .execute(&mut *tx)
        .await
        .unwrap();
    }
    accounts::Accounts
        .apply_batch(&mut tx, &target, &Upcasters::application(), &feed)
        .await
}

fn account_event(
    account_id: Uuid,
    version: i64,
    event_type: &str,
    payload: serde_json::Value,
) -> NewEvent {
    NewEvent {
        event_id: Uuid::now_v7(),
        stream_type: "account".to_owned(),
        stream_id: account_id.to_string(),
        stream_version: version,
        event_type: event_type.to_owned(),
        schema_version: 1,
        payload,
    }
}

#[tokio::test]
async fn an_account_event_of_an_unknown_schema_version_is_rejected_by_name() {
    let env = TestEnv::start().await;
    let id = Uuid::now_v7();
    let mut event = account_event(
        id,
        1,
        "EmailVerified",
        serde_json::json!({"type": "EmailVerified", "account_id": id, "at": AT}),
    );
    event.schema_version = 2;
    let error = apply_directly(&env, std::slice::from_ref(&event))
        .await
        .expect_err("refused");
    let projections::ApplyError::Rejected { event_id, reason } = error else {
        panic!("expected a rejection, got {error:?}");
    };
    assert_eq!(event_id, event.event_id);
    assert!(reason.contains("schema version 2"), "{reason}");
}

#[tokio::test]
async fn an_account_event_whose_payload_does_not_fit_is_rejected_and_others_are_ignored() {
    let env = TestEnv::start().await;
    let id = Uuid::now_v7();
    let unknown = account_event(id, 1, "AccountRenamedLater", serde_json::json!({"x": 1}));
    let other = NewEvent::other("nota", "NotaEmitida");
    assert!(
        apply_directly(&env, &[unknown, other]).await.is_ok(),
        "types this read model does not use are skipped"
    );
    let bad = account_event(
        id,
        2,
        "AccountOpened",
        serde_json::json!({"type": "AccountOpened", "account_id": id, "at": AT}),
    );
    let error = apply_directly(&env, std::slice::from_ref(&bad))
        .await
        .expect_err("refused");
    assert!(
        matches!(&error, projections::ApplyError::Rejected { event_id, .. } if *event_id == bad.event_id),
        "{error:?}"
    );
}
