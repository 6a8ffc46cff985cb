//! Serving the dashboard (`webapp/dist`, built by Vite with `base: '/painel/'`).
//!
//! | path | answer | `Cache-Control` |
//! |---|---|---|
//! | `/entrar`, `/criar-conta`, `/recuperar-senha`, `/redefinir-senha`, `/verificar-email`, `/pagar_asaas` | `dist/index.html` (the app routes on the client) | `no-cache`, so a deploy is picked up on the next visit |
//! | `/painel`, `/painel/*` with the signed-in hint cookie | the same `index.html` (`Vary: cookie`) | `no-cache` |
//! | `/painel`, `/painel/*` without it (`panel_gate`) | `303` to `/entrar?continuar=…` | `no-store` |
//! | `/painel/assets/*` | `dist/assets/*` (hashed names), or the `.br` / `.gz` the build wrote beside it when the client accepts it (`Content-Encoding`, `Vary: accept-encoding`) | `public, max-age=31536000, immutable` |
//! | `/builds/latest.json` | `dist/builds/latest.json` (the version check) | `no-store` |
//!
//! `/painel/duvidas` (the server-rendered FAQ) and `/painel/index_old` (a redirect) are routed
//! elsewhere; a static route wins over `/painel/*`.
//!
//! The folder is read on every request, so a rebuild needs no restart. When it is missing (the
//! dashboard was not built), the app's pages answer a pt-BR 503 page saying so instead of
//! failing, `/builds/latest.json` a 503 JSON error with code `webapp-not-built`, and assets 404.
//!
//! The app's responses carry their own content security policy, stricter than the public site's
//! (no tag manager): Vite's output has no inline script, and React sets `style` props through
//! the CSSOM, which `style-src 'self'` does not block, so no `'unsafe-inline'` is needed.

use std::path::PathBuf;

use axum::extract::{Path as UrlPath, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

use crate::error::ApiError;
use crate::error::AppError;
use crate::html::{ErrorPage, HtmlTemplate, Meta};
use crate::state::AppState;

/// The app's content security policy: its own scripts, styles, images (and `data:` images),
/// and API calls; nothing else.
pub const WEBAPP_CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; \
     frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'";

/// The paths that are the app's pages open to anyone (the dashboard itself, `/painel` and
/// `/painel/*`, is behind `panel_gate`).
pub const APP_PAGES: [&str; 6] = [
    "/entrar",
    "/criar-conta",
    "/recuperar-senha",
    "/redefinir-senha",
    "/verificar-email",
    // Issue 12: the Premium checkout (a Pix charge), outside `/painel` as the product names it.
    "/pagar_asaas",
];

pub(crate) mod panel_gate;

pub use crate::assets::webapp::Webapp;

/// `index.html` for any of the app's pages.
pub(crate) async fn index(State(state): State<AppState>, request_headers: HeaderMap) -> Response {
    let path = state.webapp.dir().join("index.html");
    let html = match tokio::fs::read(&path).await {
        Ok(html) => html,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return not_built(&state),
        Err(error) => {
            return AppError::Internal(anyhow::anyhow!("reading {}: {error}", path.display()))
                .into_response();
        }
    };
    // A strong validator, so "no-cache" costs a 304 rather than the whole file.
    let etag = format!(
        "\"{}\"",
        Sha256::digest(&html)
            .iter()
            .take(16)
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    );
    let matches = request_headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|tag| tag.trim() == etag));
    let headers = [
        (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        (
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(WEBAPP_CONTENT_SECURITY_POLICY),
        ),
        (
            header::ETAG,
            HeaderValue::from_str(&etag).expect("hex is header text"),
        ),
    ];
    if matches {
        return (StatusCode::NOT_MODIFIED, headers).into_response();
    }
    (
        headers,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/html; charset=utf-8"),
        )],
        html,
    )
        .into_response()
}

