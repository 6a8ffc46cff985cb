//! The transactions CSV's rows: the payments a [`Search`] finds, in the list's order, with only
//! the columns the file writes, read as a stream of rows whose text the caller borrows.
//!
//! The list's [`page`](super::search::page) decodes every column of [`PaymentView`](super::PaymentView)
//! (the refunds' JSON among them) into owned values, one allocation per text; at 1M payments in
//! an account that and a round trip per 1,000-row page made the export four times slower than a
//! raw `COPY` of the same rows (issue 37, BENCHMARKS.md). Here a chunk is one statement whose
//! rows are formatted as they arrive, from the row's own bytes.

use chrono::{DateTime, NaiveDateTime, Utc};
use futures::stream::BoxStream;
use futures::{StreamExt, TryStreamExt};
use sqlx::postgres::PgRow;
use sqlx::{AssertSqlSafe, PgExecutor, Row};
use uuid::Uuid;

use super::search::{
    CodeFilter, Cursor, Described, FROM_WHERE, Search, StatusFilter, bind_search, identifiers,
    pattern,
};
use crate::error::Error;

/// What the search's text matches beyond the payments' own columns (the account's codes and
/// links by description), read once per export rather than once per chunk.
#[derive(Debug, Clone, Default)]
pub struct TextMatches(Described);

impl TextMatches {
    /// Reads them for `search` (nothing to read without a text).
    ///
    /// # Errors
    ///
    /// When PostgreSQL fails.
    pub async fn read<'e>(
        executor: impl PgExecutor<'e>,
        account_id: Uuid,
        search: &Search,
    ) -> Result<TextMatches, Error> {
        super::search::described(executor, account_id, search)
            .await
            .map(TextMatches)
    }
}

/// One payment as the CSV writes it, its text borrowed from the row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportRow<'r> {
    /// When paid: the next chunk's cursor with [`ExportRow::reference`].
    pub paid_at: DateTime<Utc>,
    /// End-to-end id or `manual-…`.
    pub reference: &'r str,
    /// `paid_at` on São Paulo's clock (PostgreSQL's time-zone rules; formatting it there, with
    /// `to_char`, took half of the export's statement time at 1M payments).
    pub paid_at_local: NaiveDateTime,
    /// Amount in centavos.
    pub amount_centavos: i64,
    /// Refunded in centavos.
    pub refunded_centavos: i64,
    /// `received` or `voided`.
    pub status: &'r str,
    /// `api-pix`, `manual`, `sandbox` or `extrato`.
    pub source: &'r str,
    /// Whether it was matched to a code.
    pub has_code: bool,
    /// Whether it was a payment link's.
    pub has_link: bool,
    /// The code's description, if any.
    pub code_description: Option<&'r str>,
    /// The link's description, if any.
    pub link_description: Option<&'r str>,
    /// The txid sent.
    pub txid: Option<&'r str>,
    /// The key paid to.
    pub pix_key: Option<&'r str>,
    /// The Pix end-to-end id.
    pub end_to_end_id: Option<&'r str>,
    /// The payer's name (`None` when the export leaves the payer out).
    pub payer_name: Option<&'r str>,
    /// The payer's CPF/CNPJ (likewise).
    pub payer_document: Option<&'r str>,
    /// The payer's message (likewise).
    pub payer_info: Option<&'r str>,
    /// The note typed with a manual record.
    pub note: Option<&'r str>,
}

impl<'r> ExportRow<'r> {
    /// The fields of a row of [`rows`], by position.
    ///
    /// # Errors
    ///
    /// When a column does not decode (a statement out of step with this type).
    pub fn of(row: &'r PgRow) -> Result<ExportRow<'r>, Error> {
        Ok(ExportRow {
            paid_at: row.try_get(0)?,
            reference: row.try_get(1)?,
            paid_at_local: row.try_get(2)?,
            amount_centavos: row.try_get(3)?,
            refunded_centavos: row.try_get(4)?,
            status: row.try_get(5)?,
            source: row.try_get(6)?,
            has_code: row.try_get(7)?,
            has_link: row.try_get(8)?,
            code_description: row.try_get(9)?,
            link_description: row.try_get(10)?,
            txid: row.try_get(11)?,
            pix_key: row.try_get(12)?,
            end_to_end_id: row.try_get(13)?,
            payer_name: row.try_get(14)?,
            payer_document: row.try_get(15)?,
            payer_info: row.try_get(16)?,
            note: row.try_get(17)?,
        })
    }

    /// Where the chunk after this row starts.
    pub fn cursor(&self) -> Cursor {
        (self.paid_at, self.reference.to_owned())
    }
}

/// At most `limit` payments the search finds, in the list's order (newest first, then by
/// reference), after `after` when given, streamed as PostgreSQL sends them; read each with
/// [`ExportRow::of`]. The payer's columns are read only `with_payer` (else `null`).
pub fn rows<'e>(
    executor: impl PgExecutor<'e> + 'e,
    account_id: Uuid,
    search: &Search,
    matches: &TextMatches,
    with_payer: bool,
    after: Option<&Cursor>,
    limit: i64,
) -> BoxStream<'e, Result<PgRow, Error>> {
    let payer = if with_payer {
        "p.payer_name, p.payer_document, p.payer_info"
    } else {
        "null::text, null::text, null::text"
    };
    let query = sqlx::query(AssertSqlSafe(format!(
        "select p.paid_at, p.reference,
                p.paid_at at time zone 'America/Sao_Paulo',
                p.amount_centavos, p.refunded_centavos, p.status, p.source,
                p.qrcode_id is not null, p.payment_link_id is not null,
                q.description, l.description, p.txid, p.pix_key, p.end_to_end_id,
                {payer}, p.note
           {FROM_WHERE}
            and ($18::timestamptz is null or (p.paid_at, p.reference) < ($18, $19::text))
          order by p.paid_at desc, p.reference desc
          limit $20"
    )));
    bind_search!(query, account_id, search, matches.0.clone())
        .bind(after.map(|(at, _)| *at))
        .bind(after.map(|(_, reference)| reference.clone()))
        .bind(limit)
        .fetch(executor)
        .map_err(Error::from)
        .boxed()
}
