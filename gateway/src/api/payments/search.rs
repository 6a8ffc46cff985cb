//! The transactions screen's reads: a keyset page of the filtered payments, and their totals
//! with a day-by-day series. Both take the same [`Filters`].

use axum::extract::{Query, State};
use chrono::{Days, NaiveDate};
use projections::payments::search::{self, DaySummary, Search};
use serde_json::json;

use super::filters::{Filters, cursor};
use super::records::to_json;
use crate::api::access::{Workspace, projection_error};
use crate::api::json::Json;
use crate::error::ApiError;
use crate::state::AppState;

/// The longest period whose days the series lists one by one, empty ones included.
pub const MAX_SERIES_DAYS: u64 = 366;

/// `GET /api/accounts/{accountId}/payments`: one page of the filtered payments, newest first;
/// `next` is the cursor of the following page (absent on the last). On Grátis only the plan's
/// `history_days` are shown (`history`: the first day and a pt-BR note; `null` on Premium).
///
/// # Errors
///
/// As [`Filters`] says; 403 for a role that sees no transactions.
pub async fn list(
    State(state): State<AppState>,
    workspace: Workspace,
    Query(filters): Query<Filters>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let mut search = filters.search(&workspace)?;
    let shown_from = crate::billing::history_from(&state.billing, workspace.account_id()).await?;
    crate::billing::within_history(&mut search, shown_from);
    let after = filters.after()?;
    let limit = filters.limit()?;
    // One more than the page, to know whether a next page exists.
    let mut found = search::page(
        &state.pool,
        workspace.account_uuid(),
        &search,
        after.as_ref(),
        limit + 1,
    )
    .await
    .map_err(projection_error)?;
    let more = found.len() > usize::try_from(limit).unwrap_or(usize::MAX);
    found.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
    let next = more
        .then(|| {
            found
                .last()
                .map(|f| cursor(f.payment.paid_at, &f.payment.reference))
        })
        .flatten();
    let payments: Vec<serde_json::Value> = found
        .iter()
        .map(|f| {
            let mut json = to_json(&workspace, &f.payment);
            json["codeDescription"] = json!(f.code_description);
            json["linkDescription"] = json!(f.link_description);
            json
        })
        .collect();
    Ok(Json(json!({
        "payments": payments,
        "next": next,
        "history": history_json(shown_from),
    })))
}

/// What the plan shows of the history: `null` for everything, else the first day shown and a
/// pt-BR note saying the older payments are kept.
pub fn history_json(from: Option<NaiveDate>) -> serde_json::Value {
    match from {
        None => serde_json::Value::Null,
        Some(from) => json!({
            "from": from.to_string(),
            "note": history_note(from),
        }),
    }
}

/// The pt-BR note of a history cut at `from`.
pub fn history_note(from: NaiveDate) -> String {
    let days = domain::subscription::plans::PlanId::Gratis
        .plan()
        .limits
        .history_days
        .unwrap_or_default();
    format!(
        "No plano Grátis, a lista, os totais e o CSV mostram os pagamentos dos últimos {days} dias (desde {}). Os anteriores continuam guardados e voltam a aparecer com o Premium.",
        from.format("%d/%m/%Y")
    )
}

/// `GET /api/accounts/{accountId}/payments/summary`: the totals of the filtered payments and
/// their São Paulo days, oldest first. With both `de` and `ate` (at most [`MAX_SERIES_DAYS`]
/// apart) every day of the period is listed, empty ones with zeros, so a chart shows the whole
/// period; otherwise only the days with payments.
///
/// # Errors
///
/// As [`Filters`] says; 403 for a role that sees no transactions.
pub async fn summary(
    State(state): State<AppState>,
    workspace: Workspace,
    Query(filters): Query<Filters>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let mut search = filters.search(&workspace)?;
    let shown_from = crate::billing::history_from(&state.billing, workspace.account_id()).await?;
    crate::billing::within_history(&mut search, shown_from);
    let days = search::summary(&state.pool, workspace.account_uuid(), &search)
        .await
        .map_err(projection_error)?;
    let days = every_day(&search, days);
    let mut total = DaySummary {
        day: NaiveDate::MIN,
        payments: 0,
        received_centavos: 0,
        refunded_centavos: 0,
        voided: 0,
    };
    for day in &days {
        total.payments += day.payments;
        total.received_centavos += day.received_centavos;
        total.refunded_centavos += day.refunded_centavos;
        total.voided += day.voided;
    }
    Ok(Json(json!({
        "total": {
            "payments": total.payments,
            "receivedCentavos": total.received_centavos,
            "refundedCentavos": total.refunded_centavos,
            "netCentavos": total.received_centavos - total.refunded_centavos,
            "voided": total.voided,
        },
        "history": history_json(shown_from),
        "days": days.iter().map(|d| json!({
            "day": d.day.to_string(),
            "payments": d.payments,
            "receivedCentavos": d.received_centavos,
            "refundedCentavos": d.refunded_centavos,
            "voided": d.voided,
        })).collect::<Vec<_>>(),
    })))
}

/// The days with payments, and the empty days of a bounded period between them.
fn every_day(search: &Search, days: Vec<DaySummary>) -> Vec<DaySummary> {
    let (Some(from), Some(to)) = (search.from, search.to) else {
        return days;
    };
    let span = u64::try_from((to - from).num_days()).unwrap_or(u64::MAX);
    if span > MAX_SERIES_DAYS {
        return days;
    }
    let mut known = days.into_iter().peekable();
    let mut all = Vec::new();
    let mut day = from;
    while day <= to {
        match known.next_if(|d| d.day == day) {
            Some(found) => all.push(found),
            None => all.push(DaySummary {
                day,
                payments: 0,
                received_centavos: 0,
                refunded_centavos: 0,
                voided: 0,
            }),
        }
        let Some(next) = day.checked_add_days(Days::new(1)) else {
            break;
        };
        day = next;
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    fn on(day: &str, received: i64) -> DaySummary {
        DaySummary {
            day: day.parse().expect("a day"),
            payments: 1,
            received_centavos: received,
            refunded_centavos: 0,
            voided: 0,
        }
    }

    #[test]
    fn a_bounded_period_lists_every_day_with_zeros_where_nothing_was_paid() {
        let search = Search {
            from: Some("2026-11-01".parse().expect("a day")),
            to: Some("2026-11-04".parse().expect("a day")),
            ..Search::default()
        };
        let days = every_day(&search, vec![on("2026-11-02", 500), on("2026-11-04", 700)]);
        let listed: Vec<(String, i64)> = days
            .iter()
            .map(|d| (d.day.to_string(), d.received_centavos))
            .collect();
        assert_eq!(
            listed,
            vec![
                ("2026-11-01".to_owned(), 0),
                ("2026-11-02".to_owned(), 500),
                ("2026-11-03".to_owned(), 0),
                ("2026-11-04".to_owned(), 700),
            ]
        );
    }

    #[test]
    fn an_open_period_lists_only_the_days_with_payments() {
        let days = every_day(
            &Search::default(),
            vec![on("2020-01-01", 1), on("2026-01-01", 2)],
        );
        assert_eq!(days.len(), 2);
    }
}
