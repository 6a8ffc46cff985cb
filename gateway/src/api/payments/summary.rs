//! The dashboard home's figures: received today, in 7 and in 30 days (São Paulo days, today
//! included), how many payments and the average ticket, and the latest payments.
//!
//! | call | who | answer |
//! |---|---|---|
//! | `GET /api/accounts/{accountId}/summary` | every role (operators: payments to the codes they made) | 200 `{today, periods: {today, last7Days, last30Days}, recent}` |
//!
//! Each period is `{payments, receivedCentavos, refundedCentavos, averageTicketCentavos}` from
//! `daily_totals` (payments that stand; a voided one counts nowhere); the average is the received
//! amount over the number of payments, rounded to the centavo (0 with no payment). `recent` is
//! the newest [`RECENT`] payments as `GET …/payments` shows them (payer data only for owners and
//! managers).

use axum::extract::State;
use chrono::{Days, NaiveDate};
use projections::payments::DayTotal;
use serde_json::{Value, json};

use super::records::{Period, filter, to_json};
use crate::api::access::{Workspace, projection_error};
use crate::api::json::Json;
use crate::error::ApiError;
use crate::state::AppState;

/// How many of the latest payments the home lists.
pub const RECENT: i64 = 5;

/// One period's figures over the days from `from` to `today`, both included.
fn period(days: &[DayTotal], from: NaiveDate) -> Value {
    let (mut payments, mut received, mut refunded) = (0_i64, 0_i64, 0_i64);
    for day in days.iter().filter(|d| d.day >= from) {
        payments += day.payments;
        received += day.received_centavos;
        refunded += day.refunded_centavos;
    }
    json!({
        "payments": payments,
        "receivedCentavos": received,
        "refundedCentavos": refunded,
        "averageTicketCentavos": average(received, payments),
    })
}

/// `received / payments` rounded half up, in whole centavos (integers only: money is never a
/// float here).
fn average(received: i64, payments: i64) -> i64 {
    if payments <= 0 {
        return 0;
    }
    (received + payments / 2) / payments
}

/// `GET /api/accounts/{accountId}/summary`.
///
/// # Errors
///
/// 401, 404, 403 as every account route; 503 when the read models cannot be read.
pub async fn summary(
    State(state): State<AppState>,
    workspace: Workspace,
) -> Result<Json<Value>, ApiError> {
    let today: NaiveDate =
        sqlx::query_scalar("select (now() at time zone 'America/Sao_Paulo')::date")
            .fetch_one(&state.pool)
            .await?;
    let before = |days: u64| today.checked_sub_days(Days::new(days)).unwrap_or(today);
    let mut filter = filter(&workspace, &Period::default())?;
    filter.from = Some(before(29));
    filter.to = Some(today);
    let days = projections::payments::totals(&state.pool, workspace.account_uuid(), &filter)
        .await
        .map_err(projection_error)?;
    filter.from = None;
    filter.to = None;
    let recent =
        projections::payments::list(&state.pool, workspace.account_uuid(), &filter, RECENT)
            .await
            .map_err(projection_error)?;
    Ok(Json(json!({
        "today": today.to_string(),
        "periods": {
            "today": period(&days, today),
            "last7Days": period(&days, before(6)),
            "last30Days": period(&days, before(29)),
        },
        "recent": recent.iter().map(|v| to_json(&workspace, v)).collect::<Vec<_>>(),
    })))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(date: &str, payments: i64, received: i64) -> DayTotal {
        DayTotal {
            day: date.parse().expect("date"),
            payments,
            received_centavos: received,
            refunded_centavos: 0,
        }
    }

    #[test]
    fn the_average_ticket_is_rounded_to_the_centavo_and_zero_without_payments() {
        assert_eq!(average(1000, 3), 333);
        assert_eq!(average(1001, 2), 501);
        assert_eq!(average(0, 0), 0);
    }

    #[test]
    fn a_period_adds_the_days_from_its_first_one_on() {
        let days = [
            day("2026-11-01", 1, 500),
            day("2026-11-20", 2, 1500),
            day("2026-11-26", 1, 1000),
        ];
        let week = period(&days, "2026-11-20".parse().expect("date"));
        assert_eq!(week["payments"], 3);
        assert_eq!(week["receivedCentavos"], 2500);
        assert_eq!(week["averageTicketCentavos"], 833);
    }
}
