//! Faults on real processes: `balcao serve`, `balcao relay` and `balcao project` run apart (the
//! binary cargo built for this test), over a fresh database and a private `nats-server` on its
//! own port (the shared NATS is never touched). Under steady creations and payer-page reads, the
//! projector is frozen (SIGSTOP) for 20 s, then the private NATS is stopped for 30 s:
//!
//! - no request is answered 5xx and no command fails;
//! - afterwards the read model holds exactly the codes that were answered 201 (nothing lost,
//!   nothing duplicated), and equals what `balcao replay --all` rebuilds from the log.
//!
//! Bounded load on loopback: 10 creations and 10 payer pages per second, about 70 s in all.
//!
//! And `balcao all` over a private PostgreSQL cluster (its own `initdb` folder and port; the
//! shared server is never touched) that is restarted: the gateway is ready again within 5 s of
//! the database answering, and requests after it succeed.

use std::collections::{BTreeMap, BTreeSet};
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use sqlx::{ConnectOptions, Connection, PgConnection};
use tokio::sync::Mutex;
use uuid::Uuid;

const RATE: u32 = 10;

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

fn server_url() -> String {
    std::env::var("DATABASE_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_owned())
}

/// A child process killed (and reaped) when dropped, so a failing test leaves nothing behind.
struct Process {
    name: &'static str,
    child: Child,
}

impl Process {
    fn pid(&self) -> String {
        self.child.id().to_string()
    }

    fn signal(&self, signal: &str) {
        let status = Command::new("kill")
            .args([signal, &self.pid()])
            .status()
            .expect("kill runs");
        assert!(status.success(), "kill {signal} {}", self.name);
    }

    fn stop(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A private JetStream server on its own port and folder.
struct Nats {
    port: u16,
    dir: PathBuf,
}

impl Nats {
    fn start(&self) -> Process {
        let child = Command::new("nats-server")
            .args([
                "-js",
                "-a",
                "127.0.0.1",
                "-p",
                &self.port.to_string(),
                "-sd",
            ])
            .arg(&self.dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("nats-server is on the PATH");
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(Instant::now() < deadline, "nats-server did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        Process {
            name: "nats-server",
            child,
        }
    }
}

struct Setup {
    env: Vec<(&'static str, String)>,
    logs: PathBuf,
}

impl Setup {
    /// The environment of every `balcao` process of one test: its database, its own NATS
    /// stream and subjects on `nats_port`, its public port, mail and logs in `scratch`.
    fn new(
        id: &str,
        scratch: &std::path::Path,
        database_url: &str,
        nats_port: u16,
        port: u16,
    ) -> Setup {
        Setup {
            env: vec![
                ("DATABASE_URL", database_url.to_owned()),
                ("NATS_URL", format!("nats://127.0.0.1:{nats_port}")),
                ("BALCAO_LISTEN", format!("127.0.0.1:{port}")),
                ("BALCAO_NATS_STREAM", format!("FAULT_{id}")),
                ("BALCAO_NATS_SUBJECT_PREFIX", format!("fault.{id}")),
                (
                    "BALCAO_MAIL_URL",
                    format!("file://{}", scratch.join("mail").display()),
                ),
                (
                    "BALCAO_WEBAPP_DIR",
                    scratch.join("webapp").display().to_string(),
                ),
                ("BALCAO_CREATE_PER_MINUTE", "100000".to_owned()),
                ("BALCAO_AUTH_PER_MINUTE_PER_ADDRESS", "1000".to_owned()),
                ("BALCAO_AUTH_PER_MINUTE_PER_EMAIL", "1000".to_owned()),
                ("RUST_LOG", "warn".to_owned()),
                // The shop goes Premium through the built-in sandbox billing (below).
                ("BALCAO_SANDBOX_PAYMENTS", "true".to_owned()),
            ],
            logs: scratch.to_path_buf(),
        }
    }

    fn balcao(&self, name: &'static str, args: &[&str]) -> Process {
        let log = std::fs::File::create(self.logs.join(format!("{name}.log"))).expect("log file");
        let child = Command::new(env!("CARGO_BIN_EXE_balcao"))
            .args(args)
            .envs(self.env.iter().map(|(k, v)| (*k, v.as_str())))
            // Each role's operations listener on a free port: the defaults (9090–9092) belong to
            // a `make run` that may be up beside the tests.
            .env("BALCAO_OPS_LISTEN", format!("127.0.0.1:{}", free_port()))
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("the balcao binary starts");
        Process { name, child }
    }

    fn run(&self, name: &'static str, args: &[&str]) {
        let log = std::fs::File::create(self.logs.join(format!("{name}.log"))).expect("log file");
        let status = Command::new(env!("CARGO_BIN_EXE_balcao"))
            .args(args)
            .envs(self.env.iter().map(|(k, v)| (*k, v.as_str())))
            .stdout(Stdio::null())
            .stderr(log)
            .status()
            .expect("the balcao binary runs");
        assert!(
            status.success(),
            "balcao {args:?} failed; see {}",
            self.logs.display()
        );
    }
}

#[derive(Default)]
struct Tally {
    /// Status → count, per kind of request.
    creations: BTreeMap<u16, usize>,
    pages: BTreeMap<u16, usize>,
    /// Requests that got no HTTP answer at all.
    unanswered: usize,
    /// The first few of those, as reqwest described them (for the failure message).
    lost: Vec<String>,
    made: BTreeSet<String>,
}

/// Waits until the gateway at `base` is ready (`/readyz` 200), at most 30 s.
async fn wait_until_ready(client: &reqwest::Client, base: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while client
        .get(format!("{base}/readyz"))
        .send()
        .await
        .map_or(true, |r| !r.status().is_success())
    {
        assert!(Instant::now() < deadline, "the gateway did not come up");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Signs the shop's owner up; answers the account id and the access token.
async fn sign_up(client: &reqwest::Client, base: &str) -> (String, String) {
    let signed_up: Value = client
        .post(format!("{base}/api/auth/signup"))
        .json(&json!({"email": "dona@padaria.test", "password": "senha-boa-1", "displayName": "Dona"}))
        .send()
        .await
        .expect("sign-up answered")
        .json()
        .await
        .expect("JSON");
    let account_id = signed_up["user"]["uid"].as_str().expect("uid").to_owned();
    let token = signed_up["accessToken"].as_str().expect("token").to_owned();
    (account_id, token)
}

/// Upgrades the account to Premium mensal and pays in the sandbox, then waits until the plan is
/// read as Premium: the run makes hundreds of codes, more than Grátis allows in a month.
async fn go_premium(client: &reqwest::Client, base: &str, account_id: &str, token: &str) {
    let subscription = format!("{base}/api/accounts/{account_id}/subscription");
    let upgraded: Value = client
        .post(format!("{subscription}/upgrade"))
        .bearer_auth(token)
        .json(&json!({"plan": "premium-mensal", "payerName": "Dona da Padaria", "document": "529.982.247-25"}))
        .send()
        .await
        .expect("upgrade answered")
        .json()
        .await
        .expect("JSON");
    let charge = upgraded["chargeId"].as_str().expect("chargeId");
    let paid = client
        .post(format!("{subscription}/charges/{charge}/simulate"))
        .bearer_auth(token)
        .json(&json!({}))
        .send()
        .await
        .expect("simulation answered");
    assert_eq!(paid.status().as_u16(), 200);
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let now: Value = client
            .get(&subscription)
            .bearer_auth(token)
            .send()
            .await
            .expect("subscription answered")
            .json()
            .await
            .expect("JSON");
        if now["plan"]["id"] == "premium-mensal" {
            return;
        }
        assert!(Instant::now() < deadline, "still not Premium: {now}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// `RATE` creations and `RATE` payer pages per second until `until`, each request in its own
/// task at its time.
async fn load(
    client: &reqwest::Client,
    codes_url: &str,
    token: &str,
    page_urls: &[String],
    tally: &Arc<Mutex<Tally>>,
    until: Duration,
    counter: &mut u64,
) {
    let interval = Duration::from_secs(1) / RATE;
    let start = tokio::time::Instant::now();
    let mut tasks = Vec::new();
    let mut i = 0u32;
    while start.elapsed() < until {
        tokio::time::sleep_until(start + interval * i).await;
        i += 1;
        *counter += 1;
        let n = *counter;
        let (creator, url, bearer, creations) = (
            client.clone(),
            codes_url.to_owned(),
            token.to_owned(),
            Arc::clone(tally),
        );
        tasks.push(tokio::spawn(async move {
            let answer = creator
                .post(&url)
                .bearer_auth(&bearer)
                .json(&json!({"pixKey": "loja@padaria.test", "merchantName": format!("Loja {n}"), "merchantCity": "Recife"}))
                .send()
                .await;
            let response = match answer {
                Ok(response) => response,
                Err(error) => {
                    let mut creations = creations.lock().await;
                    creations.unanswered += 1;
                    if creations.lost.len() < 5 {
                        creations.lost.push(format!("creation: {error:?}"));
                    }
                    return;
                }
            };
            let status = response.status().as_u16();
            let id = if status == 201 {
                let body: Value = response.json().await.unwrap_or_default();
                body["id"].as_str().map(str::to_owned)
            } else {
                None
            };
            let mut creations = creations.lock().await;
            *creations.creations.entry(status).or_default() += 1;
            if let Some(id) = id {
                creations.made.insert(id);
            }
        }));
        let (client, page, tally) = (
            client.clone(),
            page_urls[usize::try_from(n).unwrap_or(0) % page_urls.len()].clone(),
            Arc::clone(tally),
        );
        tasks.push(tokio::spawn(async move {
            let answer = client.get(&page).send().await;
            let mut tally = tally.lock().await;
            match answer {
                Ok(response) => *tally.pages.entry(response.status().as_u16()).or_default() += 1,
                Err(error) => {
                    tally.unanswered += 1;
                    if tally.lost.len() < 5 {
                        tally.lost.push(format!("payer page: {error:?}"));
                    }
                }
            }
        }));
    }
    for task in tasks {
        task.await.expect("request task");
    }
}

/// Every read-model table as one JSON text per table, rows in a stable order.
async fn read_models(conn: &mut PgConnection) -> BTreeMap<&'static str, String> {
    let mut out = BTreeMap::new();
    for table in ["qrcodes", "event_counts", "accounts", "account_members"] {
        let text: String = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "select coalesce(jsonb_agg(to_jsonb(t) order by to_jsonb(t)::text), '[]')::text
               from {table} t"
        )))
        .fetch_one(&mut *conn)
        .await
        .expect("the read model reads");
        out.insert(table, text);
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frozen_projector_and_a_stopped_nats_fail_no_request_and_lose_nothing() {
    let id = Uuid::new_v4().simple().to_string();
    let scratch = std::env::temp_dir().join(format!("balcao-fault-{id}"));
    std::fs::create_dir_all(scratch.join("nats")).expect("scratch folder");
    let nats = Nats {
        port: free_port(),
        dir: scratch.join("nats"),
    };
    let mut nats_process = Some(nats.start());
    let database = format!("balcao_fault_{id}");
    let admin = server_url()
        .parse::<sqlx::postgres::PgConnectOptions>()
        .expect("DATABASE_URL parses")
        .database("postgres");
    let database_url = admin.clone().database(&database).to_url_lossy().to_string();
    let port = free_port();
    let setup = Setup::new(&id, &scratch, &database_url, nats.port, port);
    setup.run("migrate", &["migrate"]);
    let serve = setup.balcao("serve", &["serve"]);
    let relay = setup.balcao("relay", &["relay"]);
    let projector = setup.balcao("project", &["project"]);
    let base = format!("http://127.0.0.1:{port}");
    let client = reqwest::Client::new();
    wait_until_ready(&client, &base).await;
    let (account_id, token) = sign_up(&client, &base).await;
    let codes_url = format!("{base}/api/accounts/{account_id}/qrcodes");
    go_premium(&client, &base, &account_id, &token).await;
    let mut page_urls = Vec::new();
    for i in 0..5 {
        let made = client
            .post(&codes_url)
            .bearer_auth(&token)
            .json(&json!({"pixKey": "loja@padaria.test", "merchantName": format!("Pagina {i}"), "merchantCity": "Recife"}))
            .send()
            .await
            .expect("answered");
        assert_eq!(made.status().as_u16(), 201);
        let body: Value = made.json().await.expect("JSON");
        page_urls.push(format!(
            "{base}/pagamento/{}",
            body["id"].as_str().expect("id")
        ));
    }
    let tally = Arc::new(Mutex::new(Tally::default()));
    let mut counter = 0;

    // Healthy, then the projector frozen for 20 s.
    load(
        &client,
        &codes_url,
        &token,
        &page_urls,
        &tally,
        Duration::from_secs(5),
        &mut counter,
    )
    .await;
    projector.signal("-STOP");
    load(
        &client,
        &codes_url,
        &token,
        &page_urls,
        &tally,
        Duration::from_secs(20),
        &mut counter,
    )
    .await;
    projector.signal("-CONT");
    load(
        &client,
        &codes_url,
        &token,
        &page_urls,
        &tally,
        Duration::from_secs(5),
        &mut counter,
    )
    .await;

    // The private NATS stopped for 30 s, then started again on the same folder.
    if let Some(process) = nats_process.take() {
        process.stop();
    }
    load(
        &client,
        &codes_url,
        &token,
        &page_urls,
        &tally,
        Duration::from_secs(30),
        &mut counter,
    )
    .await;
    nats_process = Some(nats.start());
    load(
        &client,
        &codes_url,
        &token,
        &page_urls,
        &tally,
        Duration::from_secs(5),
        &mut counter,
    )
    .await;

    let tally = Arc::try_unwrap(tally)
        .ok()
        .expect("every request ended")
        .into_inner();
    assert_eq!(
        tally.unanswered, 0,
        "every request was answered: {:?}",
        tally.lost
    );
    assert_eq!(
        tally.creations.keys().copied().collect::<Vec<_>>(),
        vec![201],
        "every creation succeeded: {:?}",
        tally.creations
    );
    assert_eq!(
        tally.pages.keys().copied().collect::<Vec<_>>(),
        vec![200],
        "every payer page was served: {:?}",
        tally.pages
    );
    let answered: usize = tally.creations.values().sum();
    assert_eq!(
        tally.made.len(),
        answered,
        "every 201 named a code of its own"
    );

    // Once caught up, the read model holds exactly those codes (and the payer pages' own).
    let mut conn = PgConnection::connect(&database_url)
        .await
        .expect("the database answers");
    let deadline = Instant::now() + Duration::from_secs(120);
    let projected = loop {
        let ids: Vec<String> =
            sqlx::query_scalar("select qrcode_id::text from qrcodes where owner_id = $1::uuid")
                .bind(&account_id)
                .fetch_all(&mut conn)
                .await
                .expect("the read model reads");
        let ids: BTreeSet<String> = ids.into_iter().collect();
        if ids.len() >= tally.made.len() + page_urls.len() || Instant::now() > deadline {
            break ids;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    };
    assert!(
        tally.made.is_subset(&projected),
        "{} of the codes answered 201 are missing from the read model",
        tally.made.difference(&projected).count()
    );
    assert_eq!(
        projected.len(),
        tally.made.len() + page_urls.len(),
        "nothing but the codes made is there"
    );
    let events: i64 =
        sqlx::query_scalar("select count(*) from events where stream_type = 'qrcode'")
            .fetch_one(&mut conn)
            .await
            .expect("the log reads");
    assert_eq!(
        usize::try_from(events).expect("a count"),
        projected.len(),
        "one event per code: no command ran twice"
    );

    // The live read models equal a replay of the log.
    let live = read_models(&mut conn).await;
    setup.run("replay", &["replay", "--all"]);
    assert_eq!(read_models(&mut conn).await, live);

    projector.stop();
    relay.stop();
    serve.stop();
    drop(nats_process);
    conn.close().await.ok();
    if let Ok(mut admin) = admin.connect().await {
        let _ = sqlx::query(sqlx::AssertSqlSafe(format!(
            "drop database if exists \"{database}\" with (force)"
        )))
        .execute(&mut admin)
        .await;
    }
    let _ = std::fs::remove_dir_all(&scratch);
}

/// Whether this test runs as root, whom PostgreSQL refuses to run as.
fn running_as_root() -> bool {
    id(&["-u"]) == 0
}

/// A number `id` prints (`id -u`, `id -g postgres`).
fn id(args: &[&str]) -> u32 {
    let output = Command::new("id").args(args).output().expect("id runs");
    String::from_utf8_lossy(&output.stdout)
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("id {args:?} printed a number"))
}

/// A private PostgreSQL cluster in its own folder, on its own port: this test stops and starts
/// it, which it must never do to the shared server others use. Run as the `postgres` user when
/// the test runs as root.
struct Postgres {
    port: u16,
    dir: PathBuf,
    user: Option<(u32, u32)>,
}

impl Postgres {
    /// `initdb` in `dir` (trust authentication, user `postgres`).
    fn create(dir: PathBuf) -> Postgres {
        std::fs::create_dir_all(&dir).expect("cluster folder");
        let user = running_as_root().then(|| (id(&["-u", "postgres"]), id(&["-g", "postgres"])));
        if let Some((uid, gid)) = user {
            std::os::unix::fs::chown(&dir, Some(uid), Some(gid)).expect("the folder is postgres's");
        }
        let cluster = Postgres {
            port: free_port(),
            dir,
            user,
        };
        let status = cluster
            .command("initdb")
            .arg("-D")
            .arg(&cluster.dir)
            .args(["-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("initdb is on the PATH (Debian: /usr/lib/postgresql/*/bin)");
        assert!(status.success(), "initdb failed");
        cluster
    }

    fn command(&self, program: &str) -> Command {
        use std::os::unix::process::CommandExt;
        let mut command = Command::new(program);
        if let Some((uid, gid)) = self.user {
            command.uid(uid).gid(gid);
        }
        command
    }

    /// Starts the server and returns once it accepts connections.
    fn start(&self) -> Process {
        let child = self
            .command("postgres")
            .arg("-D")
            .arg(&self.dir)
            .args(["-p", &self.port.to_string(), "-k"])
            .arg(&self.dir)
            .args(["-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("postgres is on the PATH");
        let deadline = Instant::now() + Duration::from_secs(30);
        while !self.answers() {
            assert!(Instant::now() < deadline, "postgres did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        Process {
            name: "postgres",
            child,
        }
    }

    /// Whether the server accepts connections now.
    fn answers(&self) -> bool {
        Command::new("pg_isready")
            .args(["-q", "-h", "127.0.0.1", "-p", &self.port.to_string()])
            .status()
            .is_ok_and(|status| status.success())
    }

    /// Stops the server the fast way (SIGINT: sessions are ended, nothing is lost) and waits
    /// until it has.
    fn stop(&self, mut server: Process) {
        server.signal("-INT");
        let _ = server.child.wait();
    }

    fn url(&self, database: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{database}", self.port)
    }
}

/// The gateway's connections to the cluster (`application_name` `balcao-gateway`).
async fn gateway_connections(admin: &str) -> i64 {
    let mut conn = PgConnection::connect(admin)
        .await
        .expect("the cluster answers");
    let count = sqlx::query_scalar(
        "select count(*) from pg_stat_activity where application_name = 'balcao-gateway'",
    )
    .fetch_one(&mut conn)
    .await
    .expect("pg_stat_activity reads");
    conn.close().await.ok();
    count
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_postgresql_restart_the_gateway_is_ready_within_five_seconds_and_serves_requests() {
    let id = Uuid::new_v4().simple().to_string();
    let scratch = std::env::temp_dir().join(format!("balcao-pg-restart-{id}"));
    std::fs::create_dir_all(scratch.join("nats")).expect("scratch folder");
    let nats = Nats {
        port: free_port(),
        dir: scratch.join("nats"),
    };
    let _nats = nats.start();
    let cluster = Postgres::create(scratch.join("pg"));
    let mut server = cluster.start();
    let port = free_port();
    let setup = Setup::new(&id, &scratch, &cluster.url("balcao"), nats.port, port);
    setup.run("migrate", &["migrate"]);
    let all = setup.balcao("all", &["all"]);
    let base = format!("http://127.0.0.1:{port}");
    let client = reqwest::Client::new();
    wait_until_ready(&client, &base).await;
    let (_, token) = sign_up(&client, &base).await;
    let workspaces = format!("{base}/api/workspaces");
    let burst = async || {
        let requests = (0..30).map(|_| client.get(&workspaces).bearer_auth(&token).send());
        futures::future::join_all(requests)
            .await
            .into_iter()
            .map(|answer| answer.map_or(0, |r| r.status().as_u16()))
            .collect::<Vec<_>>()
    };

    // Bursts of requests leave the gateway's pool holding many connections, all idle after.
    let admin = cluster.url("postgres");
    let mut pooled = 0;
    for _ in 0..20 {
        let statuses = burst().await;
        assert!(statuses.iter().all(|&s| s == 200), "{statuses:?}");
        pooled = gateway_connections(&admin).await;
        if pooled >= 10 {
            break;
        }
    }
    assert!(pooled >= 10, "the pool kept {pooled} connections");

    // The restart: every pooled connection dies.
    cluster.stop(server);
    tokio::time::sleep(Duration::from_secs(2)).await;
    server = cluster.start();

    // A load balancer's probe once a second: ready within 5 s of the database answering.
    let mut probes = Vec::new();
    for _ in 0..5 {
        let status = client
            .get(format!("{base}/readyz"))
            .send()
            .await
            .map_or(0, |r| r.status().as_u16());
        probes.push(status);
        if status == 200 {
            break;
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    assert_eq!(
        probes.last(),
        Some(&200),
        "/readyz after the restart, one probe a second: {probes:?}"
    );
    // And requests after it succeed: no dead connection is left to fail one.
    let statuses = burst().await;
    assert!(
        statuses.iter().all(|&s| s == 200),
        "requests after the restart: {statuses:?}"
    );

    all.stop();
    cluster.stop(server);
    let _ = std::fs::remove_dir_all(&scratch);
}
