//! When a statement line was posted, as banks write it.
//!
//! Many statements give only the day (OFX `DTPOSTED` as `YYYYMMDD`, most CSV exports), so a
//! [`PostedAt`] says whether it has a time: reconciliation compares days for those, minutes for
//! the others (and for a file whose every line has one same time of day, which is padding:
//! `super::drop_padded_times`). A time without an offset is Brasília's (UTC−3, no daylight saving since 2019),
//! which is what Brazilian banks export.

use chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, TimeZone};

/// Brasília's offset, for times written without one.
pub fn brasilia() -> FixedOffset {
    FixedOffset::west_opt(3 * 3600).expect("UTC−3 is a valid offset")
}

/// A posting instant, and whether the statement gave its time of day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PostedAt {
    /// The instant; midnight in Brasília when the statement gave only the day.
    pub at: DateTime<FixedOffset>,
    /// False when the statement gave only the day.
    pub has_time: bool,
}

impl PostedAt {
    /// The calendar day in Brasília.
    pub fn day_in_brasilia(&self) -> NaiveDate {
        self.at.with_timezone(&brasilia()).date_naive()
    }

    pub(crate) fn day(date: NaiveDate) -> Option<PostedAt> {
        let at = brasilia()
            .from_local_datetime(&date.and_time(NaiveTime::MIN))
            .single()?;
        Some(PostedAt {
            at,
            has_time: false,
        })
    }
}

/// OFX dates: `YYYYMMDD`, `YYYYMMDDHHMM`, `YYYYMMDDHHMMSS`, optional `.XXX` milliseconds, and an
/// optional `[offset:NAME]` (`[-3:BRT]`, `[-03:EST]`, `[+0]`, `[-0300]`). The offset's number
/// decides; its name is ignored, since banks write `EST` for Brasília. A time of exactly
/// `000000` is read as "day only": banks that export days pad them with zeros.
pub fn parse_ofx(text: &str) -> Option<PostedAt> {
    let text = text.trim();
    let (stamp, zone) = match text.find('[') {
        Some(open) => {
            let close = text[open..].find(']')? + open;
            if !text[close + 1..].trim().is_empty() {
                return None;
            }
            (&text[..open], Some(&text[open + 1..close]))
        }
        None => (text, None),
    };
    let stamp = match stamp.split_once('.') {
        Some((whole, millis)) if millis.chars().all(|c| c.is_ascii_digit()) => whole,
        Some(_) => return None,
        None => stamp,
    };
    if !stamp.chars().all(|c| c.is_ascii_digit()) || !matches!(stamp.len(), 8 | 12 | 14) {
        return None;
    }
    let date = NaiveDate::parse_from_str(&stamp[..8], "%Y%m%d").ok()?;
    let time = match stamp.len() {
        8 => None,
        12 => Some(NaiveTime::parse_from_str(&stamp[8..], "%H%M").ok()?),
        _ => Some(NaiveTime::parse_from_str(&stamp[8..], "%H%M%S").ok()?),
    };
    let offset = match zone {
        Some(zone) => ofx_offset(zone)?,
        None => brasilia(),
    };
    match time {
        Some(time) if time != NaiveTime::MIN => {
            let at = offset
                .from_local_datetime(&NaiveDateTime::new(date, time))
                .single()?;
            Some(PostedAt { at, has_time: true })
        }
        _ => PostedAt::day(date),
    }
}

