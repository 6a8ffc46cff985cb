//! [`Browser`]: an HTTP client that behaves like the dashboard in a browser, for the auth tests.
//!
//! The refresh cookie is `Secure`, and reqwest's cookie store (rightly) does not send `Secure`
//! cookies over plain HTTP, which is what tests speak. So the browser keeps `balcao_refresh`
//! itself: it stores it from `Set-Cookie` (and drops it on `Max-Age=0`) and sends it only on
//! `/api/auth/*` requests, as its `Path=/api/auth` says. It also keeps the access token from
//! sign-in, sign-up and refresh answers and sends it as `Authorization: Bearer` on `/api/*`.

use reqwest::header::{self, HeaderMap};
use reqwest::{Method, StatusCode};
use serde_json::Value;

use crate::TestApp;

/// The cookie's name.
pub const REFRESH_COOKIE: &str = "balcao_refresh";

/// One answer, read whole.
#[derive(Debug, Clone)]
pub struct Answer {
    /// The status.
    pub status: StatusCode,
    /// The headers.
    pub headers: HeaderMap,
    /// The body as text.
    pub text: String,
    /// The body as JSON (`Null` when it is empty or not JSON).
    pub json: Value,
}

impl Answer {
    /// `error.code` of an API error.
    pub fn code(&self) -> &str {
        self.json["error"]["code"].as_str().unwrap_or_default()
    }

    /// `error.message` of an API error.
    pub fn message(&self) -> &str {
        self.json["error"]["message"].as_str().unwrap_or_default()
    }

    /// `error.field` of an API error.
    pub fn field(&self) -> Option<&str> {
        self.json["error"]["field"].as_str()
    }

    /// A header as text.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// Every `Set-Cookie` for the refresh cookie.
    pub fn refresh_set_cookie(&self) -> Option<&str> {
        self.headers
            .get_all(header::SET_COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find(|v| v.starts_with(&format!("{REFRESH_COOKIE}=")))
    }
}

/// A dashboard in a browser: one device, one cookie jar.
pub struct Browser {
    client: reqwest::Client,
    base_url: String,
    refresh: Option<String>,
    /// The access token in memory, sent on `/api/*` calls while set.
    pub access_token: Option<String>,
    user_agent: String,
    extra_headers: Vec<(String, String)>,
}

impl Browser {
    /// A browser for `app`, with its own (empty) cookie jar.
    pub fn new(app: &TestApp) -> Browser {
        Browser::with_user_agent(app, "Mozilla/5.0 (X11; Linux x86_64) Teste/1.0")
    }

    /// A browser sending `user_agent`.
    ///
    /// # Panics
    ///
    /// Never in practice (the client builder has no failing option set).
    pub fn with_user_agent(app: &TestApp, user_agent: &str) -> Browser {
        Browser {
            client: reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .expect("client builds"),
            base_url: app.base_url.clone(),
            refresh: None,
            access_token: None,
            user_agent: user_agent.to_owned(),
            extra_headers: Vec::new(),
        }
    }

    /// Sends `name: value` on every later request (e.g. `X-Forwarded-For`).
    pub fn set_header(&mut self, name: &str, value: &str) {
        self.extra_headers
            .retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        self.extra_headers.push((name.to_owned(), value.to_owned()));
    }

    /// Stops sending `name` (set by [`Browser::set_header`]).
    pub fn remove_header(&mut self, name: &str) {
        self.extra_headers
            .retain(|(n, _)| !n.eq_ignore_ascii_case(name));
    }

    /// The refresh token the jar holds.
    pub fn refresh_cookie(&self) -> Option<&str> {
        self.refresh.as_deref()
    }

    /// Replaces the jar's refresh token (to replay an old one).
    pub fn set_refresh_cookie(&mut self, token: Option<String>) {
        self.refresh = token;
    }

    /// Sends `method path` with an optional body and content type.
    ///
    /// # Panics
    ///
    /// When the server does not answer.
    pub async fn request(
        &mut self,
        method: Method,
        path: &str,
        content_type: Option<&str>,
        body: Option<Vec<u8>>,
    ) -> Answer {
        let mut request = self
            .client
            .request(method, format!("{}{path}", self.base_url))
            .header(header::USER_AGENT, &self.user_agent);
        if path.starts_with("/api/")
            && let Some(token) = &self.access_token
        {
            request = request.bearer_auth(token);
        }
        if path.starts_with("/api/auth")
            && let Some(refresh) = &self.refresh
        {
            request = request.header(header::COOKIE, format!("{REFRESH_COOKIE}={refresh}"));
        }
        for (name, value) in &self.extra_headers {
            request = request.header(name.as_str(), value.as_str());
        }
        if let Some(content_type) = content_type {
            request = request.header(header::CONTENT_TYPE, content_type);
        }
        if let Some(body) = body {
            request = request.body(body);
        }
        let response = request.send().await.expect("the server answers");
        let status = response.status();
        let headers = response.headers().clone();
        let text = response.text().await.unwrap_or_default();
        let json = serde_json::from_str(&text).unwrap_or(Value::Null);
        let answer = Answer {
            status,
            headers,
            text,
            json,
        };
        self.remember(&answer);
        answer
    }

