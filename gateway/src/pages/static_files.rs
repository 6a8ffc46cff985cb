//! The embedded static files as the site serves them: `/static/{name}` (`crate::assets`) and
//! `/favicon.svg`.

use axum::extract::Path;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};

use crate::assets::{ASSETS, accepts};
use crate::error::AppError;

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
    use crate::assets::stylesheet_path;

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
