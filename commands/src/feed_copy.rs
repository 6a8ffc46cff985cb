//! The feed as one `COPY … TO STDOUT (FORMAT binary)`, for a reader of the whole log (a replay).
//!
//! [`read_after_with`](crate::feed::read_after_with) pages through the feed with a query: right
//! for the relay and the projectors, which read a little at a time. A replay reads every event
//! once, and there the query's rows cost the client more than the server: decoding each row's
//! columns by name and the stream machinery around it were about a tenth of `replay --all`'s
//! samples (`perf`, BENCHMARKS.md, projections (h)). One `COPY` in binary sends the same values
//! as length-prefixed fields that [`FeedCopy`] reads in place, in one statement and one
//! snapshot, below the same transaction-id horizon and in the same order. [`FeedCopy`] hands the
//! events on in pages, each narrowed and upcast exactly as the paged reader's
//! ([`FeedFields::narrow`]).
//!
//! The snapshot lasts as long as the read (two seconds for a million events here). Being read-only
//! it takes no transaction id, so it holds back no feed reader's horizon; it does keep `VACUUM` from
//! removing rows that die meanwhile, as any long query does.
//!
//! ```text
//! let mut conn = pool.acquire().await?;
//! let mut feed = FeedCopy::start(&mut conn, fields).await?;
//! while let Some(page) = feed.next_page(&upcasters, 20_000).await? { … }
//! ```

use bytes::Bytes;
use chrono::{DateTime, Utc};
use futures::StreamExt;
use futures::stream::BoxStream;
use sqlx::PgConnection;
use uuid::Uuid;

use crate::feed::{FeedFields, FeedPosition, StoredEvent};
use crate::json_text::JsonText;
use crate::upcast::Upcasters;

/// What opens every binary `COPY`: the signature, then flags and the header extension's length.
const SIGNATURE: &[u8] = b"PGCOPY\n\xff\r\n\0";
/// Fields of each row, in the order [`statement`] selects them.
const FIELDS: i16 = 11;
/// Microseconds from the Unix epoch to PostgreSQL's (2000-01-01 00:00 UTC).
const POSTGRES_EPOCH_MICROS: i64 = 946_684_800_000_000;

/// The `COPY` of every committed event below the horizon, in feed order, with only `fields`.
/// A `COPY` takes no parameters: the stream types are written as literals, and they are the
/// projections' own `&'static str` names (quoted all the same).
pub fn statement(fields: &FeedFields) -> String {
    let payload = match &fields.payloads_of {
        None => "payload::text".to_owned(),
        Some(types) => {
            let listed = types
                .iter()
                .map(|t| format!("'{}'", t.replace('\'', "''")))
                .collect::<Vec<_>>()
                .join(", ");
            if listed.is_empty() {
                "null::text".to_owned()
            } else {
                format!("case when stream_type in ({listed}) then payload::text end")
            }
        }
    };
    let metadata = if fields.metadata {
        "metadata::text"
    } else {
        "null::text"
    };
    format!(
        "copy (select event_id, tx_id, global_position, stream_type, stream_id, stream_version,
                      event_type, schema_version, {payload}, {metadata}, recorded_at
                 from events
                where tx_id < pg_snapshot_xmin(pg_current_snapshot())
                order by tx_id, global_position) to stdout (format binary)"
    )
}

/// Why the bytes of a `COPY` could not be read as events: a bug or a changed table, never
/// user input.
#[derive(Debug, thiserror::Error)]
pub enum FeedCopyError {
    /// The data does not start as a binary `COPY` does.
    #[error("the feed's COPY did not start with the binary signature")]
    Signature,
    /// A row has another number of fields than [`statement`] selects.
    #[error("a feed row has {0} fields, {FIELDS} expected")]
    FieldCount(i16),
    /// A field that cannot be null was, or had the wrong length.
    #[error("the feed's field {0} is malformed")]
    Field(&'static str),
    /// A payload or metadata was not JSON.
    #[error("the feed's {0} is not JSON: {1}")]
    Json(&'static str, serde_json::Error),
    /// The data ended inside a row or before the trailer.
    #[error("the feed's COPY ended inside a row")]
    Truncated,
}

impl From<FeedCopyError> for sqlx::Error {
    fn from(error: FeedCopyError) -> sqlx::Error {
        sqlx::Error::Decode(Box::new(error))
    }
}

/// The whole feed being read by one [`statement`] `COPY` on a connection of its own.
pub struct FeedCopy<'c> {
    copy: BoxStream<'c, Result<Bytes, sqlx::Error>>,
    decoder: FeedCopyDecoder,
    ended: bool,
}

impl<'c> FeedCopy<'c> {
    /// Starts the `COPY` of every event below the horizon, with only `fields`, on `conn`.
    ///
    /// # Errors
    ///
    /// When PostgreSQL refuses the statement.
    pub async fn start(
        conn: &'c mut PgConnection,
        fields: FeedFields,
    ) -> Result<Self, sqlx::Error> {
        let copy = conn.copy_out_raw(&statement(&fields)).await?;
        Ok(FeedCopy {
            copy,
            decoder: FeedCopyDecoder::new(fields),
            ended: false,
        })
    }

