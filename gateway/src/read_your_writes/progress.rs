//! The process's view of the read models' progress (held in the shared state; the wait itself
//! is [`super::wait_for`]).

use std::time::Duration;

use projections::projector::ProgressWatch;

/// The process's view of the read models' progress, and how long a request waits on it.
#[derive(Clone)]
pub struct Progress {
    watch: ProgressWatch,
    patience: Duration,
}

impl Progress {
    /// `watch` for the waiting, each wait at most `patience` (`BALCAO_READ_YOUR_WRITES_MS`).
    pub fn new(watch: ProgressWatch, patience: Duration) -> Self {
        Progress { watch, patience }
    }

    /// How long a request waits for a read model to reach its own write.
    pub fn patience(&self) -> Duration {
        self.patience
    }

    /// The watch the waits use.
    pub fn watch(&self) -> &ProgressWatch {
        &self.watch
    }
}
