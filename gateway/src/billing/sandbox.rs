//! The built-in sandbox billing provider: the default when no Asaas key is configured and
//! `BALCAO_SANDBOX_PAYMENTS` is on (`make run`). It opens charges without any network call and
//! nothing can be paid with its codes: they are dynamic BR Codes whose location is under
//! `.invalid`, a top-level domain reserved never to resolve, so no bank app can fetch a charge
//! from them. "Simular pagamento" on the checkout page confirms a charge through the same path an
//! Asaas `PAYMENT_RECEIVED` takes ([`super::settle`]).

use chrono::{Duration, Utc};
use domain::brcode::{DynamicCodeRequest, make_dynamic};
use uuid::Uuid;

use super::provider::{ChargeRequest, OpenedCharge, ProviderError, Withdrawal, checked_payload};

/// How long a sandbox Pix stays payable (short, so the checkout's expiry can be seen).
pub const SANDBOX_PIX_MINUTES: i64 = 30;

/// Opens a sandbox charge.
///
/// # Errors
///
/// [`ProviderError::BadPixCode`] if the engine refused the code it made (a bug).
pub fn open(_request: &ChargeRequest) -> Result<OpenedCharge, ProviderError> {
    let provider_payment_id = format!("sbx_{}", Uuid::now_v7().simple());
    let code = DynamicCodeRequest::new(
        format!("pix.sandbox.balcao.invalid/cob/{provider_payment_id}"),
        "Balcao Sandbox",
        "Sao Paulo",
    );
    let made = make_dynamic(&code).map_err(|errors| {
        ProviderError::BadPixCode(
            errors
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" "),
        )
    })?;
    Ok(OpenedCharge {
        provider_payment_id,
        pix_payload: checked_payload(&made.payload)?,
        expires_at: Utc::now() + Duration::minutes(SANDBOX_PIX_MINUTES),
        customer: None,
    })
}

/// Deletes a sandbox charge: nothing to call, and nobody can pay a sandbox code but "Simular
/// pagamento", which records the payment itself; so it is simply gone.
pub fn delete(_provider_payment_id: &str) -> Withdrawal {
    Withdrawal::Deleted
}
