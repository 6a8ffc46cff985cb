//! One transaction of a statement, typed: signed centavos, the posting instant, the bank's id
//! (`FITID`) or a stable hash, and the texts the bank wrote.

use unicode_normalization::UnicodeNormalization;

use super::posted::PostedAt;
use crate::money::Centavos;

/// How a line is known across imports: the bank's `FITID`, or a hash of what it says.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum LineId {
    /// The bank's own id (OFX `FITID`, a CSV "Identificador" column), when no other line of
    /// the file has it.
    Fitid(String),
    /// 16 hex digits of FNV-1a over the day, amount, texts and the line's rank among identical
    /// lines of the file (two equal Pix of R$ 10 on one day stay two).
    Hash(String),
}

impl LineId {
    /// The spelling stored with a payment: `fitid:…` or `hash:…`.
    pub fn key(&self) -> String {
        match self {
            LineId::Fitid(id) => format!("fitid:{id}"),
            LineId::Hash(hash) => format!("hash:{hash}"),
        }
    }
}

/// One transaction of a statement file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatementLine {
    /// The 1-based line of the file where it starts.
    pub line: usize,
    /// How it is known across imports.
    pub id: LineId,
    /// OFX `TRNTYPE` upper-cased (`CREDIT`, `DEP`, `XFER`, `DEBIT`…); `None` in CSV.
    pub trntype: Option<String>,
    /// Signed centavos: credits positive, debits negative.
    pub amount_centavos: i64,
    /// When it was posted.
    pub posted: PostedAt,
    /// OFX `MEMO`, or the CSV description columns joined by " - ".
    pub memo: String,
    /// OFX `NAME`, when present.
    pub name: Option<String>,
    /// A Pix end-to-end id found in the texts (`E` + ISPB + date + 11 characters).
    pub end_to_end_id: Option<String>,
    /// A txid found in the texts after "txid".
    pub txid: Option<String>,
}

/// `TRNTYPE`s that are money leaving the account, whatever the sign says.
const DEBIT_TYPES: [&str; 9] = [
    "DEBIT",
    "PAYMENT",
    "CHECK",
    "ATM",
    "POS",
    "FEE",
    "SRVCHG",
    "DIRECTDEBIT",
    "CASH",
];

impl StatementLine {
    /// The amount when money came in.
    pub fn credit(&self) -> Option<Centavos> {
        let is_debit_type = self
            .trntype
            .as_deref()
            .is_some_and(|t| DEBIT_TYPES.contains(&t));
        (self.amount_centavos > 0 && !is_debit_type)
            .then(|| Centavos::new(self.amount_centavos.unsigned_abs()))
    }

    /// A credit whose texts say it is a Pix received: "PIX RECEBIDO", "Transferência recebida
    /// pelo Pix", "PIX TRANSF FULANO 02/03" on a credit… and not a refund or reversal of a Pix
    /// the account sent ("DEVOLUÇÃO PIX", "ESTORNO"), which pays no code.
    pub fn is_pix_credit(&self) -> bool {
        if self.credit().is_none() {
            return false;
        }
        let text = fold(&format!(
            "{} {} {}",
            self.trntype.as_deref().unwrap_or(""),
            self.memo,
            self.name.as_deref().unwrap_or("")
        ));
        let words: Vec<&str> = text
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect();
        let says_pix = words.contains(&"PIX");
        let refused = words.iter().any(|w| {
            w.starts_with("DEVOL")
                || w.starts_with("ESTORN")
                || w.starts_with("ENVIAD")
                || w.starts_with("TARIFA")
        });
        says_pix && !refused
    }
}

/// Upper-case ASCII with the accents taken off ("Transferência" → "TRANSFERENCIA").
pub(crate) fn fold(text: &str) -> String {
    text.nfkd()
        .filter(char::is_ascii)
        .collect::<String>()
        .to_ascii_uppercase()
}

/// The first Pix end-to-end id in `text`: `E` (or `D`, a return's), 8 digits of ISPB, 8 of date
/// (`yyyyMMdd`), 4 of time and 11 alphanumerics: 32 characters.
pub(crate) fn find_end_to_end_id(text: &str) -> Option<String> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .find(|word| {
            let bytes = word.as_bytes();
            bytes.len() == 32
                && matches!(bytes[0], b'E' | b'e')
                && bytes[1..21].iter().all(u8::is_ascii_digit)
        })
        .map(|word| {
            let mut id = word.to_owned();
            id[..1].make_ascii_uppercase();
            id
        })
}

/// The word after "txid" (`TXID: PEDIDO42`, `txid PEDIDO42`), when it is a plausible txid
/// (1 to 35 letters and digits, the BR Code's limit).
pub(crate) fn find_txid(text: &str) -> Option<String> {
    let mut words = text
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty());
    while let Some(word) = words.next() {
        if word.eq_ignore_ascii_case("txid") {
            return words
                .next()
                .filter(|t| t.len() <= 35 && !t.eq_ignore_ascii_case("txid"))
                .map(str::to_owned);
        }
    }
    None
}

/// FNV-1a, 64 bits: stable across Rust versions and machines (std's hasher is not), and enough
/// to tell apart the lines of one account.
pub(crate) fn fnv1a(parts: &[&str]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for byte in part.bytes().chain(std::iter::once(0x1f)) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    format!("{hash:016x}")
}

