//! The plans of the accounts making QR codes, kept in memory between requests so that a
//! creation does not read the account's subscription stream every time.
//!
//! A kept plan is never trusted on its own: it carries the version of the subscription stream
//! it was read at, and the creation's count checks that version in its own statement
//! ([`commands::qrcode_usage::PlanAsRead`]). When the stream has moved (an upgrade, a renewal,
//! an expiry recorded, in this process or any other), the command refuses with
//! [`CommandError::PlanChanged`], nothing is written, and [`PlanReadings`] reads the stream
//! again and retries. What the plan is *at a given instant* (a paid period ending) is computed
//! from the kept [`PlanSchedule`] at each request, so time alone never makes it stale.

use std::collections::HashMap;
use std::sync::Mutex;

use chrono::Utc;
use commands::qrcode_usage::PlanAsRead;
use commands::{CommandError, CommandService};
use domain::subscription::{PlanSchedule, Subscription, SubscriptionError};
use uuid::Uuid;

/// Accounts kept at most; past it the map is emptied and refilled by the next requests (a
/// bound on memory, not a cache policy worth tuning: a reading costs one indexed query).
const CAPACITY: usize = 10_000;

/// How many times a creation reads the plan again after [`CommandError::PlanChanged`] before
/// answering 409 (each needs a subscription change between the reading and the count).
pub const READINGS: u32 = 3;

/// What is kept of one account's subscription.
#[derive(Debug, Clone, Copy)]
struct Kept {
    version: i64,
    schedule: PlanSchedule,
}

impl Kept {
    fn now(self) -> PlanAsRead {
        PlanAsRead {
            plan: self.schedule.plan_at(Utc::now()),
            version: self.version,
        }
    }
}

/// The kept plans of one gateway process.
#[derive(Debug, Default)]
pub struct KeptPlans {
    accounts: Mutex<HashMap<Uuid, Kept>>,
}

impl KeptPlans {
    /// The plan of `account` in force now, with the version it was read at: from memory when
    /// kept, else read from the log and kept.
    ///
    /// # Errors
    ///
    /// When PostgreSQL fails.
    pub async fn read(
        &self,
        subscriptions: &CommandService<Subscription>,
        account: Uuid,
    ) -> Result<PlanAsRead, CommandError<SubscriptionError>> {
        let kept = self.lock().get(&account).copied();
        match kept {
            Some(kept) => Ok(kept.now()),
            None => self.read_again(subscriptions, account).await,
        }
    }

    /// Reads `account`'s subscription from the log and keeps what it says.
    ///
    /// # Errors
    ///
    /// When PostgreSQL fails.
    pub async fn read_again(
        &self,
        subscriptions: &CommandService<Subscription>,
        account: Uuid,
    ) -> Result<PlanAsRead, CommandError<SubscriptionError>> {
        let loaded = subscriptions
            .load(&account.hyphenated().to_string())
            .await?;
        let kept = Kept {
            version: loaded.version,
            schedule: loaded.aggregate.schedule(),
        };
        let mut accounts = self.lock();
        if accounts.len() >= CAPACITY && !accounts.contains_key(&account) {
            accounts.clear();
        }
        // The reading just made replaces whatever was kept, even a later version a concurrent
        // request kept meanwhile: that costs at most one more reading, whereas keeping the higher
        // version would never heal if the log were ever restored to an earlier point.
        accounts.insert(account, kept);
        Ok(kept.now())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Uuid, Kept>> {
        // Nothing held under the lock can panic half-way; a poisoned map is still consistent.
        self.accounts
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The plan readings of one QR-code creation: the kept plan first; after the command answers
/// [`CommandError::PlanChanged`], the log's, up to [`READINGS`] times.
///
/// ```ignore
/// let mut plans = PlanReadings::new(&state.billing, account);
/// let created = loop {
///     let plan = plans.next().await?;
///     let answer = qrcodes::create(&state.qrcodes, new_code(plan), &metadata).await;
///     if let Some(created) = plans.settle(answer)? {
///         break created;
///     }
/// };
/// ```
pub struct PlanReadings<'a> {
    billing: &'a super::Billing,
    account: Uuid,
    readings: u32,
}

impl<'a> PlanReadings<'a> {
    /// No reading yet.
    pub fn new(billing: &'a super::Billing, account: Uuid) -> Self {
        PlanReadings {
            billing,
            account,
            readings: 0,
        }
    }

    /// The plan to try next: the kept one first, the log's after a change.
    ///
    /// # Errors
    ///
    /// 503/500 when reading the subscription fails.
    pub async fn next(&mut self) -> Result<PlanAsRead, CommandError<SubscriptionError>> {
        self.readings += 1;
        let billing = self.billing;
        if self.readings == 1 {
            billing.plans.read(&billing.commands, self.account).await
        } else {
            billing
                .plans
                .read_again(&billing.commands, self.account)
                .await
        }
    }

    /// The command's answer: `Some` when it is final (made, or refused as the API answers
    /// it), `None` when the plan changed under it and it should run again with
    /// [`next`](Self::next).
    ///
    /// # Errors
    ///
    /// The command's error as the API answers it (409 `conflict` once the plan changed under
    /// [`READINGS`] readings).
    pub fn settle<T, E: domain::refusal::Refusal>(
        &self,
        answer: Result<T, CommandError<E>>,
    ) -> Result<Option<T>, CommandError<E>> {
        match answer {
            Err(CommandError::PlanChanged) if self.readings < READINGS => Ok(None),
            other => other.map(Some),
        }
    }
}
