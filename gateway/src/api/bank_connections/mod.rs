//! "Conectar banco" (issue 33): Balcão talks to the bank that holds one of the account's keys,
//! through the bank's API Pix, so the owner never calls it by hand.
//!
//! | route | who | answer |
//! |---|---|---|
//! | `GET /api/accounts/{accountId}/bank-connections` | owner, manager ([`Right::ManageKeys`]) | 200 `{banks, connections}`: the banks the form offers and every connected key ([`view`]) |
//! | `GET /api/accounts/{accountId}/bank-connections/{keyId}` | owner, manager | 200 `{keyId, pixKey, banks, connection}`: the key's page (`connection` is `null` while it is not connected) |
//! | `PUT /api/accounts/{accountId}/bank-connections/{keyId}` | owner, manager | 200 the connection: the credentials tested at the bank (a token, then the key's webhook read), kept sealed, the webhook registered; 422 naming the field at fault (`bank`, `environment`, `clientId`, `clientSecret`, `certificate`, `certificateKey`, `certificatePassword`, `extra`, `apiBaseUrl`, `tokenUrl`) or the bank's refusal (`bank-…`, below) with nothing kept; 402 when the plan's receivers are all in use |
//! | `POST …/bank-connections/{keyId}/test` | owner, manager | 200 the connection with the test's outcome (noted whatever the bank answered); 404 when not connected |
//! | `POST …/bank-connections/{keyId}/webhook` | owner, manager | 200 the connection with the registration's outcome (noted whatever the bank answered); 404 when not connected |
//! | `DELETE …/bank-connections/{keyId}` | owner, manager | 204: the bank asked to drop the webhook (best effort), Balcão's receiver turned off, the credentials deleted; 404 when not connected |
//!
//! Operators get 403 `forbidden`; a key that is not the account's (or was removed) is 404.
//!
//! The bank's answers, while connecting (nothing is kept):
//!
//! | code | status | when |
//! |---|---|---|
//! | `bank-invalid-client` | 422 (`clientSecret`) | the token call refused the client id or secret |
//! | `bank-certificate-refused` | 422 (`certificate`) | the TLS handshake refused the certificate |
//! | `bank-scope-missing` | 422 | the token lacks a permission the call needs |
//! | `bank-key-not-registered` | 422 | the bank does not hold this key for these credentials |
//! | `bank-not-found` | 422 | the bank knows no such path (a wrong typed address) |
//! | `bank-refused` | 422 | any other refusal: the bank's own title and detail |
//! | `bank-setup` | 422 | the certificate could not be made into a TLS identity |
//! | `bank-unavailable`, `bank-unreachable`, `bank-server-untrusted`, `bank-unexpected` | 502 | the bank answered 5xx, could not be reached, showed a server certificate we do not trust, or answered something unreadable |
//! | `bank-timeout` | 504 | the bank did not answer within `BALCAO_BANK_TIMEOUT_MS` |
//!
//! After a test or a registration the outcome is an event either way ([`BankConnectionTested`],
//! [`BankWebhookRegistrationFailed`]): the screen shows what the bank said and when.
//!
//! The webhook is Balcão's API Pix receiver address for the key (`/webhooks/api-pix/{token}`,
//! [`crate::api::payments::receivers`]): turned on for the key, or given a new token when it
//! was on (only the token's digest is kept, so the address the bank needs can only be made
//! anew), before the bank is asked to take it: banks call the address while registering it. The
//! previous address keeps answering for [`PREVIOUS_ADDRESS_GRACE`], so replacing the
//! credentials or the certificate loses no delivery the bank had queued.
//!
//! [`BankConnectionTested`]: domain::bank_connection::BankConnectionTested
//! [`BankWebhookRegistrationFailed`]: domain::bank_connection::BankWebhookRegistrationFailed

pub mod form;
pub mod view;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use commands::api_pix_receivers::{self as receivers, ReceiverError};
use commands::bank_credentials::{self, BankCredentials, SealedBankCredentials};
use commands::{
    CommandError, CommandMetadata, CommandService, Effects, ExpectedVersion, PgEventStore,
};
use domain::bank_connection::{
    BankConnection, BankConnectionCommand, ConnectBank, DisconnectBank, RecordConnectionTest,
    RecordWebhookRegistration,
};
use domain::team::Right;
use uuid::Uuid;

use crate::api::access::Workspace;
use crate::api::json::Json;
use crate::api::payments::receiver::token_digest;
use crate::api::payments::receivers::{key_of, new_token, url_for};
use crate::auth::accounts::now;
use crate::bank::{ApiPixClient, BankError};
use crate::error::ApiError;
use crate::state::AppState;

