//! `PgEventStore` on a real PostgreSQL: one transaction per append, expected versions, metadata,
//! the cqrs-es trait, and the relay's notification.

use crate::common;

use std::collections::HashMap;
use std::time::Duration;

use commands::feed::{FeedPosition, read_after};
use commands::{
    CommandError, CommandMetadata, EVENTS_CHANNEL, ExpectedVersion, IdempotencyKey, Upcasters,
};
use common::ledger::{Ledger, LedgerCommand, LedgerEvent, LedgerServices};
use common::{TestDb, insert_raw_event, new_stream, read_feed_until};
use cqrs_es::{AggregateContext, AggregateError, CqrsFramework, DomainEvent, EventStore};
use serde::{Deserialize, Serialize};
use sqlx::Connection;
use sqlx::postgres::PgListener;
use uuid::Uuid;

fn deposit(amount_centavos: i64) -> LedgerEvent {
    LedgerEvent::Deposited { amount_centavos }
}

#[tokio::test]
async fn appends_a_commands_events_in_one_transaction_with_consecutive_versions() {
    let db = TestDb::new().await;
    let store = db.store();
    let stream = new_stream();
    let events = [deposit(1_000), LedgerEvent::FeeCharged { fee_centavos: 50 }];

    let outcome = store
        .append::<Ledger>(
            &stream,
            ExpectedVersion::NoStream,
            &events,
            &CommandMetadata::start(),
        )
        .await
        .unwrap();

    let stored = store.read_stream("ledger", &stream).await.unwrap();
    assert_eq!(stored.len(), 2);
    assert_eq!(outcome.version, 2);
    assert_eq!(
        stored.iter().map(|e| e.stream_version).collect::<Vec<_>>(),
        vec![1, 2]
    );
    assert_eq!(
        stored.iter().map(|e| e.event_id).collect::<Vec<_>>(),
        outcome.event_ids
    );
    assert_eq!(stored[0].position.tx_id, stored[1].position.tx_id);
    assert!(stored[0].position.global_position < stored[1].position.global_position);
    assert_eq!(outcome.position, Some(stored[1].position));
    assert!(!outcome.replayed);
}

#[tokio::test]
async fn the_returned_position_is_where_the_feed_delivers_the_last_event() {
    let db = TestDb::new().await;
    let store = db.store();
    let outcome = store
        .append::<Ledger>(
            &new_stream(),
            ExpectedVersion::Any,
            &[deposit(5), deposit(6)],
            &CommandMetadata::start(),
        )
        .await
        .unwrap();

    let feed = read_feed_until(&db.pool, FeedPosition::default(), 2).await;
    let last = feed.last().expect("the events reach the feed");
    assert_eq!(Some(last.position), outcome.position);
    assert_eq!(Some(&last.event_id), outcome.event_ids.last());
    // A reader checkpointed at the returned position has nothing left of this command.
    let after = read_after(
        &db.pool,
        &Upcasters::application(),
        outcome.position.unwrap(),
        100,
    )
    .await
    .unwrap();
    assert!(after.is_empty());
}

#[tokio::test]
async fn stores_event_type_schema_version_and_metadata_with_each_event() {
    let db = TestDb::new().await;
    let store = db.store();
    let stream = new_stream();
    let correlation = Uuid::now_v7();
    let cause = Uuid::now_v7();
    let metadata = CommandMetadata::new(correlation)
        .caused_by(cause)
        .by("merchant:7")
        .with_idempotency_key(IdempotencyKey::parse("chave-1").unwrap())
        .with_request_id("req-42");

    store
        .append::<Ledger>(
            &stream,
            ExpectedVersion::NoStream,
            &[deposit(300), LedgerEvent::FeeCharged { fee_centavos: 3 }],
            &metadata,
        )
        .await
        .unwrap();

    let stored = store.read_stream("ledger", &stream).await.unwrap();
    assert_eq!(stored[0].event_type, "Deposited");
    assert_eq!(stored[0].schema_version, 2);
    assert_eq!(stored[1].event_type, "FeeCharged");
    assert_eq!(stored[1].schema_version, 1);
    assert_eq!(stored[0].stream_type, "ledger");
    assert_eq!(
        stored[0].payload.to_value(),
        serde_json::json!({"Deposited": {"amount_centavos": 300}})
    );
    for event in &stored {
        assert_eq!(event.metadata.to_value(), metadata.to_json());
        assert_eq!(event.metadata.to_value()["causation_id"], cause.to_string());
        assert_eq!(event.metadata.to_value()["actor"], "merchant:7");
        assert_eq!(event.metadata.to_value()["idempotency_key"], "chave-1");
        assert_eq!(event.metadata.to_value()["request_id"], "req-42");
    }
    assert_eq!(stored[0].event_id.get_version_num(), 7);
}

