//! Test support for Balcão's end-to-end tests: [`TestApp`] starts every role in-process against a
//! fresh database, a fresh JetStream stream and its own SMTP sink ([`smtp_sink::SmtpSink`]), on a
//! free port; [`browser::Browser`] plays the dashboard (it keeps the refresh cookie itself).

pub mod api_pix_bank;
pub mod browser;
pub mod log_capture;
pub mod payment_fill;
pub mod process;
pub mod smtp_sink;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

use gateway::config::{
    AuthSettings, BillingSettings, LogFormat, MailSettings, PaymentSettings, ServerSettings,
    Settings, StorageSettings,
};
use gateway::roles::{self, Roles, Running};
use smtp_sink::SmtpSink;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{ConnectOptions, PgPool};
use uuid::Uuid;

/// The PostgreSQL server tests use: `DATABASE_URL`'s server, or the local default.
fn server_url() -> String {
    std::env::var("DATABASE_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_owned())
}

fn nats_url() -> String {
    std::env::var("NATS_URL").unwrap_or_else(|_| "nats://127.0.0.1:4222".to_owned())
}

/// The roles of a gateway whose projector runs apart (or not at all): serve and relay.
pub fn serve_and_relay() -> Roles {
    Roles {
        serve: true,
        relay: true,
        project: false,
        projections: Vec::new(),
    }
}

/// The projector alone, to start beside a [`serve_and_relay`] app with [`TestApp::start_roles`]
/// (and stop, to hold the read models back).
pub fn project() -> Roles {
    Roles {
        project: true,
        ..Roles::default()
    }
}

/// A loopback NATS URL where nothing listens (a port the system just handed out and took back):
/// for a role that must run with NATS unreachable.
///
/// # Panics
///
/// When no loopback port can be bound.
pub fn dead_nats_url() -> String {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .expect("a free port")
        .local_addr()
        .expect("its address")
        .port();
    format!("nats://127.0.0.1:{port}")
}

/// Connections each test app's web server may open ([`Settings::db_pool_size`]). A test app is a
/// whole service: with the relay's and projector's pools and locks it holds at most 29, two
/// running tests 58, beside a `make run` (at most 43 by default). Measured with `make run`'s
/// service up beside the e2e binary (and other sessions' tests): 93 at the peak, every test passing.
pub const TEST_POOL_SIZE: u32 = 6;

/// The build id of the fixture dashboard every [`TestApp`] serves.
pub const FIXTURE_BUILD_ID: &str = "build-de-teste";

/// Writes a tiny built dashboard into `dir`, shaped like Vite's output (`index.html` loading a
/// hashed script and stylesheet from `/painel/assets/`, `builds/latest.json`), so the tests do
/// not depend on `npm run build`.
///
/// # Panics
///
/// When the folder cannot be written.
pub fn write_fixture_webapp(dir: &Path) {
    std::fs::create_dir_all(dir.join("assets")).expect("fixture folder");
    std::fs::create_dir_all(dir.join("builds")).expect("fixture folder");
    std::fs::write(
        dir.join("index.html"),
        "<!doctype html>\n<html lang=\"pt-BR\">\n<head><meta charset=\"utf-8\"><title>Painel · Balcão</title>\n\
         <script type=\"module\" crossorigin src=\"/painel/assets/index-abc123.js\"></script>\n\
         <link rel=\"stylesheet\" crossorigin href=\"/painel/assets/index-def456.css\"></head>\n\
         <body><div id=\"root\"></div></body>\n</html>\n",
    )
    .expect("fixture index");
    std::fs::write(
        dir.join("assets/index-abc123.js"),
        "document.getElementById('root').textContent = 'Painel';\n",
    )
    .expect("fixture script");
    std::fs::write(dir.join("assets/index-def456.css"), "body { margin: 0; }\n")
        .expect("fixture stylesheet");
    std::fs::write(
        dir.join("builds/latest.json"),
        format!("{{\"buildId\":\"{FIXTURE_BUILD_ID}\"}}\n"),
    )
    .expect("fixture manifest");
}

/// A running Balcão with its own database, stream and SMTP sink, removed again by
/// [`TestApp::stop`], or by `Drop` when a test panics first.
pub struct TestApp {
    /// `http://127.0.0.1:PORT`.
    pub base_url: String,
    /// The operations listener (`/metrics`, `/healthz`, `/readyz`): `http://127.0.0.1:PORT`.
    pub ops_url: String,
    /// The settings it runs with.
    pub settings: Settings,
    /// The SMTP server the app sends its e-mail to.
    pub mail: SmtpSink,
    running: Option<Running>,
    database: String,
    webapp: PathBuf,
    /// Set by [`TestApp::stop`], so `Drop` has nothing left to do.
    removed: bool,
}

impl TestApp {
    /// Starts every role (migrate, serve, relay, project).
    ///
    /// # Panics
    ///
    /// When PostgreSQL or NATS are not reachable: run `scripts/services.sh` first (`make test`
    /// does).
    pub async fn spawn() -> TestApp {
        Self::spawn_with(|_| {}).await
    }

    /// Starts every role after `adjust` changed the settings.
    ///
    /// Besides the fresh database and stream, the app sends e-mail to its own [`SmtpSink`]
    /// (`app.mail`), serves a fixture dashboard ([`write_fixture_webapp`]) and allows 1 000
    /// sign-in, recovery, sign-up and invitation attempts per minute (the rate-limit tests lower
    /// that).
    ///
    /// # Panics
    ///
    /// As [`TestApp::spawn`].
    pub async fn spawn_with(adjust: impl FnOnce(&mut Settings)) -> TestApp {
        Self::spawn_roles(Roles::all(), adjust).await
    }

    /// Starts only `roles` (which must include `serve`) after `adjust` changed the settings, as
    /// [`TestApp::spawn_with`] does; [`TestApp::start_roles`] starts the others later, as a
    /// separate "process".
    ///
    /// # Panics
    ///
    /// As [`TestApp::spawn`].
    pub async fn spawn_roles(roles: Roles, adjust: impl FnOnce(&mut Settings)) -> TestApp {
        // Before any of the app's log call sites runs in this process (see `log_capture`).
        log_capture::install();
        let id = Uuid::new_v4().simple().to_string();
        let mail = SmtpSink::start().await;
        let webapp = std::env::temp_dir().join(format!("balcao-webapp-{id}"));
        write_fixture_webapp(&webapp);
        let database = format!("balcao_test_{id}");
        let mut url =
            PgConnectOptions::from_str(&server_url()).expect("DATABASE_URL is a PostgreSQL URL");
        url = url.database(&database);
        let mut settings = Settings {
            database_url: url.to_url_lossy().to_string(),
            nats_url: nats_url(),
            listen: SocketAddr::from(([127, 0, 0, 1], 0)),
            site_url: "http://balcao.test".to_owned(),
            contact_email: "contato@balcao.test".to_owned(),
            controller_name: "Balcão".to_owned(),
            controller_cnpj: None,
            dpo_contact: None,
            log_format: LogFormat::Pretty,
            create_per_minute: 1_000,
            api_key_per_minute: 600,
            webhooks_allow_private: true,
            webhooks_send: true,
            webhook_first_retry_ms: 200,
            trust_forwarded_for: false,
            trusted_proxies: 0,
            read_your_writes_ms: 5_000,
            read_your_writes_waiters: 1_000,
            // As patient as the wait itself: a busy test machine must not pass for a stall.
            read_your_writes_stall_ms: 5_000,
            payer_page_cache_bytes: gateway::payer_cache::DEFAULT_BUDGET_BYTES,
            analytics_id: None,
            nats_stream: format!("TEST_{id}"),
            nats_subject_prefix: format!("test.{id}"),
            nats_replicas: 1,
            nats_duplicate_window_secs: 900,
            // Each test runs a whole service (web server, relay, projector) beside the others
            // and, on a developer's machine, beside `make run`: small pools keep the suite inside
            // PostgreSQL's default 100 connections ([`TEST_POOL_SIZE`]).
            db_pool_size: TEST_POOL_SIZE,
            statement_timeout_ms: 10_000,
            idle_in_transaction_timeout_ms: 15_000,
            webapp_dir: webapp.clone(),
            server: ServerSettings {
                ops_listen: Some(SocketAddr::from(([127, 0, 0, 1], 0))),
                ..ServerSettings::default()
            },
            mail: MailSettings {
                mail_url: mail.url(),
                ..MailSettings::default()
            },
            storage: StorageSettings {
                storage_url: format!(
                    "file://{}",
                    std::env::temp_dir()
                        .join(format!("balcao-objects-{id}"))
                        .display()
                ),
            },
            auth: AuthSettings {
                auth_per_minute_per_address: 1_000,
                auth_per_minute_per_email: 1_000,
                sign_up_per_minute_per_address: 1_000,
                invitations_per_minute_per_account: 1_000,
                ..AuthSettings::default()
            },
            payments: PaymentSettings::default(),
            billing: BillingSettings::default(),
            clock: gateway::clock::Clock::default(),
        };
        adjust(&mut settings);
        roles::migrate(&settings)
            .await
            .expect("migrations run on a fresh database");
        let running = roles::start(&settings, roles)
            .await
            .expect("every role starts");
        let address = running.local_addr.expect("the gateway listens");
        TestApp {
            base_url: format!("http://{address}"),
            ops_url: format!("http://{}", running.ops_addr),
            settings,
            mail,
            running: Some(running),
            database,
            webapp,
            removed: false,
        }
    }

    /// Starts `roles` beside the app's own, on the same database and stream (say, the
    /// projectors a test first ran without). Stop them with [`Running::stop`] before
    /// [`TestApp::stop`].
    ///
    /// # Panics
    ///
    /// When a role cannot start.
    pub async fn start_roles(&self, roles: Roles) -> Running {
        roles::start(&self.settings, roles)
            .await
            .expect("the roles start")
    }

    /// A connection pool to the app's database, for a test to look at (or tamper with) rows.
    ///
    /// # Panics
    ///
    /// When PostgreSQL cannot be reached.
    pub async fn db(&self) -> PgPool {
        PgPoolOptions::new()
            .max_connections(2)
            .connect(&self.settings.database_url)
            .await
            .expect("the test database answers")
    }

    /// An HTTP client that does not follow redirects, so tests see them.
    pub fn client(&self) -> reqwest::Client {
        reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("client builds")
    }

    /// `GET path` without following redirects.
    ///
    /// # Panics
    ///
    /// When the server does not answer.
    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client()
            .get(self.url(path))
            .send()
            .await
            .expect("the server answers")
    }

    /// The body of `GET path`, whatever its status.
    ///
    /// # Panics
    ///
    /// When the server does not answer or the body is not text.
    pub async fn get_text(&self, path: &str) -> String {
        self.get(path).await.text().await.expect("a text body")
    }

    /// The absolute URL of `path`.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base_url)
    }

    /// The name of the app's own database.
    pub fn database_name(&self) -> &str {
        &self.database
    }

    /// `GET path` on the operations listener.
    ///
    /// # Panics
    ///
    /// When the listener does not answer.
    pub async fn ops_get(&self, path: &str) -> reqwest::Response {
        self.client()
            .get(format!("{}{path}", self.ops_url))
            .send()
            .await
            .expect("the operations listener answers")
    }

    /// The body of `GET /metrics` on the operations listener.
    ///
    /// # Panics
    ///
    /// When the listener does not answer or the body is not text.
    pub async fn metrics(&self) -> String {
        self.ops_get("/metrics")
            .await
            .text()
            .await
            .expect("a text body")
    }

    /// Stops every role, deletes the stream and drops the database.
    ///
    /// A test that panics before it gets here is cleaned up all the same, by `Drop`.
    ///
    /// Stops the app, or, with `BALCAO_BENCH_KEEP_DB=1`, leaves it and its database behind (the
    /// database's URL printed on stdout) for measuring or `EXPLAIN` by hand: a benchmark's end.
    ///
    /// # Panics
    ///
    /// When a role failed while the bench ran, or stdout is closed.
    pub async fn stop_or_keep(self) {
        use std::io::Write;
        if std::env::var("BALCAO_BENCH_KEEP_DB").as_deref() != Ok("1") {
            return self.stop().await;
        }
        std::io::stdout()
            .lock()
            .write_all(format!("\nkept: {}\n", self.settings.database_url).as_bytes())
            .expect("stdout");
        // No clean-up: the database stays until someone drops it.
        std::mem::forget(self);
    }

    /// # Panics
    ///
    /// When a role failed while the test ran.
    pub async fn stop(mut self) {
        if let Some(running) = self.running.take() {
            running.stop().await.expect("every role stops cleanly");
        }
        self.resources().remove().await;
        self.removed = true;
    }

    fn resources(&self) -> Resources {
        Resources {
            database: self.database.clone(),
            nats_url: self.settings.nats_url.clone(),
            stream: self.settings.nats_stream.clone(),
            webapp: self.webapp.clone(),
        }
    }
}