/// A hashed asset under `/painel/assets/`, in the brotli or gzip form the build wrote beside it
/// (`webapp/precompress.ts`) when the client accepts one, so no request pays for compressing it.
pub(crate) async fn asset(
    State(state): State<AppState>,
    UrlPath(path): UrlPath<String>,
    request_headers: HeaderMap,
) -> Response {
    let Some(relative) = safe_relative(&path) else {
        return AppError::NotFound.into_response();
    };
    let file = state.webapp.dir().join("assets").join(relative);
    let offered = request_headers
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    match read_asset(&file, offered).await {
        Ok((bytes, encoding)) => {
            let mut response = (
                [
                    (header::CONTENT_TYPE, content_type(&path)),
                    (header::CACHE_CONTROL, "public, max-age=31536000, immutable"),
                    (header::VARY, "accept-encoding"),
                ],
                bytes,
            )
                .into_response();
            if let Some(encoding) = encoding {
                // Already compressed: the compression layer leaves a response with this header
                // alone.
                response
                    .headers_mut()
                    .insert(header::CONTENT_ENCODING, HeaderValue::from_static(encoding));
            }
            response
        }
        // Whatever the name asked for, a file that cannot be there is not found: missing, a
        // folder, a path through a file, or a name the file system refuses (too long).
        Err(error)
            if matches!(
                error.kind(),
                std::io::ErrorKind::NotFound
                    | std::io::ErrorKind::IsADirectory
                    | std::io::ErrorKind::NotADirectory
                    | std::io::ErrorKind::InvalidFilename
            ) =>
        {
            AppError::NotFound.into_response()
        }
        Err(error) => AppError::Internal(anyhow::anyhow!("reading {}: {error}", file.display()))
            .into_response(),
    }
}

/// `file`, or its `.br` / `.gz` sibling when `offered` (an `Accept-Encoding`) accepts that coding
/// and the build wrote one; with the coding used. A sibling alone, without the file itself, is
/// not served: the file decides what exists.
async fn read_asset(
    file: &std::path::Path,
    offered: &str,
) -> std::io::Result<(Vec<u8>, Option<&'static str>)> {
    let plain = tokio::fs::read(file).await?;
    for (coding, suffix) in [("br", "br"), ("gzip", "gz")] {
        if !crate::assets::accepts(offered, coding) {
            continue;
        }
        let mut name = file.as_os_str().to_owned();
        name.push(".");
        name.push(suffix);
        if let Ok(compressed) = tokio::fs::read(PathBuf::from(name)).await {
            return Ok((compressed, Some(coding)));
        }
    }
    Ok((plain, None))
}

/// `/builds/latest.json`: the build id the running app compares with its own.
pub(crate) async fn latest_build(State(state): State<AppState>) -> Response {
    let file = state.webapp.dir().join("builds").join("latest.json");
    match tokio::fs::read(&file).await {
        Ok(bytes) => (
            [
                (header::CONTENT_TYPE, "application/json"),
                (header::CACHE_CONTROL, "no-store"),
            ],
            bytes,
        )
            .into_response(),
        Err(error) => {
            if error.kind() != std::io::ErrorKind::NotFound {
                tracing::warn!(%error, file = %file.display(), "could not read the build manifest");
            }
            let mut response = ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "webapp-not-built",
                "O painel do Balcão ainda não foi construído neste servidor.",
            )
            .into_response();
            response
                .headers_mut()
                .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
            response
        }
    }
}

/// The 503 page for a server without a built dashboard.
fn not_built(state: &AppState) -> Response {
    tracing::warn!(
        dir = %state.webapp.dir().display(),
        "the dashboard is not built: run `npm run build` in webapp/ (or set BALCAO_WEBAPP_DIR)"
    );
    let message = "O painel do Balcão ainda não foi construído neste servidor. Enquanto isso, você pode criar placas e QR codes Pix sem conta.";
    let page = HtmlTemplate(ErrorPage {
        meta: Meta::unindexed(Some(&state.site), "Painel indisponível | Balcão", message),
        status: 503,
        heading: "O painel ainda não está disponível",
        message: message.to_owned(),
    });
    (
        StatusCode::SERVICE_UNAVAILABLE,
        [(header::CACHE_CONTROL, "no-store")],
        page,
    )
        .into_response()
}

