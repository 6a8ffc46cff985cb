//! Making an account's QR codes: one code (typed or duplicated) and a batch.
//!
//! The gateway parses the request into [`StaticCodeRequest`]s (every problem at once, before
//! any command); these calls count the codes against the plan's monthly limit
//! ([`qrcode_usage`](crate::qrcode_usage): [`QrCodeError::PlanLimitReached`] past it) and claim
//! each code's txid in its account (`txid:<owner>`, by the digest of its upper-case form,
//! [`txid_claim`]) in the command's own transaction, so no month passes its limit and two codes
//! of one account never share a txid, and answer what was made. A txid the person typed that is
//! taken is [`QrCodeError::TxidTaken`]; a generated one that is (80 random bits: in practice
//! never) is drawn again.

use domain::brcode::StaticCodeRequest;
use domain::qrcode::txid::{generated_txid, uniqueness_key};
use domain::qrcode::{CreateAccountQrCode, CreateBankCharge, QrCode, QrCodeCommand, QrCodeError};
use domain::subscription::limits::PlanLimitReached;

use crate::claims::{digest, txid_scope};
use crate::effects::Effects;
use crate::error::CommandError;
use crate::expected_version::ExpectedVersion;
use crate::feed::FeedPosition;
use crate::metadata::CommandMetadata;
use crate::outcome::BatchOutcome;
use crate::qrcode_usage::PlanAsRead;
use crate::service::CommandService;
use crate::vault::random_bytes;

/// How many txids a creation with a generated txid tries before giving up.
pub const GENERATED_TXID_ATTEMPTS: usize = 3;

/// The claim of `txid` in its account: a digest of its upper-case form.
pub fn txid_claim(txid: &str) -> String {
    digest(&uniqueness_key(txid))
}

/// A fresh generated txid (80 random bits, in the engine's alphabet).
///
/// # Panics
///
/// If the operating system's random source fails.
pub fn fresh_txid() -> String {
    generated_txid(random_bytes())
}

/// One code to make in an account.
#[derive(Debug, Clone)]
pub struct NewCode {
    /// The command, its request carrying the txid to claim.
    pub create: CreateAccountQrCode,
    /// Whether the person typed the txid (a taken one is refused) or it was generated (a taken
    /// one is drawn again).
    pub txid_typed: bool,
    /// The account's plan as read for this request: its codes per month are the limit, and the
    /// count refuses with [`CommandError::PlanChanged`] if the subscription moved since.
    pub plan: PlanAsRead,
}

/// A committed code.
#[derive(Debug, Clone)]
pub struct Created {
    /// The code's id.
    pub qrcode_id: String,
    /// What was made (its txid the one finally claimed).
    pub request: StaticCodeRequest,
    /// Where the code's events are in the feed (read-your-writes).
    pub position: Option<FeedPosition>,
    /// The stored answer of an earlier request with the same idempotency key.
    pub replayed: bool,
}

/// Makes one code. `metadata` is called once per attempt (a fresh txid is a new attempt with
/// the same idempotency key).
///
/// # Errors
///
/// [`QrCodeError::TxidTaken`] for a typed txid the account already uses;
/// [`QrCodeError::PlanLimitReached`] when the month already has the plan's codes;
/// [`QrCodeError::IdempotencyKeyReused`] for an idempotency key sent before with other values;
/// the aggregate's refusals; storage failures.
pub async fn create(
    qrcodes: &CommandService<QrCode>,
    code: NewCode,
    metadata: impl Fn(&StaticCodeRequest) -> CommandMetadata,
) -> Result<Created, CommandError<QrCodeError>> {
    let NewCode {
        mut create,
        txid_typed,
        plan,
    } = code;
    let attempts = if txid_typed {
        1
    } else {
        GENERATED_TXID_ATTEMPTS
    };
    let qrcode_id = create.qrcode_id.clone();
    let scope = txid_scope(&create.owner_id);
    for attempt in 1..=attempts {
        let txid = create.request.txid.clone().unwrap_or_default();
        let effects = Effects::new()
            .count_qrcodes(&create.owner_id, &create.requested_at, 1, Some(plan))
            .claim(scope.clone(), txid_claim(&txid), qrcode_id.clone());
        let request = create.request.clone();
        match qrcodes
            .execute_with(
                &qrcode_id,
                QrCodeCommand::CreateAccountQrCode(create.clone()),
                ExpectedVersion::NoStream,
                metadata(&request),
                &effects,
            )
            .await
        {
            Ok(outcome) => {
                return Ok(Created {
                    qrcode_id,
                    request,
                    position: outcome.position,
                    replayed: outcome.replayed,
                });
            }
            Err(CommandError::ClaimTaken { .. }) if attempt < attempts => {
                create.request.txid = Some(fresh_txid());
            }
            Err(CommandError::ClaimTaken { .. }) => {
                return Err(CommandError::Rejected(QrCodeError::TxidTaken(txid)));
            }
            Err(CommandError::IdempotencyKeyConflict { .. }) => {
                return Err(CommandError::Rejected(QrCodeError::IdempotencyKeyReused));
            }
            Err(CommandError::LimitReached { .. }) => {
                return Err(CommandError::Rejected(QrCodeError::PlanLimitReached(
                    PlanLimitReached::qrcodes_per_month(plan.plan),
                )));
            }
            Err(other) => return Err(other),
        }
    }
    unreachable!("at least one attempt is made")
}

