//! `Effects`: the writes outside the event log that a command needs, done in the same PostgreSQL
//! transaction as its append, so nothing is ever half-written.
//!
//! [`CommandService::execute_with`](crate::service::CommandService::execute_with) runs
//! `begin; <effects, in the order added>; <the append statement>; commit`. The effects therefore
//! take effect exactly when the command's events do: a rejected command, a lost version race
//! (decided again from scratch) or a refused effect rolls everything back.
//!
//! Things an effect *makes* whose secret the caller needs afterwards (an action code for a
//! link, a session's refresh token for the cookie) are drawn before the command
//! ([`ActionCode::generate`], [`NewSession::generate`]) and handed in; the effect stores only
//! what the tables keep (hashes). Once `execute_with` has answered `Ok`, they are committed: the
//! answer, or the e-mail sent after the commit, can carry them. What cannot be part of a
//! transaction (sending the e-mail) stays after it.

use std::time::Duration;

use sqlx::PgConnection;

use crate::action_codes::{self, ActionCode, Purpose, code_hash};
use crate::bank_credentials::{self, SealedBankCredentials};
use crate::claims::is_digest;
use crate::qrcode_usage::{self, ClaimRow, Counted, PlanAsRead};
use crate::sessions::{self, NewSession};
use crate::vault::AccountKey;

/// The effects of one command, in the order they run. Build with the chained methods:
///
/// ```
/// use commands::Effects;
/// use commands::action_codes::Purpose;
/// use commands::claims::{EMAIL_SCOPE, digest, normalise_email};
/// use commands::vault::AccountKey;
///
/// let account_id = "0196a1b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b";
/// let key = AccountKey::generate(account_id);
/// let effects = Effects::new()
///     .claim(EMAIL_SCOPE, digest(&normalise_email(" Maria@Exemplo.com ")), account_id)
///     .store_key(&key);
/// assert_eq!(effects.len(), 2);
/// ```
///
/// `Debug` shows neither key bytes, nor action codes (codes are kept only as their SHA-256),
/// nor refresh tokens.
#[derive(Debug, Clone, Default)]
#[must_use]
pub struct Effects {
    steps: Vec<Effect>,
}

#[derive(Debug, Clone)]
enum Effect {
    Claim {
        scope: String,
        value: String,
        owner: String,
    },
    ClaimMany {
        scope: String,
        values: Vec<String>,
        owners: Vec<String>,
    },
    Release {
        scope: String,
        value: String,
    },
    ReleaseAll {
        owner: String,
    },
    StoreKey(AccountKey),
    ShredKey {
        account_id: String,
    },
    ConsumeActionCode {
        code_hash: Vec<u8>,
        purpose: Purpose,
    },
    IssueActionCode {
        code_hash: Vec<u8>,
        purpose: Purpose,
        payload: serde_json::Value,
        ttl: Duration,
    },
    ForgetActionCodes {
        account_id: String,
    },
    StartSession(NewSession),
    DeleteSessions {
        account_id: String,
    },
    DeletePhoto {
        account_id: String,
    },
    StoreBankCredentials(Box<SealedBankCredentials>),
    ForgetBankCredentials {
        account_id: uuid::Uuid,
        key_id: uuid::Uuid,
    },
    ForgetAllBankCredentials {
        account_id: String,
    },
    FollowRefund {
        refund: Box<crate::bank_refunds::FollowedRefund>,
        first_attempt_at: chrono::DateTime<chrono::Utc>,
    },
    CountQrCodes {
        account_id: String,
        made_at: String,
        codes: u32,
        limit: Option<PlanAsRead>,
    },
}

/// Why the effects did not all apply (the transaction is then rolled back).
#[derive(Debug)]
pub(crate) enum EffectFailure {
    /// A claim's `(scope, value)` is already held.
    ClaimTaken { scope: String },
    /// The action code is not valid for this purpose and stream.
    ActionCodeExpired,
    /// The account already has a key: another command set this stream up first.
    KeyExists,
    /// The month's count of codes would pass its limit; `had` is the count before this command.
    LimitReached { had: u32 },
    /// The account's subscription moved past the version its limit was read at.
    PlanChanged,
    /// PostgreSQL failed.
    Storage(sqlx::Error),
}

impl From<sqlx::Error> for EffectFailure {
    fn from(error: sqlx::Error) -> Self {
        EffectFailure::Storage(error)
    }
}

impl Effects {
    /// No effects.
    pub fn new() -> Self {
        Effects::default()
    }