/// A test that panicked (or never called [`TestApp::stop`]) still leaves nothing behind: its
/// roles are aborted and the database, stream and fixture folder removed.
impl Drop for TestApp {
    fn drop(&mut self) {
        if self.removed {
            return;
        }
        // Aborts every role's task, so none holds the database while it is dropped.
        drop(self.running.take());
        let resources = self.resources();
        // The test's own runtime may be unwinding around us and cannot be blocked on: the
        // clean-up gets a thread and a runtime of its own.
        let cleaned = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a clean-up runtime");
            runtime.block_on(resources.remove());
        })
        .join();
        if cleaned.is_err() {
            eprintln!("could not remove the test database {}", self.database);
        }
    }
}

/// What a [`TestApp`] made outside its own memory.
struct Resources {
    database: String,
    nats_url: String,
    stream: String,
    webapp: PathBuf,
}

impl Resources {
    /// Removes the fixture folder, the stream and the database; each as far as it exists.
    async fn remove(self) {
        let _ = std::fs::remove_dir_all(&self.webapp);
        if let Ok(client) = async_nats::connect(&self.nats_url).await {
            let _ = async_nats::jetstream::new(client)
                .delete_stream(&self.stream)
                .await;
        }
        let admin = PgConnectOptions::from_str(&server_url())
            .expect("URL")
            .database("postgres");
        if let Ok(mut conn) = admin.connect().await {
            let _ = sqlx::query(sqlx::AssertSqlSafe(format!(
                "drop database if exists \"{}\" with (force)",
                self.database
            )))
            .execute(&mut conn)
            .await;
        }
    }
}

