//! What the transactions screen asks of the `payments` read model: one filter ([`Search`]) for
//! a keyset page of payments ([`page`]) and for the day-by-day sums of the same payments
//! ([`summary`]), so the table, its totals, its chart and its CSV always agree.
//!
//! Totals are summed from `payment_day_totals` (per day and every value the screen filters on
//! but the amount and the text) rather than `daily_totals` (per day and code only, standing
//! payments only); a search with an amount range and at most a period and a status sums the
//! columns `payments_account_paid_idx` carries ([`summary_of_amounts`]); any other search with
//! an amount range or a text sums `payments` row by row, as the list finds them. At 1M payments
//! in an account the row-by-row sum took 343 ms for 365 days (issue 37, BENCHMARKS.md).

use chrono::{DateTime, NaiveDate, Utc};
use sqlx::postgres::PgArguments;
use sqlx::query::QueryAs;
use sqlx::{AssertSqlSafe, PgExecutor, Postgres};
use uuid::Uuid;

use super::PaymentView;
use crate::error::Error;

/// Which code the payments were made to.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum CodeFilter {
    /// Any code, or none.
    #[default]
    Any,
    /// Only this code.
    Code(Uuid),
    /// Only payments matched to no code and no payment link ("sem QR code").
    Without,
    /// Only payments of payment links.
    Links,
}

impl CodeFilter {
    /// `$4` of [`FROM_WHERE`]: which of the two kinds without a code id is asked for.
    pub(super) fn kind(self) -> Option<&'static str> {
        match self {
            CodeFilter::Without => Some("sem"),
            CodeFilter::Links => Some("links"),
            CodeFilter::Any | CodeFilter::Code(_) => None,
        }
    }
}

/// A payment's status as the screen filters it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatusFilter {
    /// Standing (not voided), refunded or not.
    Received,
    /// Voided.
    Voided,
    /// With at least one refund reported, whatever its status.
    Refunded,
}

impl StatusFilter {
    /// The API's spelling: `received`, `voided`, `refunded`.
    pub fn as_str(self) -> &'static str {
        match self {
            StatusFilter::Received => "received",
            StatusFilter::Voided => "voided",
            StatusFilter::Refunded => "refunded",
        }
    }

    /// From the API's spelling.
    pub fn parse(text: &str) -> Option<StatusFilter> {
        [
            StatusFilter::Received,
            StatusFilter::Voided,
            StatusFilter::Refunded,
        ]
        .into_iter()
        .find(|s| s.as_str() == text)
    }
}

/// The filter of the transactions screen. Every field narrows; the default lists everything.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Search {
    /// Only payments to codes this person made (an operator's view).
    pub created_by: Option<String>,
    /// Which code.
    pub code: CodeFilter,
    /// Only payments to this registered key: to a code made from it, or reported for it.
    pub key_id: Option<Uuid>,
    /// From this São Paulo day on.
    pub from: Option<NaiveDate>,
    /// Up to this São Paulo day.
    pub to: Option<NaiveDate>,
    /// Only this source (`api-pix`, `manual`, `sandbox`).
    pub source: Option<String>,
    /// Only this status.
    pub status: Option<StatusFilter>,
    /// At least this amount, in centavos.
    pub min_centavos: Option<i64>,
    /// At most this amount, in centavos.
    pub max_centavos: Option<i64>,
    /// Text found (any case) in the note, void reason, the code's description or the payment
    /// link's; equal to the whole reference, end-to-end id or txid; an amount typed as text
    /// (`12,50`) also matches that amount.
    pub text: Option<String>,
    /// The text's amount in centavos, when it reads as one.
    pub text_centavos: Option<i64>,
    /// Whether the text is also looked for in the payer's name, document and message (only for
    /// roles that may see them: searching is seeing).
    pub text_in_payer: bool,
}

/// One payment of a page, with what the screen shows beside it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Found {
    /// The payment.
    #[sqlx(flatten)]
    pub payment: PaymentView,
    /// The description of its code, if it has a code and the code one.
    pub code_description: Option<String>,
    /// The description of its payment link, if a link was paid and has one.
    pub link_description: Option<String>,
    /// `paid_at` on São Paulo's clock as `dd/mm/aaaa HH:MM` (PostgreSQL's time-zone rules).
    pub paid_at_local: String,
}

/// Where a page starts: after the payment paid at this instant with this reference.
pub type Cursor = (DateTime<Utc>, String);