    /// Whether there is no effect to run (then `execute_with` is plain `execute_expecting`).
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// How many effects there are.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// Claims `value` in `scope` for `owner` (normally the command's stream id).
    ///
    /// `value` is the digest of the normalised value ([`claims::digest`](crate::claims::digest)),
    /// never the plain value. When `(scope, value)` is already held, by anyone (this owner
    /// included), the command fails with [`CommandError::ClaimTaken`](crate::error::CommandError::ClaimTaken)
    /// and leaves nothing. Of concurrent commands claiming the same value, exactly one succeeds:
    /// the others wait for it to commit, then fail.
    ///
    /// # Panics
    ///
    /// In debug builds, when `value` is not shaped like a digest (64 lower-case hex digits), to
    /// catch a plain value on its way into the table.
    pub fn claim(
        mut self,
        scope: impl Into<String>,
        value: impl Into<String>,
        owner: impl Into<String>,
    ) -> Self {
        let value = value.into();
        debug_assert!(
            is_digest(&value),
            "claims hold digests (claims::digest), never plain values"
        );
        self.steps.push(Effect::Claim {
            scope: scope.into(),
            value,
            owner: owner.into(),
        });
        self
    }

    /// Claims every `(value, owner)` pair in `scope` with one statement (a batch's txids): as
    /// [`claim`](Self::claim) for each, and the command fails with
    /// [`CommandError::ClaimTaken`](crate::error::CommandError::ClaimTaken) when any value is already
    /// held or appears twice in `pairs`.
    ///
    /// # Panics
    ///
    /// In debug builds, when a value is not shaped like a digest.
    pub fn claim_many(
        mut self,
        scope: impl Into<String>,
        pairs: impl IntoIterator<Item = (String, String)>,
    ) -> Self {
        let (values, owners): (Vec<String>, Vec<String>) = pairs.into_iter().unzip();
        debug_assert!(
            values.iter().all(|v| is_digest(v)),
            "claims hold digests (claims::digest), never plain values"
        );
        self.steps.push(Effect::ClaimMany {
            scope: scope.into(),
            values,
            owners,
        });
        self
    }

    /// Releases the claim on `value` (a digest) in `scope` if this command's stream holds it;
    /// a claim held by another stream, or none, is left as it is.
    pub fn release(mut self, scope: impl Into<String>, value: impl Into<String>) -> Self {
        self.steps.push(Effect::Release {
            scope: scope.into(),
            value: value.into(),
        });
        self
    }

    /// Releases every claim `owner` holds, in every scope (e.g. when the account is deleted).
    pub fn release_all(mut self, owner: impl Into<String>) -> Self {
        self.steps.push(Effect::ReleaseAll {
            owner: owner.into(),
        });
        self
    }

    /// Stores `key` as its account's key (with the command that opens the account).
    ///
    /// An account never gets a second key (that would make what the first sealed unreadable):
    /// when its key already exists, the command is treated as having lost the race for the
    /// stream and is decided again on the stream as it is now.
    pub fn store_key(mut self, key: &AccountKey) -> Self {
        self.steps.push(Effect::StoreKey(key.clone()));
        self
    }

    /// Deletes the key of `account_id`: everything sealed with it becomes unreadable for good
    /// (crypto-shredding, with the command that deletes the account).
    pub fn shred_key(mut self, account_id: impl Into<String>) -> Self {
        self.steps.push(Effect::ShredKey {
            account_id: account_id.into(),
        });
        self
    }

    /// Spends the action `code` issued for `purpose` and for this command's stream (the account
    /// the code acts on). When it is unknown, already used, expired, of another purpose or for
    /// another account, the command fails with
    /// [`CommandError::ActionCodeExpired`](crate::error::CommandError::ActionCodeExpired) and leaves
    /// nothing; of concurrent commands spending the same code, at most one succeeds.
    pub fn consume_action_code(mut self, code: &str, purpose: Purpose) -> Self {
        self.steps.push(Effect::ConsumeActionCode {
            code_hash: code_hash(code),
            purpose,
        });
        self
    }