use self::form::ConnectForm;
use self::view::{CatchUpJson, ConnectionJson, ConnectionsJson, KeyPageJson};

/// How long the key's previous receiver address keeps answering after Balcão registered a new
/// one at the bank (a bank's queued deliveries and retries reach it meanwhile; the catch-up
/// covers anything later).
pub const PREVIOUS_ADDRESS_GRACE: std::time::Duration = std::time::Duration::from_secs(15 * 60);

/// The bank-connection aggregate's command service.
pub(crate) fn service(state: &AppState) -> CommandService<BankConnection> {
    CommandService::new(PgEventStore::new(state.pool.clone()), ())
}

/// Runs `command` on the key's stream as the signed-in person, with `effects` in its
/// transaction: every command of this module goes this way.
async fn decide(
    state: &AppState,
    workspace: &Workspace,
    key_id: Uuid,
    command: BankConnectionCommand,
    effects: &Effects,
) -> Result<(), ApiError> {
    service(state)
        .execute_with(
            &key_id.to_string(),
            command,
            ExpectedVersion::Any,
            CommandMetadata::start().by(workspace.caller_id().to_owned()),
            effects,
        )
        .await?;
    Ok(())
}

/// The status a bank's failure is answered with (the module's second table): 504 for a bank
/// too slow, 502 for one down, out of reach, untrusted or unreadable, 422 for its refusals.
pub(crate) fn bank_status(error: &BankError) -> StatusCode {
    match error {
        BankError::Timeout => StatusCode::GATEWAY_TIMEOUT,
        BankError::Unavailable { .. }
        | BankError::Unreachable { .. }
        | BankError::ServerUntrusted { .. }
        | BankError::Unexpected { .. } => StatusCode::BAD_GATEWAY,
        _ => StatusCode::UNPROCESSABLE_ENTITY,
    }
}

/// A bank's failure as the API answers it (the module's second table).
fn bank_failure(error: &BankError) -> ApiError {
    let failure = ApiError::new(bank_status(error), error.code(), error.to_string());
    match error {
        BankError::InvalidClient => failure.with_field("clientSecret"),
        BankError::CertificateRefused => failure.with_field("certificate"),
        _ => failure,
    }
}

/// The client for `credentials`, with the deployment's bank settings.
fn client_for(state: &AppState, credentials: &BankCredentials) -> Result<ApiPixClient, ApiError> {
    crate::bank::client_for(&state.payments.banks, &state.clock, credentials)
        .map_err(|error| bank_failure(&error))
}

/// The key's connection as the log holds it.
async fn load(state: &AppState, key_id: Uuid) -> Result<BankConnection, ApiError> {
    Ok(service(state)
        .load(&key_id.to_string())
        .await
        .map_err(ApiError::from)?
        .aggregate)
}

/// How the key's catch-up stands (`bank_catch_up`), if it has run.
async fn catch_up_of(state: &AppState, key_id: Uuid) -> Result<Option<CatchUpJson>, ApiError> {
    Ok(sqlx::query_as(
        "select checked_until, last_success_at, failing_since, last_problem
           from bank_catch_up where key_id = $1",
    )
    .bind(key_id)
    .fetch_optional(&state.pool)
    .await?)
}

/// The key's connection as the API shows it, drawn from the log (what the commands decided).
async fn answer(state: &AppState, key_id: Uuid) -> Result<Json<ConnectionJson>, ApiError> {
    let connection = load(state, key_id).await?;
    view::connection(&connection, catch_up_of(state, key_id).await?)
        .map(Json)
        .ok_or_else(ApiError::not_found)
}

/// The connected key's credentials, opened; 404 when it is not connected.
async fn credentials_of(
    state: &AppState,
    workspace: &Workspace,
    key_id: Uuid,
) -> Result<BankCredentials, ApiError> {
    bank_credentials::load_opened(&state.pool, workspace.account_uuid(), key_id)
        .await
        .map_err(|error| ApiError::internal(anyhow::anyhow!(error)))?
        .ok_or_else(ApiError::not_found)
}