    fn remember(&mut self, answer: &Answer) {
        if let Some(set_cookie) = answer.refresh_set_cookie() {
            let mut attributes = set_cookie.split(';').map(str::trim);
            let value = attributes
                .next()
                .and_then(|pair| pair.split_once('='))
                .map(|(_, v)| v.to_owned())
                .unwrap_or_default();
            let expired = attributes
                .filter_map(|a| a.split_once('='))
                .any(|(k, v)| k.eq_ignore_ascii_case("max-age") && v.trim() == "0");
            self.refresh = (!value.is_empty() && !expired).then_some(value);
        }
        if answer.status.is_success()
            && let Some(token) = answer.json["accessToken"].as_str()
        {
            self.access_token = Some(token.to_owned());
        }
    }

    /// `GET path`.
    pub async fn get(&mut self, path: &str) -> Answer {
        self.request(Method::GET, path, None, None).await
    }

    /// `DELETE path`.
    pub async fn delete(&mut self, path: &str) -> Answer {
        self.request(Method::DELETE, path, None, None).await
    }

    /// `POST path` with a JSON body.
    pub async fn post_json(&mut self, path: &str, body: &Value) -> Answer {
        self.request(
            Method::POST,
            path,
            Some("application/json"),
            Some(body.to_string().into_bytes()),
        )
        .await
    }

    /// Upgrades `account` to Premium mensal and pays in the sandbox billing (the app must run with
    /// sandbox payments on), then waits until the plan reads as Premium: for load tests and
    /// benchmarks that make more QR codes than Grátis allows in a month.
    ///
    /// # Panics
    ///
    /// When the upgrade, the simulated payment or the switch to Premium does not happen.
    pub async fn go_premium(&mut self, account: &str) {
        let subscription = format!("/api/accounts/{account}/subscription");
        let upgraded = self
            .post_json(
                &format!("{subscription}/upgrade"),
                &serde_json::json!({"plan": "premium-mensal", "payerName": "Dona da Loja", "document": "529.982.247-25"}),
            )
            .await;
        assert_eq!(upgraded.status, StatusCode::CREATED, "{}", upgraded.text);
        let charge = upgraded.json["chargeId"]
            .as_str()
            .expect("chargeId")
            .to_owned();
        let paid = self
            .post_json(
                &format!("{subscription}/charges/{charge}/simulate"),
                &serde_json::json!({}),
            )
            .await;
        assert_eq!(paid.status, StatusCode::OK, "{}", paid.text);
        for _ in 0..300 {
            let now = self.get(&subscription).await;
            if now.json["plan"]["id"] == "premium-mensal" {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        panic!("the account never read as Premium");
    }

    /// `POST /api/auth/signup`.
    pub async fn sign_up(&mut self, email: &str, password: &str, display_name: &str) -> Answer {
        self.post_json(
            "/api/auth/signup",
            &serde_json::json!({"email": email, "password": password, "displayName": display_name}),
        )
        .await
    }

    /// `POST /api/auth/login`.
    pub async fn log_in(&mut self, email: &str, password: &str) -> Answer {
        self.post_json(
            "/api/auth/login",
            &serde_json::json!({"email": email, "password": password}),
        )
        .await
    }

    /// `POST /api/auth/token` with the jar's cookie, as the dashboard does.
    pub async fn refresh(&mut self) -> Answer {
        self.request(
            Method::POST,
            "/api/auth/token",
            Some("application/x-www-form-urlencoded"),
            Some(b"grant_type=refresh_token".to_vec()),
        )
        .await
    }

    /// `POST /api/auth/revoke {allDevices}`.
    pub async fn revoke(&mut self, all_devices: bool) -> Answer {
        self.post_json(
            "/api/auth/revoke",
            &serde_json::json!({ "allDevices": all_devices }),
        )
        .await
    }

    /// `GET /api/auth/me`.
    pub async fn me(&mut self) -> Answer {
        self.get("/api/auth/me").await
    }
}
