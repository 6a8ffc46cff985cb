//! Replay rebuilds read models from PostgreSQL and swaps them in under a running projector.

use crate::support;

use std::time::Duration;

use projections::replay::{self, ReplayOptions};
use projections::{CancellationToken, event_counts, payments, qrcodes};
use sqlx::{AssertSqlSafe, PgPool};
use support::{NewEvent, TestEnv, event_count_rows, qrcode_rows, read_feed};
use uuid::Uuid;

/// Inserts `n` mixed events in one statement: a quarter events of an aggregate no
/// projection reads, a quarter `QrCodePrinted` (a QR-code event no projection reads), half `QrCodeCreated` with varied nulls, and every 997th event
/// poison (a key kind nobody knows).
async fn insert_mixed(pool: &PgPool, n: i64, salt: &str) {
    sqlx::query(
        "insert into events (event_id, stream_type, stream_id, stream_version, event_type,
                             schema_version, payload)
         select gen_random_uuid(),
                case when g % 4 = 0 then 'nota' else 'qrcode' end,
                case when g % 4 = 0 then 'nota-' || $2 || g
                     when g % 4 = 1 then md5('archived' || $2 || g)::uuid::text
                     else md5('created' || $2 || g)::uuid::text end,
                1,
                case when g % 4 = 0 then 'NotaEmitida'
                     when g % 4 = 1 then 'QrCodePrinted'
                     else 'QrCodeCreated' end,
                1,
                case when g % 4 < 2 then jsonb_build_object('n', g)
                     else jsonb_build_object(
                        'qrcode_id', md5('created' || $2 || g)::uuid,
                        'owner_id', case when g % 3 = 0 then md5('owner' || (g % 50))::uuid end,
                        'key_kind', case when g % 997 = 2 then 'fax'
                                         else (array['cpf','cnpj','email','phone','evp'])[1 + g % 5] end,
                        'pix_key', 'chave-' || g,
                        'merchant_name', 'LOJA ' || g,
                        'merchant_city', 'SAO PAULO',
                        'amount_centavos', case when g % 5 = 0 then null else g * 10 end,
                        'description', case when g % 7 = 0 then null else 'Pedido ' || g end,
                        'txid', '***',
                        'payload', '000201' || g || '6304ABCD',
                        'created_at', '2026-11-20T00:00:00Z'::timestamptz + g * interval '1 second')
                end
           from generate_series(1, $1) as g",
    )
    .bind(n)
    .bind(salt)
    .execute(pool)
    .await
    .expect("insert mixed events");
}

