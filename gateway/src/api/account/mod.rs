//! `/api/account/…`: the signed-in person's own account — settings, photo, password, e-mail and
//! deletion. These routes always act on the caller's own account (the token's), never on one named
//! in the path. The photo itself is served outside the API, at `GET /fotos/{accountId}`
//! ([`photo::serve`]), because an `<img>` loads it without a token.

pub mod credentials;
pub mod deletion;
pub mod photo;
pub mod photo_check;
pub mod profile_input;
pub mod settings;