    /// The next `size` events (fewer at the end), upcast by `upcasters`; `None` once the feed
    /// has been read to its end.
    ///
    /// # Errors
    ///
    /// When PostgreSQL fails, or its data is not the `COPY` expected ([`FeedCopyError`], as
    /// [`sqlx::Error::Decode`]); a copy that ends early is an error, never a shorter feed.
    pub async fn next_page(
        &mut self,
        upcasters: &Upcasters,
        size: usize,
    ) -> Result<Option<Vec<StoredEvent>>, sqlx::Error> {
        let size = size.max(1);
        let mut page = Vec::with_capacity(size);
        while !self.ended {
            while page.len() < size {
                match self.decoder.next_event(upcasters)? {
                    Some(event) => page.push(event),
                    None => break,
                }
            }
            if page.len() == size {
                break;
            }
            match self.copy.next().await {
                Some(chunk) => self.decoder.push(&chunk?),
                None => {
                    self.decoder.finish()?;
                    self.ended = true;
                }
            }
        }
        Ok((!page.is_empty()).then_some(page))
    }
}

/// Turns the bytes of [`statement`]'s `COPY`, in chunks of any size, into events.
#[derive(Debug)]
struct FeedCopyDecoder {
    fields: FeedFields,
    /// Bytes received and not yet read (at most a row and a chunk).
    pending: Vec<u8>,
    /// Where reading resumes in `pending`.
    at: usize,
    header_read: bool,
    trailer_read: bool,
}

impl FeedCopyDecoder {
    /// A decoder for a `COPY` made by [`statement`] with the same `fields`.
    fn new(fields: FeedFields) -> FeedCopyDecoder {
        FeedCopyDecoder {
            fields,
            pending: Vec::new(),
            at: 0,
            header_read: false,
            trailer_read: false,
        }
    }

    /// Adds the next chunk of the `COPY`'s data.
    fn push(&mut self, chunk: &[u8]) {
        if self.at > 0 {
            self.pending.drain(..self.at);
            self.at = 0;
        }
        self.pending.extend_from_slice(chunk);
    }

    /// The next whole event, narrowed and upcast by [`FeedFields::narrow`]; `None` when the
    /// bytes so far end before the next row ends (push more) or the trailer was read.
    fn next_event(&mut self, upcasters: &Upcasters) -> Result<Option<StoredEvent>, FeedCopyError> {
        if !self.header_read && !self.read_header()? {
            return Ok(None);
        }
        if self.trailer_read {
            return Ok(None);
        }
        let mut row = Reader {
            bytes: &self.pending,
            at: self.at,
        };
        let Some(count) = row.i16() else {
            return Ok(None);
        };
        if count == -1 {
            self.trailer_read = true;
            self.at = row.at;
            return Ok(None);
        }
        if count != FIELDS {
            return Err(FeedCopyError::FieldCount(count));
        }
        let mut values: [Option<&[u8]>; FIELDS as usize] = [None; FIELDS as usize];
        for value in &mut values {
            let Some(length) = row.i32() else {
                return Ok(None);
            };
            if length >= 0 {
                let Some(bytes) = row.take(usize::try_from(length).unwrap_or_default()) else {
                    return Ok(None);
                };
                *value = Some(bytes);
            }
        }
        let event = event_from(&values)?;
        self.at = row.at;
        Ok(Some(self.fields.narrow(upcasters, event)))
    }

