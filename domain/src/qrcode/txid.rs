//! Txids of the codes an account makes: generated or typed, and compared for uniqueness.
//!
//! A static code's txid (field 62-05) is 1–25 characters of `[A-Za-z0-9]` (BCB, Manual do BR
//! Code; `brcode::make::check_txid` enforces it). An account's codes always carry one, unique in
//! the account, because the bank reports a payment with the txid of the code that took it
//! (API Pix `Pix.txid`): that is how a payment finds its code.

/// How many characters a generated txid has: 80 random bits, far inside the limit of 25.
pub const GENERATED_TXID_LEN: usize = 16;

/// The characters of generated txids: upper-case letters and digits without `0`, `O`, `1` and
/// `I`, so a txid read aloud or from a bank statement is not mistaken. 32 of them, so each
/// character takes 5 random bits exactly (no bias).
const ALPHABET: &[u8; 32] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/// A txid made from `random` bytes (the domain reads no randomness: the caller draws them).
///
/// ```
/// use domain::qrcode::txid::{generated_txid, GENERATED_TXID_LEN};
/// let txid = generated_txid([7; GENERATED_TXID_LEN]);
/// assert_eq!(txid.len(), GENERATED_TXID_LEN);
/// assert!(domain::brcode::make::check_txid(&txid).is_ok());
/// ```
#[must_use]
pub fn generated_txid(random: [u8; GENERATED_TXID_LEN]) -> String {
    random
        .iter()
        .map(|byte| char::from(ALPHABET[usize::from(byte & 31)]))
        .collect()
}

/// The form two txids are compared in for uniqueness: upper case. `Mesa01` and `MESA01` are the
/// same txid for an account, so a person can never make two codes that differ only in case
/// (a bank statement or a person reading it aloud would not tell them apart).
///
/// ```
/// use domain::qrcode::txid::uniqueness_key;
/// assert_eq!(uniqueness_key("Mesa01"), uniqueness_key("MESA01"));
/// ```
#[must_use]
pub fn uniqueness_key(txid: &str) -> String {
    txid.trim().to_ascii_uppercase()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brcode::make::check_txid;

    #[test]
    fn every_generated_txid_is_a_valid_static_txid_without_look_alike_characters() {
        for seed in 0..=255u8 {
            let txid = generated_txid([seed.wrapping_mul(37); GENERATED_TXID_LEN]);
            assert_eq!(check_txid(&txid), Ok(Some(txid.clone())));
            assert!(!txid.contains(['0', 'O', '1', 'I']), "{txid}");
        }
    }

    #[test]
    fn different_random_bytes_give_different_txids() {
        let mut a = [0u8; GENERATED_TXID_LEN];
        let b = a;
        a[3] = 1;
        assert_ne!(generated_txid(a), generated_txid(b));
    }
}
