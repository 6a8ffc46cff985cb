//! A connected key's bank credentials (`bank_credentials`, migration 0034): side state beside
//! the log, like [`photos`](crate::photos) and [`vault`](crate::vault).
//!
//! Everything secret is sealed with the account's [`AccountKey`] before it reaches this module's
//! rows, and opened only by the code that calls the bank. The row is written by the
//! [`store_bank_credentials`](crate::effects::Effects::store_bank_credentials) effect in the
//! transaction of `BankConnected`, and deleted by
//! [`forget_bank_credentials`](crate::effects::Effects::forget_bank_credentials) in the one of
//! `BankDisconnected`, so the log and the row never disagree on whether a key is connected.

use domain::sealed::Sealed;
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;
use zeroize::Zeroizing;

use crate::vault::{AccountKey, VaultError};

/// What calling the bank needs, in the clear. `Debug` shows only the bank and environment.
#[derive(Clone)]
pub struct BankCredentials {
    /// The profile's slug.
    pub bank: String,
    /// `producao` or `homologacao`.
    pub environment: String,
    /// The API's base address the owner typed (profile `outro` only).
    pub api_base: Option<String>,
    /// The token address the owner typed (profile `outro` only).
    pub token_url: Option<String>,
    /// The OAuth2 client id.
    pub client_id: Zeroizing<String>,
    /// The OAuth2 client secret.
    pub client_secret: Zeroizing<String>,
    /// The client certificate chain, PEM, leaf first.
    pub certificate_pem: Zeroizing<String>,
    /// Its private key, PKCS#8 PEM.
    pub private_key_pem: Zeroizing<String>,
    /// The profile's extra value (an application key, an account number), if it asks for one.
    pub extra: Option<Zeroizing<String>>,
}

impl std::fmt::Debug for BankCredentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BankCredentials")
            .field("bank", &self.bank)
            .field("environment", &self.environment)
            .finish_non_exhaustive()
    }
}

/// The sealed row of one key, as stored. `Debug` shows only the ids, bank and environment.
#[derive(Clone, sqlx::FromRow)]
pub struct SealedBankCredentials {
    /// The connected key.
    pub key_id: Uuid,
    /// Its account.
    pub account_id: Uuid,
    /// The profile's slug.
    pub bank: String,
    /// `producao` or `homologacao`.
    pub environment: String,
    /// Profile `outro` only.
    pub api_base: Option<String>,
    /// Profile `outro` only.
    pub token_url: Option<String>,
    client_id: String,
    client_secret: String,
    certificate: String,
    private_key: String,
    extra: Option<String>,
}

impl std::fmt::Debug for SealedBankCredentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SealedBankCredentials")
            .field("key_id", &self.key_id)
            .field("account_id", &self.account_id)
            .field("bank", &self.bank)
            .field("environment", &self.environment)
            .finish_non_exhaustive()
    }
}

impl SealedBankCredentials {
    /// Seals `credentials` for `key_id` with the account's key.
    #[must_use]
    pub fn seal(key: &AccountKey, key_id: Uuid, credentials: &BankCredentials) -> Self {
        let seal = |plain: &str| key.seal(plain).as_str().to_owned();
        SealedBankCredentials {
            key_id,
            // An account key is made for a UUID account id; a key of another shape would have
            // failed long before a bank connection.
            account_id: Uuid::parse_str(key.account_id()).unwrap_or_default(),
            bank: credentials.bank.clone(),
            environment: credentials.environment.clone(),
            api_base: credentials.api_base.clone(),
            token_url: credentials.token_url.clone(),
            client_id: seal(&credentials.client_id),
            client_secret: seal(&credentials.client_secret),
            certificate: seal(&credentials.certificate_pem),
            private_key: seal(&credentials.private_key_pem),
            extra: credentials.extra.as_deref().map(|extra| seal(extra)),
        }
    }

    /// Opens the row with the account's key.
    ///
    /// # Errors
    ///
    /// [`VaultError`] when a value does not open with this key (another account's row, a key
    /// shredded and made again, an altered row).
    pub fn open(&self, key: &AccountKey) -> Result<BankCredentials, VaultError> {
        let open = |text: &str| {
            key.open(&Sealed::from_text(text.to_owned()))
                .map(Zeroizing::new)
        };
        Ok(BankCredentials {
            bank: self.bank.clone(),
            environment: self.environment.clone(),
            api_base: self.api_base.clone(),
            token_url: self.token_url.clone(),
            client_id: open(&self.client_id)?,
            client_secret: open(&self.client_secret)?,
            certificate_pem: open(&self.certificate)?,
            private_key_pem: open(&self.private_key)?,
            extra: self.extra.as_deref().map(open).transpose()?,
        })
    }

