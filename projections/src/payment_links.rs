//! Read model `payment_links`: one row per payment link (`/pagar`), from `PaymentLinkCreated`
//! and `PaymentLinkRevoked` (stream type `payment_link`, schema version 1). Its table is created
//! by `migrations/0009_payment_links.sql` only. The gateway reads it with [`find`] and
//! [`list_by_owner`].
//!
//! A link's payments are not its events: the intake matches a payment to the link by the link's
//! txid claim and the payment names it (`payments.payment_link_id`), so [`find`] and
//! [`list_by_owner`] read [`PaymentLinkView::paid_at`] from `payments`.
//!
//! Events are applied one by one in feed order (links are few beside QR codes); a revocation
//! finds its row by the primary key, which replay keeps (no key is built after the fill).

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use commands::Upcasters;
use commands::feed::{FeedPosition, StoredEvent};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use sqlx::{PgConnection, PgExecutor};
use uuid::Uuid;

use crate::error::Error;
use crate::projection::{ApplyError, Projection, TableSet};
use crate::sql::{position_from, tx_text};

/// The projection's name (durable consumer, checkpoint key).
pub const NAME: &str = "payment_links";
/// The live table.
pub const TABLE: &str = "payment_links";
/// Stream type of the payment-link aggregate.
pub const STREAM_TYPE: &str = "payment_link";
/// A link was made.
pub const CREATED: &str = "PaymentLinkCreated";
/// A link was revoked.
pub const REVOKED: &str = "PaymentLinkRevoked";

/// One payment link as the gateway shows it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct PaymentLinkView {
    /// The link's id (its aggregate id).
    pub link_id: Uuid,
    /// The owning account.
    pub owner_id: Uuid,
    /// The person who made it.
    pub created_by: String,
    /// `cpf`, `cnpj`, `email`, `phone` or `evp`.
    pub key_kind: String,
    /// The normalised Pix key.
    pub pix_key: String,
    /// Merchant name as encoded.
    pub merchant_name: String,
    /// Merchant city as encoded.
    pub merchant_city: String,
    /// The amount in centavos.
    pub amount_centavos: i64,
    /// Shown to the payer.
    pub description: Option<String>,
    /// The txid written in the code.
    pub txid: String,
    /// The BR Code.
    pub payload: String,
    /// When it stops taking payments; `None` for never.
    pub expires_at: Option<DateTime<Utc>>,
    /// When it was made.
    pub created_at: DateTime<Utc>,
    /// When it was revoked, if it was.
    pub revoked_at: Option<DateTime<Utc>>,
    /// Who revoked it.
    pub revoked_by: Option<String>,
    /// When it was paid: the earliest payment of it that stands (not voided) in the `payments`
    /// read model. A link is sold once, so from then on its page says "pago" to everyone.
    pub paid_at: Option<DateTime<Utc>>,
    tx_id: i64,
    global_position: i64,
}

impl PaymentLinkView {
    /// Feed position of the link's creation.
    pub fn position(&self) -> FeedPosition {
        position_from(self.tx_id, self.global_position)
    }
}

const SELECT: &str = "select link_id, owner_id, created_by, key_kind, pix_key, merchant_name,
                             merchant_city, amount_centavos, description, txid, payload,
                             expires_at, created_at, revoked_at, revoked_by,
                             (select min(p.paid_at) from payments p
                               where p.payment_link_id = payment_links.link_id
                                 and p.status = 'received') as paid_at,
                             tx_id::text::bigint as tx_id, global_position
                        from payment_links";

/// The link with this id, if the read model has it yet.
pub async fn find<'e>(
    executor: impl PgExecutor<'e>,
    link_id: Uuid,
) -> Result<Option<PaymentLinkView>, Error> {
    Ok(
        sqlx::query_as(sqlx::AssertSqlSafe(format!("{SELECT} where link_id = $1")))
            .bind(link_id)
            .fetch_optional(executor)
            .await?,
    )
}

/// The link with this id from the read model or, when the read model does not have it yet (its
/// projector stopped or behind), folded from the link's own stream in the event log: a link
/// someone just made opens for its payer, and can be paid, whatever the projector's lag. Its
/// `paid_at` is read from `payments` either way.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn find_or_from_log(
    pool: &sqlx::PgPool,
    store: &commands::PgEventStore,
    link_id: Uuid,
) -> Result<Option<PaymentLinkView>, Error> {
    if let Some(view) = find(pool, link_id).await? {
        return Ok(Some(view));
    }
    from_log(pool, store, link_id).await
}

