//! Read models `accounts` and `account_members`: each account that exists, with its personal
//! fields readable, and the invitations and memberships of its team.
//!
//! Built from the Account aggregate's events (stream type `account`, upcast to their current schema
//! versions by the runtime; the tables come from `migrations/` only). Personal
//! fields arrive sealed; the projection opens them with the account's key
//! (`commands::vault::load_key`) inside its own transaction. A key that is gone (the account was
//! deleted: crypto-shredding) leaves them null, on replay too. `AccountDeleted` removes the
//! account's row and every `account_members` row naming it, as the workspace or as the member.
//!
//! The gateway reads it with [`find`], [`members_of`], [`role_in`] and [`workspaces_of`].

mod fold;

use chrono::{DateTime, Utc};
use domain::account::MemberStatus;
use domain::team::Role;
use sqlx::PgExecutor;
use uuid::Uuid;

use crate::error::Error;

pub use fold::Accounts;

/// The projection's name (durable consumer, checkpoint key).
pub const NAME: &str = "accounts";
/// The live table of accounts.
pub const ACCOUNTS_TABLE: &str = "accounts";
/// The live table of invitations and memberships.
pub const MEMBERS_TABLE: &str = "account_members";
/// Stream type of the Account aggregate.
pub const STREAM_TYPE: &str = domain::account::STREAM_TYPE;

/// One account as its owner sees it in the settings.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct AccountView {
    /// The account's id.
    pub account_id: Uuid,
    /// The sign-in e-mail; `None` when it cannot be opened (key destroyed).
    pub email: Option<String>,
    /// Whether the current e-mail was verified.
    pub email_verified: bool,
    /// The name shown in the dashboard; `None` when it cannot be opened.
    pub display_name: Option<String>,
    /// `+55DDNNNNNNNNN`, if given.
    pub phone_number: Option<String>,
    /// `/fotos/{account_id}?v={etag}`, if there is a photo.
    pub photo_url: Option<String>,
    /// Merchant name suggested for new QR codes.
    pub default_merchant_name: Option<String>,
    /// Merchant city suggested for new QR codes.
    pub default_merchant_city: Option<String>,
    /// Whether the account is disabled.
    pub disabled: bool,
    /// When the account was opened.
    pub created_at: DateTime<Utc>,
    /// When the newest event folded in happened.
    pub updated_at: DateTime<Utc>,
    /// Stream version of the newest event folded in (the aggregate version this row shows).
    pub version: i64,
}

/// One invitation to an account's team, pending or accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberView {
    /// The workspace: the account that invited.
    pub account_id: Uuid,
    /// The invitation's id.
    pub invitation_id: String,
    /// The invited address; `None` when it cannot be opened.
    pub email: Option<String>,
    /// The role offered: manager or operator.
    pub role: Role,
    /// [`MemberStatus::Invited`] or [`MemberStatus::Active`] (removed ones are not kept).
    pub status: MemberStatus,
    /// The account that accepted, once accepted.
    pub member_account_id: Option<Uuid>,
    /// When the invitation was made.
    pub invited_at: DateTime<Utc>,
    /// When it was accepted.
    pub joined_at: Option<DateTime<Utc>>,
}

/// An account a person can work in: their own, or one whose team they joined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkspaceView {
    /// The workspace's account id.
    pub account_id: Uuid,
    /// The workspace's display name; `None` when it cannot be opened.
    pub display_name: Option<String>,
    /// The person's role there ([`Role::Owner`] for their own account).
    pub role: Role,
}

/// The account with this id, if it exists (opened and not deleted) in the read model.
///
/// Right after a command, call [`crate::projector::wait_until`] with the command's feed
/// position first, or this may show the account as it was before.
pub async fn find<'e>(
    executor: impl PgExecutor<'e>,
    account_id: Uuid,
) -> Result<Option<AccountView>, Error> {
    Ok(sqlx::query_as(
        "select account_id, email, email_verified, display_name, phone_number, photo_url,
                default_merchant_name, default_merchant_city, disabled, created_at, updated_at,
                version
           from accounts where account_id = $1",
    )
    .bind(account_id)
    .fetch_optional(executor)
    .await?)
}

#[derive(sqlx::FromRow)]
struct MemberRow {
    account_id: Uuid,
    invitation_id: String,
    email: Option<String>,
    role: String,
    status: String,
    member_account_id: Option<Uuid>,
    invited_at: DateTime<Utc>,
    joined_at: Option<DateTime<Utc>>,
}

impl TryFrom<MemberRow> for MemberView {
    type Error = Error;

    fn try_from(row: MemberRow) -> Result<MemberView, Error> {
        // The table's check constraints admit only these spellings.
        let status = match row.status.as_str() {
            "invited" => MemberStatus::Invited,
            "active" => MemberStatus::Active,
            other => return Err(decode_error(format!("unknown member status {other:?}"))),
        };
        Ok(MemberView {
            account_id: row.account_id,
            invitation_id: row.invitation_id,
            email: row.email,
            role: stored_role(&row.role)?,
            status,
            member_account_id: row.member_account_id,
            invited_at: row.invited_at,
            joined_at: row.joined_at,
        })
    }
}

