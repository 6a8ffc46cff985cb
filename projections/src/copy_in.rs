//! Rows for `COPY … FROM STDIN (FORMAT binary)`: the fastest way to put many rows in a table.
//!
//! PostgreSQL writes copied rows in multi-row heap operations (one WAL record per page filled
//! instead of one per row) and reads binary values without parsing text, which is what replay
//! needs when it writes hundreds of thousands of rows. The format: a fixed header, then per row a
//! 16-bit field count and each field as a 32-bit length (−1 for null) followed by its bytes in
//! the type's binary send format, then a 16-bit −1.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

/// Microseconds from the Unix epoch to PostgreSQL's (2000-01-01 00:00:00 UTC).
const POSTGRES_EPOCH_MICROS: i64 = 946_684_800_000_000;

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

    /// An `xid8` (a 64-bit transaction id, sent as 8 bytes).
    pub(crate) fn xid8(&mut self, value: u64) {
        self.field(&value.to_be_bytes());
    }

    /// A `timestamptz`: microseconds since PostgreSQL's epoch.
    pub(crate) fn timestamptz(&mut self, value: DateTime<Utc>) {
        self.bigint(value.timestamp_micros() - POSTGRES_EPOCH_MICROS);
    }

    /// A nullable value through `push`.
    pub(crate) fn optional<T>(&mut self, value: Option<T>, push: impl FnOnce(&mut Self, T)) {
        match value {
            Some(value) => push(self, value),
            None => self.null(),
        }
    }

    /// Sends the rows with `statement` (a `copy … from stdin (format binary)` whose column list
    /// matches the rows) and returns how many went in. A refused row fails the whole statement,
    /// as a multi-row insert would.
    pub(crate) async fn copy_in(
        mut self,
        conn: &mut PgConnection,
        statement: &str,
    ) -> Result<u64, sqlx::Error> {
        self.buffer.extend_from_slice(&(-1_i16).to_be_bytes());
        let mut copy = conn.copy_in_raw(statement).await?;
        if let Err(error) = copy.send(self.buffer).await {
            // The connection is in COPY mode: leave it (the caller's transaction fails anyway).
            copy.abort("sending the rows failed").await.ok();
            return Err(error);
        }
        copy.finish().await
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
}
