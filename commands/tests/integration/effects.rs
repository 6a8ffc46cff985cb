//! `CommandService::execute_with` on a real PostgreSQL: unique claims, account keys, action codes
//! (spent and issued), sessions and an erased account's side state applied in the same
//! transaction as the command's events, and nothing left behind by a rejected command, a refused
//! or failing effect or a lost race.

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use commands::action_codes::{self, ActionCode, Purpose};
use commands::claims::{self, EMAIL_SCOPE, digest, invite_scope, normalise_email};
use commands::sessions::{self, NewSession, Refresh, SessionState};
use commands::vault::{AccountKey, load_key};
use commands::{
    CommandError, CommandMetadata, CommandOutcome, CommandService, Effects, ExpectedVersion,
    IdempotencyKey,
};
use common::ledger::{Interference, Ledger, LedgerCommand, LedgerError, LedgerServices};
use common::{TestDb, new_stream};
use sqlx::PgPool;
use tokio::sync::Barrier;

type Result = std::result::Result<CommandOutcome, CommandError<LedgerError>>;

fn service(db: &TestDb) -> CommandService<Ledger> {
    CommandService::new(db.store(), LedgerServices::default())
}

fn deposit(amount_centavos: i64) -> LedgerCommand {
    LedgerCommand::Deposit { amount_centavos }
}

fn email(address: &str) -> String {
    digest(&normalise_email(address))
}

fn keyed(text: &str) -> CommandMetadata {
    CommandMetadata::start().with_idempotency_key(IdempotencyKey::parse(text).unwrap())
}

async fn run(
    service: &CommandService<Ledger>,
    stream: &str,
    command: LedgerCommand,
    effects: &Effects,
) -> Result {
    service
        .execute_with(
            stream,
            command,
            ExpectedVersion::Any,
            CommandMetadata::start(),
            effects,
        )
        .await
}

async fn claim_rows(pool: &PgPool) -> Vec<(String, String, String)> {
    sqlx::query_as("select scope, value, owner from unique_claims order by scope, value")
        .fetch_all(pool)
        .await
        .unwrap()
}

