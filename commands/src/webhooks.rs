//! Outgoing webhooks (`migrations/0040_webhooks.sql`): an account's endpoints, the outbox that
//! turns the log's events into deliveries, and each delivery's attempts.
//!
//! Deliveries are made **from the log**: [`enqueue`] reads the feed after the outbox's position
//! and, in one transaction, writes a delivery per event and interested endpoint and moves the
//! position. A crash anywhere leaves either both or neither, so no event is lost or queued twice,
//! and replaying the read models changes nothing here. A sender takes due deliveries with a lease
//! ([`claim_due`]), posts them outside any transaction, and records each outcome ([`record`]); a
//! sender that dies mid-way leaves its leases to expire, and the deliveries are sent again (the
//! receiver recognises a repeat by its `id`). Deliveries of one payment go in the feed's order:
//! one is not claimed while an earlier one of the same stream is still being tried.

use chrono::{DateTime, Utc};
use domain::refusal::{Refusal, RefusalKind};
use domain::sealed::Sealed;
use domain::webhook::{EndpointUrl, EventKind, GIVE_UP_AFTER_SECS, retry_after_ms};
use serde_json::{Value, json};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::error::CommandError;
use crate::feed::{FeedFields, FeedPosition, StoredEvent, read_after_with};
use crate::upcast::Upcasters;

/// Endpoints an account may have at once.
pub const MAX_ENDPOINTS: i64 = 10;

/// Why an endpoint command is refused. Messages are pt-BR.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum WebhookError {
    /// No such endpoint (or delivery) in the account (404).
    #[error("Endereço de webhook não encontrado.")]
    NotFound,
    /// The account already has [`MAX_ENDPOINTS`] endpoints (409).
    #[error(
        "Esta conta já tem 10 endereços de webhook. Remova um que não use mais para cadastrar outro."
    )]
    TooMany,
    /// The delivery was already received; there is nothing to send again (409).
    #[error("Esta entrega já foi recebida pelo endereço.")]
    AlreadyDelivered,
}

impl Refusal for WebhookError {
    fn code(&self) -> &'static str {
        match self {
            WebhookError::NotFound => "not-found",
            WebhookError::TooMany => "webhooks-too-many",
            WebhookError::AlreadyDelivered => "webhook-already-delivered",
        }
    }

    fn kind(&self) -> RefusalKind {
        match self {
            WebhookError::NotFound => RefusalKind::NotFound,
            WebhookError::TooMany | WebhookError::AlreadyDelivered => RefusalKind::Conflict,
        }
    }
}

/// What registering an endpoint needs.
#[derive(Debug, Clone)]
pub struct Register<'a> {
    /// The account.
    pub account_id: Uuid,
    /// Where deliveries go (checked).
    pub url: &'a EndpointUrl,
    /// What it is told of (at least one).
    pub events: &'a [EventKind],
    /// The signing secret, sealed with the account's key.
    pub secret: &'a Sealed,
    /// Who registers it (a person's account id, or `api-key:{id}`).
    pub by: &'a str,
}

/// Registers an endpoint; answers its id.
///
/// # Errors
///
/// [`WebhookError::TooMany`], or a storage failure (nothing written).
pub async fn register(
    pool: &PgPool,
    register: Register<'_>,
) -> Result<Uuid, CommandError<WebhookError>> {
    let mut tx = pool.begin().await?;
    sqlx::query(
        "select pg_advisory_xact_lock(hashtextextended('balcao.webhooks.' || $1::text, 0))",
    )
    .bind(register.account_id)
    .execute(&mut *tx)
    .await?;
    let live: i64 = sqlx::query_scalar(
        "select count(*) from webhook_endpoints where account_id = $1 and deleted_at is null",
    )
    .bind(register.account_id)
    .fetch_one(&mut *tx)
    .await?;
    if live >= MAX_ENDPOINTS {
        return Err(CommandError::Rejected(WebhookError::TooMany));
    }
    let endpoint_id = Uuid::now_v7();
    let events: Vec<&str> = register.events.iter().map(|e| e.as_str()).collect();
    sqlx::query(
        "insert into webhook_endpoints (endpoint_id, account_id, url, events, secret, created_by)
         values ($1, $2, $3, $4, $5, $6)",
    )
    .bind(endpoint_id)
    .bind(register.account_id)
    .bind(register.url.as_str())
    .bind(&events)
    .bind(register.secret.as_str())
    .bind(register.by)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(endpoint_id)
}

