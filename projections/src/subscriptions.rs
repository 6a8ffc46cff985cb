//! Read models `subscriptions` (one row per account that ever started a checkout) and
//! `subscription_charges` (one row per Pix charge), from the subscription aggregate's events
//! (stream type `subscription`, schema version 1). Tables: `migrations/0012_subscriptions.sql`
//! and `0017_subscription_charges_feed_position.sql`. The gateway reads them with [`find`],
//! [`charges_of`], [`charge`], [`due`], [`charges_to_delete`] and, for the checkout's live
//! status, [`charges_after`]: every change to a charge moves its row's feed position.
//!
//! Events are applied one by one in feed order (a handful per account a month); every update
//! finds its row by the primary key, which replay keeps.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use commands::Upcasters;
use commands::feed::{FeedPosition, StoredEvent};
use serde::Deserialize;
use sqlx::{PgConnection, PgExecutor};
use uuid::Uuid;

use crate::error::Error;
use crate::payment_links::read;
use crate::projection::{ApplyError, Projection, TableSet};
use crate::sql::{position_from, tx_text};

/// The projection's name (durable consumer, checkpoint key).
pub const NAME: &str = "subscriptions";
/// The accounts' subscriptions.
pub const TABLE: &str = "subscriptions";
/// Their charges.
pub const CHARGES: &str = "subscription_charges";
/// Stream type of the subscription aggregate.
pub const STREAM_TYPE: &str = "subscription";

/// An account's subscription as the gateway shows it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct SubscriptionView {
    /// The account.
    pub account_id: Uuid,
    /// `premium-mensal` or `premium-anual`.
    pub plan: String,
    /// `checkout`, `active`, `cancelling` or `expired`.
    pub status: String,
    /// The end of the period paid for.
    pub active_until: Option<DateTime<Utc>>,
    /// When it last changed.
    pub updated_at: DateTime<Utc>,
    tx_id: i64,
    global_position: i64,
}

impl SubscriptionView {
    /// Feed position of the last event applied.
    pub fn position(&self) -> FeedPosition {
        position_from(self.tx_id, self.global_position)
    }
}

/// One charge.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ChargeView {
    /// Our id.
    pub charge_id: Uuid,
    /// The account.
    pub account_id: Uuid,
    /// The plan it pays for.
    pub plan: String,
    /// Whether it renews a period.
    pub renewal: bool,
    /// Its amount.
    pub amount_centavos: i64,
    /// `sandbox` or `asaas`.
    pub provider: String,
    /// The provider's id.
    pub provider_payment_id: String,
    /// The Pix copy-and-paste code.
    pub pix_payload: String,
    /// When the Pix stops being payable.
    pub expires_at: DateTime<Utc>,
    /// `open`, `overdue`, `paid`, `deleted`, `refunded` or `cancelled`.
    pub status: String,
    /// When it was made.
    pub created_at: DateTime<Utc>,
    /// When it was paid.
    pub paid_at: Option<DateTime<Utc>>,
    /// The period it paid for.
    pub period_from: Option<DateTime<Utc>>,
    /// Its end.
    pub period_until: Option<DateTime<Utc>>,
    tx_id: i64,
    global_position: i64,
}

impl ChargeView {
    /// Feed position of the newest event the row shows (every change to a charge moves it).
    pub fn position(&self) -> FeedPosition {
        position_from(self.tx_id, self.global_position)
    }
}

/// A charge as it stands after a change: what the checkout's live stream tells
/// (`gateway::live`). Nothing about the payer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChargeChange {
    /// Our id.
    pub charge_id: Uuid,
    /// The account.
    pub account_id: Uuid,
    /// `open`, `overdue`, `paid`, `deleted`, `refunded` or `cancelled`.
    pub status: String,
    /// Feed position of the newest event the row shows.
    pub position: FeedPosition,
}

#[derive(sqlx::FromRow)]
struct ChangeRow {
    charge_id: Uuid,
    account_id: Uuid,
    status: String,
    tx_id: i64,
    global_position: i64,
}

