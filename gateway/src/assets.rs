//! Static assets, embedded in the binary and served under content-hashed names, so browsers may
//! cache them for a year: a changed file gets a new name.

use std::sync::LazyLock;

use axum::extract::Path;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

use crate::error::AppError;

struct Asset {
    path: String,
    body: &'static [u8],
    content_type: &'static str,
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

static ASSETS: LazyLock<Vec<Asset>> = LazyLock::new(|| {
    vec![
        hashed(
            "site",
            "css",
            include_bytes!("../static/site.css"),
            "text/css; charset=utf-8",
        ),
        hashed(
            "analytics",
            "js",
            include_bytes!("../static/analytics.js"),
            "text/javascript; charset=utf-8",
        ),
        hashed(
            "copy",
            "js",
            include_bytes!("../static/copy.js"),
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

/// The copy-button script's hashed path.
pub fn copy_script_path() -> &'static str {
    &ASSETS[2].path
}

/// `GET /static/{name}`: an embedded asset with a year-long immutable cache.
pub async fn serve_static(Path(name): Path<String>) -> Result<Response, AppError> {
    let wanted = format!("/static/{name}");
    let asset = ASSETS
        .iter()
        .find(|a| a.path == wanted)
        .ok_or(AppError::NotFound)?;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static(asset.content_type),
            ),
            (
                header::CACHE_CONTROL,
                HeaderValue::from_static("public, max-age=31536000, immutable"),
            ),
        ],
        asset.body,
    )
        .into_response())
}

/// `GET /favicon.svg`: the site icon.
pub async fn favicon() -> Response {
    (
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            (header::CACHE_CONTROL, "public, max-age=86400"),
        ],
        include_str!("../static/favicon.svg"),
    )
        .into_response()
}