    /// Checks that the `COPY` ended where it should: after its trailer, nothing left over.
    fn finish(&self) -> Result<(), FeedCopyError> {
        if self.trailer_read && self.at == self.pending.len() {
            Ok(())
        } else {
            Err(FeedCopyError::Truncated)
        }
    }

    fn read_header(&mut self) -> Result<bool, FeedCopyError> {
        let mut header = Reader {
            bytes: &self.pending,
            at: self.at,
        };
        let Some(signature) = header.take(SIGNATURE.len()) else {
            return Ok(false);
        };
        if signature != SIGNATURE {
            return Err(FeedCopyError::Signature);
        }
        let (Some(_flags), Some(extension)) = (header.i32(), header.i32()) else {
            return Ok(false);
        };
        if header
            .take(usize::try_from(extension).unwrap_or_default())
            .is_none()
        {
            return Ok(false);
        }
        self.at = header.at;
        self.header_read = true;
        Ok(true)
    }
}

/// Big-endian reads over received bytes; `None` when they end first.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(n)?;
        let taken = self.bytes.get(self.at..end)?;
        self.at = end;
        Some(taken)
    }

    fn i16(&mut self) -> Option<i16> {
        self.take(2)
            .and_then(|b| b.try_into().ok())
            .map(i16::from_be_bytes)
    }

    fn i32(&mut self) -> Option<i32> {
        self.take(4)
            .and_then(|b| b.try_into().ok())
            .map(i32::from_be_bytes)
    }
}

fn int8(value: Option<&[u8]>, name: &'static str) -> Result<i64, FeedCopyError> {
    value
        .and_then(|b| b.try_into().ok())
        .map(i64::from_be_bytes)
        .ok_or(FeedCopyError::Field(name))
}

fn text(value: Option<&[u8]>, name: &'static str) -> Result<String, FeedCopyError> {
    value
        .and_then(|b| std::str::from_utf8(b).ok())
        .map(str::to_owned)
        .ok_or(FeedCopyError::Field(name))
}

fn json(value: Option<&[u8]>, name: &'static str) -> Result<JsonText, FeedCopyError> {
    match value {
        None => Ok(JsonText::null()),
        Some(bytes) => {
            let text = std::str::from_utf8(bytes).map_err(|_| FeedCopyError::Field(name))?;
            JsonText::from_text(text.to_owned()).map_err(|e| FeedCopyError::Json(name, e))
        }
    }
}

