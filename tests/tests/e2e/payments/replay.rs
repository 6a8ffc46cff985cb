//! A replay of `payments`, `daily_totals` and `payment_day_totals` equals the live read models; at the scale of a busy
//! shop (issue 37) it finishes under a statement timeout, and the live projector finds its rows
//! by their primary key on a table that has no statistics.

use std::time::Duration;

use chrono::NaiveDate;
use gateway::roles::Roles;
use reqwest::StatusCode;
use serde_json::json;
use sqlx::PgPool;
use tests::TestApp;
use tests::payment_fill::{self, Fill, Filled};
use uuid::Uuid;

use super::support::{
    CODE_TXID, PIX_KEY, assert_replay_equals_live, code_with_txid, delivery, entry, post_delivery,
    read_models, register_key, spec_example, turn_on, wait_for_payments,
};
use crate::workspace::support::{Person, qrcode_body, sign_up};

#[tokio::test]
async fn a_replay_of_payments_and_daily_totals_equals_the_live_ones() {
    let app = TestApp::spawn().await;
    let db = app.db().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona da Padaria").await;
    let account = owner.account_id.clone();
    let key_id = register_key(&mut owner).await;
    code_with_txid(&mut owner, &account, CODE_TXID).await;
    let url = turn_on(&mut owner, key_id).await;
    // Bank deliveries (one carrying a refund, then the refund settled), a typed-in payment that
    // the bank later confirms, and one that is voided.
    let typed = owner
        .post(
            &Person::in_account(&account, "/payments"),
            &json!({"amount": "100,00", "endToEndId": "E87654321202009091221dfghi123456"}),
        )
        .await;
    assert_eq!(typed.status, StatusCode::CREATED, "{}", typed.text);
    let voided = owner
        .post(
            &Person::in_account(&account, "/payments"),
            &json!({"amount": "3,00"}),
        )
        .await;
    let reference = voided.json["reference"]
        .as_str()
        .expect("reference")
        .to_owned();
    let void = owner
        .post(
            &Person::in_account(&account, &format!("/payments/{reference}/void")),
            &json!({"reason": "teste"}),
        )
        .await;
    assert_eq!(void.status, StatusCode::OK, "{}", void.text);
    let mut entries: Vec<_> = (0..20).map(entry).collect();
    entries.push(spec_example("pixWebhook1"));
    entries.push(spec_example("pixWebhook2"));
    let (status, answer) = post_delivery(&app, &url, delivery(entries), None).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let mut settled = spec_example("pixWebhook1");
    settled["devolucoes"]["status"] = json!("DEVOLVIDO");
    settled["devolucoes"]["horario"]["liquidacao"] = json!("2026-09-09T21:00:00Z");
    let (status, _) = post_delivery(&app, &url, delivery(vec![settled]), None).await;
    assert_eq!(status, StatusCode::OK);
    // 20 entries, pixWebhook1, and pixWebhook2 confirming the typed one; the voided one: 23.
    wait_for_payments(&db, 23).await;
    let live = tests::eventually("the settled refund in the read model", async || {
        let models = read_models(&db).await;
        models
            .0
            .iter()
            .any(|row| row.contains("\"refunded_centavos\":1000"))
            .then_some(models)
    })
    .await;
    assert!(live.1.len() >= 2, "per code and sem QR code: {:?}", live.1);

    gateway::roles::replay(&app.settings, &["payments".to_owned()], false)
        .await
        .expect("the replay runs");
    let replayed = read_models(&db).await;
    assert_eq!(replayed, live);
    app.stop().await;
}

/// Signs an owner up, makes two codes through the API and writes `payments` payments of the
/// bench's fill into the log (over three years of São Paulo days).
async fn busy_shop(app: &TestApp, db: &PgPool, payments: u64) -> Filled {
    let mut owner = sign_up(app, "dona@mercado.test", "Dona do Mercado").await;
    let account = owner.account_id.clone();
    let mut codes = Vec::new();
    for name in ["Caixa 1", "Caixa 2"] {
        let made = owner
            .post(
                &Person::in_account(&account, "/qrcodes"),
                &qrcode_body(name),
            )
            .await;
        assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
        codes.push(Uuid::parse_str(made.json["id"].as_str().expect("id")).expect("a uuid"));
    }
    let key = commands::vault::load_key(db, &account)
        .await
        .expect("the vault answers")
        .expect("the account has a key");
    payment_fill::fill(
        db,
        &Fill {
            account_id: Uuid::parse_str(&account).expect("a uuid"),
            key,
            codes,
            pix_keys: vec![PIX_KEY.to_owned()],
            payments,
            days: 3 * 365,
            last_day: NaiveDate::from_ymd_opt(2026, 11, 26).expect("a day"),
            seed: 37,
        },
    )
    .await
    .expect("the fill writes")
}