/// The charges whose newest event lies after `after` (all of them, or only `charge_id`), in feed
/// order, at most `limit`: what the projection applied after that position, each as it stands.
/// One query per move of the projection serves every checkout of a process.
pub async fn charges_after<'e>(
    executor: impl PgExecutor<'e>,
    after: FeedPosition,
    charge_id: Option<Uuid>,
    limit: i64,
) -> Result<Vec<ChargeChange>, Error> {
    let rows: Vec<ChangeRow> = sqlx::query_as(
        "select charge_id, account_id, status, tx_id::text::bigint as tx_id, global_position
           from subscription_charges
          where (tx_id, global_position) > ($1::text::xid8, $2)
            and ($3::uuid is null or charge_id = $3)
          order by tx_id, global_position
          limit $4",
    )
    .bind(tx_text(after))
    .bind(after.global_position)
    .bind(charge_id)
    .bind(limit)
    .fetch_all(executor)
    .await?;
    Ok(rows
        .into_iter()
        .map(|row| ChargeChange {
            charge_id: row.charge_id,
            account_id: row.account_id,
            status: row.status,
            position: position_from(row.tx_id, row.global_position),
        })
        .collect())
}

/// Charges called off by a cancellation (`cancelled`) whose deletion at the provider is not yet
/// recorded (it turns them `deleted`): the sweep deletes them, oldest first, at most `limit`.
pub async fn charges_to_delete<'e>(
    executor: impl PgExecutor<'e>,
    limit: i64,
) -> Result<Vec<ChargeView>, Error> {
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{SELECT_CHARGE} where status = 'cancelled' order by created_at limit $1"
    )))
    .bind(limit)
    .fetch_all(executor)
    .await?)
}

const SELECT: &str = "select account_id, plan, status, active_until, updated_at,
                             tx_id::text::bigint as tx_id, global_position
                        from subscriptions";
const SELECT_CHARGE: &str = "select charge_id, account_id, plan, renewal, amount_centavos,
                                    provider, provider_payment_id, pix_payload, expires_at, status,
                                    created_at, paid_at, period_from, period_until,
                                    tx_id::text::bigint as tx_id, global_position
                               from subscription_charges";

/// The account's subscription, if it ever started a checkout.
pub async fn find<'e>(
    executor: impl PgExecutor<'e>,
    account_id: Uuid,
) -> Result<Option<SubscriptionView>, Error> {
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{SELECT} where account_id = $1"
    )))
    .bind(account_id)
    .fetch_optional(executor)
    .await?)
}

/// The newest `limit` charges of an account, newest first.
pub async fn charges_of<'e>(
    executor: impl PgExecutor<'e>,
    account_id: Uuid,
    limit: i64,
) -> Result<Vec<ChargeView>, Error> {
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{SELECT_CHARGE} where account_id = $1 order by created_at desc, charge_id desc limit $2"
    )))
    .bind(account_id)
    .bind(limit)
    .fetch_all(executor)
    .await?)
}

/// One charge by our id.
pub async fn charge<'e>(
    executor: impl PgExecutor<'e>,
    charge_id: Uuid,
) -> Result<Option<ChargeView>, Error> {
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{SELECT_CHARGE} where charge_id = $1"
    )))
    .bind(charge_id)
    .fetch_optional(executor)
    .await?)
}

/// Accounts whose Premium period ends before `before` (renewal and expiry sweeps), oldest end
/// first, at most `limit`.
pub async fn due<'e>(
    executor: impl PgExecutor<'e>,
    before: DateTime<Utc>,
    limit: i64,
) -> Result<Vec<SubscriptionView>, Error> {
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{SELECT} where status in ('active', 'cancelling') and active_until < $1
          order by active_until limit $2"
    )))
    .bind(before)
    .bind(limit)
    .fetch_all(executor)
    .await?)
}

#[derive(Debug, Deserialize)]
struct ChargeV1 {
    charge_id: Uuid,
    provider: String,
    provider_payment_id: String,
    amount_centavos: i64,
    pix_payload: String,
    expires_at: DateTime<Utc>,
}

