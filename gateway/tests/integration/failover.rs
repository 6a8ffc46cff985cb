//! Failover between real `balcao` processes: two relays and two projectors of the same
//! projection run at once on their own database and stream; under a bounded write load the
//! active relay, then the active projector, is killed with SIGKILL. The standbys take over, and
//! in the end every event is in the stream once and in the read model once.

use std::net::{SocketAddr, TcpListener};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::str::FromStr;
use std::time::{Duration, Instant};

use sqlx::postgres::PgConnectOptions;
use sqlx::{ConnectOptions, PgPool};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use uuid::Uuid;

/// Transactions the load writes, and events per transaction.
const TRANSACTIONS: i64 = 200;
const EVENTS_PER_TRANSACTION: i64 = 10;
/// Longest wait for anything that should take seconds.
const PATIENCE: Duration = Duration::from_secs(90);

fn server_url() -> String {
    std::env::var("DATABASE_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_owned())
}

fn nats_url() -> String {
    std::env::var("NATS_URL").unwrap_or_else(|_| "nats://127.0.0.1:4222".to_owned())
}

fn free_port() -> SocketAddr {
    TcpListener::bind("127.0.0.1:0")
        .expect("a free port")
        .local_addr()
        .expect("its address")
}

/// One `balcao` child process; killed when dropped, so a failing test leaves none behind.
struct Process {
    name: String,
    child: Child,
    ops: SocketAddr,
    log: PathBuf,
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Process {
    /// `GET path` on this process's operations listener: status and body, `None` if it does not
    /// answer.
    async fn ops_get(&self, path: &str) -> Option<(u16, String)> {
        let attempt = async {
            let mut stream = tokio::net::TcpStream::connect(self.ops).await.ok()?;
            let request =
                format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
            stream.write_all(request.as_bytes()).await.ok()?;
            let mut response = String::new();
            stream.read_to_string(&mut response).await.ok()?;
            let status = response.get(9..12)?.parse().ok()?;
            let body = response.split_once("\r\n\r\n")?.1.to_owned();
            Some((status, body))
        };
        tokio::time::timeout(Duration::from_secs(10), attempt)
            .await
            .ok()
            .flatten()
    }

    /// Whether the process says (in `/metrics`) that it leads: the relay lock, or the lock of
    /// `event_counts`.
    async fn leads(&self) -> bool {
        let Some((200, metrics)) = self.ops_get("/metrics").await else {
            return false;
        };
        metrics.lines().any(|line| {
            line == "balcao_relay_active 1"
                || line == "balcao_projector_active{projection=\"event_counts\"} 1"
        })
    }

    fn kill_hard(&mut self) {
        // std's kill is SIGKILL on Unix: no shutdown, no lock release, as in a crash.
        self.child.kill().expect("the process is killed");
        self.child.wait().expect("and reaped");
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

/// The database, stream and processes of one test.
struct Cluster {
    id: String,
    database_url: String,
    database: String,
    stream: String,
    processes: Vec<Process>,
}

impl Cluster {
    fn new() -> Cluster {
        let id = Uuid::new_v4().simple().to_string();
        let database = format!("balcao_test_{id}");
        let database_url = PgConnectOptions::from_str(&server_url())
            .expect("DATABASE_URL is a PostgreSQL URL")
            .database(&database)
            .to_url_lossy()
            .to_string();
        Cluster {
            stream: format!("FAILOVER_{}", id.to_uppercase()),
            id,
            database_url,
            database,
            processes: Vec::new(),
        }
    }

    fn command(&self, args: &[&str], ops: SocketAddr) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_balcao"));
        command
            .args(args)
            .env("DATABASE_URL", &self.database_url)
            .env("NATS_URL", nats_url())
            .env("BALCAO_NATS_STREAM", &self.stream)
            .env(
                "BALCAO_NATS_SUBJECT_PREFIX",
                format!("failover.{}", self.id),
            )
            .env("BALCAO_OPS_LISTEN", ops.to_string())
            .env("RUST_LOG", "info")
            .env("NO_COLOR", "1")
            .stdin(Stdio::null());
        command
    }

    fn migrate(&self) {
        let status = self
            .command(&["migrate"], free_port())
            .stdout(Stdio::null())
            .status()
            .expect("balcao migrate runs");
        assert!(status.success(), "balcao migrate failed");
    }

    fn start(&mut self, name: &str, args: &[&str]) -> usize {
        let ops = free_port();
        let log = std::env::temp_dir().join(format!("balcao-failover-{}-{name}.log", self.id));
        let file = std::fs::File::create(&log).expect("a log file");
        let child = self
            .command(args, ops)
            .stdout(file.try_clone().expect("log file"))
            .stderr(file)
            .spawn()
            .expect("balcao starts");
        self.processes.push(Process {
            name: name.to_owned(),
            child,
            ops,
            log,
        });
        self.processes.len() - 1
    }

    fn logs(&self) -> String {
        self.processes
            .iter()
            .map(|p| format!("--- {} ---\n{}", p.name, p.log()))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Of the processes at `candidates`, the one that leads, once exactly one does.
    async fn leader(&self, candidates: [usize; 2]) -> usize {
        let deadline = Instant::now() + PATIENCE;
        while Instant::now() < deadline {
            let mut leading = Vec::new();
            for index in candidates {
                if self.processes[index].leads().await {
                    leading.push(index);
                }
            }
            if let [one] = leading[..] {
                return one;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("no single leader among {candidates:?}\n{}", self.logs());
    }

    async fn stop(mut self) {
        let logs: Vec<PathBuf> = self.processes.iter().map(|p| p.log.clone()).collect();
        self.processes.clear();
        for log in logs {
            let _ = std::fs::remove_file(log);
        }
        if let Ok(client) = async_nats::connect(nats_url()).await {
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

/// One transaction of `EVENTS_PER_TRANSACTION` events on a new stream.
async fn write_transaction(pool: &PgPool) {
    sqlx::query(
        "insert into events
             (event_id, stream_type, stream_id, stream_version, event_type, schema_version, payload)
         select gen_random_uuid(), 'carga', $1, n, 'Ping', 1, '{}'::jsonb
           from generate_series(1, $2) as n",
    )
    .bind(Uuid::new_v4().to_string())
    .bind(EVENTS_PER_TRANSACTION)
    .execute(pool)
    .await
    .expect("the load's transaction commits");
}

async fn scalar(pool: &PgPool, sql: &'static str) -> i64 {
    sqlx::query_scalar(sql)
        .fetch_one(pool)
        .await
        .expect("the query answers")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killing_the_active_relay_and_projector_under_load_loses_nothing_and_applies_nothing_twice()
{
    let mut cluster = Cluster::new();
    cluster.migrate();
    let relays = [
        cluster.start("relay-a", &["relay"]),
        cluster.start("relay-b", &["relay"]),
    ];
    let projectors = [
        cluster.start("project-a", &["project", "event_counts"]),
        cluster.start("project-b", &["project", "event_counts"]),
    ];
    let pool = PgPool::connect(&cluster.database_url)
        .await
        .expect("the test database answers");

    let active_relay = cluster.leader(relays).await;
    let active_projector = cluster.leader(projectors).await;
    // A standby is ready too: it is doing its job, waiting to take over. (A projector that
    // started before the relay made the stream retries once, 100 ms later, and is then a
    // standby: its readiness is asked until it settles, for a few seconds at most.)
    for process in &cluster.processes {
        let mut answer = process.ops_get("/readyz").await.expect("readyz answers");
        for _ in 0..50 {
            if answer.0 == 200 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            answer = process.ops_get("/readyz").await.expect("readyz answers");
        }
        let (status, body) = answer;
        assert_eq!(status, 200, "{}: {body}", process.name);
    }

    for round in 0..TRANSACTIONS {
        write_transaction(&pool).await;
        if round == TRANSACTIONS / 3 {
            cluster.processes[active_relay].kill_hard();
        }
        if round == 2 * TRANSACTIONS / 3 {
            cluster.processes[active_projector].kill_hard();
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let standby_relay = relays
        .into_iter()
        .find(|&i| i != active_relay)
        .expect("two");
    let standby_projector = projectors
        .into_iter()
        .find(|&i| i != active_projector)
        .expect("two");
    assert_eq!(
        cluster.leader(relays).await,
        standby_relay,
        "the standby relay took over"
    );
    assert_eq!(
        cluster.leader(projectors).await,
        standby_projector,
        "the standby projector took over"
    );

    let written = TRANSACTIONS * EVENTS_PER_TRANSACTION;
    assert_eq!(scalar(&pool, "select count(*) from events").await, written);
    let deadline = Instant::now() + PATIENCE;
    let mut projected = 0;
    while Instant::now() < deadline {
        projected = scalar(
            &pool,
            "select coalesce(sum(events), 0)::bigint from event_counts where stream_type = 'carga'",
        )
        .await;
        if projected >= written {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // More than written would be an event applied twice; the loop stops at the first sum that
    // reaches the total, so it would show here.
    assert_eq!(
        projected,
        written,
        "every event is counted exactly once\n{}",
        cluster.logs()
    );
    assert_eq!(scalar(&pool, "select count(*) from parked_events").await, 0);

    // In the stream once each: JetStream dropped whatever the killed relay had published
    // without storing its checkpoint.
    let jetstream =
        async_nats::jetstream::new(async_nats::connect(nats_url()).await.expect("NATS answers"));
    let mut stream = jetstream
        .get_stream(&cluster.stream)
        .await
        .expect("the relay made the stream");
    let messages = stream.info().await.expect("stream info").state.messages;
    assert_eq!(messages, u64::try_from(written).expect("positive"));

    // The survivors report no lag.
    let (_, metrics) = cluster.processes[standby_projector]
        .ops_get("/metrics")
        .await
        .expect("metrics answer");
    assert!(
        metrics
            .lines()
            .any(|line| line == "balcao_projection_lag_events{projection=\"event_counts\"} 0"),
        "{metrics}"
    );
    pool.close().await;
    cluster.stop().await;
}
