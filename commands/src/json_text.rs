//! An event's payload and metadata as the JSON text PostgreSQL sent, deserialised once, by
//! their reader.
//!
//! Every reader of the feed (the relay, each projector, a replay) wants the payload as one
//! typed event, or passes it on untouched. Decoding it into a `serde_json::Value` first built a
//! tree of small allocations per event only to walk it once and drop it: in `replay --all` that
//! was 39 % of the replaying process's time (BENCHMARKS.md, projections (e)). [`JsonText`] keeps
//! the text, checked to be JSON, and deserialises straight into the reader's type; the relay
//! publishes it as it is.

use std::fmt;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;
use sqlx::postgres::{PgArgumentBuffer, PgHasArrayType, PgTypeInfo, PgValueRef};
use sqlx::{Decode, Encode, Postgres, Type};

/// Valid JSON text: an event's payload or metadata (an object for every event the application
/// writes, or `null` when a reader left it out).
#[derive(Clone)]
pub struct JsonText(Box<RawValue>);

impl JsonText {
    /// `null`: what a reader did not ask for.
    pub fn null() -> JsonText {
        JsonText(RawValue::NULL.to_owned())
    }

    /// The text of `value`.
    pub fn from_value(value: &Value) -> JsonText {
        // A `Value` always serialises.
        JsonText(
            serde_json::value::to_raw_value(value).unwrap_or_else(|_| RawValue::NULL.to_owned()),
        )
    }

    /// JSON text as received (a `COPY` of the feed), checked to be JSON.
    ///
    /// # Errors
    ///
    /// When `text` is not JSON.
    pub fn from_text(text: String) -> Result<JsonText, serde_json::Error> {
        RawValue::from_string(text).map(JsonText)
    }

    /// The JSON text.
    pub fn get(&self) -> &str {
        self.0.get()
    }

    /// Whether it is `null` (left out by the reader).
    pub fn is_null(&self) -> bool {
        self.get() == "null"
    }

    /// The JSON as `T`.
    ///
    /// # Errors
    ///
    /// When the JSON does not have `T`'s shape.
    pub fn deserialize<T: DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        serde_json::from_str(self.get())
    }

    /// The JSON as a tree (for upcasting steps, metadata lookups, and tests that look inside).
    pub fn to_value(&self) -> Value {
        // The text was checked to be JSON when it was made.
        serde_json::from_str(self.get()).unwrap_or(Value::Null)
    }
}

impl Default for JsonText {
    fn default() -> JsonText {
        JsonText::null()
    }
}

impl From<Value> for JsonText {
    fn from(value: Value) -> JsonText {
        JsonText::from_value(&value)
    }
}

/// Equal when they hold the same JSON, whatever the spacing or the order of keys.
impl PartialEq for JsonText {
    fn eq(&self, other: &JsonText) -> bool {
        self.get() == other.get() || self.to_value() == other.to_value()
    }
}

impl fmt::Debug for JsonText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.get())
    }
}

impl Serialize for JsonText {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for JsonText {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<JsonText, D::Error> {
        Box::<RawValue>::deserialize(deserializer).map(JsonText)
    }
}

impl Type<Postgres> for JsonText {
    fn type_info() -> PgTypeInfo {
        PgTypeInfo::with_name("jsonb")
    }

    fn compatible(ty: &PgTypeInfo) -> bool {
        <sqlx::types::Json<Value> as Type<Postgres>>::compatible(ty)
    }
}

impl PgHasArrayType for JsonText {
    fn array_type_info() -> PgTypeInfo {
        PgTypeInfo::with_name("_jsonb")
    }
}

impl Encode<'_, Postgres> for JsonText {
    fn encode_by_ref(
        &self,
        buf: &mut PgArgumentBuffer,
    ) -> Result<sqlx::encode::IsNull, sqlx::error::BoxDynError> {
        sqlx::types::Json(&*self.0).encode_by_ref(buf)
    }
}

impl<'r> Decode<'r, Postgres> for JsonText {
    fn decode(value: PgValueRef<'r>) -> Result<JsonText, sqlx::error::BoxDynError> {
        // sqlx's `Json` strips `jsonb`'s version byte (binary format) and checks the text.
        let sqlx::types::Json(raw) = <sqlx::types::Json<Box<RawValue>>>::decode(value)?;
        Ok(JsonText(raw))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_payload_reads_as_the_type_it_was_written_from() {
        #[derive(Deserialize, PartialEq, Debug)]
        struct Created {
            qrcode_id: String,
            amount_centavos: u64,
        }
        let payload = JsonText::from(json!({"qrcode_id": "q-1", "amount_centavos": 990}));
        assert_eq!(
            payload.deserialize::<Created>().unwrap(),
            Created {
                qrcode_id: "q-1".to_owned(),
                amount_centavos: 990
            }
        );
    }

    #[test]
    fn payloads_with_the_same_json_are_equal_whatever_the_spacing() {
        let compact: JsonText = serde_json::from_str(r#"{"a":1,"b":[true]}"#).unwrap();
        let spaced: JsonText = serde_json::from_str(r#"{"b": [true], "a": 1}"#).unwrap();
        assert_eq!(compact, spaced);
        assert_ne!(compact, JsonText::null());
    }

    #[test]
    fn a_payload_travels_as_its_json_inside_an_envelope() {
        let payload = JsonText::from(json!({"note": "olá"}));
        let text = serde_json::to_string(&json!({"payload": payload.to_value()})).unwrap();
        #[derive(Deserialize)]
        struct Envelope {
            payload: JsonText,
        }
        let envelope: Envelope = serde_json::from_str(&text).unwrap();
        assert_eq!(envelope.payload, payload);
        assert_eq!(envelope.payload.to_value()["note"], "olá");
    }
}