/// One São Paulo day's sums of the payments a [`Search`] finds.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct DaySummary {
    /// The day.
    pub day: NaiveDate,
    /// Payments that stand (not voided).
    pub payments: i64,
    /// Their amounts, in centavos.
    pub received_centavos: i64,
    /// Refunded (settled) of them, in centavos.
    pub refunded_centavos: i64,
    /// Voided payments of the day.
    pub voided: i64,
}

/// Every text column of a payment people write (the note, the void's reason, the payer's
/// name, document and message), in one string: the text expression of the trigram index
/// `payments_searchable_text_idx` (migration `0032`, after the account and the São Paulo day),
/// which PostgreSQL matches only when the query says it exactly as the index does. A value of
/// any one column that holds the searched text makes this string hold it too, so `… ilike $12`
/// here narrows the rows with the index. The columns are joined by a unit separator (U+001F):
/// a text without one cannot match across two columns, so for a role that sees payers this
/// string's `ilike` decides alone; otherwise the columns' own `ilike` (without the payer's)
/// decide. Saying each column's `ilike` again for every candidate cost as much as the rest of
/// a 365-day `summary` with a text (BENCHMARKS.md, issue 37).
///
/// The identifiers (reference, end-to-end id, txid) are matched whole instead (`$17`, through
/// their b-tree indexes): as trigrams, their random characters made the index's build take 80 %
/// of its time (21.6 s of 21.7 s for 1M payments, 4.1 s without them: BENCHMARKS.md), which
/// `replay --all` pays on every rebuild, to find a part of an id nobody types.
macro_rules! searchable_text {
    () => {
        "(coalesce(p.note, '') || E'\\x1f' || coalesce(p.void_reason, '') || E'\\x1f' \
          || coalesce(p.payer_name, '') || E'\\x1f' || coalesce(p.payer_document, '') \
          || E'\\x1f' || coalesce(p.payer_info, ''))"
    };
}

// The one WHERE of the screen: parameters $1 … $17 in [`bind`]'s order. The text is found in
// the payment's columns through the trigram index ([`searchable_text`]), and in the
// descriptions of the account's codes and links through the ids [`described`] read first (the
// text's index starts with the account and `paid_on`, so a period narrows its bitmap too: a
// 365-day `summary` with a common name kept a tenth of every account's payments of every year
// before, BENCHMARKS.md, issue 37): said
// as a join (`q.description ilike …`) or a subquery, PostgreSQL could not use the index for
// the other branch of the `or` and read the account's every payment.
//
// The period is also said as a `paid_at` range (the São Paulo days' first and last instants),
// always present so that even PostgreSQL's generic plan of this prepared statement reads only
// the period from `payments_account_paid_idx`: with `paid_on` alone (no index starts with it)
// a 7-day `summary` at 1M payments read the account's whole history, 70 ms and then 230 ms once
// the generic plan took over; 2–6 ms with the range (BENCHMARKS.md, issue 37). `paid_on` is the
// São Paulo day of `paid_at`, so the two say the same.
pub(super) const FROM_WHERE: &str = concat!(
    "from payments p
      left join qrcodes q on q.qrcode_id = p.qrcode_id and q.owner_id = p.account_id
      left join payment_links l on l.link_id = p.payment_link_id and l.owner_id = p.account_id
     where p.account_id = $1
       and ($2::text is null or q.created_by = $2)
       and ($3::uuid is null or p.qrcode_id = $3)
       and ($4::text is null
            or ($4 = 'sem' and p.qrcode_id is null and p.payment_link_id is null)
            or ($4 = 'links' and p.payment_link_id is not null))
       and ($5::uuid is null or q.key_id = $5
            or p.pix_key = (select k.pix_key from pix_keys k
                             where k.key_id = $5 and k.account_id = p.account_id))
       and p.paid_at >= coalesce($6::date::timestamp at time zone 'America/Sao_Paulo', '-infinity')
       and p.paid_at < coalesce(($7::date + 1)::timestamp at time zone 'America/Sao_Paulo', 'infinity')
       and ($6::date is null or p.paid_on >= $6)
       and ($7::date is null or p.paid_on <= $7)
       and ($8::text is null or p.source = $8)
       and ($9::text is null
            or ($9 = 'received' and p.status = 'received')
            or ($9 = 'voided' and p.status = 'voided')
            or ($9 = 'refunded' and p.refunds <> '[]'::jsonb))
       and ($10::bigint is null or p.amount_centavos >= $10)
       and ($11::bigint is null or p.amount_centavos <= $11)
       and ($12::text is null
            or (",
    searchable_text!(),
    " ilike $12
                and (($14::boolean and strpos($12, E'\\x1f') = 0)
                     or p.note ilike $12 or p.void_reason ilike $12
                     or ($14::boolean and (p.payer_name ilike $12 or p.payer_document ilike $12
                                           or p.payer_info ilike $12))))
            or p.reference = any($17::text[]) or p.end_to_end_id = any($17::text[])
            or p.txid = any($17::text[])
            or p.qrcode_id = any($15::uuid[]) or p.payment_link_id = any($16::uuid[])
            or ($13::bigint is not null and p.amount_centavos = $13))"
);

