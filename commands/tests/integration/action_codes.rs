//! Action codes on a real PostgreSQL: issued with only their digest stored, single use (also
//! under concurrency), bound to their purpose, and dead once expired.

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use commands::action_codes::{
    PendingCode, Purpose, consume, forget_account, issue, peek, prune_expired,
};
use common::TestDb;
use serde_json::json;
use sha2::{Digest, Sha256};
use tokio::sync::Barrier;

const HOUR: Duration = Duration::from_secs(3_600);

#[tokio::test]
async fn an_issued_code_is_43_base64url_characters_and_only_its_sha256_is_stored() {
    let db = TestDb::new().await;

    let issued = issue(
        &db.pool,
        "conta-1",
        Purpose::VerifyEmail,
        json!({"email": "v1.selado"}),
        HOUR,
    )
    .await
    .unwrap();

    assert_eq!(issued.code.len(), 43);
    assert!(
        issued
            .code
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    );
    let rows: Vec<(Vec<u8>, String, String, serde_json::Value)> =
        sqlx::query_as("select code_hash, account_id, purpose, payload from action_codes")
            .fetch_all(&db.pool)
            .await
            .unwrap();
    assert_eq!(
        rows,
        vec![(
            Sha256::digest(issued.code.as_bytes()).to_vec(),
            "conta-1".to_owned(),
            "verify_email".to_owned(),
            json!({"email": "v1.selado"})
        )]
    );
    let two = issue(&db.pool, "conta-1", Purpose::VerifyEmail, json!({}), HOUR)
        .await
        .unwrap();
    assert_ne!(two.code, issued.code);
}

#[tokio::test]
async fn peek_reads_a_valid_code_without_using_it() {
    let db = TestDb::new().await;
    let issued = issue(
        &db.pool,
        "conta-1",
        Purpose::Invitation,
        json!({"invitation_id": "convite-7"}),
        HOUR,
    )
    .await
    .unwrap();

    let expected = PendingCode {
        account_id: "conta-1".to_owned(),
        payload: json!({"invitation_id": "convite-7"}),
        expires_at: issued.expires_at,
    };
    for _ in 0..2 {
        assert_eq!(
            peek(&db.pool, &issued.code, Purpose::Invitation)
                .await
                .unwrap(),
            Some(expected.clone())
        );
    }
    assert_eq!(
        consume(&db.pool, &issued.code, Purpose::Invitation)
            .await
            .unwrap(),
        Some(expected)
    );
}

