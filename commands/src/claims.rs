//! Unique claims: set-based uniqueness the event log cannot express (one account per e-mail, one
//! invitation per e-mail and team).
//!
//! A claim is a row of `unique_claims` `(scope, value, owner)`, primary key `(scope, value)`. It is
//! taken and released by [`Effects`](crate::effects::Effects) in the same transaction as the events that
//! need it, so a claim exists exactly when the events saying so do. `value` is always a digest
//! ([`digest`]), never the plain value: the table holds no personal data in the clear.

use std::fmt::Write as _;

use sha2::{Digest as _, Sha256};
use sqlx::PgExecutor;

/// The scope of e-mail addresses: at most one account per (normalised) address.
pub const EMAIL_SCOPE: &str = "email";

/// The scope of the invitations sent by the team of account `owner_id`: at most one pending or
/// active invitation per (normalised) e-mail address in that team.
///
/// ```
/// assert_eq!(commands::claims::invite_scope("conta-1"), "invite:conta-1");
/// ```
pub fn invite_scope(owner_id: &str) -> String {
    format!("invite:{owner_id}")
}

/// The scope of the txids of account `owner_id`'s QR codes: at most one code per txid in the
/// account (compared as `domain::qrcode::txid::uniqueness_key` writes it), so a payment
/// reported with a txid finds exactly one code. The claim's owner is the code's id, or
/// [`link_claim_owner`] for a payment link's code; it is never released (an archived code keeps
/// its txid, and payments to it still find it).
///
/// ```
/// assert_eq!(commands::claims::txid_scope("conta-1"), "txid:conta-1");
/// ```
pub fn txid_scope(owner_id: &str) -> String {
    format!("txid:{owner_id}")
}

/// The owner a payment link's txid claim carries in [`txid_scope`]: `link:` and the link's id.
/// A link's code is a BR Code of the account like its QR codes, so their txids share one scope
/// (a bank reports only the txid: it must name one thing), and the prefix tells a payment that
/// its txid belongs to a link, not to a QR code.
///
/// ```
/// use commands::claims::{link_claim_owner, link_of_claim};
/// let owner = link_claim_owner("0190c0de-0000-7000-8000-000000000001");
/// assert_eq!(owner, "link:0190c0de-0000-7000-8000-000000000001");
/// assert_eq!(link_of_claim(&owner), Some("0190c0de-0000-7000-8000-000000000001"));
/// assert_eq!(link_of_claim("0190c0de-0000-7000-8000-000000000001"), None);
/// ```
pub fn link_claim_owner(link_id: &str) -> String {
    format!("{LINK_OWNER_PREFIX}{link_id}")
}

/// The payment link a txid claim's owner names, or `None` when the claim is a QR code's.
pub fn link_of_claim(owner: &str) -> Option<&str> {
    owner.strip_prefix(LINK_OWNER_PREFIX)
}

const LINK_OWNER_PREFIX: &str = "link:";

/// An e-mail address as it is compared for uniqueness: surrounding whitespace removed, lower case.
///
/// Digest the result, not the address as typed.
///
/// ```
/// use commands::claims::normalise_email;
/// assert_eq!(normalise_email("  Maria.Souza@Exemplo.COM.br \n"), "maria.souza@exemplo.com.br");
/// ```
pub fn normalise_email(email: &str) -> String {
    email.trim().to_lowercase()
}

/// Hex (lower case) SHA-256 of `value`: what a claim stores and is looked up by.
///
/// ```
/// use commands::claims::{digest, normalise_email};
/// assert_eq!(
///     digest(""),
///     "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
/// );
/// assert_eq!(
///     digest(&normalise_email(" Maria@Exemplo.com ")),
///     digest("maria@exemplo.com")
/// );
/// ```
pub fn digest(value: &str) -> String {
    let hash = Sha256::digest(value.as_bytes());
    let mut hex = String::with_capacity(hash.len() * 2);
    for byte in hash {
        // Writing to a String cannot fail.
        let _ = write!(hex, "{byte:02x}");
    }
    hex
}

/// The claims among `(scopes[i], values[i])`, as `(scope, value, owner)`, read on `conn`.
///
/// Sent unnamed, so planned for its own values every time: a generic plan made while
/// `unique_claims` was small hashed the whole table on every call once it had grown (nothing
/// re-plans without `analyze`, and autovacuum may be off).
pub(crate) async fn owners(
    conn: &mut sqlx::PgConnection,
    scopes: &[String],
    values: &[String],
) -> Result<Vec<(String, String, String)>, sqlx::Error> {
    sqlx::query_as(
        "select c.scope, c.value, c.owner
           from unique_claims c
           join unnest($1::text[], $2::text[]) as w(scope, value)
             on c.scope = w.scope and c.value = w.value",
    )
    .persistent(false)
    .bind(scopes)
    .bind(values)
    .fetch_all(conn)
    .await
}

/// Inserts the claims `(scopes[i], values[i], owners[i])` on `conn`, leaving any that exist;
/// how many it inserted.
pub(crate) async fn insert_many(
    conn: &mut sqlx::PgConnection,
    scopes: &[String],
    values: &[String],
    owners: &[String],
) -> Result<u64, sqlx::Error> {
    Ok(sqlx::query(
        "insert into unique_claims (scope, value, owner)
         select s, v, o from unnest($1::text[], $2::text[], $3::text[]) as t(s, v, o)
         on conflict (scope, value) do nothing",
    )
    .bind(scopes)
    .bind(values)
    .bind(owners)
    .execute(conn)
    .await?
    .rows_affected())
}

/// Whether `value` has the shape [`digest`] gives (64 lower-case hex digits).
pub(crate) fn is_digest(value: &str) -> bool {
    value.len() == 64
        && value
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// The stream id (account id) holding the claim on `value_digest` in `scope`, if any.
///
/// A read outside any command: use it to answer early (e.g. "e-mail already in use") but rely on
/// the [`claim`](crate::effects::Effects::claim) effect, which is what actually guards uniqueness.
///
/// # Errors
///
/// When PostgreSQL fails.
pub async fn owner_of<'e>(
    executor: impl PgExecutor<'e>,
    scope: &str,
    value_digest: &str,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("select owner from unique_claims where scope = $1 and value = $2")
        .bind(scope)
        .bind(value_digest)
        .fetch_optional(executor)
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_digest_is_the_hex_sha256_of_the_text() {
        assert_eq!(
            digest("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn a_digest_has_the_shape_of_a_digest_and_an_address_does_not() {
        assert!(is_digest(&digest("maria@exemplo.com")));
        assert!(!is_digest("maria@exemplo.com"));
        assert!(!is_digest(&digest("x").to_uppercase()));
    }

    #[test]
    fn addresses_differing_only_in_case_and_spaces_normalise_to_the_same() {
        assert_eq!(
            normalise_email("\tJOÃO@Exemplo.com "),
            normalise_email("joão@exemplo.com")
        );
    }
}
