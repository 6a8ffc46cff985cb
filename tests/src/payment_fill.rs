//! A busy shop's payments, written into the log in bulk: `make bench`'s data (issue 37) and the
//! scale tests' (`e2e/payments/replay.rs`).
//!
//! One account receives `payments` Pix over `days` São Paulo days ending on `last_day`, at
//! counter hours (07:00–23:59, some a minute before midnight, the day boundary the read models
//! split on), most through the bank's webhook and a few typed in by hand: 5 % refunded (in
//! processing, then returned, whole or in part), 1 % with a refund the bank did not make, 3 %
//! typed in and then confirmed by the bank (another amount, sometimes another code), 3 % typed
//! in and voided. Most carry one of the account's codes and one of its keys; the payer's name,
//! document and free text are sealed with the account's key, as the receiver seals them.
//!
//! The events are the ones the real append path writes for those commands
//! (`commands::payments`): the same `PaymentEvent` values serialised by serde, with the same
//! stream ids, versions and event types, appended with one `COPY` per 20,000 events (one
//! transaction each, so one `tx_id`, as one command's events share one) instead of one command
//! per payment. Their metadata is empty: no projection reads it. The scale test proves that a
//! replay of such a log equals the read models the live projector builds from it.
//!
//! [`fill_service`] adds the rest of the service: thousands of accounts, each opened through
//! the sign-up workflow, with a few hundred payments each (issue 37: 10M payments across 10k
//! accounts, one of them with 1M).
//!
//! Deterministic: the same [`Fill`] writes the same payments (event ids and sealing nonces
//! aside); end-to-end ids differ across seeds, so give every account its own.

use chrono::{DateTime, Duration, NaiveDate, NaiveTime, SecondsFormat, Utc};
use commands::sign_up::{NewAccount, open_account};
use commands::vault::{AccountKey, load_key};
use commands::{CommandService, PgEventStore};
use domain::account::Account;
use domain::payment::{
    PaymentConfirmed, PaymentEvent, PaymentRecorded, PaymentRefunded, PaymentSource, PaymentVoided,
    RefundStatus,
};
use futures::{StreamExt, TryStreamExt};
use sqlx::PgPool;
use uuid::Uuid;

/// Events per `COPY` (and per transaction).
const CHUNK: usize = 20_000;

/// What to write.
pub struct Fill {
    /// The receiving account (its id, as the stream ids spell it).
    pub account_id: Uuid,
    /// The account's key, which seals the payer's fields.
    pub key: AccountKey,
    /// The account's QR codes; a payment carries one of them or none ("sem QR code").
    pub codes: Vec<Uuid>,
    /// The account's Pix keys (DICT form).
    pub pix_keys: Vec<String>,
    /// How many payments.
    pub payments: u64,
    /// Over how many São Paulo days, ending on `last_day`.
    pub days: u32,
    /// The newest payment's São Paulo day.
    pub last_day: NaiveDate,
    /// Seeds the choices.
    pub seed: u64,
}

/// The whole service's payments: `accounts` more accounts besides the busy shop's, each opened
/// through the real sign-up workflow ([`open_account`]: its events, vault key, claim and
/// session) and then given about `payments_each` payments (half to one and a half times as
/// many, so no two accounts look alike) by [`fill`] over the same `days` ending on `last_day`.
pub struct ServiceFill {
    /// How many accounts.
    pub accounts: u64,
    /// Payments per account, on average.
    pub payments_each: u64,
    /// Over how many São Paulo days, ending on `last_day`.
    pub days: u32,
    /// The newest payment's São Paulo day.
    pub last_day: NaiveDate,
    /// One password hash (argon2id PHC string) for every account: hashing one per account
    /// would be most of the fill's time, and no one signs in to them.
    pub password_hash: String,
    /// Seeds the choices; each account takes the next seeds.
    pub seed: u64,
}