#[tokio::test]
async fn a_code_is_used_once_then_no_longer_valid() {
    let db = TestDb::new().await;
    let issued = issue(&db.pool, "conta-1", Purpose::ResetPassword, json!({}), HOUR)
        .await
        .unwrap();

    let first = consume(&db.pool, &issued.code, Purpose::ResetPassword)
        .await
        .unwrap();
    let second = consume(&db.pool, &issued.code, Purpose::ResetPassword)
        .await
        .unwrap();

    assert_eq!(
        first.map(|code| code.account_id).as_deref(),
        Some("conta-1")
    );
    assert_eq!(second, None);
    assert_eq!(
        peek(&db.pool, &issued.code, Purpose::ResetPassword)
            .await
            .unwrap(),
        None
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn of_concurrent_consumers_of_one_code_exactly_one_wins() {
    let db = TestDb::new().await;
    let issued = issue(&db.pool, "conta-1", Purpose::ChangeEmail, json!({}), HOUR)
        .await
        .unwrap();
    let gate = Arc::new(Barrier::new(20));

    let mut tasks = Vec::new();
    for _ in 0..20 {
        let (pool, code, gate) = (db.pool.clone(), issued.code.clone(), Arc::clone(&gate));
        tasks.push(tokio::spawn(async move {
            gate.wait().await;
            consume(&pool, &code, Purpose::ChangeEmail).await.unwrap()
        }));
    }
    let mut winners = 0;
    for task in tasks {
        if task.await.unwrap().is_some() {
            winners += 1;
        }
    }

    assert_eq!(winners, 1);
}

#[tokio::test]
async fn a_code_is_valid_only_for_its_own_purpose() {
    let db = TestDb::new().await;
    let issued = issue(&db.pool, "conta-1", Purpose::VerifyEmail, json!({}), HOUR)
        .await
        .unwrap();

    for other in [
        Purpose::ResetPassword,
        Purpose::ChangeEmail,
        Purpose::Invitation,
    ] {
        assert_eq!(peek(&db.pool, &issued.code, other).await.unwrap(), None);
        assert_eq!(consume(&db.pool, &issued.code, other).await.unwrap(), None);
    }
    // Trying it for the wrong purpose did not spend it.
    assert!(
        consume(&db.pool, &issued.code, Purpose::VerifyEmail)
            .await
            .unwrap()
            .is_some()
    );
}

#[tokio::test]
async fn an_unknown_code_is_not_valid() {
    let db = TestDb::new().await;
    assert_eq!(
        peek(&db.pool, "nao-existe", Purpose::VerifyEmail)
            .await
            .unwrap(),
        None
    );
    assert_eq!(
        consume(&db.pool, "", Purpose::VerifyEmail).await.unwrap(),
        None
    );
}

#[tokio::test]
async fn a_code_past_its_ttl_is_no_longer_valid() {
    let db = TestDb::new().await;
    let short = issue(
        &db.pool,
        "conta-1",
        Purpose::VerifyEmail,
        json!({}),
        Duration::from_millis(1),
    )
    .await
    .unwrap();
    let long = issue(&db.pool, "conta-1", Purpose::VerifyEmail, json!({}), HOUR)
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(20)).await;
    // And one whose expiry was moved into the past by hand.
    sqlx::query("update action_codes set expires_at = now() - interval '1 second' where code_hash = sha256($1::bytea)")
        .bind(long.code.as_bytes())
        .execute(&db.pool)
        .await
        .unwrap();

    for code in [&short.code, &long.code] {
        assert_eq!(
            peek(&db.pool, code, Purpose::VerifyEmail).await.unwrap(),
            None
        );
        assert_eq!(
            consume(&db.pool, code, Purpose::VerifyEmail).await.unwrap(),
            None
        );
    }
}

#[tokio::test]
async fn forgetting_an_account_deletes_its_codes_only() {
    let db = TestDb::new().await;
    let mine = issue(&db.pool, "conta-1", Purpose::VerifyEmail, json!({}), HOUR)
        .await
        .unwrap();
    issue(&db.pool, "conta-1", Purpose::ResetPassword, json!({}), HOUR)
        .await
        .unwrap();
    let theirs = issue(&db.pool, "conta-2", Purpose::VerifyEmail, json!({}), HOUR)
        .await
        .unwrap();

    assert_eq!(forget_account(&db.pool, "conta-1").await.unwrap(), 2);

    assert_eq!(
        peek(&db.pool, &mine.code, Purpose::VerifyEmail)
            .await
            .unwrap(),
        None
    );
    assert!(
        peek(&db.pool, &theirs.code, Purpose::VerifyEmail)
            .await
            .unwrap()
            .is_some()
    );
}

#[tokio::test]
async fn pruning_deletes_codes_expired_or_used_long_enough_ago_and_keeps_the_rest() {
    let db = TestDb::new().await;
    let old_expired = issue(&db.pool, "conta-1", Purpose::VerifyEmail, json!({}), HOUR)
        .await
        .unwrap();
    let old_used = issue(&db.pool, "conta-1", Purpose::VerifyEmail, json!({}), HOUR)
        .await
        .unwrap();
    let recently_expired = issue(&db.pool, "conta-1", Purpose::VerifyEmail, json!({}), HOUR)
        .await
        .unwrap();
    let valid = issue(&db.pool, "conta-1", Purpose::VerifyEmail, json!({}), HOUR)
        .await
        .unwrap();
    let set = |sql: &'static str, code: String| {
        let pool = db.pool.clone();
        async move {
            sqlx::query(sql)
                .bind(code.into_bytes())
                .execute(&pool)
                .await
                .unwrap();
        }
    };
    set(
        "update action_codes set expires_at = now() - interval '2 days' where code_hash = sha256($1)",
        old_expired.code,
    )
    .await;
    set(
        "update action_codes set used_at = now() - interval '2 days' where code_hash = sha256($1)",
        old_used.code,
    )
    .await;
    set(
        "update action_codes set expires_at = now() - interval '1 hour' where code_hash = sha256($1)",
        recently_expired.code,
    )
    .await;

    let pruned = prune_expired(&db.pool, Duration::from_secs(24 * 3_600))
        .await
        .unwrap();

    assert_eq!(pruned, 2);
    let left: i64 = sqlx::query_scalar("select count(*) from action_codes")
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert_eq!(left, 2);
    assert!(
        peek(&db.pool, &valid.code, Purpose::VerifyEmail)
            .await
            .unwrap()
            .is_some()
    );
}
