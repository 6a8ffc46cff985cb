//! Housekeeping deletes what has done its job and nothing that still matters.

use reqwest::StatusCode;
use sqlx::PgPool;
use tests::TestApp;
use tests::browser::Browser;

async fn count(pool: &PgPool, sql: &str) -> i64 {
    sqlx::query_scalar(sqlx::AssertSqlSafe(sql.to_owned()))
        .fetch_one(pool)
        .await
        .expect("count")
}

#[tokio::test]
async fn a_pass_deletes_old_keys_spent_links_expired_tokens_and_old_import_runs_and_keeps_the_rest()
{
    let app = TestApp::spawn().await;
    let pool = PgPool::connect(&app.settings.database_url)
        .await
        .expect("database");
    let mut browser = Browser::new(&app);
    let signed_up = browser.sign_up("rui@exemplo.com", "segredo1", "Rui").await;
    assert_eq!(signed_up.status, StatusCode::OK, "{}", signed_up.text);
    let session: uuid::Uuid = sqlx::query_scalar("select id from auth_sessions limit 1")
        .fetch_one(&pool)
        .await
        .expect("the session");

    sqlx::raw_sql(sqlx::AssertSqlSafe(
        "insert into command_idempotency (idempotency_key, stream_type, stream_id, result, recorded_at)
         values ('velha', 'qrcode', 'a', '{}', now() - interval '8 days'),
                ('recente', 'qrcode', 'b', '{}', now() - interval '6 days');
         insert into action_codes (code_hash, account_id, purpose, expires_at, used_at)
         values ('\\x01', 'x', 'reset_password', now() - interval '2 days', null),
                ('\\x02', 'x', 'reset_password', now() + interval '1 hour', now() - interval '2 days'),
                ('\\x03', 'x', 'reset_password', now() - interval '1 hour', null),
                ('\\x04', 'x', 'reset_password', now() + interval '1 hour', null);
         insert into statement_import_runs (account_id, import_id, file_name, total, updated_at)
         values ('0190f1a2-0000-7000-8000-00000000000a', '0190f1a2-0000-7000-8000-0000000000a1',
                 'antigo.ofx', 3000, now() - interval '2 days'),
                ('0190f1a2-0000-7000-8000-00000000000a', '0190f1a2-0000-7000-8000-0000000000a2',
                 'recente.ofx', 3000, now() - interval '1 hour');"
            .to_owned(),
    ))
    .execute(&pool)
    .await
    .expect("old rows");
    sqlx::query(
        "insert into refresh_tokens (token_hash, session_id, expires_at, rotated_at)
         values ('\\x10', $1, now() - interval '2 days', now() - interval '40 days'),
                ('\\x11', $1, now() + interval '20 days', now() - interval '1 day')",
    )
    .bind(session)
    .execute(&pool)
    .await
    .expect("old tokens");

    let pruned = gateway::housekeeping::prune_once(&pool)
        .await
        .expect("pass");

    assert_eq!(pruned.idempotency_keys, 1);
    assert_eq!(pruned.action_codes, 2, "expired or used over a day ago");
    assert_eq!(pruned.refresh_tokens, 1);
    assert_eq!(pruned.statement_import_runs, 1);
    assert_eq!(
        count(
            &pool,
            "select count(*) from statement_import_runs where file_name = 'recente.ofx'"
        )
        .await,
        1,
        "a run changed an hour ago stays"
    );
    assert_eq!(
        count(
            &pool,
            "select count(*) from command_idempotency where idempotency_key = 'recente'"
        )
        .await,
        1
    );
    assert_eq!(
        count(
            &pool,
            "select count(*) from action_codes where code_hash in ('\\x03', '\\x04')"
        )
        .await,
        2,
        "a link that expired an hour ago and a live one stay"
    );
    assert_eq!(
        count(
            &pool,
            "select count(*) from refresh_tokens where token_hash = '\\x11'"
        )
        .await,
        1,
        "a rotated token that has not expired stays, so its reuse is still caught"
    );
    // The person's own live token is untouched.
    assert_eq!(browser.refresh().await.status, StatusCode::OK);

    let again = gateway::housekeeping::prune_once(&pool)
        .await
        .expect("pass");
    assert_eq!(
        again,
        gateway::housekeeping::Pruned::default(),
        "a second pass finds nothing"
    );
    pool.close().await;
    app.stop().await;
}
