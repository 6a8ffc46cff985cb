//! A statement line recorded without an end-to-end id, then the bank's report of the same Pix:
//! one payment, not two (issue 35).
//!
//! Many statements name no end-to-end id, so a line imported before the webhook (or the bank
//! connection, or the sandbox) reports its Pix is recorded on a stream of its own
//! (`extrato-…`), and the report, keyed by its end-to-end id, would find an empty stream and
//! record the money a second time. The write side prevents that without a read model:
//!
//! 1. When [`record_statement_batch`](super::statement_import::record_statement_batch) records
//!    such a line, it also claims it as *unconfirmed*: scope [`unconfirmed_scope`] (the account,
//!    the amount, and the ten-minute slot of the posting time, or the day in Brasília when the
//!    statement gives only the day), value `{unix seconds}:{digest of the line key}`, owner the
//!    payment's stream.
//! 2. When [`record_reports`](super::record_reports) is about to start a payment (the report's
//!    end-to-end id names a stream with no events), `take` looks for those claims of the same
//!    amount: a timed line within the reconciliation's duplicate window
//!    (`domain::statement::reconcile::Rules::duplicate_window`, the same rule the preview
//!    applies the other way round), the closest first, else a day-only line of the report's day
//!    in Brasília. The report then decides on that payment's stream: the aggregate confirms it
//!    and learns its end-to-end id. The claim is deleted (one report per line), and the
//!    end-to-end id is claimed as that payment's *alias* ([`alias_scope`]), so the bank's
//!    retries and refunds, a person typing the receipt and a later statement carrying the id
//!    land on the same stream (`aliases`).
//! 3. [`undo_statement_import`](super::statement_import::undo_statement_import) releases the
//!    unconfirmed claims of what it voids (`release`): a report after the undo is a payment of
//!    its own.
//!
//! 4. The other order, the bank first: a report that starts a payment of its own also claims it
//!    by amount and day ([`bank_scope`]), and a line about to be recorded without an end-to-end
//!    id first looks there (`bank_twins`): a payment of the same amount within the window (the
//!    same day for a day-only line) that no line is linked to yet is that line's, linked, not
//!    added, whatever the screen's read model showed.
//!
//! Both sides take the advisory lock of the amount's bucket (`amount_bucket`, one of
//! [`LOCK_BUCKETS`] per account, a lock space apart from the intake's stream buckets) for their
//! whole transaction: a line and a report of the same amount committing at the same moment
//! decide one after the other, and the second sees the first's claim. A batch of a thousand
//! lines names most buckets, so the account's webhook waits for it (a fifth of a second).
//!
//! Keys do not decide: a statement line does not name the key it was paid to.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use chrono::{DateTime, FixedOffset, Utc};
use domain::money::Centavos;
use domain::payment::{PaymentError, ReportPayment};
use domain::statement::posted::brasilia;
use domain::statement::reconcile::Rules;

use super::LOCK_BUCKETS;
use crate::claims::{self, digest};
use crate::store::AppendFailure;

/// Seconds in one slot of [`unconfirmed_scope`]: the duplicate window is ten minutes, so a
/// report looks in its own slot and the two beside it.
const SLOT_SECONDS: i64 = 600;

/// The scope of the account's statement payments of `amount` the bank has not reported, posted
/// in `slot`: `t` and the ten-minute slot since the epoch, or `d` and the day in Brasília.
///
/// ```
/// assert_eq!(
///     commands::payments::statement_twins::unconfirmed_scope("conta-1", 1250, "t2851200"),
///     "statement-unconfirmed:conta-1:1250:t2851200"
/// );
/// ```
pub fn unconfirmed_scope(account_id: &str, amount: u64, slot: &str) -> String {
    format!("statement-unconfirmed:{account_id}:{amount}:{slot}")
}

/// The scope of the account's end-to-end ids that name a payment recorded on another stream
/// (value the id's digest, owner that stream).
///
/// ```
/// assert_eq!(
///     commands::payments::statement_twins::alias_scope("conta-1"),
///     "payment-alias:conta-1"
/// );
/// ```
pub fn alias_scope(account_id: &str) -> String {
    format!("payment-alias:{account_id}")
}

/// The lock bucket of an amount, among the account's [`LOCK_BUCKETS`].
pub(crate) fn amount_bucket(amount: Centavos) -> i64 {
    i64::try_from(amount.get() % LOCK_BUCKETS.unsigned_abs()).unwrap_or(0)
}

fn timed_slot(at: DateTime<Utc>) -> String {
    format!("t{}", at.timestamp().div_euclid(SLOT_SECONDS))
}