/// `CheckoutStarted` and `RenewalChargeIssued`, version 1.
#[derive(Debug, Deserialize)]
struct ChargeMadeV1 {
    account_id: Uuid,
    plan: String,
    charge: ChargeV1,
    at: DateTime<Utc>,
}

/// `ChargePaid`, version 1.
#[derive(Debug, Deserialize)]
struct PaidV1 {
    charge_id: Uuid,
    paid_at: DateTime<Utc>,
}

/// `PremiumActivated` and `PremiumRenewed`, version 1.
#[derive(Debug, Deserialize)]
struct PeriodV1 {
    account_id: Uuid,
    plan: String,
    charge_id: Uuid,
    from: DateTime<Utc>,
    until: DateTime<Utc>,
}

/// `ChargeChanged` and `ChargeCancelled`, version 1.
#[derive(Debug, Deserialize)]
struct ChargeNewsV1 {
    charge_id: Uuid,
    /// `overdue`, `deleted` or `refunded`; absent in `ChargeCancelled`.
    #[serde(default)]
    change: Option<String>,
}

/// `CancellationScheduled` and `SubscriptionExpired`, version 1.
#[derive(Debug, Deserialize)]
struct StateV1 {
    account_id: Uuid,
    at: DateTime<Utc>,
}

/// The `subscriptions` projection.
#[derive(Debug, Clone, Copy, Default)]
pub struct Subscriptions;

impl Subscriptions {
    async fn set_status(
        conn: &mut PgConnection,
        t: &str,
        event: &StoredEvent,
        account_id: Uuid,
        status: &str,
        at: DateTime<Utc>,
    ) -> Result<(), ApplyError> {
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "update {t} set status = $2, updated_at = $3, tx_id = $4::text::xid8,
                            global_position = $5
              where account_id = $1"
        )))
        .bind(account_id)
        .bind(status)
        .bind(at)
        .bind(tx_text(event.position))
        .bind(event.position.global_position)
        .execute(&mut *conn)
        .await?;
        Ok(())
    }
}