#[tokio::test]
async fn of_two_writers_extending_the_same_version_the_second_is_refused() {
    let db = TestDb::new().await;
    let store = db.store();
    let stream = new_stream();

    store
        .append::<Ledger>(
            &stream,
            ExpectedVersion::Exact(0),
            &[deposit(1)],
            &CommandMetadata::start(),
        )
        .await
        .unwrap();
    let second = store
        .append::<Ledger>(
            &stream,
            ExpectedVersion::Exact(0),
            &[deposit(2)],
            &CommandMetadata::start(),
        )
        .await;

    match second {
        Err(CommandError::WrongExpectedVersion {
            expected, actual, ..
        }) => {
            assert_eq!(expected, ExpectedVersion::Exact(0));
            assert_eq!(actual, 1);
        }
        other => panic!("expected a version conflict, got {other:?}"),
    }
    assert_eq!(store.read_stream("ledger", &stream).await.unwrap().len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_writer_overlapping_an_open_transaction_on_the_same_version_waits_and_then_conflicts() {
    let db = TestDb::new().await;
    let store = db.store();
    let stream = new_stream();
    let mut other = db.connection().await;

    // Another writer has taken version 1 but not committed yet.
    let mut open = other.begin().await.unwrap();
    insert_raw_event(
        &mut open,
        &stream,
        1,
        "Deposited",
        2,
        serde_json::json!({"Deposited": {"amount_centavos": 7}}),
    )
    .await;

    let racing_store = store.clone();
    let racing_stream = stream.clone();
    let mut racing = tokio::spawn(async move {
        racing_store
            .append::<Ledger>(
                &racing_stream,
                ExpectedVersion::Exact(0),
                &[deposit(8)],
                &CommandMetadata::start(),
            )
            .await
    });
    // It cannot decide while the other transaction may still commit or roll back.
    assert!(
        tokio::time::timeout(Duration::from_millis(300), &mut racing)
            .await
            .is_err(),
        "the second writer did not wait for the first"
    );

    open.commit().await.unwrap();
    let result = racing.await.unwrap();
    assert!(
        matches!(
            result,
            Err(CommandError::WrongExpectedVersion { actual: 1, .. })
        ),
        "{result:?}"
    );
    let stored = store.read_stream("ledger", &stream).await.unwrap();
    assert_eq!(stored.len(), 1);
    assert_eq!(
        stored[0].payload.to_value()["Deposited"]["amount_centavos"],
        7
    );
}

#[tokio::test]
async fn no_stream_refuses_a_stream_that_exists_and_any_appends_after_the_latest() {
    let db = TestDb::new().await;
    let store = db.store();
    let stream = new_stream();
    let metadata = CommandMetadata::start();

    store
        .append::<Ledger>(&stream, ExpectedVersion::NoStream, &[deposit(1)], &metadata)
        .await
        .unwrap();
    let again = store
        .append::<Ledger>(&stream, ExpectedVersion::NoStream, &[deposit(1)], &metadata)
        .await;
    assert!(matches!(
        again,
        Err(CommandError::WrongExpectedVersion { actual: 1, .. })
    ));

    let any = store
        .append::<Ledger>(
            &stream,
            ExpectedVersion::Any,
            &[deposit(2), deposit(3)],
            &metadata,
        )
        .await
        .unwrap();
    assert_eq!(any.version, 3);
    let exact = store
        .append::<Ledger>(&stream, ExpectedVersion::Exact(3), &[deposit(4)], &metadata)
        .await
        .unwrap();
    assert_eq!(exact.version, 4);
    assert_eq!(
        store
            .load::<Ledger>(&stream)
            .await
            .unwrap()
            .aggregate
            .balance_centavos,
        10
    );
}

#[tokio::test]
async fn an_expected_version_ahead_of_the_stream_is_refused_and_leaves_no_gap() {
    let db = TestDb::new().await;
    let store = db.store();
    let stream = new_stream();
    let metadata = CommandMetadata::start();
    store
        .append::<Ledger>(&stream, ExpectedVersion::Any, &[deposit(1)], &metadata)
        .await
        .unwrap();

    let keyed =
        CommandMetadata::start().with_idempotency_key(IdempotencyKey::parse("adiante").unwrap());
    let ahead = store
        .append::<Ledger>(&stream, ExpectedVersion::Exact(5), &[deposit(2)], &keyed)
        .await;

    assert!(
        matches!(
            ahead,
            Err(CommandError::WrongExpectedVersion { actual: 1, .. })
        ),
        "{ahead:?}"
    );
    let versions: Vec<i64> = store
        .read_stream("ledger", &stream)
        .await
        .unwrap()
        .iter()
        .map(|e| e.stream_version)
        .collect();
    assert_eq!(versions, vec![1]);
    let recorded: i64 = sqlx::query_scalar("select count(*) from command_idempotency")
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert_eq!(recorded, 0, "a refused append recorded its idempotency key");
}

#[tokio::test]
async fn an_empty_append_checks_the_expected_version_and_writes_nothing() {
    let db = TestDb::new().await;
    let store = db.store();
    let stream = new_stream();
    let metadata = CommandMetadata::start();
    store
        .append::<Ledger>(&stream, ExpectedVersion::Any, &[deposit(1)], &metadata)
        .await
        .unwrap();

    let nothing = store
        .append::<Ledger>(&stream, ExpectedVersion::Exact(1), &[], &metadata)
        .await
        .unwrap();
    assert_eq!((nothing.version, nothing.position), (1, None));
    assert!(nothing.event_ids.is_empty());
    let stale = store
        .append::<Ledger>(&stream, ExpectedVersion::NoStream, &[], &metadata)
        .await;
    assert!(matches!(
        stale,
        Err(CommandError::WrongExpectedVersion { actual: 1, .. })
    ));
}

/// An aggregate whose event declares a version that is not a schema version.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Misversioned;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Noted;

impl DomainEvent for Noted {
    fn event_type(&self) -> String {
        "Noted".to_owned()
    }
    fn event_version(&self) -> String {
        "1.0.0".to_owned()
    }
}

impl cqrs_es::Aggregate for Misversioned {
    const TYPE: &'static str = "misversioned";
    type Command = ();
    type Event = Noted;
    type Error = std::io::Error;
    type Services = ();

    async fn handle(
        &mut self,
        _command: (),
        _services: &(),
        sink: &cqrs_es::event_sink::EventSink<Self>,
    ) -> Result<(), std::io::Error> {
        sink.write(Noted, self).await;
        Ok(())
    }

    fn apply(&mut self, _event: Noted) {}
}

#[tokio::test]
async fn refuses_an_event_whose_version_is_not_a_positive_integer_and_writes_nothing() {
    let db = TestDb::new().await;
    let store = db.store();

    let result = store
        .append::<Misversioned>(
            "m-1",
            ExpectedVersion::Any,
            &[Noted],
            &CommandMetadata::start(),
        )
        .await;

    match result {
        Err(error @ CommandError::InvalidEventVersion { .. }) => {
            assert_eq!(error.status_code(), 500);
            assert!(error.to_string().contains("1.0.0"), "{error}");
        }
        other => panic!("expected InvalidEventVersion, got {other:?}"),
    }
    assert_eq!(
        store.current_version("misversioned", "m-1").await.unwrap(),
        0
    );
}

#[tokio::test]
async fn cqrs_framework_executes_commands_through_the_store() {
    let db = TestDb::new().await;
    let store = db.store();
    let stream = new_stream();
    let framework: CqrsFramework<Ledger, _> =
        CqrsFramework::new(store.clone(), vec![], LedgerServices::default());

    let metadata = HashMap::from([("actor".to_owned(), "visitante".to_owned())]);
    framework
        .execute_with_metadata(
            &stream,
            LedgerCommand::DepositWithFee {
                amount_centavos: 500,
                fee_centavos: 20,
            },
            metadata,
        )
        .await
        .unwrap();
    framework
        .execute(
            &stream,
            LedgerCommand::Withdraw {
                amount_centavos: 80,
            },
        )
        .await
        .unwrap();

    let envelopes = EventStore::<Ledger>::load_events(&store, &stream)
        .await
        .unwrap();
    let sequences: Vec<usize> = envelopes.iter().map(|e| e.sequence).collect();
    assert_eq!(sequences, vec![1, 2, 3]);
    assert_eq!(envelopes[0].metadata["actor"], "visitante");
    assert_eq!(
        envelopes[2].payload,
        LedgerEvent::Withdrawn {
            amount_centavos: 80
        }
    );
    let mut context = EventStore::<Ledger>::load_aggregate(&store, &stream)
        .await
        .unwrap();
    assert_eq!(context.version, 3);
    assert_eq!(context.aggregate().balance_centavos, 400);

    let refused = framework
        .execute(
            &stream,
            LedgerCommand::Withdraw {
                amount_centavos: 401,
            },
        )
        .await;
    assert!(matches!(refused, Err(AggregateError::UserError(_))));
}

#[tokio::test]
async fn cqrs_commit_from_a_stale_context_is_an_aggregate_conflict() {
    let db = TestDb::new().await;
    let store = db.store();
    let stream = new_stream();
    let stale = EventStore::<Ledger>::load_aggregate(&store, &stream)
        .await
        .unwrap();
    let fresh = EventStore::<Ledger>::load_aggregate(&store, &stream)
        .await
        .unwrap();

    let committed = store
        .commit(vec![deposit(1)], fresh, HashMap::new())
        .await
        .unwrap();
    assert_eq!(committed[0].sequence, 1);
    let conflict = store.commit(vec![deposit(2)], stale, HashMap::new()).await;
    assert!(matches!(conflict, Err(AggregateError::AggregateConflict)));
}

async fn next_notification(listener: &mut PgListener, wait: Duration) -> Option<String> {
    tokio::time::timeout(wait, listener.recv())
        .await
        .ok()
        .map(|n| n.unwrap().channel().to_owned())
}

#[tokio::test]
async fn appending_wakes_listeners_of_the_events_channel() {
    let db = TestDb::new().await;
    let mut listener = PgListener::connect_with(&db.pool).await.unwrap();
    listener.listen(EVENTS_CHANNEL).await.unwrap();

    db.store()
        .append::<Ledger>(
            &new_stream(),
            ExpectedVersion::Any,
            &[deposit(1)],
            &CommandMetadata::start(),
        )
        .await
        .unwrap();

    let channel = next_notification(&mut listener, Duration::from_secs(5)).await;
    assert_eq!(channel.as_deref(), Some("balcao_events"));
}

#[tokio::test]
async fn only_one_transaction_at_a_time_carries_the_notification() {
    let db = TestDb::new().await;
    let mut listener = PgListener::connect_with(&db.pool).await.unwrap();
    listener.listen(EVENTS_CHANNEL).await.unwrap();
    let mut first = db.connection().await;
    let mut second = db.connection().await;
    let payload = serde_json::json!({"Deposited": {"amount_centavos": 1}});

    // The first writer takes the notification and stays in flight; the second commits meanwhile.
    let mut in_flight = first.begin().await.unwrap();
    insert_raw_event(
        &mut in_flight,
        &new_stream(),
        1,
        "Deposited",
        2,
        payload.clone(),
    )
    .await;
    insert_raw_event(
        &mut second,
        &new_stream(),
        1,
        "Deposited",
        2,
        payload.clone(),
    )
    .await;
    assert_eq!(
        next_notification(&mut listener, Duration::from_millis(300)).await,
        None,
        "the writer that committed while another held the notification sent one too"
    );

    // The holder's notification arrives when it commits, and only that one.
    in_flight.commit().await.unwrap();
    assert!(
        next_notification(&mut listener, Duration::from_secs(5))
            .await
            .is_some()
    );
    assert_eq!(
        next_notification(&mut listener, Duration::from_millis(200)).await,
        None
    );

    // With nobody holding it, the next writer notifies again.
    insert_raw_event(&mut second, &new_stream(), 1, "Deposited", 2, payload).await;
    assert!(
        next_notification(&mut listener, Duration::from_secs(5))
            .await
            .is_some()
    );
}

#[tokio::test]
async fn a_rolled_back_insert_does_not_silence_the_next_notification() {
    let db = TestDb::new().await;
    let mut listener = PgListener::connect_with(&db.pool).await.unwrap();
    listener.listen(EVENTS_CHANNEL).await.unwrap();
    let mut writer = db.connection().await;
    let payload = serde_json::json!({"Deposited": {"amount_centavos": 1}});

    let mut doomed = writer.begin().await.unwrap();
    insert_raw_event(
        &mut doomed,
        &new_stream(),
        1,
        "Deposited",
        2,
        payload.clone(),
    )
    .await;
    doomed.rollback().await.unwrap();
    insert_raw_event(&mut writer, &new_stream(), 1, "Deposited", 2, payload).await;

    assert!(
        next_notification(&mut listener, Duration::from_secs(5))
            .await
            .is_some(),
        "the committed insert right after a rolled-back one did not notify"
    );
}
