//! Plans and billing (issue 12): the plan's limits at the API (402 `plan-limit-reached` for each
//! limited action, gone after the upgrade), the sandbox provider's whole flow, and the Asaas
//! adapter and webhook against a local fake Asaas replaying the documented payloads.

mod asaas;
mod cancel;
mod fake_asaas;
mod history;
mod limits;
mod live;
mod one_charge;
mod renewals;
mod sandbox;
pub(crate) mod support;
