//! The history a plan shows (`history_days`): on Grátis the transactions screen's list, its
//! totals and its CSV hold the last 90 São Paulo days, say so in pt-BR, and keep the older
//! payments, which appear again with Premium.

use chrono::{Duration, Utc};
use reqwest::StatusCode;
use serde_json::{Value, json};

use super::support::{go_premium, sandbox_app};
use crate::workspace::support::{Person, sign_up};

/// Records a payment by hand, paid `days_ago`; answers its reference.
async fn paid_days_ago(owner: &mut Person, amount: &str, days_ago: i64) -> String {
    let at =
        (Utc::now() - Duration::days(days_ago)).to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let made = owner
        .post(
            &Person::in_account(&owner.account_id, "/payments"),
            &json!({"amount": amount, "paidAt": at}),
        )
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    made.json["reference"]
        .as_str()
        .expect("reference")
        .to_owned()
}

fn references(answer: &Value) -> Vec<String> {
    answer["payments"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|p| p["reference"].as_str().expect("reference").to_owned())
        .collect()
}

/// The first São Paulo day Grátis shows today.
fn ninety_days_ago() -> String {
    ((Utc::now() - Duration::hours(3)).date_naive() - chrono::Days::new(90)).to_string()
}

#[tokio::test]
async fn on_gratis_the_transactions_show_the_last_ninety_days_and_say_the_older_ones_are_kept() {
    let app = sandbox_app().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let old = paid_days_ago(&mut owner, "321,00", 120).await;
    let recent = paid_days_ago(&mut owner, "12,50", 2).await;
    let list_path = Person::in_account(&owner.account_id, "/payments");
    let summary_path = Person::in_account(&owner.account_id, "/payments/summary");
    tests::eventually("both payments in the read model", async || {
        let n: i64 = sqlx::query_scalar("select count(*) from payments")
            .fetch_one(&app.db().await)
            .await
            .expect("count");
        (n == 2).then_some(())
    })
    .await;

    let list = owner.get(&list_path).await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.text);
    assert_eq!(references(&list.json), vec![recent.clone()]);
    assert_eq!(list.json["history"]["from"], json!(ninety_days_ago()));
    let note = list.json["history"]["note"].as_str().expect("a note");
    assert!(note.contains("últimos 90 dias"), "{note}");
    assert!(note.contains("continuam guardados"), "{note}");
    assert!(note.contains("Premium"), "{note}");
    // Asking for older days does not reach past the window.
    let asked = owner.get(&format!("{list_path}?de=2020-01-01")).await;
    assert_eq!(references(&asked.json), vec![recent.clone()]);
    let summary = owner.get(&summary_path).await;
    assert_eq!(summary.json["total"]["payments"], 1, "{}", summary.text);
    assert_eq!(summary.json["total"]["receivedCentavos"], 1_250);
    assert_eq!(summary.json["history"]["from"], json!(ninety_days_ago()));

    // Kept: with Premium the older payment is there again, and nothing is cut.
    go_premium(&mut owner).await;
    let all = owner.get(&list_path).await;
    assert_eq!(references(&all.json), vec![recent, old]);
    assert_eq!(all.json["history"], Value::Null);
    let summary = owner.get(&summary_path).await;
    assert_eq!(summary.json["total"]["payments"], 2);
    app.stop().await;
}

#[tokio::test]
async fn on_gratis_the_csv_holds_the_last_ninety_days_and_names_its_first_day() {
    let app = sandbox_app().await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    paid_days_ago(&mut owner, "321,00", 120).await;
    paid_days_ago(&mut owner, "12,50", 2).await;
    tests::eventually("both payments in the read model", async || {
        let n: i64 = sqlx::query_scalar("select count(*) from payments")
            .fetch_one(&app.db().await)
            .await
            .expect("count");
        (n == 2).then_some(())
    })
    .await;
    let csv_path = Person::in_account(&owner.account_id, "/payments/csv");

    let csv = owner.get(&csv_path).await;
    assert_eq!(csv.status, StatusCode::OK);
    assert_eq!(
        csv.headers["x-balcao-historico-desde"].to_str().ok(),
        Some(ninety_days_ago().as_str())
    );
    assert!(csv.text.contains("12,50"), "{}", csv.text);
    assert!(!csv.text.contains("321,00"), "{}", csv.text);

    go_premium(&mut owner).await;
    let csv = owner.get(&csv_path).await;
    assert_eq!(
        csv.headers["x-balcao-historico-desde"].to_str().ok(),
        Some("tudo")
    );
    assert!(
        csv.text.contains("12,50") && csv.text.contains("321,00"),
        "{}",
        csv.text
    );
    app.stop().await;
}
