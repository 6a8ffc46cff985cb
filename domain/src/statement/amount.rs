//! Signed amounts as banks write them in statements, read into integer centavos.
//!
//! [`crate::money::Centavos::parse_br`] refuses a minus sign (a Pix is never negative), but a
//! statement's debits are, so statements have their own reader. Two dialects:
//! - [`Dialect::Ofx`]: the spec's `TRNAMT` is `-1234.56`; Brazilian banks also write `-1234,56`.
//!   A single separator is always the decimal point (OFX has no thousands separators), so
//!   `100.000` is one hundred reais, never one hundred thousand; digits past the second decimal
//!   place are accepted only when they are zeros (`12.500`).
//! - [`Dialect::PtBr`]: CSV exports, `1.234,56`, `-12,50`, `R$ 10`, and the dot-decimal `12.50`
//!   some apps write; dots followed by three digits are thousands, as in `Centavos::parse_br`.
//!
//! A sign may lead or trail (`12,50-`), `R$` and blanks are ignored. Anything else is refused,
//! never guessed.

/// Which convention the text follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// OFX `TRNAMT`.
    Ofx,
    /// A pt-BR spreadsheet cell.
    PtBr,
}

/// The most a statement line may carry: R$ 10 trillion, far past any account, well inside `i64`.
const MAX_CENTAVOS: i64 = 1_000_000_000_000_000 / 1_000;

/// `text` as signed centavos, or `None` when it is not an amount.
pub fn parse_signed(text: &str, dialect: Dialect) -> Option<i64> {
    let mut body: String = text
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '\u{a0}')
        .collect();
    let mut negative = false;
    if let Some(rest) = body.strip_prefix('-') {
        negative = true;
        body = rest.to_owned();
    } else if let Some(rest) = body.strip_prefix('+') {
        body = rest.to_owned();
    }
    if let Some(rest) = body.strip_prefix("R$") {
        body = rest.to_owned();
    }
    if !negative && let Some(rest) = body.strip_prefix('-') {
        // "R$ -12,50" after "R$" was removed
        negative = true;
        body = rest.to_owned();
    }
    if !negative && let Some(rest) = body.strip_suffix('-') {
        negative = true;
        body = rest.to_owned();
    }
    let magnitude = unsigned(&body, dialect)?;
    Some(if negative { -magnitude } else { magnitude })
}

fn unsigned(body: &str, dialect: Dialect) -> Option<i64> {
    if body.is_empty()
        || !body
            .chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
    {
        return None;
    }
    let dots = body.matches('.').count();
    let commas = body.matches(',').count();
    let (integer, fraction, grouping): (&str, &str, Option<char>) = match (dots, commas) {
        (0, 0) => (body, "", None),
        (n, 0) | (0, n) => {
            let sep = if dots > 0 { '.' } else { ',' };
            let at = body.rfind(sep)?;
            let tail = &body[at + 1..];
            let decimal = match dialect {
                Dialect::Ofx => n == 1,
                // pt-BR: a comma is decimal; a lone dot is decimal only before 1–2 digits.
                Dialect::PtBr => n == 1 && (sep == ',' || (1..=2).contains(&tail.len())),
            };
            if decimal {
                (&body[..at], tail, None)
            } else {
                (body, "", Some(sep))
            }
        }
        // Both: the last one is the decimal separator, the other groups thousands.
        (_, _) => {
            let last = body.rfind(['.', ','])?;
            let decimal = body[last..].chars().next()?;
            let group = if decimal == '.' { ',' } else { '.' };
            if body[last + 1..].contains(group) || body[..last].contains(decimal) {
                return None;
            }
            (&body[..last], &body[last + 1..], Some(group))
        }
    };
    let digits = match grouping {
        Some(group) => grouped_digits(integer, group)?,
        None if integer.is_empty() || !integer.chars().all(|c| c.is_ascii_digit()) => return None,
        None => integer.to_owned(),
    };
    let cents = fraction_centavos(fraction, dialect)?;
    let reais: i64 = digits.parse().ok()?;
    let total = reais.checked_mul(100)?.checked_add(cents)?;
    (total <= MAX_CENTAVOS).then_some(total)
}

/// `1.234.567` → `1234567`, checking the groups of three.
fn grouped_digits(integer: &str, group: char) -> Option<String> {
    let mut parts = integer.split(group);
    let first = parts.next()?;
    if first.is_empty() || first.len() > 3 || !first.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let mut digits = first.to_owned();
    for part in parts {
        if part.len() != 3 || !part.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        digits.push_str(part);
    }
    Some(digits)
}

fn fraction_centavos(fraction: &str, dialect: Dialect) -> Option<i64> {
    if !fraction.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let (kept, rest) = fraction.split_at(fraction.len().min(2));
    let extra_allowed = dialect == Dialect::Ofx && rest.chars().all(|c| c == '0');
    if !rest.is_empty() && !extra_allowed {
        return None;
    }
    match kept.len() {
        0 => Some(0),
        1 => kept.parse::<i64>().ok().map(|d| d * 10),
        _ => kept.parse().ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::{Dialect, parse_signed};

    #[test]
    fn ofx_amounts_take_a_dot_or_a_comma_as_the_decimal_point() {
        assert_eq!(parse_signed("12.50", Dialect::Ofx), Some(1250));
        assert_eq!(parse_signed("12,5", Dialect::Ofx), Some(1250));
        assert_eq!(parse_signed("-1234.56", Dialect::Ofx), Some(-123_456));
        assert_eq!(parse_signed("+7", Dialect::Ofx), Some(700));
        assert_eq!(parse_signed("100.000", Dialect::Ofx), Some(10_000));
        assert_eq!(parse_signed("-1.234,56", Dialect::Ofx), Some(-123_456));
    }

    #[test]
    fn pt_br_cells_read_thousands_and_signs_where_banks_put_them() {
        assert_eq!(parse_signed("1.234,56", Dialect::PtBr), Some(123_456));
        assert_eq!(parse_signed("-12,50", Dialect::PtBr), Some(-1250));
        assert_eq!(parse_signed("R$ -12,50", Dialect::PtBr), Some(-1250));
        assert_eq!(parse_signed("12,50-", Dialect::PtBr), Some(-1250));
        assert_eq!(parse_signed("1.234", Dialect::PtBr), Some(123_400));
        assert_eq!(parse_signed("12.50", Dialect::PtBr), Some(1250));
        assert_eq!(parse_signed("1,234.56", Dialect::PtBr), Some(123_456));
    }

    #[test]
    fn anything_that_is_not_an_amount_is_refused_not_guessed() {
        for text in [
            "",
            "-",
            "12,5x",
            "1,2,3",
            "12,345",
            "1.23.4",
            ",50",
            "1.234,5.6",
            "--1",
        ] {
            assert_eq!(parse_signed(text, Dialect::PtBr), None, "{text}");
        }
        assert_eq!(parse_signed("12.501", Dialect::Ofx), None);
        assert_eq!(parse_signed("99999999999999999999", Dialect::Ofx), None);
    }
}
