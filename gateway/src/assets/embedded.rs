//! The embedded assets and their content-hashed paths (what pages link to); serving them is
//! [`super::serve_static`].

use std::sync::LazyLock;

use sha2::{Digest, Sha256};

/// One embedded file under its hashed path.
pub(crate) struct Asset {
    pub(crate) path: String,
    pub(crate) body: &'static [u8],
    pub(crate) content_type: &'static str,
    /// The body compressed with brotli, once, at start.
    pub(crate) br: Vec<u8>,
    /// The body compressed with gzip, once, at start.
    pub(crate) gzip: Vec<u8>,
}

fn hashed(stem: &str, ext: &str, body: &'static [u8], content_type: &'static str) -> Asset {
    let digest = Sha256::digest(body);
    let short: String = digest.iter().take(6).map(|b| format!("{b:02x}")).collect();
    Asset {
        path: format!("/static/{stem}.{short}.{ext}"),
        body,
        content_type,
        br: brotli_of(body),
        gzip: gzip_of(body),
    }
}

/// Every embedded asset.
pub(crate) static ASSETS: LazyLock<Vec<Asset>> = LazyLock::new(|| {
    vec![
        hashed(
            "site",
            "css",
            include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/static/site.css")),
            "text/css; charset=utf-8",
        ),
        hashed(
            "analytics",
            "js",
            include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/static/analytics.js")),
            "text/javascript; charset=utf-8",
        ),
        hashed(
            "copy",
            "js",
            include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/static/copy.js")),
            "text/javascript; charset=utf-8",
        ),
        hashed(
            "session-hint",
            "js",
            include_bytes!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/static/session-hint.js"
            )),
            "text/javascript; charset=utf-8",
        ),
        hashed(
            "live",
            "js",
            include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/static/live.js")),
            "text/javascript; charset=utf-8",
        ),
        hashed(
            "sign-preview",
            "js",
            include_bytes!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/static/sign-preview.js"
            )),
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

/// The payer page's live-status script's hashed path (`crate::live`).
pub fn live_script_path() -> &'static str {
    &ASSETS[4].path
}

/// The sign creator's live-preview script's hashed path.
pub fn sign_preview_script_path() -> &'static str {
    &ASSETS[5].path
}

/// The copy-button script's hashed path.
pub fn copy_script_path() -> &'static str {
    &ASSETS[2].path
}

/// `body` at brotli's best quality: paid once per start for a few kilobytes, instead of on every
/// request at the speed-first level dynamic pages get.
fn brotli_of(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let params = brotli::enc::BrotliEncoderParams {
        quality: 11,
        ..Default::default()
    };
    brotli::BrotliCompress(&mut &body[..], &mut out, &params).expect("compressing into memory");
    out
}

/// `body` at gzip's best level.
fn gzip_of(body: &[u8]) -> Vec<u8> {
    use std::io::Write as _;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(body).expect("compressing into memory");
    encoder.finish().expect("compressing into memory")
}
