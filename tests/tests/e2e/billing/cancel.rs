//! Cancelling deletes the pending renewal charge at Asaas (`DELETE /v3/payments/{id}`), so the
//! owner is never charged after cancelling: against the local fake Asaas, including a renewal
//! already paid (the cancellation then applies at the end of the period it paid for, and says so)
//! and Asaas not answering (the cancellation is recorded, and the sweep deletes the charge later).

use std::time::Duration;

use chrono::Utc;
use gateway::billing::Billing;
use gateway::billing::renewals::sweep_once;
use gateway::config::BillingSettings;
use reqwest::StatusCode;
use serde_json::{Value, json};
use tests::TestApp;

use super::asaas::{AGENT, KEY, TOKEN, asaas_app, deliver, envelope};
use super::fake_asaas::{FakeAsaas, Fault, payment_id};
use super::support::{subscription, upgrade};
use crate::workspace::support::{Person, sign_up};

/// The billing the sweep runs with, talking to the fake as the app does.
fn sweep_billing(fake: &FakeAsaas, pool: &sqlx::PgPool) -> Billing {
    let settings = BillingSettings {
        asaas_api_key: Some(KEY.to_owned()),
        asaas_base_url: fake.base_url.clone(),
        asaas_user_agent: AGENT.to_owned(),
        asaas_timeout_ms: 500,
        asaas_attempts: 3,
        ..BillingSettings::default()
    };
    Billing::new(&settings, false, pool).expect("billing")
}

