//! `/painel` and `/painel/*` for a browser without a session: straight to `/entrar`.
//!
//! The dashboard's screens only ever show an account's data to a signed-in visitor, and the app
//! already sends anyone else to `/entrar` — but only after downloading itself and asking the API
//! for a session it does not have. The server can tell sooner: every session sets the
//! `balcao_painel` hint cookie beside the refresh cookie (which itself is sent to `/api/auth`
//! only), so a request without the hint is answered with a redirect to `/entrar`, carrying the
//! address in `?continuar=` as the app does. A signed-out visitor gets the sign-in page at once,
//! and a crawler never receives the dashboard's shell, so the shell needs no `noindex`.
//!
//! The hint proves nothing: with the hint, the shell is served and the app checks the session as
//! before (a stale hint still ends at `/entrar`, from the app); without it, a session whose hint
//! went missing costs one hop, because `/entrar` forwards a signed-in visitor to `?continuar=`.

use axum::extract::{OriginalUri, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};

use crate::auth::cookie::SIGNED_IN_HINT_COOKIE;
use crate::state::AppState;

/// Where the app sends a signed-out visitor (`paths.auth.logIn` in the webapp).
const LOG_IN: &str = "/entrar";
/// The query parameter `/entrar` returns to after signing in (`paths.continueParam`).
const CONTINUE_PARAM: &str = "continuar";
/// The dashboard's home: a visitor who asked for it is not told to "continue" there, as in the app.
const HOME: &str = "/painel";
/// Shown after an account is deleted, when the session is already over: never sent to sign in.
const ACCOUNT_DELETED: &str = "/painel/conta-excluida";

/// The dashboard's screens under `/painel/` (the `path:` of each child route in
/// `webapp/src/app/router.tsx`; a test checks the two agree). A segment written `:name` is a
/// parameter, as in the router: it stands for any one non-empty segment (`qrcodes/:id/balcao`).
/// Any other `/painel/…` address is the app's "page not found", answered with a `404` status so
/// that a link checker, a crawler or a browser's history sees it as one.
pub(crate) const PANEL_SCREENS: &[&str] = &[
    "boas-vindas",
    "chaves",
    "qrcodes",
    "criar-qrcode",
    "transacoes",
    "plano",
    "premium",
    "assinatura",
    "assinatura-realizada",
    "contas-extras",
    "criar-conta-extra",
    "convite",
    "configuracoes",
    "duvidas",
    "links-de-pagamento",
    // Issue 36: the developer API's keys.
    "chaves-de-api",
    "webhooks",
    "salvar-placa",
    "placas",
    // Issue 32: "Modo balcão", the counter's live view of one code.
    "qrcodes/:id/balcao",
    // Issue 33: a key's bank connection.
    "chaves/:keyId/banco",
];

/// Whether the app has a screen at `path` (`/painel`, one of [`PANEL_SCREENS`], or the page shown
/// after an account is deleted); a trailing `/` is the same address.
fn is_panel_screen(path: &str) -> bool {
    let path = path.trim_end_matches('/');
    if path == HOME || path == ACCOUNT_DELETED {
        return true;
    }
    path.strip_prefix("/painel/").is_some_and(|screen| {
        PANEL_SCREENS
            .iter()
            .any(|pattern| matches_screen(pattern, screen))
    })
}

/// Whether `screen` (the address after `/painel/`) is the router's `pattern`: the same segments,
/// where a `:name` segment takes any one non-empty segment.
fn matches_screen(pattern: &str, screen: &str) -> bool {
    let mut asked = screen.split('/');
    let mut wanted = pattern.split('/');
    loop {
        match (wanted.next(), asked.next()) {
            (None, None) => return true,
            (Some(want), Some(got)) => {
                let fits = if want.starts_with(':') {
                    !got.is_empty()
                } else {
                    want == got
                };
                if !fits {
                    return false;
                }
            }
            _ => return false,
        }
    }
}