fn day_slot(at: DateTime<FixedOffset>) -> String {
    format!("d{}", at.with_timezone(&brasilia()).date_naive())
}

/// The unconfirmed claim `(scope, value)` of a statement line recorded without an end-to-end
/// id: `paid_at` RFC 3339, `day_only` when the statement gave no time of day. `None` for a time
/// that does not parse (the import parsed it; never expected).
pub(crate) fn unconfirmed_claim(
    account_id: &str,
    amount: Centavos,
    paid_at: &str,
    day_only: bool,
    line_key: &str,
) -> Option<(String, String)> {
    let at = DateTime::parse_from_rfc3339(paid_at).ok()?;
    let slot = if day_only {
        day_slot(at)
    } else {
        timed_slot(at.with_timezone(&Utc))
    };
    Some((
        unconfirmed_scope(account_id, amount.get(), &slot),
        format!("{}:{}", at.timestamp(), digest(line_key)),
    ))
}

/// The payments the reports' end-to-end ids were linked to, by (account, end-to-end id): the
/// stream to decide each report on instead of its own. Read in the caller's transaction, after
/// its locks.
pub(crate) async fn aliases(
    tx: &mut sqlx::PgConnection,
    ids: &[(String, String)],
) -> Result<HashMap<(String, String), String>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let wanted: BTreeMap<(String, String), &(String, String)> = ids
        .iter()
        .map(|pair| ((alias_scope(&pair.0), digest(&pair.1)), pair))
        .collect();
    let (scopes, values): (Vec<String>, Vec<String>) = wanted.keys().cloned().unzip();
    let rows = claims::owners(tx, &scopes, &values).await?;
    Ok(rows
        .into_iter()
        .filter_map(|(scope, value, owner)| {
            let pair = wanted.get(&(scope, value))?;
            Some(((*pair).clone(), owner))
        })
        .collect())
}

/// A claim whose value starts with the unix seconds of what it stands for (`{seconds}:{…}`).
struct TimedClaim {
    scope: String,
    value: String,
    seconds: i64,
    owner: String,
}

/// The timed claims under `scopes`, read in `tx`, in (scope, value) order. Unnamed, as every
/// look-up of the intake: planned for its own scopes.
async fn timed_claims(
    tx: &mut sqlx::PgConnection,
    scopes: BTreeSet<String>,
) -> Result<Vec<TimedClaim>, sqlx::Error> {
    let scopes: Vec<String> = scopes.into_iter().collect();
    let rows: Vec<(String, String, String)> = sqlx::query_as(
        "select scope, value, owner from unique_claims
          where scope = any($1::text[]) order by scope, value",
    )
    .persistent(false)
    .bind(&scopes)
    .fetch_all(tx)
    .await?;
    Ok(rows
        .into_iter()
        .filter_map(|(scope, value, owner)| {
            let seconds = value.split(':').next()?.parse::<i64>().ok()?;
            Some(TimedClaim {
                scope,
                value,
                seconds,
                owner,
            })
        })
        .collect())
}

/// Gives out `(rank, claim, other)` pairs best rank first (ties by claim, then other), each
/// claim and each other side at most once: the closest pairs win, whatever order they came in.
fn closest_first<R: Ord>(mut pairs: Vec<(R, usize, usize)>) -> Vec<(usize, usize)> {
    pairs.sort();
    let mut claims: HashSet<usize> = HashSet::new();
    let mut others: HashSet<usize> = HashSet::new();
    let mut given = Vec::new();
    for (_, claim, other) in pairs {
        if !claims.contains(&claim) && !others.contains(&other) {
            claims.insert(claim);
            others.insert(other);
            given.push((claim, other));
        }
    }
    given
}

/// The indexes of `claims` under `scope`.
fn in_scope(claims: &[TimedClaim], scope: &str) -> Vec<usize> {
    claims
        .iter()
        .enumerate()
        .filter(|(_, c)| c.scope == scope)
        .map(|(i, _)| i)
        .collect()
}

/// A report about to start a payment on its own stream.
pub(crate) struct Fresh<'a> {
    /// The stream its end-to-end id names.
    pub stream_id: String,
    /// The report.
    pub report: &'a ReportPayment,
}