/// An endpoint as the screen lists it (never its secret).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct EndpointView {
    /// The endpoint.
    pub endpoint_id: Uuid,
    /// Where deliveries go.
    pub url: String,
    /// The kinds it takes.
    pub events: Vec<String>,
    /// When it was registered.
    pub created_at: DateTime<Utc>,
    /// Deliveries still being tried.
    pub pending: i64,
    /// Deliveries given up after three days.
    pub given_up: i64,
}

/// The account's endpoints, oldest first.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn list(pool: &PgPool, account_id: Uuid) -> Result<Vec<EndpointView>, sqlx::Error> {
    sqlx::query_as(
        "select e.endpoint_id, e.url, e.events, e.created_at,
                (select count(*) from webhook_deliveries d
                  where d.endpoint_id = e.endpoint_id
                    and d.delivered_at is null and d.given_up_at is null) as pending,
                (select count(*) from webhook_deliveries d
                  where d.endpoint_id = e.endpoint_id and d.given_up_at is not null) as given_up
           from webhook_endpoints e
          where e.account_id = $1 and e.deleted_at is null
          order by e.created_at",
    )
    .bind(account_id)
    .fetch_all(pool)
    .await
}

/// Removes the account's endpoint: nothing more is queued for it, and what was queued is not sent.
///
/// # Errors
///
/// [`WebhookError::NotFound`], or a storage failure.
pub async fn remove(
    pool: &PgPool,
    account_id: Uuid,
    endpoint_id: Uuid,
) -> Result<(), CommandError<WebhookError>> {
    let updated = sqlx::query(
        "update webhook_endpoints set deleted_at = now()
          where endpoint_id = $1 and account_id = $2 and deleted_at is null",
    )
    .bind(endpoint_id)
    .bind(account_id)
    .execute(pool)
    .await?;
    if updated.rows_affected() == 0 {
        return Err(CommandError::Rejected(WebhookError::NotFound));
    }
    Ok(())
}

/// Gives the account's endpoint a new signing secret; the current one keeps signing beside it for
/// `grace_secs` (deliveries carry both signatures meanwhile), so the receiver can switch without
/// refusing a delivery. A previous secret still in its grace is dropped.
///
/// # Errors
///
/// [`WebhookError::NotFound`], or a storage failure.
pub async fn replace_secret(
    pool: &PgPool,
    account_id: Uuid,
    endpoint_id: Uuid,
    secret: &Sealed,
    grace_secs: i64,
) -> Result<DateTime<Utc>, CommandError<WebhookError>> {
    let until: Option<DateTime<Utc>> = sqlx::query_scalar(
        "update webhook_endpoints
            set previous_secret = secret, secret = $3,
                previous_valid_until = now() + $4 * interval '1 second'
          where endpoint_id = $1 and account_id = $2 and deleted_at is null
          returning previous_valid_until",
    )
    .bind(endpoint_id)
    .bind(account_id)
    .bind(secret.as_str())
    .bind(grace_secs)
    .fetch_optional(pool)
    .await?;
    until.ok_or(CommandError::Rejected(WebhookError::NotFound))
}

/// One delivery, as the endpoint's log shows it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct DeliveryView {
    /// The delivery (sent as `Balcao-Entrega`).
    pub delivery_id: Uuid,
    /// The event it tells of (the body's `id`).
    pub event_id: Uuid,
    /// Its kind.
    pub kind: String,
    /// Attempts made.
    pub attempts: i32,
    /// The last answer's status, if one came.
    pub last_status: Option<i32>,
    /// Why the last attempt failed without an answer (timeout, refused connection).
    pub last_error: Option<String>,
    /// When it was last tried.
    pub last_attempt_at: Option<DateTime<Utc>>,
    /// When the next attempt is due, while it is being tried.
    pub next_attempt_at: DateTime<Utc>,
    /// When the endpoint took it (a 2xx).
    pub delivered_at: Option<DateTime<Utc>>,
    /// When it was given up.
    pub given_up_at: Option<DateTime<Utc>>,
    /// When it was queued.
    pub created_at: DateTime<Utc>,
}

