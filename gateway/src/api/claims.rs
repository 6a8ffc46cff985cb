//! "Salvar na minha conta": a visitor's sign claimed by an account.
//!
//! | route | who | answer |
//! |---|---|---|
//! | `POST /api/accounts/{accountId}/qrcodes/{id}/claim` `{token}` | every role ([`Right::CreateQrCodes`]) | 200 `{id, paymentUrl}`: the code is now the account's, made by the caller; 404 `not-found` for an unknown code or a token that is not its management token; 409 `qrcode-already-claimed` when an account already has it |
//!
//! The token is the one in the sign's management link (`/placa-pix-criada/{id}?chave=…`); the
//! aggregate compares its SHA-256 with the one it recorded, so the token itself is never stored.

use axum::extract::{Path, State};
use domain::qrcode::{ClaimQrCode, QrCodeCommand};
use domain::team::Right;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::api::access::Workspace;
use crate::api::json::Json;
use crate::auth::accounts::now;
use crate::error::ApiError;
use crate::read_your_writes::wait_for;
use crate::state::AppState;

/// The body.
#[derive(Debug, Default, Deserialize)]
pub struct ClaimBody {
    /// The management token.
    #[serde(default)]
    pub token: String,
}

/// The answer.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Claimed {
    /// The code's id.
    pub id: String,
    /// Its payer page, absolute.
    pub payment_url: String,
}

/// `POST /api/accounts/{accountId}/qrcodes/{id}/claim`.
///
/// # Errors
///
/// As the module table says.
pub async fn claim(
    State(state): State<AppState>,
    workspace: Workspace,
    Path((_, id)): Path<(String, String)>,
    Json(body): Json<ClaimBody>,
) -> Result<Json<Claimed>, ApiError> {
    workspace.require(Right::CreateQrCodes)?;
    let qrcode_id = Uuid::parse_str(&id).map_err(|_| ApiError::not_found())?;
    let token = body.token.trim();
    if token.is_empty() || token.len() > 128 {
        return Err(ApiError::not_found());
    }
    let command = QrCodeCommand::ClaimQrCode(ClaimQrCode {
        qrcode_id: qrcode_id.to_string(),
        owner_id: workspace.account_id().to_owned(),
        claimed_by: workspace.caller_id().to_owned(),
        management_digest: crate::signs::management_token_digest(token),
        requested_at: now(),
    });
    // The code counts in the account's plan usage from now on, in the month it was made (as the
    // dashboard's month counts show it); a code never made is refused by the command, which
    // then counts nothing. Claims are not limited: the code exists already.
    let stream_id = qrcode_id.to_string();
    let made_at = state
        .qrcodes
        .load(&stream_id)
        .await
        .map_err(ApiError::from)?
        .aggregate
        .created_at;
    let effects = match made_at {
        Some(made_at) => {
            commands::Effects::new().count_qrcodes(workspace.account_id(), made_at, 1, None)
        }
        None => commands::Effects::new(),
    };
    let outcome = state
        .qrcodes
        .execute_with(
            &stream_id,
            command,
            commands::ExpectedVersion::Any,
            commands::CommandMetadata::start().by(workspace.caller_id().to_owned()),
            &effects,
        )
        .await
        .map_err(ApiError::from)?;
    // Committed: the list the dashboard opens next should show it, so wait (bounded) for it.
    wait_for(&state, projections::qrcodes::NAME, outcome.position).await;
    Ok(Json(Claimed {
        payment_url: format!(
            "{}/pagamento/{qrcode_id}",
            state.site.url.trim_end_matches('/')
        ),
        id: qrcode_id.to_string(),
    }))
}