/// What [`fill`] wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Filled {
    /// Payments (streams).
    pub payments: u64,
    /// Events.
    pub events: u64,
}

/// A small, fast, deterministic source of choices (SplitMix64).
struct Choices(u64);

impl Choices {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() {
            return None;
        }
        let at = usize::try_from(self.below(items.len() as u64)).unwrap_or_default();
        items.get(at)
    }
}

const NAMES: &[&str] = &[
    "Maria da Silva",
    "José Santos",
    "Ana Paula Oliveira",
    "João Pereira",
    "Francisca Lima",
    "Antônio Costa",
    "Luíza Ferreira",
    "Carlos Eduardo Rodrigues",
    "Patrícia Almeida",
    "Raimundo Nonato Souza",
];

/// One event still to append: its stream (reference) and version, and the event.
struct Pending {
    reference: String,
    version: i64,
    event: PaymentEvent,
}

/// Writes `fill`'s payments into `pool`'s log (see the module's documentation).
///
/// # Errors
///
/// When PostgreSQL refuses the `COPY`.
pub async fn fill(pool: &PgPool, fill: &Fill) -> anyhow::Result<Filled> {
    let mut choices = Choices(fill.seed);
    let account = fill.account_id.to_string();
    let first_day = fill.last_day - Duration::days(i64::from(fill.days.max(1)) - 1);
    // Follow-ups (refunds, confirmations, voids) come a few payments later, in the order due.
    let mut later: std::collections::BTreeMap<(u64, u64), Pending> = Default::default();
    let mut out: Vec<Pending> = Vec::with_capacity(CHUNK);
    let mut events = 0;
    let mut follow_ups = 0_u64;
    for n in 0..fill.payments {
        // Spread evenly over the days, at counter hours in São Paulo (UTC-3 since 2019).
        let day = first_day
            + Duration::days(
                i64::try_from(n * u64::from(fill.days.max(1)) / fill.payments.max(1))
                    .unwrap_or_default(),
            );
        let minute = if choices.below(50) == 0 {
            23 * 60 + 59
        } else {
            7 * 60 + choices.below(17 * 60)
        };
        let local = day.and_time(NaiveTime::MIN)
            + Duration::minutes(i64::try_from(minute).unwrap_or_default())
            + Duration::seconds(i64::try_from(choices.below(60)).unwrap_or_default());
        let paid_at = DateTime::<Utc>::from_naive_utc_and_offset(local, Utc) + Duration::hours(3);
        let kind = choices.below(100);
        let amount = 100 + choices.below(30_000);
        let code = if choices.below(10) < 7 {
            choices.pick(&fill.codes).copied()
        } else {
            None
        };
        let typed = kind >= 94;
        let reference = if typed && kind >= 97 {
            format!("manual-{}", Uuid::from_u64_pair(fill.seed, n).simple())
        } else {
            // 32 characters, as the BCB's end-to-end ids: E, the payer's bank (ISPB), the
            // minute, and 11 characters unique per seed and payment.
            format!(
                "E{:08}{}{}",
                18_236_120 + choices.below(9),
                paid_at.format("%Y%m%d%H%M"),
                unique_tail(fill.seed, n)
            )
        };
        let recorded = PaymentRecorded {
            account_id: account.clone(),
            reference: reference.clone(),
            end_to_end_id: (!reference.starts_with("manual-")).then(|| reference.clone()),
            amount_centavos: amount,
            paid_at: rfc3339(paid_at),
            txid: code.map(|c| c.simple().to_string()),
            qrcode_id: code.map(|c| c.to_string()),
            payment_link_id: None,
            pix_key: choices.pick(&fill.pix_keys).cloned(),
            source: if typed {
                PaymentSource::Manual
            } else {
                PaymentSource::ApiPix
            },
            payer_name: (!typed).then(|| {
                let name = choices.pick(NAMES).copied().unwrap_or("Cliente");
                fill.key.seal(name)
            }),
            payer_document: (!typed).then(|| {
                fill.key
                    .seal(&format!("{:011}", choices.below(100_000_000_000)))
            }),
            payer_info: (!typed && choices.below(5) == 0).then(|| fill.key.seal("Obrigado!")),
            note: typed.then(|| "Pago no balcão".to_owned()),
            recorded_by: typed.then(|| account.clone()),
            recorded_at: rfc3339(paid_at + Duration::seconds(2)),
            statement: None,
        };
        out.push(Pending {
            reference: reference.clone(),
            version: 1,
            event: PaymentEvent::PaymentRecorded(recorded),
        });
        let mut due = |after: u64, version: i64, event: PaymentEvent| {
            follow_ups += 1;
            later.insert(
                (n + after, follow_ups),
                Pending {
                    reference: reference.clone(),
                    version,
                    event,
                },
            );
        };
        let at = rfc3339(paid_at + Duration::minutes(30));
        match kind {
            0..5 => {
                let part = if choices.below(2) == 0 {
                    amount
                } else {
                    amount / 2
                };
                for (version, status) in [
                    (2, RefundStatus::EmProcessamento),
                    (3, RefundStatus::Devolvido),
                ] {
                    due(
                        u64::try_from(version).unwrap_or(1) * 5,
                        version,
                        refund(&reference, part, status, &at),
                    );
                }
            }
            5 => due(
                7,
                2,
                refund(&reference, amount, RefundStatus::NaoRealizado, &at),
            ),
            94..97 => due(
                11,
                2,
                PaymentEvent::PaymentConfirmed(PaymentConfirmed {
                    source: PaymentSource::ApiPix,
                    amount_centavos: amount + choices.below(3) * 50,
                    paid_at: rfc3339(paid_at - Duration::minutes(1)),
                    txid: None,
                    qrcode_id: choices.pick(&fill.codes).map(Uuid::to_string),
                    payment_link_id: None,
                    payer_name: Some(fill.key.seal("Cliente do Balcão")),
                    payer_document: None,
                    payer_info: None,
                    confirmed_at: at.clone(),
                    end_to_end_id: None,
                }),
            ),
            97.. => due(
                3,
                2,
                PaymentEvent::PaymentVoided(PaymentVoided {
                    reason: "Lançado em dobro".to_owned(),
                    voided_by: account.clone(),
                    voided_at: at.clone(),
                    undone_import: None,
                }),
            ),
            _ => {}
        }
        while let Some(entry) = later.first_entry() {
            if entry.key().0 > n {
                break;
            }
            out.push(entry.remove());
        }
        if out.len() >= CHUNK {
            events += append(pool, &account, &mut out).await?;
        }
    }
    out.extend(later.into_values());
    events += append(pool, &account, &mut out).await?;
    Ok(Filled {
        payments: fill.payments,
        events,
    })
}

