//! OFX statements, 1.x (SGML) and 2.x (XML), read as Brazilian banks write them.
//!
//! Why our own reader and not a crate: the maintained one, `ofx-rs` 0.2, builds a strict typed
//! document and refuses what Brazilian banks emit every day: a bare `&` in a memo ("JOAO & CIA"
//! is an XML error there), a file without the sign-on block, and its errors name no line of
//! the file. Importing needs none of the document but the transactions, so this reader walks
//! the tags once, tolerantly:
//! - a tag's text runs to the next `<`; closing tags are optional (SGML leaves), so a
//!   `<STMTTRN>` ends at `</STMTTRN>`, at the next `<STMTTRN>` or at `</BANKTRANLIST>`;
//! - `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;` and `&#NN;` are decoded, any other `&` is kept;
//! - the header (SGML `KEY:VALUE` lines, or `<?xml?>`/`<?OFX?>`) and comments are skipped: the
//!   encoding is decided before (see [`super::decode`]), since banks label it wrongly;
//! - `TRNAMT` takes `.` or `,` ([`super::amount::Dialect::Ofx`]), `DTPOSTED` any form of
//!   [`super::posted::parse_ofx`].
//!
//! A transaction without `TRNAMT` or `DTPOSTED`, or with one unreadable, refuses the file,
//! naming its line: importing the rest would hide a payment.

use super::amount::{Dialect, parse_signed};
use super::line::{LineId, StatementLine, assign_hashes, find_end_to_end_id, find_txid};
use super::posted::{PostedAt, parse_ofx};
use super::{MAX_LINES, Statement, StatementError, StatementFormat, clean};

/// A value read between a tag and the next `<`, with the line it sits on.
struct Value {
    text: String,
    line: usize,
}

#[derive(Default)]
struct Draft {
    line: usize,
    trntype: Option<String>,
    posted: Option<Value>,
    amount: Option<Value>,
    fitid: Option<String>,
    memo: Option<String>,
    name: Option<String>,
}

/// Whether `text` looks like OFX: an SGML header, an `<?OFX` instruction, or an `<OFX>` tag
/// near the top.
pub fn looks_like_ofx(text: &str) -> bool {
    let head: String = text
        .chars()
        .take(4096)
        .collect::<String>()
        .to_ascii_uppercase();
    let head = head.trim_start();
    head.starts_with("OFXHEADER") || head.contains("<?OFX") || head.contains("<OFX>")
}

/// Reads the transactions of an OFX statement (every `STMTTRN`, bank or card).
pub fn parse(text: &str) -> Result<Statement, StatementError> {
    let upper_has_body = text.to_ascii_uppercase().contains("<OFX");
    if !upper_has_body {
        return Err(StatementError::OfxWithoutBody);
    }
    let mut lines = Vec::new();
    let mut draft: Option<Draft> = None;
    let mut bank = AccountParts::default();
    let mut tokens = Tokens::new(text);
    while let Some(token) = tokens.next() {
        match token {
            Token::Open { name, value, line } => {
                let name = name.to_ascii_uppercase();
                if name == "STMTTRN" {
                    if let Some(done) = draft.take() {
                        lines.push(finish(done)?);
                    }
                    draft = Some(Draft {
                        line,
                        ..Draft::default()
                    });
                    continue;
                }
                let Some(value) = value else { continue };
                match (&mut draft, name.as_str()) {
                    (Some(d), "TRNTYPE") => d.trntype = Some(value.text.to_ascii_uppercase()),
                    (Some(d), "DTPOSTED") => d.posted = Some(value),
                    (Some(d), "TRNAMT") => d.amount = Some(value),
                    (Some(d), "FITID") => d.fitid = Some(value.text),
                    (Some(d), "MEMO") => d.memo = Some(value.text),
                    (Some(d), "NAME") => d.name = Some(value.text),
                    (None, "BANKID") => bank.bank = Some(value.text),
                    (None, "BRANCHID") => bank.branch = Some(value.text),
                    (None, "ACCTID") => bank.account = Some(value.text),
                    _ => {}
                }
            }
            Token::Close { name } => {
                let name = name.to_ascii_uppercase();
                if (name == "STMTTRN" || name == "BANKTRANLIST")
                    && let Some(done) = draft.take()
                {
                    lines.push(finish(done)?);
                }
            }
        }
        if lines.len() > MAX_LINES {
            return Err(StatementError::TooManyLines { max: MAX_LINES });
        }
    }
    if let Some(done) = draft.take() {
        lines.push(finish(done)?);
    }
    super::drop_padded_times(&mut lines);
    assign_hashes(&mut lines);
    Ok(Statement {
        format: StatementFormat::Ofx,
        account: bank.joined(),
        lines,
    })
}

#[derive(Default)]
struct AccountParts {
    bank: Option<String>,
    branch: Option<String>,
    account: Option<String>,
}

impl AccountParts {
    /// `bank/branch/account` as the file names it, so `FITID`s of two accounts never meet.
    fn joined(self) -> Option<String> {
        let account = self.account?;
        Some(format!(
            "{}/{}/{}",
            self.bank.unwrap_or_default(),
            self.branch.unwrap_or_default(),
            account
        ))
    }
}

