//! `cargo run -q -p domain --features cli --example brcode -- parse PAYLOAD` (or `make …`, `svg …`): a thin
//! wrapper around [`domain::brcode::cli::run`], which holds all the logic and its tests.

use std::io::Write;

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let out = domain::brcode::cli::run(&args);
    // Ignoring write errors is deliberate: a closed pipe (`| head`) must not turn into a panic.
    let _ = std::io::stdout().write_all(out.stdout.as_bytes());
    let _ = std::io::stderr().write_all(out.stderr.as_bytes());
    std::process::ExitCode::from(out.exit_code)
}
