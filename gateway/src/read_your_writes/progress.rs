//! The process's view of the read models' progress (held in the shared state; the wait itself
//! is [`super::wait_for`]).

use projections::projector::ProgressWatch;

/// The process's view of the read models' progress.
#[derive(Clone)]
pub struct Progress {
    watch: ProgressWatch,
}

impl Progress {
    /// `watch` for the waiting.
    pub fn new(watch: ProgressWatch) -> Self {
        Progress { watch }
    }

    /// The watch the waits use.
    pub fn watch(&self) -> &ProgressWatch {
        &self.watch
    }
}