/// Asks `attempt` again every 50 ms until it gives a value, for at most 10 seconds: for what an
/// asynchronous part (a projector, the mail sender) does a moment after the request answered.
///
/// # Panics
///
/// When `attempt` gave nothing for 10 seconds; the message names `what` was awaited.
pub async fn eventually<T>(what: &str, attempt: impl AsyncFnMut() -> Option<T>) -> T {
    eventually_within(Duration::from_secs(10), what, attempt).await
}

/// [`eventually`] with another bound, for what takes longer on a busy machine (a projector that
/// starts and catches up, a scrape that must see a gauge move).
///
/// # Panics
///
/// When `attempt` gave nothing within `bound`; the message names `what` was awaited.
pub async fn eventually_within<T>(
    bound: Duration,
    what: &str,
    mut attempt: impl AsyncFnMut() -> Option<T>,
) -> T {
    let deadline = tokio::time::Instant::now() + bound;
    loop {
        if let Some(value) = attempt().await {
            return value;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "still waiting after {bound:?} for {what}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Makes every `operation` (`insert`, `update` or `delete`) on `table` whose row matches
/// `condition` (SQL over `new` or `old`) fail in the database `db`, as a dropped connection, a
/// pool timeout or a full disk would at that very statement: to prove that a write failing half
/// way leaves nothing half-done. [`allow_writes`] lifts it.
///
/// # Panics
///
/// When PostgreSQL refuses the trigger.
pub async fn refuse_writes(db: &PgPool, table: &str, operation: &str, condition: &str) {
    let sql = format!(
        "create or replace function balcao_test_refuse() returns trigger language plpgsql as
             $$ begin raise exception 'escrita recusada pelo teste'; end $$;
         create trigger balcao_test_refuse before {operation} on {table}
             for each row when ({condition}) execute function balcao_test_refuse();"
    );
    sqlx::raw_sql(sqlx::AssertSqlSafe(sql))
        .execute(db)
        .await
        .expect("the refusing trigger is created");
}

/// Lifts [`refuse_writes`] from `table`.
///
/// # Panics
///
/// When PostgreSQL fails.
pub async fn allow_writes(db: &PgPool, table: &str) {
    sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
        "drop trigger balcao_test_refuse on {table}"
    )))
    .execute(db)
    .await
    .expect("the refusing trigger is dropped");
}

