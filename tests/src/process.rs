//! A role of the real `balcao` binary as a process of its own, beside a [`TestApp`]: on the same
//! database and stream, so a test can `kill -9` it (SIGKILL: no destructor, no rollback but
//! PostgreSQL's own) and start another, as an operator's crash would.

use std::path::PathBuf;
use std::process::Stdio;
use std::sync::OnceLock;

use tokio::process::{Child, Command};

use crate::TestApp;

/// The `balcao` binary of this build, built first if it is not (or is stale): `cargo build` of
/// an up-to-date binary takes a moment, and `cargo test --workspace` has built it already
/// (the gateway's integration tests need it).
///
/// # Panics
///
/// When cargo cannot build it.
pub fn balcao_binary() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
            let status = std::process::Command::new(cargo)
                .args(["build", "--quiet", "-p", "gateway", "--bin", "balcao"])
                .status()
                .expect("cargo runs");
            assert!(
                status.success(),
                "cargo build -p gateway --bin balcao failed"
            );
            // `target/debug/deps/e2e-…` → `target/debug/balcao`.
            let exe = std::env::current_exe().expect("the test's own path");
            let profile = exe
                .parent()
                .and_then(std::path::Path::parent)
                .expect("the test runs from target/<profile>/deps");
            profile.join("balcao")
        })
        .clone()
}

/// A `balcao` role running as a child process.
pub struct RoleProcess {
    child: Child,
    /// Where its standard output and error go (kept for a failing test to read).
    pub log: PathBuf,
}

impl RoleProcess {
    /// Starts `balcao <role>` with `app`'s database, stream, mail, storage and dashboard, its
    /// own listeners on free ports, and `env` on top (say, `BALCAO_BANK_CATCH_UP_SECS`).
    ///
    /// # Panics
    ///
    /// When the binary cannot be started.
    pub fn start(app: &TestApp, role: &str, env: &[(&str, String)]) -> RoleProcess {
        let settings = &app.settings;
        let log = std::env::temp_dir().join(format!(
            "balcao-{role}-{}.log",
            uuid::Uuid::new_v4().simple()
        ));
        let out = std::fs::File::create(&log).expect("the process log");
        let err = out.try_clone().expect("the process log, twice");
        let mut command = Command::new(balcao_binary());
        command
            .arg(role)
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("DATABASE_URL", &settings.database_url)
            .env("NATS_URL", &settings.nats_url)
            .env("BALCAO_NATS_STREAM", &settings.nats_stream)
            .env("BALCAO_NATS_SUBJECT_PREFIX", &settings.nats_subject_prefix)
            .env("BALCAO_LISTEN", "127.0.0.1:0")
            .env("BALCAO_OPS_LISTEN", "127.0.0.1:0")
            .env("BALCAO_SITE_URL", &settings.site_url)
            .env("BALCAO_WEBAPP_DIR", &settings.webapp_dir)
            .env("BALCAO_MAIL_URL", &settings.mail.mail_url)
            .env("BALCAO_STORAGE_URL", &settings.storage.storage_url)
            .env("BALCAO_DB_POOL_SIZE", "4")
            .env("BALCAO_LOG_FORMAT", "json")
            .env("RUST_LOG", "info")
            .stdin(Stdio::null())
            .stdout(Stdio::from(out))
            .stderr(Stdio::from(err))
            .kill_on_drop(true);
        for (name, value) in env {
            command.env(name, value);
        }
        let child = command.spawn().expect("balcao starts");
        RoleProcess { child, log }
    }

    /// `kill -9`, and waits for the process to be gone.
    ///
    /// # Panics
    ///
    /// When the signal cannot be sent.
    pub async fn kill_9(mut self) {
        // `Child::kill` is SIGKILL on Unix.
        self.child.kill().await.expect("SIGKILL is delivered");
    }

    /// What the process wrote so far.
    pub fn output(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}
