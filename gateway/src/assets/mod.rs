//! Static assets, embedded in the binary and served under content-hashed names, so browsers may
//! cache them for a year: a changed file gets a new name.

use axum::extract::Path;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};

use crate::error::AppError;

pub(crate) mod embedded;

use embedded::ASSETS;
pub use embedded::{
    analytics_script_path, copy_script_path, live_script_path, session_hint_script_path,
    sign_preview_script_path, stylesheet_path,
};

/// `GET /static/{name}`: an embedded asset with a year-long immutable cache, in the brotli or gzip
/// form made at start when the client accepts one (`Vary: Accept-Encoding`), so no request pays
/// for compressing it.
pub async fn serve_static(
    Path(name): Path<String>,
    request: axum::http::HeaderMap,
) -> Result<Response, AppError> {
    let wanted = format!("/static/{name}");
    let asset = ASSETS
        .iter()
        .find(|a| a.path == wanted)
        .ok_or(AppError::NotFound)?;
    let offered = request
        .get(header::ACCEPT_ENCODING)
        .and_then(|value| value.to_str().ok())
        .unwrap_or("");
    let (encoding, body): (Option<&'static str>, &[u8]) = if accepts(offered, "br") {
        (Some("br"), &asset.br)
    } else if accepts(offered, "gzip") {
        (Some("gzip"), &asset.gzip)
    } else {
        (None, asset.body)
    };
    let mut response = (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static(asset.content_type),
            ),
            (
                header::CACHE_CONTROL,
                HeaderValue::from_static("public, max-age=31536000, immutable"),
            ),
            (header::VARY, HeaderValue::from_static("accept-encoding")),
        ],
        body.to_vec(),
    )
        .into_response();
    if let Some(encoding) = encoding {
        // Already compressed: the compression layer leaves a response with this header alone.
        response
            .headers_mut()
            .insert(header::CONTENT_ENCODING, HeaderValue::from_static(encoding));
    }
    Ok(response)
}

/// Whether an `Accept-Encoding` value accepts `coding`: named (or `*`) with a quality above 0.
pub(crate) fn accepts(offered: &str, coding: &str) -> bool {
    let mut named = None;
    let mut any = None;
    for item in offered.split(',') {
        let mut parts = item.split(';');
        let name = parts.next().unwrap_or("").trim();
        let quality = parts
            .find_map(|p| p.trim().strip_prefix("q="))
            .map_or(1.0_f32, |q| q.trim().parse().unwrap_or(0.0));
        let acceptable = quality > 0.0;
        if name.eq_ignore_ascii_case(coding) {
            named = Some(acceptable);
        } else if name == "*" {
            any = Some(acceptable);
        }
    }
    named.or(any).unwrap_or(false)
}

/// `GET /favicon.svg`: the site icon.
pub async fn favicon() -> Response {
    (
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            (header::CACHE_CONTROL, "public, max-age=86400"),
        ],
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/static/favicon.svg")),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderMap;

    use super::*;

    #[test]
    fn accept_encoding_is_read_with_its_qualities_and_wildcard() {
        assert!(accepts("gzip, deflate, br, zstd", "br"));
        assert!(accepts("gzip;q=1.0, br;q=0.5", "br"));
        assert!(!accepts("gzip, br;q=0", "br"));
        assert!(accepts("*", "gzip"));
        assert!(!accepts("*;q=0, identity", "gzip"));
        assert!(!accepts("", "br"));
    }

    async fn fetch(encoding: Option<&str>) -> Response {
        let name = stylesheet_path().trim_start_matches("/static/").to_owned();
        let mut headers = HeaderMap::new();
        if let Some(encoding) = encoding {
            headers.insert(header::ACCEPT_ENCODING, encoding.parse().expect("header"));
        }
        serve_static(Path(name), headers)
            .await
            .expect("the stylesheet")
    }

    #[tokio::test]
    async fn the_stylesheet_is_served_in_the_form_made_at_start_that_the_client_accepts() {
        let br = fetch(Some("gzip, deflate, br")).await;
        assert_eq!(br.headers()[header::CONTENT_ENCODING], "br");
        assert_eq!(br.headers()[header::VARY], "accept-encoding");
        let bytes = axum::body::to_bytes(br.into_body(), 1 << 20)
            .await
            .expect("body");
        let mut plain = Vec::new();
        brotli::BrotliDecompress(&mut &bytes[..], &mut plain).expect("valid brotli");
        assert_eq!(plain, ASSETS[0].body);

        let gzip = fetch(Some("gzip")).await;
        assert_eq!(gzip.headers()[header::CONTENT_ENCODING], "gzip");

        let identity = fetch(None).await;
        assert!(!identity.headers().contains_key(header::CONTENT_ENCODING));
        let bytes = axum::body::to_bytes(identity.into_body(), 1 << 20)
            .await
            .expect("body");
        assert_eq!(&bytes[..], ASSETS[0].body);
    }
}