pub(super) fn pattern(text: Option<&str>) -> Option<String> {
    text.map(|text| {
        let escaped = text
            .replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_");
        format!("%{escaped}%")
    })
}

/// The account's codes and payment links whose description holds the search's text (none
/// without a text): `$15` and `$16` of [`FROM_WHERE`].
#[derive(Debug, Default, Clone)]
pub(super) struct Described {
    pub(super) codes: Vec<Uuid>,
    pub(super) links: Vec<Uuid>,
}

pub(super) async fn described<'e>(
    executor: impl PgExecutor<'e>,
    account_id: Uuid,
    search: &Search,
) -> Result<Described, Error> {
    let Some(pattern) = pattern(search.text.as_deref()) else {
        return Ok(Described::default());
    };
    let (codes, links) = sqlx::query_as(
        "select array(select qrcode_id from qrcodes
                       where owner_id = $1 and description ilike $2),
                array(select link_id from payment_links
                       where owner_id = $1 and description ilike $2)",
    )
    .bind(account_id)
    .bind(pattern)
    .fetch_one(executor)
    .await?;
    Ok(Described { codes, links })
}

/// Binds `$1` … `$17` of [`FROM_WHERE`] to a `sqlx` query (a `query_as` for the list and the
/// sums, a plain `query` for the CSV's borrowed rows): a macro because the two are different
/// types with the same `bind`.
///
/// Unnamed (`persistent(false)`), so planned with this search's values (a custom plan) each
/// time: the filters that are off fold away, and what is left can use its index (the link's,
/// the code's, the text's trigrams). A prepared statement's generic plan, which PostgreSQL
/// takes after five runs, keeps every `$n is null or …` and reads the account's payments in
/// `paid_at` order whatever the filter: 1.9 s for a text found nowhere at 1M payments (issue
/// 37, BENCHMARKS.md). Planning costs about a millisecond.
macro_rules! bind_search {
    ($query:expr, $account_id:expr, $search:expr, $described:expr) => {{
        let search: &Search = $search;
        let described: Described = $described;
        let code = match search.code {
            CodeFilter::Code(id) => Some(id),
            CodeFilter::Any | CodeFilter::Without | CodeFilter::Links => None,
        };
        $query
            .persistent(false)
            .bind($account_id)
            .bind(search.created_by.clone())
            .bind(code)
            .bind(search.code.kind())
            .bind(search.key_id)
            .bind(search.from)
            .bind(search.to)
            .bind(search.source.clone())
            .bind(search.status.map(StatusFilter::as_str))
            .bind(search.min_centavos)
            .bind(search.max_centavos)
            .bind(pattern(search.text.as_deref()))
            .bind(search.text_centavos)
            .bind(search.text_in_payer)
            .bind(described.codes)
            .bind(described.links)
            .bind(identifiers(search.text.as_deref()))
    }};
}
pub(super) use bind_search;

fn bind<'q, O>(
    query: QueryAs<'q, Postgres, O, PgArguments>,
    account_id: Uuid,
    search: &Search,
    described: Described,
) -> QueryAs<'q, Postgres, O, PgArguments> {
    bind_search!(query, account_id, search, described)
}

/// `$17` of [`FROM_WHERE`]: the text as an identifier may be written: as typed, in upper case
/// (end-to-end ids are) and in lower case (a txid may be).
pub(super) fn identifiers(text: Option<&str>) -> Vec<String> {
    let Some(typed) = text.map(str::trim).filter(|t| !t.is_empty()) else {
        return Vec::new();
    };
    let mut all = vec![typed.to_owned(), typed.to_uppercase(), typed.to_lowercase()];
    all.sort();
    all.dedup();
    all
}

