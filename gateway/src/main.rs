//! `balcao`: one binary, several roles. `balcao --help` lists them; README.md documents each
//! setting.

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use gateway::config::Settings;
use gateway::roles::{self, Roles};

/// mimalloc instead of glibc's allocator: replay and the feed readers allocate and free millions
/// of small JSON values, and with glibc `malloc`/`free` were a third of the replaying process's
/// CPU (`perf`, BENCHMARKS.md (f)); `feed::read_after` over 1,000,000 events went from 2.2–2.4 s
/// to 1.9–2.0 s.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Debug, Parser)]
#[command(
    name = "balcao",
    version,
    about = "Balcão: QR codes e placas Pix que todo app de banco aceita"
)]
struct Cli {
    #[command(flatten)]
    settings: Settings,
    #[command(subcommand)]
    role: Role,
}

#[derive(Debug, Subcommand)]
enum Role {
    /// Every role in one process: migrate, then serve, relay and project.
    All,
    /// The HTTP gateway.
    Serve,
    /// The relay from PostgreSQL to NATS JetStream.
    Relay,
    /// Projectors: all of them, or the ones named.
    Project {
        /// Projection names (e.g. `qrcodes`); none means all.
        names: Vec<String>,
    },
    /// Rebuilds read models from PostgreSQL and switches to them without downtime.
    Replay {
        /// Projection names to rebuild.
        names: Vec<String>,
        /// Rebuild every projection.
        #[arg(long)]
        all: bool,
        /// Hide the progress bar.
        #[arg(long)]
        quiet: bool,
    },
    /// Creates the database when missing and applies the migrations.
    Migrate,
    /// Account administration: `account disable EMAIL` or `account enable EMAIL`.
    Account {
        /// What to do.
        #[command(subcommand)]
        action: AccountCommand,
    },
    /// The BR Code tool: `brcode parse PAYLOAD` or `brcode make --key … --name … --city …`.
    #[command(disable_help_flag = true)]
    Brcode {
        /// Arguments passed to the tool.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
}

#[derive(Debug, Subcommand)]
enum AccountCommand {
    /// Disables the account with this sign-in e-mail: sign-in is refused and every session ends.
    Disable {
        /// The account's sign-in e-mail.
        email: String,
    },
    /// Enables the account with this sign-in e-mail again.
    Enable {
        /// The account's sign-in e-mail.
        email: String,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Role::Brcode { args } = &cli.role {
        let output = domain::brcode::cli::run(args);
        // The tool's whole answer goes out at once; a closed pipe is not worth a panic.
        let _ = std::io::stdout().write_all(output.stdout.as_bytes());
        let _ = std::io::stderr().write_all(output.stderr.as_bytes());
        return ExitCode::from(output.exit_code);
    }
    gateway::telemetry::init(cli.settings.log_format);
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("balcao: could not start the async runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(cli)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            tracing::error!(error = format!("{error:#}"), "balcao stopped");
            eprintln!("balcao: {error:#}");
            ExitCode::FAILURE
        }
    }
}

async fn run(cli: Cli) -> anyhow::Result<()> {
    let settings = cli.settings;
    let roles = match cli.role {
        Role::Migrate => return roles::migrate(&settings).await,
        Role::Replay { names, all, quiet } => {
            if names.is_empty() && !all {
                anyhow::bail!("name the projections to rebuild, or pass --all");
            }
            let names = if all { Vec::new() } else { names };
            return roles::replay(&settings, &names, !quiet).await.map(|_| ());
        }
        Role::Brcode { .. } => return Ok(()),
        Role::Account { action } => {
            let (action, email) = match action {
                AccountCommand::Disable { email } => (roles::AccountAction::Disable, email),
                AccountCommand::Enable { email } => (roles::AccountAction::Enable, email),
            };
            let account_id = roles::account(&settings, action, &email).await?;
            let done = match action {
                roles::AccountAction::Disable => "desativada",
                roles::AccountAction::Enable => "reativada",
            };
            tracing::info!(account_id, "conta {done}");
            let _ = writeln!(std::io::stdout(), "Conta {account_id} {done}.");
            return Ok(());
        }
        Role::All => {
            roles::migrate(&settings).await?;
            Roles::all()
        }
        Role::Serve => Roles {
            serve: true,
            ..Roles::default()
        },
        Role::Relay => Roles {
            relay: true,
            ..Roles::default()
        },
        Role::Project { names } => Roles {
            project: true,
            projections: names,
            ..Roles::default()
        },
    };
    let running = roles::start(&settings, roles).await?;
    if let Some(address) = running.local_addr {
        tracing::info!("Balcão is up: open http://{address}/ in a browser");
    }
    tokio::spawn(roles::cancel_on_signal(running.shutdown_token()));
    running.wait().await
}
