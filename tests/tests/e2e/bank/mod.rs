//! "Conectar banco" end to end (issue 33): the gateway and its API Pix client against the bank
//! simulator (`tests::api_pix_bank`) over real mutual TLS.

mod catch_up;
mod certificates;
mod charges;
mod connect;
mod profiles;
mod refunds;
mod secrets;
mod support;
