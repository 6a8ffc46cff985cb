//! The client's address, for per-address rate limits.
//!
//! Behind proxies the TCP peer is the nearest proxy, and the client is somewhere in
//! `X-Forwarded-For`. Each proxy *appends* the address it received the request from, so only the
//! rightmost entries were written by proxies we run; everything to their left was sent by the
//! client and may be invented. With `BALCAO_TRUSTED_PROXIES=N`, the client is the N-th entry
//! from the right: the address our outermost proxy saw. A client adding its own entries only
//! adds them to the left, where they are never read.
//!
//! | trusted proxies | `X-Forwarded-For` | client address |
//! |---|---|---|
//! | 0 (default) | anything | the TCP peer (the header is ignored) |
//! | 1 | `6.6.6.6, 203.0.113.7` | `203.0.113.7` (appended by our proxy) |
//! | 2 | `6.6.6.6, 203.0.113.7, 10.0.0.2` | `203.0.113.7` |
//! | 2 | `203.0.113.7` (shorter than N) | `203.0.113.7`, the leftmost: every entry came from our proxies |
//! | any | missing, or the chosen entry is not an address | the TCP peer |

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::HeaderMap;
use axum::http::request::Parts;

use crate::state::AppState;

/// The address a request came from: the TCP peer, or the entry of `X-Forwarded-For` that the
/// configured number of trusted proxies designates (see the module documentation). Requests
/// with neither (in-process tests) share `0.0.0.0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientAddress(pub IpAddr);

impl FromRequestParts<AppState> for ClientAddress {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(addr)| addr.ip())
            .unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED));
        Ok(ClientAddress(
            forwarded_client(&parts.headers, state.trusted_proxies).unwrap_or(peer),
        ))
    }
}

/// The client's address according to `X-Forwarded-For` written by `trusted_proxies` proxies of
/// ours, or `None` when the header must not or cannot be used.
pub fn forwarded_client(headers: &HeaderMap, trusted_proxies: u8) -> Option<IpAddr> {
    if trusted_proxies == 0 {
        return None;
    }
    // Several headers are one list, in order (RFC 9110 § 5.3).
    let entries: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(str::trim)
        .filter(|entry| !entry.is_empty())
        .collect();
    // N ≥ 1 here, so a non-empty list gives an index within it.
    let from_right = usize::from(trusted_proxies).min(entries.len());
    let chosen = entries.get(entries.len().checked_sub(from_right)?)?;
    parse_entry(chosen)
}

/// An address as proxies write it: `203.0.113.7`, `2001:db8::1`, or with a port
/// (`203.0.113.7:4711`, `[2001:db8::1]:4711`).
fn parse_entry(entry: &str) -> Option<IpAddr> {
    entry
        .parse::<IpAddr>()
        .ok()
        .or_else(|| entry.parse::<SocketAddr>().ok().map(|s| s.ip()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(values: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for value in values {
            headers.append("x-forwarded-for", value.parse().unwrap());
        }
        headers
    }

    fn ip(text: &str) -> Option<IpAddr> {
        Some(text.parse().unwrap())
    }

    #[test]
    fn without_trusted_proxies_the_header_is_ignored() {
        assert_eq!(forwarded_client(&headers(&["203.0.113.7"]), 0), None);
    }

    #[test]
    fn the_entry_our_proxy_appended_wins_over_whatever_the_client_wrote() {
        let forged = headers(&["1.1.1.1, 2.2.2.2, 203.0.113.7"]);
        assert_eq!(forwarded_client(&forged, 1), ip("203.0.113.7"));
        let two = headers(&["6.6.6.6, 203.0.113.7, 10.0.0.2"]);
        assert_eq!(forwarded_client(&two, 2), ip("203.0.113.7"));
    }

    #[test]
    fn several_headers_are_one_list() {
        let split = headers(&["6.6.6.6", "203.0.113.7"]);
        assert_eq!(forwarded_client(&split, 1), ip("203.0.113.7"));
        assert_eq!(forwarded_client(&split, 2), ip("6.6.6.6"));
    }

    #[test]
    fn a_shorter_list_gives_its_leftmost_entry() {
        assert_eq!(
            forwarded_client(&headers(&["203.0.113.7"]), 3),
            ip("203.0.113.7")
        );
    }

    #[test]
    fn ports_and_brackets_are_understood_and_garbage_falls_back_to_the_peer() {
        assert_eq!(
            forwarded_client(&headers(&["[2001:db8::1]:4711"]), 1),
            ip("2001:db8::1")
        );
        assert_eq!(
            forwarded_client(&headers(&["203.0.113.7:80"]), 1),
            ip("203.0.113.7")
        );
        assert_eq!(forwarded_client(&headers(&["unknown"]), 1), None);
        assert_eq!(forwarded_client(&HeaderMap::new(), 1), None);
    }
}
