//! Rows for `COPY … FROM STDIN (FORMAT binary)`: the fastest way to put many rows in a table.
//!
//! PostgreSQL writes copied rows in multi-row heap operations (one WAL record per page filled
//! instead of one per row) and reads binary values without parsing text, which is what replay
//! needs when it writes hundreds of thousands of rows. The format: a fixed header, then per row a
//! 16-bit field count and each field as a 32-bit length (−1 for null) followed by its bytes in
//! the type's binary send format, then a 16-bit −1.

use chrono::{DateTime, Datelike, NaiveDate, Utc};
use sqlx::PgConnection;
use sqlx::postgres::PgCopyIn;
use uuid::Uuid;

/// Microseconds from the Unix epoch to PostgreSQL's (2000-01-01 00:00:00 UTC).
const POSTGRES_EPOCH_MICROS: i64 = 946_684_800_000_000;
/// PostgreSQL's epoch (2000-01-01) in days of the common era, as `chrono` counts them.
const POSTGRES_EPOCH_DAYS_FROM_CE: i32 = 730_120;

/// A buffer of rows in COPY's binary format.
pub(crate) struct BinaryRows {
    buffer: Vec<u8>,
}

impl BinaryRows {
    /// An empty buffer sized for about `capacity` bytes.
    pub(crate) fn with_capacity(capacity: usize) -> BinaryRows {
        let mut buffer = Vec::with_capacity(capacity + 32);
        buffer.extend_from_slice(b"PGCOPY\n\xff\r\n\0");
        // Flags (no OIDs), then the length of the header extension (none).
        buffer.extend_from_slice(&0_i32.to_be_bytes());
        buffer.extend_from_slice(&0_i32.to_be_bytes());
        BinaryRows { buffer }
    }

    /// Starts a row of `fields` fields; push exactly that many values next.
    pub(crate) fn row(&mut self, fields: i16) {
        self.buffer.extend_from_slice(&fields.to_be_bytes());
    }

    fn field(&mut self, bytes: &[u8]) {
        // Values here are far below 2 GiB (a page of events fits in memory many times over).
        let length = i32::try_from(bytes.len()).unwrap_or(i32::MAX);
        self.buffer.extend_from_slice(&length.to_be_bytes());
        self.buffer.extend_from_slice(bytes);
    }

    /// A null of any type.
    pub(crate) fn null(&mut self) {
        self.buffer.extend_from_slice(&(-1_i32).to_be_bytes());
    }

    /// A `uuid`.
    pub(crate) fn uuid(&mut self, value: Uuid) {
        self.field(value.as_bytes());
    }

    /// A `text`.
    pub(crate) fn text(&mut self, value: &str) {
        self.field(value.as_bytes());
    }

    /// A `bigint`.
    pub(crate) fn bigint(&mut self, value: i64) {
        self.field(&value.to_be_bytes());
    }

    /// A `boolean`: one byte, 1 or 0.
    pub(crate) fn boolean(&mut self, value: bool) {
        self.field(&[u8::from(value)]);
    }

    /// An `xid8` (a 64-bit transaction id, sent as 8 bytes).
    pub(crate) fn xid8(&mut self, value: u64) {
        self.field(&value.to_be_bytes());
    }

    /// A `timestamptz`: microseconds since PostgreSQL's epoch.
    pub(crate) fn timestamptz(&mut self, value: DateTime<Utc>) {
        self.bigint(value.timestamp_micros() - POSTGRES_EPOCH_MICROS);
    }

    /// A `date`: days since PostgreSQL's epoch (2000-01-01).
    pub(crate) fn date(&mut self, value: NaiveDate) {
        let days = value.num_days_from_ce() - POSTGRES_EPOCH_DAYS_FROM_CE;
        self.field(&days.to_be_bytes());
    }

    /// A `jsonb` from JSON text: its binary form is a version byte (1) and then the text.
    pub(crate) fn jsonb(&mut self, json: &str) {
        let length = i32::try_from(json.len() + 1).unwrap_or(i32::MAX);
        self.buffer.extend_from_slice(&length.to_be_bytes());
        self.buffer.push(1);
        self.buffer.extend_from_slice(json.as_bytes());
    }

