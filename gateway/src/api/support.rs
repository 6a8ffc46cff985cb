//! What the API's resource handlers share: the command metadata and the clock.

use commands::CommandMetadata;

/// The `at` of every command (the domain reads no clock): the one clock the auth API uses too,
/// so every event's time has the same form.
pub(crate) use crate::auth::accounts::now;

/// Metadata of a command asked for by `caller` (an account id).
pub(crate) fn metadata(caller: &str) -> CommandMetadata {
    CommandMetadata::start().by(caller.to_owned())
}