async fn scalar(pool: &PgPool, sql: &str) -> i64 {
    sqlx::query_scalar(AssertSqlSafe(sql.to_owned()))
        .fetch_one(pool)
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

/// Columns (with defaults, identity and owned sequences), constraints, indexes, column
/// comments and statistics targets of a table, as comparable text.
async fn shape(pool: &PgPool, table: &str) -> Vec<String> {
    let mut shape: Vec<String> = sqlx::query_scalar(
        "select 'column ' || ordinal_position || ' ' || column_name || ' ' || data_type
                || ' ' || is_nullable
                || ' ' || coalesce(column_default, '')
                || ' identity ' || is_identity || ' ' || coalesce(identity_generation, '')
                || ' sequence ' || coalesce(pg_get_serial_sequence($1, column_name), '')
                || ' comment ' || coalesce(col_description(to_regclass($1), ordinal_position), '')
           from information_schema.columns
          where table_schema = current_schema() and table_name = $1
         union all
         select 'constraint ' || conname || ' ' || pg_get_constraintdef(oid)
           from pg_constraint where conrelid = to_regclass($1)
         union all
         select 'index ' || indexdef
           from pg_indexes where schemaname = current_schema() and tablename = $1
         union all
         select 'persistence ' || relpersistence::text from pg_class where oid = to_regclass($1)
         union all
         select 'statistics ' || attname || ' ' || attstattarget
           from pg_attribute
          where attrelid = to_regclass($1) and attnum > 0 and not attisdropped
            and attstattarget >= 0",
    )
    .bind(table)
    .fetch_all(pool)
    .await
    .unwrap();
    shape.sort();
    shape
}

fn options() -> ReplayOptions {
    ReplayOptions {
        page_size: 1_000,
        ..ReplayOptions::default()
    }
}

#[tokio::test]
async fn replay_equals_live_row_by_row_after_10000_mixed_events() {
    let env = TestEnv::start().await;
    insert_mixed(&env.pool, 10_000, "a").await;
    let shutdown = CancellationToken::new();
    let relay = env.spawn_relay(env.relay_config("a"), &shutdown);
    let projector = env.spawn_projector(projections::all(), &shutdown);
    let last = env.last_position().await;
    env.wait_for_projection(qrcodes::NAME, last).await;
    env.wait_for_projection(event_counts::NAME, last).await;

    let live_qrcodes = qrcode_rows(&env.pool, "qrcodes").await;
    let live_counts = event_count_rows(&env.pool, "event_counts").await;
    let parked_live = scalar(&env.pool, "select count(*) from parked_events").await;
    // Sanity of the mix itself: 5,000 created, of which the poison ones were parked.
    let poison = scalar(
        &env.pool,
        "select count(*) from events where payload->>'key_kind' = 'fax'",
    )
    .await;
    assert!(poison > 0);
    assert_eq!(parked_live, poison);
    assert_eq!(live_qrcodes.len(), usize::try_from(5_000 - poison).unwrap());
    sqlx::query("create table qrcodes_live as table qrcodes")
        .execute(&env.pool)
        .await
        .unwrap();
    sqlx::query("create table event_counts_live as table event_counts")
        .execute(&env.pool)
        .await
        .unwrap();

    // The projector keeps running while replay rebuilds and switches.
    let reports = replay::replay(&env.pool, &projections::all(), &options())
        .await
        .expect("replay succeeds");
    assert_eq!(reports.len(), projections::all().len());
    for report in &reports {
        assert_eq!(report.events, 10_000);
        assert_eq!(report.position, last);
    }
    assert_eq!(reports[0].projection, "qrcodes");
    assert_eq!(reports[0].parked, usize::try_from(poison).unwrap());

    // Row by row, in order, and as sets both ways.
    assert_eq!(qrcode_rows(&env.pool, "qrcodes").await, live_qrcodes);
    assert_eq!(
        event_count_rows(&env.pool, "event_counts").await,
        live_counts
    );
    for (a, b) in [
        ("qrcodes", "qrcodes_live"),
        ("qrcodes_live", "qrcodes"),
        ("event_counts", "event_counts_live"),
        ("event_counts_live", "event_counts"),
    ] {
        let extra = scalar(
            &env.pool,
            &format!("select count(*) from (table {a} except table {b}) d"),
        )
        .await;
        assert_eq!(extra, 0, "{a} has rows {b} lacks");
    }
    assert_eq!(
        scalar(&env.pool, "select count(*) from parked_events").await,
        parked_live
    );
    assert_eq!(
        scalar(
            &env.pool,
            "select count(*) from pg_tables where tablename like '%\\_\\_rebuild\\_%'"
        )
        .await,
        0,
        "no rebuild tables left over"
    );

    shutdown.cancel();
    relay.await.unwrap().unwrap();
    projector.await.unwrap().unwrap();
}

#[tokio::test]
async fn a_replay_under_live_traffic_ends_with_each_event_exactly_once() {
    let env = TestEnv::start().await;
    insert_mixed(&env.pool, 3_000, "before").await;
    // The horizon is cluster-wide: a transaction open elsewhere on the server (another suite)
    // can keep committed events out of the feed for a moment. Replay must find these 3,000.
    read_feed(&env.pool, 3_000).await;
    let shutdown = CancellationToken::new();
    let relay = env.spawn_relay(env.relay_config("a"), &shutdown);
    let projector = env.spawn_projector(projections::all(), &shutdown);

    // Writers keep appending while replay runs and switches.
    let pool = env.pool.clone();
    let writer = tokio::spawn(async move {
        for round in 0..30 {
            insert_mixed(&pool, 20, &format!("during{round}")).await;
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    });
    let reports = replay::replay(&env.pool, &projections::all(), &options())
        .await
        .expect("replay succeeds");
    assert!(reports.iter().all(|r| r.events >= 3_000));
    writer.await.unwrap();
    let last = env.last_position().await;
    env.wait_for_projection(qrcodes::NAME, last).await;
    env.wait_for_projection(event_counts::NAME, last).await;

    // What the log says the read models must hold, computed independently.
    let expected_qrcodes = "select event_id from events
                             where event_type = 'QrCodeCreated' and payload->>'key_kind' <> 'fax'";
    for sql in [
        format!("select count(*) from (select event_id from qrcodes except {expected_qrcodes}) d"),
        format!("select count(*) from ({expected_qrcodes} except select event_id from qrcodes) d"),
        "select count(*) from (select stream_type, event_type, events from event_counts
                               except select stream_type, event_type, count(*) from events group by 1, 2) d"
            .to_owned(),
        "select count(*) from (select stream_type, event_type, count(*) from events group by 1, 2
                               except select stream_type, event_type, events from event_counts) d"
            .to_owned(),
    ] {
        assert_eq!(scalar(&env.pool, &sql).await, 0, "{sql}");
    }
    let rows = scalar(&env.pool, "select count(*) from qrcodes").await;
    let expected = scalar(
        &env.pool,
        &format!("select count(*) from ({expected_qrcodes}) e"),
    )
    .await;
    assert_eq!(rows, expected, "no duplicates");

    shutdown.cancel();
    relay.await.unwrap().unwrap();
    projector.await.unwrap().unwrap();
}

