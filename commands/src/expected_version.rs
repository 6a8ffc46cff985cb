//! What a caller believes about a stream's version before its command runs.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The stream version a command expects to extend (HTTP `If-Match` / `If-None-Match: *`).
///
/// Stream versions count events: a stream that does not exist is at version 0, after its first
/// event at 1, and so on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ExpectedVersion {
    /// Whatever the stream's version is (the command service still guards against a concurrent
    /// writer through the version it loaded).
    #[default]
    Any,
    /// The stream must not exist yet (no events).
    NoStream,
    /// The stream must be exactly at this version.
    Exact(i64),
}

impl ExpectedVersion {
    /// Whether a stream at `actual` satisfies this expectation.
    pub fn admits(self, actual: i64) -> bool {
        match self {
            ExpectedVersion::Any => true,
            ExpectedVersion::NoStream => actual == 0,
            ExpectedVersion::Exact(expected) => actual == expected,
        }
    }
}

impl fmt::Display for ExpectedVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExpectedVersion::Any => f.write_str("qualquer versão"),
            ExpectedVersion::NoStream => f.write_str("fluxo inexistente"),
            ExpectedVersion::Exact(version) => write!(f, "versão {version}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_stream_admits_only_version_zero() {
        assert!(ExpectedVersion::NoStream.admits(0));
        assert!(!ExpectedVersion::NoStream.admits(1));
    }

    #[test]
    fn exact_admits_only_its_own_version() {
        assert!(ExpectedVersion::Exact(3).admits(3));
        assert!(!ExpectedVersion::Exact(3).admits(2));
        assert!(!ExpectedVersion::Exact(3).admits(4));
    }

    #[test]
    fn any_admits_every_version() {
        assert!(ExpectedVersion::Any.admits(0));
        assert!(ExpectedVersion::Any.admits(41));
    }
}
