//! What the process benchmarks share: a private stack of real `balcao` processes (the binary
//! cargo built for the bench, or the one `BALCAO_BENCH_BINARY` names, to compare two builds side
//! by side) over a fresh database and a private `nats-server`, a signed-up shop, and CPU time
//! read from `/proc`.

#![allow(dead_code)] // each bench uses part of it

pub mod load;

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use sqlx::{ConnectOptions, Connection, PgConnection};
use uuid::Uuid;

/// A free port on loopback.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

/// A whole-number setting from the environment.
pub fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// User plus system CPU time a process has used so far, in seconds (0 when it is gone).
pub fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The command name may hold spaces; the fields after its closing parenthesis are fixed:
    // utime and stime are fields 14 and 15 of the line, 11 and 12 after the name.
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after.split_whitespace().collect();
    let field = |n: usize| {
        fields
            .get(n)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    // Linux counts in clock ticks of 1/100 s (USER_HZ).
    (field(11) + field(12)) as f64 / 100.0
}

/// Resident memory of a process, in KiB (`VmRSS`; 0 when it is gone).
#[allow(
    dead_code,
    reason = "each bench compiles this module; only `creations` reads memory"
)]
pub fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|kib| kib.parse().ok())
        .unwrap_or(0)
}

/// Appends `events` events of a stream nobody reads, then puts the relay's checkpoint (the
/// default stream's) and every projection's at the last one.
async fn fill_log(options: &sqlx::postgres::PgConnectOptions, events: i64) {
    let mut db = PgConnection::connect_with(options)
        .await
        .expect("the bench's database");
    sqlx::query(
        "insert into events (event_id, stream_type, stream_id, stream_version, event_type,
                             schema_version, payload)
         select gen_random_uuid(), 'historico', 'bench', g, 'Preenchido', 1, '{}'::jsonb
           from generate_series(1, $1) as g",
    )
    .bind(events)
    .execute(&mut db)
    .await
    .expect("fill the log");
    sqlx::raw_sql("analyze events")
        .execute(&mut db)
        .await
        .expect("analyze");
    let (tx_id, position): (String, i64) = sqlx::query_as(
        "select tx_id::text, global_position from events order by global_position desc limit 1",
    )
    .fetch_one(&mut db)
    .await
    .expect("the log's end");
    sqlx::query(
        "insert into relay_checkpoints (stream_name, tx_id, global_position)
         values ('BALCAO_EVENTS', $1::text::xid8, $2)",
    )
    .bind(&tx_id)
    .bind(position)
    .execute(&mut db)
    .await
    .expect("the relay's checkpoint");
    for projection in projections::all() {
        sqlx::query(
            "insert into projection_checkpoints (projection, tx_id, global_position)
             values ($1, $2::text::xid8, $3)
             on conflict (projection) do update
                set tx_id = excluded.tx_id, global_position = excluded.global_position",
        )
        .bind(projection.name())
        .bind(&tx_id)
        .bind(position)
        .execute(&mut db)
        .await
        .expect("a projection's checkpoint");
    }
}

/// Runs a benchmark's body on a two-worker runtime (the generator's share of the 2 cores).
pub fn block_on(body: impl std::future::Future<Output = ()>) {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime")
        .block_on(body);
}

/// A child process killed (and reaped) when dropped.
pub struct Process {
    /// Its role, as the tables name it.
    pub name: &'static str,
    child: Child,
}