    /// Stores `code` as an action code for `purpose` and for this command's stream (the account
    /// the code acts on, as [`consume_action_code`](Self::consume_action_code) will check),
    /// carrying `payload` (seal personal values in it), valid for `ttl` from the commit's clock.
    ///
    /// The code exists exactly when the command's events do, so a link built from it after
    /// `execute_with` answered `Ok` always works, and a failed command leaves no code behind.
    /// A command repeated with a recorded idempotency key applies no effect: give such a command
    /// a code only if the original's e-mail is the one that counts.
    pub fn issue_action_code(
        mut self,
        code: &ActionCode,
        purpose: Purpose,
        payload: serde_json::Value,
        ttl: Duration,
    ) -> Self {
        self.steps.push(Effect::IssueActionCode {
            code_hash: code.hash(),
            purpose,
            payload,
            ttl,
        });
        self
    }

    /// Deletes every action code of `account_id`, used or not (e.g. when the account is
    /// deleted): no link sent to it works any more.
    pub fn forget_action_codes(mut self, account_id: impl Into<String>) -> Self {
        self.steps.push(Effect::ForgetActionCodes {
            account_id: account_id.into(),
        });
        self
    }

    /// Stores `session` (drawn with [`NewSession::generate`]) with its first refresh token, so
    /// the session a command answers with (sign-up's) exists exactly when its events do. As
    /// with [`issue_action_code`](Self::issue_action_code), an idempotent replay stores nothing.
    pub fn start_session(mut self, session: &NewSession) -> Self {
        self.steps.push(Effect::StartSession(session.clone()));
        self
    }

    /// Deletes every session of `account_id` with its refresh tokens (e.g. when the account is
    /// deleted): its access tokens stop working at once.
    pub fn delete_sessions(mut self, account_id: impl Into<String>) -> Self {
        self.steps.push(Effect::DeleteSessions {
            account_id: account_id.into(),
        });
        self
    }

    /// Deletes the profile photo of `account_id` (`account_photos`), if it has one.
    pub fn delete_photo(mut self, account_id: impl Into<String>) -> Self {
        self.steps.push(Effect::DeletePhoto {
            account_id: account_id.into(),
        });
        self
    }

    /// Writes a connected key's sealed bank credentials (replacing the ones it had), with the
    /// `BankConnected` event ([`bank_credentials`](crate::bank_credentials)).
    pub fn store_bank_credentials(mut self, credentials: SealedBankCredentials) -> Self {
        self.steps
            .push(Effect::StoreBankCredentials(Box::new(credentials)));
        self
    }

    /// Deletes a key's bank credentials, with the `BankDisconnected` event.
    pub fn forget_bank_credentials(mut self, account_id: uuid::Uuid, key_id: uuid::Uuid) -> Self {
        self.steps
            .push(Effect::ForgetBankCredentials { account_id, key_id });
        self
    }

    /// Follows a refund asked of the bank (`bank_refunds`), with its `PaymentRefundRequested`:
    /// first due at `first_attempt_at`.
    pub fn follow_refund(
        mut self,
        refund: crate::bank_refunds::FollowedRefund,
        first_attempt_at: chrono::DateTime<chrono::Utc>,
    ) -> Self {
        self.steps.push(Effect::FollowRefund {
            refund: Box::new(refund),
            first_attempt_at,
        });
        self
    }

    /// Deletes every bank credential of an account (its deletion; they are sealed with the key
    /// the deletion shreds, and go with it too), and the refunds it was following.
    pub fn forget_all_bank_credentials(mut self, account_id: impl Into<String>) -> Self {
        self.steps.push(Effect::ForgetAllBankCredentials {
            account_id: account_id.into(),
        });
        self
    }

    /// Counts `codes` QR codes made for `account_id` at `made_at` (RFC 3339) in that São Paulo
    /// month ([`qrcode_usage`](crate::qrcode_usage)). With a `limit` (the plan as read), the
    /// command fails and leaves nothing when the month's total would pass the plan's codes
    /// ([`CommandError::LimitReached`](crate::error::CommandError::LimitReached), carrying the count
    /// before it) or when the account's subscription is no longer at the version the limit was
    /// read at ([`CommandError::PlanChanged`](crate::error::CommandError::PlanChanged)).
    ///
    /// Add it first: the count's row stays locked until the command commits, so the account's
    /// other creations wait for this one and then count it. A command that takes no other row
    /// lock before it cannot deadlock on it. A [`claim`](Self::claim) added right after it is
    /// made by the count's own statement (one round trip fewer per creation).
    pub fn count_qrcodes(
        mut self,
        account_id: impl Into<String>,
        made_at: impl Into<String>,
        codes: u32,
        limit: Option<PlanAsRead>,
    ) -> Self {
        self.steps.push(Effect::CountQrCodes {
            account_id: account_id.into(),
            made_at: made_at.into(),
            codes,
            limit,
        });
        self
    }