fn event_from(values: &[Option<&[u8]>; FIELDS as usize]) -> Result<StoredEvent, FeedCopyError> {
    let [
        event_id,
        tx_id,
        global_position,
        stream_type,
        stream_id,
        stream_version,
        event_type,
        schema_version,
        payload,
        metadata,
        recorded_at,
    ] = *values;
    let event_id = event_id
        .and_then(|b| Uuid::from_slice(b).ok())
        .ok_or(FeedCopyError::Field("event_id"))?;
    // `xid8` is sent as an unsigned 64-bit integer.
    let tx_id = tx_id
        .and_then(|b| b.try_into().ok())
        .map(u64::from_be_bytes)
        .ok_or(FeedCopyError::Field("tx_id"))?;
    let schema_version = schema_version
        .and_then(|b| b.try_into().ok())
        .map(i32::from_be_bytes)
        .ok_or(FeedCopyError::Field("schema_version"))?;
    let micros = int8(recorded_at, "recorded_at")?
        .checked_add(POSTGRES_EPOCH_MICROS)
        .ok_or(FeedCopyError::Field("recorded_at"))?;
    let recorded_at: DateTime<Utc> =
        DateTime::from_timestamp_micros(micros).ok_or(FeedCopyError::Field("recorded_at"))?;
    Ok(StoredEvent {
        event_id,
        position: FeedPosition {
            tx_id,
            global_position: int8(global_position, "global_position")?,
        },
        stream_type: text(stream_type, "stream_type")?,
        stream_id: text(stream_id, "stream_id")?,
        stream_version: int8(stream_version, "stream_version")?,
        event_type: text(event_type, "event_type")?,
        schema_version,
        payload: json(payload, "payload")?,
        metadata: json(metadata, "metadata")?,
        recorded_at,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(out: &mut Vec<u8>, value: Option<&[u8]>) {
        match value {
            None => out.extend_from_slice(&(-1_i32).to_be_bytes()),
            Some(bytes) => {
                out.extend_from_slice(&i32::try_from(bytes.len()).unwrap().to_be_bytes());
                out.extend_from_slice(bytes);
            }
        }
    }

    /// A `COPY` as PostgreSQL sends it: header, two rows (the second without payload), trailer.
    fn copy_bytes() -> Vec<u8> {
        let mut out = SIGNATURE.to_vec();
        out.extend_from_slice(&0_i32.to_be_bytes());
        out.extend_from_slice(&0_i32.to_be_bytes());
        for (n, payload) in [(1_u8, Some(&br#"{"a": 1}"#[..])), (2, None)] {
            out.extend_from_slice(&FIELDS.to_be_bytes());
            field(&mut out, Some(&[n; 16]));
            field(&mut out, Some(&(700_u64 + u64::from(n)).to_be_bytes()));
            field(&mut out, Some(&i64::from(n).to_be_bytes()));
            field(&mut out, Some(b"ledger"));
            field(&mut out, Some(b"caixa-1"));
            field(&mut out, Some(&i64::from(n).to_be_bytes()));
            field(&mut out, Some(b"Deposited"));
            field(&mut out, Some(&1_i32.to_be_bytes()));
            field(&mut out, payload);
            field(&mut out, None);
            // 2026-11-27 00:00:00 UTC.
            let micros = 1_795_737_600_000_000_i64 - POSTGRES_EPOCH_MICROS;
            field(&mut out, Some(&micros.to_be_bytes()));
        }
        out.extend_from_slice(&(-1_i16).to_be_bytes());
        out
    }

    fn decode_in_chunks(bytes: &[u8], size: usize) -> Result<Vec<StoredEvent>, FeedCopyError> {
        let upcasters = Upcasters::default();
        let mut decoder = FeedCopyDecoder::new(FeedFields::everything());
        let mut events = Vec::new();
        for chunk in bytes.chunks(size) {
            decoder.push(chunk);
            while let Some(event) = decoder.next_event(&upcasters)? {
                events.push(event);
            }
        }
        decoder.finish()?;
        Ok(events)
    }

    #[test]
    fn rows_split_anywhere_between_chunks_decode_the_same() {
        let bytes = copy_bytes();
        let whole = decode_in_chunks(&bytes, bytes.len()).unwrap();
        assert_eq!(whole.len(), 2);
        assert_eq!(whole[0].position.tx_id, 701);
        assert_eq!(whole[1].position.global_position, 2);
        assert_eq!(whole[0].stream_id, "caixa-1");
        assert_eq!(whole[0].payload.get(), r#"{"a": 1}"#);
        assert!(whole[1].payload.is_null());
        assert!(whole[0].metadata.is_null());
        assert_eq!(
            whole[0].recorded_at.to_rfc3339(),
            "2026-11-27T00:00:00+00:00"
        );
        for size in 1..bytes.len() {
            assert_eq!(
                decode_in_chunks(&bytes, size).unwrap(),
                whole,
                "chunks of {size}"
            );
        }
    }

    #[test]
    fn a_copy_cut_before_its_trailer_is_an_error_not_a_shorter_feed() {
        let bytes = copy_bytes();
        assert!(matches!(
            decode_in_chunks(&bytes[..bytes.len() - 2], 64),
            Err(FeedCopyError::Truncated)
        ));
        assert!(matches!(
            decode_in_chunks(&bytes[..bytes.len() - 40], 64),
            Err(FeedCopyError::Truncated)
        ));
    }

    #[test]
    fn text_that_is_not_a_binary_copy_is_refused() {
        assert!(matches!(
            decode_in_chunks(b"1\tabc\n2\tdef\n\\.\n", 8),
            Err(FeedCopyError::Signature)
        ));
    }

    #[test]
    fn the_statement_names_only_the_payloads_asked_for() {
        let fields = FeedFields::payloads_of(&["qrcode", "o'clock"]);
        let sql = statement(&fields);
        assert!(
            sql.contains("stream_type in ('qrcode', 'o''clock')"),
            "{sql}"
        );
        assert!(sql.contains("null::text, recorded_at"), "{sql}");
        assert!(statement(&FeedFields::everything()).contains("payload::text, metadata::text"));
    }
}
