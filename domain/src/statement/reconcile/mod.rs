//! Reconciliation: what each Pix received in a statement is to the account.
//!
//! Given a read [`Statement`], the account's codes that can still be paid ([`CandidateCode`])
//! and the payments already recorded ([`RecordedPayment`]), [`reconcile`] decides, for every
//! Pix credit of the statement, in file order:
//!
//! | decision | when | what the import does |
//! |---|---|---|
//! | [`Decision::AlreadyImported`] | the line's key is already on a payment (this file, or one overlapping it, was imported) | nothing |
//! | [`Decision::Duplicate`] | the same payment was recorded by the webhook, the bank connection, the sandbox or by hand: same end-to-end id, or same amount, times within [`Rules::duplicate_window`] (same day in Brasília when the statement gives only the day), same key where both are known | links the line to it, adds nothing |
//! | [`Decision::Matched`] | one code fits: by txid ([`Confidence::Txid`]), else one fixed-amount code of that amount valid at that time ([`Confidence::AmountAndTime`]), else the only open-amount code valid then ([`Confidence::OpenAmount`], shown as the weakest) | records the payment for that code |
//! | [`Decision::Ambiguous`] | two or more codes fit equally | the review list: the owner picks one or "sem QR code" |
//! | [`Decision::Unmatched`] | no code fits | records it "sem QR code" |
//!
//! Each recorded payment absorbs at most one line (two equal Pix a minute apart are two
//! payments), the closest in time; a payment already linked to a line absorbs none. A payment
//! recorded from a statement is found again only by its line key, never by amount and time, for
//! the same reason. A single-use code matched by one line is not offered to the next.
//!
//! Keys: statement lines do not name the Pix key paid. [`Book::statement_keys`] are the keys of
//! the bank account the statement is from, when the owner said; a code or payment whose key is
//! not among them is not this statement's. When either side is unknown, keys do not decide.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Duration, FixedOffset};

use super::{Statement, StatementLine};
use crate::money::Centavos;

#[cfg(test)]
mod tests;

/// A code of the account a Pix could have paid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CandidateCode {
    /// The code's id (QR code or payment link).
    pub id: String,
    /// Its txid, when it has one.
    pub txid: Option<String>,
    /// Its amount; `None` for an open amount (a printed sign, the payer types it).
    pub amount: Option<Centavos>,
    /// The Pix key it pays, DICT form.
    pub pix_key: Option<String>,
    /// When it was made: no payment to it can be older.
    pub created_at: DateTime<FixedOffset>,
    /// When it stops being payable, if ever.
    pub valid_until: Option<DateTime<FixedOffset>>,
    /// Paid once, then done: matched by one line at most.
    pub single_use: bool,
}

/// A payment the account already has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedPayment {
    /// Its stream reference.
    pub reference: String,
    /// The amount.
    pub amount: Centavos,
    /// When it was paid.
    pub paid_at: DateTime<FixedOffset>,
    /// The key it was paid to, when known.
    pub pix_key: Option<String>,
    /// The Pix end-to-end id, when known.
    pub end_to_end_id: Option<String>,
    /// True when a statement line recorded it (source `extrato`).
    pub from_statement: bool,
    /// The keys ([`line_key`]) of the statement lines recorded as or linked to it.
    pub statement_lines: Vec<String>,
}

/// What the account has, to reconcile a statement against.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Book {
    /// Codes that can still be paid.
    pub codes: Vec<CandidateCode>,
    /// Payments already recorded.
    pub payments: Vec<RecordedPayment>,
    /// The Pix keys of the bank account the statement is from; empty when unknown.
    pub statement_keys: Vec<String>,
}

/// How sure a match is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Confidence {
    /// The statement carries the code's txid.
    Txid,
    /// The only fixed-amount code of that amount, valid at that time.
    AmountAndTime,
    /// The only open-amount code valid at that time: likely, not certain.
    OpenAmount,
}

/// What one Pix credit of the statement is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Its key is already on this payment: imported before.
    AlreadyImported {
        /// The payment's reference.
        payment: String,
    },
    /// The same payment as this one, recorded another way: link, do not add.
    Duplicate {
        /// The payment's reference.
        payment: String,
    },
    /// A payment of this code.
    Matched {
        /// The code's id.
        code: String,
        /// How sure.
        confidence: Confidence,
    },
    /// Several codes fit: the owner decides.
    Ambiguous {
        /// The codes' ids, in the order given.
        candidates: Vec<String>,
    },
    /// No code fits: a payment "sem QR code".
    Unmatched,
}