    /// Runs every effect on `conn`, inside the caller's transaction, for stream `stream_id`.
    pub(crate) async fn apply(
        &self,
        conn: &mut PgConnection,
        stream_id: &str,
    ) -> Result<(), EffectFailure> {
        let mut steps = self.steps.iter().peekable();
        while let Some(step) = steps.next() {
            // A count followed by a claim (a QR code and its txid) is one statement.
            if let Effect::CountQrCodes {
                account_id,
                made_at,
                codes,
                limit,
            } = step
                && let Some(Effect::Claim {
                    scope,
                    value,
                    owner,
                }) = steps.peek()
            {
                let claim = ClaimRow {
                    scope,
                    value,
                    owner,
                };
                count(conn, account_id, made_at, *codes, *limit, Some(claim)).await?;
                steps.next();
                continue;
            }
            step.apply(conn, stream_id).await?;
        }
        Ok(())
    }
}

/// Counts `codes` (and makes `claim`, if given) as [`Effects::count_qrcodes`] says.
async fn count(
    conn: &mut PgConnection,
    account_id: &str,
    made_at: &str,
    codes: u32,
    limit: Option<PlanAsRead>,
    claim: Option<ClaimRow<'_>>,
) -> Result<(), EffectFailure> {
    let scope = claim.as_ref().map(|c| c.scope.to_owned());
    let plan_version = limit.map(|plan| plan.version);
    match qrcode_usage::add(conn, account_id, made_at, codes, plan_version, claim).await? {
        Counted::PlanChanged => Err(EffectFailure::PlanChanged),
        Counted::Added { total, .. }
            if limit.is_some_and(|plan| total > i64::from(plan.qrcodes_per_month())) =>
        {
            let had = total.saturating_sub(i64::from(codes));
            Err(EffectFailure::LimitReached {
                had: u32::try_from(had).unwrap_or(u32::MAX),
            })
        }
        Counted::Added { claimed: false, .. } => Err(EffectFailure::ClaimTaken {
            scope: scope.unwrap_or_default(),
        }),
        Counted::Added { .. } => Ok(()),
    }
}