/// The endpoint's latest 50 deliveries, newest first; `None` when the account has no such
/// endpoint.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn deliveries(
    pool: &PgPool,
    account_id: Uuid,
    endpoint_id: Uuid,
) -> Result<Option<Vec<DeliveryView>>, sqlx::Error> {
    let known: bool = sqlx::query_scalar(
        "select exists (select 1 from webhook_endpoints
                         where endpoint_id = $1 and account_id = $2 and deleted_at is null)",
    )
    .bind(endpoint_id)
    .bind(account_id)
    .fetch_one(pool)
    .await?;
    if !known {
        return Ok(None);
    }
    sqlx::query_as(
        "select delivery_id, event_id, kind, attempts, last_status, last_error, last_attempt_at,
                next_attempt_at, delivered_at, given_up_at, created_at
           from webhook_deliveries
          where endpoint_id = $1
          order by created_at desc, global_position desc
          limit 50",
    )
    .bind(endpoint_id)
    .fetch_all(pool)
    .await
    .map(Some)
}

/// Sends a delivery that was given up (or is waiting for its next attempt) again now: "Reenviar".
///
/// # Errors
///
/// [`WebhookError::NotFound`], [`WebhookError::AlreadyDelivered`], or a storage failure.
pub async fn redeliver(
    pool: &PgPool,
    account_id: Uuid,
    delivery_id: Uuid,
) -> Result<(), CommandError<WebhookError>> {
    let row: Option<bool> = sqlx::query_scalar(
        "update webhook_deliveries d
            set next_attempt_at = now(), given_up_at = null, created_at = case
                    when d.given_up_at is null then d.created_at else now() end
           from webhook_endpoints e
          where d.delivery_id = $1 and d.account_id = $2 and e.endpoint_id = d.endpoint_id
            and e.deleted_at is null
          returning d.delivered_at is not null",
    )
    .bind(delivery_id)
    .bind(account_id)
    .fetch_optional(pool)
    .await?;
    match row {
        None => Err(CommandError::Rejected(WebhookError::NotFound)),
        Some(true) => Err(CommandError::Rejected(WebhookError::AlreadyDelivered)),
        Some(false) => Ok(()),
    }
}

/// The kind, account and body data of an event an endpoint may be told of; `None` for the rest.
fn outgoing(event: &StoredEvent) -> Option<(EventKind, Uuid, Value)> {
    if event.stream_type != domain::payment::STREAM_TYPE {
        return None;
    }
    let account = event
        .stream_id
        .split_once(':')
        .and_then(|(account, _)| Uuid::parse_str(account).ok())?;
    let payload: Value = serde_json::from_str(event.payload.get()).ok()?;
    match event.event_type.as_str() {
        // Personal data (the payer's name and document) is sealed in the log and never sent.
        "PaymentRecorded" => Some((
            EventKind::PaymentReceived,
            account,
            json!({
                "reference": payload["reference"],
                "endToEndId": payload["end_to_end_id"],
                "amountCentavos": payload["amount_centavos"],
                "paidAt": payload["paid_at"],
                "txid": payload["txid"],
                "qrcodeId": payload["qrcode_id"],
                "paymentLinkId": payload.get("payment_link_id").cloned().unwrap_or(Value::Null),
                "pixKey": payload["pix_key"],
            }),
        )),
        "PaymentRefunded" if payload["status"] == "DEVOLVIDO" => Some((
            EventKind::PaymentRefunded,
            account,
            json!({
                "reference": event.stream_id.split_once(':').map(|(_, r)| r),
                "refundId": payload["refund_id"],
                "amountCentavos": payload["amount_centavos"],
                "settledAt": payload["settled_at"],
            }),
        )),
        _ => None,
    }
}

/// The outbox's position, locked until the transaction ends. Migration 0040 writes it (the log's
/// end then); if the row is gone, the outbox starts over from the feed's end as it is now: no
/// endpoint hears of anything before it was registered anyway.
async fn position(conn: &mut PgConnection) -> Result<FeedPosition, sqlx::Error> {
    let stored: Option<(i64, i64)> =
        sqlx::query_as("select tx_id, global_position from webhook_outbox_position for update")
            .fetch_optional(&mut *conn)
            .await?;
    if let Some((tx_id, global_position)) = stored {
        return Ok(FeedPosition {
            tx_id: u64::try_from(tx_id).unwrap_or_default(),
            global_position,
        });
    }
    let end: (i64, i64) = sqlx::query_as(
        "insert into webhook_outbox_position (tx_id, global_position)
         select coalesce(max(tx_id::text::bigint), 0), coalesce(max(global_position), 0)
           from events
          where tx_id < pg_snapshot_xmin(pg_current_snapshot())
         on conflict do nothing
         returning tx_id, global_position",
    )
    .fetch_one(&mut *conn)
    .await?;
    Ok(FeedPosition {
        tx_id: u64::try_from(end.0).unwrap_or_default(),
        global_position: end.1,
    })
}

