//! [`SameOrigin`]: refuses cross-site requests to the calls that act on the refresh cookie.
//!
//! `POST /api/auth/token` takes a form and `POST /api/auth/revoke` an empty body, both "simple"
//! requests another site's page can send without a CORS preflight; the browser attaches the
//! cookie unless `SameSite=Strict` stops it. That attribute is the only guard a browser gives,
//! so these calls (and sign-in and sign-up, which set the cookie: a forged sign-in would put the
//! victim in the attacker's account) check where the request comes from as well:
//!
//! | request | answer |
//! |---|---|
//! | `Sec-Fetch-Site: same-origin` (or `none`, typed by the person) | allowed |
//! | `Sec-Fetch-Site: cross-site` or `same-site` (a sibling subdomain is another site to us: the dashboard is served by the gateway itself) | 403 `cross-site-request` |
//! | no `Sec-Fetch-Site`, an `Origin` equal to `BALCAO_SITE_URL`'s origin or to the request's own `Host` | allowed |
//! | no `Sec-Fetch-Site`, any other `Origin` (`null` included) | 403 `cross-site-request` |
//! | neither header | allowed: a client that is not a browser (the tests, `curl`, an app), which no other site can drive; browsers have sent `Origin` on every `POST` since 2020, and the cookie's `SameSite=Strict` still covers older ones |
//!
//! A refusal leaves the cookie alone: clearing it would let any site sign the person out.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode, header};

use crate::error::ApiError;
use crate::state::AppState;

/// Proof that the request did not come from another site (see the module documentation).
#[derive(Debug, Clone, Copy)]
pub struct SameOrigin;

impl FromRequestParts<AppState> for SameOrigin {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        check(&parts.headers, &state.site.url).map(|()| SameOrigin)
    }
}

/// 403 `cross-site-request`.
pub fn cross_site() -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        "cross-site-request",
        "Pedido recusado porque veio de outro site. Abra o Balcão diretamente e tente de novo.",
    )
}

/// Whether `headers` describe a request from the site at `site_url` itself (or from no browser).
///
/// # Errors
///
/// 403 `cross-site-request` otherwise.
pub fn check(headers: &HeaderMap, site_url: &str) -> Result<(), ApiError> {
    if let Some(site) = headers.get("sec-fetch-site") {
        return match site.to_str().map(str::to_ascii_lowercase).as_deref() {
            Ok("same-origin" | "none") => Ok(()),
            _ => Err(cross_site()),
        };
    }
    let Some(origin) = headers.get(header::ORIGIN) else {
        return Ok(());
    };
    let origin = origin.to_str().map_err(|_| cross_site())?.trim();
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
    if same_origin_as_site(origin, site_url) || same_host_as_request(origin, host) {
        Ok(())
    } else {
        Err(cross_site())
    }
}

fn same_origin_as_site(origin: &str, site_url: &str) -> bool {
    let (Ok(origin), Ok(site)) = (url::Url::parse(origin), url::Url::parse(site_url)) else {
        return false;
    };
    origin.origin().is_tuple() && origin.origin() == site.origin()
}

/// `Origin`'s host and port are the `Host` the request was sent to (the site under another
/// name, such as `127.0.0.1` for `localhost`). A browser sets both: no page can forge them.
fn same_host_as_request(origin: &str, host: Option<&str>) -> bool {
    let (Ok(origin), Some(host)) = (url::Url::parse(origin), host) else {
        return false;
    };
    let Some(name) = origin.host_str() else {
        return false;
    };
    let host = host.trim().to_ascii_lowercase();
    let bare = name.to_ascii_lowercase();
    let with_port = |port: u16| format!("{bare}:{port}");
    match origin.port() {
        Some(port) => host == with_port(port),
        None => {
            host == bare
                || origin
                    .port_or_known_default()
                    .is_some_and(|port| host == with_port(port))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SITE: &str = "https://balcao.app";

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for (name, value) in pairs {
            headers.insert(
                axum::http::HeaderName::from_bytes(name.as_bytes()).unwrap(),
                value.parse().unwrap(),
            );
        }
        headers
    }

    fn allowed(pairs: &[(&str, &str)]) -> bool {
        check(&headers(pairs), SITE).is_ok()
    }

    #[test]
    fn fetch_metadata_decides_when_the_browser_sends_it() {
        assert!(allowed(&[("sec-fetch-site", "same-origin")]));
        assert!(allowed(&[("sec-fetch-site", "none")]));
        assert!(!allowed(&[("sec-fetch-site", "cross-site")]));
        assert!(!allowed(&[("sec-fetch-site", "same-site")]));
        // A same-origin verdict is not undone by an odd Origin, nor a cross-site one saved by a
        // matching Origin.
        assert!(!allowed(&[
            ("sec-fetch-site", "cross-site"),
            ("origin", "https://balcao.app")
        ]));
    }

    #[test]
    fn without_fetch_metadata_the_origin_must_be_the_site_or_the_host_asked() {
        assert!(allowed(&[("origin", "https://balcao.app")]));
        assert!(allowed(&[("origin", "https://BALCAO.app")]));
        assert!(!allowed(&[("origin", "https://golpe.example")]));
        assert!(!allowed(&[("origin", "https://balcao.app.golpe.example")]));
        assert!(!allowed(&[("origin", "http://balcao.app")]));
        assert!(!allowed(&[("origin", "null")]));
        assert!(allowed(&[
            ("origin", "http://127.0.0.1:8080"),
            ("host", "127.0.0.1:8080")
        ]));
        assert!(!allowed(&[
            ("origin", "http://127.0.0.1:9999"),
            ("host", "127.0.0.1:8080")
        ]));
        assert!(allowed(&[
            ("origin", "https://painel.exemplo"),
            ("host", "painel.exemplo:443")
        ]));
    }

    #[test]
    fn a_client_that_is_no_browser_sends_neither_and_is_allowed() {
        assert!(allowed(&[]));
        assert_eq!(
            check(&headers(&[("origin", "https://x.example")]), SITE)
                .unwrap_err()
                .code(),
            "cross-site-request"
        );
    }
}
