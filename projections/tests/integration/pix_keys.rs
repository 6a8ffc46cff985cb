//! The `pix_keys` read model: key-ring commands run through the real workflow
//! (`commands::pix_keys`: sealed with the account's vault key, fingerprinted), relayed through
//! NATS and projected, then read back; replay rebuilds the same rows; deleting the account
//! removes them, live and on replay.

use crate::support;

use std::sync::Arc;

use commands::pix_keys::{PixKeys, Registration};
use commands::vault::AccountKey;
use commands::{
    CommandError, CommandMetadata, CommandOutcome, CommandService, Effects, ExpectedVersion,
    PgEventStore,
};
use domain::account::{Account, AccountCommand, DeleteAccount, OpenAccount};
use domain::key_ring::{HolderName, KeyInput, KeyLabel, KeyRingError};
use projections::pix_keys::{self, PixKeyView};
use projections::replay::{self, ReplayOptions};
use projections::{CancellationToken, Projection, accounts};
use support::TestEnv;
use tokio::task::JoinHandle;
use uuid::Uuid;

const AT: &str = "2026-11-25T10:00:00Z";

struct Harness {
    env: TestEnv,
    accounts: CommandService<Account>,
    keys: PixKeys,
    shutdown: CancellationToken,
    tasks: Vec<JoinHandle<Result<(), projections::Error>>>,
}

impl Harness {
    async fn start() -> Harness {
        let env = TestEnv::start().await;
        let accounts = CommandService::new(PgEventStore::new(env.pool.clone()), ());
        let keys = PixKeys::new(PgEventStore::new(env.pool.clone()));
        let shutdown = CancellationToken::new();
        let tasks = vec![
            env.spawn_relay(env.relay_config("a"), &shutdown),
            env.spawn_projector(
                vec![Arc::new(accounts::Accounts), Arc::new(pix_keys::PixKeys)],
                &shutdown,
            ),
        ];
        Harness {
            env,
            accounts,
            keys,
            shutdown,
            tasks,
        }
    }

    async fn settle(&self, outcome: &CommandOutcome) {
        if let Some(position) = outcome.position {
            self.env.wait_for_projection(pix_keys::NAME, position).await;
        }
    }

    /// Opens an account the way sign-up does (its vault key stored with the events).
    async fn open(&self) -> Uuid {
        let id = Uuid::now_v7();
        let key = AccountKey::generate(id.to_string());
        let command = AccountCommand::OpenAccount(OpenAccount {
            account_id: id.to_string(),
            email: key.seal("ana@exemplo.com.br"),
            display_name: key.seal("Ana"),
            password_hash: "$argon2id$v=19$teste".to_owned(),
            at: AT.to_owned(),
        });
        self.accounts
            .execute_with(
                &id.to_string(),
                command,
                ExpectedVersion::NoStream,
                CommandMetadata::start(),
                &Effects::new().store_key(&key),
            )
            .await
            .expect("opened");
        id
    }

    async fn try_register(
        &self,
        account: Uuid,
        typed: &str,
        kind: Option<&str>,
        make_default: bool,
    ) -> Result<Uuid, CommandError<KeyRingError>> {
        let key_id = Uuid::now_v7();
        let input = KeyInput {
            pix_key: typed.to_owned(),
            key_kind: kind.map(str::to_owned),
            holder_name: "Ana Souza".to_owned(),
            label: Some(format!(
                "Chave {}",
                typed.chars().take(30).collect::<String>()
            )),
        }
        .parse()
        .map_err(CommandError::Rejected)?;
        let outcome = self
            .keys
            .register(
                Registration {
                    account_id: account.to_string(),
                    key_id: key_id.to_string(),
                    input,
                    make_default,
                    plan: domain::subscription::plans::PlanId::PremiumMensal,
                    by: account.to_string(),
                    at: AT.to_owned(),
                },
                CommandMetadata::start(),
            )
            .await?;
        self.settle(&outcome).await;
        Ok(key_id)
    }

    async fn register(&self, account: Uuid, typed: &str, make_default: bool) -> Uuid {
        self.try_register(account, typed, None, make_default)
            .await
            .expect("registered")
    }