/// Reads up to `batch` events after the outbox's position and queues a delivery for each one an
/// endpoint takes (registered before the event, not removed), moving the position in the same
/// transaction. Answers how many events were read (fewer than `batch`: caught up for now). Only
/// one outbox works at a time; another answers 0 at once.
///
/// # Errors
///
/// When PostgreSQL fails (nothing was queued or moved).
pub async fn enqueue(
    pool: &PgPool,
    upcasters: &Upcasters,
    batch: i64,
) -> Result<usize, sqlx::Error> {
    let mut tx = pool.begin().await?;
    let locked: bool = sqlx::query_scalar(
        "select pg_try_advisory_xact_lock(hashtextextended('balcao.webhook-outbox', 0))",
    )
    .fetch_one(&mut *tx)
    .await?;
    if !locked {
        return Ok(0);
    }
    let after = position(&mut tx).await?;
    let fields = FeedFields::payloads_of(&[domain::payment::STREAM_TYPE]);
    let events = read_after_with(&mut *tx, upcasters, after, batch, &fields).await?;
    let Some(last) = events.last().map(|e| e.position) else {
        tx.commit().await?;
        return Ok(0);
    };
    let outgoing: Vec<(&StoredEvent, EventKind, Uuid, Value)> = events
        .iter()
        .filter_map(|event| {
            outgoing(event).map(|(kind, account, data)| (event, kind, account, data))
        })
        .collect();
    if !outgoing.is_empty() {
        let accounts: Vec<Uuid> = outgoing.iter().map(|(_, _, account, _)| *account).collect();
        let endpoints: Vec<(Uuid, Uuid, Vec<String>, DateTime<Utc>)> = sqlx::query_as(
            "select endpoint_id, account_id, events, created_at from webhook_endpoints
              where account_id = any($1) and deleted_at is null",
        )
        .bind(&accounts)
        .fetch_all(&mut *tx)
        .await?;
        let mut rows = Deliveries::default();
        for (event, kind, account, data) in &outgoing {
            for (endpoint_id, _, _, _) in endpoints.iter().filter(|(_, a, kinds, created)| {
                a == account
                    && kinds.iter().any(|k| k == kind.as_str())
                    && *created <= event.recorded_at
            }) {
                let body = json!({
                    "id": event.event_id,
                    "type": kind.as_str(),
                    "createdAt": event.recorded_at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
                    "accountId": account,
                    "data": data,
                });
                rows.delivery_ids.push(Uuid::now_v7());
                rows.endpoint_ids.push(*endpoint_id);
                rows.account_ids.push(*account);
                rows.event_ids.push(event.event_id);
                rows.stream_ids.push(event.stream_id.clone());
                rows.tx_ids
                    .push(i64::try_from(event.position.tx_id).unwrap_or(i64::MAX));
                rows.positions.push(event.position.global_position);
                rows.kinds.push(kind.as_str());
                rows.bodies.push(body.to_string());
            }
        }
        // The whole batch's deliveries in one statement.
        if !rows.delivery_ids.is_empty() {
            sqlx::query(
                "insert into webhook_deliveries (delivery_id, endpoint_id, account_id, event_id,
                                                 stream_id, tx_id, global_position, kind, body)
                 select * from unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::text[],
                                      $6::bigint[], $7::bigint[], $8::text[], $9::text[])
                 on conflict (endpoint_id, event_id) do nothing",
            )
            .bind(&rows.delivery_ids)
            .bind(&rows.endpoint_ids)
            .bind(&rows.account_ids)
            .bind(&rows.event_ids)
            .bind(&rows.stream_ids)
            .bind(&rows.tx_ids)
            .bind(&rows.positions)
            .bind(&rows.kinds)
            .bind(&rows.bodies)
            .execute(&mut *tx)
            .await?;
        }
    }
    sqlx::query("update webhook_outbox_position set tx_id = $1, global_position = $2")
        .bind(i64::try_from(last.tx_id).unwrap_or(i64::MAX))
        .bind(last.global_position)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(events.len())
}

/// One batch's new deliveries, column by column (one `unnest` insert).
#[derive(Default)]
struct Deliveries {
    delivery_ids: Vec<Uuid>,
    endpoint_ids: Vec<Uuid>,
    account_ids: Vec<Uuid>,
    event_ids: Vec<Uuid>,
    stream_ids: Vec<String>,
    tx_ids: Vec<i64>,
    positions: Vec<i64>,
    kinds: Vec<&'static str>,
    bodies: Vec<String>,
}

