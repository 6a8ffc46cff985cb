//! The refresh cookie: `balcao_refresh=<token>; HttpOnly; Secure; SameSite=Strict;
//! Path=/api/auth; Max-Age=2592000` (30 days).
//!
//! `HttpOnly` keeps it from scripts, `SameSite=Strict` from cross-site requests (so the cookie
//! alone cannot be used for CSRF), and `Path=/api/auth` sends it only to the calls that need it.
//! `Secure` can be turned off with `BALCAO_COOKIE_SECURE=false` for plain-HTTP development on
//! another host than `localhost` (browsers already accept `Secure` cookies on
//! `http://localhost`).

use axum::http::{HeaderMap, HeaderName, HeaderValue, header};
use axum::response::AppendHeaders;

use crate::auth::session::REFRESH_TOKEN_TTL;

/// The cookie's name.
pub const REFRESH_COOKIE: &str = "balcao_refresh";
/// The cookie's path: only the auth calls receive it.
pub const REFRESH_COOKIE_PATH: &str = "/api/auth";

/// The signed-in hint: `balcao_painel=1`, readable by the public pages' script so their header
/// offers "Painel" instead of "Entrar / Criar conta". It carries nothing secret (the session is
/// the `HttpOnly` refresh cookie), so it is not `HttpOnly`; it lives as long as the refresh
/// cookie and goes with it.
pub const SIGNED_IN_HINT_COOKIE: &str = "balcao_painel";

/// The two `Set-Cookie` headers of a session that starts or goes on: the refresh cookie carrying
/// `token`, and the signed-in hint.
pub fn session_cookies(token: &str, secure: bool) -> AppendHeaders<[(HeaderName, HeaderValue); 2]> {
    AppendHeaders([
        (header::SET_COOKIE, set_refresh_cookie(token, secure)),
        (
            header::SET_COOKIE,
            hint_cookie("1", REFRESH_TOKEN_TTL.as_secs(), secure),
        ),
    ])
}

/// The two `Set-Cookie` headers of a session that ends: both cookies removed.
pub fn ended_session_cookies(secure: bool) -> AppendHeaders<[(HeaderName, HeaderValue); 2]> {
    AppendHeaders([
        (header::SET_COOKIE, clear_refresh_cookie(secure)),
        (header::SET_COOKIE, hint_cookie("", 0, secure)),
    ])
}

fn hint_cookie(value: &str, max_age: u64, secure: bool) -> HeaderValue {
    let secure = if secure { "; Secure" } else { "" };
    HeaderValue::from_str(&format!(
        "{SIGNED_IN_HINT_COOKIE}={value}{secure}; SameSite=Lax; Path=/; Max-Age={max_age}"
    ))
    .expect("plain ASCII")
}

/// `Set-Cookie` carrying `token`.
pub fn set_refresh_cookie(token: &str, secure: bool) -> HeaderValue {
    cookie(token, REFRESH_TOKEN_TTL.as_secs(), secure)
}

/// `Set-Cookie` that removes the cookie.
pub fn clear_refresh_cookie(secure: bool) -> HeaderValue {
    cookie("", 0, secure)
}

fn cookie(value: &str, max_age: u64, secure: bool) -> HeaderValue {
    let secure = if secure { "; Secure" } else { "" };
    let text = format!(
        "{REFRESH_COOKIE}={value}; HttpOnly{secure}; SameSite=Strict; Path={REFRESH_COOKIE_PATH}; Max-Age={max_age}"
    );
    HeaderValue::from_str(&text).expect("base64url tokens are valid header text")
}

/// The refresh token from the request's `Cookie` headers, if any.
pub fn read_refresh_cookie(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == REFRESH_COOKIE)
        .map(|(_, value)| value.trim().trim_matches('"').to_owned())
        .filter(|value| !value.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cookie_has_exactly_the_agreed_attributes() {
        assert_eq!(
            set_refresh_cookie("abc", true),
            "balcao_refresh=abc; HttpOnly; Secure; SameSite=Strict; Path=/api/auth; Max-Age=2592000"
        );
        assert_eq!(
            clear_refresh_cookie(false),
            "balcao_refresh=; HttpOnly; SameSite=Strict; Path=/api/auth; Max-Age=0"
        );
    }

    #[test]
    fn a_session_sets_and_ends_the_signed_in_hint_beside_the_refresh_cookie() {
        let AppendHeaders(set) = session_cookies("abc", true);
        assert_eq!(set[0].1, set_refresh_cookie("abc", true));
        assert_eq!(
            set[1].1,
            "balcao_painel=1; Secure; SameSite=Lax; Path=/; Max-Age=2592000"
        );
        let AppendHeaders(ended) = ended_session_cookies(false);
        assert_eq!(ended[0].1, clear_refresh_cookie(false));
        assert_eq!(
            ended[1].1,
            "balcao_painel=; SameSite=Lax; Path=/; Max-Age=0"
        );
    }

    #[test]
    fn the_token_is_found_among_other_cookies_and_headers() {
        let mut headers = HeaderMap::new();
        assert_eq!(read_refresh_cookie(&headers), None);
        headers.append(header::COOKIE, "tema=escuro".parse().unwrap());
        headers.append(
            header::COOKIE,
            "a=1; balcao_refresh=tok-en_1; b=2".parse().unwrap(),
        );
        assert_eq!(read_refresh_cookie(&headers).as_deref(), Some("tok-en_1"));
        let mut empty = HeaderMap::new();
        empty.insert(header::COOKIE, "balcao_refresh=".parse().unwrap());
        assert_eq!(read_refresh_cookie(&empty), None);
    }
}