/// `GET /api/accounts/{accountId}/bank-connections`.
///
/// # Errors
///
/// As the module table says.
pub async fn list(
    State(state): State<AppState>,
    workspace: Workspace,
) -> Result<Json<ConnectionsJson>, ApiError> {
    workspace.require(Right::ManageKeys)?;
    // The keys with credentials are the connected ones: the row is written and deleted in the
    // transactions of `BankConnected` and `BankDisconnected`.
    let keys: Vec<Uuid> = sqlx::query_scalar(
        "select key_id from bank_credentials where account_id = $1 order by updated_at",
    )
    .bind(workspace.account_uuid())
    .fetch_all(&state.pool)
    .await?;
    let mut connections = Vec::with_capacity(keys.len());
    for key_id in keys {
        if let Some(connection) = view::connection(
            &load(&state, key_id).await?,
            catch_up_of(&state, key_id).await?,
        ) {
            connections.push(connection);
        }
    }
    Ok(Json(ConnectionsJson {
        banks: view::banks(),
        connections,
    }))
}

/// `GET /api/accounts/{accountId}/bank-connections/{keyId}`.
///
/// # Errors
///
/// As the module table says.
pub async fn show(
    State(state): State<AppState>,
    workspace: Workspace,
    Path((_, key_id)): Path<(String, String)>,
) -> Result<Json<KeyPageJson>, ApiError> {
    workspace.require(Right::ManageKeys)?;
    let (key_id, pix_key) = key_of(&state, &workspace, &key_id).await?;
    let connection = view::connection(
        &load(&state, key_id).await?,
        catch_up_of(&state, key_id).await?,
    );
    Ok(Json(KeyPageJson {
        key_id: key_id.to_string(),
        pix_key,
        banks: view::banks(),
        connection,
    }))
}

/// Asks the bank for a token and reads the key's webhook: what "the connection works" means.
async fn probe(client: &ApiPixClient, pix_key: &str) -> Result<(), BankError> {
    client.token().await?;
    client.get_webhook(pix_key).await?;
    Ok(())
}

/// Turns the key's receiver on (a new token when it was on), asks the bank to take its address
/// and notes what the bank answered.
async fn register_webhook(
    state: &AppState,
    workspace: &Workspace,
    key_id: Uuid,
    pix_key: &str,
    client: &ApiPixClient,
) -> Result<(), ApiError> {
    let token = new_token();
    let digest = token_digest(&token);
    let plan = crate::billing::plan_of(&state.billing, workspace.account_id()).await?;
    let turned_on = receivers::turn_on(
        &state.pool,
        receivers::TurnOn {
            account_id: workspace.account_uuid(),
            key_id,
            token_digest: &digest,
            by: workspace.caller_id(),
            plan,
        },
    )
    .await;
    match turned_on {
        Ok(()) => {}
        Err(CommandError::Rejected(ReceiverError::AlreadyOn)) => {
            // Balcão moves the bank to the new address itself: what the bank queued for the
            // old one still arrives for a while (credentials replaced without downtime).
            receivers::rotate_with_grace(
                &state.pool,
                workspace.account_uuid(),
                key_id,
                &digest,
                Some(PREVIOUS_ADDRESS_GRACE),
            )
            .await?;
        }
        Err(other) => return Err(other.into()),
    }
    let outcome = client
        .put_webhook(pix_key, &url_for(state, &token))
        .await
        .map_err(|error| (error.code().to_owned(), error.to_string()));
    let command = BankConnectionCommand::RecordWebhookRegistration(RecordWebhookRegistration {
        outcome,
        by: workspace.caller_id().to_owned(),
        requested_at: now(),
    });
    decide(state, workspace, key_id, command, &Effects::new()).await?;
    Ok(())
}

/// `PUT /api/accounts/{accountId}/bank-connections/{keyId}`.
///
/// # Errors
///
/// As the module tables say.
pub async fn connect(
    State(state): State<AppState>,
    workspace: Workspace,
    Path((_, key_id)): Path<(String, String)>,
    Json(body): Json<ConnectForm>,
) -> Result<Json<ConnectionJson>, ApiError> {
    workspace.require(Right::ManageKeys)?;
    let (key_id, pix_key) = key_of(&state, &workspace, &key_id).await?;
    let parsed = form::parse(&body, state.clock.now())?;
    let client = client_for(&state, &parsed.credentials)?;
    // Tested before anything is kept: a wrong secret or certificate leaves nothing behind.
    probe(&client, &pix_key)
        .await
        .map_err(|error| bank_failure(&error))?;
    let account_key = commands::vault::load_key(&state.pool, workspace.account_id())
        .await
        .map_err(|error| ApiError::internal(anyhow::anyhow!(error)))?
        .ok_or_else(ApiError::not_found)?;
    let sealed = SealedBankCredentials::seal(&account_key, key_id, &parsed.credentials);
    let at = now();
    let command = BankConnectionCommand::ConnectBank(ConnectBank {
        key_id: key_id.to_string(),
        account_id: workspace.account_id().to_owned(),
        pix_key: pix_key.clone(),
        bank: parsed.bank.slug().to_owned(),
        environment: parsed.environment.slug().to_owned(),
        certificate_fingerprint: parsed.certificate.fingerprint_sha256().to_owned(),
        certificate_not_after: parsed
            .certificate
            .not_after()
            .to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        connected_by: workspace.caller_id().to_owned(),
        requested_at: at.clone(),
    });
    decide(
        &state,
        &workspace,
        key_id,
        command,
        &Effects::new().store_bank_credentials(sealed),
    )
    .await?;
    let tested = BankConnectionCommand::RecordConnectionTest(RecordConnectionTest {
        outcome: Ok(()),
        by: workspace.caller_id().to_owned(),
        requested_at: at,
    });
    decide(&state, &workspace, key_id, tested, &Effects::new()).await?;
    // Connected: from here on, what the bank answers is noted, never a failed request.
    register_webhook(&state, &workspace, key_id, &pix_key, &client).await?;
    answer(&state, key_id).await
}

