//! Every route of the public listener, in one list, grouped as the URLs are. A new endpoint gets
//! one line here and a handler in the folder of its resource (`pages/`, `api/<resource>/`,
//! `spa`); the operations listener's three routes are in [`crate::ops::router`].

use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::{any, delete, get, post, put};
use tower_http::CompressionLevel;
use tower_http::compression::CompressionLayer;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;

use crate::api::auth::{links, me, sign_in, tokens};
use crate::api::{
    account, bank_connections, billing, brcode, claims, faq, keys, payment_links, payments,
    qrcodes, team,
};
use crate::error::AppError;
use crate::pages::{
    articles, home, institutional, pay_link, payment, seo, sign_created, sign_form, sign_preview,
};
use crate::state::AppState;
use crate::{api, ops, spa};

/// Largest request body accepted (forms are small; this bounds abuse).
const MAX_BODY_BYTES: usize = 64 * 1024;
/// Longest a request may take before the server answers 408.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// Every route of the gateway, with the layers every answer goes through.
pub fn build_router(state: AppState) -> Router {
    Router::new()
        .merge(public_pages())
        .merge(dashboard())
        .nest("/api", api::layers(api_routes(&state)))
        // Else `/{slug}` would answer `/api` with the HTML 404 page.
        .route("/api", any(|| async { api::not_found() }))
        // Findability, assets and health.
        .route("/sitemap.xml", get(seo::sitemap))
        .route("/robots.txt", get(seo::robots))
        .route("/favicon.svg", get(crate::pages::static_files::favicon))
        .route(
            "/static/{name}",
            get(crate::pages::static_files::serve_static),
        )
        // For the load balancer; `/metrics` is on the operations listener only (`ops::router`),
        // which is not public.
        .route("/healthz", get(ops::healthz))
        .route("/readyz", get(ops::readyz))
        // Articles live at the root: `/{slug}`; anything else there is the 404 page.
        .route("/{slug}", get(articles::article))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            REQUEST_TIMEOUT,
        ))
        .layer(axum::middleware::from_fn(api::api_error_shape))
        .layer(axum::middleware::from_fn(api::refuse_nul_in_query))
        // Pages and API answers are compressed per request, so at a level chosen for speed;
        // static assets come already compressed (`pages::static_files::serve_static`) and are left alone.
        .layer(CompressionLayer::new().quality(CompressionLevel::Precise(4)))
        .layer(axum::middleware::from_fn(crate::telemetry::log_failures))
        // A span per request for the handlers' own logs; failures are logged once, by
        // `log_failures` (the layer's default would log every 5xx a second time).
        .layer(TraceLayer::new_for_http().on_failure(()))
        .layer(header_layer(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(header_layer(header::X_FRAME_OPTIONS, "DENY"))
        .layer(header_layer(
            header::REFERRER_POLICY,
            "strict-origin-when-cross-origin",
        ))
        .layer(header_layer(
            header::CONTENT_SECURITY_POLICY,
            CONTENT_SECURITY_POLICY,
        ))
        .with_state(state)
}

/// The public site (askama): home, articles, institutional pages, the visitor's sign and the
/// payer's page.
fn public_pages() -> Router<AppState> {
    Router::new()
        .route("/", get(home::home))
        .route("/blog", get(articles::blog))
        .route("/privacidade", get(institutional::privacy))
        .route("/termos-de-uso", get(institutional::terms))
        .route("/sobre-nos", get(institutional::about))
        .route("/api-pix", get(institutional::api_pix))
        .route("/painel/duvidas", get(institutional::faq))
        // 301, as the dashboard's contract says (axum's `Redirect::permanent` is a 308).
        .route(
            "/painel/index_old",
            get(|| async {
                (
                    StatusCode::MOVED_PERMANENTLY,
                    [(header::LOCATION, "/painel")],
                )
            }),
        )
        // The visitor's flow: make a sign, then the payer page.
        .route(
            "/criar-placa-pix",
            get(sign_form::show).post(sign_form::submit),
        )
        .route(sign_preview::PATH, get(sign_preview::show))
        .route("/pagamento/{qrcode_id}", get(payment::show))
        .route("/pagamento/{qrcode_id}/placa", get(payment::sign))
        // Live: whether the code was paid, as server-sent events (`live`).
        .route(
            "/pagamento/{qrcode_id}/eventos",
            get(crate::live_routes::payer),
        )
        // Printable signs as files: `/placas/{qrcode_id}.pdf|.png|.svg` (`signs`).
        .route("/placas/{file}", get(crate::signs::download))
        .route("/placas/lote/{file}", get(crate::signs::batch::download))
        // Payments: the bank's API Pix deliveries (the bank appends `/pix` to the registered
        // URL; some PSPs post to the URL itself) and the sandbox's "Simular pagamento".
        .route(
            "/webhooks/api-pix/{token}",
            post(payments::webhook::deliver),
        )
        .route(
            "/webhooks/api-pix/{token}/pix",
            post(payments::webhook::deliver),
        )
        .route(
            "/pagamento/{qrcode_id}/simular-pagamento",
            post(payments::sandbox::simulate),
        )
        // Issue 10: a visitor's sign just made (and its management link), payment links.
        .route("/placa-pix-criada", get(sign_created::bare))
        .route("/placa-pix-criada/{qrcode_id}", get(sign_created::show))
        .route(
            "/placa-pix-criada/{qrcode_id}/enviar-link",
            post(sign_created::send_link),
        )
        .route("/pagar", get(pay_link::show))
        .route("/pagar/eventos", get(crate::live_routes::link_payer))
        .route(
            "/pagar/simular-pagamento",
            post(payments::sandbox::simulate_link),
        )
        // Issue 12: Asaas's payment events for subscription charges; the old plan screen.
        .route("/webhooks/asaas", post(billing::webhook::deliver))
        .route(
            "/painel/plano",
            get(|| async {
                (
                    StatusCode::MOVED_PERMANENTLY,
                    [(header::LOCATION, "/painel/assinatura")],
                )
            }),
        )
        // Profile photos, loaded by `<img>` without a token.
        .route("/fotos/{accountId}", get(account::photo::serve))
}

/// The dashboard's built files (`/entrar`, `/criar-conta`, …, `/painel/*`).
fn dashboard() -> Router<AppState> {
    let mut router = Router::new()
        .route("/painel", get(spa::panel_gate::panel))
        .route("/painel/", get(spa::panel_gate::panel))
        .route("/painel/{*rest}", get(spa::panel_gate::panel))
        .route("/painel/assets/{*path}", get(spa::asset))
        .route("/builds/latest.json", get(spa::latest_build));
    for page in spa::APP_PAGES {
        router = router.route(page, get(spa::index));
    }
    router
}

/// The JSON API, relative to `/api` (its table of routes and who may call them is in
/// [`crate::api`]).
fn api_routes(state: &AppState) -> Router<AppState> {
    Router::new()
        .route("/faq", get(faq::faq))
        // Issue 36: the developer API, called with an API key (`api::v1`).
        .nest("/v1", api::v1::routes(state.clone()))
        // Identity: `/api/auth/…`.
        .route("/auth/password-policy", get(sign_in::password_policy))
        .route("/auth/signup", post(sign_in::sign_up))
        .route("/auth/login", post(sign_in::log_in))
        .route("/auth/token", post(tokens::refresh))
        .route("/auth/revoke", post(tokens::revoke))
        .route("/auth/me", get(me::me))
        .route("/auth/sessions", get(me::list_sessions))
        .route("/auth/sessions/{id}", delete(me::end_session))
        .route("/auth/recover", post(links::recover))
        .route("/auth/reset", post(links::reset))
        .route("/auth/reset/check", post(links::check_reset))
        .route("/auth/verify-email", post(links::verify_email))
        .route("/auth/send-verification", post(links::send_verification))
        // The BR Code preview.
        .route("/brcode/normalize", get(brcode::normalize))
        // The signed-in person's own account.
        .route(
            "/account/settings",
            get(account::settings::show).patch(account::settings::update),
        )
        .route(
            "/account/photo",
            // The photo's own limit replaces the API's JSON one for this route only.
            put(account::photo::upload)
                .layer(DefaultBodyLimit::max(account::photo_check::MAX_PHOTO_BYTES)),
        )
        .route(
            "/account/password",
            post(account::credentials::change_password),
        )
        .route("/account/email", post(account::credentials::change_email))
        .route("/account/delete", post(account::deletion::delete_account))
        // Teams.
        .route("/workspaces", get(team::workspaces))
        .route(
            "/accounts/{accountId}/members",
            get(team::members).post(team::invite),
        )
        .route(
            "/accounts/{accountId}/members/{invitationId}",
            delete(team::remove),
        )
        .route("/invitations/check", post(team::check))
        .route("/invitations/accept", post(team::accept))
        // An account's QR codes.
        .route(
            "/accounts/{accountId}/qrcodes",
            get(qrcodes::manage::list).post(qrcodes::create::create),
        )
        .route(
            "/accounts/{accountId}/qrcodes/conferir",
            post(qrcodes::create::check),
        )
        .route(
            "/accounts/{accountId}/qrcodes/lote",
            post(qrcodes::create::batch),
        )
        .route(
            "/accounts/{accountId}/qrcodes/cobrancas",
            post(qrcodes::charge::create),
        )
        .route(
            "/accounts/{accountId}/qrcodes/{id}",
            get(qrcodes::manage::show),
        )
        .route(
            "/accounts/{accountId}/qrcodes/{id}/arquivar",
            post(qrcodes::manage::archive),
        )
        .route(
            "/accounts/{accountId}/qrcodes/{id}/desarquivar",
            post(qrcodes::manage::unarchive),
        )
        .route(
            "/accounts/{accountId}/qrcodes/{id}/duplicar",
            post(qrcodes::create::duplicate),
        )
        // Payments: API Pix receivers per key, payments, daily totals.
        .route(
            "/accounts/{accountId}/api-pix-receivers/{keyId}",
            get(payments::receivers::show)
                .post(payments::receivers::turn_on)
                .delete(payments::receivers::turn_off),
        )
        .route(
            "/accounts/{accountId}/api-pix-receivers/{keyId}/rotate",
            post(payments::receivers::rotate),
        )
        // Issue 33: the key's bank reached through its API Pix.
        .route(
            "/accounts/{accountId}/bank-connections",
            get(bank_connections::list),
        )
        .route(
            "/accounts/{accountId}/bank-connections/{keyId}",
            get(bank_connections::show)
                .put(bank_connections::connect)
                .delete(bank_connections::disconnect),
        )
        .route(
            "/accounts/{accountId}/bank-connections/{keyId}/test",
            post(bank_connections::test),
        )
        .route(
            "/accounts/{accountId}/bank-connections/{keyId}/webhook",
            post(bank_connections::register),
        )
        .route(
            "/accounts/{accountId}/payments",
            get(payments::search::list).post(payments::records::record),
        )
        // Issue 15 item 6: the transactions screen's totals, CSV and audit trail.
        .route(
            "/accounts/{accountId}/payments/summary",
            get(payments::search::summary),
        )
        // Issue 11 item 5: the logo printed on the account's signs (Premium).
        .route(
            "/accounts/{accountId}/sign-logo",
            put(api::sign_logo::upload)
                .layer(DefaultBodyLimit::max(api::sign_logo::BODY_LIMIT))
                .get(api::sign_logo::read)
                .delete(api::sign_logo::remove),
        )
        .route(
            "/accounts/{accountId}/payments/csv",
            get(payments::export::csv),
        )
        .route(
            "/accounts/{accountId}/payments/{reference}/history",
            get(payments::history::history),
        )
        .route(
            "/accounts/{accountId}/payments/{reference}",
            get(payments::records::show),
        )
        .route(
            "/accounts/{accountId}/payments/{reference}/void",
            post(payments::records::void),
        )
        // Issue 33: refunds through the bank that holds the payment's key.
        .route(
            "/accounts/{accountId}/payments/{reference}/refunds",
            post(payments::refunds::request),
        )
        // Issue 35: bank statements, previewed, imported, undone.
        .route(
            "/accounts/{accountId}/extratos/previa",
            post(payments::statements::preview)
                .layer(DefaultBodyLimit::max(payments::statements::BODY_LIMIT)),
        )
        .route(
            "/accounts/{accountId}/extratos",
            post(payments::statements::import)
                .layer(DefaultBodyLimit::max(payments::statements::BODY_LIMIT))
                .get(payments::statements::list),
        )
        .route(
            "/accounts/{accountId}/extratos/{importId}",
            delete(payments::statements::undo),
        )
        .route(
            "/accounts/{accountId}/extratos/{importId}/andamento",
            get(payments::statement_runs::progress),
        )
        .route(
            "/accounts/{accountId}/daily-totals",
            get(payments::records::totals),
        )
        // Live: the account's payments as they change (server-sent events), and the home's
        // summary.
        .route(
            "/accounts/{accountId}/events",
            get(crate::live_routes::account),
        )
        .route(
            "/accounts/{accountId}/summary",
            get(payments::summary::summary),
        )
        // Issue 10: claiming a visitor's sign ("Salvar na minha conta"), payment links.
        .route(
            "/accounts/{accountId}/qrcodes/{id}/claim",
            post(claims::claim),
        )
        .route(
            "/accounts/{accountId}/payment-links",
            get(payment_links::list).post(payment_links::create),
        )
        .route(
            "/accounts/{accountId}/payment-links/{id}/revoke",
            post(payment_links::revoke),
        )
        // Issue 11 item 5: the signs an account keeps (`api::signs`).
        .route(
            "/accounts/{accountId}/placas",
            get(api::signs::list).post(api::signs::create),
        )
        .route(
            "/accounts/{accountId}/placas/{id}",
            get(api::signs::show)
                .patch(api::signs::update)
                .delete(api::signs::delete),
        )
        .route(
            "/accounts/{accountId}/placas/{id}/duplicar",
            post(api::signs::duplicate),
        )
        // Issue 36: the account's developer API keys (`api::api_keys`).
        .route(
            "/accounts/{accountId}/api-keys",
            get(api::api_keys::list).post(api::api_keys::create),
        )
        .route(
            "/accounts/{accountId}/api-keys/{keyId}",
            delete(api::api_keys::revoke),
        )
        // Issue 36: where the account's events are sent (`api::webhooks`).
        .route(
            "/accounts/{accountId}/webhooks",
            get(api::webhooks::list).post(api::webhooks::register),
        )
        .route(
            "/accounts/{accountId}/webhooks/{endpointId}",
            delete(api::webhooks::remove),
        )
        .route(
            "/accounts/{accountId}/webhooks/{endpointId}/entregas",
            get(api::webhooks::deliveries),
        )
        .route(
            "/accounts/{accountId}/webhooks/{endpointId}/segredo",
            post(api::webhooks::replace_secret),
        )
        .route(
            "/accounts/{accountId}/webhooks/entregas/{deliveryId}/reenviar",
            post(api::webhooks::redeliver),
        )
        // Issue 10: an account's Pix keys (`api::keys`).
        .route(
            "/accounts/{accountId}/keys",
            get(keys::handlers::list).post(keys::handlers::register),
        )
        .route(
            "/accounts/{accountId}/keys/{keyId}",
            get(keys::handlers::show)
                .patch(keys::handlers::rename)
                .delete(keys::handlers::remove),
        )
        .route(
            "/accounts/{accountId}/keys/{keyId}/default",
            post(keys::handlers::choose_default),
        )
        // Issue 12: plans and the account's subscription (`api::billing`).
        .route("/plans", get(billing::plans))
        .route("/accounts/{accountId}/subscription", get(billing::show))
        .route(
            "/accounts/{accountId}/subscription/upgrade",
            post(billing::upgrade),
        )
        .route(
            "/accounts/{accountId}/subscription/cancel",
            post(billing::cancel),
        )
        .route(
            "/accounts/{accountId}/subscription/charges/{chargeId}",
            get(billing::charge),
        )
        .route(
            "/accounts/{accountId}/subscription/charges/{chargeId}/simulate",
            post(billing::simulate),
        )
        // The checkout's live status (server-sent events, `crate::live`).
        .route(
            "/accounts/{accountId}/subscription/charges/{chargeId}/events",
            get(crate::live_routes::charge),
        )
}

/// Sets `name` on every response that does not already have it (no sniffing, no framing, a strict
/// referrer policy, the content security policy).
fn header_layer(
    name: header::HeaderName,
    value: &'static str,
) -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::if_not_present(name, HeaderValue::from_static(value))
}

/// The content security policy: only our own scripts and styles, plus the tag manager, which the
/// consent script loads only after the visitor accepts.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self' https://www.googletagmanager.com; \
     style-src 'self'; img-src 'self' data: https://www.google-analytics.com https://www.googletagmanager.com; \
     connect-src 'self' https://*.google-analytics.com https://*.analytics.google.com https://www.googletagmanager.com; \
     frame-ancestors 'none'; base-uri 'self'; form-action 'self'";

async fn not_found(uri: axum::http::Uri) -> axum::response::Response {
    if api::is_api_path(uri.path()) {
        return api::not_found();
    }
    AppError::NotFound.into_response()
}
