//! Operations: readiness and metrics per role on the operations listener, and clients that are
//! slow or hostile on purpose.

mod hostile_clients;
mod readiness_and_metrics;
