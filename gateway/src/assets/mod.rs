//! Static assets, embedded in the binary and served under content-hashed names, so browsers may
//! cache them for a year: a changed file gets a new name.

use axum::extract::Path;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};

use crate::error::AppError;

pub(crate) mod embedded;

use embedded::ASSETS;
pub use embedded::{
    analytics_script_path, copy_script_path, session_hint_script_path, stylesheet_path,
};

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
        include_str!("../../static/favicon.svg"),
    )
        .into_response()
}