/// Opens `service.accounts` accounts and writes their payments (see [`ServiceFill`]), a few
/// accounts at a time; answers what was written in all.
///
/// # Errors
///
/// When a sign-up or a `COPY` fails.
pub async fn fill_service(pool: &PgPool, service: &ServiceFill) -> anyhow::Result<Filled> {
    let accounts = CommandService::<Account>::new(PgEventStore::new(pool.clone()), ());
    let accounts = &accounts;
    futures::stream::iter(0..service.accounts)
        .map(|n| async move {
            let seed = service.seed.wrapping_add(n);
            let opened = open_account(
                accounts,
                NewAccount {
                    email: format!("loja{n}@servico.test"),
                    display_name: format!("Loja {n}"),
                    password_hash: service.password_hash.clone(),
                    user_agent: None,
                    at: rfc3339(Utc::now()),
                },
            )
            .await?;
            let key = load_key(pool, &opened.account_id)
                .await?
                .ok_or_else(|| anyhow::anyhow!("account {} has no key", opened.account_id))?;
            let mut choices = Choices(seed);
            let payments = service.payments_each / 2 + choices.below(service.payments_each + 1);
            fill(
                pool,
                &Fill {
                    account_id: Uuid::parse_str(&opened.account_id)?,
                    key,
                    codes: (0..1 + choices.below(4))
                        .map(|c| Uuid::from_u64_pair(seed, c))
                        .collect(),
                    pix_keys: vec![format!("loja{n}@servico.test")],
                    payments,
                    days: service.days,
                    last_day: service.last_day,
                    seed,
                },
            )
            .await
        })
        .buffer_unordered(4)
        .try_fold(
            Filled {
                payments: 0,
                events: 0,
            },
            |all, one| async move {
                Ok(Filled {
                    payments: all.payments + one.payments,
                    events: all.events + one.events,
                })
            },
        )
        .await
}

