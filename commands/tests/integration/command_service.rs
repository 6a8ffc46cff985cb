//! `CommandService` on a real PostgreSQL: retries on version conflicts, expected versions,
//! idempotency keys (also when duplicates race), and metrics.

use crate::common;

use std::sync::Arc;

use commands::{
    CommandError, CommandMetadata, CommandService, ExpectedVersion, IdempotencyKey, PgEventStore,
    RequestDigest,
};
use common::ledger::{Interference, Ledger, LedgerCommand, LedgerError, LedgerServices};
use common::{TestDb, new_stream};
use metrics_util::debugging::{DebugValue, DebuggingRecorder};
use tokio::sync::Barrier;

fn service(db: &TestDb) -> CommandService<Ledger> {
    CommandService::new(db.store(), LedgerServices::default())
}

fn deposit(amount_centavos: i64) -> LedgerCommand {
    LedgerCommand::Deposit { amount_centavos }
}

fn key(text: &str) -> CommandMetadata {
    CommandMetadata::start().with_idempotency_key(IdempotencyKey::parse(text).unwrap())
}

async fn event_count(store: &PgEventStore, stream: &str) -> usize {
    store.read_stream("ledger", stream).await.unwrap().len()
}

#[tokio::test]
async fn executes_a_command_and_answers_version_event_ids_and_position() {
    let db = TestDb::new().await;
    let service = service(&db);
    let stream = new_stream();

    let outcome = service
        .execute(
            &stream,
            LedgerCommand::DepositWithFee {
                amount_centavos: 2_000,
                fee_centavos: 150,
            },
            CommandMetadata::start().by("visitante"),
        )
        .await
        .unwrap();

    assert_eq!(outcome.stream_type, "ledger");
    assert_eq!(outcome.stream_id, stream);
    assert_eq!(outcome.version, 2);
    let stored = service
        .store()
        .read_stream("ledger", &stream)
        .await
        .unwrap();
    assert_eq!(
        outcome.event_ids,
        stored.iter().map(|e| e.event_id).collect::<Vec<_>>()
    );
    assert_eq!(outcome.position, Some(stored[1].position));
    let loaded = service.load(&stream).await.unwrap();
    assert_eq!(
        (loaded.version, loaded.aggregate.balance_centavos),
        (2, 1_850)
    );
}

