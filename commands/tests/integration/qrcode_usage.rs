//! `qrcode_usage` on a real PostgreSQL: each account's codes per São Paulo month, counted by the
//! command that makes (or claims) them in its own transaction, and the plan's monthly limit
//! checked by that count: the last code of the month is made once, whatever races for it, and a
//! refused creation leaves nothing.

use crate::common;

use commands::qrcode_usage::PlanAsRead;
use commands::qrcodes::{self, Created, NewCode};
use commands::{
    BatchOutcome, CommandError, CommandMetadata, CommandService, IdempotencyKey, RequestDigest,
};
use common::TestDb;
use common::codes::{new_code_at, unsubscribed};
use domain::qrcode::{QrCode, QrCodeError};
use domain::refusal::{Refusal, RefusalKind};
use domain::subscription::plans::PlanId;
use futures::future::join_all;

/// A day of November 2026 in São Paulo.
const NOVEMBER: &str = "2026-11-26T15:00:00Z";

fn by(account: &str) -> CommandMetadata {
    CommandMetadata::start().by(account.to_owned())
}

/// A shop in a fresh database, with the QR-code service.
struct Shop {
    db: TestDb,
    service: CommandService<QrCode>,
    id: String,
}

impl Shop {
    /// A shop that has made `codes` codes in November.
    async fn with_november(codes: i64) -> Shop {
        let db = TestDb::new().await;
        let shop = Shop {
            service: CommandService::new(db.store(), ()),
            db,
            id: uuid::Uuid::now_v7().to_string(),
        };
        if codes > 0 {
            sqlx::query(
                "insert into qrcode_usage (account_id, month, codes)
                 values ($1::uuid, '2026-11-01', $2)",
            )
            .bind(&shop.id)
            .bind(codes)
            .execute(&shop.db.pool)
            .await
            .expect("usage set");
        }
        shop
    }

    /// A code with a generated txid, made in November on the free plan.
    fn code(&self) -> NewCode {
        self.code_at(&qrcodes::fresh_txid(), false, PlanId::Gratis, NOVEMBER)
    }

    fn code_at(&self, txid: &str, typed: bool, plan: PlanId, at: &str) -> NewCode {
        new_code_at(&self.id, txid, typed, plan, at)
    }

    async fn create(&self, code: NewCode) -> Result<Created, CommandError<QrCodeError>> {
        qrcodes::create(&self.service, code, |_| by(&self.id)).await
    }

    /// The count of the month starting on `month` (`YYYY-MM-01`).
    async fn usage(&self, month: &str) -> i64 {
        sqlx::query_scalar(
            "select coalesce((select codes from qrcode_usage
                               where account_id = $1::uuid and month = $2::date), 0)",
        )
        .bind(&self.id)
        .bind(month)
        .fetch_one(&self.db.pool)
        .await
        .expect("usage")
    }

    async fn count(&self, sql: &'static str) -> i64 {
        sqlx::query_scalar(sql)
            .fetch_one(&self.db.pool)
            .await
            .expect("a count")
    }

    async fn events(&self) -> i64 {
        self.count("select count(*) from events where stream_type = 'qrcode'")
            .await
    }
}

