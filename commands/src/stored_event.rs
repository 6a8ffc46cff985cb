//! What one committed event is as readers get it ([`StoredEvent`]) and where it sits in the feed
//! ([`FeedPosition`]): the shapes the feed reads and the upcasters rewrite, apart from both so
//! neither imports the other for them. Re-exported by [`crate::feed`], their usual address.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::json_text::JsonText;

/// Where an event sits in the feed: ordered by transaction id, then by global position.
///
/// `FeedPosition::default()` is the start of the feed, before any event.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct FeedPosition {
    /// The writing transaction's id (`xid8`), compared first.
    pub tx_id: u64,
    /// The row's global position, which breaks ties inside one transaction.
    pub global_position: i64,
}

/// One committed event as read from the log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredEvent {
    /// Unique event id; the relay publishes it as `Nats-Msg-Id`.
    pub event_id: Uuid,
    /// The event's place in the feed.
    pub position: FeedPosition,
    /// Aggregate type, e.g. `qrcode`.
    pub stream_type: String,
    /// Aggregate instance id.
    pub stream_id: String,
    /// 1-based version inside the stream.
    pub stream_version: i64,
    /// Event type, past tense, e.g. `QrCodeCreated`.
    pub event_type: String,
    /// Schema version of `payload`, for upcasting.
    pub schema_version: i32,
    /// The event's data, as JSON text: deserialise it into the event's type with
    /// [`JsonText::deserialize`].
    pub payload: JsonText,
    /// Correlation id, causation id, actor, idempotency key, request id.
    pub metadata: JsonText,
    /// When the event was recorded.
    pub recorded_at: DateTime<Utc>,
}