/// The link with this id folded from its own stream in the event log, whatever the read model
/// holds: what a command on it just decided (its revocation), when the projector has not caught
/// up yet. Its `paid_at` is read from `payments`.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn from_log(
    pool: &sqlx::PgPool,
    store: &commands::PgEventStore,
    link_id: Uuid,
) -> Result<Option<PaymentLinkView>, Error> {
    let events = store
        .read_stream(STREAM_TYPE, &link_id.hyphenated().to_string())
        .await?;
    let mut view: Option<PaymentLinkView> = None;
    for event in &events {
        // The projection parks what it cannot read; the fold passes over it.
        match event.event_type.as_str() {
            CREATED => {
                let Ok(created) = read::<CreatedV1>(store.upcasters(), event) else {
                    continue;
                };
                view = Some(PaymentLinkView {
                    link_id: created.link_id,
                    owner_id: created.owner_id,
                    created_by: created.created_by,
                    key_kind: created.key_kind,
                    pix_key: created.pix_key,
                    merchant_name: created.merchant_name,
                    merchant_city: created.merchant_city,
                    amount_centavos: created.amount_centavos,
                    description: created.description,
                    txid: created.txid,
                    payload: created.payload,
                    expires_at: created.expires_at,
                    created_at: created.created_at,
                    revoked_at: None,
                    revoked_by: None,
                    paid_at: None,
                    tx_id: i64::try_from(event.position.tx_id).unwrap_or(i64::MAX),
                    global_position: event.position.global_position,
                });
            }
            REVOKED => {
                let Ok(revoked) = read::<RevokedV1>(store.upcasters(), event) else {
                    continue;
                };
                if let Some(view) = view.as_mut().filter(|v| v.link_id == revoked.link_id) {
                    view.revoked_at = Some(revoked.at);
                    view.revoked_by = Some(revoked.revoked_by);
                }
            }
            _ => {}
        }
    }
    if let Some(view) = view.as_mut() {
        view.paid_at = sqlx::query_scalar(
            "select min(paid_at) from payments where payment_link_id = $1 and status = 'received'",
        )
        .bind(link_id)
        .fetch_one(pool)
        .await?;
    }
    Ok(view)
}

/// The newest `limit` links of an account, newest first.
pub async fn list_by_owner<'e>(
    executor: impl PgExecutor<'e>,
    owner_id: Uuid,
    limit: i64,
) -> Result<Vec<PaymentLinkView>, Error> {
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{SELECT} where owner_id = $1 order by created_at desc, link_id limit $2"
    )))
    .bind(owner_id)
    .bind(limit)
    .fetch_all(executor)
    .await?)
}

/// Payload of `PaymentLinkCreated`, version 1.
#[derive(Debug, Deserialize)]
struct CreatedV1 {
    link_id: Uuid,
    owner_id: Uuid,
    created_by: String,
    key_kind: String,
    pix_key: String,
    merchant_name: String,
    merchant_city: String,
    amount_centavos: i64,
    description: Option<String>,
    txid: String,
    payload: String,
    expires_at: Option<DateTime<Utc>>,
    created_at: DateTime<Utc>,
}

/// Payload of `PaymentLinkRevoked`, version 1.
#[derive(Debug, Deserialize)]
struct RevokedV1 {
    link_id: Uuid,
    revoked_by: String,
    at: DateTime<Utc>,
}

/// Reads an event's payload at the version this read model knows, or names it for parking.
pub(crate) fn read<T: DeserializeOwned>(
    upcasters: &Upcasters,
    event: &StoredEvent,
) -> Result<T, ApplyError> {
    let current = upcasters.current_version(&event.event_type);
    if event.schema_version != current {
        return Err(ApplyError::Rejected {
            event_id: event.event_id,
            reason: format!(
                "unknown schema version {} of {}",
                event.schema_version, event.event_type
            ),
        });
    }
    event
        .payload
        .deserialize::<T>()
        .map_err(|error| ApplyError::Rejected {
            event_id: event.event_id,
            reason: format!(
                "payload of {} v{current} does not deserialise: {error}",
                event.event_type
            ),
        })
}

/// The `payment_links` projection.
#[derive(Debug, Clone, Copy, Default)]
pub struct PaymentLinks;

#[async_trait]
impl Projection for PaymentLinks {
    fn name(&self) -> &'static str {
        NAME
    }

    fn streams(&self) -> Option<&'static [&'static str]> {
        Some(&[STREAM_TYPE])
    }

    fn tables(&self) -> &'static [&'static str] {
        &[TABLE]
    }

    /// Its one plain index serves the dashboard's list, never `apply`.
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
        for event in events {
            if event.stream_type != STREAM_TYPE {
                continue;
            }
            match event.event_type.as_str() {
                CREATED => {
                    let c: CreatedV1 = read(upcasters, event)?;
                    sqlx::query(sqlx::AssertSqlSafe(format!(
                        "insert into {t} (link_id, owner_id, created_by, key_kind, pix_key,
                                          merchant_name, merchant_city, amount_centavos,
                                          description, txid, payload, expires_at, created_at,
                                          tx_id, global_position)
                         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13,
                                 $14::text::xid8, $15)"
                    )))
                    .bind(c.link_id)
                    .bind(c.owner_id)
                    .bind(c.created_by)
                    .bind(c.key_kind)
                    .bind(c.pix_key)
                    .bind(c.merchant_name)
                    .bind(c.merchant_city)
                    .bind(c.amount_centavos)
                    .bind(c.description)
                    .bind(c.txid)
                    .bind(c.payload)
                    .bind(c.expires_at)
                    .bind(c.created_at)
                    .bind(tx_text(event.position))
                    .bind(event.position.global_position)
                    .execute(&mut *conn)
                    .await?;
                }
                REVOKED => {
                    let r: RevokedV1 = read(upcasters, event)?;
                    sqlx::query(sqlx::AssertSqlSafe(format!(
                        "update {t} set revoked_at = $2, revoked_by = $3 where link_id = $1"
                    )))
                    .bind(r.link_id)
                    .bind(r.at)
                    .bind(r.revoked_by)
                    .execute(&mut *conn)
                    .await?;
                }
                _ => {}
            }
        }
        Ok(())
    }
}
