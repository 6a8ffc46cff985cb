//! The feed on a real PostgreSQL: late committers are waited for, never skipped; rolled-back
//! events never appear; every reader sees one order.

use crate::common;

use commands::Upcasters;
use commands::feed::{FeedFields, FeedPosition, StoredEvent, read_after, read_after_with};
use commands::feed_copy::FeedCopy;
use common::{TestDb, insert_raw_event, new_stream, read_feed_until};
use serde_json::json;
use sqlx::Connection;

fn deposit(amount_centavos: i64) -> serde_json::Value {
    json!({"Deposited": {"amount_centavos": amount_centavos}})
}

/// Global positions of the events a naive reader sees: everything past a position, with no
/// transaction-id horizon. Used to show the scenario really is the dangerous one.
async fn naive_read_after(db: &TestDb, after: i64) -> Vec<i64> {
    sqlx::query_scalar(
        "select global_position from events where global_position > $1 order by global_position",
    )
    .bind(after)
    .fetch_all(&db.pool)
    .await
    .unwrap()
}

#[tokio::test]
async fn waits_for_a_transaction_that_commits_late_and_then_delivers_it_first() {
    let db = TestDb::new().await;
    let mut setup = db.connection().await;
    let mut first_writer = db.connection().await;
    let mut second_writer = db.connection().await;

    // A reader that has read everything so far and keeps its checkpoint.
    let earlier = insert_raw_event(&mut setup, &new_stream(), 1, "Deposited", 2, deposit(1)).await;
    let delivered = read_feed_until(&db.pool, FeedPosition::default(), 1).await;
    assert_eq!(delivered.len(), 1);
    assert_eq!(delivered[0].position.global_position, earlier);
    let checkpoint = delivered[0].position;

    // T1 writes first (older transaction id, lower position) and stays open.
    let mut t1 = first_writer.begin().await.unwrap();
    let t1_position =
        insert_raw_event(&mut t1, &new_stream(), 1, "Deposited", 2, deposit(10)).await;

    // T2 writes later (newer transaction id, higher position) and commits first.
    let mut t2 = second_writer.begin().await.unwrap();
    let t2_position =
        insert_raw_event(&mut t2, &new_stream(), 1, "Deposited", 2, deposit(20)).await;
    t2.commit().await.unwrap();
    assert!(t1_position < t2_position);

    // A reader going by position alone would now see T2, move its checkpoint past T1's position
    // and never see T1's event: that is the trap.
    assert_eq!(naive_read_after(&db, earlier).await, vec![t2_position]);

    // The feed shows nothing of T2 while T1, whose transaction id is older, is still open.
    let while_open = read_after(&db.pool, &Upcasters::application(), checkpoint, 100)
        .await
        .unwrap();
    assert!(
        while_open.is_empty(),
        "delivered {while_open:?} while T1 was open"
    );

    t1.commit().await.unwrap();

    // Now both arrive, T1's event first: ordered by transaction id, not by commit time.
    let after_commit = read_feed_until(&db.pool, checkpoint, 2).await;
    let positions: Vec<i64> = after_commit
        .iter()
        .map(|event| event.position.global_position)
        .collect();
    assert_eq!(positions, vec![t1_position, t2_position]);
    assert!(after_commit[0].position < after_commit[1].position);
    assert!(after_commit[0].position.tx_id < after_commit[1].position.tx_id);
}

#[tokio::test]
async fn never_shows_a_rolled_back_event() {
    let db = TestDb::new().await;
    let mut writer = db.connection().await;
    let mut other = db.connection().await;

    let mut doomed = writer.begin().await.unwrap();
    let doomed_position =
        insert_raw_event(&mut doomed, &new_stream(), 1, "Deposited", 2, deposit(66)).await;
    let kept = insert_raw_event(&mut other, &new_stream(), 1, "Deposited", 2, deposit(1)).await;
    doomed.rollback().await.unwrap();

    let delivered = read_feed_until(&db.pool, FeedPosition::default(), 1).await;
    let positions: Vec<i64> = delivered
        .iter()
        .map(|event| event.position.global_position)
        .collect();
    assert_eq!(positions, vec![kept]);
    assert!(!positions.contains(&doomed_position));
    // The rolled-back insert left a hole in the positions; the feed does not wait for it.
    assert!(doomed_position < kept);
}