async fn event_count(pool: &PgPool, stream: &str) -> i64 {
    sqlx::query_scalar("select count(*) from events where stream_id = $1")
        .bind(stream)
        .fetch_one(pool)
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn of_fifty_concurrent_commands_claiming_one_email_on_fifty_streams_exactly_one_succeeds() {
    let db = TestDb::new().await;
    // Every command is held in `handle` until all fifty have loaded their (empty) stream, so they
    // all reach the claim together.
    let services = LedgerServices {
        interference: None,
        gate: Some(Arc::new(Barrier::new(50))),
    };
    let service = Arc::new(CommandService::<Ledger>::new(db.store(), services));
    let claimed = email("Disputada@Exemplo.com.br");

    let mut tasks = Vec::new();
    for _ in 0..50 {
        let service = Arc::clone(&service);
        let claimed = claimed.clone();
        tasks.push(tokio::spawn(async move {
            let stream = new_stream();
            let effects = Effects::new().claim(EMAIL_SCOPE, claimed, &stream);
            let result = service
                .execute_with(
                    &stream,
                    deposit(100),
                    ExpectedVersion::NoStream,
                    CommandMetadata::start(),
                    &effects,
                )
                .await;
            (stream, result)
        }));
    }
    let mut winners = Vec::new();
    let mut taken = 0;
    for task in tasks {
        match task.await.unwrap() {
            (stream, Ok(outcome)) => {
                assert_eq!(outcome.version, 1);
                winners.push(stream);
            }
            (_, Err(error @ CommandError::ClaimTaken { .. })) => {
                assert_eq!(error.status_code(), 409);
                assert!(matches!(error, CommandError::ClaimTaken { scope } if scope == "email"));
                taken += 1;
            }
            (_, Err(other)) => panic!("expected success or ClaimTaken, got {other:?}"),
        }
    }

    assert_eq!(winners.len(), 1, "exactly one command succeeds");
    assert_eq!(taken, 49);
    let streams_with_events: Vec<String> =
        sqlx::query_scalar("select distinct stream_id from events where stream_type = 'ledger'")
            .fetch_all(&db.pool)
            .await
            .unwrap();
    assert_eq!(streams_with_events, winners);
    assert_eq!(
        claim_rows(&db.pool).await,
        vec![("email".to_owned(), claimed.clone(), winners[0].clone())]
    );
    assert_eq!(
        claims::owner_of(&db.pool, EMAIL_SCOPE, &claimed)
            .await
            .unwrap(),
        Some(winners[0].clone())
    );
}

#[tokio::test]
async fn a_claim_released_by_its_owner_can_be_taken_by_another_stream() {
    let db = TestDb::new().await;
    let service = service(&db);
    let (first, second) = (new_stream(), new_stream());
    let address = email("maria@exemplo.com");

    run(
        &service,
        &first,
        deposit(1),
        &Effects::new().claim(EMAIL_SCOPE, &address, &first),
    )
    .await
    .unwrap();
    let refused = run(
        &service,
        &second,
        deposit(1),
        &Effects::new().claim(EMAIL_SCOPE, &address, &second),
    )
    .await;
    assert!(matches!(refused, Err(CommandError::ClaimTaken { .. })));
    assert_eq!(event_count(&db.pool, &second).await, 0);

    // Another stream cannot release a claim it does not hold.
    run(
        &service,
        &second,
        deposit(1),
        &Effects::new().release(EMAIL_SCOPE, &address),
    )
    .await
    .unwrap();
    assert_eq!(
        claims::owner_of(&db.pool, EMAIL_SCOPE, &address)
            .await
            .unwrap(),
        Some(first.clone())
    );

    // The holder releases it (e.g. it changed its address), and then the other can claim it.
    run(
        &service,
        &first,
        deposit(1),
        &Effects::new().release(EMAIL_SCOPE, &address),
    )
    .await
    .unwrap();
    assert_eq!(
        claims::owner_of(&db.pool, EMAIL_SCOPE, &address)
            .await
            .unwrap(),
        None
    );
    run(
        &service,
        &second,
        deposit(1),
        &Effects::new().claim(EMAIL_SCOPE, &address, &second),
    )
    .await
    .unwrap();
    assert_eq!(
        claims::owner_of(&db.pool, EMAIL_SCOPE, &address)
            .await
            .unwrap(),
        Some(second)
    );
}

#[tokio::test]
async fn one_value_can_be_claimed_once_per_scope_and_release_all_frees_every_scope() {
    let db = TestDb::new().await;
    let service = service(&db);
    let owner = new_stream();
    let address = email("joao@exemplo.com");

    run(
        &service,
        &owner,
        deposit(1),
        &Effects::new().claim(EMAIL_SCOPE, &address, &owner).claim(
            invite_scope(&owner),
            &address,
            &owner,
        ),
    )
    .await
    .unwrap();
    assert_eq!(claim_rows(&db.pool).await.len(), 2);

    // Claiming a value its own stream already holds is refused too (e.g. a second invitation).
    let again = run(
        &service,
        &owner,
        deposit(1),
        &Effects::new().claim(invite_scope(&owner), &address, &owner),
    )
    .await;
    assert!(
        matches!(&again, Err(CommandError::ClaimTaken { scope }) if *scope == invite_scope(&owner)),
        "{again:?}"
    );

    // Someone else's claims stay when an owner releases all of its own.
    let other = new_stream();
    run(
        &service,
        &other,
        deposit(1),
        &Effects::new().claim(EMAIL_SCOPE, email("outra@exemplo.com"), &other),
    )
    .await
    .unwrap();
    run(
        &service,
        &owner,
        deposit(1),
        &Effects::new().release_all(&owner),
    )
    .await
    .unwrap();
    let left = claim_rows(&db.pool).await;
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].2, other);
}

#[tokio::test]
async fn a_rejected_command_leaves_no_claim_and_no_key() {
    let db = TestDb::new().await;
    let service = service(&db);
    let stream = new_stream();
    let key = AccountKey::generate(&stream);

    let rejected = run(
        &service,
        &stream,
        LedgerCommand::Withdraw { amount_centavos: 1 },
        &Effects::new()
            .claim(EMAIL_SCOPE, email("ana@exemplo.com"), &stream)
            .store_key(&key),
    )
    .await;

    assert!(matches!(
        rejected,
        Err(CommandError::Rejected(LedgerError::InsufficientFunds))
    ));
    assert!(claim_rows(&db.pool).await.is_empty());
    assert!(load_key(&db.pool, &stream).await.unwrap().is_none());
    assert_eq!(event_count(&db.pool, &stream).await, 0);
}