/// Records the dynamic code of a charge the account's bank made (`PUT /cob/{txid}` answered),
/// counted against the plan and with the charge's txid claimed in the account, as [`create`]
/// does for a code with a typed txid: the bank reports the payment with that txid, so it must
/// lead to this code alone.
///
/// The caller derives the code's id and the charge's txid from the request's idempotency key:
/// a retry after the bank answered (or after a crash here) asks the bank again for the same
/// charge and records it once; the stored answer of the first record is the retry's.
///
/// # Errors
///
/// [`QrCodeError::TxidTaken`] when the account already has a code with the txid;
/// [`QrCodeError::PlanLimitReached`] past the plan's codes of the month;
/// [`QrCodeError::IdempotencyKeyReused`] for a key sent before with other values; the
/// aggregate's refusals; storage failures.
pub async fn record_bank_charge(
    qrcodes: &CommandService<QrCode>,
    charge: CreateBankCharge,
    plan: PlanAsRead,
    metadata: CommandMetadata,
) -> Result<Created, CommandError<QrCodeError>> {
    let create = &charge.create;
    let qrcode_id = create.qrcode_id.clone();
    let txid = create.request.txid.clone().unwrap_or_default();
    let effects = Effects::new()
        .count_qrcodes(&create.owner_id, &create.requested_at, 1, Some(plan))
        .claim(
            txid_scope(&create.owner_id),
            txid_claim(&txid),
            qrcode_id.clone(),
        );
    let request = create.request.clone();
    match qrcodes
        .execute_with(
            &qrcode_id,
            QrCodeCommand::CreateBankCharge(charge),
            ExpectedVersion::NoStream,
            metadata,
            &effects,
        )
        .await
    {
        Ok(outcome) => Ok(Created {
            qrcode_id,
            request,
            position: outcome.position,
            replayed: outcome.replayed,
        }),
        Err(CommandError::ClaimTaken { .. }) => {
            Err(CommandError::Rejected(QrCodeError::TxidTaken(txid)))
        }
        Err(CommandError::IdempotencyKeyConflict { .. }) => {
            Err(CommandError::Rejected(QrCodeError::IdempotencyKeyReused))
        }
        Err(CommandError::LimitReached { .. }) => Err(CommandError::Rejected(
            QrCodeError::PlanLimitReached(PlanLimitReached::qrcodes_per_month(plan.plan)),
        )),
        Err(other) => Err(other),
    }
}

/// Makes every code of a batch in one transaction, or none, on an account with `plan` (as
/// read). Each request's txid is generated.
///
/// With an idempotency key in `metadata` the batch is one idempotent unit
/// ([`CommandService::create_streams`]): a repeat answers the first batch
/// ([`BatchOutcome::replayed`]) and makes, claims and counts nothing; the codes' ids and txids
/// in the repeat's commands are ignored.
///
/// # Errors
///
/// [`QrCodeError::BatchTxidsTaken`] when a txid could not be reserved (nothing was made);
/// [`QrCodeError::PlanLimitReached`] when the batch would pass the plan's codes per month
/// (nothing was made); [`QrCodeError::IdempotencyKeyReused`] for an idempotency key sent before
/// with other values (or by another command); the aggregate's first refusal; storage failures.
pub async fn create_batch(
    qrcodes: &CommandService<QrCode>,
    codes: Vec<CreateAccountQrCode>,
    plan: PlanAsRead,
    metadata: CommandMetadata,
) -> Result<BatchOutcome, CommandError<QrCodeError>> {
    let Some(owner) = codes.first().map(|c| c.owner_id.clone()) else {
        return Ok(BatchOutcome {
            outcomes: Vec::new(),
            position: None,
            replayed: false,
        });
    };
    let claims = codes
        .iter()
        .map(|c| {
            (
                txid_claim(c.request.txid.as_deref().unwrap_or_default()),
                c.qrcode_id.clone(),
            )
        })
        .collect::<Vec<_>>();
    let made_at = codes
        .first()
        .map(|c| c.requested_at.clone())
        .unwrap_or_default();
    let count = u32::try_from(codes.len()).unwrap_or(u32::MAX);
    let effects = Effects::new()
        .count_qrcodes(&owner, made_at, count, Some(plan))
        .claim_many(txid_scope(&owner), claims);
    let commands = codes
        .into_iter()
        .map(|c| (c.qrcode_id.clone(), QrCodeCommand::CreateAccountQrCode(c)))
        .collect();
    qrcodes
        .create_streams(commands, metadata, &effects)
        .await
        .map_err(|error| match error {
            CommandError::ClaimTaken { .. } => CommandError::Rejected(QrCodeError::BatchTxidsTaken),
            CommandError::IdempotencyKeyConflict { .. }
            | CommandError::IdempotencyKeyReused { .. } => {
                CommandError::Rejected(QrCodeError::IdempotencyKeyReused)
            }
            CommandError::LimitReached { .. } => CommandError::Rejected(
                QrCodeError::PlanLimitReached(PlanLimitReached::qrcodes_per_month(plan.plan)),
            ),
            other => other,
        })
}