/// `/painel` and `/painel/*` (what is not routed elsewhere): the app's `index.html` for a browser
/// holding the signed-in hint (with a `404` status at an address that is no screen of the app, which
/// then shows its "page not found"), a `303` to `/entrar` for any other.
pub(crate) async fn panel(
    state: State<AppState>,
    OriginalUri(uri): OriginalUri,
    request_headers: HeaderMap,
) -> Response {
    if !has_signed_in_hint(&request_headers) && uri.path() != ACCOUNT_DELETED {
        return (
            StatusCode::SEE_OTHER,
            [
                (
                    header::LOCATION,
                    HeaderValue::from_str(&log_in_address(&uri)).expect("percent-encoded text"),
                ),
                // Decided by a cookie: no cache may keep it for someone else.
                (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
                (header::VARY, HeaderValue::from_static("cookie")),
            ],
        )
            .into_response();
    }
    let known = is_panel_screen(uri.path());
    // An unknown address always gets the whole page: a 304 would hide its 404.
    let validators = if known {
        request_headers
    } else {
        HeaderMap::new()
    };
    let mut response = super::index(state, validators).await;
    if !known && response.status() == StatusCode::OK {
        *response.status_mut() = StatusCode::NOT_FOUND;
    }
    response
        .headers_mut()
        .insert(header::VARY, HeaderValue::from_static("cookie"));
    response
}

/// Whether the request carries a non-empty `balcao_painel` cookie.
fn has_signed_in_hint(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .any(|(name, value)| name == SIGNED_IN_HINT_COOKIE && !value.trim().is_empty())
}

/// `/entrar`, with `?continuar=` set to the address asked for unless it was the dashboard's home.
fn log_in_address(uri: &Uri) -> String {
    let asked = uri
        .path_and_query()
        .map_or(uri.path(), |address| address.as_str());
    let path = uri.path().trim_end_matches('/');
    if path == HOME && uri.query().is_none() {
        return LOG_IN.to_owned();
    }
    let query = url::form_urlencoded::Serializer::new(String::new())
        .append_pair(CONTINUE_PARAM, asked)
        .finish();
    format!("{LOG_IN}?{query}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(cookies: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for cookie in cookies {
            headers.append(header::COOKIE, cookie.parse().expect("header text"));
        }
        headers
    }

    #[test]
    fn the_hint_is_found_among_other_cookies_and_an_empty_one_is_no_hint() {
        assert!(!has_signed_in_hint(&headers(&[])));
        assert!(has_signed_in_hint(&headers(&["balcao_painel=1"])));
        assert!(has_signed_in_hint(&headers(&[
            "tema=escuro",
            "a=1; balcao_painel=1; b=2"
        ])));
        assert!(!has_signed_in_hint(&headers(&["balcao_painel="])));
        assert!(!has_signed_in_hint(&headers(&["xbalcao_painel=1"])));
        assert!(!has_signed_in_hint(&headers(&["balcao_refresh=abc"])));
    }

    /// The `path: '…'` literals of the dashboard's router: its screens under `/painel/` (the
    /// others are named through `paths`, and `'*'` is its "page not found").
    fn routed_screens() -> Vec<String> {
        let router = include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../webapp/src/app/router.tsx"
        ));
        router
            .split("path: '")
            .skip(1)
            .filter_map(|rest| rest.split_once('\''))
            .map(|(path, _)| path.to_owned())
            .filter(|path| path != "*")
            .collect()
    }

    #[test]
    fn the_gateway_knows_exactly_the_screens_the_dashboards_router_has() {
        let mut routed = routed_screens();
        routed.sort();
        let mut known: Vec<String> = PANEL_SCREENS.iter().map(|s| (*s).to_owned()).collect();
        known.sort();
        assert_eq!(
            known, routed,
            "PANEL_SCREENS must list the child paths of /painel in webapp/src/app/router.tsx"
        );
    }

    #[test]
    fn only_the_dashboards_screens_are_screens() {
        for path in [
            "/painel",
            "/painel/",
            "/painel/qrcodes",
            "/painel/qrcodes/",
            "/painel/conta-excluida",
            "/painel/qrcodes/0196a1b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b/balcao",
            "/painel/qrcodes/0196a1b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b/balcao/",
        ] {
            assert!(is_panel_screen(path), "{path}");
        }
        for path in [
            "/painel/uma-tela-que-nao-existe",
            "/painel/qrcodes/outra",
            "/painel/qrcodes//balcao",
            "/painel/qrcodes/um-id/balcao/mais",
            "/painel/qrcodes/um-id/caixa",
            "/painel/:id",
            "/painel/assets",
            "/painelx",
        ] {
            assert!(!is_panel_screen(path), "{path}");
        }
    }

    #[test]
    fn the_sign_in_page_brings_the_visitor_back_except_to_the_home() {
        let address = |uri: &str| log_in_address(&uri.parse().expect("a URI"));
        assert_eq!(address("/painel"), "/entrar");
        assert_eq!(address("/painel/"), "/entrar");
        assert_eq!(
            address("/painel/qrcodes"),
            "/entrar?continuar=%2Fpainel%2Fqrcodes"
        );
        assert_eq!(
            address("/painel/convite?codigo=xyz"),
            "/entrar?continuar=%2Fpainel%2Fconvite%3Fcodigo%3Dxyz"
        );
        assert_eq!(
            address("/painel?aba=1"),
            "/entrar?continuar=%2Fpainel%3Faba%3D1"
        );
    }
}