/// At most `limit` payments the search finds, newest payment first (then by reference), after
/// `after` when given.
pub async fn page<'e, E>(
    executor: E,
    account_id: Uuid,
    search: &Search,
    after: Option<&Cursor>,
    limit: i64,
) -> Result<Vec<Found>, Error>
where
    E: PgExecutor<'e> + Copy,
{
    let described = described(executor, account_id, search).await?;
    let columns = super::COLUMNS
        .split(',')
        .map(|c| format!("p.{}", c.trim()))
        .collect::<Vec<_>>()
        .join(", ");
    let query = sqlx::query_as(AssertSqlSafe(format!(
        "select {columns}, q.description as code_description, l.description as link_description,
                to_char(p.paid_at at time zone 'America/Sao_Paulo', 'DD/MM/YYYY HH24:MI')
                    as paid_at_local
           {FROM_WHERE}
            and ($18::timestamptz is null or (p.paid_at, p.reference) < ($18, $19::text))
          order by p.paid_at desc, p.reference desc
          limit $20"
    )));
    Ok(bind(query, account_id, search, described)
        .bind(after.map(|(at, _)| *at))
        .bind(after.map(|(_, reference)| reference.as_str()))
        .bind(limit)
        .fetch_all(executor)
        .await?)
}

/// The search's payments summed per São Paulo day, oldest first; only days with a payment:
/// from `payment_day_totals` when it holds every value the search filters on
/// ([`Search::summed_by_day`]), else from the payments themselves ([`summary_of_rows`]). The
/// two answer the same (a test compares them).
pub async fn summary<'e, E>(
    executor: E,
    account_id: Uuid,
    search: &Search,
) -> Result<Vec<DaySummary>, Error>
where
    E: PgExecutor<'e> + Copy,
{
    if search.summed_by_day() {
        summary_of_days(executor, account_id, search).await
    } else if search.summed_by_amount() {
        summary_of_amounts(executor, account_id, search).await
    } else {
        summary_of_rows(executor, account_id, search).await
    }
}

impl Search {
    /// Whether `payment_day_totals` can answer this search's sums: it has every value the
    /// screen filters on but the amount and the text.
    pub fn summed_by_day(&self) -> bool {
        self.min_centavos.is_none() && self.max_centavos.is_none() && self.text.is_none()
    }

    /// Whether [`summary_of_amounts`] can answer this search's sums: an amount range with at
    /// most a period and a status besides.
    pub fn summed_by_amount(&self) -> bool {
        (self.min_centavos.is_some() || self.max_centavos.is_some())
            && self.text.is_none()
            && self.created_by.is_none()
            && self.code == CodeFilter::Any
            && self.key_id.is_none()
            && self.source.is_none()
    }
}

/// [`summary`] from `payment_day_totals`, with the filters of `FROM_WHERE` that do not read
/// the amount or the text, said of its rows. The period is said as a range that is always
/// there (`-infinity` … `infinity` when open), so even the prepared statement's generic plan
/// reads only the period's days of the account from the key's index.
///
/// # Panics
///
/// In debug builds, for a search with an amount range or a text, which the table cannot
/// answer: [`summary_of_rows`] sums those.
pub async fn summary_of_days<'e>(
    executor: impl PgExecutor<'e>,
    account_id: Uuid,
    search: &Search,
) -> Result<Vec<DaySummary>, Error> {
    debug_assert!(search.summed_by_day());
    let code = match search.code {
        CodeFilter::Code(id) => Some(id),
        CodeFilter::Any | CodeFilter::Without | CodeFilter::Links => None,
    };
    Ok(sqlx::query_as(
        "select t.day,
                coalesce(sum(t.payments) filter (where t.status = 'received'), 0)::bigint
                    as payments,
                coalesce(sum(t.amount_centavos) filter (where t.status = 'received'), 0)::bigint
                    as received_centavos,
                coalesce(sum(t.refunded_centavos) filter (where t.status = 'received'), 0)::bigint
                    as refunded_centavos,
                coalesce(sum(t.payments) filter (where t.status = 'voided'), 0)::bigint as voided
           from payment_day_totals t
           left join qrcodes q on q.qrcode_id = t.qrcode_id and q.owner_id = t.account_id
          where t.account_id = $1
            and t.day >= coalesce($6::date, '-infinity'::date)
            and t.day <= coalesce($7::date, 'infinity'::date)
            and ($2::text is null or q.created_by = $2)
            and ($3::uuid is null or t.qrcode_id = $3)
            and ($4::text is null
                 or ($4 = 'sem' and t.qrcode_id is null and not t.via_link)
                 or ($4 = 'links' and t.via_link))
            and ($5::uuid is null or q.key_id = $5
                 or t.pix_key = (select k.pix_key from pix_keys k
                                  where k.key_id = $5 and k.account_id = t.account_id))
            and ($8::text is null or t.source = $8)
            and ($9::text is null
                 or ($9 = 'received' and t.status = 'received')
                 or ($9 = 'voided' and t.status = 'voided')
                 or ($9 = 'refunded' and t.refund_reported))
          group by t.day
          order by t.day",
    )
    .bind(account_id)
    .bind(search.created_by.as_deref())
    .bind(code)
    .bind(search.code.kind())
    .bind(search.key_id)
    .bind(search.from)
    .bind(search.to)
    .bind(search.source.as_deref())
    .bind(search.status.map(StatusFilter::as_str))
    .fetch_all(executor)
    .await?)
}

