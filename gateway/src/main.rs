//! The `balcao` binary.
fn main() {}