/// Longest asset name looked up: Vite's hashed names are a few dozen bytes, and file systems
/// refuse names over 255 bytes anyway.
const MAX_ASSET_SEGMENT: usize = 255;
/// Longest asset path looked up.
const MAX_ASSET_PATH: usize = 1024;

/// `path` as a relative path with only normal segments (no `..`, `.`, empty segments or
/// backslashes), so a request cannot leave the assets folder; `None` too for names longer than
/// any file there can have, which never reach the disk.
fn safe_relative(path: &str) -> Option<PathBuf> {
    if path.len() > MAX_ASSET_PATH {
        return None;
    }
    let mut relative = PathBuf::new();
    for segment in path.split('/') {
        if segment.is_empty()
            || segment.len() > MAX_ASSET_SEGMENT
            || segment == "."
            || segment == ".."
            || segment.contains('\\')
            || segment.contains('\0')
        {
            return None;
        }
        relative.push(segment);
    }
    Some(relative)
}

/// The content type of what Vite emits, by extension.
fn content_type(path: &str) -> &'static str {
    let extension = path
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    match extension.as_str() {
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" | "map" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "webp" => "image/webp",
        "avif" => "image/avif",
        "gif" => "image/gif",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "woff" => "font/woff",
        "ttf" => "font/ttf",
        "txt" => "text/plain; charset=utf-8",
        "wasm" => "application/wasm",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_relative_paths_reach_the_disk() {
        assert_eq!(
            safe_relative("index-abc.js"),
            Some(PathBuf::from("index-abc.js"))
        );
        assert_eq!(safe_relative("a/b.css"), Some(PathBuf::from("a/b.css")));
        for bad in [
            "../secret",
            "a/../../b",
            "./a",
            "a//b",
            "",
            "a\\..\\b",
            "/etc/passwd",
        ] {
            assert_eq!(safe_relative(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn names_longer_than_a_file_name_can_be_never_reach_the_disk() {
        assert_eq!(safe_relative(&"x".repeat(300)), None);
        assert_eq!(safe_relative(&format!("{}.js", "x".repeat(253))), None);
        assert_eq!(safe_relative(&"a/".repeat(600)), None);
        let longest = format!("{}.js", "x".repeat(252));
        assert_eq!(safe_relative(&longest), Some(PathBuf::from(&longest)));
    }

    #[tokio::test]
    async fn an_asset_is_read_in_the_compressed_form_the_build_wrote_and_the_client_accepts() {
        let dir = std::env::temp_dir().join(format!("balcao-spa-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&dir).expect("folder");
        let file = dir.join("index-abc.js");
        std::fs::write(&file, b"plain").expect("file");
        std::fs::write(dir.join("index-abc.js.br"), b"brotli").expect("br");
        std::fs::write(dir.join("index-abc.js.gz"), b"gzip").expect("gz");
        let read = |offered: &'static str| {
            let file = file.clone();
            async move { read_asset(&file, offered).await.expect("readable") }
        };
        assert_eq!(
            read("gzip, deflate, br").await,
            (b"brotli".to_vec(), Some("br"))
        );
        assert_eq!(read("gzip").await, (b"gzip".to_vec(), Some("gzip")));
        assert_eq!(read("br;q=0, gzip").await, (b"gzip".to_vec(), Some("gzip")));
        assert_eq!(read("").await, (b"plain".to_vec(), None));
        // Without a sibling, the file as it is (the compression layer may still compress it).
        std::fs::remove_file(dir.join("index-abc.js.br")).expect("removed");
        assert_eq!(read("br").await, (b"plain".to_vec(), None));
        // A sibling without its file is nothing.
        std::fs::remove_file(&file).expect("removed");
        assert!(read_asset(&file, "gzip").await.is_err());
        std::fs::remove_dir_all(&dir).expect("cleaned");
    }

    #[test]
    fn vite_outputs_get_their_types() {
        assert_eq!(content_type("index-x.js"), "text/javascript; charset=utf-8");
        assert_eq!(content_type("index-x.CSS"), "text/css; charset=utf-8");
        assert_eq!(content_type("font.woff2"), "font/woff2");
        assert_eq!(content_type("sem-extensao"), "application/octet-stream");
    }
}