/// [`summary`] for an amount range with at most a period and a status
/// ([`Search::summed_by_amount`]): the same sums as [`summary_of_rows`], said of the `payments`
/// columns alone, so that PostgreSQL reads them from `payments_account_paid_idx`, which carries
/// them (migration `0031`), without the table (an index-only scan, wherever the visibility map
/// says a page is all visible). `FROM_WHERE`'s joins, though removed from the plan when no
/// filter reads them, still made PostgreSQL read every row from the table: 141 / 249 ms (p50 /
/// p99) for 365 days at 1M payments before (issue 37, BENCHMARKS.md).
///
/// # Panics
///
/// In debug builds, for a search it cannot answer: [`summary_of_rows`] sums those.
pub async fn summary_of_amounts<'e>(
    executor: impl PgExecutor<'e>,
    account_id: Uuid,
    search: &Search,
) -> Result<Vec<DaySummary>, Error> {
    debug_assert!(search.summed_by_amount());
    // Unnamed, so planned with this search's values, as [`bind`] says.
    Ok(sqlx::query_as(
        "select p.paid_on as day,
                count(*) filter (where p.status = 'received') as payments,
                coalesce(sum(p.amount_centavos) filter (where p.status = 'received'), 0)::bigint
                    as received_centavos,
                coalesce(sum(p.refunded_centavos) filter (where p.status = 'received'), 0)::bigint
                    as refunded_centavos,
                count(*) filter (where p.status = 'voided') as voided
           from payments p
          where p.account_id = $1
            and p.paid_at >= coalesce($2::date::timestamp at time zone 'America/Sao_Paulo',
                                      '-infinity')
            and p.paid_at < coalesce(($3::date + 1)::timestamp at time zone 'America/Sao_Paulo',
                                     'infinity')
            and ($2::date is null or p.paid_on >= $2)
            and ($3::date is null or p.paid_on <= $3)
            and ($4::text is null
                 or ($4 = 'received' and p.status = 'received')
                 or ($4 = 'voided' and p.status = 'voided')
                 or ($4 = 'refunded' and p.refunds <> '[]'::jsonb))
            and ($5::bigint is null or p.amount_centavos >= $5)
            and ($6::bigint is null or p.amount_centavos <= $6)
          group by p.paid_on
          order by p.paid_on",
    )
    .persistent(false)
    .bind(account_id)
    .bind(search.from)
    .bind(search.to)
    .bind(search.status.map(StatusFilter::as_str))
    .bind(search.min_centavos)
    .bind(search.max_centavos)
    .fetch_all(executor)
    .await?)
}

/// [`summary`] summed from the `payments` rows [`page`] finds, one by one: for any search (the
/// only way for an amount range or a text).
pub async fn summary_of_rows<'e, E>(
    executor: E,
    account_id: Uuid,
    search: &Search,
) -> Result<Vec<DaySummary>, Error>
where
    E: PgExecutor<'e> + Copy,
{
    let described = described(executor, account_id, search).await?;
    let query = sqlx::query_as(AssertSqlSafe(format!(
        "select p.paid_on as day,
                count(*) filter (where p.status = 'received') as payments,
                coalesce(sum(p.amount_centavos) filter (where p.status = 'received'), 0)::bigint
                    as received_centavos,
                coalesce(sum(p.refunded_centavos) filter (where p.status = 'received'), 0)::bigint
                    as refunded_centavos,
                count(*) filter (where p.status = 'voided') as voided
           {FROM_WHERE}
          group by p.paid_on
          order by p.paid_on"
    )));
    Ok(bind(query, account_id, search, described)
        .fetch_all(executor)
        .await?)
}
