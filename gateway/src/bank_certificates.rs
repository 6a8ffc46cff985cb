//! Certificate warnings (issue 33, "certificate lifecycle"): a connected key's client certificate
//! has an end, and past it the bank refuses every call. 30, 7 and 1 days before it, the owner is
//! e-mailed once per certificate and threshold; the dashboard home and the keys screen say so
//! from 30 days on (they read the connection's `certificateNotAfter`).
//!
//! Whether a threshold is due is the connection aggregate's decision (`WarnCertificateExpiring`,
//! from its stream: which thresholds were warned of for the standing certificate), recorded as
//! `BankCertificateExpiring` before the e-mail goes out; new credentials start the count over.
//! Run with the catch-up's tick.

use chrono::{DateTime, SecondsFormat, Utc};
use commands::{CommandError, CommandMetadata};
use domain::bank::profiles::BankId;
use domain::bank_connection::{
    BankConnection, BankConnectionCommand, BankConnectionError, WarnCertificateExpiring,
};
use uuid::Uuid;

use crate::mail::Email;
use crate::state::AppState;

/// Certificate warnings recorded (each one e-mailed).
pub const WARNINGS_TOTAL: &str = "balcao_bank_certificate_warnings_total";

/// "em 7 dias, em 05/12/2026" (Brasília's calendar day), or "em menos de um dia, …" on the last.
pub fn ends_in_words(not_after: DateTime<Utc>, now: DateTime<Utc>) -> String {
    let day = not_after
        .with_timezone(&domain::statement::brasilia())
        .format("%d/%m/%Y");
    let days = (not_after - now).num_hours().div_euclid(24);
    match days {
        i64::MIN..=0 => format!("em menos de um dia, em {day}"),
        1 => format!("em 1 dia, em {day}"),
        n => format!("em {n} dias, em {day}"),
    }
}

/// Warns of every connected key whose certificate crossed a threshold not warned of yet; answers
/// how many warnings were recorded.
///
/// # Errors
///
/// When PostgreSQL fails listing the keys (a key's own failure is logged and skipped).
pub async fn warn_due(state: &AppState) -> anyhow::Result<usize> {
    let keys: Vec<(Uuid, Uuid)> =
        sqlx::query_as("select key_id, account_id from bank_credentials order by key_id")
            .fetch_all(&state.pool)
            .await?;
    let service = crate::api::bank_connections::service(state);
    let mut warned = 0;
    for (key_id, account_id) in keys {
        let now = state.clock.now();
        let command = BankConnectionCommand::WarnCertificateExpiring(WarnCertificateExpiring {
            now: now.to_rfc3339_opts(SecondsFormat::Secs, true),
        });
        let metadata = CommandMetadata::start().by("bank-certificates");
        match service
            .execute(&key_id.to_string(), command, metadata)
            .await
        {
            Ok(_) => {}
            Err(CommandError::Rejected(
                BankConnectionError::NothingToWarn | BankConnectionError::NotConnected,
            )) => continue,
            Err(error) => {
                tracing::warn!(%error, "a certificate warning could not be recorded");
                continue;
            }
        }
        warned += 1;
        metrics::counter!(WARNINGS_TOTAL).increment(1);
        mail(state, account_id, key_id, now).await;
    }
    Ok(warned)
}

/// E-mails the account's owner about the key's certificate (best effort: the warning is recorded
/// either way, and the dashboard shows it).
async fn mail(state: &AppState, account_id: Uuid, key_id: Uuid, now: DateTime<Utc>) {
    let connection = match state
        .payments
        .commands
        .store()
        .load::<BankConnection>(&key_id.to_string())
        .await
    {
        Ok(loaded) => loaded.aggregate,
        Err(error) => {
            tracing::warn!(%error, "the connection of a certificate warning could not be read");
            return;
        }
    };
    let Some(connected) = connection.connected else {
        return;
    };
    let (Some(bank), Ok(not_after)) = (
        BankId::from_slug(&connected.bank),
        DateTime::parse_from_rfc3339(&connected.certificate_not_after),
    ) else {
        return;
    };
    let owner = match projections::accounts::find(&state.pool, account_id).await {
        Ok(Some(owner)) => owner,
        Ok(None) => return,
        Err(error) => {
            tracing::warn!(%error, "the owner of a certificate warning could not be read");
            return;
        }
    };
    let Some(to) = owner.email else {
        return;
    };
    let link = format!("{}/painel/chaves/{key_id}/banco", state.site.url);
    state
        .mailer
        .send_in_background(Email::bank_certificate_expiring(
            &to,
            bank.name(),
            ends_in_words(not_after.with_timezone(&Utc), now),
            &link,
        ));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(text)
            .expect("RFC 3339")
            .with_timezone(&Utc)
    }

    #[test]
    fn the_end_is_said_in_days_and_as_sao_paulos_calendar_day() {
        let end = at("2027-12-05T02:00:00Z");
        assert_eq!(
            ends_in_words(end, at("2027-11-28T02:00:00Z")),
            "em 7 dias, em 04/12/2027"
        );
        assert_eq!(
            ends_in_words(end, at("2027-12-04T01:00:00Z")),
            "em 1 dia, em 04/12/2027"
        );
        assert_eq!(
            ends_in_words(end, at("2027-12-04T20:00:00Z")),
            "em menos de um dia, em 04/12/2027"
        );
    }
}