#[tokio::test]
async fn a_refused_effect_leaves_no_events_and_undoes_the_effects_before_it() {
    let db = TestDb::new().await;
    let service = service(&db);
    let stream = new_stream();
    let issued = action_codes::issue(
        &db.pool,
        &stream,
        Purpose::VerifyEmail,
        serde_json::json!({}),
        Duration::from_secs(3_600),
    )
    .await
    .unwrap();
    sqlx::query("update action_codes set expires_at = now() - interval '1 minute'")
        .execute(&db.pool)
        .await
        .unwrap();

    let refused = run(
        &service,
        &stream,
        deposit(100),
        &Effects::new()
            .claim(EMAIL_SCOPE, email("ana@exemplo.com"), &stream)
            .store_key(&AccountKey::generate(&stream))
            .consume_action_code(&issued.code, Purpose::VerifyEmail),
    )
    .await;

    match refused {
        Err(error @ CommandError::ActionCodeExpired) => {
            assert_eq!(error.status_code(), 410);
            assert_eq!(error.kind(), "action_code_expired");
        }
        other => panic!("expected ActionCodeExpired, got {other:?}"),
    }
    assert_eq!(event_count(&db.pool, &stream).await, 0);
    assert!(claim_rows(&db.pool).await.is_empty());
    assert!(load_key(&db.pool, &stream).await.unwrap().is_none());
}

#[tokio::test]
async fn a_command_spends_its_action_code_once_and_only_on_the_codes_own_account() {
    let db = TestDb::new().await;
    let service = service(&db);
    let stream = new_stream();
    let issued = action_codes::issue(
        &db.pool,
        &stream,
        Purpose::ResetPassword,
        serde_json::json!({}),
        Duration::from_secs(3_600),
    )
    .await
    .unwrap();
    let spend = Effects::new().consume_action_code(&issued.code, Purpose::ResetPassword);

    // Not for another account's command, nor for another purpose.
    let elsewhere = run(&service, &new_stream(), deposit(1), &spend).await;
    assert!(matches!(elsewhere, Err(CommandError::ActionCodeExpired)));
    let wrong_purpose = run(
        &service,
        &stream,
        deposit(1),
        &Effects::new().consume_action_code(&issued.code, Purpose::VerifyEmail),
    )
    .await;
    assert!(matches!(
        wrong_purpose,
        Err(CommandError::ActionCodeExpired)
    ));

    run(&service, &stream, deposit(1), &spend).await.unwrap();
    let twice = run(&service, &stream, deposit(1), &spend).await;
    assert!(matches!(twice, Err(CommandError::ActionCodeExpired)));
    assert_eq!(event_count(&db.pool, &stream).await, 1);
    assert!(
        action_codes::peek(&db.pool, &issued.code, Purpose::ResetPassword)
            .await
            .unwrap()
            .is_none()
    );
}

#[tokio::test]
async fn effects_apply_when_the_command_is_accepted_without_deciding_any_event() {
    let db = TestDb::new().await;
    let service = service(&db);
    let stream = new_stream();
    let address = email("ana@exemplo.com");

    let outcome = run(
        &service,
        &stream,
        LedgerCommand::ConfirmBalance {
            at_least_centavos: 0,
        },
        &Effects::new().claim(EMAIL_SCOPE, &address, &stream),
    )
    .await
    .unwrap();

    assert_eq!((outcome.version, outcome.event_ids.len()), (0, 0));
    assert_eq!(
        claims::owner_of(&db.pool, EMAIL_SCOPE, &address)
            .await
            .unwrap(),
        Some(stream)
    );
}

#[tokio::test]
async fn a_command_that_loses_the_race_for_its_version_applies_its_effects_once_on_the_retry() {
    let db = TestDb::new().await;
    let stream = new_stream();
    // Between the service's load and its transaction, another writer appends to the stream.
    let services = LedgerServices {
        interference: Some(Interference::new(db.store(), &stream, 1)),
        gate: None,
    };
    let service = CommandService::<Ledger>::new(db.store(), services);
    let address = email("ana@exemplo.com");

    // Had the first attempt's claim survived its rollback, the retry's claim would be refused.
    let outcome = run(
        &service,
        &stream,
        deposit(100),
        &Effects::new().claim(EMAIL_SCOPE, &address, &stream),
    )
    .await
    .unwrap();

    assert_eq!(
        outcome.version, 2,
        "decided again on top of the other event"
    );
    assert_eq!(claim_rows(&db.pool).await.len(), 1);
}