/// 11 characters (digits and capitals) that differ for every `seed` below 10⁸ and payment `n`
/// below 10⁹: the last part of an end-to-end id, so no two payments of the service share one.
fn unique_tail(seed: u64, n: u64) -> String {
    const DIGITS: &[u8; 36] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let mut value = (seed % 100_000_000) * 1_000_000_000 + n % 1_000_000_000;
    let mut tail = [b'0'; 11];
    for place in tail.iter_mut().rev() {
        *place = DIGITS[usize::try_from(value % 36).unwrap_or_default()];
        value /= 36;
    }
    String::from_utf8_lossy(&tail).into_owned()
}

fn refund(reference: &str, amount: u64, status: RefundStatus, at: &str) -> PaymentEvent {
    PaymentEvent::PaymentRefunded(PaymentRefunded {
        refund_id: format!("D{}", &reference[1..reference.len().min(30)]),
        rtr_id: format!("D{}", reference.get(1..).unwrap_or_default()),
        amount_centavos: amount,
        status,
        nature: Some("ORIGINAL".to_owned()),
        requested_at: Some(at.to_owned()),
        settled_at: (status == RefundStatus::Devolvido).then(|| at.to_owned()),
        source: PaymentSource::ApiPix,
        reported_at: at.to_owned(),
        reason: None,
    })
}

fn rfc3339(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// Appends `events` with one `COPY` in one transaction and empties it; answers how many.
async fn append(pool: &PgPool, account: &str, events: &mut Vec<Pending>) -> anyhow::Result<u64> {
    if events.is_empty() {
        return Ok(0);
    }
    let mut text = String::with_capacity(events.len() * 900);
    for pending in events.iter() {
        let payload = serde_json::to_string(&pending.event)?;
        let event_type = match &pending.event {
            PaymentEvent::PaymentRecorded(_) => "PaymentRecorded",
            PaymentEvent::PaymentConfirmed(_) => "PaymentConfirmed",
            PaymentEvent::PaymentRefunded(_) => "PaymentRefunded",
            PaymentEvent::PaymentVoided(_) => "PaymentVoided",
            PaymentEvent::PaymentRefundRequested(_) => "PaymentRefundRequested",
            PaymentEvent::PaymentRefundRefused(_) => "PaymentRefundRefused",
        };
        // COPY's text format: tab-separated, backslash escapes (JSON has no raw tab or newline).
        text.push_str(&format!(
            "{}\t{}\t{}:{}\t{}\t{}\t1\t{}\n",
            Uuid::now_v7(),
            domain::payment::STREAM_TYPE,
            account,
            pending.reference,
            pending.version,
            event_type,
            payload.replace('\\', "\\\\")
        ));
    }
    let count = events.len() as u64;
    events.clear();
    let mut tx = pool.begin().await?;
    let mut copy = tx
        .copy_in_raw(
            "copy events (event_id, stream_type, stream_id, stream_version, event_type,
                          schema_version, payload) from stdin",
        )
        .await?;
    copy.send(text.as_bytes()).await?;
    copy.finish().await?;
    tx.commit().await?;
    Ok(count)
}
