//! The process's view of the read models' progress, and the key that signs feed positions
//! handed to clients (held in the shared state; the wait itself is [`super::wait_for`]).

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use commands::FeedPosition;
use hmac::{Hmac, Mac};
use projections::projector::ProgressWatch;
use sha2::Sha256;
use uuid::Uuid;

/// Bytes of the HMAC kept in a signed position (128 bits).
const SIGNATURE_BYTES: usize = 16;

/// The process's view of the read models' progress, and the key that signs positions.
#[derive(Clone)]
pub struct Progress {
    watch: ProgressWatch,
    key: PositionKey,
}

impl Progress {
    /// `watch` for the waiting; `key` signs the positions handed to clients.
    pub fn new(watch: ProgressWatch, key: PositionKey) -> Self {
        Progress { watch, key }
    }

    /// The watch the waits use.
    pub fn watch(&self) -> &ProgressWatch {
        &self.watch
    }

    /// The key that signs and checks positions handed to clients.
    pub fn positions(&self) -> &PositionKey {
        &self.key
    }
}

/// Signs feed positions for one QR code's payer page, and checks them when they come back.
#[derive(Clone)]
pub struct PositionKey(Vec<u8>);

impl PositionKey {
    /// A key from secret bytes (derived from the server secret: `TokenKeys::derive`).
    pub fn new(key: Vec<u8>) -> Self {
        PositionKey(key)
    }

    fn mac(&self, qrcode_id: Uuid, text: &str) -> Hmac<Sha256> {
        let mut mac =
            Hmac::<Sha256>::new_from_slice(&self.0).expect("HMAC accepts keys of any length");
        mac.update(qrcode_id.as_bytes());
        mac.update(text.as_bytes());
        mac
    }

    /// `TX.GP.SIGNATURE`: `position` signed for the payer page of `qrcode_id`.
    pub fn sign(&self, qrcode_id: Uuid, position: FeedPosition) -> String {
        let text = format!("{}.{}", position.tx_id, position.global_position);
        let signature = self.mac(qrcode_id, &text).finalize().into_bytes();
        format!(
            "{text}.{}",
            URL_SAFE_NO_PAD.encode(&signature[..SIGNATURE_BYTES])
        )
    }

    /// The position in `signed` if this server signed it for `qrcode_id`; `None` for anything
    /// else (malformed, made up, or signed for another code).
    pub fn verify(&self, qrcode_id: Uuid, signed: &str) -> Option<FeedPosition> {
        let (text, signature) = signed.rsplit_once('.')?;
        let (tx, gp) = text.split_once('.')?;
        let position = FeedPosition {
            tx_id: tx.parse().ok()?,
            global_position: gp.parse().ok()?,
        };
        let signature = URL_SAFE_NO_PAD.decode(signature).ok()?;
        if signature.len() != SIGNATURE_BYTES {
            return None;
        }
        self.mac(qrcode_id, text)
            .verify_truncated_left(&signature)
            .ok()?;
        Some(position)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &[u8] = b"0123456789abcdef0123456789abcdef";

    #[test]
    fn a_signed_position_verifies_only_for_its_own_code_and_key() {
        let key = PositionKey::new(KEY.to_vec());
        let code = Uuid::now_v7();
        let position = FeedPosition {
            tx_id: 812,
            global_position: 45,
        };
        let signed = key.sign(code, position);
        assert!(signed.starts_with("812.45."), "{signed}");
        assert_eq!(key.verify(code, &signed), Some(position));
        assert_eq!(key.verify(Uuid::now_v7(), &signed), None);
        let another = PositionKey::new(b"another server, another key.....".to_vec());
        assert_eq!(another.verify(code, &signed), None);
    }

    #[test]
    fn a_made_up_or_tampered_position_is_ignored() {
        let key = PositionKey::new(KEY.to_vec());
        let code = Uuid::now_v7();
        let signed = key.sign(
            code,
            FeedPosition {
                tx_id: 812,
                global_position: 45,
            },
        );
        let signature = signed.rsplit_once('.').unwrap().1;
        for hostile in [
            "999999999999.1".to_owned(),
            format!("999999999999.1.{signature}"),
            format!("812.46.{signature}"),
            "812.45.".to_owned(),
            "garbage".to_owned(),
        ] {
            assert_eq!(key.verify(code, &hostile), None, "{hostile}");
        }
    }
}