/// `-3`, `-03`, `+5.5`-less forms: whole hours, or `±HHMM`; the name after `:` is ignored.
fn ofx_offset(zone: &str) -> Option<FixedOffset> {
    let number = zone.split(':').next()?.trim();
    let (sign, digits) = match number.as_bytes().first()? {
        b'-' => (-1, &number[1..]),
        b'+' => (1, &number[1..]),
        _ => (1, number),
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let seconds = match digits.len() {
        1 | 2 => digits.parse::<i32>().ok()? * 3600,
        4 => digits[..2].parse::<i32>().ok()? * 3600 + digits[2..].parse::<i32>().ok()? * 60,
        _ => return None,
    };
    FixedOffset::east_opt(sign * seconds)
}

/// CSV dates: `dd/mm/yyyy` (or `-`), `dd/mm/yy`, `yyyy-mm-dd`, each optionally followed by a
/// time `HH:MM` or `HH:MM:SS` (after a blank or a `T`), in Brasília.
pub fn parse_csv(text: &str) -> Option<PostedAt> {
    let text = text.trim();
    let (date_part, time_part) = match text.find([' ', 'T']) {
        Some(at) => (&text[..at], Some(text[at + 1..].trim())),
        None => (text, None),
    };
    let date = ["%d/%m/%Y", "%d-%m-%Y", "%Y-%m-%d", "%d/%m/%y"]
        .iter()
        .find_map(|format| {
            NaiveDate::parse_from_str(date_part, format)
                .ok()
                .filter(|_| !(format.ends_with("%y") && date_part.len() != 8))
        })?;
    let time = match time_part {
        None => return PostedAt::day(date),
        Some(time) => ["%H:%M:%S", "%H:%M"]
            .iter()
            .find_map(|format| NaiveTime::parse_from_str(time, format).ok())?,
    };
    let at = brasilia()
        .from_local_datetime(&NaiveDateTime::new(date, time))
        .single()?;
    Some(PostedAt { at, has_time: true })
}

#[cfg(test)]
mod tests {
    use super::{parse_csv, parse_ofx};

    fn rfc(text: &str) -> String {
        parse_ofx(text)
            .map(|p| p.at.to_rfc3339())
            .unwrap_or_default()
    }

    #[test]
    fn ofx_dates_keep_the_offset_the_bank_wrote_and_ignore_its_name() {
        assert_eq!(rfc("20240302103000[-3:BRT]"), "2024-03-02T10:30:00-03:00");
        assert_eq!(rfc("20240302103000[-03:EST]"), "2024-03-02T10:30:00-03:00");
        assert_eq!(
            rfc("20240302103000.123[-3:BRT]"),
            "2024-03-02T10:30:00-03:00"
        );
        assert_eq!(rfc("20240302133000[0:GMT]"), "2024-03-02T13:30:00+00:00");
        assert_eq!(rfc("202403021030"), "2024-03-02T10:30:00-03:00");
        assert_eq!(rfc("20240302103000"), "2024-03-02T10:30:00-03:00");
    }

    #[test]
    fn an_ofx_day_without_a_time_is_a_day_in_brasilia() {
        for text in ["20240302", "20240302000000[-3:BRT]", "20240302000000.000"] {
            let posted = parse_ofx(text).unwrap();
            assert!(!posted.has_time, "{text}");
            assert_eq!(posted.day_in_brasilia().to_string(), "2024-03-02");
        }
    }

    #[test]
    fn broken_ofx_dates_are_refused() {
        for text in [
            "",
            "2024030",
            "20241302",
            "20240230",
            "20240302250000",
            "2024-03-02",
            "20240302[x]",
            "20240302[-3:BRT",
        ] {
            assert!(parse_ofx(text).is_none(), "{text}");
        }
    }

    #[test]
    fn csv_dates_read_the_brazilian_order_and_iso() {
        let day = parse_csv("02/03/2024").unwrap();
        assert!(!day.has_time);
        assert_eq!(day.day_in_brasilia().to_string(), "2024-03-02");
        assert_eq!(
            parse_csv("2024-03-02").unwrap().day_in_brasilia(),
            day.day_in_brasilia()
        );
        let timed = parse_csv("02/03/2024 10:30").unwrap();
        assert_eq!(timed.at.to_rfc3339(), "2024-03-02T10:30:00-03:00");
        assert!(parse_csv("31/02/2024").is_none());
        assert!(parse_csv("ontem").is_none());
    }
}
