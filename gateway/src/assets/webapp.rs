//! Where the built dashboard lives (held in the shared state; served by [`crate::spa`]).

use std::path::{Path, PathBuf};

/// Where the built dashboard lives.
#[derive(Debug, Clone)]
pub struct Webapp {
    dir: PathBuf,
}

impl Webapp {
    /// The built app in `dir` (`BALCAO_WEBAPP_DIR`, default `webapp/dist`, relative to the
    /// working directory).
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Webapp { dir: dir.into() }
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}