impl Process {
    /// Its process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The processes of one run, their database and their scratch folder, all removed when dropped.
pub struct Stack {
    /// `127.0.0.1:port` of the gateway.
    pub address: String,
    /// `http://` + address.
    pub base: String,
    /// The fresh database's name.
    pub database: String,
    /// A connection to it, for the bench's own queries.
    pub db: PgConnection,
    /// The private NATS first, then the `balcao` roles in the order started.
    pub processes: Vec<Process>,
    admin: sqlx::postgres::PgConnectOptions,
    scratch: PathBuf,
}

impl Stack {
    /// Starts a private `nats-server`, migrates a fresh database, then runs `balcao` once per
    /// entry of `roles` (`&["all"]`, or `&["serve", "relay", "project"]`), with sandbox payments
    /// on and the creation rate limit out of the way; returns when `/healthz` answers.
    pub async fn start(roles: &[&'static str]) -> Stack {
        Self::start_after_log(roles, 0).await
    }

    /// [`Stack::start`] over a log that already holds `events` events, every one of them
    /// published by the relay and applied by every projection before the roles start (their
    /// checkpoints are at the log's end): what a service looks like after months of sales, for
    /// the costs that could grow with the log.
    pub async fn start_after_log(roles: &[&'static str], events: i64) -> Stack {
        let id = Uuid::new_v4().simple().to_string();
        let scratch = std::env::temp_dir().join(format!("balcao-bench-{id}"));
        std::fs::create_dir_all(scratch.join("nats")).expect("scratch folder");
        std::fs::create_dir_all(scratch.join("webapp")).expect("scratch folder");
        let log = |name: &str| std::fs::File::create(scratch.join(name)).expect("log file");
        let nats_port = free_port();
        let nats = Process {
            name: "nats-server",
            child: Command::new("nats-server")
                .args([
                    "-js",
                    "-a",
                    "127.0.0.1",
                    "-p",
                    &nats_port.to_string(),
                    "-sd",
                ])
                .arg(scratch.join("nats"))
                .stdout(Stdio::null())
                .stderr(log("nats.log"))
                .spawn()
                .expect("nats-server is on the PATH"),
        };
        let deadline = Instant::now() + Duration::from_secs(60);
        while std::net::TcpStream::connect(("127.0.0.1", nats_port)).is_err() {
            assert!(Instant::now() < deadline, "nats-server did not start");
            std::thread::sleep(Duration::from_millis(50));
        }

        let admin = std::env::var("DATABASE_URL")
            .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_owned())
            .parse::<sqlx::postgres::PgConnectOptions>()
            .expect("DATABASE_URL parses")
            .database("postgres");
        let database = format!("balcao_bench_{id}");
        let mut conn = PgConnection::connect_with(&admin)
            .await
            .expect("PostgreSQL");
        // The name is made here from a UUID: nothing outside reaches it.
        sqlx::query(sqlx::AssertSqlSafe(format!("create database {database}")))
            .execute(&mut conn)
            .await
            .expect("create database");
        let port = free_port();
        let address = format!("127.0.0.1:{port}");
        let environment = [
            (
                "DATABASE_URL",
                admin.clone().database(&database).to_url_lossy().to_string(),
            ),
            ("NATS_URL", format!("nats://127.0.0.1:{nats_port}")),
            ("BALCAO_LISTEN", address.clone()),
            (
                "BALCAO_MAIL_URL",
                format!("file://{}", scratch.join("mail").display()),
            ),
            (
                "BALCAO_WEBAPP_DIR",
                scratch.join("webapp").display().to_string(),
            ),
            ("BALCAO_CREATE_PER_MINUTE", "10000000".to_owned()),
            // A run signs several shops up from one address.
            ("BALCAO_AUTH_PER_MINUTE_PER_ADDRESS", "1000".to_owned()),
            ("BALCAO_AUTH_PER_MINUTE_PER_EMAIL", "1000".to_owned()),
            ("BALCAO_SIGN_UP_PER_MINUTE_PER_ADDRESS", "1000".to_owned()),
            ("BALCAO_SANDBOX_PAYMENTS", "true".to_owned()),
            ("RUST_LOG", "warn".to_owned()),
        ];
        // `BALCAO_BENCH_BINARY` runs another build's `balcao` (a copy of the one before a change)
        // with this bench, so two builds are compared side by side in one sitting.
        let binary = std::env::var("BALCAO_BENCH_BINARY")
            .unwrap_or_else(|_| env!("CARGO_BIN_EXE_balcao").to_owned());
        let balcao = |args: &[&str]| {
            let mut command = Command::new(&binary);
            command
                .args(args)
                .envs(environment.iter().map(|(k, v)| (*k, v.as_str())))
                .stdout(Stdio::null())
                .stderr(log(&format!("{}.log", args[0])));
            command
        };
        let migrated = balcao(&["migrate"]).status().expect("balcao migrate runs");
        assert!(migrated.success(), "migrate failed: {}", scratch.display());
        if events > 0 {
            fill_log(&admin.clone().database(&database), events).await;
        }
        let mut processes = vec![nats];
        for role in roles {
            processes.push(Process {
                name: role,
                child: balcao(&[role]).spawn().expect("balcao starts"),
            });
        }
        let base = format!("http://{address}");
        let client = reqwest::Client::new();
        while client
            .get(format!("{base}/healthz"))
            .send()
            .await
            .map_or(true, |r| !r.status().is_success())
        {
            assert!(Instant::now() < deadline, "the gateway did not come up");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let db = PgConnection::connect_with(&admin.clone().database(&database))
            .await
            .expect("the bench's database");
        Stack {
            address,
            base,
            database,
            db,
            processes,
            admin,
            scratch,
        }
    }

    /// The process playing `name` (`"serve"`, `"all"`, `"nats-server"`…).
    pub fn process(&self, name: &str) -> &Process {
        self.processes
            .iter()
            .find(|p| p.name == name)
            .unwrap_or_else(|| panic!("no {name} process"))
    }

    /// Signs a shop up: its account id and access token.
    pub async fn sign_up(&self, client: &reqwest::Client) -> (String, String) {
        self.sign_up_as(client, "dona@padaria.test").await
    }

    /// Signs a shop up with `email`: its account id and access token.
    pub async fn sign_up_as(&self, client: &reqwest::Client, email: &str) -> (String, String) {
        let signed_up: Value = client
            .post(format!("{}/api/auth/signup", self.base))
            .json(&json!({"email": email, "password": "senha-boa-1", "displayName": "Dona"}))
            .send()
            .await
            .expect("sign-up answered")
            .json()
            .await
            .expect("JSON");
        (
            signed_up["user"]["uid"]
                .as_str()
                .unwrap_or_else(|| panic!("no uid: {signed_up}"))
                .to_owned(),
            signed_up["accessToken"].as_str().expect("token").to_owned(),
        )
    }

    /// Upgrades the shop to Premium mensal and pays in the sandbox, then waits until the plan
    /// reads as Premium: the runs make more codes than Grátis allows in a month.
    pub async fn go_premium(&self, client: &reqwest::Client, account_id: &str, token: &str) {
        let subscription = format!("{}/api/accounts/{account_id}/subscription", self.base);
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

    /// Stops every process, then drops the database and the scratch folder.
    pub async fn stop(self) {
        let Stack {
            processes,
            admin,
            database,
            db,
            scratch,
            ..
        } = self;
        drop(processes);
        let _ = db.close().await;
        if let Ok(mut conn) = PgConnection::connect_with(&admin).await {
            let _ = sqlx::query(sqlx::AssertSqlSafe(format!(
                "drop database if exists {database} with (force)"
            )))
            .execute(&mut conn)
            .await;
        }
        let _ = std::fs::remove_dir_all(&scratch);
    }
}