    async fn rows(&self) -> Vec<String> {
        sqlx::query_scalar("select t::text from pix_keys t order by t::text")
            .fetch_all(&self.env.pool)
            .await
            .unwrap()
    }

    async fn stop(self) {
        self.shutdown.cancel();
        for task in self.tasks {
            task.await.expect("task").expect("stops cleanly");
        }
    }
}

fn replay_options() -> ReplayOptions {
    ReplayOptions {
        page_size: 100,
        ..ReplayOptions::default()
    }
}

fn projection() -> Vec<Arc<dyn Projection>> {
    vec![Arc::new(pix_keys::PixKeys)]
}

#[tokio::test]
async fn registered_keys_show_opened_in_dict_form_with_one_default() {
    let h = Harness::start().await;
    let ana = h.open().await;
    let cpf = h.register(ana, "529.982.247-25", false).await;
    let cnpj = h.register(ana, "12.ABC.345/01DE-35", false).await;
    let phone = h.register(ana, "(11) 91234-5678", true).await;

    let keys = pix_keys::list_active(&h.env.pool, ana).await.unwrap();
    let shown: Vec<(Uuid, &str, Option<&str>, bool)> = keys
        .iter()
        .map(|k| {
            (
                k.key_id,
                k.key_kind.as_str(),
                k.pix_key.as_deref(),
                k.is_default,
            )
        })
        .collect();
    assert_eq!(
        shown,
        vec![
            (phone, "phone", Some("+5511912345678"), true),
            (cpf, "cpf", Some("52998224725"), false),
            (cnpj, "cnpj", Some("12ABC34501DE35"), false),
        ]
    );
    assert_eq!(keys[0].holder_name.as_deref(), Some("Ana Souza"));
    assert_eq!(keys[0].label.as_deref(), Some("Chave (11) 91234-5678"));
    assert_eq!(keys[0].created_by, Some(ana));
    let found = pix_keys::find_active_by_key(&h.env.pool, ana, "52998224725")
        .await
        .unwrap()
        .expect("payments find a key by its DICT form");
    assert_eq!(found.key_id, cpf);

    // The log holds none of it in the clear.
    let payloads: Vec<String> =
        sqlx::query_scalar("select payload::text from events where stream_type = 'pix_keys'")
            .fetch_all(&h.env.pool)
            .await
            .unwrap();
    for payload in &payloads {
        for plain in [
            "52998224725",
            "12ABC34501DE35",
            "5511912345678",
            "Ana Souza",
        ] {
            assert!(!payload.contains(plain), "{plain} in {payload}");
        }
    }
    h.stop().await;
}

#[tokio::test]
async fn the_same_key_twice_is_refused_however_it_is_typed() {
    let h = Harness::start().await;
    let ana = h.open().await;
    let bruno = h.open().await;
    h.register(ana, "Loja@Example.com", false).await;
    let again = h.try_register(ana, " loja@example.COM ", None, false).await;
    assert!(
        matches!(
            again,
            Err(CommandError::Rejected(KeyRingError::AlreadyRegistered))
        ),
        "{again:?}"
    );
    // Another account may register the same key (a shop and its accountant, say).
    h.register(bruno, "loja@example.com", false).await;
    assert_eq!(
        pix_keys::list_active(&h.env.pool, ana).await.unwrap().len(),
        1
    );
    h.stop().await;
}