fn finish(draft: Draft) -> Result<StatementLine, StatementError> {
    let amount = draft.amount.ok_or(StatementError::MissingField {
        line: draft.line,
        field: "valor (TRNAMT)",
    })?;
    let posted = draft.posted.ok_or(StatementError::MissingField {
        line: draft.line,
        field: "data (DTPOSTED)",
    })?;
    let amount_centavos =
        parse_signed(&amount.text, Dialect::Ofx).ok_or(StatementError::InvalidAmount {
            line: amount.line,
            text: shorten(&amount.text),
        })?;
    let posted_at: PostedAt = parse_ofx(&posted.text).ok_or(StatementError::InvalidDate {
        line: posted.line,
        text: shorten(&posted.text),
    })?;
    let memo = clean(&draft.memo.unwrap_or_default());
    let name = draft.name.map(|n| clean(&n)).filter(|n| !n.is_empty());
    let texts = format!("{memo} {}", name.as_deref().unwrap_or(""));
    Ok(StatementLine {
        line: draft.line,
        id: match draft.fitid.map(|f| clean(&f)).filter(|f| !f.is_empty()) {
            Some(fitid) => LineId::Fitid(fitid),
            None => LineId::Hash(String::new()),
        },
        trntype: draft.trntype,
        amount_centavos,
        posted: posted_at,
        end_to_end_id: find_end_to_end_id(&texts),
        txid: find_txid(&texts),
        memo,
        name,
    })
}

/// At most 40 characters of a value, for a message.
pub(crate) fn shorten(text: &str) -> String {
    let mut short: String = text.chars().take(40).collect();
    if text.chars().count() > 40 {
        short.push('…');
    }
    short
}

enum Token {
    Open {
        name: String,
        value: Option<Value>,
        line: usize,
    },
    Close {
        name: String,
    },
}

/// Walks tags and their text, counting lines.
struct Tokens<'a> {
    rest: &'a str,
    line: usize,
}

impl<'a> Tokens<'a> {
    fn new(text: &'a str) -> Self {
        Tokens {
            rest: text,
            line: 1,
        }
    }

    /// Moves past `n` bytes, counting the line feeds among them.
    fn advance(&mut self, n: usize) -> &'a str {
        let (taken, rest) = self.rest.split_at(n);
        self.line += taken.bytes().filter(|b| *b == b'\n').count();
        self.rest = rest;
        taken
    }

    fn next(&mut self) -> Option<Token> {
        loop {
            let open = self.rest.find('<')?;
            self.advance(open);
            if self.rest.starts_with("<!--") {
                let end = self.rest.find("-->").map_or(self.rest.len(), |e| e + 3);
                self.advance(end);
                continue;
            }
            let Some(close) = self.rest.find('>') else {
                self.advance(self.rest.len());
                return None;
            };
            let line = self.line;
            let tag = self.advance(close + 1);
            let inner = tag[1..tag.len() - 1].trim();
            if inner.starts_with('?') || inner.starts_with('!') || inner.ends_with('/') {
                continue;
            }
            if let Some(name) = inner.strip_prefix('/') {
                return Some(Token::Close {
                    name: name.trim().to_owned(),
                });
            }
            let name = inner.split_whitespace().next().unwrap_or("").to_owned();
            if name.is_empty() {
                continue;
            }
            let text_end = self.rest.find('<').unwrap_or(self.rest.len());
            let before = self.line;
            let raw = self.advance(text_end);
            let trimmed = raw.trim();
            let value = (!trimmed.is_empty()).then(|| {
                // The line of the value's first character, not of its leading blank lines.
                let lead = &raw[..raw.len() - raw.trim_start().len()];
                Value {
                    text: decode_entities(trimmed),
                    line: before + lead.bytes().filter(|b| *b == b'\n').count(),
                }
            });
            return Some(Token::Open { name, value, line });
        }
    }
}

/// Decodes the XML entities; a bare `&` (SGML files carry them) stays as it is.
fn decode_entities(text: &str) -> String {
    if !text.contains('&') {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let entity = rest[1..].find(';').map(|end| &rest[1..=end]);
        let decoded = entity.and_then(|e| match e {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            _ => e
                .strip_prefix("#x")
                .or_else(|| e.strip_prefix("#X"))
                .and_then(|hex| u32::from_str_radix(hex, 16).ok())
                .or_else(|| e.strip_prefix('#').and_then(|dec| dec.parse().ok()))
                .and_then(char::from_u32)
                .filter(|c| *c != '\0'),
        });
        match (entity, decoded) {
            (Some(e), Some(c)) => {
                out.push(c);
                rest = &rest[e.len() + 2..];
            }
            _ => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::decode_entities;

    #[test]
    fn entities_are_decoded_and_a_bare_ampersand_is_kept() {
        assert_eq!(decode_entities("JOAO &amp; CIA"), "JOAO & CIA");
        assert_eq!(decode_entities("JOAO & CIA"), "JOAO & CIA");
        assert_eq!(decode_entities("A&#233;B &#x41; &foo; &"), "AéB A &foo; &");
        assert_eq!(decode_entities("&#0;"), "&#0;");
    }
}
