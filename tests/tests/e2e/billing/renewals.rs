//! The renewal and expiry sweep (`gateway::billing::renewals`), run at chosen instants: a
//! renewal charge in the period's last week, paid to extend the period; a period not renewed
//! ends and the account is on Grátis again with its data kept.

use chrono::{Duration, Utc};
use gateway::billing::Billing;
use gateway::billing::renewals::sweep_once;
use gateway::config::BillingSettings;
use reqwest::StatusCode;
use serde_json::json;

use super::support::{go_premium, sandbox_app, subscription};
use crate::workspace::support::{Person, qrcode_body, sign_up};

#[tokio::test]
async fn the_sweep_charges_the_renewal_in_the_last_week_and_ends_a_period_not_renewed() {
    let app = sandbox_app().await;
    let pool = app.db().await;
    let billing = Billing::new(&BillingSettings::default(), true, &pool).expect("billing");
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let codes = Person::in_account(&owner.account_id, "/qrcodes");
    let made = owner.post(&codes, &qrcode_body("Padaria")).await;
    assert_eq!(made.status, StatusCode::CREATED);
    go_premium(&mut owner).await;

    // Three weeks before the end: nothing to do yet.
    let early = sweep_once(&pool, &billing, Utc::now() + Duration::days(5))
        .await
        .expect("pass");
    assert_eq!((early.renewals, early.expired), (0, 0));
    // In the last week: one renewal charge, once.
    let week = Utc::now() + Duration::days(25);
    assert_eq!(
        sweep_once(&pool, &billing, week)
            .await
            .expect("pass")
            .renewals,
        1
    );
    tests::eventually("the renewal charge in the read model", async || {
        let now = owner.get(&subscription(&owner, "")).await;
        (now.json["charges"].as_array().map(Vec::len) == Some(2)).then_some(())
    })
    .await;
    assert_eq!(
        sweep_once(&pool, &billing, week)
            .await
            .expect("pass")
            .renewals,
        0
    );
    let now = owner.get(&subscription(&owner, "")).await;
    let renewal = &now.json["charges"][0];
    assert_eq!(renewal["renewal"], true);
    assert_eq!(renewal["status"], "open");
    let until_before = now.json["activeUntil"].as_str().expect("until").to_owned();

    // Paid before the end: the period runs a month from its old end.
    let id = renewal["id"].as_str().expect("id");
    let paid = owner
        .post(
            &subscription(&owner, &format!("/charges/{id}/simulate")),
            &json!({}),
        )
        .await;
    assert_eq!(paid.status, StatusCode::OK, "{}", paid.text);
    let renewed = owner.get(&subscription(&owner, "")).await;
    let until_after = renewed.json["activeUntil"]
        .as_str()
        .expect("until")
        .to_owned();
    assert!(until_after > until_before, "{until_before} → {until_after}");

    // Two months and more later, with no renewal paid: back to Grátis, data kept.
    let later = Utc::now() + Duration::days(70);
    assert_eq!(
        sweep_once(&pool, &billing, later)
            .await
            .expect("pass")
            .expired,
        1
    );
    tests::eventually("Grátis again", async || {
        let now = owner.get(&subscription(&owner, "")).await;
        (now.json["plan"]["id"] == "gratis").then_some(now.json)
    })
    .await;
    let list = owner.get(&codes).await;
    assert_eq!(list.status, StatusCode::OK);
    assert!(
        list.text.contains("Padaria") || list.json.to_string().contains("PADARIA"),
        "the code made is kept"
    );
    app.stop().await;
}