/// One Pix credit and its decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reconciled<'a> {
    /// The line.
    pub line: &'a StatementLine,
    /// Its key across imports ([`line_key`]).
    pub key: String,
    /// What it is.
    pub decision: Decision,
}

/// Tolerances.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    /// How far apart a statement's time and a recorded payment's may be for the same Pix.
    pub duplicate_window: Duration,
    /// How far outside a code's validity a statement time may fall (bank clocks, settlement).
    pub validity_slack: Duration,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            duplicate_window: Duration::minutes(10),
            validity_slack: Duration::minutes(5),
        }
    }
}

/// The key of a line across imports: its [`super::LineId`], scoped by the bank account the
/// file names, since a `FITID` is unique only within one account.
pub fn line_key(statement: &Statement, line: &StatementLine) -> String {
    match &statement.account {
        Some(account) => format!("{account}#{}", line.id.key()),
        None => line.id.key(),
    }
}

/// Decides every Pix credit of `statement` (see the module doc).
pub fn reconcile<'a>(statement: &'a Statement, book: &Book, rules: Rules) -> Vec<Reconciled<'a>> {
    let lines: Vec<(&StatementLine, Centavos)> = statement
        .pix_credits()
        .filter_map(|l| l.credit().map(|amount| (l, amount)))
        .collect();
    let keys: Vec<String> = lines.iter().map(|(l, _)| line_key(statement, l)).collect();
    let mut decided: Vec<Option<Decision>> = vec![None; lines.len()];
    // A payment already linked to a line has its statement twin.
    let mut claimed: Vec<bool> = book
        .payments
        .iter()
        .map(|p| !p.statement_lines.is_empty())
        .collect();

    // Indexes, so a 100k-line file against a year of payments stays linear.
    let mut by_line_key: HashMap<&str, usize> = HashMap::new();
    let mut by_end_to_end: HashMap<&str, usize> = HashMap::new();
    let mut by_amount: HashMap<Centavos, Vec<(DateTime<FixedOffset>, usize)>> = HashMap::new();
    for (p, payment) in book.payments.iter().enumerate() {
        for key in &payment.statement_lines {
            by_line_key.entry(key.as_str()).or_insert(p);
        }
        if let Some(e2e) = &payment.end_to_end_id {
            by_end_to_end.entry(e2e.as_str()).or_insert(p);
        }
        if !payment.from_statement && key_fits(payment.pix_key.as_deref(), &book.statement_keys) {
            by_amount
                .entry(payment.amount)
                .or_default()
                .push((payment.paid_at, p));
        }
    }
    for times in by_amount.values_mut() {
        times.sort();
    }

    // 1. Imported before (by line key), or the same Pix by end-to-end id.
    for (i, (line, _)) in lines.iter().enumerate() {
        if let Some(&p) = by_line_key.get(keys[i].as_str()) {
            decided[i] = Some(Decision::AlreadyImported {
                payment: book.payments[p].reference.clone(),
            });
        } else if let Some(e2e) = &line.end_to_end_id
            && let Some(&p) = by_end_to_end.get(e2e.as_str())
        {
            claimed[p] = true;
            decided[i] = Some(Decision::Duplicate {
                payment: book.payments[p].reference.clone(),
            });
        }
    }

    // 2. The same Pix by amount, time and key: closest pairs first, each payment once.
    let mut pairs: Vec<(Duration, usize, usize)> = Vec::new();
    for (i, (line, amount)) in lines.iter().enumerate() {
        let Some(times) = by_amount.get(amount).filter(|_| decided[i].is_none()) else {
            continue;
        };
        let (from, to) = if line.posted.has_time {
            (
                line.posted.at - rules.duplicate_window,
                line.posted.at + rules.duplicate_window,
            )
        } else {
            (line.posted.at, line.posted.at + Duration::days(1))
        };
        let start = times.partition_point(|(t, _)| *t < from);
        for &(t, p) in times[start..].iter().take_while(|(t, _)| *t <= to) {
            if !claimed[p]
                && let Some(gap) = distance(line, t, rules)
            {
                pairs.push((gap, i, p));
            }
        }
    }
    pairs.sort();
    for (_, i, p) in pairs {
        if decided[i].is_none() && !claimed[p] {
            claimed[p] = true;
            decided[i] = Some(Decision::Duplicate {
                payment: book.payments[p].reference.clone(),
            });
        }
    }

    // 3. The rest against the codes, in file order (a single-use code is spent once).
    let codes = CodeIndex::new(book);
    let mut spent: HashSet<&str> = HashSet::new();
    for (i, (line, amount)) in lines.iter().enumerate() {
        if decided[i].is_some() {
            continue;
        }
        let usable = |code: &&CandidateCode| !(code.single_use && spent.contains(code.id.as_str()));
        let decision = codes.decide(line, *amount, rules, usable);
        if let Decision::Matched { code, .. } = &decision
            && let Some(c) = codes.single_use(code)
        {
            spent.insert(c);
        }
        decided[i] = Some(decision);
    }

    lines
        .into_iter()
        .zip(keys)
        .zip(decided)
        .map(|(((line, _), key), decision)| Reconciled {
            line,
            key,
            decision: decision.unwrap_or(Decision::Unmatched),
        })
        .collect()
}