#[tokio::test]
async fn rebuilt_tables_have_the_shape_the_migrations_give_the_live_ones() {
    let env = TestEnv::start().await;
    let migrated_qrcodes = shape(&env.pool, "qrcodes").await;
    let migrated_counts = shape(&env.pool, "event_counts").await;
    let migrated_accounts = shape(&env.pool, "accounts").await;
    let migrated_members = shape(&env.pool, "account_members").await;
    assert!(
        migrated_qrcodes
            .iter()
            .any(|s| s.starts_with("index CREATE INDEX qrcodes_owner_id_idx"))
    );
    assert!(
        migrated_qrcodes
            .iter()
            .any(|s| s.starts_with("index CREATE INDEX qrcodes_owner_created_by_idx"))
    );
    assert!(
        migrated_qrcodes
            .iter()
            .any(|s| s.starts_with("column 15 created_by text YES"))
    );
    assert!(
        migrated_accounts
            .iter()
            .any(|s| s.starts_with("constraint accounts_pkey PRIMARY KEY (account_id)"))
    );
    assert!(migrated_qrcodes.contains(&"statistics payload 0".to_owned()));
    assert!(
        migrated_members
            .iter()
            .any(|s| s.starts_with("index CREATE INDEX account_members_member_idx"))
    );
    assert!(
        migrated_members
            .iter()
            .any(|s| s.starts_with("constraint account_members_role_check"))
    );

    // Twice: the second rebuild starts from tables the first one renamed.
    for _ in 0..2 {
        replay::replay(&env.pool, &projections::all(), &options())
            .await
            .expect("replay of an empty log succeeds");
        assert_eq!(shape(&env.pool, "qrcodes").await, migrated_qrcodes);
        assert_eq!(shape(&env.pool, "event_counts").await, migrated_counts);
        assert_eq!(shape(&env.pool, "accounts").await, migrated_accounts);
        assert_eq!(shape(&env.pool, "account_members").await, migrated_members);
    }
}

#[tokio::test]
async fn a_replayed_table_gets_whatever_a_later_migration_gave_the_live_one() {
    let env = TestEnv::start().await;
    // What a future migration might do to read models; replay has no DDL of its own to update.
    sqlx::raw_sql(AssertSqlSafe(
        "alter table qrcodes add column row_number bigint generated always as identity;
         alter table qrcodes add column channel text not null default 'web'
             constraint qrcodes_channel_check check (channel in ('web', 'api'));
         comment on column qrcodes.channel is 'where the code was made';
         alter table qrcodes add constraint qrcodes_event_id_key unique (event_id);
         create index qrcodes_city_idx on qrcodes (lower(merchant_city)) where amount_centavos > 0;
         alter table event_counts add column serial_number serial;
         create unique index event_counts_serial_number_idx on event_counts (serial_number);",
    ))
    .execute(&env.pool)
    .await
    .unwrap();
    let live: Vec<Vec<String>> = table_shapes(&env.pool).await;
    assert!(live[0].iter().any(|s| s.contains("qrcodes_row_number_seq")));
    assert!(
        live[0]
            .iter()
            .any(|s| s.starts_with("index CREATE INDEX qrcodes_city_idx"))
    );
    insert_mixed(&env.pool, 200, "a").await;
    read_feed(&env.pool, 200).await;

    // Twice: the second rebuild copies tables the first one renamed.
    for _ in 0..2 {
        replay::replay(&env.pool, &projections::all(), &options())
            .await
            .expect("replay succeeds");
        assert_eq!(table_shapes(&env.pool).await, live);
    }
    // The copies' identity and serial sequences work under the live names.
    let numbered = scalar(
        &env.pool,
        "select count(distinct row_number) from qrcodes where channel = 'web'",
    )
    .await;
    assert_eq!(
        numbered,
        scalar(&env.pool, "select count(*) from qrcodes").await
    );
    assert!(numbered > 0);
    assert_eq!(
        scalar(
            &env.pool,
            "select count(*) from pg_class where relname like '%\\_\\_rebuild\\_%'"
        )
        .await,
        0,
        "no rebuild table, index or sequence left over"
    );
}