/// A delivery a sender took, with what it needs to send it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Due {
    /// The delivery.
    pub delivery_id: Uuid,
    /// Its account (whose key opens the secret).
    pub account_id: Uuid,
    /// Where it goes.
    pub url: String,
    /// Its kind.
    pub kind: String,
    /// The JSON body, as it is signed and sent.
    pub body: String,
    /// The endpoint's secret, sealed.
    pub secret: String,
    /// The secret it replaced, sealed, while that one still signs too.
    pub previous_secret: Option<String>,
}

/// Takes up to `limit` due deliveries for `lease_ms` milliseconds (no other sender takes them
/// meanwhile): due now, not delivered, not given up, their endpoint not removed, and no earlier
/// delivery of the same payment to the same endpoint still being tried.
///
/// # Errors
///
/// When PostgreSQL fails (nothing was taken).
pub async fn claim_due(pool: &PgPool, limit: i64, lease_ms: i64) -> Result<Vec<Due>, sqlx::Error> {
    sqlx::query_as(
        "with due as (
             select d.delivery_id
               from webhook_deliveries d
               join webhook_endpoints e on e.endpoint_id = d.endpoint_id and e.deleted_at is null
              where d.delivered_at is null and d.given_up_at is null
                and d.next_attempt_at <= now()
                and (d.leased_until is null or d.leased_until < now())
                and not exists (
                    select 1 from webhook_deliveries p
                     where p.endpoint_id = d.endpoint_id and p.stream_id = d.stream_id
                       and p.delivered_at is null and p.given_up_at is null
                       and (p.tx_id, p.global_position) < (d.tx_id, d.global_position))
              order by d.tx_id, d.global_position
              limit $1
                for update of d skip locked)
         update webhook_deliveries d
            set leased_until = now() + $2 * interval '1 millisecond'
           from due, webhook_endpoints e
          where d.delivery_id = due.delivery_id and e.endpoint_id = d.endpoint_id
         returning d.delivery_id, d.account_id, e.url, d.kind, d.body, e.secret,
                   case when e.previous_valid_until > now() then e.previous_secret end
                       as previous_secret",
    )
    .bind(limit)
    .bind(lease_ms)
    .fetch_all(pool)
    .await
}

/// How one attempt went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The endpoint answered 2xx.
    Delivered(u16),
    /// It answered something else.
    Refused(u16),
    /// No answer (timeout, connection refused, TLS); why, for the log.
    Failed(String),
}

/// Records an attempt: delivered, or due again after [`retry_after_ms`] from `first_retry_ms`,
/// or given up when it was queued more than three days ago.
///
/// # Errors
///
/// When PostgreSQL fails (the lease expires and the delivery is tried again).
pub async fn record(
    pool: &PgPool,
    delivery_id: Uuid,
    outcome: &Outcome,
    first_retry_ms: i64,
) -> Result<(), sqlx::Error> {
    let (status, error) = match outcome {
        Outcome::Delivered(status) | Outcome::Refused(status) => (Some(i32::from(*status)), None),
        Outcome::Failed(why) => (None, Some(why.chars().take(500).collect::<String>())),
    };
    if matches!(outcome, Outcome::Delivered(_)) {
        sqlx::query(
            "update webhook_deliveries
                set delivered_at = now(), attempts = attempts + 1, last_attempt_at = now(),
                    last_status = $2, last_error = null, leased_until = null
              where delivery_id = $1",
        )
        .bind(delivery_id)
        .bind(status)
        .execute(pool)
        .await?;
        return Ok(());
    }
    let attempts: i32 =
        sqlx::query_scalar("select attempts + 1 from webhook_deliveries where delivery_id = $1")
            .bind(delivery_id)
            .fetch_one(pool)
            .await?;
    let wait_ms = retry_after_ms(first_retry_ms, u32::try_from(attempts).unwrap_or(u32::MAX));
    sqlx::query(
        "update webhook_deliveries
            set attempts = attempts + 1, last_attempt_at = now(), last_status = $2,
                last_error = $3, leased_until = null,
                next_attempt_at = now() + $4 * interval '1 millisecond',
                given_up_at = case when created_at < now() - $5 * interval '1 second'
                                   then now() end
          where delivery_id = $1",
    )
    .bind(delivery_id)
    .bind(status)
    .bind(error)
    .bind(wait_ms)
    .bind(GIVE_UP_AFTER_SECS)
    .execute(pool)
    .await?;
    Ok(())
}