impl Effect {
    async fn apply(&self, conn: &mut PgConnection, stream_id: &str) -> Result<(), EffectFailure> {
        match self {
            Effect::Claim {
                scope,
                value,
                owner,
            } => {
                // `on conflict do nothing` rather than catching the unique violation: the
                // transaction stays usable and the server log stays quiet. A concurrent insert of
                // the same key makes this wait for its transaction, then do nothing if it
                // committed.
                let inserted = sqlx::query(
                    "insert into unique_claims (scope, value, owner) values ($1, $2, $3)
                     on conflict (scope, value) do nothing",
                )
                .bind(scope)
                .bind(value)
                .bind(owner)
                .execute(&mut *conn)
                .await?;
                if inserted.rows_affected() == 0 {
                    return Err(EffectFailure::ClaimTaken {
                        scope: scope.clone(),
                    });
                }
            }
            Effect::ClaimMany {
                scope,
                values,
                owners,
            } => {
                // As `Claim`, for many rows in one round trip; a value repeated within the
                // batch is skipped by `on conflict` like one already held, so it is refused too.
                let inserted = sqlx::query(
                    "insert into unique_claims (scope, value, owner)
                     select $1, v.value, v.owner from unnest($2::text[], $3::text[]) as v(value, owner)
                     on conflict (scope, value) do nothing",
                )
                .bind(scope)
                .bind(values)
                .bind(owners)
                .execute(&mut *conn)
                .await?;
                if inserted.rows_affected() != values.len() as u64 {
                    return Err(EffectFailure::ClaimTaken {
                        scope: scope.clone(),
                    });
                }
            }
            Effect::Release { scope, value } => {
                sqlx::query(
                    "delete from unique_claims where scope = $1 and value = $2 and owner = $3",
                )
                .bind(scope)
                .bind(value)
                .bind(stream_id)
                .execute(&mut *conn)
                .await?;
            }
            Effect::ReleaseAll { owner } => {
                sqlx::query("delete from unique_claims where owner = $1")
                    .bind(owner)
                    .execute(&mut *conn)
                    .await?;
            }
            Effect::StoreKey(key) => {
                let inserted = sqlx::query(
                    "insert into account_keys (account_id, key) values ($1, $2)
                     on conflict (account_id) do nothing",
                )
                .bind(key.account_id())
                .bind(key.bytes())
                .execute(&mut *conn)
                .await?;
                if inserted.rows_affected() == 0 {
                    return Err(EffectFailure::KeyExists);
                }
            }
            Effect::ShredKey { account_id } => {
                sqlx::query("delete from account_keys where account_id = $1")
                    .bind(account_id)
                    .execute(&mut *conn)
                    .await?;
            }
            Effect::ConsumeActionCode { code_hash, purpose } => {
                let used = sqlx::query(
                    "update action_codes set used_at = now()
                      where code_hash = $1 and purpose = $2 and account_id = $3
                        and used_at is null and expires_at > now()",
                )
                .bind(code_hash)
                .bind(purpose.as_str())
                .bind(stream_id)
                .execute(&mut *conn)
                .await?;
                if used.rows_affected() == 0 {
                    return Err(EffectFailure::ActionCodeExpired);
                }
            }
            Effect::IssueActionCode {
                code_hash,
                purpose,
                payload,
                ttl,
            } => {
                action_codes::insert(&mut *conn, code_hash, stream_id, *purpose, payload, *ttl)
                    .await?;
            }
            Effect::ForgetActionCodes { account_id } => {
                action_codes::forget_account(&mut *conn, account_id).await?;
            }
            Effect::StartSession(session) => sessions::insert(conn, session).await?,
            Effect::DeleteSessions { account_id } => {
                sessions::forget_account(&mut *conn, account_id).await?;
            }
            Effect::DeletePhoto { account_id } => {
                // The photo's only other SQL is the upload and the `/fotos` page
                // (`gateway::api::workspace::photo`); erasing it belongs to the deletion.
                sqlx::query("delete from account_photos where account_id = $1")
                    .bind(account_id)
                    .execute(&mut *conn)
                    .await?;
            }
            Effect::StoreBankCredentials(credentials) => credentials.upsert(&mut *conn).await?,
            Effect::ForgetBankCredentials { account_id, key_id } => {
                bank_credentials::delete(&mut *conn, *account_id, *key_id).await?;
            }
            Effect::ForgetAllBankCredentials { account_id } => {
                bank_credentials::delete_account(&mut *conn, account_id).await?;
                crate::bank_refunds::delete_account(&mut *conn, account_id).await?;
            }
            Effect::FollowRefund {
                refund,
                first_attempt_at,
            } => crate::bank_refunds::insert(&mut *conn, refund, *first_attempt_at).await?,
            Effect::CountQrCodes {
                account_id,
                made_at,
                codes,
                limit,
            } => count(conn, account_id, made_at, *codes, *limit, None).await?,
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_shows_neither_the_key_nor_the_action_code() {
        let key = AccountKey::from_bytes("conta-1", &[0xab; crate::vault::KEY_LEN]).unwrap();
        let effects = Effects::new()
            .store_key(&key)
            .consume_action_code("codigo-secreto-do-link", Purpose::VerifyEmail);
        let shown = format!("{effects:?}");
        assert!(!shown.contains("171, 171"), "{shown}");
        assert!(!shown.contains("codigo-secreto"), "{shown}");
    }

    #[test]
    fn debug_shows_neither_an_issued_code_nor_a_refresh_token() {
        let code = ActionCode::generate();
        let session = NewSession::generate("conta-1", None);
        let effects = Effects::new()
            .issue_action_code(
                &code,
                Purpose::Invitation,
                serde_json::json!({}),
                Duration::from_secs(60),
            )
            .start_session(&session);
        let shown = format!("{effects:?}");
        assert!(!shown.contains(code.as_str()), "{shown}");
        assert!(!shown.contains(&session.refresh_token), "{shown}");
    }

    #[test]
    fn effects_keep_the_order_they_were_added_in() {
        let effects = Effects::new().release_all("conta-1").shred_key("conta-1");
        assert_eq!(effects.len(), 2);
        assert!(matches!(effects.steps[0], Effect::ReleaseAll { .. }));
        assert!(matches!(effects.steps[1], Effect::ShredKey { .. }));
        assert!(Effects::new().is_empty());
    }

    #[test]
    #[should_panic(expected = "never plain values")]
    #[cfg(debug_assertions)]
    fn claiming_a_plain_value_is_caught_in_debug_builds() {
        let _ = Effects::new().claim("email", "maria@exemplo.com", "conta-1");
    }
}