/// The shapes of every read-model table, in a fixed order.
async fn table_shapes(pool: &PgPool) -> Vec<Vec<String>> {
    let mut shapes = Vec::new();
    for table in ["qrcodes", "event_counts", "accounts", "account_members"] {
        shapes.push(shape(pool, table).await);
    }
    shapes
}

#[tokio::test]
async fn a_duplicate_in_a_page_written_with_copy_is_parked_exactly_as_live_parks_it() {
    let env = TestEnv::start().await;
    // 600 creations in one transaction: the projector and replay both write them in batches
    // large enough for COPY; the 300th creates an id the 100th already created.
    let mut events: Vec<NewEvent> = (0..600)
        .map(|_| NewEvent::qrcode_created(Uuid::now_v7(), Some(100)))
        .collect();
    let duplicated: Uuid = events[99].stream_id.parse().unwrap();
    events[299] = NewEvent {
        stream_version: 2,
        ..NewEvent::qrcode_created(duplicated, Some(200))
    };
    let duplicate = events[299].event_id;
    env.insert(&events).await;
    let shutdown = CancellationToken::new();
    let relay = env.spawn_relay(env.relay_config("a"), &shutdown);
    let projector = env.spawn_projector(vec![std::sync::Arc::new(qrcodes::QrCodes)], &shutdown);
    let last = env.last_position().await;
    env.wait_for_projection(qrcodes::NAME, last).await;
    let live = qrcode_rows(&env.pool, "qrcodes").await;
    assert_eq!(live.len(), 599);

    let reports = replay::replay(
        &env.pool,
        &[std::sync::Arc::new(qrcodes::QrCodes)],
        &options(),
    )
    .await
    .expect("replay succeeds");

    assert_eq!(reports[0].parked, 1);
    assert_eq!(qrcode_rows(&env.pool, "qrcodes").await, live);
    let parked: Vec<Uuid> = sqlx::query_scalar("select event_id from parked_events")
        .fetch_all(&env.pool)
        .await
        .unwrap();
    assert_eq!(parked, vec![duplicate]);
    shutdown.cancel();
    relay.await.unwrap().unwrap();
    projector.await.unwrap().unwrap();
}

#[tokio::test]
async fn tables_left_by_a_crashed_replay_are_dropped_by_the_next() {
    let env = TestEnv::start().await;
    sqlx::query("create table qrcodes__rebuild_999 (x int)")
        .execute(&env.pool)
        .await
        .unwrap();
    replay::replay(
        &env.pool,
        &[std::sync::Arc::new(qrcodes::QrCodes)],
        &options(),
    )
    .await
    .unwrap();
    assert_eq!(
        scalar(
            &env.pool,
            "select count(*) from pg_tables where tablename like 'qrcodes\\_\\_rebuild\\_%'"
        )
        .await,
        0
    );
}

#[test]
fn selecting_all_or_nothing_means_every_projection_and_unknown_names_are_refused() {
    let names = |selection: Vec<String>| -> Vec<&'static str> {
        replay::select(&selection)
            .unwrap()
            .iter()
            .map(|p| p.name())
            .collect()
    };
    let every = vec![
        "qrcodes",
        "event_counts",
        "accounts",
        "payments",
        "payment_links",
        "pix_keys",
        "subscriptions",
        "signs",
        "statement_imports",
    ];
    assert_eq!(names(vec![]), every);
    assert_eq!(names(vec!["all".to_owned()]), every);
    assert_eq!(names(vec!["accounts".to_owned()]), vec!["accounts"]);
    assert_eq!(names(vec!["event_counts".to_owned()]), vec!["event_counts"]);
    assert!(matches!(
        replay::select(&["nope".to_owned()]),
        Err(projections::Error::UnknownProjection(name)) if name == "nope"
    ));
}

