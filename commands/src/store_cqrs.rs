//! The cqrs-es [`EventStore`] trait over [`PgEventStore`], so `CqrsFramework` can drive it.
//!
//! The gateway uses [`CommandService`](crate::service::CommandService), which adds retries, idempotency and
//! feed positions; this implementation exists so aggregates stay plain cqrs-es aggregates and any
//! cqrs-es tooling works against the real store.

use std::collections::HashMap;

use cqrs_es::{Aggregate, AggregateContext, AggregateError, EventEnvelope, EventStore};

use crate::error::CommandError;
use crate::expected_version::ExpectedVersion;
use crate::store::AppendFailure;
use crate::store::PgEventStore;

/// An aggregate loaded through the cqrs-es trait, with the version its next events must follow.
#[derive(Debug, Clone)]
pub struct PgAggregateContext<A> {
    /// The stream the aggregate was loaded from.
    pub stream_id: String,
    /// The loaded state.
    pub aggregate: A,
    /// The stream version the state reflects; `commit` appends after exactly this version.
    pub version: i64,
}

impl<A: Aggregate> AggregateContext<A> for PgAggregateContext<A> {
    fn aggregate(&mut self) -> &mut A {
        &mut self.aggregate
    }
}

/// cqrs-es metadata is a string map; stored as a JSON object of strings.
fn metadata_json(metadata: HashMap<String, String>) -> serde_json::Value {
    serde_json::Value::Object(
        metadata
            .into_iter()
            .map(|(k, v)| (k, serde_json::Value::String(v)))
            .collect(),
    )
}

/// Our metadata column back as cqrs-es's string map (non-string values as JSON text).
fn metadata_map(metadata: serde_json::Value) -> HashMap<String, String> {
    match metadata {
        serde_json::Value::Object(object) => object
            .into_iter()
            .map(|(k, v)| match v {
                serde_json::Value::String(s) => (k, s),
                other => (k, other.to_string()),
            })
            .collect(),
        _ => HashMap::new(),
    }
}

fn sequence(stream_version: i64) -> usize {
    // The check constraint keeps stream versions positive.
    usize::try_from(stream_version).unwrap_or_default()
}

impl<A> EventStore<A> for PgEventStore
where
    A: Aggregate,
    A::Error: Send + Sync + 'static,
{
    type AC = PgAggregateContext<A>;

    async fn load_events(
        &self,
        aggregate_id: &str,
    ) -> Result<Vec<EventEnvelope<A>>, AggregateError<A::Error>> {
        let stored = self
            .read_stream(A::TYPE, aggregate_id)
            .await
            .map_err(CommandError::<A::Error>::from)?;
        let mut envelopes = Vec::with_capacity(stored.len());
        for event in stored {
            // `read_stream` has already upcast the payload.
            let payload = event.payload.deserialize().map_err(|source| {
                CommandError::<A::Error>::CorruptEvent {
                    stream_id: aggregate_id.to_owned(),
                    stream_version: event.stream_version,
                    event_type: event.event_type.clone(),
                    schema_version: event.schema_version,
                    source,
                }
            })?;
            envelopes.push(EventEnvelope {
                aggregate_id: aggregate_id.to_owned(),
                sequence: sequence(event.stream_version),
                payload,
                metadata: metadata_map(event.metadata.to_value()),
            });
        }
        Ok(envelopes)
    }

    async fn load_aggregate(
        &self,
        aggregate_id: &str,
    ) -> Result<PgAggregateContext<A>, AggregateError<A::Error>> {
        let loaded = self.load::<A>(aggregate_id).await?;
        Ok(PgAggregateContext {
            stream_id: loaded.stream_id,
            aggregate: loaded.aggregate,
            version: loaded.version,
        })
    }

    async fn commit(
        &self,
        events: Vec<A::Event>,
        context: PgAggregateContext<A>,
        metadata: HashMap<String, String>,
    ) -> Result<Vec<EventEnvelope<A>>, AggregateError<A::Error>> {
        if events.is_empty() {
            return Ok(Vec::new());
        }
        let stored_metadata = metadata_json(metadata.clone());
        let expected = ExpectedVersion::Exact(context.version);
        self.try_append::<A>(
            self.pool(),
            &context.stream_id,
            expected,
            &events,
            &stored_metadata,
            None,
            None,
        )
        .await
        .map_err(|failure| match failure {
            AppendFailure::VersionTaken | AppendFailure::KeyTaken => {
                AggregateError::AggregateConflict
            }
            AppendFailure::Failed(error) => AggregateError::from(error),
        })?;
        Ok(events
            .into_iter()
            .zip(1..)
            .map(|(payload, offset)| EventEnvelope {
                aggregate_id: context.stream_id.clone(),
                sequence: sequence(context.version + offset),
                payload,
                metadata: metadata.clone(),
            })
            .collect())
    }
}