    /// A nullable value through `push`.
    pub(crate) fn optional<T>(&mut self, value: Option<T>, push: impl FnOnce(&mut Self, T)) {
        match value {
            Some(value) => push(self, value),
            None => self.null(),
        }
    }

    /// Bytes written and not yet sent.
    pub(crate) fn pending(&self) -> usize {
        self.buffer.len()
    }
}

/// Bytes sent per `CopyData` message while streaming: large enough that messages are few, small
/// enough that the server stores one chunk while the client encodes the next.
const CHUNK_BYTES: usize = 256 * 1024;

/// One `COPY … FROM STDIN (FORMAT binary)` being streamed: rows go to the server in chunks as
/// they are written, so the server parses and stores one chunk while the client encodes the next
/// (instead of the two taking turns over the whole batch).
pub(crate) struct CopyIn<'c> {
    copy: PgCopyIn<&'c mut PgConnection>,
    rows: BinaryRows,
}

impl<'c> CopyIn<'c> {
    /// Starts `statement` (a `copy … from stdin (format binary)` whose column list matches the
    /// rows that will be written).
    pub(crate) async fn start(
        conn: &'c mut PgConnection,
        statement: &str,
    ) -> Result<CopyIn<'c>, sqlx::Error> {
        let copy = conn.copy_in_raw(statement).await?;
        Ok(CopyIn {
            copy,
            rows: BinaryRows::with_capacity(CHUNK_BYTES + 4096),
        })
    }

    /// Where the next row goes; call [`CopyIn::row_written`] after each one.
    pub(crate) fn rows(&mut self) -> &mut BinaryRows {
        &mut self.rows
    }

    /// Sends what is buffered once it fills a chunk.
    pub(crate) async fn row_written(&mut self) -> Result<(), sqlx::Error> {
        if self.rows.pending() >= CHUNK_BYTES {
            self.send().await?;
        }
        Ok(())
    }

    /// On an error the copy is left as it is: dropping it tells the server to fail the COPY,
    /// and the caller's transaction fails anyway.
    async fn send(&mut self) -> Result<(), sqlx::Error> {
        self.copy.send(self.rows.buffer.as_slice()).await?;
        self.rows.buffer.clear();
        Ok(())
    }

    /// Ends the `COPY` as failed (nothing it sent stays) and leaves the connection ready for the
    /// caller's rollback: for a batch that turns out, halfway, not to be writable.
    pub(crate) async fn abort(self) -> Result<(), sqlx::Error> {
        self.copy.abort("the batch was rejected").await
    }

    /// Sends the rest and the trailer and returns how many rows went in. A refused row fails the
    /// whole statement, as a multi-row insert would.
    pub(crate) async fn finish(mut self) -> Result<u64, sqlx::Error> {
        self.rows.buffer.extend_from_slice(&(-1_i16).to_be_bytes());
        self.send().await?;
        self.copy.finish().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_follow_the_binary_copy_layout() {
        let mut rows = BinaryRows::with_capacity(0);
        rows.row(3);
        rows.text("ab");
        rows.null();
        rows.timestamptz(
            DateTime::parse_from_rfc3339("2000-01-01T00:00:01Z")
                .unwrap()
                .into(),
        );
        let mut expected = b"PGCOPY\n\xff\r\n\0".to_vec();
        expected.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0, 0]);
        expected.extend_from_slice(&[0, 3]);
        expected.extend_from_slice(&[0, 0, 0, 2, b'a', b'b']);
        expected.extend_from_slice(&[0xff, 0xff, 0xff, 0xff]);
        expected.extend_from_slice(&[0, 0, 0, 8]);
        expected.extend_from_slice(&1_000_000_i64.to_be_bytes());
        assert_eq!(rows.buffer, expected);
    }

    #[test]
    fn dates_count_days_from_2000_and_jsonb_starts_with_its_version() {
        let mut rows = BinaryRows::with_capacity(0);
        rows.buffer.clear();
        rows.date(NaiveDate::from_ymd_opt(2000, 1, 2).unwrap());
        rows.date(NaiveDate::from_ymd_opt(1999, 12, 31).unwrap());
        rows.jsonb("[]");
        let mut expected = vec![0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, 4];
        expected.extend_from_slice(&(-1_i32).to_be_bytes());
        expected.extend_from_slice(&[0, 0, 0, 3, 1, b'[', b']']);
        assert_eq!(rows.buffer, expected);
    }
}
