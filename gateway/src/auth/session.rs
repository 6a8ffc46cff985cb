//! Sign-in sessions and their refresh tokens: the SQL lives in [`commands::sessions`], beside
//! the other state kept outside the log, so a session can be started by a command's
//! [`Effects`](commands::Effects) in the command's own transaction (sign-up). Re-exported here
//! for the identity code that uses it.

pub use commands::sessions::*;
