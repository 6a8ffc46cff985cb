//! The dashboard home's summary: today, 7 and 30 São Paulo days, the average ticket and the
//! latest payments, for each kind of caller.

use chrono::{DateTime, Duration, NaiveDate, Utc};
use reqwest::StatusCode;
use serde_json::json;
use tests::{TestApp, eventually};

use super::support::code_with_txid;
use crate::workspace::support::{Person, team};

/// The calendar day in São Paulo (UTC−3 all year since 2019) of an instant.
fn sao_paulo_day(at: DateTime<Utc>) -> NaiveDate {
    (at - Duration::hours(3)).date_naive()
}

/// `person` records `amount` paid `days_ago` days ago (to `code`, if any); returns when.
async fn paid(
    person: &mut Person,
    account: &str,
    code: Option<&str>,
    amount: &str,
    days_ago: i64,
) -> DateTime<Utc> {
    let when = Utc::now() - Duration::days(days_ago) - Duration::minutes(1);
    let at = when.to_rfc3339();
    let made = person
        .post(
            &Person::in_account(account, "/payments"),
            &json!({"qrcodeId": code, "amount": amount, "paidAt": at}),
        )
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    when
}

#[tokio::test]
async fn the_home_summary_adds_today_seven_and_thirty_days_and_operators_see_their_own_codes() {
    let app = TestApp::spawn().await;
    let mut people = team(&app).await;
    let account = people.owner.account_id.clone();
    let operators_code = code_with_txid(&mut people.operator, &account, "caixa1").await;
    let path = Person::in_account(&account, "/summary");

    let empty = people.owner.get(&path).await;
    assert_eq!(empty.status, StatusCode::OK, "{}", empty.text);
    assert_eq!(empty.json["periods"]["today"]["payments"], 0);
    assert_eq!(empty.json["periods"]["today"]["averageTicketCentavos"], 0);
    assert_eq!(empty.json["recent"], json!([]));

    // Today (São Paulo) has both of today's payments only when "now minus a minute" is still
    // today there (not in the first minute after midnight); the amounts below keep every period
    // distinct whatever the hour.
    let first_today = paid(&mut people.owner, &account, None, "10,00", 0).await;
    paid(
        &mut people.operator,
        &account,
        Some(&operators_code),
        "5,01",
        0,
    )
    .await;
    paid(&mut people.owner, &account, None, "100,00", 3).await;
    paid(&mut people.owner, &account, None, "1.000,00", 20).await;
    paid(&mut people.owner, &account, None, "10.000,00", 45).await;

    let summary = eventually("five payments projected", async || {
        let answer = people.owner.get(&path).await;
        (answer.json["recent"].as_array().map(Vec::len) == Some(5)).then_some(answer)
    })
    .await;
    let periods = &summary.json["periods"];
    let today_count = periods["today"]["payments"].as_i64().expect("a count");
    if sao_paulo_day(first_today) == sao_paulo_day(Utc::now()) {
        assert_eq!(today_count, 2, "{periods}");
    } else {
        assert!((0..=2).contains(&today_count), "midnight passed: {periods}");
    }
    assert_eq!(periods["last7Days"]["payments"], 3, "{periods}");
    assert_eq!(periods["last7Days"]["receivedCentavos"], 11_501);
    assert_eq!(
        periods["last7Days"]["averageTicketCentavos"], 3_834,
        "11 501 / 3, rounded"
    );
    assert_eq!(periods["last30Days"]["payments"], 4);
    assert_eq!(periods["last30Days"]["receivedCentavos"], 111_501);
    let recent = summary.json["recent"].as_array().expect("recent");
    assert_eq!(
        recent[0]["amountCentavos"]
            .as_i64()
            .map(|c| c == 1_000 || c == 501),
        Some(true)
    );
    assert_eq!(recent[4]["amountCentavos"], 1_000_000, "newest first");

    let operator = people.operator.get(&path).await;
    assert_eq!(operator.status, StatusCode::OK);
    assert_eq!(operator.json["periods"]["last30Days"]["payments"], 1);
    assert_eq!(
        operator.json["periods"]["last30Days"]["receivedCentavos"],
        501
    );
    assert_eq!(operator.json["recent"].as_array().map(Vec::len), Some(1));
    assert!(operator.json["recent"][0].get("payer").is_none());

    for (who, person) in [
        ("stranger", &mut people.stranger),
        ("removed", &mut people.removed),
    ] {
        let refused = person.get(&path).await;
        assert_eq!(refused.status, StatusCode::NOT_FOUND, "{who}");
    }
    app.stop().await;
}
