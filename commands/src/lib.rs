//! Command handling: the cqrs-es core over Balcão's own PostgreSQL event store.

pub mod feed;
