//! Relay, projector runtime, read models and replay.
