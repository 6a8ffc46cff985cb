//! Upcasters on the read path: events stored in an old shape load as the current one.

use crate::common;

use commands::feed::{self, FeedPosition};
use commands::{CommandError, CommandMetadata, CommandService, PgEventStore, Upcasters};
use common::ledger::{Ledger, LedgerCommand, LedgerServices};
use common::{TestDb, insert_raw_event, new_stream, read_feed_until};
use serde_json::{Value, json};

/// Version 1 of `Deposited` held the amount as a pt-BR decimal string in reais (`"12,34"`);
/// version 2 holds integer centavos. The conversion is integer-only: reais × 100 + centavos.
fn deposited_v1_to_v2(mut payload: Value) -> Value {
    let valor = payload["Deposited"]["valor"].as_str().unwrap_or("0,00");
    let (reais, centavos) = valor.split_once(',').unwrap_or((valor, "00"));
    let reais: i64 = reais.replace('.', "").parse().unwrap_or(0);
    let centavos: i64 = centavos.parse().unwrap_or(0);
    payload["Deposited"] = json!({"amount_centavos": reais * 100 + centavos});
    payload
}

fn upcasters() -> Upcasters {
    Upcasters::new().with("Deposited", 1, deposited_v1_to_v2)
}

/// A stream holding one deposit written by the old version of the application.
async fn stream_with_an_old_deposit(db: &TestDb) -> String {
    let stream = new_stream();
    let mut conn = db.connection().await;
    insert_raw_event(
        &mut conn,
        &stream,
        1,
        "Deposited",
        1,
        json!({"Deposited": {"valor": "1.012,34"}}),
    )
    .await;
    stream
}

#[tokio::test]
async fn loads_an_event_stored_in_an_old_shape_through_its_upcaster() {
    let db = TestDb::new().await;
    let stream = stream_with_an_old_deposit(&db).await;
    let store = PgEventStore::new(db.pool.clone()).with_upcasters(upcasters());

    let loaded = store.load::<Ledger>(&stream).await.unwrap();

    assert_eq!(
        (loaded.version, loaded.aggregate.balance_centavos),
        (1, 101_234)
    );
    let stored = store.read_stream("ledger", &stream).await.unwrap();
    assert_eq!(stored[0].schema_version, 2);
    assert_eq!(
        stored[0].payload.to_value(),
        json!({"Deposited": {"amount_centavos": 101_234}})
    );
}

#[tokio::test]
async fn without_its_upcaster_an_old_event_is_reported_as_corrupt() {
    let db = TestDb::new().await;
    let stream = stream_with_an_old_deposit(&db).await;
    let store = PgEventStore::new(db.pool.clone());

    let result = store.load::<Ledger>(&stream).await;

    match result {
        Err(
            error @ CommandError::CorruptEvent {
                stream_version: 1,
                schema_version: 1,
                ..
            },
        ) => assert_eq!(error.status_code(), 500),
        other => panic!("expected a corrupt event, got {other:?}"),
    }
}

#[tokio::test]
async fn commands_decide_on_the_upcast_state_and_the_row_is_left_as_stored() {
    let db = TestDb::new().await;
    let stream = stream_with_an_old_deposit(&db).await;
    let store = PgEventStore::new(db.pool.clone()).with_upcasters(upcasters());
    let service = CommandService::<Ledger>::new(store, LedgerServices::default());

    let outcome = service
        .execute(
            &stream,
            LedgerCommand::Withdraw {
                amount_centavos: 101_000,
            },
            CommandMetadata::start(),
        )
        .await
        .unwrap();

    assert_eq!(outcome.version, 2);
    assert_eq!(
        service
            .load(&stream)
            .await
            .unwrap()
            .aggregate
            .balance_centavos,
        234
    );
    let (version, payload): (i32, Value) = sqlx::query_as(
        "select schema_version, payload from events where stream_id = $1 and stream_version = 1",
    )
    .bind(&stream)
    .fetch_one(&db.pool)
    .await
    .unwrap();
    assert_eq!(
        (version, payload),
        (1, json!({"Deposited": {"valor": "1.012,34"}}))
    );
}

#[tokio::test]
async fn the_feed_hands_out_an_old_event_in_its_current_shape() {
    let db = TestDb::new().await;
    stream_with_an_old_deposit(&db).await;
    let raw = read_feed_until(&db.pool, FeedPosition::default(), 1).await;

    let upcast = feed::read_after(&db.pool, &upcasters(), FeedPosition::default(), 10)
        .await
        .unwrap();

    assert_eq!(
        raw[0].schema_version, 1,
        "without a step the feed leaves it alone"
    );
    assert_eq!(upcast.len(), 1);
    assert_eq!(upcast[0].schema_version, 2);
    assert_eq!(
        upcast[0].payload.to_value()["Deposited"]["amount_centavos"],
        101_234
    );
    assert_eq!(upcast[0].event_id, raw[0].event_id);
    assert_eq!(upcasters().current_version("Deposited"), 2);
}

#[tokio::test]
async fn a_reader_asking_for_some_payloads_gets_those_upcast_and_the_rest_left_out() {
    let db = TestDb::new().await;
    stream_with_an_old_deposit(&db).await;
    let mut conn = db.connection().await;
    sqlx::query(
        "insert into events (event_id, stream_type, stream_id, stream_version, event_type,
                             schema_version, payload, metadata)
         values ($1, 'other', 'other-1', 1, 'Deposited', 1, $2, '{\"actor\": \"x\"}')",
    )
    .bind(uuid::Uuid::now_v7())
    .bind(json!({"Deposited": {"valor": "5,00"}}))
    .execute(&mut conn)
    .await
    .unwrap();
    let whole = read_feed_until(&db.pool, FeedPosition::default(), 2).await;
    assert_eq!(whole.len(), 2);

    let fields = feed::FeedFields::payloads_of(&["ledger"]);
    let narrow =
        feed::read_after_with(&db.pool, &upcasters(), FeedPosition::default(), 10, &fields)
            .await
            .unwrap();

    // The ledger's payload is read and upcast; the other stream's is left in PostgreSQL, at
    // its stored version, and no metadata is read at all.
    assert_eq!(narrow.len(), 2);
    assert_eq!(narrow[0].schema_version, 2);
    assert_eq!(
        narrow[0].payload.to_value()["Deposited"]["amount_centavos"],
        101_234
    );
    assert_eq!(
        (narrow[1].stream_type.as_str(), narrow[1].schema_version),
        ("other", 1)
    );
    assert!(narrow[1].payload.is_null());
    assert!(narrow.iter().all(|e| e.metadata.is_null()));
    assert_eq!(whole[1].metadata.to_value(), json!({"actor": "x"}));
    // A live reader narrowing whole events sees exactly the same.
    let narrowed: Vec<_> = whole
        .into_iter()
        .map(|e| fields.narrow(&upcasters(), e))
        .collect();
    assert_eq!(narrowed, narrow);
}

#[test]
fn readers_of_different_streams_together_read_the_payloads_of_both() {
    let qr = feed::FeedFields::payloads_of(&["qrcode"]);
    let both = qr.union(&feed::FeedFields::payloads_of(&["account", "qrcode"]));
    assert_eq!(both.payloads_of, Some(vec!["qrcode", "account"]));
    assert!(!both.metadata);
    assert!(!both.reads_payload_of("payment"));
    let all = both.union(&feed::FeedFields::everything());
    assert!(all.reads_payload_of("payment") && all.metadata);
}