#[tokio::test]
async fn readers_paging_differently_agree_on_one_order() {
    let db = TestDb::new().await;
    let mut a = db.connection().await;
    let mut b = db.connection().await;
    let stream_a = new_stream();
    let stream_b = new_stream();

    // Interleaved writers, one of them with several events in one transaction.
    let mut tx = a.begin().await.unwrap();
    for version in 1..=3 {
        insert_raw_event(
            &mut tx,
            &stream_a,
            version,
            "Deposited",
            2,
            deposit(version),
        )
        .await;
        insert_raw_event(&mut b, &stream_b, version, "Deposited", 2, deposit(version)).await;
    }
    tx.commit().await.unwrap();

    let all_at_once = read_feed_until(&db.pool, FeedPosition::default(), 6).await;
    assert_eq!(all_at_once.len(), 6);

    let mut one_by_one = Vec::new();
    let mut checkpoint = FeedPosition::default();
    loop {
        let page = read_after(&db.pool, &Upcasters::application(), checkpoint, 1)
            .await
            .unwrap();
        let Some(event) = page.into_iter().next() else {
            break;
        };
        checkpoint = event.position;
        one_by_one.push(event);
    }
    assert_eq!(one_by_one, all_at_once);
    assert!(
        all_at_once
            .windows(2)
            .all(|w| w[0].position < w[1].position)
    );

    // The three events of the one transaction come together, in stream order.
    let tx_ids: Vec<u64> = all_at_once.iter().map(|e| e.position.tx_id).collect();
    let first_tx = all_at_once
        .iter()
        .position(|e| e.stream_id == stream_a)
        .unwrap();
    assert!(
        tx_ids[first_tx..first_tx + 3]
            .iter()
            .all(|&t| t == tx_ids[first_tx])
    );
    let versions: Vec<i64> = all_at_once[first_tx..first_tx + 3]
        .iter()
        .map(|e| e.stream_version)
        .collect();
    assert_eq!(versions, vec![1, 2, 3]);
}

#[tokio::test]
async fn an_open_transaction_that_wrote_nothing_to_events_still_holds_the_feed() {
    let db = TestDb::new().await;
    let mut long = db.connection().await;
    let mut writer = db.connection().await;

    // Any transaction with an id holds the horizon, whatever table it wrote to.
    let mut open = long.begin().await.unwrap();
    sqlx::query("select pg_current_xact_id()")
        .execute(&mut *open)
        .await
        .unwrap();
    insert_raw_event(&mut writer, &new_stream(), 1, "Deposited", 2, deposit(5)).await;
    assert!(
        read_after(
            &db.pool,
            &Upcasters::application(),
            FeedPosition::default(),
            10
        )
        .await
        .unwrap()
        .is_empty()
    );

    open.commit().await.unwrap();
    assert_eq!(
        read_feed_until(&db.pool, FeedPosition::default(), 1)
            .await
            .len(),
        1
    );
}

/// The whole feed through the replay's binary `COPY`, in pages of three.
async fn copy_feed(db: &TestDb, fields: &FeedFields) -> Vec<StoredEvent> {
    let mut conn = db.connection().await;
    let mut feed = FeedCopy::start(&mut conn, fields.clone()).await.unwrap();
    let mut events = Vec::new();
    while let Some(page) = feed.next_page(&Upcasters::application(), 3).await.unwrap() {
        events.extend(page);
    }
    events
}

#[tokio::test]
async fn the_replays_binary_copy_reads_what_paging_reads_and_stops_at_the_same_horizon() {
    let db = TestDb::new().await;
    let mut conn = db.connection().await;
    let stream = new_stream();
    for version in 1..=3 {
        insert_raw_event(
            &mut conn,
            &stream,
            version,
            "Deposited",
            2,
            deposit(version),
        )
        .await;
    }
    sqlx::query(
        r#"insert into events (event_id, stream_type, stream_id, stream_version, event_type,
                               schema_version, payload, metadata)
           values (gen_random_uuid(), 'till', 'caixa-1', 1, 'Opened', 1,
                   '{"note": "Pão de queijo \"quente\""}', '{"actor": "maria"}')"#,
    )
    .execute(&mut conn)
    .await
    .unwrap();
    assert_eq!(
        read_feed_until(&db.pool, FeedPosition::default(), 4)
            .await
            .len(),
        4
    );

    // A writer that has not committed holds the horizon: what commits after it waits for it.
    let mut late = db.connection().await;
    let mut open = late.begin().await.unwrap();
    insert_raw_event(&mut open, &new_stream(), 1, "Deposited", 2, deposit(9)).await;
    insert_raw_event(&mut conn, &stream, 4, "Deposited", 2, deposit(4)).await;

    for fields in [
        FeedFields::everything(),
        FeedFields::payloads_of(&["till"]),
        FeedFields::payloads_of(&[]),
    ] {
        let paged = read_after_with(
            &db.pool,
            &Upcasters::application(),
            FeedPosition::default(),
            1_000,
            &fields,
        )
        .await
        .unwrap();
        let copied = copy_feed(&db, &fields).await;
        assert_eq!(paged.len(), 4, "{fields:?}");
        assert_eq!(copied, paged, "{fields:?}");
    }
    let everything = copy_feed(&db, &FeedFields::everything()).await;
    assert_eq!(
        everything[3].payload.get(),
        r#"{"note": "Pão de queijo \"quente\""}"#
    );
    assert_eq!(everything[3].metadata.get(), r#"{"actor": "maria"}"#);
    assert!(
        copy_feed(&db, &FeedFields::payloads_of(&["till"])).await[0]
            .payload
            .is_null()
    );
    open.rollback().await.unwrap();
}
