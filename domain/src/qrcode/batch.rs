//! Batches: one line per code, from a prefix and a count ("MESA" × 20 → `MESA01` … `MESA20`) or
//! from a pasted list (one label per line, optionally `;` and a price: `Coxinha;6,50`).
//!
//! Only the shape of the list is read here; each line's values (description, amount) then go
//! through the BR Code engine like a single code's, so a line is refused for the same reasons
//! with the same messages, prefixed by its line number.

/// The most codes one batch makes.
pub const MAX_BATCH: usize = 100;

/// One line of a batch: what becomes the code's description, and its amount as typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatchLine {
    /// 1-based line number, for messages ("Linha 3: …").
    pub number: usize,
    /// The label (the code's description, shown to the payer).
    pub label: String,
    /// The price as typed in pt-BR (`6,50`), if the line has one.
    pub amount: Option<String>,
}

/// Why a batch's list cannot be read as a whole (each line's own values are checked later).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BatchShapeError {
    /// No line to make.
    #[error("Informe pelo menos uma linha (ou um prefixo e uma quantidade).")]
    Empty,
    /// Over [`MAX_BATCH`] lines.
    #[error("Um lote cria no máximo {max} QR codes de uma vez; a lista tem {count}.", max = MAX_BATCH)]
    TooMany {
        /// How many lines were asked for.
        count: usize,
    },
    /// A prefix and count with no usable prefix.
    #[error("Informe o prefixo, como MESA.")]
    PrefixMissing,
}

/// The lines of a prefix and a count: `prefix` followed by 1…`count`, zero-padded to at least
/// two digits (`MESA01` … `MESA20`), so the labels sort as they read.
///
/// # Errors
///
/// [`BatchShapeError`] for a blank prefix, a count of 0 or over [`MAX_BATCH`].
///
/// ```
/// use domain::qrcode::batch::numbered;
/// let lines = numbered("MESA", 20).unwrap();
/// assert_eq!(lines.len(), 20);
/// assert_eq!(lines[0].label, "MESA01");
/// assert_eq!(lines[19].label, "MESA20");
/// ```
pub fn numbered(prefix: &str, count: usize) -> Result<Vec<BatchLine>, BatchShapeError> {
    let prefix = prefix.trim();
    if prefix.is_empty() {
        return Err(BatchShapeError::PrefixMissing);
    }
    check_count(count)?;
    let width = count.to_string().len().max(2);
    Ok((1..=count)
        .map(|n| BatchLine {
            number: n,
            label: format!("{prefix}{n:0width$}"),
            amount: None,
        })
        .collect())
}

/// The lines of a pasted list: blank lines are skipped; `label;price` (or a tab instead of `;`)
/// gives the line a price.
///
/// # Errors
///
/// [`BatchShapeError::Empty`] when no line has text, [`BatchShapeError::TooMany`] over
/// [`MAX_BATCH`].
///
/// ```
/// use domain::qrcode::batch::listed;
/// let lines = listed("Coxinha;6,50\n\nPastel\t8,00\nMESA 3").unwrap();
/// assert_eq!(lines.len(), 3);
/// assert_eq!(lines[0].amount.as_deref(), Some("6,50"));
/// assert_eq!(lines[1].label, "Pastel");
/// assert_eq!(lines[2].amount, None);
/// ```
pub fn listed(text: &str) -> Result<Vec<BatchLine>, BatchShapeError> {
    let lines: Vec<BatchLine> = text
        .lines()
        .filter(|line| !line.trim().is_empty())
        .enumerate()
        .map(|(i, line)| {
            let (label, amount) = match line.split_once([';', '\t']) {
                Some((label, amount)) => {
                    let amount = amount.trim();
                    (label, (!amount.is_empty()).then(|| amount.to_owned()))
                }
                None => (line, None),
            };
            BatchLine {
                number: i + 1,
                label: label.trim().to_owned(),
                amount,
            }
        })
        .collect();
    check_count(lines.len())?;
    Ok(lines)
}

fn check_count(count: usize) -> Result<(), BatchShapeError> {
    match count {
        0 => Err(BatchShapeError::Empty),
        n if n > MAX_BATCH => Err(BatchShapeError::TooMany { count: n }),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_over_the_cap_is_refused_with_a_portuguese_message() {
        let error = numbered("MESA", MAX_BATCH + 1).expect_err("too many");
        assert_eq!(
            error.to_string(),
            "Um lote cria no máximo 100 QR codes de uma vez; a lista tem 101."
        );
        assert_eq!(numbered("MESA", MAX_BATCH).map(|l| l.len()), Ok(MAX_BATCH));
        assert_eq!(numbered("MESA", 0), Err(BatchShapeError::Empty));
        assert_eq!(numbered("  ", 3), Err(BatchShapeError::PrefixMissing));
    }

    #[test]
    fn a_hundred_lines_are_numbered_with_three_digits() {
        let lines = numbered("CX", 100).expect("fine");
        assert_eq!(lines[0].label, "CX001");
        assert_eq!(lines[99].label, "CX100");
    }

    #[test]
    fn a_list_counts_only_lines_with_text_and_keeps_their_numbers_in_order() {
        let lines = listed("\n  \nA;1,00\nB\n").expect("fine");
        assert_eq!(
            lines,
            vec![
                BatchLine {
                    number: 1,
                    label: "A".into(),
                    amount: Some("1,00".into())
                },
                BatchLine {
                    number: 2,
                    label: "B".into(),
                    amount: None
                },
            ]
        );
        assert_eq!(listed(" \n\n"), Err(BatchShapeError::Empty));
        let long = "x\n".repeat(101);
        assert_eq!(listed(&long), Err(BatchShapeError::TooMany { count: 101 }));
    }
}
