//! The vault on a real PostgreSQL: an account's key is stored with the command that opens the
//! account, loaded by projectors, and shredded for good with the command that deletes it.

use crate::common;

use commands::vault::{AccountKey, load_key};
use commands::{CommandError, CommandMetadata, CommandService, Effects, ExpectedVersion};
use common::ledger::{Ledger, LedgerCommand, LedgerServices};
use common::{TestDb, new_stream};

fn service(db: &TestDb) -> CommandService<Ledger> {
    CommandService::new(db.store(), LedgerServices::default())
}

fn deposit(amount_centavos: i64) -> LedgerCommand {
    LedgerCommand::Deposit { amount_centavos }
}

#[tokio::test]
async fn a_key_is_stored_with_the_events_and_opens_what_it_sealed() {
    let db = TestDb::new().await;
    let service = service(&db);
    let account = new_stream();
    let key = AccountKey::generate(&account);
    let sealed = key.seal("maria@exemplo.com.br");

    let outcome = service
        .execute_with(
            &account,
            deposit(100),
            ExpectedVersion::NoStream,
            CommandMetadata::start(),
            &Effects::new().store_key(&key),
        )
        .await
        .unwrap();

    assert_eq!(outcome.version, 1);
    let loaded = load_key(&db.pool, &account)
        .await
        .unwrap()
        .expect("the key was stored with the events");
    assert_eq!(loaded.account_id(), account);
    assert_eq!(loaded.open(&sealed).unwrap(), "maria@exemplo.com.br");
    assert_eq!(
        key.open(&loaded.seal("")).unwrap(),
        "",
        "the stored key is the same key"
    );
}

#[tokio::test]
async fn load_key_works_inside_a_transaction() {
    let db = TestDb::new().await;
    let account = new_stream();
    service(&db)
        .execute_with(
            &account,
            deposit(1),
            ExpectedVersion::NoStream,
            CommandMetadata::start(),
            &Effects::new().store_key(&AccountKey::generate(&account)),
        )
        .await
        .unwrap();

    let mut tx = db.pool.begin().await.unwrap();
    assert!(load_key(&mut *tx, &account).await.unwrap().is_some());
    assert!(load_key(&mut *tx, "sem-conta").await.unwrap().is_none());
    tx.rollback().await.unwrap();
}

#[tokio::test]
async fn shredding_the_key_makes_load_key_answer_none_and_sealed_values_unreadable() {
    let db = TestDb::new().await;
    let service = service(&db);
    let account = new_stream();
    let key = AccountKey::generate(&account);
    let sealed = key.seal("José da Silva");
    service
        .execute_with(
            &account,
            deposit(100),
            ExpectedVersion::NoStream,
            CommandMetadata::start(),
            &Effects::new().store_key(&key),
        )
        .await
        .unwrap();
    drop(key);

    service
        .execute_with(
            &account,
            LedgerCommand::Withdraw {
                amount_centavos: 100,
            },
            ExpectedVersion::Exact(1),
            CommandMetadata::start(),
            &Effects::new().shred_key(&account),
        )
        .await
        .unwrap();

    assert!(load_key(&db.pool, &account).await.unwrap().is_none());
    let row_count: i64 = sqlx::query_scalar("select count(*) from account_keys")
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert_eq!(row_count, 0, "no copy of the key is left in the database");
    // Whatever key is made for the account now, the old values stay sealed.
    let fresh = AccountKey::generate(&account);
    assert!(fresh.open(&sealed).is_err());
}

#[tokio::test]
async fn an_account_never_gets_a_second_key() {
    let db = TestDb::new().await;
    let service = service(&db).with_max_retries(1);
    let account = new_stream();
    let first = AccountKey::generate(&account);
    service
        .execute_with(
            &account,
            deposit(1),
            ExpectedVersion::Any,
            CommandMetadata::start(),
            &Effects::new().store_key(&first),
        )
        .await
        .unwrap();

    // The ledger accepts every deposit, so the command is decided again until it gives up; with
    // the Account aggregate the second decision is "already open".
    let second = service
        .execute_with(
            &account,
            deposit(1),
            ExpectedVersion::Any,
            CommandMetadata::start(),
            &Effects::new().store_key(&AccountKey::generate(&account)),
        )
        .await;

    assert!(
        matches!(second, Err(CommandError::Conflict { .. })),
        "{second:?}"
    );
    let kept = load_key(&db.pool, &account).await.unwrap().unwrap();
    assert_eq!(kept.open(&first.seal("ok")).unwrap(), "ok");
}

#[tokio::test]
async fn a_stored_key_of_the_wrong_length_is_reported_not_used() {
    let db = TestDb::new().await;
    sqlx::query("insert into account_keys (account_id, key) values ('conta', '\\x0102')")
        .execute(&db.pool)
        .await
        .unwrap();

    let loaded = load_key(&db.pool, "conta").await;

    assert!(matches!(
        loaded,
        Err(commands::vault::VaultError::InvalidKey { len: 2, .. })
    ));
}