/// `POST /api/accounts/{accountId}/bank-connections/{keyId}/test`.
///
/// # Errors
///
/// As the module table says.
pub async fn test(
    State(state): State<AppState>,
    workspace: Workspace,
    Path((_, key_id)): Path<(String, String)>,
) -> Result<Json<ConnectionJson>, ApiError> {
    workspace.require(Right::ManageKeys)?;
    let (key_id, pix_key) = key_of(&state, &workspace, &key_id).await?;
    let credentials = credentials_of(&state, &workspace, key_id).await?;
    let outcome = match client_for(&state, &credentials) {
        Ok(client) => probe(&client, &pix_key)
            .await
            .map_err(|error| (error.code().to_owned(), error.to_string())),
        Err(refused) => Err((refused.code().to_owned(), refused.message().to_owned())),
    };
    let command = BankConnectionCommand::RecordConnectionTest(RecordConnectionTest {
        outcome,
        by: workspace.caller_id().to_owned(),
        requested_at: now(),
    });
    decide(&state, &workspace, key_id, command, &Effects::new()).await?;
    answer(&state, key_id).await
}

/// `POST /api/accounts/{accountId}/bank-connections/{keyId}/webhook`.
///
/// # Errors
///
/// As the module table says.
pub async fn register(
    State(state): State<AppState>,
    workspace: Workspace,
    Path((_, key_id)): Path<(String, String)>,
) -> Result<Json<ConnectionJson>, ApiError> {
    workspace.require(Right::ManageKeys)?;
    let (key_id, pix_key) = key_of(&state, &workspace, &key_id).await?;
    let credentials = credentials_of(&state, &workspace, key_id).await?;
    let client = client_for(&state, &credentials)?;
    register_webhook(&state, &workspace, key_id, &pix_key, &client).await?;
    answer(&state, key_id).await
}

/// `DELETE /api/accounts/{accountId}/bank-connections/{keyId}`.
///
/// # Errors
///
/// As the module table says.
pub async fn disconnect(
    State(state): State<AppState>,
    workspace: Workspace,
    Path((_, key_id)): Path<(String, String)>,
) -> Result<StatusCode, ApiError> {
    workspace.require(Right::ManageKeys)?;
    let (key_id, pix_key) = key_of(&state, &workspace, &key_id).await?;
    let credentials = credentials_of(&state, &workspace, key_id).await?;
    // Best effort: a bank that cannot be reached keeps calling an address that no longer
    // answers (the receiver is turned off below), which records nothing.
    if let Ok(client) = client_for(&state, &credentials)
        && let Err(error) = client.delete_webhook(&pix_key).await
    {
        tracing::info!(
            code = error.code(),
            "the bank did not drop the webhook of a key being disconnected"
        );
    }
    let command = BankConnectionCommand::DisconnectBank(DisconnectBank {
        by: workspace.caller_id().to_owned(),
        requested_at: now(),
    });
    decide(
        &state,
        &workspace,
        key_id,
        command,
        &Effects::new().forget_bank_credentials(workspace.account_uuid(), key_id),
    )
    .await?;
    match receivers::turn_off(&state.pool, workspace.account_uuid(), key_id).await {
        Ok(()) | Err(CommandError::Rejected(ReceiverError::NotOn)) => {}
        Err(other) => return Err(other.into()),
    }
    Ok(StatusCode::NO_CONTENT)
}
