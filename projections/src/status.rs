//! What the long-running parts (the relay, each projector) are doing right now, for the
//! operations endpoints: `/readyz` says whether they run, `/metrics` whether they lead.
//!
//! The relay and each projector hold a [`Status`] handle and set their [`Phase`] as they move
//! between waiting for their lock, leading and recovering from a failure; whoever serves
//! `/readyz` reads a [`Status::snapshot`]. Clones share the same state.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError};

/// Where a relay or a projector is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Started, not yet trying its lock (the relay creates its stream first).
    Starting,
    /// Healthy and waiting: another instance holds the lock and this one takes over when it dies.
    Standby,
    /// Holds the lock and does the work.
    Active,
    /// Failed (database or NATS unavailable, stream missing) and tries again after a pause.
    Retrying,
}

impl Phase {
    /// Whether an instance in this phase is doing its job: leading, or ready to take over.
    pub fn is_healthy(self) -> bool {
        matches!(self, Phase::Active | Phase::Standby)
    }

    /// The phase in Portuguese, as `/readyz` prints it.
    pub fn label(self) -> &'static str {
        match self {
            Phase::Starting => "iniciando",
            Phase::Standby => "em espera",
            Phase::Active => "ativo",
            Phase::Retrying => "tentando de novo",
        }
    }
}

/// Shared, named phases: one entry per relay stream or per projection.
#[derive(Debug, Clone, Default)]
pub struct Status {
    phases: Arc<Mutex<BTreeMap<String, Phase>>>,
}

impl Status {
    /// Records that `name` is now in `phase`.
    pub fn set(&self, name: &str, phase: Phase) {
        // A panic while holding this lock cannot leave the map inconsistent (one insert).
        let mut phases = self.phases.lock().unwrap_or_else(PoisonError::into_inner);
        phases.insert(name.to_owned(), phase);
    }

    /// The phase of `name`, if it reported one.
    pub fn get(&self, name: &str) -> Option<Phase> {
        let phases = self.phases.lock().unwrap_or_else(PoisonError::into_inner);
        phases.get(name).copied()
    }

    /// Every name with its phase, sorted by name.
    pub fn snapshot(&self) -> Vec<(String, Phase)> {
        let phases = self.phases.lock().unwrap_or_else(PoisonError::into_inner);
        phases
            .iter()
            .map(|(name, phase)| (name.clone(), *phase))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_the_phases() {
        let status = Status::default();
        let seen_by_ops = status.clone();
        status.set("qrcodes", Phase::Standby);
        status.set("qrcodes", Phase::Active);
        status.set("accounts", Phase::Retrying);
        assert_eq!(seen_by_ops.get("qrcodes"), Some(Phase::Active));
        assert_eq!(
            seen_by_ops.snapshot(),
            vec![
                ("accounts".to_owned(), Phase::Retrying),
                ("qrcodes".to_owned(), Phase::Active)
            ]
        );
    }

    #[test]
    fn only_leading_or_waiting_counts_as_healthy() {
        assert!(Phase::Active.is_healthy());
        assert!(Phase::Standby.is_healthy());
        assert!(!Phase::Starting.is_healthy());
        assert!(!Phase::Retrying.is_healthy());
    }
}