#[async_trait]
impl Projection for Subscriptions {
    fn name(&self) -> &'static str {
        NAME
    }

    fn streams(&self) -> Option<&'static [&'static str]> {
        Some(&[STREAM_TYPE])
    }

    fn tables(&self) -> &'static [&'static str] {
        &[TABLE, CHARGES]
    }

    /// Its plain indexes serve the gateway's lists and sweeps, never `apply`.
    fn indexes_built_after_replay(&self) -> bool {
        true
    }

    async fn apply_batch(
        &self,
        conn: &mut PgConnection,
        target: &TableSet,
        upcasters: &Upcasters,
        events: &[StoredEvent],
    ) -> Result<(), ApplyError> {
        let t = target.table(TABLE);
        let c = target.table(CHARGES);
        for event in events {
            if event.stream_type != STREAM_TYPE {
                continue;
            }
            let (tx, gp) = (tx_text(event.position), event.position.global_position);
            match event.event_type.as_str() {
                "CheckoutStarted" | "RenewalChargeIssued" => {
                    let made: ChargeMadeV1 = read(upcasters, event)?;
                    let renewal = event.event_type == "RenewalChargeIssued";
                    sqlx::query(sqlx::AssertSqlSafe(format!(
                        "insert into {c} (charge_id, account_id, plan, renewal, amount_centavos,
                                          provider, provider_payment_id, pix_payload, expires_at,
                                          status, created_at, tx_id, global_position)
                         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'open', $10,
                                 $11::text::xid8, $12)"
                    )))
                    .bind(made.charge.charge_id)
                    .bind(made.account_id)
                    .bind(&made.plan)
                    .bind(renewal)
                    .bind(made.charge.amount_centavos)
                    .bind(made.charge.provider)
                    .bind(made.charge.provider_payment_id)
                    .bind(made.charge.pix_payload)
                    .bind(made.charge.expires_at)
                    .bind(made.at)
                    .bind(&tx)
                    .bind(gp)
                    .execute(&mut *conn)
                    .await?;
                    if !renewal {
                        // A checkout on an account that never had Premium, or whose Premium
                        // ended; an active period is never overwritten by one (the aggregate
                        // refuses a checkout while Premium is on).
                        sqlx::query(sqlx::AssertSqlSafe(format!(
                            "insert into {t} (account_id, plan, status, updated_at, tx_id,
                                              global_position)
                             values ($1, $2, 'checkout', $3, $4::text::xid8, $5)
                             on conflict (account_id) do update
                                set plan = excluded.plan, status = 'checkout',
                                    updated_at = excluded.updated_at, tx_id = excluded.tx_id,
                                    global_position = excluded.global_position
                              where {t}.status in ('checkout', 'expired')"
                        )))
                        .bind(made.account_id)
                        .bind(&made.plan)
                        .bind(made.at)
                        .bind(&tx)
                        .bind(gp)
                        .execute(&mut *conn)
                        .await?;
                    }
                }
                "ChargePaid" => {
                    let paid: PaidV1 = read(upcasters, event)?;
                    sqlx::query(sqlx::AssertSqlSafe(format!(
                        "update {c} set status = 'paid', paid_at = $2, tx_id = $3::text::xid8,
                                        global_position = $4
                          where charge_id = $1"
                    )))
                    .bind(paid.charge_id)
                    .bind(paid.paid_at)
                    .bind(&tx)
                    .bind(gp)
                    .execute(&mut *conn)
                    .await?;
                }
                "PremiumActivated" | "PremiumRenewed" => {
                    let period: PeriodV1 = read(upcasters, event)?;
                    sqlx::query(sqlx::AssertSqlSafe(format!(
                        "update {c} set period_from = $2, period_until = $3, tx_id = $4::text::xid8,
                                        global_position = $5
                          where charge_id = $1"
                    )))
                    .bind(period.charge_id)
                    .bind(period.from)
                    .bind(period.until)
                    .bind(&tx)
                    .bind(gp)
                    .execute(&mut *conn)
                    .await?;
                    // A renewal keeps a scheduled cancellation ('cancelling'); an activation
                    // starts afresh.
                    let status = if event.event_type == "PremiumActivated" {
                        "'active'".to_owned()
                    } else {
                        format!(
                            "case when {t}.status = 'cancelling' then 'cancelling' else 'active' end"
                        )
                    };
                    sqlx::query(sqlx::AssertSqlSafe(format!(
                        "update {t} set plan = $2, status = {status}, active_until = $3,
                                        updated_at = $4, tx_id = $5::text::xid8,
                                        global_position = $6
                          where account_id = $1"
                    )))
                    .bind(period.account_id)
                    .bind(&period.plan)
                    .bind(period.until)
                    .bind(period.from)
                    .bind(&tx)
                    .bind(gp)
                    .execute(&mut *conn)
                    .await?;
                }
                "ChargeChanged" | "ChargeCancelled" => {
                    let news: ChargeNewsV1 = read(upcasters, event)?;
                    let status = news.change.unwrap_or_else(|| "cancelled".to_owned());
                    sqlx::query(sqlx::AssertSqlSafe(format!(
                        "update {c} set status = $2, tx_id = $3::text::xid8, global_position = $4
                          where charge_id = $1"
                    )))
                    .bind(news.charge_id)
                    .bind(&status)
                    .bind(&tx)
                    .bind(gp)
                    .execute(&mut *conn)
                    .await?;
                }
                "CancellationScheduled" => {
                    let state: StateV1 = read(upcasters, event)?;
                    Self::set_status(conn, &t, event, state.account_id, "cancelling", state.at)
                        .await?;
                }
                "SubscriptionExpired" => {
                    let state: StateV1 = read(upcasters, event)?;
                    Self::set_status(conn, &t, event, state.account_id, "expired", state.at)
                        .await?;
                }
                _ => {}
            }
        }
        Ok(())
    }
}