/// Waits until the live `payments` read model shows every event of the fill (each row's
/// version is its stream's event count).
pub(super) async fn wait_for_every_event(db: &PgPool, filled: Filled) {
    tests::eventually_within(
        Duration::from_secs(300),
        "every payment event in the read model",
        async || {
            let (rows, events): (i64, i64) =
                sqlx::query_as("select count(*), coalesce(sum(version), 0)::bigint from payments")
                    .fetch_one(db)
                    .await
                    .ok()?;
            (u64::try_from(rows).ok()? == filled.payments
                && u64::try_from(events).ok()? == filled.events)
                .then_some(())
        },
    )
    .await;
}

#[tokio::test]
async fn a_replay_of_thirty_thousand_payments_finishes_under_a_two_second_statement_timeout_and_equals_live()
 {
    let app = TestApp::spawn().await;
    let db = app.db().await;
    let filled = busy_shop(&app, &db, 30_000).await;
    wait_for_every_event(&db, filled).await;
    let live = read_models(&db).await;
    assert!(
        live.1.len() > 1_000,
        "three years of days: {}",
        live.1.len()
    );

    // Each statement of the replay must end within the timeout; the log's read is the only one
    // exempt (its own transaction lifts it).
    let mut settings = app.settings.clone();
    settings.statement_timeout_ms = 2_000;
    gateway::roles::replay(&settings, &["all".to_owned()], false)
        .await
        .expect("the replay finishes");
    let replayed = read_models(&db).await;
    assert!(replayed == live, "the replay differs from live");
    let statistics: i64 =
        sqlx::query_scalar("select count(*) from pg_stats where tablename = 'payments'")
            .fetch_one(&db)
            .await
            .expect("pg_stats");
    assert!(
        statistics > 0,
        "the replayed table was analysed before it went live"
    );
    app.stop().await;
}

#[tokio::test]
async fn the_projector_finds_payments_by_their_primary_key_as_its_table_grows_with_autovacuum_off()
{
    // The projector starts on the empty table of a fresh database (autovacuum is off here, and
    // nothing else runs `analyze`), so any plan it caches is made while the table is empty.
    let app = TestApp::spawn_roles(
        Roles {
            project: false,
            ..Roles::all()
        },
        |_| {},
    )
    .await;
    let db = app.db().await;
    let projector = app
        .start_roles(Roles {
            serve: false,
            relay: false,
            project: true,
            projections: Vec::new(),
        })
        .await;
    let filled = busy_shop(&app, &db, 8_000).await;
    wait_for_every_event(&db, filled).await;
    // Its connections close, and each one reports its index reads as it ends.
    projector.stop().await.expect("the projector stops");
    tests::eventually("the projector's connections closed", async || {
        let open: i64 = sqlx::query_scalar(
            "select count(*) from pg_stat_activity
              where datname = current_database() and application_name = 'balcao-projector'",
        )
        .fetch_one(&db)
        .await
        .ok()?;
        (open == 0).then_some(())
    })
    .await;
    // Index entries read, per index of `payments`.
    let scans: Vec<(String, i64)> = sqlx::query_as(
        "select indexrelname::text, idx_tup_read from pg_stat_user_indexes
          where relname = 'payments' order by indexrelname",
    )
    .fetch_all(&db)
    .await
    .expect("index statistics");
    assert!(
        scans
            .iter()
            .any(|(index, n)| index == "payments_pkey" && *n > 0),
        "the projector's reads are counted: {scans:?}"
    );
    for (index, n) in &scans {
        // The two the issue saw probed instead of the key (the live updates read the feed
        // position's index).
        if index == "payments_account_code_idx" || index == "payments_account_paid_idx" {
            assert_eq!(*n, 0, "{index} was read: {scans:?}");
        }
    }
    app.stop().await;
}

#[tokio::test]
async fn a_replay_writes_the_payments_a_page_records_without_looking_each_one_up_and_equals_live() {
    let app = TestApp::spawn().await;
    let db = app.db().await;
    let filled = busy_shop(&app, &db, 8_000).await;
    wait_for_every_event(&db, filled).await;
    assert_replay_equals_live(&app, &db).await;
    // The replay's connections close, and each one reports its index reads as it ends; the
    // counts stay with the rebuilt table, now named `payments`.
    tests::eventually("the replay's connections closed", async || {
        let open: i64 = sqlx::query_scalar(
            "select count(*) from pg_stat_activity
              where datname = current_database() and application_name = 'balcao-replay'",
        )
        .fetch_one(&db)
        .await
        .ok()?;
        (open == 0).then_some(())
    })
    .await;
    let probes: i64 = sqlx::query_scalar(
        "select coalesce(sum(idx_scan), 0)::bigint from pg_stat_user_indexes
          where relname = 'payments'",
    )
    .fetch_one(&db)
    .await
    .expect("index statistics");
    // The fill's 9,000-odd events fit in one page of the replay: each payment is recorded in
    // the page that changes it, so none is looked up (one probe per payment before).
    assert!(
        probes < 100,
        "{probes} index scans of the rebuilt payments for {} payments",
        filled.payments
    );
    app.stop().await;
}