#[tokio::test]
async fn a_command_that_loses_every_race_leaves_no_effect() {
    let db = TestDb::new().await;
    let stream = new_stream();
    let services = LedgerServices {
        interference: Some(Interference::new(db.store(), &stream, u32::MAX)),
        gate: None,
    };
    let service = CommandService::<Ledger>::new(db.store(), services).with_max_retries(2);

    let result = run(
        &service,
        &stream,
        deposit(100),
        &Effects::new()
            .claim(EMAIL_SCOPE, email("ana@exemplo.com"), &stream)
            .store_key(&AccountKey::generate(&stream)),
    )
    .await;

    assert!(
        matches!(result, Err(CommandError::Conflict { attempts: 3, .. })),
        "{result:?}"
    );
    assert!(claim_rows(&db.pool).await.is_empty());
    assert!(load_key(&db.pool, &stream).await.unwrap().is_none());
}

#[tokio::test]
async fn a_command_deciding_nothing_is_decided_again_when_the_stream_moved_under_it() {
    let db = TestDb::new().await;
    let stream = new_stream();
    let services = LedgerServices {
        interference: Some(Interference::new(db.store(), &stream, 1)),
        gate: None,
    };
    let service = CommandService::<Ledger>::new(db.store(), services);

    let outcome = run(
        &service,
        &stream,
        LedgerCommand::ConfirmBalance {
            at_least_centavos: 0,
        },
        &Effects::new().claim(EMAIL_SCOPE, email("ana@exemplo.com"), &stream),
    )
    .await
    .unwrap();

    // The first attempt decided on version 0; the stream was at 1 by its transaction.
    assert_eq!(outcome.version, 1);
    assert_eq!(claim_rows(&db.pool).await.len(), 1);
}