/// For each fresh report, the statement payment it is (see the module): that payment's stream,
/// by the report's own stream id. The claims taken are deleted and the aliases written in `tx`.
///
/// # Errors
///
/// [`AppendFailure::KeyTaken`] when another writer took a claim or an alias between the read
/// and the write (the caller decides again); storage errors.
pub(crate) async fn take(
    tx: &mut sqlx::PgConnection,
    fresh: &[Fresh<'_>],
) -> Result<HashMap<String, String>, AppendFailure<PaymentError>> {
    let window = Rules::default().duplicate_window.num_seconds();
    let mut wanted: BTreeSet<String> = BTreeSet::new();
    let mut times: Vec<Option<DateTime<FixedOffset>>> = Vec::with_capacity(fresh.len());
    for f in fresh {
        let at = DateTime::parse_from_rfc3339(&f.report.paid_at).ok();
        if let Some(at) = at {
            let account = &f.report.account_id;
            let amount = f.report.amount.get();
            let slot = at.timestamp().div_euclid(SLOT_SECONDS);
            for s in [slot - 1, slot, slot + 1] {
                wanted.insert(unconfirmed_scope(account, amount, &format!("t{s}")));
            }
            wanted.insert(unconfirmed_scope(account, amount, &day_slot(at)));
        }
        times.push(at);
    }
    if wanted.is_empty() {
        return Ok(HashMap::new());
    }
    let claims = timed_claims(tx, wanted).await?;
    if claims.is_empty() {
        return Ok(HashMap::new());
    }
    // Every (report, claim) pair that fits: a timed line within the window, by distance, or a
    // day-only line of the report's day in Brasília, after every timed one.
    let mut pairs: Vec<((u8, i64), usize, usize)> = Vec::new();
    for (n, (f, at)) in fresh.iter().zip(&times).enumerate() {
        let Some(at) = at else { continue };
        let account = &f.report.account_id;
        let amount = f.report.amount.get();
        let seconds = at.timestamp();
        let slot = seconds.div_euclid(SLOT_SECONDS);
        for s in [slot - 1, slot, slot + 1] {
            let scope = unconfirmed_scope(account, amount, &format!("t{s}"));
            for c in in_scope(&claims, &scope) {
                let distance = (claims[c].seconds - seconds).abs();
                if distance <= window {
                    pairs.push(((0, distance), c, n));
                }
            }
        }
        for c in in_scope(&claims, &unconfirmed_scope(account, amount, &day_slot(*at))) {
            pairs.push(((1, 0), c, n));
        }
    }
    let mut twins: HashMap<String, String> = HashMap::new();
    let mut taken: Vec<(String, String)> = Vec::new();
    let mut alias: Vec<(String, String, String)> = Vec::new();
    for (c, n) in closest_first(pairs) {
        let (claim, report) = (&claims[c], fresh[n].report);
        twins.insert(fresh[n].stream_id.clone(), claim.owner.clone());
        taken.push((claim.scope.clone(), claim.value.clone()));
        alias.push((
            alias_scope(&report.account_id),
            digest(&report.end_to_end_id),
            claim.owner.clone(),
        ));
    }
    if taken.is_empty() {
        return Ok(twins);
    }
    let (scopes, values): (Vec<String>, Vec<String>) = taken.into_iter().unzip();
    let deleted = sqlx::query(
        "delete from unique_claims c
          using unnest($1::text[], $2::text[]) as t(s, v)
          where c.scope = t.s and c.value = t.v",
    )
    .bind(&scopes)
    .bind(&values)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    let (alias_scopes, (alias_values, alias_owners)): (Vec<String>, (Vec<String>, Vec<String>)) =
        alias.into_iter().map(|(s, v, o)| (s, (v, o))).unzip();
    let inserted = claims::insert_many(tx, &alias_scopes, &alias_values, &alias_owners).await?;
    let expected = u64::try_from(values.len()).unwrap_or(u64::MAX);
    if deleted != expected || inserted != expected {
        return Err(AppendFailure::KeyTaken);
    }
    Ok(twins)
}

/// The scope of the account's payments of `amount` a bank reported on `day` (`d` and the day in
/// Brasília) that started a payment of their own: value `{unix seconds}:{digest of the
/// end-to-end id}`, owner the payment's stream. A statement line imported later finds its bank
/// payment here (`bank_twins`), whatever the `payments` read model holds; the claim stays
/// (a line linked to the payment is its `statement:` claim, which an undo releases).
///
/// ```
/// assert_eq!(
///     commands::payments::statement_twins::bank_scope("conta-1", 1250, "d2024-03-02"),
///     "statement-bank:conta-1:1250:d2024-03-02"
/// );
/// ```
pub fn bank_scope(account_id: &str, amount: u64, day: &str) -> String {
    format!("statement-bank:{account_id}:{amount}:{day}")
}

/// The claim `(scope, value, owner)` of a report that started a payment on `stream_id`.
pub(crate) fn bank_claim(
    report: &ReportPayment,
    stream_id: &str,
) -> Option<(String, String, String)> {
    let at = DateTime::parse_from_rfc3339(&report.paid_at).ok()?;
    Some((
        bank_scope(&report.account_id, report.amount.get(), &day_slot(at)),
        format!("{}:{}", at.timestamp(), digest(&report.end_to_end_id)),
        stream_id.to_owned(),
    ))
}

/// A statement line about to be recorded without an end-to-end id.
pub(crate) struct Awaiting {
    /// Its index in the batch.
    pub index: usize,
    /// The credit.
    pub amount: Centavos,
    /// When it was posted, RFC 3339.
    pub paid_at: String,
    /// The statement gave only the day.
    pub day_only: bool,
}

/// For each line, the bank payment it is, by the line's index: a payment of the same amount a
/// bank reported within the duplicate window of a timed line (the closest first) or on the day
/// of a day-only line, that no statement line is linked to yet. Read in `tx`, under the
/// amounts' locks.
pub(crate) async fn bank_twins(
    tx: &mut sqlx::PgConnection,
    account_id: &str,
    lines: &[Awaiting],
) -> Result<HashMap<usize, String>, sqlx::Error> {
    let window = Rules::default().duplicate_window;
    let mut times: Vec<Option<DateTime<FixedOffset>>> = Vec::with_capacity(lines.len());
    let mut wanted: BTreeSet<String> = BTreeSet::new();
    for line in lines {
        let at = DateTime::parse_from_rfc3339(&line.paid_at).ok();
        if let Some(at) = at {
            let amount = line.amount.get();
            if line.day_only {
                wanted.insert(bank_scope(account_id, amount, &day_slot(at)));
            } else {
                // The window may cross midnight in Brasília.
                for edge in [at - window, at + window] {
                    wanted.insert(bank_scope(account_id, amount, &day_slot(edge)));
                }
            }
        }
        times.push(at);
    }
    if wanted.is_empty() {
        return Ok(HashMap::new());
    }
    let claims = timed_claims(tx, wanted).await?;
    if claims.is_empty() {
        return Ok(HashMap::new());
    }
    // Payments a line is linked to already (by an earlier import) are not offered again.
    let owners: Vec<&str> = claims.iter().map(|c| c.owner.as_str()).collect();
    let linked: HashSet<String> = sqlx::query_scalar::<_, String>(
        "select distinct owner from unique_claims where scope = $1 and owner = any($2::text[])",
    )
    .persistent(false)
    .bind(super::statement_import::statement_scope(account_id))
    .bind(&owners)
    .fetch_all(&mut *tx)
    .await?
    .into_iter()
    .collect();
    let free = |scope: &str| -> Vec<usize> {
        in_scope(&claims, scope)
            .into_iter()
            .filter(|&c| !linked.contains(&claims[c].owner))
            .collect()
    };
    let seconds_window = window.num_seconds();
    let mut pairs: Vec<((u8, i64), usize, usize)> = Vec::new();
    for (line, at) in lines.iter().zip(&times) {
        let Some(at) = at else { continue };
        let amount = line.amount.get();
        if line.day_only {
            for c in free(&bank_scope(account_id, amount, &day_slot(*at))) {
                pairs.push(((1, 0), c, line.index));
            }
        } else {
            let days: BTreeSet<String> = [*at - window, *at + window]
                .iter()
                .map(|edge| day_slot(*edge))
                .collect();
            for day in days {
                for c in free(&bank_scope(account_id, amount, &day)) {
                    let distance = (claims[c].seconds - at.timestamp()).abs();
                    if distance <= seconds_window {
                        pairs.push(((0, distance), c, line.index));
                    }
                }
            }
        }
    }
    let twins: HashMap<usize, String> = closest_first(pairs)
        .into_iter()
        .map(|(c, index)| (index, claims[c].owner.clone()))
        .collect();
    Ok(twins)
}

/// Deletes the unconfirmed claims of `streams` in account `account_id`, in `tx`.
pub(crate) async fn release(
    tx: &mut sqlx::PgConnection,
    account_id: &str,
    streams: &[String],
) -> Result<u64, sqlx::Error> {
    if streams.is_empty() {
        return Ok(0);
    }
    Ok(sqlx::query(
        "delete from unique_claims
          where owner = any($1::text[]) and starts_with(scope, $2)",
    )
    .persistent(false)
    .bind(streams)
    .bind(format!("statement-unconfirmed:{account_id}:"))
    .execute(tx)
    .await?
    .rows_affected())
}