/// A payment's `PaymentRecorded` event as the intake writes it (nothing sealed).
fn payment_recorded(account: Uuid, n: usize) -> NewEvent {
    let reference = format!("E{n:031}");
    let recorded =
        domain::payment::PaymentEvent::PaymentRecorded(domain::payment::PaymentRecorded {
            account_id: account.to_string(),
            reference: reference.clone(),
            end_to_end_id: Some(reference.clone()),
            amount_centavos: 100 + n as u64,
            paid_at: format!("2026-11-2{}T02:{:02}:00Z", n % 3, n % 60),
            txid: None,
            qrcode_id: None,
            payment_link_id: None,
            pix_key: Some("caixa@padaria.test".to_owned()),
            source: domain::payment::PaymentSource::ApiPix,
            payer_name: None,
            payer_document: None,
            payer_info: None,
            note: None,
            recorded_by: None,
            recorded_at: "2026-11-23T12:00:00Z".to_owned(),
            statement: None,
        });
    NewEvent {
        event_id: Uuid::now_v7(),
        stream_type: "payment".to_owned(),
        stream_id: format!("{account}:{reference}"),
        stream_version: 1,
        event_type: "PaymentRecorded".to_owned(),
        schema_version: 1,
        payload: serde_json::to_value(&recorded).unwrap(),
    }
}

async fn payment_rows(pool: &PgPool, table: &str) -> Vec<String> {
    sqlx::query_scalar(AssertSqlSafe(format!(
        "select p::text from {table} p order by account_id, reference"
    )))
    .fetch_all(pool)
    .await
    .unwrap()
}

#[tokio::test]
async fn a_payment_event_rejected_halfway_through_a_copied_page_is_parked_as_live_parks_it() {
    let env = TestEnv::start().await;
    // 600 payments recorded in one transaction; the 300th event voids a payment nobody
    // recorded, which live rejects. Replay's fill has sent the rows before it into its `COPY`
    // by then, and must drop them, park that one event and write the page again without it.
    let account = Uuid::now_v7();
    let mut events: Vec<NewEvent> = (0..600).map(|n| payment_recorded(account, n)).collect();
    let voided = domain::payment::PaymentEvent::PaymentVoided(domain::payment::PaymentVoided {
        reason: "engano".to_owned(),
        voided_by: account.to_string(),
        voided_at: "2026-11-23T13:00:00Z".to_owned(),
        undone_import: None,
    });
    events[299] = NewEvent {
        stream_id: format!("{account}:manual-nunca-registrado"),
        stream_version: 2,
        event_type: "PaymentVoided".to_owned(),
        payload: serde_json::to_value(&voided).unwrap(),
        ..payment_recorded(account, 299)
    };
    let poison = events[299].event_id;
    env.insert(&events).await;
    let shutdown = CancellationToken::new();
    let relay = env.spawn_relay(env.relay_config("a"), &shutdown);
    let projector = env.spawn_projector(vec![std::sync::Arc::new(payments::Payments)], &shutdown);
    let last = env.last_position().await;
    env.wait_for_projection(payments::NAME, last).await;
    let live = payment_rows(&env.pool, "payments").await;
    assert_eq!(live.len(), 599);
    let live_parked: Vec<(Uuid, String)> =
        sqlx::query_as("select event_id, error from parked_events")
            .fetch_all(&env.pool)
            .await
            .unwrap();
    assert_eq!(live_parked.len(), 1);
    assert_eq!(live_parked[0].0, poison);
    sqlx::query("delete from parked_events")
        .execute(&env.pool)
        .await
        .unwrap();

    let reports = replay::replay(
        &env.pool,
        &[std::sync::Arc::new(payments::Payments)],
        &options(),
    )
    .await
    .expect("replay succeeds");

    assert_eq!(reports[0].parked, 1);
    assert_eq!(payment_rows(&env.pool, "payments").await, live);
    let parked: Vec<(Uuid, String)> = sqlx::query_as("select event_id, error from parked_events")
        .fetch_all(&env.pool)
        .await
        .unwrap();
    assert_eq!(parked, live_parked);
    shutdown.cancel();
    relay.await.unwrap().unwrap();
    projector.await.unwrap().unwrap();
}
