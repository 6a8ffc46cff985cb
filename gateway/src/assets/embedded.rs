//! The embedded assets and their content-hashed paths (what pages link to); serving them is
//! [`super::serve_static`].

use std::sync::LazyLock;

use sha2::{Digest, Sha256};

/// One embedded file under its hashed path.
pub(crate) struct Asset {
    pub(crate) path: String,
    pub(crate) body: &'static [u8],
    pub(crate) content_type: &'static str,
}

fn hashed(stem: &str, ext: &str, body: &'static [u8], content_type: &'static str) -> Asset {
    let digest = Sha256::digest(body);
    let short: String = digest.iter().take(6).map(|b| format!("{b:02x}")).collect();
    Asset {
        path: format!("/static/{stem}.{short}.{ext}"),
        body,
        content_type,
    }
}

/// Every embedded asset.
pub(crate) static ASSETS: LazyLock<Vec<Asset>> = LazyLock::new(|| {
    vec![
        hashed(
            "site",
            "css",
            include_bytes!("../../static/site.css"),
            "text/css; charset=utf-8",
        ),
        hashed(
            "analytics",
            "js",
            include_bytes!("../../static/analytics.js"),
            "text/javascript; charset=utf-8",
        ),
        hashed(
            "copy",
            "js",
            include_bytes!("../../static/copy.js"),
            "text/javascript; charset=utf-8",
        ),
        hashed(
            "session-hint",
            "js",
            include_bytes!("../../static/session-hint.js"),
            "text/javascript; charset=utf-8",
        ),
    ]
});

/// The stylesheet's hashed path.
pub fn stylesheet_path() -> &'static str {
    &ASSETS[0].path
}

/// The consent-and-analytics script's hashed path.
pub fn analytics_script_path() -> &'static str {
    &ASSETS[1].path
}

/// The signed-in header script's hashed path (`Painel` for a signed-in visitor).
pub fn session_hint_script_path() -> &'static str {
    &ASSETS[3].path
}

/// The copy-button script's hashed path.
pub fn copy_script_path() -> &'static str {
    &ASSETS[2].path
}