fn refused(result: Result<Created, CommandError<QrCodeError>>) -> QrCodeError {
    match result {
        Err(CommandError::Rejected(refusal)) => refusal,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

fn refused_batch(result: Result<BatchOutcome, CommandError<QrCodeError>>) -> QrCodeError {
    match result {
        Err(CommandError::Rejected(refusal)) => refusal,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[tokio::test]
async fn a_code_counts_in_the_sao_paulo_month_it_was_made_in() {
    // Given a shop
    let shop = Shop::with_november(0).await;

    // When codes are made in November, at 23:00 of 30 November in São Paulo (already December
    // in UTC), and at midnight of 1 December in São Paulo
    for at in [NOVEMBER, "2026-12-01T02:00:00Z", "2026-12-01T03:00:00Z"] {
        let code = shop.code_at(&qrcodes::fresh_txid(), false, PlanId::Gratis, at);
        shop.create(code).await.expect("made");
    }

    // Then November has two and December one
    assert_eq!(shop.usage("2026-11-01").await, 2);
    assert_eq!(shop.usage("2026-12-01").await, 1);
}

#[tokio::test]
async fn the_plans_last_code_of_the_month_is_made_and_the_next_is_refused_leaving_nothing() {
    // Given a free shop (100 codes a month) that made 99 in November
    let shop = Shop::with_november(99).await;

    // When it makes one, then another with a typed txid
    let last = shop.code_at("ULTIMO", true, PlanId::Gratis, NOVEMBER);
    shop.create(last).await.expect("the hundredth is made");
    let next = shop.code_at("DEPOIS", true, PlanId::Gratis, NOVEMBER);
    let refusal = refused(shop.create(next).await);

    // Then the second is refused as the plan's limit, naming it, and left no event, no txid
    // claim and no count
    assert_eq!(
        (refusal.code(), refusal.kind()),
        ("plan-limit-reached", RefusalKind::PlanLimit)
    );
    assert!(
        refusal.to_string().contains("até 100 QR codes por mês"),
        "{refusal}"
    );
    assert_eq!(shop.events().await, 1);
    let claims = shop.count("select count(*) from unique_claims").await;
    assert_eq!(claims, 1, "only the hundredth's txid");
    assert_eq!(shop.usage("2026-11-01").await, 100);

    // And on Premium the same request is made
    let premium = shop.code_at("DEPOIS", true, PlanId::PremiumMensal, NOVEMBER);
    shop.create(premium).await.expect("made on Premium");
    assert_eq!(shop.usage("2026-11-01").await, 101);
}

#[tokio::test]
async fn a_batch_that_would_pass_the_month_makes_nothing_and_one_that_fits_makes_every_code() {
    // Given a free shop with 98 codes in November
    let shop = Shop::with_november(98).await;
    let batch = |n: usize| (0..n).map(|_| shop.code().create).collect::<Vec<_>>();

    // When a batch of three is sent, then one of two
    let by_shop = || by(&shop.id);
    let three = qrcodes::create_batch(
        &shop.service,
        batch(3),
        unsubscribed(PlanId::Gratis),
        by_shop(),
    )
    .await;
    let two = qrcodes::create_batch(
        &shop.service,
        batch(2),
        unsubscribed(PlanId::Gratis),
        by_shop(),
    )
    .await;

    // Then the three made nothing, the two were made and counted
    assert_eq!(refused_batch(three).code(), "plan-limit-reached");
    assert_eq!(two.expect("made").outcomes.len(), 2);
    assert_eq!(shop.events().await, 2);
    assert_eq!(shop.usage("2026-11-01").await, 100);
}

#[tokio::test]
async fn creations_racing_for_the_last_code_of_the_month_let_exactly_one_through() {
    // Given a free shop with 99 codes in November
    let shop = Shop::with_november(99).await;

    // When six creations run at once
    let results = join_all((0..6).map(|_| shop.create(shop.code()))).await;

    // Then one was made and five were refused as the plan's limit
    let made = results.iter().filter(|r| r.is_ok()).count();
    let limited = results
        .iter()
        .filter(|r| {
            matches!(
                r,
                Err(CommandError::Rejected(QrCodeError::PlanLimitReached(_)))
            )
        })
        .count();
    assert_eq!((made, limited), (1, 5), "{results:?}");
    assert_eq!(shop.events().await, 1);
    assert_eq!(shop.usage("2026-11-01").await, 100);
}

#[tokio::test]
async fn a_creation_repeated_with_its_idempotency_key_at_the_limit_answers_the_first_code() {
    // Given a free shop whose hundredth code of November was made with an idempotency key
    let shop = Shop::with_november(99).await;
    let code = shop.code_at("PEDIDO7", true, PlanId::Gratis, NOVEMBER);
    let keyed = |_: &_| {
        by(&shop.id).with_idempotency_key(IdempotencyKey::parse("pedido-7").expect("a key"))
    };
    let first = qrcodes::create(&shop.service, code.clone(), keyed)
        .await
        .expect("made");

    // When the same request is sent again (a retry after a lost answer)
    let again = qrcodes::create(&shop.service, code, keyed)
        .await
        .expect("the first answer, not the plan's limit");

    // Then it is the first code's answer, and nothing more was counted
    assert!(again.replayed);
    assert_eq!(again.qrcode_id, first.qrcode_id);
    assert_eq!(shop.events().await, 1);
    assert_eq!(shop.usage("2026-11-01").await, 100);
}

#[tokio::test]
async fn a_plan_read_before_the_subscription_moved_is_refused_and_leaves_nothing() {
    // Given a free shop whose plan was read with no subscription, and then its subscription
    // stream moved (a checkout started, in this process or another)
    let shop = Shop::with_november(10).await;
    let stale = shop.code_at("ANTES", true, PlanId::Gratis, NOVEMBER);
    sqlx::query(
        "insert into events (event_id, stream_type, stream_id, stream_version, event_type,
                             schema_version, payload)
         values ($1, 'subscription', $2, 1, 'CheckoutStarted', 1, '{}')",
    )
    .bind(uuid::Uuid::now_v7())
    .bind(&shop.id)
    .execute(&shop.db.pool)
    .await
    .expect("the subscription moved");

    // When a code is made with the plan as read before, and again with the stream's version
    let answer = shop.create(stale.clone()).await;
    let counted_after_refusal = shop.usage("2026-11-01").await;
    let claims = shop.count("select count(*) from unique_claims").await;
    let fresh = NewCode {
        plan: PlanAsRead {
            plan: PlanId::Gratis,
            version: 1,
        },
        ..stale
    };
    shop.create(fresh)
        .await
        .expect("made with the plan read again");

    // Then the first is refused as a changed plan, leaving no event, count or txid claim, and
    // the second is made and counted
    assert!(
        matches!(answer, Err(CommandError::PlanChanged)),
        "{answer:?}"
    );
    assert_eq!((counted_after_refusal, claims), (10, 0));
    assert_eq!(shop.events().await, 1);
    assert_eq!(shop.usage("2026-11-01").await, 11);
}

#[tokio::test]
async fn a_typed_txid_already_used_is_refused_by_the_count_statement_leaving_the_count() {
    // Given a shop whose code has txid PEDIDO1
    let shop = Shop::with_november(0).await;
    let first = shop.code_at("PEDIDO1", true, PlanId::Gratis, NOVEMBER);
    shop.create(first).await.expect("made");

    // When another code is made with the same txid in lower case
    let again = shop.code_at("pedido1", true, PlanId::Gratis, NOVEMBER);
    let refusal = refused(shop.create(again).await);

    // Then it is refused as a taken txid, and the month still counts one
    assert!(matches!(refusal, QrCodeError::TxidTaken(_)), "{refusal:?}");
    assert_eq!(shop.usage("2026-11-01").await, 1);
    assert_eq!(shop.events().await, 1);
}

#[tokio::test]
async fn the_migration_fills_the_counts_from_the_log_claims_included() {
    // Given a log with two codes of one shop (one made late on 31 October in São Paulo), a
    // visitor's code claimed by another shop, and a visitor's code nobody claimed
    let db = Shop::with_november(0).await.db;
    let (ana, bia) = (uuid::Uuid::now_v7(), uuid::Uuid::now_v7());
    let created = |stream: &str, owner: Option<uuid::Uuid>, at: &str| {
        serde_json::json!({
            "stream": stream,
            "type": "QrCodeCreated",
            "payload": {"type": "QrCodeCreated", "owner_id": owner, "created_at": at},
        })
    };
    let log = serde_json::json!([
        created("c1", Some(ana), NOVEMBER),
        created("c2", Some(ana), "2026-11-01T02:30:00Z"),
        created("c3", None, NOVEMBER),
        {"stream": "c3", "type": "QrCodeClaimed",
         "payload": {"type": "QrCodeClaimed", "owner_id": bia, "at": "2026-12-02T10:00:00Z"}},
        created("c4", None, NOVEMBER),
    ]);
    sqlx::query(
        "insert into events (event_id, stream_type, stream_id, stream_version, event_type,
                             schema_version, payload)
         select gen_random_uuid(), 'qrcode', e->>'stream',
                row_number() over (partition by e->>'stream' order by n), e->>'type', 1,
                e->'payload'
           from jsonb_array_elements($1) with ordinality as l(e, n)",
    )
    .bind(&log)
    .execute(&db.pool)
    .await
    .expect("the log");

    // When the migration runs on it
    let migration = commands::MIGRATOR
        .migrations
        .iter()
        .find(|m| m.version == 23)
        .expect("the migration");
    sqlx::raw_sql("drop table qrcode_usage")
        .execute(&db.pool)
        .await
        .unwrap();
    sqlx::raw_sql(migration.sql.clone())
        .execute(&db.pool)
        .await
        .expect("the migration runs");

    // Then each shop's months are counted, the claimed code in the month it was made
    let rows: Vec<(uuid::Uuid, String, i64)> = sqlx::query_as(
        "select account_id, month::text, codes from qrcode_usage order by account_id, month",
    )
    .fetch_all(&db.pool)
    .await
    .unwrap();
    let mut expected = vec![
        (ana, "2026-10-01".to_owned(), 1),
        (ana, "2026-11-01".to_owned(), 1),
        (bia, "2026-11-01".to_owned(), 1),
    ];
    expected.sort();
    assert_eq!(rows, expected);
}

#[tokio::test]
async fn the_month_counts_the_projector_kept_before_qrcode_usage_are_gone() {
    // Given the migrations applied to a fresh database
    let shop = Shop::with_november(0).await;

    // When the retired read model is looked up
    let table: Option<String> =
        sqlx::query_scalar("select to_regclass('qrcode_month_counts')::text")
            .fetch_one(&shop.db.pool)
            .await
            .expect("looked up");

    // Then it no longer exists: nothing reads or writes it since `qrcode_usage`
    assert_eq!(table, None);
}

/// `by(shop)` under idempotency key `key`, digesting `request`.
fn keyed(shop: &Shop, key: &str, request: &str) -> CommandMetadata {
    by(&shop.id)
        .with_idempotency_key(IdempotencyKey::parse(key).expect("a key"))
        .with_request_digest(RequestDigest::of(request.as_bytes()))
}

fn stream_ids(outcome: &BatchOutcome) -> Vec<String> {
    outcome
        .outcomes
        .iter()
        .map(|o| o.stream_id.clone())
        .collect()
}

#[tokio::test]
async fn a_batch_sent_again_with_its_key_answers_the_first_batch_and_makes_claims_and_counts_nothing()
 {
    // Given a shop that made a batch of three under a key
    let shop = Shop::with_november(0).await;
    let batch = || (0..3).map(|_| shop.code().create).collect::<Vec<_>>();
    let plan = || unsubscribed(PlanId::Gratis);
    let first = qrcodes::create_batch(&shop.service, batch(), plan(), keyed(&shop, "lote-1", "a"))
        .await
        .expect("made");
    assert!(!first.replayed);

    // When the same request comes again with the same key (a retry after a lost answer: its
    // codes drawn afresh, other ids and txids)
    let again = qrcodes::create_batch(&shop.service, batch(), plan(), keyed(&shop, "lote-1", "a"))
        .await
        .expect("answered");

    // Then it answers the first batch, marked as replayed, and nothing more was made
    assert!(again.replayed);
    assert!(again.outcomes.iter().all(|o| o.replayed));
    assert_eq!(stream_ids(&again), stream_ids(&first));
    assert_eq!(again.position, first.position);
    assert_eq!(shop.events().await, 3);
    assert_eq!(shop.usage("2026-11-01").await, 3);
    assert_eq!(shop.count("select count(*) from unique_claims").await, 3);

    // And the same key with another request is refused, leaving nothing
    let other =
        qrcodes::create_batch(&shop.service, batch(), plan(), keyed(&shop, "lote-1", "b")).await;
    assert_eq!(refused_batch(other), QrCodeError::IdempotencyKeyReused);
    assert_eq!(shop.events().await, 3);
    assert_eq!(shop.usage("2026-11-01").await, 3);
}

#[tokio::test]
async fn duplicates_of_a_keyed_batch_racing_make_one_batch_and_all_answer_it() {
    // Given a shop
    let shop = Shop::with_november(0).await;

    // When six copies of one keyed batch of three run at once, each with its own fresh ids
    let copies = (0..6).map(|_| {
        let codes = (0..3).map(|_| shop.code().create).collect::<Vec<_>>();
        qrcodes::create_batch(
            &shop.service,
            codes,
            unsubscribed(PlanId::Gratis),
            keyed(&shop, "lote-duplo", "a"),
        )
    });
    let results = join_all(copies).await;

    // Then every one answers the same three codes, one made them and five replayed them
    let outcomes: Vec<BatchOutcome> = results.into_iter().map(|r| r.expect("answered")).collect();
    let made = stream_ids(&outcomes[0]);
    assert!(outcomes.iter().all(|o| stream_ids(o) == made));
    assert_eq!(outcomes.iter().filter(|o| !o.replayed).count(), 1);
    assert_eq!(shop.events().await, 3);
    assert_eq!(shop.usage("2026-11-01").await, 3);
    assert_eq!(shop.count("select count(*) from unique_claims").await, 3);
}
