//! The `subscriptions` and `subscription_charges` read models: the subscription aggregate's
//! commands run through the real command service, relayed through NATS and projected; the rows
//! say what each account's plan and charges are; a replay rebuilds exactly the live rows.

use crate::support;

use std::sync::Arc;

use commands::{CommandMetadata, CommandOutcome, CommandService, PgEventStore};
use domain::subscription::plans::PlanId;
use domain::subscription::{
    CancelSubscription, ChargeChange, ConfirmChargePayment, ExpireSubscription, IssueRenewalCharge,
    NewCharge, RecordChargeChange, Subscription, SubscriptionCommand, UpgradePlan,
};
use projections::replay::{self, ReplayOptions};
use projections::{CancellationToken, Projection, subscriptions};
use support::TestEnv;
use tokio::task::JoinHandle;
use uuid::Uuid;

struct Harness {
    env: TestEnv,
    service: CommandService<Subscription>,
    shutdown: CancellationToken,
    tasks: Vec<JoinHandle<Result<(), projections::Error>>>,
    last: Option<CommandOutcome>,
}

fn charge(n: u32, plan: PlanId) -> NewCharge {
    NewCharge {
        charge_id: Uuid::now_v7().to_string(),
        provider: "sandbox".to_owned(),
        provider_payment_id: format!("sbx_{n}"),
        amount_centavos: plan.plan().price.get(),
        pix_payload: "00020101021226…".to_owned(),
        expires_at: "2026-12-01T10:30:00Z".to_owned(),
        customer: None,
    }
}

impl Harness {
    async fn start() -> Harness {
        let env = TestEnv::start().await;
        let service = CommandService::new(PgEventStore::new(env.pool.clone()), ());
        let shutdown = CancellationToken::new();
        let tasks = vec![
            env.spawn_relay(env.relay_config("a"), &shutdown),
            env.spawn_projector(projection(), &shutdown),
        ];
        Harness {
            env,
            service,
            shutdown,
            tasks,
            last: None,
        }
    }

    async fn run(&mut self, account: Uuid, command: SubscriptionCommand) {
        let outcome = self
            .service
            .execute(&account.to_string(), command, CommandMetadata::start())
            .await
            .expect("accepted");
        if outcome.position.is_some() {
            self.last = Some(outcome);
        }
    }

    async fn settle(&self) {
        if let Some(position) = self.last.as_ref().and_then(|o| o.position) {
            self.env
                .wait_for_projection(subscriptions::NAME, position)
                .await;
        }
    }

    async fn rows(&self) -> Vec<String> {
        let mut rows: Vec<String> =
            sqlx::query_scalar("select t::text from subscriptions t order by 1")
                .fetch_all(&self.env.pool)
                .await
                .expect("rows");
        rows.extend(
            sqlx::query_scalar::<_, String>(
                "select t::text from subscription_charges t order by 1",
            )
            .fetch_all(&self.env.pool)
            .await
            .expect("charges"),
        );
        rows
    }

    async fn stop(self) {
        self.shutdown.cancel();
        for task in self.tasks {
            task.await.expect("task").expect("stops cleanly");
        }
    }
}

fn projection() -> Vec<Arc<dyn Projection>> {
    vec![Arc::new(subscriptions::Subscriptions)]
}

fn upgrade(account: Uuid, n: u32, plan: PlanId, at: &str) -> SubscriptionCommand {
    SubscriptionCommand::UpgradePlan(UpgradePlan {
        account_id: account.to_string(),
        plan,
        charge: charge(n, plan),
        by: account.to_string(),
        at: at.to_owned(),
    })
}

fn paid(n: u32, cents: u64, at: &str) -> SubscriptionCommand {
    SubscriptionCommand::ConfirmChargePayment(ConfirmChargePayment {
        provider_payment_id: format!("sbx_{n}"),
        amount_centavos: cents,
        paid_at: at.to_owned(),
    })
}