#[tokio::test]
async fn rename_default_and_remove_fold_into_the_rows_and_a_removed_key_keeps_its_row() {
    let h = Harness::start().await;
    let ana = h.open().await;
    let first = h.register(ana, "529.982.247-25", false).await;
    let second = h
        .register(ana, "123e4567-e89b-12d3-a456-426614174000", false)
        .await;
    let who = ana.to_string();

    let renamed = h
        .keys
        .rename(
            &who,
            &second.to_string(),
            &HolderName::parse("Padaria Sol Ltda").unwrap(),
            KeyLabel::parse("Caixa 2").unwrap().as_ref(),
            &who,
            "2026-11-25T11:00:00Z",
            CommandMetadata::start(),
        )
        .await
        .unwrap();
    h.settle(&renamed).await;
    let chosen = h
        .keys
        .choose_default(
            &who,
            &second.to_string(),
            &who,
            AT,
            CommandMetadata::start(),
        )
        .await
        .unwrap();
    h.settle(&chosen).await;
    let view = |id| {
        let pool = h.env.pool.clone();
        async move { pix_keys::find(&pool, ana, id).await.unwrap().unwrap() }
    };
    let second_view: PixKeyView = view(second).await;
    assert_eq!(second_view.holder_name.as_deref(), Some("Padaria Sol Ltda"));
    assert_eq!(second_view.label.as_deref(), Some("Caixa 2"));
    assert!(second_view.is_default);
    assert!(!view(first).await.is_default);

    let removed = h
        .keys
        .remove(
            &who,
            &second.to_string(),
            &who,
            "2026-11-25T12:00:00Z",
            CommandMetadata::start(),
        )
        .await
        .unwrap();
    h.settle(&removed).await;
    let gone = view(second).await;
    assert!(gone.removed_at.is_some(), "the row stays, marked removed");
    assert!(!gone.is_default);
    assert_eq!(
        gone.pix_key.as_deref(),
        Some("123e4567-e89b-12d3-a456-426614174000")
    );
    assert!(
        view(first).await.is_default,
        "the default moved to the remaining key"
    );
    let active = pix_keys::list_active(&h.env.pool, ana).await.unwrap();
    assert_eq!(
        active.iter().map(|k| k.key_id).collect::<Vec<_>>(),
        vec![first]
    );
    // Another account cannot see it.
    let other = h.open().await;
    assert!(
        pix_keys::find(&h.env.pool, other, first)
            .await
            .unwrap()
            .is_none()
    );
    h.stop().await;
}

#[tokio::test]
async fn replay_rebuilds_exactly_the_live_pix_keys() {
    let h = Harness::start().await;
    let ana = h.open().await;
    let bruno = h.open().await;
    let who = ana.to_string();
    let first = h.register(ana, "529.982.247-25", false).await;
    h.register(ana, "(21) 99876-5432", true).await;
    let third = h.register(ana, "ana@exemplo.com.br", false).await;
    h.register(bruno, "00.038.166/0001-05", false).await;
    h.settle(
        &h.keys
            .rename(
                &who,
                &third.to_string(),
                &HolderName::parse("Ana S.").unwrap(),
                None,
                &who,
                AT,
                CommandMetadata::start(),
            )
            .await
            .unwrap(),
    )
    .await;
    h.settle(
        &h.keys
            .remove(&who, &first.to_string(), &who, AT, CommandMetadata::start())
            .await
            .unwrap(),
    )
    .await;
    let live = h.rows().await;
    assert_eq!(live.len(), 4);

    replay::replay(&h.env.pool, &projection(), &replay_options())
        .await
        .expect("replay succeeds");
    assert_eq!(h.rows().await, live);
    h.stop().await;
}

#[tokio::test]
async fn deleting_the_account_removes_its_keys_live_and_on_replay() {
    let h = Harness::start().await;
    let ana = h.open().await;
    let bruno = h.open().await;
    h.register(ana, "529.982.247-25", false).await;
    h.register(bruno, "(11) 91234-5678", false).await;
    let deleted = h
        .accounts
        .execute_with(
            &ana.to_string(),
            AccountCommand::DeleteAccount(DeleteAccount { at: AT.to_owned() }),
            ExpectedVersion::Any,
            CommandMetadata::start(),
            &Effects::new().shred_key(ana.to_string()),
        )
        .await
        .unwrap();
    h.settle(&deleted).await;
    assert!(
        pix_keys::list_active(&h.env.pool, ana)
            .await
            .unwrap()
            .is_empty()
    );
    let live = h.rows().await;
    assert_eq!(live.len(), 1, "only Bruno's key is left");

    replay::replay(&h.env.pool, &projection(), &replay_options())
        .await
        .expect("replay succeeds");
    assert_eq!(h.rows().await, live);
    // Nothing more can be done to the deleted account's ring: its vault key is gone.
    let refused = h.try_register(ana, "ana@exemplo.com.br", None, false).await;
    assert!(
        matches!(
            refused,
            Err(CommandError::Rejected(KeyRingError::AccountNotFound))
        ),
        "{refused:?}"
    );
    h.stop().await;
}