#[tokio::test]
async fn an_idempotent_replay_of_a_command_with_effects_applies_them_once() {
    let db = TestDb::new().await;
    let service = service(&db);
    let stream = new_stream();
    let issued = action_codes::issue(
        &db.pool,
        &stream,
        Purpose::ChangeEmail,
        serde_json::json!({}),
        Duration::from_secs(3_600),
    )
    .await
    .unwrap();
    let effects = Effects::new()
        .claim(EMAIL_SCOPE, email("nova@exemplo.com"), &stream)
        .consume_action_code(&issued.code, Purpose::ChangeEmail);

    for expected in [ExpectedVersion::Any, ExpectedVersion::NoStream] {
        let stream = if expected == ExpectedVersion::Any {
            stream.clone()
        } else {
            new_stream()
        };
        let effects = if expected == ExpectedVersion::Any {
            effects.clone()
        } else {
            Effects::new()
                .claim(EMAIL_SCOPE, email("outra@exemplo.com"), &stream)
                .store_key(&AccountKey::generate(&stream))
        };
        let key = format!("pedido-{stream}");
        let first = service
            .execute_with(&stream, deposit(10), expected, keyed(&key), &effects)
            .await
            .unwrap();
        let second = service
            .execute_with(&stream, deposit(10), expected, keyed(&key), &effects)
            .await
            .unwrap();

        assert!(!first.replayed);
        assert!(second.replayed, "{expected:?}");
        assert_eq!(second.event_ids, first.event_ids);
        assert_eq!(event_count(&db.pool, &stream).await, 1);
    }
    assert_eq!(claim_rows(&db.pool).await.len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn racing_duplicates_of_a_creating_command_with_effects_both_answer_the_first_outcome() {
    let db = TestDb::new().await;
    let stream = new_stream();
    // Both requests decide before either opens its transaction.
    let services = LedgerServices {
        interference: None,
        gate: Some(Arc::new(Barrier::new(2))),
    };
    let service = Arc::new(CommandService::<Ledger>::new(db.store(), services));
    let effects = Effects::new()
        .claim(EMAIL_SCOPE, email("ana@exemplo.com"), &stream)
        .store_key(&AccountKey::generate(&stream));

    let spawn = |service: Arc<CommandService<Ledger>>, stream: String, effects: Effects| {
        tokio::spawn(async move {
            service
                .execute_with(
                    &stream,
                    deposit(10),
                    ExpectedVersion::NoStream,
                    keyed("abrir-conta"),
                    &effects,
                )
                .await
        })
    };
    let a = spawn(Arc::clone(&service), stream.clone(), effects.clone());
    let b = spawn(Arc::clone(&service), stream.clone(), effects);
    let (a, b) = (a.await.unwrap().unwrap(), b.await.unwrap().unwrap());

    assert_eq!(a.event_ids, b.event_ids);
    assert!(a.replayed != b.replayed, "one ran, the other replayed");
    assert_eq!(event_count(&db.pool, &stream).await, 1);
    assert_eq!(claim_rows(&db.pool).await.len(), 1);
}

#[tokio::test]
async fn with_no_effects_execute_with_is_execute_expecting() {
    let db = TestDb::new().await;
    let service = service(&db);
    let stream = new_stream();

    let outcome = service
        .execute_with(
            &stream,
            deposit(5),
            ExpectedVersion::NoStream,
            CommandMetadata::start(),
            &Effects::new(),
        )
        .await
        .unwrap();

    assert_eq!(outcome.version, 1);
    assert!(claim_rows(&db.pool).await.is_empty());
}

const HOUR: Duration = Duration::from_secs(3_600);

async fn session_count(pool: &PgPool, account_id: &str) -> i64 {
    sqlx::query_scalar("select count(*) from auth_sessions where account_id = $1")
        .bind(account_id)
        .fetch_one(pool)
        .await
        .unwrap()
}

fn issuing(code: &ActionCode) -> Effects {
    Effects::new().issue_action_code(
        code,
        Purpose::Invitation,
        serde_json::json!({"invitationId": "convite-1"}),
        HOUR,
    )
}

async fn is_valid(pool: &PgPool, code: &ActionCode) -> bool {
    action_codes::peek(pool, code.as_str(), Purpose::Invitation)
        .await
        .unwrap()
        .is_some()
}

#[tokio::test]
async fn an_action_code_issued_with_a_command_exists_exactly_when_the_command_committed() {
    let db = TestDb::new().await;
    let service = service(&db);
    let stream = new_stream();

    let rejected_code = ActionCode::generate();
    let rejected = run(
        &service,
        &stream,
        LedgerCommand::Withdraw { amount_centavos: 1 },
        &issuing(&rejected_code),
    )
    .await;
    assert!(matches!(rejected, Err(CommandError::Rejected(_))));
    assert!(!is_valid(&db.pool, &rejected_code).await);

    // A refused effect after the issue undoes it.
    let address = email("ana@exemplo.com");
    let holder = new_stream();
    run(
        &service,
        &holder,
        deposit(1),
        &Effects::new().claim(EMAIL_SCOPE, &address, &holder),
    )
    .await
    .unwrap();
    let refused_code = ActionCode::generate();
    let refused = run(
        &service,
        &stream,
        deposit(1),
        &issuing(&refused_code).claim(EMAIL_SCOPE, &address, &stream),
    )
    .await;
    assert!(matches!(refused, Err(CommandError::ClaimTaken { .. })));
    assert!(!is_valid(&db.pool, &refused_code).await);
    assert_eq!(event_count(&db.pool, &stream).await, 0);

    let code = ActionCode::generate();
    run(&service, &stream, deposit(1), &issuing(&code))
        .await
        .unwrap();
    let pending = action_codes::peek(&db.pool, code.as_str(), Purpose::Invitation)
        .await
        .unwrap()
        .expect("the committed command's code works");
    assert_eq!(
        pending.account_id, stream,
        "issued for the command's stream"
    );
    assert_eq!(
        pending.payload,
        serde_json::json!({"invitationId": "convite-1"})
    );
    assert_eq!(
        sqlx::query_scalar::<_, i64>("select count(*) from action_codes")
            .fetch_one(&db.pool)
            .await
            .unwrap(),
        1,
        "nothing of the failed attempts is left"
    );
    // And the command it authorises can spend it, once.
    let spend = Effects::new().consume_action_code(code.as_str(), Purpose::Invitation);
    run(&service, &stream, deposit(1), &spend).await.unwrap();
    assert!(matches!(
        run(&service, &stream, deposit(1), &spend).await,
        Err(CommandError::ActionCodeExpired)
    ));
}

#[tokio::test]
async fn a_session_started_with_a_command_works_exactly_when_the_command_committed() {
    let db = TestDb::new().await;
    let service = service(&db);
    let stream = new_stream();

    let rejected_session = NewSession::generate(&stream, Some("Firefox"));
    let rejected = run(
        &service,
        &stream,
        LedgerCommand::Withdraw { amount_centavos: 1 },
        &Effects::new().start_session(&rejected_session),
    )
    .await;
    assert!(matches!(rejected, Err(CommandError::Rejected(_))));
    assert_eq!(session_count(&db.pool, &stream).await, 0);
    assert_eq!(
        sessions::rotate(&db.pool, &rejected_session.refresh_token, HOUR)
            .await
            .unwrap(),
        Refresh::Refused(sessions::Refused::Unknown)
    );

    let session = NewSession::generate(&stream, Some("Firefox"));
    run(
        &service,
        &stream,
        deposit(1),
        &Effects::new().start_session(&session),
    )
    .await
    .unwrap();
    assert_eq!(
        sessions::state(&db.pool, &stream, session.session_id)
            .await
            .unwrap(),
        SessionState::Active
    );
    match sessions::rotate(&db.pool, &session.refresh_token, HOUR)
        .await
        .unwrap()
    {
        Refresh::Rotated {
            account_id,
            session_id,
            ..
        } => assert_eq!(
            (account_id, session_id),
            (stream.clone(), session.session_id)
        ),
        refused => panic!("the committed session's refresh token works: {refused:?}"),
    }
    assert_eq!(session_count(&db.pool, &stream).await, 1);
}

#[tokio::test]
async fn a_side_state_write_that_fails_leaves_no_events_no_code_and_no_session() {
    let db = TestDb::new().await;
    let service = service(&db);
    let stream = new_stream();
    // The session's insert fails (as a full disk or a dropped connection would), after the
    // claim and the code were written in the same transaction.
    sqlx::raw_sql(
        "create function refuse_session() returns trigger language plpgsql as
             $$ begin raise exception 'sessão recusada pelo teste'; end $$;
         create trigger refuse_session before insert on auth_sessions
             for each row execute function refuse_session();",
    )
    .execute(&db.pool)
    .await
    .unwrap();
    let code = ActionCode::generate();
    let session = NewSession::generate(&stream, None);

    let failed = run(
        &service,
        &stream,
        deposit(100),
        &issuing(&code)
            .claim(EMAIL_SCOPE, email("ana@exemplo.com"), &stream)
            .start_session(&session),
    )
    .await;

    assert!(
        matches!(failed, Err(CommandError::Storage(_))),
        "{failed:?}"
    );
    assert_eq!(event_count(&db.pool, &stream).await, 0);
    assert!(!is_valid(&db.pool, &code).await);
    assert!(claim_rows(&db.pool).await.is_empty());
    assert_eq!(session_count(&db.pool, &stream).await, 0);
}

async fn side_state_counts(pool: &PgPool, account_id: &str) -> (i64, i64, i64, i64) {
    sqlx::query_as(
        "select (select count(*) from account_photos where account_id = $1),
                (select count(*) from action_codes where account_id = $1),
                (select count(*) from auth_sessions where account_id = $1),
                (select count(*) from refresh_tokens t join auth_sessions s on s.id = t.session_id
                  where s.account_id = $1)",
    )
    .bind(account_id)
    .fetch_one(pool)
    .await
    .unwrap()
}

#[tokio::test]
async fn an_accounts_photo_codes_and_sessions_are_erased_with_its_command_and_kept_when_it_fails() {
    let db = TestDb::new().await;
    let service = service(&db);
    let (erased, other) = (new_stream(), new_stream());
    run(&service, &erased, deposit(1), &Effects::new())
        .await
        .unwrap();
    for account in [&erased, &other] {
        sqlx::query(
            "insert into account_photos (account_id, content_type, bytes, etag)
             values ($1, 'image/png', '\\x89504e47', 'etag')",
        )
        .bind(account)
        .execute(&db.pool)
        .await
        .unwrap();
        action_codes::issue(
            &db.pool,
            account,
            Purpose::VerifyEmail,
            serde_json::json!({}),
            HOUR,
        )
        .await
        .unwrap();
        sessions::start(&db.pool, account, None).await.unwrap();
        sessions::start(&db.pool, account, Some("Celular"))
            .await
            .unwrap();
    }
    let erase = Effects::new()
        .delete_photo(&erased)
        .forget_action_codes(&erased)
        .delete_sessions(&erased);

    let rejected = run(
        &service,
        &erased,
        LedgerCommand::Withdraw {
            amount_centavos: 1_000,
        },
        &erase,
    )
    .await;
    assert!(matches!(rejected, Err(CommandError::Rejected(_))));
    assert_eq!(side_state_counts(&db.pool, &erased).await, (1, 1, 2, 2));

    run(&service, &erased, deposit(1), &erase).await.unwrap();
    assert_eq!(side_state_counts(&db.pool, &erased).await, (0, 0, 0, 0));
    assert_eq!(
        side_state_counts(&db.pool, &other).await,
        (1, 1, 2, 2),
        "another account's side state stays"
    );
}