/// How far `at` is from the line's posting, when within the duplicate window (or on the same
/// Brasília day for a line without a time).
fn distance(line: &StatementLine, at: DateTime<FixedOffset>, rules: Rules) -> Option<Duration> {
    let gap = (at - line.posted.at).abs();
    if line.posted.has_time {
        (gap <= rules.duplicate_window).then_some(gap)
    } else {
        let day = at.with_timezone(&super::brasilia()).date_naive();
        (day == line.posted.day_in_brasilia()).then_some(gap)
    }
}

fn key_fits(key: Option<&str>, statement_keys: &[String]) -> bool {
    match key {
        Some(key) if !statement_keys.is_empty() => statement_keys.iter().any(|k| k == key),
        _ => true,
    }
}

/// The account's codes by txid and by amount (open-amount codes apart), each list in the
/// order given; codes for another key than the statement's are left out.
struct CodeIndex<'b> {
    by_txid: HashMap<&'b str, Vec<&'b CandidateCode>>,
    by_amount: HashMap<Centavos, Vec<&'b CandidateCode>>,
    open: Vec<&'b CandidateCode>,
    single_use: HashSet<&'b str>,
}

impl<'b> CodeIndex<'b> {
    fn new(book: &'b Book) -> Self {
        let mut index = CodeIndex {
            by_txid: HashMap::new(),
            by_amount: HashMap::new(),
            open: Vec::new(),
            single_use: HashSet::new(),
        };
        for code in &book.codes {
            if !key_fits(code.pix_key.as_deref(), &book.statement_keys) {
                continue;
            }
            if code.single_use {
                index.single_use.insert(code.id.as_str());
            }
            if let Some(txid) = &code.txid {
                index.by_txid.entry(txid.as_str()).or_default().push(code);
            }
            match code.amount {
                Some(amount) => index.by_amount.entry(amount).or_default().push(code),
                None => index.open.push(code),
            }
        }
        index
    }

    fn single_use(&self, id: &str) -> Option<&'b str> {
        self.single_use.get(id).copied()
    }

    fn decide(
        &self,
        line: &StatementLine,
        amount: Centavos,
        rules: Rules,
        usable: impl Fn(&&CandidateCode) -> bool,
    ) -> Decision {
        if let Some(code) = line
            .txid
            .as_deref()
            .and_then(|txid| self.by_txid.get(txid))
            .and_then(|codes| codes.iter().find(|c| usable(c)))
        {
            return Decision::Matched {
                code: code.id.clone(),
                confidence: Confidence::Txid,
            };
        }
        let fitting = |codes: &[&'b CandidateCode]| -> Vec<&'b CandidateCode> {
            codes
                .iter()
                .copied()
                .filter(|c| usable(c) && valid_at(c, line, rules))
                .collect()
        };
        let fixed = fitting(self.by_amount.get(&amount).map_or(&[], Vec::as_slice));
        let open = fitting(&self.open);
        for (fitting, confidence) in [
            (fixed, Confidence::AmountAndTime),
            (open, Confidence::OpenAmount),
        ] {
            match fitting.as_slice() {
                [] => {}
                [one] => {
                    return Decision::Matched {
                        code: one.id.clone(),
                        confidence,
                    };
                }
                several => {
                    return Decision::Ambiguous {
                        candidates: several.iter().map(|c| c.id.clone()).collect(),
                    };
                }
            }
        }
        Decision::Unmatched
    }
}

/// Whether the code could be paid when the line was posted (any time that day, for a line
/// without a time), give or take the slack.
fn valid_at(code: &CandidateCode, line: &StatementLine, rules: Rules) -> bool {
    let (earliest, latest) = if line.posted.has_time {
        (line.posted.at, line.posted.at)
    } else {
        (line.posted.at, line.posted.at + Duration::days(1))
    };
    latest + rules.validity_slack >= code.created_at
        && code
            .valid_until
            .is_none_or(|until| earliest - rules.validity_slack <= until)
}
