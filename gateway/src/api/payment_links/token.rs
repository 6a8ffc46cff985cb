//! The signed token a payment link carries: `/pagar?link=ID.SIGNATURE`, where the signature is
//! an HMAC-SHA-256 of the link's id (first 128 bits, URL-safe base64) with a key derived from
//! the server secret (`TokenKeys::derive("pagar")`). Only links Balcão issued verify; changing
//! one character of the id or the signature, or making a link up, does not.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use sha2::Sha256;
use uuid::Uuid;

use crate::state::AppState;

/// Purpose label of the key, so nothing signed for another purpose verifies here.
const PURPOSE: &str = "pagar";
/// Bytes of the HMAC kept (128 bits).
const SIGNATURE_BYTES: usize = 16;

fn mac(state: &AppState, link_id: Uuid) -> Hmac<Sha256> {
    let key = state.auth.tokens.derive(PURPOSE);
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).expect("HMAC accepts keys of any length");
    mac.update(b"payment link\n");
    mac.update(link_id.as_bytes());
    mac
}

/// The token of `link_id`.
pub fn sign(state: &AppState, link_id: Uuid) -> String {
    let signature = mac(state, link_id).finalize().into_bytes();
    format!(
        "{link_id}.{}",
        URL_SAFE_NO_PAD.encode(&signature[..SIGNATURE_BYTES])
    )
}

/// The link id in `token` if this server signed it; `None` for anything else.
pub fn verify(state: &AppState, token: &str) -> Option<Uuid> {
    let (id, signature) = token.split_once('.')?;
    let link_id = Uuid::parse_str(id).ok()?;
    // Only the canonical spelling: another spelling of the same id is not what was issued.
    if link_id.to_string() != id {
        return None;
    }
    let signature = URL_SAFE_NO_PAD.decode(signature).ok()?;
    if signature.len() != SIGNATURE_BYTES {
        return None;
    }
    mac(state, link_id).verify_truncated_left(&signature).ok()?;
    Some(link_id)
}

/// The absolute `/pagar` address of `link_id`.
pub fn url(state: &AppState, link_id: Uuid) -> String {
    format!(
        "{}/pagar?link={}",
        state.site.url.trim_end_matches('/'),
        sign(state, link_id)
    )
}
