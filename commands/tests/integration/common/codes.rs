//! An account's QR codes to make in the workflow tests.

use commands::qrcode_usage::PlanAsRead;
use commands::qrcodes::NewCode;
use domain::brcode::{StaticCodeForm, StaticCodeRequest, preview_form};
use domain::qrcode::CreateAccountQrCode;
use domain::subscription::plans::PlanId;

/// A valid request with `txid`.
pub fn code_request(txid: &str) -> StaticCodeRequest {
    let form = StaticCodeForm {
        key: "dona@padaria.test".to_owned(),
        key_kind: "email".to_owned(),
        merchant_name: "Padaria da Dona".to_owned(),
        merchant_city: "Recife".to_owned(),
        txid: txid.to_owned(),
        ..StaticCodeForm::default()
    };
    preview_form(&form)
        .into_request(false)
        .expect("a valid request")
}

/// `plan` as read from an account with no subscription yet (its stream at version 0).
pub fn unsubscribed(plan: PlanId) -> PlanAsRead {
    PlanAsRead { plan, version: 0 }
}

/// A code of `owner` with `txid` (typed or generated), made at `at` (RFC 3339) on `plan`, read
/// from an account with no subscription yet.
pub fn new_code_at(owner: &str, txid: &str, typed: bool, plan: PlanId, at: &str) -> NewCode {
    NewCode {
        create: CreateAccountQrCode {
            qrcode_id: uuid::Uuid::now_v7().to_string(),
            owner_id: owner.to_owned(),
            created_by: owner.to_owned(),
            key_id: None,
            batch_id: None,
            duplicate_of: None,
            request: code_request(txid),
            requested_at: at.to_owned(),
        },
        txid_typed: typed,
        plan: unsubscribed(plan),
    }
}