#[tokio::test]
async fn a_refused_command_appends_nothing_and_maps_to_422() {
    let db = TestDb::new().await;
    let service = service(&db);
    let stream = new_stream();

    let refused = service
        .execute(
            &stream,
            LedgerCommand::Withdraw { amount_centavos: 1 },
            CommandMetadata::start(),
        )
        .await;

    match refused {
        Err(error @ CommandError::Rejected(LedgerError::InsufficientFunds)) => {
            assert_eq!(error.status_code(), 422);
            assert_eq!(error.to_string(), "saldo insuficiente");
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert_eq!(event_count(service.store(), &stream).await, 0);
}

#[tokio::test]
async fn after_losing_the_race_for_a_version_it_reloads_decides_again_and_succeeds() {
    let db = TestDb::new().await;
    let stream = new_stream();
    // Between the service's load and its append, another writer appends a 1-centavo deposit.
    let services = LedgerServices {
        interference: Some(Interference::new(db.store(), &stream, 1)),
        gate: None,
    };
    let service = CommandService::<Ledger>::new(db.store(), services);

    let outcome = service
        .execute(&stream, deposit(100), CommandMetadata::start())
        .await
        .unwrap();

    assert_eq!(
        outcome.version, 2,
        "decided again on top of the competing event"
    );
    let loaded = service.load(&stream).await.unwrap();
    assert_eq!(loaded.aggregate.balance_centavos, 101);
    let stored = service
        .store()
        .read_stream("ledger", &stream)
        .await
        .unwrap();
    assert_eq!(stored[0].metadata.to_value()["actor"], "interference");
    assert_eq!(stored[1].event_id, outcome.event_ids[0]);
}

#[tokio::test]
async fn gives_up_with_a_409_conflict_when_every_retry_loses() {
    let db = TestDb::new().await;
    let stream = new_stream();
    let services = LedgerServices {
        interference: Some(Interference::new(db.store(), &stream, u32::MAX)),
        gate: None,
    };
    let service = CommandService::<Ledger>::new(db.store(), services).with_max_retries(2);

    let result = service
        .execute(&stream, deposit(100), CommandMetadata::start())
        .await;

    match result {
        Err(error @ CommandError::Conflict { attempts: 3, .. }) => {
            assert_eq!(error.status_code(), 409);
        }
        other => panic!("expected a conflict after 3 attempts, got {other:?}"),
    }
    // Only the competing writer's three deposits are there; none of ours.
    let loaded = service.load(&stream).await.unwrap();
    assert_eq!((loaded.version, loaded.aggregate.balance_centavos), (3, 3));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_commands_on_one_stream_all_land_through_retries() {
    let db = TestDb::new().await;
    let service = Arc::new(service(&db).with_max_retries(100));
    let stream = new_stream();

    let mut tasks = Vec::new();
    for amount in 1..=8 {
        let service = Arc::clone(&service);
        let stream = stream.clone();
        tasks.push(tokio::spawn(async move {
            service
                .execute(&stream, deposit(amount), CommandMetadata::start())
                .await
        }));
    }
    let mut versions = Vec::new();
    for task in tasks {
        versions.push(task.await.unwrap().unwrap().version);
    }

    versions.sort_unstable();
    assert_eq!(versions, (1..=8).collect::<Vec<i64>>());
    let loaded = service.load(&stream).await.unwrap();
    assert_eq!((loaded.version, loaded.aggregate.balance_centavos), (8, 36));
}

#[tokio::test]
async fn honours_an_exact_expected_version_and_answers_412_when_it_is_stale() {
    let db = TestDb::new().await;
    let service = service(&db);
    let stream = new_stream();
    service
        .execute(&stream, deposit(10), CommandMetadata::start())
        .await
        .unwrap();

    let second = service
        .execute_expecting(
            &stream,
            deposit(20),
            ExpectedVersion::Exact(1),
            CommandMetadata::start(),
        )
        .await
        .unwrap();
    assert_eq!(second.version, 2);

    let stale = service
        .execute_expecting(
            &stream,
            deposit(30),
            ExpectedVersion::Exact(1),
            CommandMetadata::start(),
        )
        .await;
    match stale {
        Err(error @ CommandError::WrongExpectedVersion { actual: 2, .. }) => {
            assert_eq!(error.status_code(), 412);
        }
        other => panic!("expected a stale precondition, got {other:?}"),
    }
    assert_eq!(event_count(service.store(), &stream).await, 2);
}

#[tokio::test]
async fn no_stream_refuses_to_run_a_command_on_an_existing_stream() {
    let db = TestDb::new().await;
    let service = service(&db);
    let stream = new_stream();
    let created = service
        .execute_expecting(
            &stream,
            deposit(10),
            ExpectedVersion::NoStream,
            CommandMetadata::start(),
        )
        .await
        .unwrap();
    assert_eq!(created.version, 1);

    let again = service
        .execute_expecting(
            &stream,
            deposit(10),
            ExpectedVersion::NoStream,
            CommandMetadata::start(),
        )
        .await;
    assert!(matches!(
        again,
        Err(CommandError::WrongExpectedVersion { actual: 1, .. })
    ));
}

#[tokio::test]
async fn an_exact_expectation_is_not_retried_past_a_concurrent_writer() {
    let db = TestDb::new().await;
    let stream = new_stream();
    let services = LedgerServices {
        interference: Some(Interference::new(db.store(), &stream, 1)),
        gate: None,
    };
    let service = CommandService::<Ledger>::new(db.store(), services);

    let result = service
        .execute_expecting(
            &stream,
            deposit(100),
            ExpectedVersion::Exact(0),
            CommandMetadata::start(),
        )
        .await;

    assert!(
        matches!(
            result,
            Err(CommandError::WrongExpectedVersion { actual: 1, .. })
        ),
        "{result:?}"
    );
    assert_eq!(event_count(service.store(), &stream).await, 1);
}

#[tokio::test]
async fn a_repeated_idempotency_key_returns_the_first_outcome_and_appends_nothing() {
    let db = TestDb::new().await;
    let service = service(&db);
    let stream = new_stream();
    let command = LedgerCommand::DepositWithFee {
        amount_centavos: 1_000,
        fee_centavos: 10,
    };

    let first = service
        .execute(&stream, command.clone(), key("pedido-123"))
        .await
        .unwrap();
    let second = service
        .execute(&stream, command, key("pedido-123"))
        .await
        .unwrap();

    assert!(!first.replayed);
    assert!(second.replayed);
    assert_eq!(
        (
            &second.stream_id,
            second.version,
            &second.event_ids,
            second.position
        ),
        (
            &first.stream_id,
            first.version,
            &first.event_ids,
            first.position
        )
    );
    assert_eq!(event_count(service.store(), &stream).await, 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn racing_duplicates_with_one_key_append_one_set_of_events() {
    let db = TestDb::new().await;
    let stream = new_stream();
    // Both requests pass the idempotency check and load the stream before either appends.
    let services = LedgerServices {
        interference: None,
        gate: Some(Arc::new(Barrier::new(2))),
    };
    let service = Arc::new(CommandService::<Ledger>::new(db.store(), services));
    let command = LedgerCommand::DepositWithFee {
        amount_centavos: 700,
        fee_centavos: 7,
    };

    let run = |service: Arc<CommandService<Ledger>>, stream: String, command: LedgerCommand| {
        tokio::spawn(async move { service.execute(&stream, command, key("duplo")).await })
    };
    let a = run(Arc::clone(&service), stream.clone(), command.clone());
    let b = run(Arc::clone(&service), stream.clone(), command);
    let a = a.await.unwrap().unwrap();
    let b = b.await.unwrap().unwrap();

    assert_eq!(a.event_ids, b.event_ids);
    assert_eq!(a.position, b.position);
    assert!(a.replayed != b.replayed, "exactly one of them appended");
    let loaded = service.load(&stream).await.unwrap();
    assert_eq!(
        (loaded.version, loaded.aggregate.balance_centavos),
        (2, 693)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_concurrent_duplicates_append_one_set_of_events() {
    let db = TestDb::new().await;
    let service = Arc::new(service(&db));
    let stream = new_stream();

    let mut tasks = Vec::new();
    for _ in 0..8 {
        let service = Arc::clone(&service);
        let stream = stream.clone();
        tasks.push(tokio::spawn(async move {
            service.execute(&stream, deposit(50), key("o-mesmo")).await
        }));
    }
    let mut outcomes = Vec::new();
    for task in tasks {
        outcomes.push(task.await.unwrap().unwrap());
    }

    assert!(
        outcomes
            .iter()
            .all(|o| o.event_ids == outcomes[0].event_ids)
    );
    assert_eq!(outcomes.iter().filter(|o| !o.replayed).count(), 1);
    let loaded = service.load(&stream).await.unwrap();
    assert_eq!((loaded.version, loaded.aggregate.balance_centavos), (1, 50));
}

#[tokio::test]
async fn a_repeated_create_with_the_same_key_is_answered_from_the_record() {
    let db = TestDb::new().await;
    let service = service(&db);
    let stream = new_stream();
    let create = |metadata| {
        service.execute_expecting(&stream, deposit(10), ExpectedVersion::NoStream, metadata)
    };

    let first = create(key("criar-1")).await.unwrap();
    let second = create(key("criar-1")).await.unwrap();

    assert!(second.replayed);
    assert_eq!(
        (second.version, &second.event_ids),
        (first.version, &first.event_ids)
    );
    assert_eq!(event_count(service.store(), &stream).await, 1);
    // Without the key, the same create is refused: the stream exists now.
    let unkeyed = create(CommandMetadata::start()).await;
    assert!(matches!(
        unkeyed,
        Err(CommandError::WrongExpectedVersion { actual: 1, .. })
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_duplicate_creates_append_one_set_of_events() {
    let db = TestDb::new().await;
    let service = Arc::new(service(&db));
    let stream = new_stream();

    let mut tasks = Vec::new();
    for _ in 0..8 {
        let service = Arc::clone(&service);
        let stream = stream.clone();
        tasks.push(tokio::spawn(async move {
            service
                .execute_expecting(
                    &stream,
                    deposit(50),
                    ExpectedVersion::NoStream,
                    key("criar-2"),
                )
                .await
        }));
    }
    let mut outcomes = Vec::new();
    for task in tasks {
        outcomes.push(task.await.unwrap().unwrap());
    }

    assert!(
        outcomes
            .iter()
            .all(|o| o.event_ids == outcomes[0].event_ids)
    );
    assert_eq!(outcomes.iter().filter(|o| !o.replayed).count(), 1);
    assert_eq!(event_count(service.store(), &stream).await, 1);
}

#[tokio::test]
async fn a_create_reusing_a_key_of_another_stream_is_refused_and_appends_nothing() {
    let db = TestDb::new().await;
    let service = service(&db);
    let first_stream = new_stream();
    let other_stream = new_stream();
    service
        .execute_expecting(
            &first_stream,
            deposit(1),
            ExpectedVersion::NoStream,
            key("criar-3"),
        )
        .await
        .unwrap();

    let reused = service
        .execute_expecting(
            &other_stream,
            deposit(1),
            ExpectedVersion::NoStream,
            key("criar-3"),
        )
        .await;

    assert!(
        matches!(reused, Err(CommandError::IdempotencyKeyReused { .. })),
        "{reused:?}"
    );
    assert_eq!(event_count(service.store(), &other_stream).await, 0);
}

#[tokio::test]
async fn reusing_a_key_on_another_stream_is_refused_with_422() {
    let db = TestDb::new().await;
    let service = service(&db);
    let first_stream = new_stream();
    let other_stream = new_stream();
    service
        .execute(&first_stream, deposit(1), key("uma-vez"))
        .await
        .unwrap();

    let reused = service
        .execute(&other_stream, deposit(1), key("uma-vez"))
        .await;

    match reused {
        Err(error @ CommandError::IdempotencyKeyReused { .. }) => {
            assert_eq!(error.status_code(), 422);
            assert!(error.to_string().contains(&first_stream), "{error}");
        }
        other => panic!("expected a reused key, got {other:?}"),
    }
    assert_eq!(event_count(service.store(), &other_stream).await, 0);
}

#[tokio::test]
async fn a_key_repeated_with_another_request_digest_is_refused_with_409_and_appends_nothing() {
    let db = TestDb::new().await;
    let service = service(&db);
    let stream = new_stream();
    let asked =
        |body: &str| key("pedido-9").with_request_digest(RequestDigest::of(body.as_bytes()));

    let first = service
        .execute(&stream, deposit(1_000), asked("deposito 1000"))
        .await
        .unwrap();
    let same = service
        .execute(&stream, deposit(1_000), asked("deposito 1000"))
        .await
        .unwrap();
    assert!(same.replayed);
    assert_eq!(same.event_ids, first.event_ids);

    let other = service
        .execute(&stream, deposit(9_000), asked("deposito 9000"))
        .await
        .unwrap_err();
    assert!(
        matches!(&other, CommandError::IdempotencyKeyConflict { key } if key == "pedido-9"),
        "{other:?}"
    );
    assert_eq!(other.status_code(), 409);
    assert_eq!(other.kind(), "idempotency_key_conflict");
    assert_eq!(event_count(service.store(), &stream).await, 1);

    // A command that decides nothing records its digest too.
    let confirm = |at_least_centavos| LedgerCommand::ConfirmBalance { at_least_centavos };
    let checked =
        |body: &str| key("conferir-9").with_request_digest(RequestDigest::of(body.as_bytes()));
    service
        .execute(&stream, confirm(100), checked("100"))
        .await
        .unwrap();
    let refused = service
        .execute(&stream, confirm(500), checked("500"))
        .await
        .unwrap_err();
    assert_eq!(refused.status_code(), 409, "{refused:?}");
}

#[tokio::test]
async fn a_keyed_command_that_decides_nothing_is_remembered_too() {
    let db = TestDb::new().await;
    let service = service(&db);
    let stream = new_stream();
    service
        .execute(&stream, deposit(100), CommandMetadata::start())
        .await
        .unwrap();
    let confirm = LedgerCommand::ConfirmBalance {
        at_least_centavos: 100,
    };

    let first = service
        .execute(&stream, confirm.clone(), key("conferir"))
        .await
        .unwrap();
    assert_eq!((first.version, first.position), (1, None));
    assert!(first.event_ids.is_empty());

    // The balance drops; a repeat of the confirmation still answers what it answered first.
    service
        .execute(
            &stream,
            LedgerCommand::Withdraw {
                amount_centavos: 60,
            },
            CommandMetadata::start(),
        )
        .await
        .unwrap();
    let repeat = service
        .execute(&stream, confirm, key("conferir"))
        .await
        .unwrap();
    assert!(repeat.replayed);
    assert_eq!((repeat.version, repeat.position), (1, None));
}

#[tokio::test]
async fn a_refused_command_does_not_use_up_its_key() {
    let db = TestDb::new().await;
    let service = service(&db);
    let stream = new_stream();
    let withdraw = LedgerCommand::Withdraw {
        amount_centavos: 40,
    };

    let refused = service
        .execute(&stream, withdraw.clone(), key("saque-1"))
        .await;
    assert!(matches!(refused, Err(CommandError::Rejected(_))));

    service
        .execute(&stream, deposit(100), CommandMetadata::start())
        .await
        .unwrap();
    let retried = service
        .execute(&stream, withdraw, key("saque-1"))
        .await
        .unwrap();
    assert!(!retried.replayed);
    assert_eq!(retried.version, 2);
}

#[tokio::test]
async fn a_pruned_key_executes_its_command_again() {
    let db = TestDb::new().await;
    let service = service(&db);
    let stream = new_stream();
    service
        .execute(&stream, deposit(10), key("antiga"))
        .await
        .unwrap();

    let pruned = commands::prune_idempotency_keys(&db.pool, std::time::Duration::ZERO)
        .await
        .unwrap();
    let again = service
        .execute(&stream, deposit(10), key("antiga"))
        .await
        .unwrap();

    assert_eq!(pruned, 1);
    assert!(!again.replayed);
    assert_eq!(again.version, 2);
}

#[tokio::test]
async fn records_duration_and_outcome_metrics_per_aggregate() {
    let recorder = DebuggingRecorder::new();
    let snapshotter = recorder.snapshotter();
    // The test runtime is single-threaded, so the thread-local recorder sees the service's calls.
    let _recording = metrics::set_default_local_recorder(&recorder);
    let db = TestDb::new().await;
    let service = service(&db);
    let stream = new_stream();

    service
        .execute(&stream, deposit(5), key("m-1"))
        .await
        .unwrap();
    service
        .execute(&stream, deposit(5), key("m-1"))
        .await
        .unwrap();
    service
        .execute(&stream, deposit(0), CommandMetadata::start())
        .await
        .unwrap_err();

    let snapshot = snapshotter.snapshot().into_vec();
    let counter = |outcome: &str| {
        snapshot.iter().find_map(|(key, _, _, value)| {
            let key = key.key();
            let labels: Vec<(&str, &str)> = key.labels().map(|l| (l.key(), l.value())).collect();
            (key.name() == "balcao_commands_total"
                && labels.contains(&("aggregate", "ledger"))
                && labels.contains(&("outcome", outcome)))
            .then_some(value)
        })
    };
    assert_eq!(counter("ok"), Some(&DebugValue::Counter(1)));
    assert_eq!(counter("replayed"), Some(&DebugValue::Counter(1)));
    assert_eq!(counter("rejected"), Some(&DebugValue::Counter(1)));
    let timings: usize = snapshot
        .iter()
        .filter(|(key, _, _, _)| key.key().name() == "balcao_command_duration_seconds")
        .map(|(_, _, _, value)| match value {
            DebugValue::Histogram(values) => values.len(),
            _ => 0,
        })
        .sum();
    assert_eq!(timings, 3);
}