/// Every `href="/..."` in an HTML page: the page's internal links, without fragments.
pub fn internal_links(html: &str) -> Vec<String> {
    let mut links = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find("href=\"/") {
        rest = &rest[start + 6..];
        let Some(end) = rest.find('"') else { break };
        let link = rest[..end].split('#').next().unwrap_or_default();
        if !link.starts_with("//") && !link.is_empty() {
            links.push(link.replace("&amp;", "&"));
        }
        rest = &rest[end..];
    }
    links
}

/// The text of the first `<tag …>…</tag>` in `html`, if any (enough for titles and headings).
pub fn first_element_text(html: &str, tag: &str) -> Option<String> {
    let open = html.find(&format!("<{tag}"))?;
    let after_open = open + html[open..].find('>')? + 1;
    let close = after_open + html[after_open..].find(&format!("</{tag}>"))?;
    Some(html[after_open..close].trim().to_owned())
}

/// The `content` of `<meta name="NAME" content="…">`, if present.
pub fn meta_content(html: &str, name: &str) -> Option<String> {
    let marker = format!("<meta name=\"{name}\" content=\"");
    let start = html.find(&marker)? + marker.len();
    let end = start + html[start..].find('"')?;
    Some(html[start..end].to_owned())
}

/// The value of the sample `name{labels}` in a Prometheus text exposition, if present. `labels`
/// is the exact label text between the braces (`projection="qrcodes"`), empty for none.
pub fn metric_value(exposition: &str, name: &str, labels: &str) -> Option<f64> {
    let series = if labels.is_empty() {
        name.to_owned()
    } else {
        format!("{name}{{{labels}}}")
    };
    exposition.lines().find_map(|line| {
        let value = line.strip_prefix(&series)?.strip_prefix(' ')?;
        value.trim().parse().ok()
    })
}
