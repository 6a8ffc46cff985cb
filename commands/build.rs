//! `sqlx::migrate!` embeds `../migrations` at compile time but does not tell cargo to watch the
//! folder, so a new or changed migration would not rebuild this crate. This does.
fn main() {
    println!("cargo:rerun-if-changed=../migrations");
}