/// An owner on Premium mensal paid through Asaas, with the renewal charge (the fake's second
/// payment) opened by the sweep in the period's last week and still open.
async fn premium_with_an_open_renewal(app: &TestApp, billing: &Billing) -> Person {
    let mut owner = sign_up(app, "dona@padaria.test", "Dona").await;
    let charge = upgrade(&mut owner, "premium-mensal").await;
    let reference = format!("{}:{charge}", owner.account_id);
    let (status, _) = deliver(
        app,
        Some(TOKEN),
        &envelope("evt_pago", "PAYMENT_RECEIVED", &reference, &payment_id(0)),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    // The sweep reads the subscriptions read model, a moment behind the webhook's write.
    tests::eventually("Premium active in the read model", async || {
        let active: i64 =
            sqlx::query_scalar("select count(*) from subscriptions where status = 'active'")
                .fetch_one(&app.db().await)
                .await
                .expect("count");
        (active == 1).then_some(())
    })
    .await;
    let swept = sweep_once(
        &app.db().await,
        billing,
        Utc::now() + chrono::Duration::days(25),
    )
    .await
    .expect("pass");
    assert_eq!(swept.renewals, 1);
    tests::eventually("the renewal charge in the read model", async || {
        let now = owner.get(&subscription(&owner, "")).await;
        (now.json["charges"][0]["renewal"] == true && now.json["charges"][0]["status"] == "open")
            .then_some(())
    })
    .await;
    owner
}

fn deletions(fake: &FakeAsaas, id: &str) -> usize {
    let path = format!("/v3/payments/{id}");
    fake.seen()
        .iter()
        .filter(|seen| seen.method == "DELETE" && seen.uri == path)
        .count()
}

async fn renewal_status(owner: &mut Person) -> Value {
    let path = subscription(owner, "");
    owner.get(&path).await.json["charges"][0]["status"].clone()
}

#[tokio::test]
async fn cancelling_deletes_the_open_renewal_charge_at_asaas_so_the_owner_is_never_charged_after() {
    let fake = FakeAsaas::start().await;
    let app = asaas_app(&fake).await;
    let billing = sweep_billing(&fake, &app.db().await);
    let mut owner = premium_with_an_open_renewal(&app, &billing).await;
    let renewal = payment_id(1);

    let cancelled = owner
        .post(&subscription(&owner, "/cancel"), &json!({}))
        .await;
    assert_eq!(cancelled.status, StatusCode::OK, "{}", cancelled.text);
    assert_eq!(cancelled.json["status"], "cancelling");
    assert!(cancelled.json.get("notice").is_none(), "{}", cancelled.text);
    assert_eq!(deletions(&fake, &renewal), 1);
    assert!(
        fake.deleted(&renewal),
        "nobody can pay it at Asaas any more"
    );
    let seen = fake.seen();
    let delete = seen
        .iter()
        .find(|s| s.method == "DELETE")
        .expect("the DELETE");
    assert_eq!(delete.access_token.as_deref(), Some(KEY));
    assert_eq!(delete.user_agent.as_deref(), Some(AGENT));
    tests::eventually("the renewal charge deleted in the read model", async || {
        (renewal_status(&mut owner).await == "deleted").then_some(())
    })
    .await;
    // Nothing left for the sweep to delete.
    let swept = sweep_once(&app.db().await, &billing, Utc::now())
        .await
        .expect("pass");
    assert_eq!(swept.withdrawn, 0);
    assert_eq!(deletions(&fake, &renewal), 1);
    app.stop().await;
}

#[tokio::test]
async fn a_renewal_paid_before_the_cancellation_reached_asaas_is_honoured_and_the_answer_says_premium_runs_to_its_end()
 {
    let fake = FakeAsaas::start().await;
    let app = asaas_app(&fake).await;
    let billing = sweep_billing(&fake, &app.db().await);
    let mut owner = premium_with_an_open_renewal(&app, &billing).await;
    let renewal = payment_id(1);
    let before = owner.get(&subscription(&owner, "")).await.json["activeUntil"]
        .as_str()
        .expect("until")
        .to_owned();
    // The payer paid at Asaas a moment ago; its webhook has not arrived yet.
    fake.mark_received(&renewal);

    let cancelled = owner
        .post(&subscription(&owner, "/cancel"), &json!({}))
        .await;
    assert_eq!(cancelled.status, StatusCode::OK, "{}", cancelled.text);
    assert_eq!(cancelled.json["status"], "cancelling");
    let notice = cancelled.json["notice"].as_str().expect("a notice");
    assert!(notice.contains("já tinha sido paga"), "{notice}");
    assert!(notice.contains("termina nessa data"), "{notice}");
    let after = cancelled.json["activeUntil"].as_str().expect("until");
    assert!(after > before.as_str(), "{before} → {after}");
    assert!(!fake.deleted(&renewal));
    tests::eventually("the renewal charge paid in the read model", async || {
        (renewal_status(&mut owner).await == "paid").then_some(())
    })
    .await;
    // Asaas's PAYMENT_RECEIVED arriving now records nothing more.
    let charge = owner.get(&subscription(&owner, "")).await.json["charges"][0]["id"]
        .as_str()
        .expect("id")
        .to_owned();
    let reference = format!("{}:{charge}", owner.account_id);
    let (status, answer) = deliver(
        &app,
        Some(TOKEN),
        &envelope("evt_renovado", "PAYMENT_RECEIVED", &reference, &renewal),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let now = owner.get(&subscription(&owner, "")).await;
    assert_eq!(now.json["activeUntil"].as_str(), Some(after));
    assert_eq!(now.json["status"], "cancelling");
    app.stop().await;
}

#[tokio::test]
async fn asaas_not_answering_the_deletion_keeps_the_cancellation_and_the_sweep_deletes_the_charge_later()
 {
    let fake = FakeAsaas::start().await;
    let app = asaas_app(&fake).await;
    let billing = sweep_billing(&fake, &app.db().await);
    let mut owner = premium_with_an_open_renewal(&app, &billing).await;
    let renewal = payment_id(1);
    // Every try of the DELETE times out (the app tries three times, 500 ms each).
    fake.fail_next(&[Fault::Slow(Duration::from_secs(2)); 3]);

    let cancelled = owner
        .post(&subscription(&owner, "/cancel"), &json!({}))
        .await;
    assert_eq!(cancelled.status, StatusCode::OK, "{}", cancelled.text);
    assert_eq!(cancelled.json["status"], "cancelling");
    assert_eq!(deletions(&fake, &renewal), 3);
    assert!(!fake.deleted(&renewal));
    // Recorded as called off: payable nowhere in Balcão, and waiting for its deletion.
    tests::eventually(
        "the renewal charge called off in the read model",
        async || (renewal_status(&mut owner).await == "cancelled").then_some(()),
    )
    .await;

    let swept = sweep_once(&app.db().await, &billing, Utc::now())
        .await
        .expect("pass");
    assert_eq!(swept.withdrawn, 1);
    assert_eq!(swept.renewals, 0, "a cancelled subscription is not renewed");
    assert!(fake.deleted(&renewal));
    tests::eventually("the renewal charge deleted in the read model", async || {
        (renewal_status(&mut owner).await == "deleted").then_some(())
    })
    .await;
    let again = sweep_once(&app.db().await, &billing, Utc::now())
        .await
        .expect("pass");
    assert_eq!(again.withdrawn, 0);
    assert_eq!(deletions(&fake, &renewal), 4);
    app.stop().await;
}
