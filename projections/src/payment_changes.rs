//! What changed in the `payments` read model after a feed position: the source of the live
//! updates (`gateway::live`).
//!
//! Every `payments` row carries the feed position of the newest event it shows (`tx_id`,
//! `global_position`, written in the projector's transaction with the checkpoint), so "the rows
//! past position P" is exactly what the projection applied after P, each in its current state.
//! One query serves every client of a process; a client that reconnects asks the same question
//! with its own filter and the position of the last event it got (`Last-Event-ID`).
//!
//! Payer data is not read here: nothing that travels to a live client may carry it.

use chrono::{DateTime, Utc};
use commands::feed::FeedPosition;
use sqlx::PgExecutor;
use uuid::Uuid;

use crate::error::Error;
use crate::sql::{position_from, tx_text};

/// One payment as it stands after a change, without payer data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentChange {
    /// The receiving account.
    pub account_id: Uuid,
    /// End-to-end id or `manual-…`.
    pub reference: String,
    /// The matched code; `None`: "sem QR code".
    pub qrcode_id: Option<Uuid>,
    /// The matched payment link, when the txid was a link's.
    pub payment_link_id: Option<Uuid>,
    /// Who made the matched code (operators see only their own codes' payments).
    pub code_created_by: Option<String>,
    /// Amount in centavos.
    pub amount_centavos: i64,
    /// `received` or `voided`.
    pub status: String,
    /// `api-pix`, `manual` or `sandbox`.
    pub source: String,
    /// When paid.
    pub paid_at: DateTime<Utc>,
    /// The feed position of the newest event the row shows.
    pub position: FeedPosition,
    /// The payment stream's version the row shows: 1 when this change is the payment's arrival
    /// (its recording), more for a later confirmation, refund or void.
    pub version: i64,
}

impl PaymentChange {
    /// Whether this change is a payment arriving (recorded now, and standing): what a payer page
    /// open at a reusable code confirms.
    pub fn is_arrival(&self) -> bool {
        self.version == 1 && self.status == "received"
    }
}

/// Whose changes to read.
#[derive(Debug, Clone, Copy, Default)]
pub struct Scope {
    /// Only this account's payments.
    pub account_id: Option<Uuid>,
    /// Only payments to this code.
    pub qrcode_id: Option<Uuid>,
    /// Only payments of this payment link.
    pub payment_link_id: Option<Uuid>,
}

#[derive(sqlx::FromRow)]
struct Row {
    account_id: Uuid,
    reference: String,
    qrcode_id: Option<Uuid>,
    payment_link_id: Option<Uuid>,
    code_created_by: Option<String>,
    amount_centavos: i64,
    status: String,
    source: String,
    paid_at: DateTime<Utc>,
    tx_id: i64,
    global_position: i64,
    version: i64,
}

/// The payments in `scope` whose newest event lies after `after`, in feed order, at most
/// `limit`.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn after<'e>(
    executor: impl PgExecutor<'e>,
    after: FeedPosition,
    scope: Scope,
    limit: i64,
) -> Result<Vec<PaymentChange>, Error> {
    let rows: Vec<Row> = sqlx::query_as(
        "select p.account_id, p.reference, p.qrcode_id, p.payment_link_id,
                q.created_by as code_created_by,
                p.amount_centavos, p.status, p.source, p.paid_at,
                p.tx_id::text::bigint as tx_id, p.global_position, p.version
           from payments p
           left join qrcodes q on q.qrcode_id = p.qrcode_id and q.owner_id = p.account_id
          where (p.tx_id, p.global_position) > ($1::text::xid8, $2)
            and ($3::uuid is null or p.account_id = $3)
            and ($4::uuid is null or p.qrcode_id = $4)
            and ($6::uuid is null or p.payment_link_id = $6)
          order by p.tx_id, p.global_position
          limit $5",
    )
    .bind(tx_text(after))
    .bind(after.global_position)
    .bind(scope.account_id)
    .bind(scope.qrcode_id)
    .bind(limit)
    .bind(scope.payment_link_id)
    .fetch_all(executor)
    .await?;
    Ok(rows
        .into_iter()
        .map(|row| PaymentChange {
            account_id: row.account_id,
            reference: row.reference,
            qrcode_id: row.qrcode_id,
            payment_link_id: row.payment_link_id,
            code_created_by: row.code_created_by,
            amount_centavos: row.amount_centavos,
            status: row.status,
            source: row.source,
            paid_at: row.paid_at,
            position: position_from(row.tx_id, row.global_position),
            version: row.version,
        })
        .collect())
}