#[tokio::test]
async fn each_account_reads_its_plan_period_and_charges_and_a_replay_rebuilds_the_same_rows() {
    let mut h = Harness::start().await;
    let (ana, bruno, carla) = (Uuid::now_v7(), Uuid::now_v7(), Uuid::now_v7());
    // Ana: monthly, renewed before the end, then cancelled.
    h.run(
        ana,
        upgrade(ana, 1, PlanId::PremiumMensal, "2026-11-01T10:00:00Z"),
    )
    .await;
    h.run(ana, paid(1, 1_990, "2026-11-01T10:01:00Z")).await;
    h.run(ana, paid(1, 1_990, "2026-11-01T10:02:00Z")).await;
    h.run(
        ana,
        SubscriptionCommand::IssueRenewalCharge(IssueRenewalCharge {
            charge: charge(2, PlanId::PremiumMensal),
            at: "2026-11-28T10:00:00Z".to_owned(),
        }),
    )
    .await;
    h.run(ana, paid(2, 1_990, "2026-11-29T10:00:00Z")).await;
    h.run(
        ana,
        SubscriptionCommand::CancelSubscription(CancelSubscription {
            by: ana.to_string(),
            at: "2026-12-05T10:00:00Z".to_owned(),
        }),
    )
    .await;
    // Bruno: yearly, paid, then refunded.
    h.run(
        bruno,
        upgrade(bruno, 3, PlanId::PremiumAnual, "2026-11-02T10:00:00Z"),
    )
    .await;
    h.run(bruno, paid(3, 19_900, "2026-11-02T10:05:00Z")).await;
    h.run(
        bruno,
        SubscriptionCommand::RecordChargeChange(RecordChargeChange {
            provider_payment_id: "sbx_3".to_owned(),
            change: ChargeChange::Refunded,
            at: "2026-11-03T10:00:00Z".to_owned(),
        }),
    )
    .await;
    // Carla: a checkout never paid, then its Pix overdue; a month of Premium that expired.
    h.run(
        carla,
        upgrade(carla, 4, PlanId::PremiumMensal, "2026-10-01T10:00:00Z"),
    )
    .await;
    h.run(carla, paid(4, 1_990, "2026-10-01T11:00:00Z")).await;
    h.run(
        carla,
        SubscriptionCommand::ExpireSubscription(ExpireSubscription {
            at: "2026-11-01T11:00:00Z".to_owned(),
        }),
    )
    .await;
    h.run(
        carla,
        upgrade(carla, 5, PlanId::PremiumMensal, "2026-11-10T10:00:00Z"),
    )
    .await;
    h.run(
        carla,
        SubscriptionCommand::RecordChargeChange(RecordChargeChange {
            provider_payment_id: "sbx_5".to_owned(),
            change: ChargeChange::Overdue,
            at: "2026-11-11T10:00:00Z".to_owned(),
        }),
    )
    .await;
    h.settle().await;

    let plan_of = async |account: Uuid| {
        let view = subscriptions::find(&h.env.pool, account)
            .await
            .expect("read")
            .expect("a row");
        (
            view.plan,
            view.status,
            view.active_until.map(|t| t.to_rfc3339()),
        )
    };
    assert_eq!(
        plan_of(ana).await,
        (
            "premium-mensal".to_owned(),
            "cancelling".to_owned(),
            Some("2027-01-01T10:01:00+00:00".to_owned())
        )
    );
    assert_eq!(plan_of(bruno).await.1, "expired");
    assert_eq!(plan_of(carla).await.1, "checkout");
    let charges = subscriptions::charges_of(&h.env.pool, carla, 10)
        .await
        .expect("charges");
    let statuses: Vec<&str> = charges.iter().map(|c| c.status.as_str()).collect();
    assert_eq!(statuses, ["overdue", "paid"]);

    let live = h.rows().await;
    assert_eq!(live.len(), 3 + 5);
    replay::replay(
        &h.env.pool,
        &projection(),
        &ReplayOptions {
            page_size: 4,
            ..ReplayOptions::default()
        },
    )
    .await
    .expect("replay succeeds");
    assert_eq!(h.rows().await, live);
    h.stop().await;
}
