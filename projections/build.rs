//! Rebuilds the tests and benchmarks when a migration changes: `sqlx::migrate!` embeds the
//! migration files at compile time and would otherwise keep a stale copy.

fn main() {
    println!("cargo:rerun-if-changed=../migrations");
}