/// Gives every line without a bank id its hash, counting identical lines so they stay apart.
///
/// A `FITID` that repeats within the file is not an id (some banks give every line of a day
/// the same one): recording "once per `FITID`" would drop all but one of those Pix, so those
/// lines are known by their hash instead.
pub(crate) fn assign_hashes(lines: &mut [StatementLine]) {
    let mut fitids: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for line in lines.iter() {
        if let LineId::Fitid(fitid) = &line.id {
            *fitids.entry(fitid.clone()).or_insert(0) += 1;
        }
    }
    for line in lines.iter_mut() {
        if let LineId::Fitid(fitid) = &line.id
            && fitids.get(fitid).is_some_and(|n| *n > 1)
        {
            line.id = LineId::Hash(String::new());
        }
    }
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for line in lines.iter_mut() {
        if let LineId::Hash(_) = line.id {
            let day = line.posted.day_in_brasilia().to_string();
            let time = if line.posted.has_time {
                line.posted.at.to_rfc3339()
            } else {
                String::new()
            };
            let amount = line.amount_centavos.to_string();
            let base = fnv1a(&[
                &day,
                &time,
                &amount,
                &line.memo,
                line.name.as_deref().unwrap_or(""),
            ]);
            let rank = seen.entry(base.clone()).or_insert(0);
            *rank += 1;
            line.id = LineId::Hash(fnv1a(&[&base, &rank.to_string()]));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::statement::posted::parse_ofx;

    fn line(amount: i64, trntype: Option<&str>, memo: &str) -> StatementLine {
        StatementLine {
            line: 1,
            id: LineId::Hash(String::new()),
            trntype: trntype.map(str::to_owned),
            amount_centavos: amount,
            posted: parse_ofx("20240302").unwrap(),
            memo: memo.to_owned(),
            name: None,
            end_to_end_id: None,
            txid: None,
        }
    }

    #[test]
    fn pix_received_in_every_bank_wording_is_a_pix_credit() {
        for memo in [
            "PIX RECEBIDO - FULANO",
            "Transferência recebida pelo Pix",
            "PIX TRANSF FULANO 02/03 RECEBIDO",
            "Pix recebido de Fulano de Tal",
            "RECEBIMENTO PIX",
            "CRED PIX QR CODE",
        ] {
            assert!(line(1250, Some("CREDIT"), memo).is_pix_credit(), "{memo}");
        }
    }

    #[test]
    fn debits_refunds_and_other_credits_are_not_pix_credits() {
        assert!(!line(-1250, Some("DEBIT"), "PIX ENVIADO").is_pix_credit());
        assert!(!line(1250, Some("DEBIT"), "PIX RECEBIDO").is_pix_credit());
        assert!(!line(1250, Some("CREDIT"), "DEVOLUÇÃO PIX").is_pix_credit());
        assert!(!line(1250, Some("CREDIT"), "ESTORNO PIX").is_pix_credit());
        assert!(!line(1250, Some("CREDIT"), "TED RECEBIDA").is_pix_credit());
        assert!(!line(1250, Some("CREDIT"), "PIXOTE LTDA").is_pix_credit());
        assert!(!line(0, Some("CREDIT"), "PIX RECEBIDO").is_pix_credit());
    }

    #[test]
    fn an_end_to_end_id_and_a_txid_are_found_in_a_memo() {
        let memo = "PIX RECEBIDO E12345678202403021030abcdefghijk TXID: PEDIDO42";
        assert_eq!(
            find_end_to_end_id(memo).as_deref(),
            Some("E12345678202403021030abcdefghijk")
        );
        assert_eq!(find_txid(memo).as_deref(), Some("PEDIDO42"));
        assert_eq!(find_end_to_end_id("PIX RECEBIDO FULANO"), None);
        assert_eq!(find_txid("PIX RECEBIDO FULANO"), None);
    }

    #[test]
    fn a_fitid_repeated_within_a_file_is_replaced_by_each_lines_hash() {
        let mut lines = vec![
            line(1000, None, "PIX RECEBIDO A"),
            line(2000, None, "PIX RECEBIDO B"),
            line(3000, None, "PIX RECEBIDO C"),
        ];
        lines[0].id = LineId::Fitid("DIA".into());
        lines[1].id = LineId::Fitid("DIA".into());
        lines[2].id = LineId::Fitid("UNICO".into());
        assign_hashes(&mut lines);
        assert!(matches!(lines[0].id, LineId::Hash(_)));
        assert!(matches!(lines[1].id, LineId::Hash(_)));
        assert_ne!(lines[0].id, lines[1].id);
        assert_eq!(lines[2].id, LineId::Fitid("UNICO".into()));
    }

    #[test]
    fn identical_lines_of_one_file_get_different_stable_hashes() {
        let mut lines = vec![
            line(1000, None, "PIX RECEBIDO"),
            line(1000, None, "PIX RECEBIDO"),
        ];
        assign_hashes(&mut lines);
        assert_ne!(lines[0].id, lines[1].id);
        let mut again = vec![line(1000, None, "PIX RECEBIDO")];
        assign_hashes(&mut again);
        assert_eq!(again[0].id, lines[0].id);
        // Pinned: a change of the hash would make every earlier import look new.
        assert_eq!(fnv1a(&["PIX RECEBIDO"]), "74cb8a799b6413fc");
    }
}