    /// Writes (or replaces) the row: the effect's statement.
    pub(crate) async fn upsert(&self, conn: &mut PgConnection) -> Result<(), sqlx::Error> {
        sqlx::query(
            "insert into bank_credentials
                (key_id, account_id, bank, environment, api_base, token_url,
                 client_id, client_secret, certificate, private_key, extra)
             values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
             on conflict (key_id) do update
                set account_id = excluded.account_id, bank = excluded.bank,
                    environment = excluded.environment, api_base = excluded.api_base,
                    token_url = excluded.token_url, client_id = excluded.client_id,
                    client_secret = excluded.client_secret, certificate = excluded.certificate,
                    private_key = excluded.private_key, extra = excluded.extra,
                    updated_at = now()",
        )
        .bind(self.key_id)
        .bind(self.account_id)
        .bind(&self.bank)
        .bind(&self.environment)
        .bind(&self.api_base)
        .bind(&self.token_url)
        .bind(&self.client_id)
        .bind(&self.client_secret)
        .bind(&self.certificate)
        .bind(&self.private_key)
        .bind(&self.extra)
        .execute(conn)
        .await?;
        Ok(())
    }
}

/// Deletes the row of `key_id` in `account_id`: the effect's statement.
pub(crate) async fn delete(
    conn: &mut PgConnection,
    account_id: Uuid,
    key_id: Uuid,
) -> Result<(), sqlx::Error> {
    sqlx::query("delete from bank_credentials where key_id = $1 and account_id = $2")
        .bind(key_id)
        .bind(account_id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Deletes every row of `account_id` (the account's deletion).
pub(crate) async fn delete_account(
    conn: &mut PgConnection,
    account_id: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("delete from bank_credentials where account_id::text = $1")
        .bind(account_id)
        .execute(conn)
        .await?;
    Ok(())
}

/// The sealed credentials of `key_id` in `account_id`, if the key is connected.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn load(
    pool: &PgPool,
    account_id: Uuid,
    key_id: Uuid,
) -> Result<Option<SealedBankCredentials>, sqlx::Error> {
    sqlx::query_as(
        "select key_id, account_id, bank, environment, api_base, token_url,
                client_id, client_secret, certificate, private_key, extra
           from bank_credentials where key_id = $1 and account_id = $2",
    )
    .bind(key_id)
    .bind(account_id)
    .fetch_optional(pool)
    .await
}

/// The credentials of `key_id` in `account_id`, opened with the account's key; `None` when the
/// key is not connected (or the account's key is gone with the account).
///
/// # Errors
///
/// [`VaultError`] when PostgreSQL fails or a value does not open with the account's key.
pub async fn load_opened(
    pool: &PgPool,
    account_id: Uuid,
    key_id: Uuid,
) -> Result<Option<BankCredentials>, VaultError> {
    let Some(sealed) = load(pool, account_id, key_id).await? else {
        return Ok(None);
    };
    let Some(key) = crate::vault::load_key(pool, &account_id.hyphenated().to_string()).await?
    else {
        return Ok(None);
    };
    sealed.open(&key).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ACCOUNT: &str = "0196a1b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b";

    fn credentials() -> BankCredentials {
        BankCredentials {
            bank: "efi".to_owned(),
            environment: "homologacao".to_owned(),
            api_base: None,
            token_url: None,
            client_id: Zeroizing::new("Client_Id_abc".to_owned()),
            client_secret: Zeroizing::new("Client_Secret_xyz".to_owned()),
            certificate_pem: Zeroizing::new("-----BEGIN CERTIFICATE-----\nMIIB\n".to_owned()),
            private_key_pem: Zeroizing::new("-----BEGIN PRIVATE KEY-----\nMIIE\n".to_owned()),
            extra: Some(Zeroizing::new("12345-6".to_owned())),
        }
    }

    #[test]
    fn sealed_credentials_open_with_the_accounts_key_and_not_with_another() {
        let key = AccountKey::generate(ACCOUNT);
        let sealed = SealedBankCredentials::seal(&key, Uuid::nil(), &credentials());
        let opened = sealed.open(&key).expect("opens with its key");
        assert_eq!(*opened.client_secret, "Client_Secret_xyz");
        assert_eq!(opened.extra.as_deref().map(String::as_str), Some("12345-6"));
        let stranger = AccountKey::generate(ACCOUNT);
        assert!(sealed.open(&stranger).is_err());
    }

    #[test]
    fn neither_form_shows_a_secret_when_logged() {
        let key = AccountKey::generate(ACCOUNT);
        let plain = credentials();
        let sealed = SealedBankCredentials::seal(&key, Uuid::nil(), &plain);
        for shown in [format!("{plain:?}"), format!("{sealed:?}")] {
            for secret in [
                "Client_Id_abc",
                "Client_Secret_xyz",
                "BEGIN",
                "12345-6",
                "v1.",
            ] {
                assert!(!shown.contains(secret), "{shown} shows {secret}");
            }
        }
    }
}
