//! An event's payload as the JSON text PostgreSQL sent, deserialised once, by its reader.
//!
//! Every reader of the feed (the relay, each projector, a replay) wants the payload as one
//! typed event, or passes it on untouched. Decoding it into a `serde_json::Value` first built a
//! tree of small allocations per event only to walk it once and drop it: in `replay --all` that
//! was 39 % of the replaying process's time (BENCHMARKS.md, projections (e)). [`Payload`] keeps
//! the text, checked to be JSON, and deserialises straight into the reader's type.

use std::fmt;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;
use sqlx::postgres::{PgArgumentBuffer, PgHasArrayType, PgTypeInfo, PgValueRef};
use sqlx::{Decode, Encode, Postgres, Type};

/// One event's payload: valid JSON text (an object for every event the application writes, or
/// `null` when a reader left it out).
#[derive(Clone)]
pub struct Payload(Box<RawValue>);

impl Payload {
    /// `null`: a payload a reader did not ask for.
    pub fn null() -> Payload {
        Payload(RawValue::NULL.to_owned())
    }

    /// The payload holding `value`.
    pub fn from_value(value: &Value) -> Payload {
        // A `Value` always serialises.
        Payload(
            serde_json::value::to_raw_value(value).unwrap_or_else(|_| RawValue::NULL.to_owned()),
        )
    }

    /// The JSON text.
    pub fn get(&self) -> &str {
        self.0.get()
    }

    /// Whether the payload is `null` (left out by the reader).
    pub fn is_null(&self) -> bool {
        self.get() == "null"
    }

    /// The payload as `T`.
    ///
    /// # Errors
    ///
    /// When the JSON does not have `T`'s shape.
    pub fn deserialize<T: DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        serde_json::from_str(self.get())
    }

    /// The payload as a JSON tree (for upcasting steps, and tests that look inside).
    pub fn to_value(&self) -> Value {
        // The text was checked to be JSON when it was made.
        serde_json::from_str(self.get()).unwrap_or(Value::Null)
    }
}

impl Default for Payload {
    fn default() -> Payload {
        Payload::null()
    }
}

impl From<Value> for Payload {
    fn from(value: Value) -> Payload {
        Payload::from_value(&value)
    }
}

/// Equal when they hold the same JSON, whatever the spacing or the order of keys.
impl PartialEq for Payload {
    fn eq(&self, other: &Payload) -> bool {
        self.get() == other.get() || self.to_value() == other.to_value()
    }
}

impl fmt::Debug for Payload {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.get())
    }
}

impl Serialize for Payload {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Payload {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Payload, D::Error> {
        Box::<RawValue>::deserialize(deserializer).map(Payload)
    }
}

impl Type<Postgres> for Payload {
    fn type_info() -> PgTypeInfo {
        PgTypeInfo::with_name("jsonb")
    }

    fn compatible(ty: &PgTypeInfo) -> bool {
        <sqlx::types::Json<Value> as Type<Postgres>>::compatible(ty)
    }
}

impl PgHasArrayType for Payload {
    fn array_type_info() -> PgTypeInfo {
        PgTypeInfo::with_name("_jsonb")
    }
}

impl Encode<'_, Postgres> for Payload {
    fn encode_by_ref(
        &self,
        buf: &mut PgArgumentBuffer,
    ) -> Result<sqlx::encode::IsNull, sqlx::error::BoxDynError> {
        sqlx::types::Json(&*self.0).encode_by_ref(buf)
    }
}

impl<'r> Decode<'r, Postgres> for Payload {
    fn decode(value: PgValueRef<'r>) -> Result<Payload, sqlx::error::BoxDynError> {
        // sqlx's `Json` strips `jsonb`'s version byte (binary format) and checks the text.
        let sqlx::types::Json(raw) = <sqlx::types::Json<Box<RawValue>>>::decode(value)?;
        Ok(Payload(raw))
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
        let payload = Payload::from(json!({"qrcode_id": "q-1", "amount_centavos": 990}));
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
        let compact: Payload = serde_json::from_str(r#"{"a":1,"b":[true]}"#).unwrap();
        let spaced: Payload = serde_json::from_str(r#"{"b": [true], "a": 1}"#).unwrap();
        assert_eq!(compact, spaced);
        assert_ne!(compact, Payload::null());
    }

    #[test]
    fn a_payload_travels_as_its_json_inside_an_envelope() {
        let payload = Payload::from(json!({"note": "olá"}));
        let text = serde_json::to_string(&json!({"payload": payload.to_value()})).unwrap();
        #[derive(Deserialize)]
        struct Envelope {
            payload: Payload,
        }
        let envelope: Envelope = serde_json::from_str(&text).unwrap();
        assert_eq!(envelope.payload, payload);
        assert_eq!(envelope.payload.to_value()["note"], "olá");
    }
}