/// Every pending invitation and active member of the account's team, oldest invitation first.
pub async fn members_of<'e>(
    executor: impl PgExecutor<'e>,
    account_id: Uuid,
) -> Result<Vec<MemberView>, Error> {
    let rows: Vec<MemberRow> = sqlx::query_as(
        "select account_id, invitation_id, email, role, status, member_account_id, invited_at,
                joined_at
           from account_members where account_id = $1
          order by invited_at, invitation_id",
    )
    .bind(account_id)
    .fetch_all(executor)
    .await?;
    rows.into_iter().map(MemberView::try_from).collect()
}

/// The role `member_account_id` holds in account `account_id`: [`Role::Owner`] when they are the
/// same existing account, the member's role when they are an active member of it, `None`
/// otherwise (no such account, a pending invitation, not in the team).
///
/// A disabled workspace still answers its roles; whether a disabled account may be worked in is
/// the caller's decision ([`access_to`] tells both at once).
pub async fn role_in<'e>(
    executor: impl PgExecutor<'e>,
    account_id: Uuid,
    member_account_id: Uuid,
) -> Result<Option<Role>, Error> {
    Ok(access_to(executor, account_id, member_account_id)
        .await?
        .map(|access| access.role))
}

/// What a caller may do in an account: its role there, and whether the account is disabled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Access {
    /// The caller's role ([`role_in`]).
    pub role: Role,
    /// Whether the account is disabled (nothing may be done in it).
    pub disabled: bool,
}

/// The statement behind [`access_to`], for a larger statement to embed with its own parameter
/// numbers (given as string literals, e.g. `account_access_sql!("$1", "$2")`): the role of
/// member `$member` in account `$account` (`'owner'` when they are the same account, an active
/// member's role, else null) as `role`, and the account's `disabled` flag; one row when the
/// account exists. Expands to a string literal, for `concat!`.
#[macro_export]
macro_rules! account_access_sql {
    ($account:literal, $member:literal) => {
        concat!(
            "select case when a.account_id = ",
            $member,
            " then 'owner'
                     else (select m.role from account_members m
                            where m.account_id = ",
            $account,
            " and m.member_account_id = ",
            $member,
            " and m.status = 'active'
                            limit 1)
                end as role,
                a.disabled
           from accounts a
          where a.account_id = ",
            $account
        )
    };
}

/// [`role_in`] and the account's `disabled` flag in one statement: every request to a
/// workspace asks both (they were two round trips per request). The gateway's workspace check
/// runs the same statement ([`account_access_sql`]) beside the session's.
pub async fn access_to<'e>(
    executor: impl PgExecutor<'e>,
    account_id: Uuid,
    member_account_id: Uuid,
) -> Result<Option<Access>, Error> {
    let row: Option<(Option<String>, bool)> = sqlx::query_as(account_access_sql!("$1", "$2"))
        .bind(account_id)
        .bind(member_account_id)
        .fetch_optional(executor)
        .await?;
    let Some((Some(role), disabled)) = row else {
        return Ok(None);
    };
    Ok(Some(Access {
        role: stored_role(&role)?,
        disabled,
    }))
}

#[derive(sqlx::FromRow)]
struct WorkspaceRow {
    account_id: Uuid,
    display_name: Option<String>,
    role: String,
}

/// Every account `account_id` can work in: its own first (role owner, if it exists), then the
/// teams it is an active member of, in the order it joined them.
pub async fn workspaces_of<'e>(
    executor: impl PgExecutor<'e>,
    account_id: Uuid,
) -> Result<Vec<WorkspaceView>, Error> {
    let rows: Vec<WorkspaceRow> = sqlx::query_as(
        "select account_id, display_name, role from (
             select account_id, display_name, 'owner' as role, 0 as rank,
                    created_at as since
               from accounts where account_id = $1
             union all
             select a.account_id, a.display_name, m.role, 1, m.joined_at
               from account_members m join accounts a on a.account_id = m.account_id
              where m.member_account_id = $1 and m.status = 'active'
         ) w
         order by rank, since, account_id",
    )
    .bind(account_id)
    .fetch_all(executor)
    .await?;
    rows.into_iter()
        .map(|row| {
            Ok(WorkspaceView {
                account_id: row.account_id,
                display_name: row.display_name,
                role: stored_role(&row.role)?,
            })
        })
        .collect()
}

fn stored_role(text: &str) -> Result<Role, Error> {
    Role::from_stored(text).ok_or_else(|| decode_error(format!("unknown role {text:?}")))
}

fn decode_error(message: String) -> Error {
    Error::Database(sqlx::Error::Decode(message.into()))
}
